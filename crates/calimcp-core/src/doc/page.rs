//! The page: a header per app, a section per method (signature, doc, tool,
//! parameters, return, schemas, example, try-it form), the events, the type
//! definitions and the state layout; a navigation list with a filter; the
//! style and the script, inline.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::{Value, json};

use super::html::{doc_paragraphs, esc, esc_text, id_part, linked_type, script_json, type_id};
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
    let mut body = String::with_capacity(64 * 1024);
    body.push_str("<nav id=\"nav\" aria-label=\"Methods\">\n");
    body.push_str(
        "<input id=\"filter\" type=\"search\" placeholder=\"Filter methods ( / )\" aria-label=\"Filter methods by name\" autocomplete=\"off\" hidden>\n",
    );
    for u in &units {
        nav(&mut body, u);
    }
    body.push_str("</nav>\n<main id=\"main\">\n");
    for doc in apps {
        let mine: Vec<&Unit> = units.iter().filter(|u| std::ptr::eq(u.doc, doc)).collect();
        article(&mut body, doc, &mine, opts);
    }
    body.push_str("</main>\n");
    document(&title, &body, opts)
}

/// A page listing `apps`, each linked to its page at `href(app)`.
/// (`opts` sets only the page's security policy: the index has no form.)
pub fn index(apps: &[AppDoc<'_>], href: &dyn Fn(&AppDoc<'_>) -> String, opts: &Options) -> String {
    let mut body = String::from("<main id=\"main\">\n<h1>Apps</h1>\n");
    if apps.is_empty() {
        body.push_str("<p>No apps are served.</p>\n");
    } else {
        body.push_str("<table class=\"index\">\n<thead><tr><th scope=\"col\">App</th><th scope=\"col\">Package</th><th scope=\"col\">Version</th><th scope=\"col\">Methods</th><th scope=\"col\">Id</th></tr></thead>\n<tbody>\n");
        for doc in apps {
            let methods: usize = doc
                .app
                .services
                .iter()
                .map(|s| s.manifest.methods.len())
                .sum();
            let _ = writeln!(
                body,
                "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{methods}</td><td><code>{}</code></td></tr>",
                esc(&href(doc)),
                esc(&app_title(doc)),
                esc(&sanitize_line(doc.app.package.as_deref().unwrap_or("-"))),
                esc(&sanitize_line(doc.app.version.as_deref().unwrap_or("-"))),
                esc(&doc.app.id),
            );
        }
        body.push_str("</tbody>\n</table>\n");
    }
    body.push_str("</main>\n");
    document("Apps — calimcp reference", &body, opts)
}

fn app_title(doc: &AppDoc<'_>) -> String {
    sanitize_line(
        doc.app
            .name
            .as_deref()
            .unwrap_or_else(|| doc.app.package_or_id()),
    )
}

fn document(title: &str, body: &str, opts: &Options) -> String {
    let (connect, config) = match opts.try_it.as_ref().map(|t| &t.transport) {
        Some(Transport::Fetch { endpoint }) => (
            "'self'",
            json!({"transport": "fetch", "endpoint": endpoint}),
        ),
        Some(Transport::Bridge) => ("'none'", json!({"transport": "bridge"})),
        None => ("'none'", json!({"transport": "none"})),
    };
    let mut out = String::with_capacity(body.len() + STYLE.len() + SCRIPT.len() + 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; connect-src {connect}; base-uri 'none'; form-action 'none'\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <meta name=\"generator\" content=\"calimcp {}\">\n<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <a class=\"skip\" href=\"#main\">Skip to content</a>\n{body}\
         <script type=\"application/json\" id=\"calimcp-config\">{}</script>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION"),
        esc(title),
        script_json(&config),
    );
    out
}

