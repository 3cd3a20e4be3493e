//! The page: a header per app (with its icon), its guide, a section per
//! method (signature, doc, tool, parameters, return, schemas, example,
//! try-it form), the events, the type definitions and the state layout; a
//! navigation list with a filter; the style and the script, inline.

use std::collections::HashMap;

use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde_json::{Value, json};

use super::html::{
    JsonText, ScriptJson, Text, doc_paragraphs, id_part, line, linked_type, type_id,
};
use super::{AppDoc, Options, Transport};
use crate::abi::{Manifest, Method, Scalar, TypeDefKind, TypeRef};
use crate::mapping::Tool;
use crate::mapping::signature::{self, type_name};
use crate::text::sanitize_line;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// One service of one app, as the page lays it out.
struct Unit<'a> {
    doc: &'a AppDoc<'a>,
    service: Option<&'a str>,
    manifest: &'a Manifest,
    /// Ids in this unit start with it (empty when the page has one unit).
    prefix: String,
    /// Methods by name, each with its tool (`init` has none).
    methods: Vec<(&'a Method, Option<&'a Tool>)>,
}

fn units<'a>(apps: &'a [AppDoc<'a>]) -> Vec<Unit<'a>> {
    let count: usize = apps.iter().map(|a| a.app.services.len()).sum();
    let mut out = Vec::new();
    for doc in apps {
        for svc in &doc.app.services {
            let service = svc.name.as_deref();
            let prefix = if count == 1 {
                String::new()
            } else {
                format!(
                    "{}-{}-",
                    id_part(&doc.key),
                    id_part(service.unwrap_or_default())
                )
            };
            let tools: HashMap<&str, &Tool> = doc
                .tools
                .iter()
                .filter(|t| t.service.as_deref() == service)
                .map(|t| (t.method.as_str(), *t))
                .collect();
            let mut methods: Vec<(&Method, Option<&Tool>)> = svc
                .manifest
                .methods
                .iter()
                .map(|m| (m, tools.get(m.name.as_str()).copied()))
                .filter(|(m, tool)| tool.is_some() || m.name == "init")
                .collect();
            methods.sort_by(|a, b| a.0.name.cmp(&b.0.name));
            out.push(Unit {
                doc,
                service,
                manifest: &svc.manifest,
                prefix,
                methods,
            });
        }
    }
    out
}

/// A page with the reference of `apps` (one, or several: the MCP App shows
/// every served app on one page).
pub fn page(apps: &[AppDoc<'_>], opts: &Options) -> String {
    let units = units(apps);
    let title = match apps {
        [one] => format!("{} — calimcp reference", app_title(one)),
        _ => "Apps — calimcp reference".to_string(),
    };
    let body = html! {
        nav id="nav" aria-label="Methods" {
            "\n"
            input id="filter" type="search" placeholder="Filter methods ( / )"
                aria-label="Filter methods by name" autocomplete="off" hidden;
            "\n"
            @for u in &units { (nav(u)) }
        }
        "\n"
        main id="main" {
            "\n"
            @for doc in apps {
                (article(doc, &units.iter().filter(|u| std::ptr::eq(u.doc, doc)).collect::<Vec<_>>(), opts))
            }
        }
        "\n"
    };
    document(&title, body, opts)
}

/// A page listing `apps`, each linked to its page at `href(app)`.
/// (`opts` sets only the page's security policy: the index has no form.)
pub fn index(apps: &[AppDoc<'_>], href: &dyn Fn(&AppDoc<'_>) -> String, opts: &Options) -> String {
    let body = html! {
        main id="main" {
            "\n" h1 { "Apps" } "\n"
            @if apps.is_empty() {
                p { "No apps are served." } "\n"
            } @else {
                table class="index" {
                    "\n"
                    thead { tr {
                        th scope="col" { "App" } th scope="col" { "Package" } th scope="col" { "Version" }
                        th scope="col" { "Methods" } th scope="col" { "Id" }
                    } }
                    "\n"
                    tbody {
                        "\n"
                        @for doc in apps {
                            tr {
                                td { a href=(Text(href(doc))) { (Text(app_title(doc))) } }
                                td { (line(doc.app.package.as_deref().unwrap_or("-"))) }
                                td { (line(doc.app.version.as_deref().unwrap_or("-"))) }
                                td { (doc.app.services.iter().map(|s| s.manifest.methods.len()).sum::<usize>()) }
                                td { code { (doc.app.id) } }
                            }
                            "\n"
                        }
                    }
                    "\n"
                }
                "\n"
            }
        }
        "\n"
    };
    document("Apps — calimcp reference", body, opts)
}

/// The page a server answers for an app it does not serve.
pub fn not_found(name: &str) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head { meta charset="utf-8"; title { "Not found" } }
            body { main {
                h1 { "Not found" }
                p {
                    "No served app is called " code { (Text(name)) } ". "
                    a href="/" { "The served apps" } "."
                }
            } }
        }
    }
    .into_string()
}

