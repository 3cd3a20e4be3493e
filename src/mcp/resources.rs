//! MCP resources and completions, the pure parts: the `calimero://` URIs of
//! the served apps' ABIs and contexts, their templates, the concrete list,
//! the `wasm-abi/1` JSON of a manifest, and the completion of template
//! variables. No I/O: the session ([`super::server`]) asks the node for
//! contexts and answers the protocol.
//!
//! URIs (RFC 6570 templates):
//! - `calimero://app/{app}/abi{?service}`: the `wasm-abi/1` JSON of an app's
//!   service; `service` is required for a multi-service app (one concrete
//!   resource per service), absent for a single-service one;
//! - `calimero://app/{app}/contexts{?service}`: the app's contexts on the
//!   node (ids, aliases, version, initialized), optionally of one service;
//! - `calimero://app/{app}/contexts/{context}`: one of them, by id or alias;
//! - `calimero://app/{app}/guide{?version}`: the app's guide (`text/markdown`,
//!   from its metadata, [`calimcp_core::abi::meta`]), listed with the version
//!   served: a new version's guide has a new URI.
//!
//! `{app}` is listed as the app's tool prefix (`kv_store`), else its package,
//! else its id: whichever names the app alone. Reading accepts anything
//! `describe_app` accepts (package, trailing segments, name, tool prefix, id).

use serde_json::{Map, Value, json};

use calimcp_catalog::context::ContextRow;
use calimcp_core::abi::meta::Guide;
use calimcp_core::abi::*;
use calimcp_core::mapping::names;
use calimcp_core::text::sanitize_line;

use super::live::View;

pub(crate) const SCHEME: &str = "calimero://app/";
pub(crate) const ABI_TEMPLATE: &str = "calimero://app/{app}/abi{?service}";
pub(crate) const CONTEXTS_TEMPLATE: &str = "calimero://app/{app}/contexts{?service}";
pub(crate) const CONTEXT_TEMPLATE: &str = "calimero://app/{app}/contexts/{context}";
pub(crate) const GUIDE_TEMPLATE: &str = "calimero://app/{app}/guide{?version}";
/// Every template, for messages and completion.
pub(crate) const TEMPLATES: [&str; 4] = [
    ABI_TEMPLATE,
    CONTEXTS_TEMPLATE,
    CONTEXT_TEMPLATE,
    GUIDE_TEMPLATE,
];
/// At most this many completion values (the MCP limit).
pub(crate) const MAX_COMPLETIONS: usize = 100;

/// What a resource URI names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Abi,
    Contexts,
    /// One context, by id or alias.
    Context,
    /// The app's guide.
    Guide,
}

/// A parsed resource URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    pub kind: Kind,
    pub app: String,
    pub service: Option<String>,
    /// The context of [`Kind::Context`].
    pub context: Option<String>,
    /// The version of [`Kind::Guide`], when the URI names one.
    pub version: Option<String>,
}

/// The URI of an app's ABI or contexts list.
pub(crate) fn uri(kind: Kind, app: &str, service: Option<&str>) -> String {
    let segment = match kind {
        Kind::Abi => "abi",
        Kind::Contexts | Kind::Context => "contexts",
        Kind::Guide => "guide",
    };
    let mut u = format!("{SCHEME}{}/{segment}", encode(app));
    if let Some(s) = service {
        u.push_str("?service=");
        u.push_str(&encode(s));
    }
    u
}

/// The URI of app `app`'s guide, of `version` when it has one.
pub(crate) fn guide_uri(app: &str, version: Option<&str>) -> String {
    let mut u = format!("{SCHEME}{}/guide", encode(app));
    if let Some(v) = version {
        u.push_str("?version=");
        u.push_str(&encode(v));
    }
    u
}