fn nav(out: &mut String, u: &Unit<'_>) {
    // A named service of a multi-service app links to its own heading.
    let (label, target) = match u.service {
        Some(s) if u.doc.app.services.len() > 1 => (
            format!("{} · {}", app_title(u.doc), sanitize_line(s)),
            "service",
        ),
        _ => (app_title(u.doc), "app"),
    };
    let _ = writeln!(
        out,
        "<h2 class=\"nav-app\"><a href=\"#{}{target}\">{}</a></h2>\n<ul>",
        u.prefix,
        esc(&label)
    );
    for (m, _) in &u.methods {
        let kind = if m.is_view() { "view" } else { "mut" };
        let _ = writeln!(
            out,
            "<li data-name=\"{}\"><a href=\"#{}\"><span class=\"k {kind}\">{kind}</span> {}</a></li>",
            esc(&m.name.to_lowercase()),
            method_id(u, m),
            esc(&sanitize_line(&m.name))
        );
    }
    out.push_str("</ul>\n");
}

fn method_id(u: &Unit<'_>, m: &Method) -> String {
    format!("{}m-{}", u.prefix, id_part(&m.name))
}

fn article(out: &mut String, doc: &AppDoc<'_>, units: &[&Unit<'_>], opts: &Options) {
    let first = units.first().map_or(String::new(), |u| u.prefix.clone());
    let _ = writeln!(
        out,
        "<article class=\"app\" data-app=\"{}\">\n<header id=\"{first}app\">\n<h1>{}</h1>\n<dl class=\"meta\">",
        esc(&doc.key),
        esc(&app_title(doc))
    );
    let app = doc.app;
    let field = |out: &mut String, k: &str, v: &str| {
        let _ = writeln!(out, "<dt>{k}</dt><dd>{}</dd>", esc(&sanitize_line(v)));
    };
    field(out, "package", app.package.as_deref().unwrap_or("-"));
    field(out, "version", app.version.as_deref().unwrap_or("-"));
    if app.installs.len() > 1 {
        let all: Vec<&str> = app
            .installs
            .iter()
            .map(|i| i.version.as_deref().unwrap_or("?"))
            .collect();
        field(out, "versions", &all.join(", "));
    }
    let names: Vec<&str> = app
        .services
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    field(
        out,
        "services",
        &if names.len() > 1 {
            names.join(", ")
        } else {
            "1 (single service)".into()
        },
    );
    let _ = writeln!(out, "<dt>id</dt><dd><code>{}</code></dd>", esc(&app.id));
    field(out, "source", &app.source);
    out.push_str("</dl>\n");
    if let (Some(_), Some(uri)) = (&opts.try_it, &doc.contexts_uri) {
        let _ = writeln!(
            out,
            "<p class=\"ctx-row\"><label>Context for calls <select class=\"ctx\" data-uri=\"{}\"><option value=\"\">default: the pinned or only context</option></select></label></p>",
            esc(uri)
        );
    }
    out.push_str("</header>\n");
    for u in units {
        unit(out, u, opts);
    }
    out.push_str("</article>\n");
}

fn unit(out: &mut String, u: &Unit<'_>, opts: &Options) {
    let p = &u.prefix;
    let multi = u.doc.app.services.len() > 1;
    out.push_str("<section class=\"service\">\n");
    if let Some(s) = u.service.filter(|_| multi) {
        let _ = writeln!(
            out,
            "<h2 id=\"{p}service\">service {}</h2>",
            esc(&sanitize_line(s))
        );
    }
    let _ = writeln!(out, "<h2 id=\"{p}methods\">Methods</h2>");
    if u.methods.is_empty() {
        out.push_str("<p>No methods: a state schema only.</p>\n");
    }
    for (m, tool) in &u.methods {
        method(out, u, m, *tool, opts);
    }
    events(out, u);
    state(out, u);
    types(out, u);
    out.push_str("</section>\n");
}