fn app_title(doc: &AppDoc<'_>) -> String {
    sanitize_line(
        doc.app
            .name
            .as_deref()
            .unwrap_or_else(|| doc.app.package_or_id()),
    )
}

fn document(title: &str, body: Markup, opts: &Options) -> String {
    let (connect, config) = match opts.try_it.as_ref().map(|t| &t.transport) {
        Some(Transport::Fetch { endpoint }) => (
            "'self'",
            json!({"transport": "fetch", "endpoint": endpoint}),
        ),
        Some(Transport::Bridge) => ("'none'", json!({"transport": "bridge"})),
        None => ("'none'", json!({"transport": "none"})),
    };
    let csp = format!(
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data: https:; \
         connect-src {connect}; base-uri 'none'; form-action 'none'"
    );
    let page = html! {
        (DOCTYPE) "\n"
        html lang="en" {
            "\n"
            head {
                "\n" meta charset="utf-8";
                "\n" meta name="viewport" content="width=device-width, initial-scale=1";
                "\n" meta http-equiv="Content-Security-Policy" content=(csp);
                "\n" meta name="color-scheme" content="light dark";
                "\n" meta name="generator" content={ "calimcp " (env!("CARGO_PKG_VERSION")) };
                "\n" title { (Text(title)) }
                // The page's own style and script, raw: constants compiled
                // into calimcp from page.css and page.js, never text from a
                // manifest or a request (the one place each is inserted).
                "\n" style { "\n" (PreEscaped(STYLE)) }
                "\n"
            }
            "\n"
            body {
                "\n" a class="skip" href="#main" { "Skip to content" } "\n"
                (body)
                script type="application/json" id="calimcp-config" { (ScriptJson(&config)) }
                "\n" script { "\n" (PreEscaped(SCRIPT)) }
                "\n"
            }
            "\n"
        }
        "\n"
    };
    page.into_string()
}

fn nav(u: &Unit<'_>) -> Markup {
    // A named service of a multi-service app links to its own heading.
    let (label, target) = match u.service {
        Some(s) if u.doc.app.services.len() > 1 => (
            format!("{} · {}", app_title(u.doc), sanitize_line(s)),
            "service",
        ),
        _ => (app_title(u.doc), "app"),
    };
    html! {
        h2 class="nav-app" { a href={ "#" (Text(&u.prefix)) (target) } { (Text(label)) } } "\n"
        ul {
            "\n"
            @for (m, _) in &u.methods {
                @let kind = kind(m);
                li data-name=(Text(m.name.to_lowercase())) {
                    a href={ "#" (method_id(u, m)) } {
                        span class={ "k " (kind) } { (kind) } " " (line(&m.name))
                    }
                }
                "\n"
            }
        }
        "\n"
    }
}

fn kind(m: &Method) -> &'static str {
    if m.is_view() { "view" } else { "mut" }
}

fn method_id(u: &Unit<'_>, m: &Method) -> String {
    format!("{}m-{}", u.prefix, id_part(&m.name))
}