/// Parses `calimero://app/APP/(abi|contexts)[?service=NAME]`,
/// `…/contexts/CONTEXT` and `…/guide[?version=V]`; the error says which
/// URIs exist.
pub(crate) fn parse(uri: &str) -> Result<Target, String> {
    let bad = || {
        format!(
            "unknown resource `{}`: calimcp serves {ABI_TEMPLATE}, {CONTEXTS_TEMPLATE}, {CONTEXT_TEMPLATE} and {GUIDE_TEMPLATE} (see resources/list)",
            sanitize_line(uri)
        )
    };
    let rest = uri.strip_prefix(SCHEME).ok_or_else(bad)?;
    let (path, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    let (app, kind) = path.split_once('/').ok_or_else(bad)?;
    let (kind, context) = match kind.split_once('/') {
        None if kind == "abi" => (Kind::Abi, None),
        None if kind == "contexts" => (Kind::Contexts, None),
        None if kind == "guide" => (Kind::Guide, None),
        Some(("contexts", c)) if !c.contains('/') && query.is_none() => {
            let c = decode(c).filter(|c| !c.is_empty()).ok_or_else(bad)?;
            (Kind::Context, Some(c))
        }
        _ => return Err(bad()),
    };
    let app = decode(app).filter(|a| !a.is_empty()).ok_or_else(bad)?;
    // A guide takes `version`, the others `service`.
    let param = if kind == Kind::Guide {
        "version"
    } else {
        "service"
    };
    let mut value = None;
    for pair in query
        .unwrap_or_default()
        .split('&')
        .filter(|p| !p.is_empty())
    {
        match pair.split_once('=') {
            Some((k, v)) if k == param && value.is_none() => {
                value = Some(decode(v).filter(|v| !v.is_empty()).ok_or_else(bad)?);
            }
            _ => {
                return Err(format!(
                    "unknown resource `{}`: the only query parameter is `{param}` (once)",
                    sanitize_line(uri)
                ));
            }
        }
    }
    let (service, version) = if kind == Kind::Guide {
        (None, value)
    } else {
        (value, None)
    };
    Ok(Target {
        kind,
        app,
        service,
        context,
        version,
    })
}

/// Percent-encodes what is not unreserved (RFC 3986).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Percent-decodes; `None` when malformed or not UTF-8.
fn decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The tool prefix of app `i`, read back from one of its tools' names.
fn tool_prefix(view: &View, i: usize) -> Option<String> {
    let app = &view.catalog.apps[i];
    view.catalog.tools.tools.iter().find_map(|t| {
        if t.app != i {
            return None;
        }
        let mut suffix = String::new();
        if app.services.len() > 1
            && let Some(s) = &t.service
        {
            suffix = format!("_{}", names::sanitize(s));
        }
        suffix.push('_');
        suffix.push_str(&names::sanitize(&t.method));
        t.name.strip_suffix(&suffix).map(str::to_string)
    })
}

/// How URIs name app `i`: its tool prefix (unique among the apps), else its
/// package when that names it alone, else its id.
pub(crate) fn app_key(view: &View, i: usize) -> String {
    let app = &view.catalog.apps[i];
    tool_prefix(view, i)
        .or_else(|| {
            app.package
                .clone()
                .filter(|p| view.resolve(p).ok() == Some(i))
        })
        .filter(|k| encode(k) == *k)
        .unwrap_or_else(|| app.id.to_string())
}

/// The served app whose URI key is exactly `key` (a tool prefix is not
/// always something [`View::resolve`] tells apart, e.g. `kv_store` when
/// other apps' packages end in `kv-store`).
pub(crate) fn by_key(view: &View, key: &str) -> Option<usize> {
    view.apps.iter().copied().find(|&i| app_key(view, i) == key)
}

/// The resource templates (resources/templates/list).
pub(crate) fn templates() -> Vec<Value> {
    vec![
        json!({
            "uriTemplate": ABI_TEMPLATE,
            "name": "app-abi",
            "title": "App ABI",
            "description": "The wasm-abi/1 ABI of a served app: its types, methods (with params, returns, intent) and events. `app`: the app's tool prefix, package, name or id; `service`: required for a multi-service app.",
            "mimeType": "application/json",
        }),
        json!({
            "uriTemplate": CONTEXTS_TEMPLATE,
            "name": "app-contexts",
            "title": "App contexts",
            "description": "The contexts of a served app on the node: id, aliases, name, version, application id, service and whether the node has their state yet. Pass a context id or alias as a tool's `_context` (or to select_app). `service`: only that service's contexts.",
            "mimeType": "application/json",
        }),
        json!({
            "uriTemplate": CONTEXT_TEMPLATE,
            "name": "app-context",
            "title": "One context of an app",
            "description": "One context of a served app on the node, by id or alias (as in the contexts list).",
            "mimeType": "application/json",
        }),
        json!({
            "uriTemplate": GUIDE_TEMPLATE,
            "name": "app-guide",
            "title": "App guide",
            "description": "The guide a served app's author ships in its metadata: markdown saying how to use the app, its procedures under `## Procedures`. Written by the app's author, not by calimcp. `version`: the version served (as listed); another version is not found.",
            "mimeType": "text/markdown",
        }),
    ]
}

/// The URI of app `i`'s guide (of the version served), if it has one.
pub(crate) fn app_guide_uri(view: &View, i: usize) -> Option<String> {
    let app = &view.catalog.apps[i];
    app.guide
        .as_ref()
        .map(|_| guide_uri(&app_key(view, i), app.version.as_deref()))
}

/// The guide of app `i` for a URI naming `version`; an error message when
/// the app has none or serves another version.
pub(crate) fn guide<'v>(
    view: &'v View,
    i: usize,
    version: Option<&str>,
) -> Result<&'v Guide, String> {
    let app = &view.catalog.apps[i];
    let name = sanitize_line(app.package_or_id());
    let guide = app
        .guide
        .as_ref()
        .ok_or_else(|| format!("`{name}` ships no guide (no `guide` in its metadata)"))?;
    match (version, app.version.as_deref()) {
        (Some(asked), Some(served)) if asked != served => Err(format!(
            "`{name}` is served at version {}, not {}: read {}",
            sanitize_line(served),
            sanitize_line(asked),
            guide_uri(&app_key(view, i), Some(served))
        )),
        (Some(_), None) => Err(format!(
            "`{name}` has no version: drop `?version=` from the URI"
        )),
        _ => Ok(guide),
    }
}