fn method(out: &mut String, u: &Unit<'_>, m: &Method, tool: Option<&Tool>, opts: &Options) {
    let kind = if m.is_view() { "view" } else { "mut" };
    let id = method_id(u, m);
    let sig = tool.map_or_else(|| signature::signature(m), |t| t.signature.clone());
    let _ = writeln!(
        out,
        "<section class=\"method\" id=\"{id}\" data-name=\"{}\" tabindex=\"-1\">\n<h3><a class=\"anchor\" href=\"#{id}\">{}</a> <span class=\"k {kind}\">[{kind}]</span></h3>\n<pre class=\"sig\"><code>{}</code></pre>",
        esc(&m.name.to_lowercase()),
        esc(&sanitize_line(&m.name)),
        esc(&sig)
    );
    match tool {
        Some(t) => {
            let _ = writeln!(
                out,
                "<p class=\"tool\">tool <code>{}</code></p>",
                esc(&t.name)
            );
        }
        None => out.push_str("<p class=\"tool\">no tool: runs at context creation</p>\n"),
    }
    flags(out, m);
    if let Some(d) = &m.doc {
        let _ = writeln!(out, "<div class=\"doc\">{}</div>", doc_paragraphs(d));
    }
    params(out, u, m);
    returns(out, u, m);
    if let Some(t) = tool {
        schemas(out, u, m, t, opts);
    }
    out.push_str("</section>\n");
}

fn flags(out: &mut String, m: &Method) {
    let mut f = Vec::new();
    if m.destructive {
        f.push("destructive");
    }
    if m.idempotent {
        f.push("idempotent");
    }
    if m.xcall_callable {
        f.push("xcall");
    }
    if m.handler {
        f.push("event handler");
    }
    if !f.is_empty() {
        let spans: Vec<String> = f
            .iter()
            .map(|x| format!("<span class=\"flag\">{x}</span>"))
            .collect();
        let _ = writeln!(out, "<p class=\"flags\">{}</p>", spans.join(" "));
    }
}

