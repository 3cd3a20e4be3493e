//! HTML pieces: ids, types written with links to their definitions, doc text
//! as paragraphs, and the kinds of text a page holds.
//!
//! The page is written with maud's `html!`, which checks the markup when
//! calimcp is compiled and escapes every value put into it (`&`, `<`, `>`
//! and `"`; attributes are always double-quoted), so a string from a
//! manifest cannot become markup unless the code says so. Only four things
//! say so, each once: the page's own style and script (`page::document`),
//! JSON inside a `<script>` element ([`ScriptJson`]), JSON shown as text
//! ([`JsonText`], escaped by a library, not by maud) and an app's guide
//! (`page::guide`: markup pulldown-cmark writes, its raw HTML turned into
//! text first, [`super::guide`]). Text from a manifest
//! or a request goes in as [`Text`] (or [`line`]), escaped by
//! pulldown-cmark-escape's `escape_html`, which also writes `'` as `&#39;`,
//! as the page always has. Names are also sanitised as signatures sanitise
//! them.

use maud::{Markup, Render, html};
use serde_json::Value;

use crate::abi::{Manifest, TypeRef};
use crate::mapping::signature::type_name;
use crate::text::sanitize_line;

/// Text from a manifest or a request, escaped by pulldown-cmark-escape's
/// `escape_html`: `&`, `<`, `>`, `"` and `'`. maud's own escaping (which a
/// bare string spliced into the page still gets: safe either way) leaves
/// `'` as it is; this keeps the page byte for byte what it has always been.
pub(crate) struct Text<S>(pub S);

impl<S: AsRef<str>> Render for Text<S> {
    fn render_to(&self, buffer: &mut String) {
        // Writing to a String cannot fail.
        let _ = pulldown_cmark_escape::escape_html(buffer, self.0.as_ref());
    }
}

/// A manifest string on one line, sanitised as signatures sanitise it.
pub(crate) fn line(s: &str) -> Text<String> {
    Text(sanitize_line(s))
}

/// JSON pretty-printed as an element's text (a schema, an example). Escaped
/// by pulldown-cmark's body-text escaper: `&`, `<` and `>`, which is all
/// element content needs, so the quotes JSON is full of stay quotes (maud
/// would write each as `&quot;`: a page a third longer).
pub(crate) struct JsonText<'a>(pub &'a Value);

impl Render for JsonText<'_> {
    fn render_to(&self, buffer: &mut String) {
        let text = serde_json::to_string_pretty(self.0).unwrap_or_default();
        // Writing to a String cannot fail.
        let _ = pulldown_cmark_escape::escape_html_body_text(buffer, &text);
    }
}

/// JSON for a `<script type="application/json">` element (the page's
/// configuration, a form's input schema), inserted raw: a script element's
/// text is not HTML-escaped (the script reads it with `JSON.parse`), and the
/// only way out of one is `</script` (or a `<!--` that changes how it
/// ends). `<` can only occur inside a JSON string, where `\u003c` is the
/// same character, so after that replacement neither can appear. This is
/// the one place JSON reaches a page unescaped.
pub(crate) struct ScriptJson<'a>(pub &'a Value);

impl Render for ScriptJson<'_> {
    fn render_to(&self, buffer: &mut String) {
        buffer.push_str(&self.0.to_string().replace('<', "\\u003c"));
    }
}

/// An id fragment for any name: ASCII letters, digits, `-` and `_` kept,
/// anything else as `.` and its code point in hex, so that different names
/// never share an id (and an id needs no escaping).
pub(crate) fn id_part(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            out.push(c);
        } else {
            out.push_str(&format!(".{:x}", c as u32));
        }
    }
    out
}

/// The id of the definition of named type `name` in the section whose ids
/// start with `prefix`.
pub(crate) fn type_id(prefix: &str, name: &str) -> String {
    format!("{prefix}t-{}", id_part(name))
}