/// The `resources/read` contents of app `i`'s guide (see [`guide`]).
pub(crate) fn guide_contents(
    view: &View,
    i: usize,
    uri: &str,
    version: Option<&str>,
) -> Result<Value, String> {
    let g = guide(view, i, version)?;
    Ok(json!({
        "contents": [{ "uri": uri, "mimeType": "text/markdown", "text": g.markdown }]
    }))
}

/// The app a completion's chosen `app` names: its URI key, else any name
/// `describe_app` takes.
fn chosen_app(view: &View, app: Option<&str>) -> Option<usize> {
    app.and_then(|a| by_key(view, a).or_else(|| view.resolve(a).ok()))
}

/// Completions of `{version}` for the app `app` names: the version served.
pub(crate) fn complete_version(
    view: &View,
    app: Option<&str>,
    prefix: &str,
) -> (Vec<String>, usize) {
    let version = chosen_app(view, app).and_then(|i| {
        let app = &view.catalog.apps[i];
        app.guide.as_ref().and(app.version.clone())
    });
    matching(version.into_iter().collect(), prefix)
}

/// The concrete resources of the served apps (resources/list): per app, one
/// ABI per service, for an app the node has one contexts list, and its guide
/// when it has one: every listed resource can be read.
pub(crate) fn list(view: &View) -> Vec<Value> {
    let mut out = Vec::new();
    for &i in &view.apps {
        let app = &view.catalog.apps[i];
        let key = app_key(view, i);
        let shown = sanitize_line(app.name.as_deref().unwrap_or_else(|| app.package_or_id()));
        let version = app
            .version
            .as_deref()
            .map(|v| format!(" {}", sanitize_line(v)))
            .unwrap_or_default();
        let multi = app.services.len() > 1;
        for s in &app.services {
            let service = s.name.as_deref().filter(|_| multi);
            let (name, title) = match service {
                Some(svc) => (
                    format!("{key}/{svc}/abi"),
                    format!("{shown}{version}: ABI of service {}", sanitize_line(svc)),
                ),
                None => (format!("{key}/abi"), format!("{shown}{version}: ABI")),
            };
            out.push(json!({
                "uri": uri(Kind::Abi, &key, service),
                "name": name,
                "title": title,
                "description": format!("{} methods, {} types, {} events (wasm-abi/1)", s.manifest.methods.len(), s.manifest.types.len(), s.manifest.events.len()),
                "mimeType": "application/json",
            }));
        }
        // Its guide, local or the node's.
        if let (Some(g), Some(u)) = (&app.guide, app_guide_uri(view, i)) {
            out.push(json!({
                "uri": u,
                "name": format!("{key}/guide"),
                "title": format!("{shown}{version}: guide"),
                "description": format!("The app author's guide ({} procedures: {})", g.procedures.len(), g.procedures.join("; ")),
                "mimeType": "text/markdown",
                "size": g.markdown.len(),
            }));
        }
        // Contexts only of an app the node has (a local app the node lacks,
        // or any app under --offline, has none to read).
        if app.installs.is_empty() {
            continue;
        }
        out.push(json!({
            "uri": uri(Kind::Contexts, &key, None),
            "name": format!("{key}/contexts"),
            "title": format!("{shown}: contexts"),
            "description": "The app's contexts on the node, with their aliases and versions",
            "mimeType": "application/json",
        }));
    }
    out
}