fn article(doc: &AppDoc<'_>, units: &[&Unit<'_>], opts: &Options) -> Markup {
    let first = units.first().map_or("", |u| u.prefix.as_str());
    let app = doc.app;
    let versions: Vec<&str> = app
        .installs
        .iter()
        .map(|i| i.version.as_deref().unwrap_or("?"))
        .collect();
    let names: Vec<&str> = app
        .services
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    let services = if names.len() > 1 {
        names.join(", ")
    } else {
        "1 (single service)".into()
    };
    let field = |k: &str, v: &str| html! { dt { (k) } dd { (line(v)) } "\n" };
    html! {
        article class="app" data-app=(Text(&doc.key)) {
            "\n"
            header id={ (first) "app" } {
                "\n" h1 {
                    // The icon from the app's metadata, bounded to a
                    // `data:image/` or `https:` URL (`abi::meta`).
                    @if let Some(icon) = &app.icon {
                        img class="icon" src=(Text(icon)) alt="" width="40" height="40";
                        " "
                    }
                    (Text(app_title(doc)))
                } "\n"
                dl class="meta" {
                    "\n"
                    (field("package", app.package.as_deref().unwrap_or("-")))
                    (field("version", app.version.as_deref().unwrap_or("-")))
                    @if versions.len() > 1 { (field("versions", &versions.join(", "))) }
                    (field("services", &services))
                    dt { "id" } dd { code { (app.id) } } "\n"
                    (field("source", &app.source))
                }
                "\n"
                @if let (Some(_), Some(uri)) = (&opts.try_it, &doc.contexts_uri) {
                    p class="ctx-row" { label {
                        "Context for calls "
                        select class="ctx" data-uri=(Text(uri)) {
                            option value="" { "default: the pinned or only context" }
                        }
                    } }
                    "\n"
                }
            }
            "\n"
            @if let Some(g) = &app.guide { (guide(first, g)) }
            @for u in units { (unit(u, opts)) }
        }
        "\n"
    }
}

/// The app's guide: written by its author, rendered from markdown with its
/// raw HTML as text ([`super::guide`]).
fn guide(prefix: &str, g: &crate::abi::meta::Guide) -> Markup {
    html! {
        section class="guide" id={ (prefix) "guide" } {
            "\n" h2 { "Guide" } "\n"
            p class="by" { "Written by the app's author, not by calimcp." } "\n"
            // Markup made by pulldown-cmark from events in which every raw
            // HTML piece was turned into escaped text (the one place a
            // guide is inserted).
            div class="guide-body" { (PreEscaped(super::guide::render(&g.markdown))) }
            "\n"
        }
        "\n"
    }
}

fn unit(u: &Unit<'_>, opts: &Options) -> Markup {
    let p = &u.prefix;
    let multi = u.doc.app.services.len() > 1;
    html! {
        section class="service" {
            "\n"
            @if let Some(s) = u.service.filter(|_| multi) {
                h2 id={ (p) "service" } { "service " (line(s)) } "\n"
            }
            h2 id={ (p) "methods" } { "Methods" } "\n"
            @if u.methods.is_empty() {
                p { "No methods: a state schema only." } "\n"
            }
            @for (m, tool) in &u.methods { (method(u, m, *tool, opts)) }
            (events(u))
            (state(u))
            (types(u))
        }
        "\n"
    }
}

fn method(u: &Unit<'_>, m: &Method, tool: Option<&Tool>, opts: &Options) -> Markup {
    let kind = kind(m);
    let id = method_id(u, m);
    let sig = tool.map_or_else(|| signature::signature(m), |t| t.signature.clone());
    html! {
        section class="method" id=(id) data-name=(Text(m.name.to_lowercase())) tabindex="-1" {
            "\n"
            h3 {
                a class="anchor" href={ "#" (id) } { (line(&m.name)) }
                " " span class={ "k " (kind) } { "[" (kind) "]" }
            }
            "\n" pre class="sig" { code { (Text(&sig)) } } "\n"
            @match tool {
                Some(t) => { p class="tool" { "tool " code { (Text(&t.name)) } } "\n" }
                None => { p class="tool" { "no tool: runs at context creation" } "\n" }
            }
            (flags(m))
            @if let Some(d) = &m.doc {
                div class="doc" { (doc_paragraphs(d)) } "\n"
            }
            (params(u, m))
            (returns(u, m))
            @if let Some(t) = tool { (schemas(u, m, t, opts)) }
        }
        "\n"
    }
}

