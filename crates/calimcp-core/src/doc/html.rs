//! HTML text: escaping, ids and types written with links to their
//! definitions. Every string that came from a manifest goes through [`esc`]
//! (names are also sanitised as signatures sanitise them), so a manifest
//! cannot inject markup into a page.

use crate::abi::{Manifest, TypeRef};
use crate::mapping::signature::type_name;
use crate::text::sanitize_line;

/// Escapes text for an HTML element or a quoted attribute.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for an element's content only (`&`, `<`, `>`): shorter than
/// [`esc`] for the schemas' JSON, which is full of quotes.
pub fn esc_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// JSON text made safe inside `<script type="application/json">`: every `<`
/// (only ever inside a JSON string) becomes `\u003c`, so neither `</script>`
/// nor `<!--` can end or change the element.
pub fn script_json(v: &serde_json::Value) -> String {
    v.to_string().replace('<', "\\u003c")
}

/// An id fragment for any name: ASCII letters, digits, `-` and `_` kept,
/// anything else as `.` and its code point in hex, so that different names
/// never share an id.
pub fn id_part(s: &str) -> String {
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
pub fn type_id(prefix: &str, name: &str) -> String {
    format!("{prefix}t-{}", id_part(name))
}

/// A type as `type_name` writes it, with every named type the manifest
/// defines linked to its definition. Its text is exactly `type_name(t)`
/// (a test checks it on every fixture).
pub fn linked_type(m: &Manifest, prefix: &str, t: &TypeRef) -> String {
    match t {
        TypeRef::Ref(name) if m.types.contains_key(name) => format!(
            "<a class=\"ty\" href=\"#{}\">{}</a>",
            type_id(prefix, name),
            esc(&sanitize_line(name))
        ),
        TypeRef::List { items, .. } => format!("{}[]", linked_type(m, prefix, items)),
        TypeRef::Map { key, value, .. } => format!(
            "map&lt;{}, {}&gt;",
            linked_type(m, prefix, key),
            linked_type(m, prefix, value)
        ),
        TypeRef::Tuple { elements, .. } => tuple(m, prefix, elements.iter()),
        TypeRef::Record(r) => match (&r.crdt, &r.inner) {
            (Some(_), Some(inner)) => linked_type(m, prefix, inner),
            (None, _) if r.is_positional() => tuple(m, prefix, r.fields.iter().map(|f| &f.ty)),
            _ => esc(&type_name(t)),
        },
        _ => esc(&type_name(t)),
    }
}

fn tuple<'a>(m: &Manifest, prefix: &str, elements: impl Iterator<Item = &'a TypeRef>) -> String {
    let parts: Vec<String> = elements.map(|e| linked_type(m, prefix, e)).collect();
    format!("({})", parts.join(", "))
}

/// Doc text as paragraphs (split at blank lines), escaped.
pub fn doc_paragraphs(doc: &str) -> String {
    doc.split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| format!("<p>{}</p>", esc(p)))
        .collect()
}

/// The text of an HTML fragment: tags dropped, the five entities undone.
#[cfg(test)]
pub fn text_of(html: &str) -> String {
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
    fn escapes_markup_and_quotes() {
        assert_eq!(
            esc(r#"<img src=x onerror="a('b')">&"#),
            "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;"
        );
        let v = serde_json::json!({"d": "</script><!--"});
        assert_eq!(script_json(&v), r#"{"d":"\u003c/script>\u003c!--"}"#);
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
        let html = linked_type(&m, "", t);
        assert!(
            html.contains(r##"<a class="ty" href="#t-Item">Item</a>"##),
            "{html}"
        );
        assert_eq!(text_of(&html), type_name(t));
    }
}