/// The manifest of `service` of app `i`, as `wasm-abi/1` JSON; an error
/// message when the app has no such service or needs one named.
pub(crate) fn abi(view: &View, i: usize, service: Option<&str>) -> Result<Value, String> {
    let app = &view.catalog.apps[i];
    let named: Vec<&str> = app
        .services
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    let found = match service {
        Some(s) => app.services.iter().find(|x| x.name.as_deref() == Some(s)),
        None if app.services.len() == 1 => app.services.first(),
        None => {
            return Err(format!(
                "`{}` has several services ({}): add `?service=NAME` to the URI",
                sanitize_line(app.package_or_id()),
                sanitize_line(&named.join(", "))
            ));
        }
    };
    match found {
        Some(s) => Ok(manifest_json(&s.manifest)),
        None if named.is_empty() => Err(format!(
            "`{}` has a single unnamed service: drop `?service=` from the URI",
            sanitize_line(app.package_or_id())
        )),
        None => Err(format!(
            "`{}` has no service `{}`; its services: {}",
            sanitize_line(app.package_or_id()),
            sanitize_line(service.unwrap_or_default()),
            sanitize_line(&named.join(", "))
        )),
    }
}

/// Candidates starting with `prefix` (case-insensitively), sorted and
/// deduplicated, at most [`MAX_COMPLETIONS`]; also the total.
pub(crate) fn matching(candidates: Vec<String>, prefix: &str) -> (Vec<String>, usize) {
    let lower = prefix.to_lowercase();
    let mut v: Vec<String> = candidates
        .into_iter()
        .filter(|c| c.to_lowercase().starts_with(&lower))
        .collect();
    v.sort();
    v.dedup();
    let total = v.len();
    v.truncate(MAX_COMPLETIONS);
    (v, total)
}

/// Completions of `{app}`: the served apps' URI keys, packages and names.
pub(crate) fn complete_app(view: &View, prefix: &str) -> (Vec<String>, usize) {
    let mut all = Vec::new();
    for &i in &view.apps {
        let app = &view.catalog.apps[i];
        all.push(app_key(view, i));
        if let Some(p) = &app.package
            && view.resolve(p).ok() == Some(i)
        {
            all.push(p.clone());
        }
    }
    matching(all, prefix)
}

/// Completions of `{service}` for the app `app` names (none if it names none).
pub(crate) fn complete_service(
    view: &View,
    app: Option<&str>,
    prefix: &str,
) -> (Vec<String>, usize) {
    let services = chosen_app(view, app)
        .map(|i| {
            view.catalog.apps[i]
                .services
                .iter()
                .filter_map(|s| s.name.clone())
                .collect()
        })
        .unwrap_or_default();
    matching(services, prefix)
}

/// The row of `context` (an id or an alias) among an app's context rows.
pub(crate) fn find_context<'a>(rows: &'a [ContextRow], context: &str) -> Option<&'a ContextRow> {
    rows.iter().find(|r| r.answers_to(context))
}

/// Completion values from the rows of an app's contexts: ids and aliases.
pub(crate) fn context_values(rows: &[ContextRow]) -> Vec<String> {
    let mut out = Vec::new();
    for r in rows {
        out.extend(r.aliases.iter().cloned());
        out.push(r.id.clone());
    }
    out
}

// ---- the wasm-abi/1 JSON of a parsed manifest ----

