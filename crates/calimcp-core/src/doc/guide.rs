//! An app's guide on its page: the author's markdown rendered by
//! pulldown-cmark, with nothing of it passed through as markup. Raw HTML
//! (blocks and inline) becomes text, escaped like any other text; a link
//! keeps its target only when it is `https:`, `http:`, `mailto:` or a `#`
//! fragment (else only its text is shown); an image becomes a link to it
//! (the page loads no image a guide names); headings move down two levels,
//! below the page's own `h1`/`h2`.

use pulldown_cmark::{CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd};

/// The guide's markdown as an HTML fragment (see the module comment).
pub(crate) fn render(markdown: &str) -> String {
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    // A dropped link's end must be dropped too: their nesting is kept here.
    let mut dropped: Vec<bool> = Vec::new();
    let events = Parser::new_ext(markdown, opts).filter_map(|event| match event {
        Event::Html(t) | Event::InlineHtml(t) => Some(Event::Text(t)),
        Event::Start(Tag::Heading {
            level,
            id,
            classes,
            attrs,
        }) => Some(Event::Start(Tag::Heading {
            level: lower(level),
            id,
            classes,
            attrs,
        })),
        Event::End(TagEnd::Heading(level)) => Some(Event::End(TagEnd::Heading(lower(level)))),
        Event::Start(Tag::Link {
            dest_url, title, ..
        })
        | Event::Start(Tag::Image {
            dest_url, title, ..
        }) => {
            let keep = safe_target(&dest_url);
            dropped.push(!keep);
            keep.then_some(Event::Start(Tag::Link {
                link_type: LinkType::Inline,
                dest_url,
                title,
                id: CowStr::Borrowed(""),
            }))
        }
        Event::End(TagEnd::Link) | Event::End(TagEnd::Image) => {
            (!dropped.pop().unwrap_or(false)).then_some(Event::End(TagEnd::Link))
        }
        other => Some(other),
    });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events);
    out
}

/// A heading two levels down (at most `h6`).
fn lower(level: HeadingLevel) -> HeadingLevel {
    match level {
        HeadingLevel::H1 => HeadingLevel::H3,
        HeadingLevel::H2 => HeadingLevel::H4,
        HeadingLevel::H3 => HeadingLevel::H5,
        _ => HeadingLevel::H6,
    }
}

/// Whether a link may point at `url`: the web, mail, or this page.
fn safe_target(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    ["https://", "http://", "mailto:", "#"]
        .iter()
        .any(|p| lower.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_text_and_markdown_is_markup() {
        let html = render(
            "# Guide\n\n<script>alert(1)</script>\n\nSome *text* with <b onclick=\"x\">inline</b>.\n\n## Procedures\n### Store\n",
        );
        assert!(html.contains("<h3>Guide</h3>"), "{html}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<b "), "{html}");
        assert!(html.contains("<em>text</em>"), "{html}");
        assert!(html.contains("<h4>Procedures</h4>") && html.contains("<h5>Store</h5>"));
    }

    #[test]
    fn links_keep_safe_targets_only_and_images_become_links() {
        let html = render(
            "[ok](https://example.com/a) [bad](javascript:alert(1)) [data](data:text/html,x) ![pic](https://example.com/p.png)",
        );
        assert!(
            html.contains(r#"<a href="https://example.com/a">ok</a>"#),
            "{html}"
        );
        assert!(
            !html.contains("javascript:") && !html.contains("data:"),
            "{html}"
        );
        assert!(html.contains("bad") && html.contains("data"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(
            html.contains(r#"<a href="https://example.com/p.png">pic</a>"#),
            "{html}"
        );
    }
}