/// A type as `type_name` writes it, with every named type the manifest
/// defines linked to its definition. Its text is exactly `type_name(t)`
/// (a test checks it on every fixture).
pub(crate) fn linked_type(m: &Manifest, prefix: &str, t: &TypeRef) -> Markup {
    match t {
        TypeRef::Ref(name) if m.types.contains_key(name) => html! {
            a class="ty" href={ "#" (type_id(prefix, name)) } { (line(name)) }
        },
        TypeRef::List { items, .. } => html! { (linked_type(m, prefix, items)) "[]" },
        TypeRef::Map { key, value, .. } => html! {
            "map<" (linked_type(m, prefix, key)) ", " (linked_type(m, prefix, value)) ">"
        },
        TypeRef::Tuple { elements, .. } => tuple(m, prefix, elements.iter()),
        TypeRef::Record(r) => match (&r.crdt, &r.inner) {
            (Some(_), Some(inner)) => linked_type(m, prefix, inner),
            (None, _) if r.is_positional() => tuple(m, prefix, r.fields.iter().map(|f| &f.ty)),
            _ => html! { (Text(type_name(t))) },
        },
        _ => html! { (Text(type_name(t))) },
    }
}

fn tuple<'a>(m: &Manifest, prefix: &str, elements: impl Iterator<Item = &'a TypeRef>) -> Markup {
    html! {
        "("
        @for (i, e) in elements.enumerate() {
            @if i > 0 { ", " }
            (linked_type(m, prefix, e))
        }
        ")"
    }
}

/// Doc text as paragraphs (split at blank lines).
pub(crate) fn doc_paragraphs(doc: &str) -> Markup {
    html! {
        @for p in doc.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
            p { (Text(p)) }
        }
    }
}

/// The text of an HTML fragment: tags dropped, the entities maud and the
/// JSON escaper write undone.
#[cfg(test)]
pub(crate) fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_text_is_escaped_and_json_stays_in_its_element() {
        let evil = r#"<img src=x onerror="a('b')">&"#;
        assert_eq!(
            html! { p title=(evil) { (evil) } }.into_string(),
            "<p title=\"&lt;img src=x onerror=&quot;a('b')&quot;&gt;&amp;\">\
             &lt;img src=x onerror=&quot;a('b')&quot;&gt;&amp;</p>"
        );
        let v = serde_json::json!({"d": "</script><!--", "q": "\"&"});
        assert_eq!(
            html! { (ScriptJson(&v)) }.into_string(),
            r#"{"d":"\u003c/script>\u003c!--","q":"\"&"}"#
        );
        assert_eq!(
            html! { (JsonText(&serde_json::json!(["</pre>\"&"]))) }.into_string(),
            "[\n  \"&lt;/pre&gt;\\\"&amp;\"\n]"
        );
    }

    #[test]
    fn paragraphs_split_at_blank_lines() {
        assert_eq!(
            doc_paragraphs("one\n\n  <two>\n\n\n").into_string(),
            "<p>one</p><p>&lt;two&gt;</p>"
        );
    }

    #[test]
    fn ids_keep_names_apart() {
        assert_eq!(id_part("Foo_bar-1"), "Foo_bar-1");
        assert_eq!(id_part("a b"), "a.20b");
        assert_ne!(id_part("a.b"), id_part("a_b"));
        assert_eq!(type_id("x-", "Map<K>"), "x-t-Map.3cK.3e");
    }

    #[test]
    fn linked_types_read_as_signatures_write_them() {
        let m = crate::abi::parse_manifest(
            br#"{"schema_version":"wasm-abi/1","types":{
                "Item":{"kind":"record","fields":[{"name":"x","type":{"kind":"u32"}}]}},
              "methods":[{"name":"f","params":[{"name":"p","type":{"kind":"map","key":{"kind":"string"},
                "value":{"kind":"list","items":{"$ref":"Item"}}}}]}]}"#,
            &mut Vec::new(),
        )
        .unwrap();
        let t = &m.methods[0].params[0].ty;
        let html = linked_type(&m, "", t).into_string();
        assert!(
            html.contains(r##"<a class="ty" href="#t-Item">Item</a>"##),
            "{html}"
        );
        assert_eq!(text_of(&html), type_name(t));
    }
}