/// A manifest as `wasm-abi/1` JSON, written from what calimcp parsed (the
/// raw file is not kept): defaults are left out (`nullable: false`, absent
/// docs), kinds this version does not know are written as `{"kind": NAME}`
/// with their details dropped, and docs are the sanitised ones. Reading it
/// back gives the same manifest.
pub(crate) fn manifest_json(m: &Manifest) -> Value {
    let mut out = Map::new();
    out.insert("schema_version".into(), m.schema_version.clone().into());
    let types: Map<String, Value> = m
        .types
        .iter()
        .map(|(name, def)| (name.clone(), type_def(def)))
        .collect();
    out.insert("types".into(), Value::Object(types));
    out.insert(
        "methods".into(),
        m.methods.iter().map(method).collect::<Vec<_>>().into(),
    );
    out.insert(
        "events".into(),
        m.events
            .iter()
            .map(|e| {
                let mut o = Map::new();
                o.insert("name".into(), e.name.clone().into());
                if let Some(p) = &e.payload {
                    o.insert("payload".into(), type_ref(p));
                }
                Value::Object(o)
            })
            .collect::<Vec<_>>()
            .into(),
    );
    if let Some(root) = &m.state_root {
        out.insert("state_root".into(), root.clone().into());
    }
    if let Some(v) = m.state_version {
        out.insert("state_version".into(), v.into());
    }
    if !m.migrations.is_empty() {
        out.insert(
            "migrations".into(),
            m.migrations
                .iter()
                .map(|e| json!({"method": e.method, "fromVersion": e.from_version}))
                .collect::<Vec<_>>()
                .into(),
        );
    }
    Value::Object(out)
}

fn method(m: &Method) -> Value {
    let mut o = Map::new();
    o.insert("name".into(), m.name.clone().into());
    if let Some(d) = &m.doc {
        o.insert("doc".into(), d.clone().into());
    }
    o.insert(
        "params".into(),
        m.params.iter().map(param).collect::<Vec<_>>().into(),
    );
    if let Some(r) = &m.returns {
        o.insert("returns".into(), type_ref(r));
    }
    if m.returns_nullable {
        o.insert("returns_nullable".into(), true.into());
    }
    if let Some(d) = &m.returns_doc {
        o.insert("returns_doc".into(), d.clone().into());
    }
    let intent = match &m.intent {
        Intent::ReadOnly => Some("read_only"),
        Intent::Mutating => Some("mutating"),
        Intent::Unspecified => None,
        Intent::Other(s) => Some(s.as_str()),
    };
    if let Some(i) = intent {
        o.insert("intent".into(), i.into());
    }
    if m.destructive {
        o.insert("destructive".into(), true.into());
    }
    if m.idempotent {
        o.insert("idempotent".into(), true.into());
    }
    Value::Object(o)
}

fn param(p: &Param) -> Value {
    let mut o = Map::new();
    o.insert("name".into(), p.name.clone().into());
    o.insert("type".into(), type_ref(&p.ty));
    if p.nullable {
        o.insert("nullable".into(), true.into());
    }
    if let Some(d) = &p.doc {
        o.insert("doc".into(), d.clone().into());
    }
    Value::Object(o)
}

fn crdt(o: &mut Map<String, Value>, c: &Option<Crdt>) {
    if let Some(Crdt(tag)) = c {
        o.insert("crdt_type".into(), tag.clone().into());
    }
}

fn bytes(o: &mut Map<String, Value>, b: &Bytes) {
    o.insert("kind".into(), "bytes".into());
    if let Some(n) = b.size {
        o.insert("size".into(), n.into());
    }
    if let Some(e) = &b.encoding {
        o.insert("encoding".into(), e.clone().into());
    }
}

fn record(o: &mut Map<String, Value>, r: &Record) {
    o.insert("kind".into(), "record".into());
    o.insert(
        "fields".into(),
        r.fields.iter().map(param).collect::<Vec<_>>().into(),
    );
    crdt(o, &r.crdt);
    if let Some(inner) = &r.inner {
        o.insert("inner_type".into(), type_ref(inner));
    }
}