fn flags(m: &Method) -> Markup {
    let f: Vec<&str> = [
        (m.destructive, "destructive"),
        (m.idempotent, "idempotent"),
        (m.xcall_callable, "xcall"),
        (m.handler, "event handler"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect();
    html! {
        @if !f.is_empty() {
            p class="flags" {
                @for (i, x) in f.iter().enumerate() {
                    @if i > 0 { " " }
                    span class="flag" { (x) }
                }
            }
            "\n"
        }
    }
}

/// A parameter's or a field's type cell: the linked type, `| null` when it
/// may be null.
fn type_cell(m: &Manifest, prefix: &str, ty: &TypeRef, nullable: bool) -> Markup {
    html! { td { code { (linked_type(m, prefix, ty)) } @if nullable { " | null" } } }
}

fn docs(doc: Option<&str>) -> Markup {
    html! { @if let Some(d) = doc { (doc_paragraphs(d)) } }
}

fn params(u: &Unit<'_>, m: &Method) -> Markup {
    html! {
        @if m.params.is_empty() {
            p class="params none" { "No parameters." } "\n"
        } @else {
            table class="params" {
                "\n" caption { "Parameters" } "\n"
                thead { tr { th scope="col" { "Name" } th scope="col" { "Type" } th scope="col" { "Description" } } }
                "\n"
                tbody {
                    "\n"
                    @for p in &m.params {
                        tr {
                            td { code { (line(&p.name)) @if p.nullable { "?" } } }
                            (type_cell(u.manifest, &u.prefix, &p.ty, p.nullable))
                            td { (docs(p.doc.as_deref())) }
                        }
                        "\n"
                    }
                }
                "\n"
            }
            "\n"
        }
    }
}

fn returns(u: &Unit<'_>, m: &Method) -> Markup {
    html! {
        p class="returns" {
            "Returns "
            code {
                @match &m.returns {
                    Some(t) => (linked_type(u.manifest, &u.prefix, t)),
                    None => "unit",
                }
                @if m.returns_nullable { " | null" }
            }
        }
        (docs(m.returns_doc.as_deref()))
        "\n"
    }
}

fn schemas(u: &Unit<'_>, m: &Method, t: &Tool, opts: &Options) -> Markup {
    let s = t.schemas();
    let example = super::example::arguments(&s.input, t.context_injected);
    html! {
        details class="schema" {
            summary { "Arguments schema" } pre { code { (JsonText(&s.input)) } }
        }
        "\n"
        @match &s.output {
            Some(o) => {
                details class="schema" {
                    summary { "Result schema" } pre { code { (JsonText(o)) } }
                }
                "\n"
            }
            None => { p class="schema" { "Result: none (unit)" } "\n" }
        }
        details class="example" {
            summary { "Example arguments" } pre { code class="example-args" { (JsonText(&example)) } }
        }
        "\n"
        @if let Some(try_it) = &opts.try_it {
            @if try_it.callable.contains(&t.name) { (form(u, m, t, &s.input, &example)) }
        }
    }
}

/// What a parameter's input is: a text box read as a string, an integer or a
/// number, a true/false choice, or JSON.
fn input_kind(m: &Manifest, t: &TypeRef) -> &'static str {
    let mut t = t;
    for _ in 0..8 {
        match t {
            TypeRef::Ref(name) => match m.types.get(name).map(|d| &d.kind) {
                Some(TypeDefKind::Alias(target)) => t = target,
                _ => return "json",
            },
            TypeRef::Scalar(Scalar::String) => return "string",
            TypeRef::Scalar(Scalar::Bool) => return "bool",
            TypeRef::Scalar(s) if s.is_integer() => return "integer",
            TypeRef::Scalar(Scalar::F32 | Scalar::F64) => return "number",
            _ => return "json",
        }
    }
    "json"
}

fn form(u: &Unit<'_>, m: &Method, t: &Tool, input: &Value, example: &Value) -> Markup {
    let fid = |name: &str| format!("{}f-{}-{}", u.prefix, id_part(&t.name), id_part(name));
    html! {
        form class="try" data-tool=(Text(&t.name)) {
            "\n"
            fieldset {
                "\n" legend { "Try " code { (Text(&t.name)) } } "\n"
                @for p in &m.params {
                    @let id = fid(&p.name);
                    div class="field" {
                        label for=(id) {
                            code { (line(&p.name)) @if p.nullable { "?" } }
                            " " span class="ty" { (Text(type_name(&p.ty))) }
                        }
                        @match input_kind(u.manifest, &p.ty) {
                            "bool" => {
                                select id=(id) name=(Text(&p.name)) data-kind="bool" data-optional[p.nullable] {
                                    option value="" { "(none)" } option { "true" } option { "false" }
                                }
                            }
                            "json" => {
                                textarea id=(id) name=(Text(&p.name)) data-kind="json" rows="3"
                                    spellcheck="false" data-optional[p.nullable] {
                                    @if let Some(v) = example.get(&p.name) {
                                        (Text(serde_json::to_string_pretty(v).unwrap_or_default()))
                                    }
                                }
                            }
                            k => {
                                input id=(id) name=(Text(&p.name)) data-kind=(k) autocomplete="off"
                                    spellcheck="false" data-optional[p.nullable];
                            }
                        }
                    }
                    "\n"
                }
                button type="button" class="call" { "Call" } "\n"
                pre class="out" role="status" aria-live="polite" hidden {} "\n"
            }
            "\n"
            script type="application/json" class="schema" { (ScriptJson(input)) }
            "\n"
        }
        "\n"
    }
}

fn events(u: &Unit<'_>) -> Markup {
    let p = &u.prefix;
    html! {
        @if !u.manifest.events.is_empty() {
            h2 id={ (p) "events" } { "Events" } "\n"
            ul class="events" {
                "\n"
                @for e in &u.manifest.events {
                    li id={ (p) "e-" (id_part(&e.name)) } {
                        code {
                            (line(&e.name))
                            @if let Some(t) = &e.payload { "(" (linked_type(u.manifest, p, t)) ")" }
                        }
                    }
                    "\n"
                }
            }
            "\n"
        }
    }
}

fn state(u: &Unit<'_>) -> Markup {
    let m = u.manifest;
    if m.state_root.is_none() && m.state_version.is_none() && m.migrations.is_empty() {
        return html! {};
    }
    let p = &u.prefix;
    let root_record = match m
        .state_root
        .as_ref()
        .and_then(|root| m.types.get(root))
        .map(|d| &d.kind)
    {
        Some(TypeDefKind::Record(r)) => Some(r),
        _ => None,
    };
    html! {
        h2 id={ (p) "state" } { "State" } "\n"
        dl class="meta" {
            "\n"
            @if let Some(root) = &m.state_root {
                dt { "root" } dd { code { (linked_type(m, p, &TypeRef::Ref(root.clone()))) } } "\n"
            }
            @if let Some(v) = m.state_version {
                dt { "version" } dd { (v) } "\n"
            }
            @for e in &m.migrations {
                dt { "migration" }
                dd { code { (line(&e.method)) } ": " (e.from_version) " → " (u64::from(e.from_version) + 1) }
                "\n"
            }
        }
        "\n"
        @if let Some(r) = root_record {
            table class="params" {
                "\n" caption { "State layout (root fields)" } "\n"
                thead { tr { th scope="col" { "Field" } th scope="col" { "Type" } th scope="col" { "Stored as" } } }
                "\n"
                tbody {
                    "\n"
                    @for f in &r.fields {
                        tr {
                            td { code { (line(&f.name)) } }
                            td { code { (linked_type(m, p, &f.ty)) } }
                            td { (Text(crdt_of(&f.ty))) }
                        }
                        "\n"
                    }
                }
                "\n"
            }
            "\n"
        }
    }
}

/// The CRDT a stored field is kept as, or `-`.
fn crdt_of(t: &TypeRef) -> String {
    let crdt = match t {
        TypeRef::List { crdt, .. } | TypeRef::Map { crdt, .. } | TypeRef::Tuple { crdt, .. } => {
            crdt.as_ref()
        }
        TypeRef::Record(r) => r.crdt.as_ref(),
        _ => None,
    };
    crdt.map_or_else(|| "-".into(), |c| sanitize_line(&c.0))
}

fn types(u: &Unit<'_>) -> Markup {
    let m = u.manifest;
    let p = &u.prefix;
    html! {
        @if !m.types.is_empty() {
            h2 id={ (p) "types" } { "Types" } "\n"
            @for (name, def) in &m.types {
                section class="type" id=(type_id(p, name)) tabindex="-1" {
                    "\n"
                    h3 { (line(name)) " " span class="k" { (type_kind(&def.kind)) } }
                    "\n"
                    @if let Some(d) = &def.doc { div class="doc" { (doc_paragraphs(d)) } }
                    @if let Some(s) = signature::shape(m, &TypeRef::Ref(name.clone())) {
                        p class="shape" { "looks like " code { (Text(s)) } }
                    }
                    (type_body(m, p, &def.kind))
                    "\n"
                }
                "\n"
            }
        }
    }
}

fn type_kind(kind: &TypeDefKind) -> &'static str {
    match kind {
        TypeDefKind::Record(_) => "record",
        TypeDefKind::Variant(_) => "variant",
        TypeDefKind::Alias(_) => "alias",
        TypeDefKind::Bytes(_) => "bytes",
        TypeDefKind::Unknown(_) => "unknown",
    }
}

