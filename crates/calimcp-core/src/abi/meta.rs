//! An app's guide and icon, from its metadata (a node app's `metadata`, a
//! bundle's `manifest.json` `metadata`), bounded before anything keeps them.
//!
//! - `guide`: markdown written by the app's author for agents; its
//!   procedures are the `###` headings under `## Procedures`. At most
//!   [`MAX_GUIDE_BYTES`]; a larger one is dropped with a warning. Control
//!   characters other than newlines and tabs are taken out.
//! - `icon`: a `data:image/…` URL of at most [`MAX_ICON_BYTES`], or an
//!   `https://` URL; anything else is dropped with a warning. calimcp never
//!   fetches it: it is only handed on (MCP `icons`, the web page's `img`).

use std::sync::Arc;

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::Warning;
use crate::text::{sanitize_doc, sanitize_line};

/// The largest guide kept, in bytes of UTF-8.
pub const MAX_GUIDE_BYTES: usize = 64 * 1024;
/// The longest icon URL kept, in bytes (a `data:` URL holds the image).
pub const MAX_ICON_BYTES: usize = 32 * 1024;
/// At most this many procedure titles are listed.
pub const MAX_PROCEDURES: usize = 64;
/// A procedure title longer than this many characters is cut.
const MAX_TITLE_CHARS: usize = 200;

/// The image types a `data:` icon may have.
const DATA_IMAGE_TYPES: [&str; 7] = ["png", "jpeg", "gif", "webp", "svg+xml", "avif", "x-icon"];

/// An app's guide: its markdown and what is read from it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Guide {
    /// The markdown, as the author wrote it (control characters taken out).
    pub markdown: String,
    /// The `###` titles under `## Procedures`, in order.
    pub procedures: Vec<String>,
    /// The first 16 hex digits of the markdown's SHA-256: tells versions of
    /// a guide apart (a changed guide is shown again).
    pub digest: String,
}

impl Guide {
    /// A guide from its markdown; `None` when there is nothing in it.
    /// Unbounded: [`guide`] applies the bound.
    pub fn new(markdown: &str) -> Option<Guide> {
        let markdown = sanitize_doc(markdown);
        if markdown.trim().is_empty() {
            return None;
        }
        let digest: String = Sha256::digest(markdown.as_bytes())
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect();
        Some(Guide {
            procedures: procedures(&markdown),
            markdown,
            digest,
        })
    }
}

/// The guide and icon of metadata `meta` (a JSON object), each bounded; what
/// is dropped is said in `warnings`.
pub fn from_metadata(
    meta: &Map<String, Value>,
    warnings: &mut Vec<Warning>,
) -> (Option<Guide>, Option<Arc<str>>) {
    let text = |key: &str, warnings: &mut Vec<Warning>| match meta.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            warnings.push(Warning::new(
                format!("metadata.{key}"),
                format!("the {key} is not a string: not used"),
            ));
            None
        }
    };
    let guide = text("guide", warnings).and_then(|g| keep(self::guide(&g), warnings));
    let icon = text("icon", warnings)
        .and_then(|i| keep(self::icon(&i), warnings))
        .map(Arc::from);
    (guide, icon)
}

/// The value, or `None` with its warning.
fn keep<T>(r: Result<Option<T>, Warning>, warnings: &mut Vec<Warning>) -> Option<T> {
    r.unwrap_or_else(|w| {
        warnings.push(w);
        None
    })
}

/// A guide within [`MAX_GUIDE_BYTES`]; `Ok(None)` when it is empty.
pub fn guide(markdown: &str) -> Result<Option<Guide>, Warning> {
    if markdown.len() > MAX_GUIDE_BYTES {
        return Err(Warning::new(
            "metadata.guide",
            format!(
                "the guide has {} bytes, more than calimcp keeps ({MAX_GUIDE_BYTES}): not used",
                markdown.len()
            ),
        ));
    }
    Ok(Guide::new(markdown))
}

/// An icon URL calimcp hands on: `data:image/TYPE[;base64],…` within
/// [`MAX_ICON_BYTES`], or `https://…`; `Ok(None)` when it is empty.
pub fn icon(url: &str) -> Result<Option<String>, Warning> {
    let url = url.trim();
    if url.is_empty() {
        return Ok(None);
    }
    let bad = |why: String| Err(Warning::new("metadata.icon", format!("{why}: not used")));
    if url.len() > MAX_ICON_BYTES {
        return bad(format!(
            "the icon has {} bytes, more than calimcp keeps ({MAX_ICON_BYTES})",
            url.len()
        ));
    }
    // Nothing that could leave an attribute or a URL: no space, quote,
    // angle bracket, backslash or control character.
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || "\"'<>\\`".contains(c))
    {
        return bad("the icon URL holds spaces, quotes or control characters".into());
    }
    let lower = url.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("https://") {
        let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if host.is_empty() || host.contains('@') {
            return bad("the icon's https URL has no host (or carries credentials)".into());
        }
        return Ok(Some(url.to_string()));
    }
    if let Some(rest) = lower.strip_prefix("data:image/") {
        let kind = rest.split([';', ',']).next().unwrap_or_default();
        if DATA_IMAGE_TYPES.contains(&kind) && rest.contains(',') {
            return Ok(Some(url.to_string()));
        }
        return bad(format!(
            "the icon's data URL is not an image of a known type ({})",
            DATA_IMAGE_TYPES.join(", ")
        ));
    }
    bad(format!(
        "the icon `{}` is neither a data:image/ URL nor an https:// URL (calimcp fetches nothing)",
        sanitize_line(&url.chars().take(60).collect::<String>())
    ))
}