fn type_ref(t: &TypeRef) -> Value {
    let mut o = Map::new();
    match t {
        TypeRef::Ref(name) => {
            o.insert("$ref".into(), name.clone().into());
        }
        TypeRef::Scalar(s) => {
            o.insert("kind".into(), s.name().into());
        }
        TypeRef::Bytes(b) => bytes(&mut o, b),
        TypeRef::List { items, crdt: c } => {
            o.insert("kind".into(), "list".into());
            o.insert("items".into(), type_ref(items));
            crdt(&mut o, c);
        }
        TypeRef::Map {
            key,
            value,
            crdt: c,
        } => {
            o.insert("kind".into(), "map".into());
            o.insert("key".into(), type_ref(key));
            o.insert("value".into(), type_ref(value));
            crdt(&mut o, c);
        }
        TypeRef::Tuple { elements, crdt: c } => {
            o.insert("kind".into(), "tuple".into());
            o.insert(
                "elements".into(),
                elements.iter().map(type_ref).collect::<Vec<_>>().into(),
            );
            crdt(&mut o, c);
        }
        TypeRef::Record(r) => record(&mut o, r),
        TypeRef::Unknown(kind) => {
            o.insert("kind".into(), kind.clone().into());
        }
    }
    Value::Object(o)
}

fn type_def(d: &TypeDef) -> Value {
    let mut o = Map::new();
    match &d.kind {
        TypeDefKind::Record(r) => record(&mut o, r),
        TypeDefKind::Variant(v) => {
            o.insert("kind".into(), "variant".into());
            o.insert(
                "variants".into(),
                v.variants
                    .iter()
                    .map(|c| {
                        let mut co = Map::new();
                        co.insert("name".into(), c.name.clone().into());
                        if let Some(p) = &c.payload {
                            co.insert("payload".into(), type_ref(p));
                        }
                        if let Some(d) = &c.doc {
                            co.insert("doc".into(), d.clone().into());
                        }
                        Value::Object(co)
                    })
                    .collect::<Vec<_>>()
                    .into(),
            );
            match &v.tagging {
                Tagging::External => {}
                Tagging::Internal { tag } => {
                    o.insert("tag".into(), tag.clone().into());
                }
                Tagging::Adjacent { tag, content } => {
                    o.insert("tag".into(), tag.clone().into());
                    o.insert("content".into(), content.clone().into());
                }
                Tagging::Untagged => {
                    o.insert("untagged".into(), true.into());
                }
            }
        }
        TypeDefKind::Alias(t) => {
            o.insert("kind".into(), "alias".into());
            o.insert("target".into(), type_ref(t));
        }
        TypeDefKind::Bytes(b) => bytes(&mut o, b),
        TypeDefKind::Unknown(kind) => {
            o.insert("kind".into(), kind.clone().into());
        }
    }
    if let Some(doc) = &d.doc {
        o.insert("doc".into(), doc.clone().into());
    }
    Value::Object(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip() {
        let u = uri(Kind::Abi, "notebook", Some("pages main"));
        assert_eq!(u, "calimero://app/notebook/abi?service=pages%20main");
        assert_eq!(
            parse(&u).unwrap(),
            Target {
                kind: Kind::Abi,
                app: "notebook".into(),
                service: Some("pages main".into()),
                context: None,
                version: None,
            }
        );
        let g = guide_uri("kv_store", Some("1.0.0+b"));
        assert_eq!(g, "calimero://app/kv_store/guide?version=1.0.0%2Bb");
        let t = parse(&g).unwrap();
        assert_eq!(
            (t.kind, t.app.as_str(), t.version.as_deref(), t.service),
            (Kind::Guide, "kv_store", Some("1.0.0+b"), None)
        );
        assert_eq!(parse("calimero://app/kv/guide").unwrap().version, None);
        let c = parse("calimero://app/com.calimero.kv-store/contexts").unwrap();
        assert_eq!(c.kind, Kind::Contexts);
        assert_eq!(c.app, "com.calimero.kv-store");
        assert_eq!(c.service, None);
        let one = parse("calimero://app/kv_store/contexts/prod").unwrap();
        assert_eq!(
            (one.kind, one.context.as_deref()),
            (Kind::Context, Some("prod"))
        );
    }

    #[test]
    fn bad_uris_say_what_exists() {
        for bad in [
            "calimero://app/kv/nope",
            "calimero://app//abi",
            "file:///etc/passwd",
            "calimero://app/kv",
            "calimero://app/kv/abi?x=1",
            "calimero://app/kv/abi?service=a&service=b",
            "calimero://app/%zz/abi",
            "calimero://app/kv/contexts/",
            "calimero://app/kv/contexts/a/b",
            "calimero://app/kv/abi/x",
            "calimero://app/kv/guide?service=a",
            "calimero://app/kv/abi?version=1",
            "calimero://app/kv/guide/x",
            "calimero://app/kv/guide?version=",
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains("unknown resource"), "{bad}: {e}");
        }
        assert!(
            parse("calimero://app/kv/nope")
                .unwrap_err()
                .contains(ABI_TEMPLATE)
        );
    }

    #[test]
    fn the_written_manifest_reads_back_the_same() {
        let text = include_str!("../../tests/support/abi/kv-store.json");
        let mut w = Vec::new();
        let m = calimcp_core::abi::load::manifest_from_json(text.as_bytes(), "t", &mut w).unwrap();
        let written = manifest_json(&m);
        let back = calimcp_core::abi::load::manifest_from_value(&written, "t", &mut w).unwrap();
        assert_eq!(back, m);
        // This fixture leaves defaults out, as the writer does: byte-for-byte
        // the same JSON value.
        let original: Value = serde_json::from_str(text).unwrap();
        assert_eq!(written, original);
    }

    #[test]
    fn every_kind_reads_back_the_same() {
        let text = r#"{"schema_version":"wasm-abi/1","types":{
            "V":{"kind":"variant","variants":[{"name":"A","doc":"a"},{"name":"B","payload":{"kind":"u64"}}],"tag":"t","content":"c","doc":"v"},
            "U":{"kind":"variant","variants":[{"name":"X"}],"untagged":true},
            "I":{"kind":"variant","variants":[{"name":"X"}],"tag":"k"},
            "Al":{"kind":"alias","target":{"kind":"bytes","size":32,"encoding":"hex"}},
            "B":{"kind":"bytes"},
            "R":{"kind":"record","fields":[{"name":"f","type":{"kind":"list","items":{"$ref":"V"},"crdt_type":"vector"},"nullable":true,"doc":"d"}]},
            "T":{"kind":"record","fields":[{"name":"t","type":{"kind":"tuple","elements":[{"kind":"bool"},{"kind":"f64"}]}}]}},
          "methods":[{"name":"m","params":[{"name":"p","type":{"$ref":"R"}}],"returns":{"$ref":"Al"},"returns_doc":"r","intent":"read_only","idempotent":true},
                     {"name":"n","params":[]}],
          "events":[{"name":"E","payload":{"kind":"string"}},{"name":"F"}],
          "state_root":"R","state_version":2,"migrations":[{"method":"m","fromVersion":1}]}"#;
        let mut w = Vec::new();
        let m = calimcp_core::abi::load::manifest_from_json(text.as_bytes(), "t", &mut w).unwrap();
        let back =
            calimcp_core::abi::load::manifest_from_value(&manifest_json(&m), "t", &mut w).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn completions_filter_by_prefix_sort_and_cap() {
        let (v, total) = matching(
            vec![
                "kv_store".into(),
                "Kv2".into(),
                "notebook".into(),
                "kv_store".into(),
            ],
            "KV",
        );
        assert_eq!(v, vec!["Kv2", "kv_store"]);
        assert_eq!(total, 2);
        let many: Vec<String> = (0..150).map(|i| format!("a{i:03}")).collect();
        let (v, total) = matching(many, "a");
        assert_eq!((v.len(), total), (MAX_COMPLETIONS, 150));
        let row = |id: &str, aliases: &[&str]| ContextRow {
            id: id.into(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
            name: None,
            app: "kv".into(),
            version: None,
            application_id: "App".into(),
            service: None,
            initialized: Some(true),
            pending_version: None,
        };
        let rows = vec![row("Ctx1", &["prod"]), row("Ctx2", &[])];
        assert_eq!(context_values(&rows), vec!["prod", "Ctx1", "Ctx2"]);
        assert_eq!(find_context(&rows, "prod").unwrap().id, "Ctx1");
        assert_eq!(find_context(&rows, "Ctx2").unwrap().id, "Ctx2");
        assert!(find_context(&rows, "ctx2").is_none());
    }
}