fn params(out: &mut String, u: &Unit<'_>, m: &Method) {
    if m.params.is_empty() {
        out.push_str("<p class=\"params none\">No parameters.</p>\n");
        return;
    }
    out.push_str("<table class=\"params\">\n<caption>Parameters</caption>\n<thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Type</th><th scope=\"col\">Description</th></tr></thead>\n<tbody>\n");
    for p in &m.params {
        let _ = writeln!(
            out,
            "<tr><td><code>{}{}</code></td><td><code>{}</code>{}</td><td>{}</td></tr>",
            esc(&sanitize_line(&p.name)),
            if p.nullable { "?" } else { "" },
            linked_type(u.manifest, &u.prefix, &p.ty),
            if p.nullable { " | null" } else { "" },
            p.doc.as_deref().map(doc_paragraphs).unwrap_or_default()
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

fn returns(out: &mut String, u: &Unit<'_>, m: &Method) {
    let ty = m.returns.as_ref().map_or_else(
        || "unit".to_string(),
        |t| linked_type(u.manifest, &u.prefix, t),
    );
    let null = if m.returns_nullable { " | null" } else { "" };
    let _ = writeln!(
        out,
        "<p class=\"returns\">Returns <code>{ty}{null}</code></p>{}",
        m.returns_doc
            .as_deref()
            .map(doc_paragraphs)
            .unwrap_or_default()
    );
}

fn schemas(out: &mut String, u: &Unit<'_>, m: &Method, t: &Tool, opts: &Options) {
    let s = t.schemas();
    let example = super::example::arguments(&s.input, t.context_injected);
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let _ = writeln!(
        out,
        "<details class=\"schema\"><summary>Arguments schema</summary><pre><code>{}</code></pre></details>",
        esc_text(&pretty(&s.input))
    );
    match &s.output {
        Some(o) => {
            let _ = writeln!(
                out,
                "<details class=\"schema\"><summary>Result schema</summary><pre><code>{}</code></pre></details>",
                esc_text(&pretty(o))
            );
        }
        None => out.push_str("<p class=\"schema\">Result: none (unit)</p>\n"),
    }
    let _ = writeln!(
        out,
        "<details class=\"example\"><summary>Example arguments</summary><pre><code class=\"example-args\">{}</code></pre></details>",
        esc_text(&pretty(&example))
    );
    if let Some(try_it) = &opts.try_it
        && try_it.callable.contains(&t.name)
    {
        form(out, u, m, t, &s.input, &example);
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

fn form(out: &mut String, u: &Unit<'_>, m: &Method, t: &Tool, input: &Value, example: &Value) {
    let fid = |name: &str| format!("{}f-{}-{}", u.prefix, id_part(&t.name), id_part(name));
    let _ = writeln!(
        out,
        "<form class=\"try\" data-tool=\"{}\">\n<fieldset>\n<legend>Try <code>{}</code></legend>",
        esc(&t.name),
        esc(&t.name)
    );
    for p in &m.params {
        let kind = input_kind(u.manifest, &p.ty);
        let id = fid(&p.name);
        let label = format!(
            "<label for=\"{id}\"><code>{}{}</code> <span class=\"ty\">{}</span></label>",
            esc(&sanitize_line(&p.name)),
            if p.nullable { "?" } else { "" },
            esc(&type_name(&p.ty))
        );
        let name = esc(&p.name);
        let opt = if p.nullable { " data-optional" } else { "" };
        let field = match kind {
            "bool" => format!(
                "<select id=\"{id}\" name=\"{name}\" data-kind=\"bool\"{opt}><option value=\"\">(none)</option><option>true</option><option>false</option></select>"
            ),
            "json" => {
                let value = example
                    .get(&p.name)
                    .map(|v| serde_json::to_string_pretty(v).unwrap_or_default())
                    .unwrap_or_default();
                format!(
                    "<textarea id=\"{id}\" name=\"{name}\" data-kind=\"json\" rows=\"3\" spellcheck=\"false\"{opt}>{}</textarea>",
                    esc(&value)
                )
            }
            k => format!(
                "<input id=\"{id}\" name=\"{name}\" data-kind=\"{k}\" autocomplete=\"off\" spellcheck=\"false\"{opt}>"
            ),
        };
        let _ = writeln!(out, "<div class=\"field\">{label}{field}</div>");
    }
    let _ = writeln!(
        out,
        "<button type=\"button\" class=\"call\">Call</button>\n<pre class=\"out\" role=\"status\" aria-live=\"polite\" hidden></pre>\n</fieldset>\n<script type=\"application/json\" class=\"schema\">{}</script>\n</form>",
        script_json(input)
    );
}

fn events(out: &mut String, u: &Unit<'_>) {
    if u.manifest.events.is_empty() {
        return;
    }
    let p = &u.prefix;
    let _ = writeln!(
        out,
        "<h2 id=\"{p}events\">Events</h2>\n<ul class=\"events\">"
    );
    for e in &u.manifest.events {
        let payload = e.payload.as_ref().map_or(String::new(), |t| {
            format!("({})", linked_type(u.manifest, p, t))
        });
        let _ = writeln!(
            out,
            "<li id=\"{p}e-{}\"><code>{}{payload}</code></li>",
            id_part(&e.name),
            esc(&sanitize_line(&e.name))
        );
    }
    out.push_str("</ul>\n");
}

fn state(out: &mut String, u: &Unit<'_>) {
    let m = u.manifest;
    if m.state_root.is_none() && m.state_version.is_none() && m.migrations.is_empty() {
        return;
    }
    let p = &u.prefix;
    let _ = writeln!(out, "<h2 id=\"{p}state\">State</h2>\n<dl class=\"meta\">");
    if let Some(root) = &m.state_root {
        let _ = writeln!(
            out,
            "<dt>root</dt><dd><code>{}</code></dd>",
            linked_type(m, p, &TypeRef::Ref(root.clone()))
        );
    }
    if let Some(v) = m.state_version {
        let _ = writeln!(out, "<dt>version</dt><dd>{v}</dd>");
    }
    for e in &m.migrations {
        let _ = writeln!(
            out,
            "<dt>migration</dt><dd><code>{}</code>: {} → {}</dd>",
            esc(&sanitize_line(&e.method)),
            e.from_version,
            u64::from(e.from_version) + 1
        );
    }
    out.push_str("</dl>\n");
    if let Some(TypeDefKind::Record(r)) = m
        .state_root
        .as_ref()
        .and_then(|root| m.types.get(root))
        .map(|d| &d.kind)
    {
        out.push_str("<table class=\"params\">\n<caption>State layout (root fields)</caption>\n<thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Type</th><th scope=\"col\">Stored as</th></tr></thead>\n<tbody>\n");
        for f in &r.fields {
            let _ = writeln!(
                out,
                "<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>",
                esc(&sanitize_line(&f.name)),
                linked_type(m, p, &f.ty),
                esc(&crdt_of(&f.ty))
            );
        }
        out.push_str("</tbody>\n</table>\n");
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

fn types(out: &mut String, u: &Unit<'_>) {
    let m = u.manifest;
    if m.types.is_empty() {
        return;
    }
    let p = &u.prefix;
    let _ = writeln!(out, "<h2 id=\"{p}types\">Types</h2>");
    for (name, def) in &m.types {
        let (kind, body) = match &def.kind {
            TypeDefKind::Record(r) => {
                let rows: String = r
                    .fields
                    .iter()
                    .map(|f| {
                        format!(
                            "<tr><td><code>{}</code></td><td><code>{}</code>{}</td><td>{}</td></tr>\n",
                            esc(&sanitize_line(&f.name)),
                            linked_type(m, p, &f.ty),
                            if f.nullable { " | null" } else { "" },
                            f.doc.as_deref().map(doc_paragraphs).unwrap_or_default()
                        )
                    })
                    .collect();
                (
                    "record",
                    format!(
                        "<table class=\"params\"><thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Type</th><th scope=\"col\">Description</th></tr></thead><tbody>\n{rows}</tbody></table>"
                    ),
                )
            }
            TypeDefKind::Variant(v) => {
                let rows: String = v
                    .variants
                    .iter()
                    .map(|c| {
                        let payload = c
                            .payload
                            .as_ref()
                            .map_or(String::new(), |t| format!("({})", linked_type(m, p, t)));
                        format!(
                            "<li><code>{}{payload}</code>{}</li>\n",
                            esc(&sanitize_line(&c.name)),
                            c.doc.as_deref().map(doc_paragraphs).unwrap_or_default()
                        )
                    })
                    .collect();
                ("variant", format!("<ul class=\"variants\">\n{rows}</ul>"))
            }
            TypeDefKind::Alias(t) => (
                "alias",
                format!("<p>= <code>{}</code></p>", linked_type(m, p, t)),
            ),
            TypeDefKind::Bytes(b) => (
                "bytes",
                format!(
                    "<p>bytes{}{}</p>",
                    b.size.map(|n| format!(", {n} long")).unwrap_or_default(),
                    b.encoding
                        .as_deref()
                        .map(|e| format!(", {} encoded", esc(&sanitize_line(e))))
                        .unwrap_or_default()
                ),
            ),
            TypeDefKind::Unknown(k) => (
                "unknown",
                format!(
                    "<p>a kind this calimcp does not know (<code>{}</code>): accepted unvalidated</p>",
                    esc(&sanitize_line(k))
                ),
            ),
        };
        let shape = signature::shape(m, &TypeRef::Ref(name.clone()))
            .map(|s| format!("<p class=\"shape\">looks like <code>{}</code></p>", esc(&s)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "<section class=\"type\" id=\"{}\" tabindex=\"-1\">\n<h3>{} <span class=\"k\">{kind}</span></h3>\n{}{shape}{body}\n</section>",
            type_id(p, name),
            esc(&sanitize_line(name)),
            def.doc
                .as_deref()
                .map(|d| format!("<div class=\"doc\">{}</div>", doc_paragraphs(d)))
                .unwrap_or_default()
        );
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
            assert_eq!(text_of(&linked_type(m, "", t)), type_name(t));
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