/// The origin (`https://host[:port]`) of an `https://` icon, for a host
/// that must be told what a page loads; `None` for a `data:` icon.
pub fn icon_origin(icon: &str) -> Option<String> {
    let rest = icon
        .get(..8)?
        .eq_ignore_ascii_case("https://")
        .then(|| &icon[8..])?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    (!host.is_empty()).then(|| format!("https://{}", host.to_ascii_lowercase()))
}

/// The titles of the `###` headings under a `## Procedures` heading (any
/// case), in order, each one line, at most [`MAX_PROCEDURES`].
pub fn procedures(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_section = false;
    // The heading being read: its level and its text so far.
    let mut heading: Option<(HeadingLevel, String)> = None;
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::Heading { level, .. }) => heading = Some((level, String::new())),
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, text)) = heading.as_mut() {
                    text.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some((_, text)) = heading.as_mut() {
                    text.push(' ');
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let Some((level, text)) = heading.take() else {
                    continue;
                };
                let title = sanitize_line(text.trim());
                match level {
                    HeadingLevel::H1 | HeadingLevel::H2 => {
                        in_section =
                            level == HeadingLevel::H2 && title.eq_ignore_ascii_case("procedures");
                    }
                    HeadingLevel::H3 if in_section && !title.is_empty() => {
                        out.push(title.chars().take(MAX_TITLE_CHARS).collect());
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        if out.len() == MAX_PROCEDURES {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const GUIDE: &str = "# KV store\nIntro.\n\n## Procedures\n\n### Store a value\nCall `set`.\n\n### Read `one` value\n\n#### A detail\n\n## Notes\n\n### Not a procedure\n";

    #[test]
    fn procedures_are_the_h3_titles_under_procedures() {
        assert_eq!(
            procedures(GUIDE),
            vec!["Store a value".to_string(), "Read one value".to_string()]
        );
        // Setext and any case; a second Procedures section adds to the list.
        let md = "procedures\n----------\n\n### A\n\n# Other\n\n### B\n\n## PROCEDURES\n### C\n";
        assert_eq!(procedures(md), vec!["A", "C"]);
        assert!(procedures("### A\n## Procedure\n### B").is_empty());
        // In a code block a `###` line is not a heading.
        assert!(procedures("## Procedures\n```\n### not\n```\n").is_empty());
        let many: String = (0..100).map(|i| format!("### P{i}\n")).collect();
        assert_eq!(
            procedures(&format!("## Procedures\n{many}")).len(),
            MAX_PROCEDURES
        );
    }

    #[test]
    fn the_guide_is_bounded_and_cleaned() {
        let g = guide("## Procedures\n### A\u{1b}[31m\n").unwrap().unwrap();
        assert_eq!(g.markdown, "## Procedures\n### A[31m\n");
        assert_eq!(g.procedures, vec!["A[31m"]);
        assert_eq!(g.digest.len(), 16);
        assert_eq!(guide("  \n").unwrap(), None);
        let big = "x".repeat(MAX_GUIDE_BYTES + 1);
        let w = guide(&big).unwrap_err();
        assert!(w.message.contains("more than calimcp keeps"), "{w}");
        assert!(guide(&big[1..]).unwrap().is_some());
    }

    #[test]
    fn icons_are_data_images_or_https_only() {
        for ok in [
            "https://example.com/icon.png",
            "data:image/png;base64,iVBORw0KGgo=",
            "data:image/svg+xml,%3Csvg%3E%3C/svg%3E",
            "HTTPS://Example.com/i.png",
        ] {
            assert_eq!(icon(ok).unwrap().as_deref(), Some(ok), "{ok}");
        }
        for bad in [
            "http://example.com/icon.png",
            "icon.png",
            "javascript:alert(1)",
            "data:text/html,<script>",
            "data:image/png;base64",
            "https://",
            "https://user@example.com/i.png",
            "https://example.com/a\" onerror=\"x",
            "file:///etc/passwd",
        ] {
            assert!(icon(bad).is_err(), "{bad}");
        }
        let big = format!("data:image/png;base64,{}", "A".repeat(MAX_ICON_BYTES));
        assert!(icon(&big).unwrap_err().message.contains("more than"));
        assert_eq!(icon("").unwrap(), None);
        assert_eq!(
            icon_origin("HTTPS://Cdn.Example.com:8443/a/i.png?x").as_deref(),
            Some("https://cdn.example.com:8443")
        );
        assert_eq!(icon_origin("data:image/png;base64,AA=="), None);
    }

    #[test]
    fn metadata_gives_both_and_warns_of_what_is_dropped() {
        let meta = json!({"name": "kv", "guide": GUIDE, "icon": "https://example.com/i.png"});
        let mut w = Vec::new();
        let (g, i) = from_metadata(meta.as_object().unwrap(), &mut w);
        assert_eq!(g.unwrap().procedures.len(), 2);
        assert_eq!(i.as_deref(), Some("https://example.com/i.png"));
        assert!(w.is_empty());
        let meta = json!({"guide": 3, "icon": "ftp://x/y.png"});
        let (g, i) = from_metadata(meta.as_object().unwrap(), &mut w);
        assert_eq!((g, i), (None, None));
        assert_eq!(w.len(), 2, "{w:?}");
        assert_eq!(w[0].path, "metadata.guide");
        assert_eq!(w[1].path, "metadata.icon");
    }
}