fn type_body(m: &Manifest, p: &str, kind: &TypeDefKind) -> Markup {
    match kind {
        TypeDefKind::Record(r) => html! {
            table class="params" {
                thead { tr { th scope="col" { "Field" } th scope="col" { "Type" } th scope="col" { "Description" } } }
                tbody {
                    "\n"
                    @for f in &r.fields {
                        tr {
                            td { code { (line(&f.name)) } }
                            (type_cell(m, p, &f.ty, f.nullable))
                            td { (docs(f.doc.as_deref())) }
                        }
                        "\n"
                    }
                }
            }
        },
        TypeDefKind::Variant(v) => html! {
            ul class="variants" {
                "\n"
                @for c in &v.variants {
                    li {
                        code {
                            (line(&c.name))
                            @if let Some(t) = &c.payload { "(" (linked_type(m, p, t)) ")" }
                        }
                        (docs(c.doc.as_deref()))
                    }
                    "\n"
                }
            }
        },
        TypeDefKind::Alias(t) => html! { p { "= " code { (linked_type(m, p, t)) } } },
        TypeDefKind::Bytes(b) => html! {
            p {
                "bytes"
                @if let Some(n) = b.size { ", " (n) " long" }
                @if let Some(e) = &b.encoding { ", " (line(e)) " encoded" }
            }
        },
        TypeDefKind::Unknown(k) => html! {
            p { "a kind this calimcp does not know (" code { (line(k)) } "): accepted unvalidated" }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::html::{linked_type, text_of};
    use crate::abi::{LoadOptions, load_path};
    use crate::mapping::signature::type_name;

    /// Every parameter, field and payload type of the example that holds
    /// every kind reads on the page exactly as signatures write it.
    #[test]
    fn linked_types_read_as_signatures_on_every_kind() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/every-kind.json");
        let apps = load_path(&path, &LoadOptions::default(), &mut Vec::new()).unwrap();
        let m = &apps[0].services[0].manifest;
        let mut seen = 0;
        let mut check = |t: &crate::abi::TypeRef| {
            assert_eq!(text_of(&linked_type(m, "", t).into_string()), type_name(t));
            seen += 1;
        };
        for method in &m.methods {
            method.params.iter().for_each(|p| check(&p.ty));
            method.returns.iter().for_each(&mut check);
        }
        for def in m.types.values() {
            if let crate::abi::TypeDefKind::Record(r) = &def.kind {
                r.fields.iter().for_each(|f| check(&f.ty));
            }
        }
        assert!(seen > 20, "only {seen} types checked");
    }
}
