//! What a new version of an app breaks for its callers, its agents and its
//! stored state: two [`App`]s in, [`Finding`]s out. Pure: no I/O, no output.
//!
//! Every finding carries a stable rule id from [`RULES`] (the table in docs/reference/diff.md
//! is this table), a [`Level`], the service, a path, old → new, an example
//! value where the rule has one, and one sentence of why and what to do.
//! Type changes are decided structurally by [`compat`]; stored state is
//! compared by position, as borsh reads it, and the upgrade gate follows
//! the node's ([`state`]).

pub mod compat;
mod follow;
pub mod policy;
pub mod rules;
pub mod state;
mod unchanged;

use std::collections::{BTreeMap, HashMap};

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::schema::{self, RefMode};
use super::signature::type_name;
use super::toolset::{self, ToolOptions};
use crate::abi::*;
use compat::{Checker, Flow, Incompat};
pub use rules::{Level, RULES, Rule, rule_by_id};
use unchanged::Unchanged;

/// One change and what it means (a finding of `calimcp diff --json`).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Finding {
    /// The rule's stable id (docs/reference/diff.md).
    pub rule: &'static str,
    pub level: Level,
    /// The service, for multi-service apps.
    pub service: Option<String>,
    /// `method`, `method.params.name.field`, `method.returns`, `events.Name`, `state.field`.
    pub path: String,
    /// What it was (empty where nothing was).
    pub old: String,
    /// What it is (empty where nothing is).
    pub new: String,
    /// For parameters a value the old version accepted and the new one
    /// rejects; for results and events a value the new version may produce
    /// that old readers do not expect.
    pub example: Option<Value>,
    /// Why it matters and what to do, in one sentence.
    pub message: String,
}

/// What the node's upgrade gate does with one service's release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Gate {
    /// The service, for multi-service apps.
    pub service: Option<String>,
    /// Whether the node would accept the upgrade.
    pub accepted: bool,
    /// `code-only`, `migrate carry_v1 (v1 → v2)`, or why it is rejected.
    pub action: String,
}

/// Everything `diff` found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
    pub gates: Vec<Gate>,
}

impl Report {
    /// How many findings of each level.
    pub fn count(&self, level: Level) -> usize {
        self.findings.iter().filter(|f| f.level == level).count()
    }

    /// The counts and gates, with the gate's threshold and verdict.
    pub fn summary(&self, fail_on: &'static str, failed: bool) -> Summary {
        Summary {
            breaking: self.count(Level::Breaking),
            warning: self.count(Level::Warning),
            info: self.count(Level::Info),
            fail_on,
            failed,
            upgrade_gate: self.gates.clone(),
        }
    }
}

/// The summary of a diff: how many findings of each level, what fails the
/// command (`--fail-on`) and whether it did, and the node's upgrade gate.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Summary {
    pub breaking: usize,
    pub warning: usize,
    pub info: usize,
    /// `breaking`, `warning`, `any` or `none`.
    pub fail_on: &'static str,
    /// Whether a finding reached `fail_on` (the command exits 1).
    pub failed: bool,
    /// Per service, what the node's upgrade gate does with the release.
    pub upgrade_gate: Vec<Gate>,
}

struct Out<'s> {
    service: Option<&'s str>,
    findings: Vec<Finding>,
}

impl Out<'_> {
    fn push(
        &mut self,
        rule: &'static str,
        path: String,
        old: String,
        new: String,
        example: Option<Value>,
        message: String,
    ) {
        let level = rule_by_id(rule).map_or(Level::Warning, |r| r.level);
        self.push_at(rule, level, path, old, new, example, message);
    }

    #[allow(clippy::too_many_arguments)]
    fn push_at(
        &mut self,
        rule: &'static str,
        level: Level,
        path: String,
        old: String,
        new: String,
        example: Option<Value>,
        message: String,
    ) {
        self.findings.push(Finding {
            rule,
            level,
            service: self.service.map(str::to_string),
            path,
            old,
            new,
            example,
            message,
        });
    }
}

/// Stack for a comparison: types nest up to [`compat::MAX_DEPTH`] and
/// [`state::MAX_LAYOUT_DEPTH`] deep, each level a few frames (only the pages
/// used are ever touched).
const STACK: usize = 256 << 20;

/// Runs `f` on a thread with [`STACK`] bytes of stack (or here, if no thread
/// can be made), so deep types are compared to the limit on any caller's thread.
fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let job = std::sync::Mutex::new(Some(f));
    let take = || job.lock().ok().and_then(|mut j| j.take());
    let ran = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("calimcp-diff".into())
            .stack_size(STACK)
            .spawn_scoped(s, || take().map(|f| f()))
            .ok()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    });
    match ran.flatten() {
        Some(v) => v,
        None => match take() {
            Some(f) => f(),
            None => unreachable!("the comparison ran or is still here"),
        },
    }
}

/// Compares two versions of an app: service by service (one service on
/// each side are compared whatever their names), or only `only`.
pub fn diff_apps(old: &App, new: &App, only: Option<&str>, opts: &ToolOptions) -> Report {
    on_big_stack(|| diff_apps_here(old, new, only, opts))
}

fn diff_apps_here(old: &App, new: &App, only: Option<&str>, opts: &ToolOptions) -> Report {
    let old_tools = tool_names(old, opts);
    let new_tools = tool_names(new, opts);
    let mut report = Report::default();
    let mut migrations: Vec<(Option<&str>, String)> = Vec::new();
    for (name, o, n) in service_pairs(old, new, only) {
        let mut out = Out {
            service: name,
            findings: Vec::new(),
        };
        match (o, n) {
            (Some(o), Some(n)) => {
                let tools = (
                    old_tools.get(&o.name).unwrap_or(&HashMap::new()).clone(),
                    new_tools.get(&n.name).unwrap_or(&HashMap::new()).clone(),
                );
                let unchanged = Unchanged::new(&o.manifest, &n.manifest);
                diff_manifests_into(&o.manifest, &n.manifest, &tools, &unchanged, &mut out);
                let gate = diff_state(&o.manifest, &n.manifest, &unchanged, &mut out);
                if let state::Action::Migrate { method, .. } =
                    state::plan_upgrade(&o.manifest, &n.manifest)
                {
                    migrations.push((name, method));
                }
                report.gates.push(Gate {
                    service: name.map(str::to_string),
                    ..gate
                });
            }
            (o, n) => service_added_or_removed(name, o.is_some(), n.is_some(), &mut out),
        }
        report.findings.append(&mut out.findings);
    }
    tool_theft(old, new, &old_tools, &new_tools, only, &mut report);
    migrations_differ(&migrations, &mut report);
    report
}

/// A service and its OLD and NEW sides to compare: `only`, or the one
/// service on each side whatever their names, or every service by name.
fn service_pairs<'a>(
    old: &'a App,
    new: &'a App,
    only: Option<&'a str>,
) -> Vec<(Option<&'a str>, Option<&'a Service>, Option<&'a Service>)> {
    let mut pairs: Vec<(Option<&str>, Option<&Service>, Option<&Service>)> = Vec::new();
    if let Some(name) = only {
        pairs.push((Some(name), old.service(Some(name)), new.service(Some(name))));
    } else if old.services.len() == 1 && new.services.len() == 1 {
        let name = new.services[0]
            .name
            .as_deref()
            .or(old.services[0].name.as_deref());
        pairs.push((name, Some(&old.services[0]), Some(&new.services[0])));
    } else {
        let mut names: Vec<Option<&str>> = old
            .services
            .iter()
            .chain(&new.services)
            .map(|s| s.name.as_deref())
            .collect();
        names.sort();
        names.dedup();
        for name in names {
            pairs.push((name, old.service(name), new.service(name)));
        }
    }
    pairs
}

/// A service on one side only.
fn service_added_or_removed(name: Option<&str>, in_old: bool, in_new: bool, out: &mut Out) {
    let label = name.unwrap_or("(single)").to_string();
    match (in_old, in_new) {
        (true, false) => out.push(
            "service-removed",
            format!("services.{label}"),
            label.clone(),
            "(removed)".into(),
            None,
            format!("service `{label}` is gone: every caller of its methods and every agent using its tools fails; keep it, or announce its removal"),
        ),
        (false, true) => out.push(
            "service-added",
            format!("services.{label}"),
            "(absent)".into(),
            label.clone(),
            None,
            format!("service `{label}` is new: nothing existing depends on it"),
        ),
        _ => {}
    }
}

/// Services that migrate with different methods: a node carries one
/// migration method per release, so it rejects every migration.
fn migrations_differ(migrations: &[(Option<&str>, String)], report: &mut Report) {
    let mut methods: Vec<&str> = migrations.iter().map(|(_, m)| m.as_str()).collect();
    methods.sort();
    methods.dedup();
    if methods.len() <= 1 {
        return;
    }
    let mut out = Out {
        service: None,
        findings: Vec::new(),
    };
    out.push(
        "state-migrations-differ",
        "state.migrations".into(),
        String::new(),
        methods.join(", "),
        None,
        format!("services migrate with different methods ({}): a node carries one migration method per release and rejects this one; use the same method name in each service, or split the release", methods.join(", ")),
    );
    for g in &mut report.gates {
        if g.accepted && g.action.starts_with("migrate") {
            g.accepted = false;
            g.action = format!(
                "rejected: services declare different migration methods ({})",
                methods.join(", ")
            );
        }
    }
    report.findings.append(&mut out.findings);
}

/// A tool name that called one method and now calls another: agents,
/// allow-lists and scripts that stored the name silently call the other
/// method (`get-x` added next to `get_x` can take `get_x`'s tool name).
fn tool_theft(
    old: &App,
    new: &App,
    old_tools: &ToolNames,
    new_tools: &ToolNames,
    only: Option<&str>,
    report: &mut Report,
) {
    let multi = old.services.len() > 1 || new.services.len() > 1;
    let list = |tools: &ToolNames| -> Vec<(Option<String>, String, String)> {
        let mut v: Vec<_> = tools
            .iter()
            .filter(|(s, _)| only.is_none() || s.as_deref() == only)
            .flat_map(|(s, by_method)| {
                by_method
                    .iter()
                    .map(move |(m, n)| (s.clone(), m.clone(), n.clone()))
            })
            .collect();
        v.sort();
        v
    };
    let now: HashMap<String, (Option<String>, String)> = list(new_tools)
        .into_iter()
        .map(|(s, m, n)| (n, (s, m)))
        .collect();
    for (service, method, name) in list(old_tools) {
        let Some((s2, m2)) = now.get(&name) else {
            continue;
        };
        if *m2 == method && (!multi || *s2 == service) {
            continue;
        }
        let clean = crate::text::sanitize_line;
        let target = |s: &Option<String>, m: &str| match (s, multi) {
            (Some(s), true) => format!("{}/{}", clean(s), clean(m)),
            _ => clean(m),
        };
        let (was, is) = (target(&service, &method), target(s2, m2));
        let mut out = Out {
            service: service.as_deref(),
            findings: Vec::new(),
        };
        out.push(
            "tool-name-reused",
            clean(&method),
            format!("{} → {was}", clean(&name)),
            format!("{} → {is}", clean(&name)),
            None,
            format!("the MCP tool `{}` called `{was}` and now calls `{is}`: agents, allow-lists and scripts that stored the name call another method without noticing; rename the new method so its tool name differs", clean(&name)),
        );
        report.findings.append(&mut out.findings);
    }
}

/// Tool names by service, then by method.
type ToolNames = HashMap<Option<String>, HashMap<String, String>>;

/// Tool names by service and method, for one app alone.
fn tool_names(app: &App, opts: &ToolOptions) -> ToolNames {
    let set = toolset::build(std::slice::from_ref(app), opts);
    let mut out: HashMap<Option<String>, HashMap<String, String>> = HashMap::new();
    for t in set.tools {
        out.entry(t.service.clone())
            .or_default()
            .insert(t.method.clone(), t.name.clone());
    }
    out
}

type Names = (HashMap<String, String>, HashMap<String, String>);

fn by_name<T>(items: &[T], name: impl Fn(&T) -> &str) -> BTreeMap<&str, &T> {
    items.iter().map(|i| (name(i), i)).collect()
}

fn diff_manifests_into(
    old: &Manifest,
    new: &Manifest,
    tools: &Names,
    unchanged: &Unchanged,
    out: &mut Out,
) {
    let om = by_name(&old.methods, |m| m.name.as_str());
    let nm = by_name(&new.methods, |m| m.name.as_str());
    // Types equal but for docs are compatible without a look.
    let same = &unchanged.shapes;
    let mut input = Checker::new(old, new, Flow::Input).with_unchanged(same);
    let mut input_back = Checker::new(new, old, Flow::Input).with_unchanged(same);
    let mut output = Checker::new(new, old, Flow::Output).with_unchanged(same);
    let mut output_back = Checker::new(old, new, Flow::Output).with_unchanged(same);
    let mut cx = Cx {
        old,
        new,
        input: &mut input,
        input_back: &mut input_back,
        output: &mut output,
        output_back: &mut output_back,
        unchanged,
    };
    for (name, m) in &om {
        let shown = crate::text::sanitize_line(name);
        match nm.get(name) {
            None if *name == "init" => out.push(
                "init-removed",
                "init".into(),
                crate::mapping::signature(m),
                "(removed)".into(),
                None,
                "`init` is gone: new contexts are created without running it; make sure the state still starts valid".into(),
            ),
            None => out.push(
                "method-removed",
                shown.clone(),
                crate::mapping::signature(m),
                "(removed)".into(),
                None,
                format!("`{shown}` is gone: every script, front end and agent calling it fails; keep it (perhaps deprecated) for a release, or tell its callers"),
            ),
            Some(n) => cx.method(m, n, tools, out),
        }
    }
    for (name, n) in &nm {
        if om.contains_key(name) {
            continue;
        }
        let shown = crate::text::sanitize_line(name);
        let (rule, message) = if *name == "init" {
            ("init-added", "`init` is new: it runs only when a context is created, so existing contexts never run it".to_string())
        } else {
            (
                "method-added",
                format!("`{shown}` is new: nothing existing depends on it"),
            )
        };
        out.push(
            rule,
            shown,
            "(absent)".into(),
            crate::mapping::signature(n),
            None,
            message,
        );
    }
    cx.events(out);
    entry_points(old, new, &om, &nm, out);
    duplicates(new, out);
}

/// Who may reach a method by xcall, as the node decides it
/// (calimero-context `handlers/execute/mod.rs` at 0.11.0-rc.25,
/// `extract_xcall_policies` and `xcall_caller_denied`): a module that marks
/// no method `xcall_callable` is not gated, so every method is open to any
/// context in the namespace; once one is marked, only marked methods are
/// reachable, each by its `xcall_callers` (`same_app`: the caller's
/// application id must be the target's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Xcall {
    Unreachable,
    SameApp,
    Any,
}

fn xcall_access(gated: bool, m: &Method) -> Xcall {
    match (gated, m.xcall_callable, m.xcall_callers.as_deref()) {
        (false, _, _) => Xcall::Any,
        (true, false, _) => Xcall::Unreachable,
        (true, true, None | Some("any_in_namespace")) => Xcall::Any,
        (true, true, Some(_)) => Xcall::SameApp,
    }
}

fn xcall_label(a: Xcall, gated: bool) -> String {
    match (a, gated) {
        (Xcall::Unreachable, _) => "not xcall-callable".into(),
        (Xcall::SameApp, _) => "same_app".into(),
        (Xcall::Any, true) => "any_in_namespace".into(),
        (Xcall::Any, false) => "any_in_namespace (module not gated)".into(),
    }
}

/// Who can reach a method besides callers: other contexts ([`Xcall`]) and
/// events (`handler`: the node runs only handlers on events).
fn entry_points(
    old: &Manifest,
    new: &Manifest,
    om: &BTreeMap<&str, &Method>,
    nm: &BTreeMap<&str, &Method>,
    out: &mut Out,
) {
    let gated = |m: &Manifest| m.methods.iter().any(|x| x.xcall_callable);
    let (og, ng) = (gated(old), gated(new));
    for (name, m) in om {
        let Some(n) = nm.get(name) else { continue };
        let shown = crate::text::sanitize_line(name);
        let (was, is) = (xcall_access(og, m), xcall_access(ng, n));
        let (rule, message) = xcall_change(was, is, (og, ng), n, &shown);
        if !rule.is_empty() {
            out.push(
                rule,
                shown.clone(),
                xcall_label(was, og),
                xcall_label(is, ng),
                None,
                message,
            );
        }
        handler_change(m, n, &shown, out);
    }
}

/// The rule and message for who may reach method `n` (shown as `shown`) by
/// xcall going from `was` to `is`, `og`/`ng` whether each version's module
/// is gated; no rule when nothing changed.
fn xcall_change(
    was: Xcall,
    is: Xcall,
    (og, ng): (bool, bool),
    n: &Method,
    shown: &str,
) -> (&'static str, String) {
    let why_gate = if !n.xcall_callable && ng && !og {
        " (the module now marks other methods #[app::xcall], so the node lets xcalls reach only those)"
    } else {
        ""
    };
    let ungated = if og && !ng {
        " (the module no longer marks any method #[app::xcall], so the node stops gating xcalls to it at all)"
    } else {
        ""
    };
    match (was, is) {
        (a, b) if a == b => ("", String::new()),
        (_, Xcall::Unreachable) => (
            "xcall-removed",
            format!(
                "other contexts can no longer call `{shown}` by xcall{why_gate}: their xcalls are refused; keep it #[app::xcall]"
            ),
        ),
        (Xcall::Unreachable, Xcall::Any) if og && !ng => (
            "xcall-gate-removed",
            format!(
                "any context in the namespace may now call `{shown}` by xcall{ungated}: review what it trusts in its caller, or keep one method marked #[app::xcall] so the node keeps gating"
            ),
        ),
        (Xcall::Unreachable, _) => (
            "xcall-added",
            format!("other contexts may now call `{shown}` by xcall; nothing existing breaks"),
        ),
        (Xcall::Any, Xcall::SameApp) => (
            "xcall-callers-narrowed",
            format!(
                "only contexts of the same app may now xcall `{shown}`: xcalls from other apps in the namespace are refused"
            ),
        ),
        (Xcall::SameApp, Xcall::Any) => (
            "xcall-callers-widened",
            format!(
                "any context in the namespace may now xcall `{shown}`, not only the same app's{ungated}: review what it trusts in its caller"
            ),
        ),
        _ => ("", String::new()),
    }
}

/// Method `m` becoming, or ceasing to be, an event handler as `n`.
fn handler_change(m: &Method, n: &Method, shown: &str, out: &mut Out) {
    if m.handler && !n.handler {
        out.push(
            "handler-removed",
            shown.to_string(),
            "handler".into(),
            "not a handler".into(),
            None,
            format!("`{shown}` is no longer an event handler: the node stops running it on events, so what it kept up to date goes stale"),
        );
    } else if !m.handler && n.handler {
        out.push(
            "handler-added",
            shown.to_string(),
            "not a handler".into(),
            "handler".into(),
            None,
            format!("`{shown}` is now an event handler: the node runs it on events, a new effect of existing traffic"),
        );
    }
}

/// Names NEW declares twice where JSON or the comparison needs them unique:
/// a method's parameters, a record's fields, an enum's cases.
fn duplicates(new: &Manifest, out: &mut Out) {
    fn twice<'n>(names: impl Iterator<Item = &'n str>) -> Option<&'n str> {
        let mut seen = std::collections::HashSet::new();
        names.into_iter().find(|n| !seen.insert(*n))
    }
    let mut found: Vec<(String, String)> = Vec::new();
    for m in &new.methods {
        if let Some(d) = twice(m.params.iter().map(|p| p.name.as_str())) {
            found.push((
                format!("{}.params.{d}", m.name),
                format!("method `{}` declares parameter `{d}` twice", m.name),
            ));
        }
    }
    for (name, def) in &new.types {
        let d = match &def.kind {
            TypeDefKind::Record(r) if !r.is_positional() => {
                twice(r.fields.iter().map(|f| f.name.as_str()))
            }
            TypeDefKind::Variant(v) => twice(v.variants.iter().map(|c| c.name.as_str())),
            _ => None,
        };
        if let Some(d) = d {
            found.push((
                format!("types.{name}.{d}"),
                format!("type `{name}` declares `{d}` twice"),
            ));
        }
    }
    for (path, what) in found {
        let path = crate::text::sanitize_line(&path);
        out.push(
            "name-duplicated",
            path,
            String::new(),
            String::new(),
            None,
            format!("{}: a JSON object holds one value per name, so callers cannot send both and the comparison cannot tell them apart; give each its own name", crate::text::sanitize_line(&what)),
        );
    }
}

struct Cx<'a, 'c> {
    old: &'a Manifest,
    new: &'a Manifest,
    input: &'c mut Checker<'a>,
    input_back: &'c mut Checker<'a>,
    output: &'c mut Checker<'a>,
    output_back: &'c mut Checker<'a>,
    unchanged: &'c Unchanged,
}

const UNIT: TypeRef = TypeRef::Scalar(Scalar::Unit);

fn at(path: &str, inner: &Incompat) -> String {
    format!("{path}{}", inner.path)
}

impl<'a> Cx<'a, '_> {
    fn method(&mut self, m: &'a Method, n: &'a Method, tools: &Names, out: &mut Out) {
        let name = crate::text::sanitize_line(&m.name);
        if self.unchanged.method(self.old, self.new, m, n) {
            self.tool_name(m, n, &name, tools, out);
            return;
        }
        if self.unchanged.method_docs_only(self.old, self.new, m, n) {
            self.tool_name(m, n, &name, tools, out);
            self.doc_changed(m, n, &name, out);
            let reached_docs = m
                .params
                .iter()
                .map(|p| &p.ty)
                .chain(&m.returns)
                .any(|t| !self.unchanged.reaches_only_unchanged(self.old, self.new, t));
            if reached_docs || m.params != n.params || m.returns_doc != n.returns_doc {
                self.schema_changed(&name, out);
            }
            return;
        }
        let before = out.findings.len();
        if m.is_view() && !n.is_view() {
            out.push(
                "method-view-to-mutation",
                name.clone(),
                "view".into(),
                "mutation".into(),
                None,
                format!("`{name}` now changes state: read-only agents lose its tool and callers that only meant to read now write; keep a view for reading"),
            );
        } else if !m.is_view() && n.is_view() {
            out.push(
                "method-mutation-to-view",
                name.clone(),
                "mutation".into(),
                "view".into(),
                None,
                format!("`{name}` became a view: callers keep working and read-only agents gain its tool"),
            );
        }
        self.tool_name(m, n, &name, tools, out);
        let params_at = out.findings.len();
        self.params(m, n, &name, out);
        if m.name == "init" {
            for f in &mut out.findings[params_at..] {
                if f.level == Level::Breaking {
                    f.rule = "init-params-changed";
                    f.level = Level::Warning;
                    f.message = format!("context creation: {}", f.message);
                }
            }
        }
        self.returns(m, n, &name, out);
        self.doc_changed(m, n, &name, out);
        let typed = out.findings[before..]
            .iter()
            .any(|f| f.path.starts_with(&format!("{name}.")));
        if !typed {
            let a = schema::method_schemas(self.old, m, RefMode::Inline);
            let b = schema::method_schemas(self.new, n, RefMode::Inline);
            if canonical(a.input) != canonical(b.input)
                || a.output.map(canonical) != b.output.map(canonical)
            {
                self.schema_changed(&name, out);
            }
        }
    }

    fn doc_changed(&self, m: &Method, n: &Method, name: &str, out: &mut Out) {
        if m.doc != n.doc {
            out.push(
                "method-doc-changed",
                name.to_string(),
                m.doc.as_deref().unwrap_or("").chars().take(80).collect(),
                n.doc.as_deref().unwrap_or("").chars().take(80).collect(),
                None,
                format!("the description agents read for `{name}` changed; nothing breaks"),
            );
        }
    }

    fn schema_changed(&self, name: &str, out: &mut Out) {
        out.push(
            "schema-changed",
            name.to_string(),
            String::new(),
            String::new(),
            None,
            format!("the JSON Schema agents see for `{name}` changed (descriptions, or a type change every old call and reader survives); nothing breaks, agents re-read it"),
        );
    }

    fn tool_name(&self, m: &Method, n: &Method, name: &str, tools: &Names, out: &mut Out) {
        if let (Some(a), Some(b)) = (tools.0.get(&m.name), tools.1.get(&n.name))
            && a != b
        {
            out.push(
                "tool-renamed",
                name.to_string(),
                a.clone(),
                b.clone(),
                None,
                format!("the MCP tool of `{name}` is now `{b}`: agents and scripts that stored `{a}` (allow-lists, prompts, `calimcp call`) must switch; node callers are unaffected"),
            );
        }
    }

    fn params(&mut self, m: &'a Method, n: &'a Method, name: &str, out: &mut Out) {
        let op = by_name(&m.params, |p| p.name.as_str());
        let np = by_name(&n.params, |p| p.name.as_str());
        let added: Vec<&str> = np
            .keys()
            .filter(|k| !op.contains_key(*k))
            .copied()
            .collect();
        let removed: Vec<&str> = op
            .keys()
            .filter(|k| !np.contains_key(*k))
            .copied()
            .collect();
        for (pname, p) in &op {
            match np.get(pname) {
                None => self.param_removed(m, p, name, &added, out),
                Some(q) => self.param_kept(p, q, name, out),
            }
        }
        for pname in &added {
            self.param_added(m, np[pname], name, &removed, out);
        }
    }

    /// Parameter `p` of `m` (named `name`) is gone; `added` are the new
    /// method's new parameters (perhaps its new name).
    fn param_removed(&self, m: &Method, p: &Param, name: &str, added: &[&str], out: &mut Out) {
        let path = format!("{name}.params.{}", crate::text::sanitize_line(&p.name));
        let pshown = crate::text::sanitize_line(&p.name);
        let rename = if added.is_empty() {
            String::new()
        } else {
            format!(
                " (if it was renamed to `{}`, callers still send the old name: a rename reads as removed + added)",
                crate::text::sanitize_line(&added.join("`, `"))
            )
        };
        out.push(
            "param-removed",
            path,
            type_name(&p.ty),
            "(removed)".into(),
            args_example(self.old, m),
            format!("`{name}` no longer takes `{pshown}`, so calls that pass it are rejected{rename}; keep accepting it, nullable and ignored, for a release"),
        );
    }

    /// Parameter `p` as `q` in the new version: whether it may be left out,
    /// and which values it accepts.
    fn param_kept(&mut self, p: &'a Param, q: &'a Param, name: &str, out: &mut Out) {
        let path = format!("{name}.params.{}", crate::text::sanitize_line(&p.name));
        let pshown = crate::text::sanitize_line(&p.name);
        if p.nullable && !q.nullable {
            out.push(
                "param-became-required",
                path.clone(),
                format!("{}?", type_name(&p.ty)),
                type_name(&q.ty),
                Some(Value::Null),
                format!("`{pshown}` of `{name}` may no longer be null or left out: calls that omit it fail; keep it nullable with a default"),
            );
        } else if !p.nullable && q.nullable {
            out.push(
                "param-became-optional",
                path.clone(),
                type_name(&p.ty),
                format!("{}?", type_name(&q.ty)),
                None,
                format!("`{pshown}` of `{name}` may now be null or left out; existing calls keep working"),
            );
        }
        if let Some(inner) = self.input.check(&p.ty, &q.ty) {
            if inner.limit {
                limit_hit(out, at(&path, &inner), &inner.why);
                return;
            }
            out.push(
                "param-type-changed",
                at(&path, &inner),
                type_name(&p.ty),
                type_name(&q.ty),
                inner.exact.then(|| inner.example.clone()),
                format!("`{pshown}` of `{name}` no longer accepts every value it did ({}); accept the old values too, or add a new method: callers sending an old value fail", inner.why),
            );
        } else if self.input_back.check(&q.ty, &p.ty).is_some() {
            out.push(
                "param-type-widened",
                path,
                type_name(&p.ty),
                type_name(&q.ty),
                None,
                format!("`{pshown}` of `{name}` accepts more values than before; existing calls keep working"),
            );
        }
    }

    /// Parameter `q` is new to `m` (named `name`); `removed` are the old
    /// method's parameters the new one lacks (perhaps its old name).
    fn param_added(&self, m: &Method, q: &Param, name: &str, removed: &[&str], out: &mut Out) {
        let path = format!("{name}.params.{}", crate::text::sanitize_line(&q.name));
        let pshown = crate::text::sanitize_line(&q.name);
        let rename = if removed.is_empty() {
            String::new()
        } else {
            format!(
                " (with `{}` gone, this may be a rename, which reads as removed + added)",
                crate::text::sanitize_line(&removed.join("`, `"))
            )
        };
        if q.nullable {
            out.push(
                "param-added-optional",
                path,
                "(absent)".into(),
                format!("{}?", type_name(&q.ty)),
                None,
                format!(
                    "`{name}` takes a new nullable `{pshown}`; existing calls keep working{rename}"
                ),
            );
        } else {
            out.push(
                "param-added-required",
                path,
                "(absent)".into(),
                type_name(&q.ty),
                args_example(self.old, m),
                format!("`{name}` now requires `{pshown}`: every existing call lacks it and fails{rename}; make it nullable with a default"),
            );
        }
    }

    fn returns(&mut self, m: &'a Method, n: &'a Method, name: &str, out: &mut Out) {
        let path = format!("{name}.returns");
        let (rm, rn) = (
            m.returns.as_ref().unwrap_or(&UNIT),
            n.returns.as_ref().unwrap_or(&UNIT),
        );
        if !m.returns_nullable && n.returns_nullable {
            out.push(
                "result-became-nullable",
                path.clone(),
                type_name(rm),
                format!("{} | null", type_name(rn)),
                Some(Value::Null),
                format!("`{name}` may now return null: readers that use the result without checking fail; keep returning a value, or add a new method"),
            );
        } else if m.returns_nullable && !n.returns_nullable {
            out.push(
                "result-became-non-nullable",
                path.clone(),
                format!("{} | null", type_name(rm)),
                type_name(rn),
                None,
                format!("`{name}` no longer returns null; readers keep working"),
            );
        }
        self.read_change(
            out,
            &path,
            (rm, rn),
            ("result-type-changed", &|why| format!("`{name}` may return values its readers do not expect ({why}): front ends and agents parsing the result break; keep the old shape, or add a new method")),
            ("result-type-narrowed", format!("`{name}` returns a narrower set of values; readers keep working")),
        );
    }

    /// What the readers of a value at `path` (a method's result, an event's
    /// payload) meet when its type goes from `old_t` to `new_t`: values they
    /// may not expect (the `changed` rule, its message told why), else a
    /// narrower set of values (the `narrowed` rule), else nothing.
    fn read_change(
        &mut self,
        out: &mut Out,
        path: &str,
        (old_t, new_t): (&'a TypeRef, &'a TypeRef),
        changed: (&'static str, &dyn Fn(&str) -> String),
        narrowed: (&'static str, String),
    ) {
        if let Some(inner) = self.output.check(new_t, old_t) {
            if inner.limit {
                limit_hit(out, at(path, &inner), &inner.why);
                return;
            }
            out.push(
                changed.0,
                at(path, &inner),
                type_name(old_t),
                type_name(new_t),
                inner.exact.then(|| inner.example.clone()),
                changed.1(&inner.why),
            );
        } else if self.output_back.check(old_t, new_t).is_some() {
            out.push(
                narrowed.0,
                path.to_string(),
                type_name(old_t),
                type_name(new_t),
                None,
                narrowed.1,
            );
        }
    }

    fn events(&mut self, out: &mut Out) {
        let oe = by_name(&self.old.events, |e| e.name.as_str());
        let ne = by_name(&self.new.events, |e| e.name.as_str());
        for (ename, e) in &oe {
            let shown = crate::text::sanitize_line(ename);
            let path = format!("events.{shown}");
            let old_t = e.payload.as_ref().unwrap_or(&UNIT);
            let Some(f) = ne.get(ename) else {
                out.push(
                    "event-removed",
                    path,
                    type_name(old_t),
                    "(removed)".into(),
                    None,
                    format!("event `{shown}` is no longer emitted: watchers waiting for it never hear it; keep emitting it for a release"),
                );
                continue;
            };
            let new_t = f.payload.as_ref().unwrap_or(&UNIT);
            if format!("{old_t:?}") == format!("{new_t:?}")
                && self
                    .unchanged
                    .reaches_only_unchanged(self.old, self.new, old_t)
            {
                continue;
            }
            self.read_change(
                out,
                &format!("{path}.payload"),
                (old_t, new_t),
                ("event-payload-changed", &|why| format!("event `{shown}` may carry payloads its watchers do not expect ({why}); keep the old shape, or emit a new event")),
                ("event-payload-narrowed", format!("event `{shown}` carries a narrower set of payloads; watchers keep working")),
            );
        }
        for (ename, f) in &ne {
            if !oe.contains_key(ename) {
                let shown = crate::text::sanitize_line(ename);
                out.push(
                    "event-added",
                    format!("events.{shown}"),
                    "(absent)".into(),
                    type_name(f.payload.as_ref().unwrap_or(&UNIT)),
                    None,
                    format!("event `{shown}` is new: nothing existing depends on it"),
                );
            }
        }
    }
}

/// A schema with the orders JSON does not care about sorted away: `required`
/// and `enum` lists and the cases of `oneOf`/`anyOf` (an untagged enum's case
/// order does matter, and the type comparison reports it), so reordering
/// fields or cases of a JSON-only type is not a change.
fn canonical(v: Value) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let v = canonical(v);
                    let v = match (k.as_str(), v) {
                        ("required" | "enum" | "oneOf" | "anyOf", Value::Array(mut items)) => {
                            items.sort_by_cached_key(|i| i.to_string());
                            Value::Array(items)
                        }
                        (_, v) => v,
                    };
                    (k, v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(canonical).collect()),
        v => v,
    }
}

/// Arguments of `m` its version accepts: one example value per parameter
/// (none when a parameter's type has no faithful example).
fn args_example(m: &Manifest, method: &Method) -> Option<Value> {
    let mut args = serde_json::Map::new();
    for p in &method.params {
        let v = if p.nullable {
            Value::Null
        } else {
            let (v, exact) = compat::example_exact(m, &p.ty);
            if !exact {
                return None;
            }
            v
        };
        args.insert(p.name.clone(), v);
    }
    Some(Value::Object(args))
}

/// The root record, field by field, by position: the node stores it as one
/// borsh blob, so position decides which bytes a field reads, and names do
/// not count. Returns how many changes break the stored state.
#[allow(clippy::too_many_arguments)]
fn root_fields_diff(
    old: &Manifest,
    new: &Manifest,
    unchanged: &Unchanged,
    of: &[Field],
    nf: &[Field],
    downgrades: &[state::Downgrade],
    level: Level,
    todo: &str,
    out: &mut Out,
) -> usize {
    let mut layout = state::Layout::new(old, new).with_unchanged(&unchanged.shapes);
    // Fields of zero bytes (`()`) read nothing: set aside, noted, harmless.
    let (of, oz) = state::stored_fields(old, of);
    let (nf, nz) = state::stored_fields(new, nf);
    zero_byte_fields(&oz, &nz, out);
    let mut root = RootFields {
        of: of.as_slice(),
        nf: nf.as_slice(),
        downgrades,
        level,
        todo,
        changed: 0,
    };
    for i in 0..of.len().max(nf.len()) {
        match (of.get(i), nf.get(i)) {
            // The same field, or the same position under another name: a
            // rename, if the bytes still read.
            (Some(f), Some(g))
                if f.name == g.name
                    || (root.pos_new(&f.name).is_none() && root.pos_old(&g.name).is_none()) =>
            {
                root.same_position(&mut layout, i, f, g, out);
            }
            (f, g) => {
                if let Some(g) = g {
                    root.new_field_at(i, f.copied(), g, out);
                }
                if let Some(f) = f
                    && root.pos_new(&f.name).is_none()
                {
                    root.old_field_gone(i, f, out);
                }
            }
        }
    }
    layout_notes(std::mem::take(&mut layout.notes), out);
    root.changed
}

/// Root fields of zero bytes added or removed: noted, harmless (a field of
/// zero bytes on both sides is no change).
fn zero_byte_fields(oz: &[&Field], nz: &[&Field], out: &mut Out) {
    use crate::text::sanitize_line as clean;
    for (f, added) in nz
        .iter()
        .map(|f| (f, true))
        .chain(oz.iter().map(|f| (f, false)))
    {
        if (if added { oz } else { nz })
            .iter()
            .any(|g| g.name == f.name)
        {
            continue;
        }
        let (o, n, verb) = if added {
            ("(absent)".to_string(), type_name(&f.ty), "added")
        } else {
            (type_name(&f.ty), "(removed)".to_string(), "removed")
        };
        out.push(
            "state-layout-same",
            clean(&format!("state.{}", f.name)),
            clean(&o),
            clean(&n),
            None,
            clean(&format!("stored state field `{}` of zero bytes ({}) was {verb}: borsh reads nothing for it, so the stored state reads as before", f.name, type_name(&f.ty))),
        );
    }
}

/// The stored root fields of both versions compared position by position,
/// and how many changes so far break the stored state.
struct RootFields<'r, 'f> {
    of: &'r [&'f Field],
    nf: &'r [&'f Field],
    downgrades: &'r [state::Downgrade],
    /// The level of a breaking change (a warning when a migration carries it).
    level: Level,
    /// What to do about a breaking change.
    todo: &'r str,
    changed: usize,
}

impl RootFields<'_, '_> {
    fn pos_old(&self, n: &str) -> Option<usize> {
        self.of.iter().position(|f| f.name == n)
    }

    fn pos_new(&self, n: &str) -> Option<usize> {
        self.nf.iter().position(|f| f.name == n)
    }

    /// An identity downgrade already reported for the field.
    fn gone(&self, d: &str) -> bool {
        self.downgrades.iter().any(|x| x.field == d)
    }

    /// A change that breaks the stored state: counted and reported.
    fn breaking(
        &mut self,
        out: &mut Out,
        rule: &'static str,
        path: String,
        o: String,
        n: String,
        why: String,
    ) {
        use crate::text::sanitize_line as clean;
        self.changed += 1;
        out.push_at(
            rule,
            self.level,
            clean(&path),
            clean(&o),
            clean(&n),
            None,
            format!("BREAKING: {}; {}", clean(&why), self.todo),
        );
    }

    /// Field `f` of OLD and `g` of NEW at position `i`, the same field or
    /// a rename: the bytes must still read.
    fn same_position<'m>(
        &mut self,
        layout: &mut state::Layout<'m>,
        i: usize,
        f: &'m Field,
        g: &'m Field,
        out: &mut Out,
    ) {
        use crate::text::sanitize_line as clean;
        if self.gone(&f.name) {
            self.changed += 1;
            return;
        }
        let renamed = f.name != g.name;
        let prefix = format!("state.{}", g.name);
        match layout.compare(&prefix, &f.ty, f.nullable, &g.ty, g.nullable) {
            None if renamed => out.push(
                "state-field-renamed",
                clean(&prefix),
                clean(&f.name),
                clean(&g.name),
                None,
                clean(&format!("stored state field {i} was `{}` and is now `{}`: borsh stores no names, so the stored state still reads; scripts and docs that name the field must follow", f.name, g.name)),
            ),
            None => {}
            Some(c) if c.kind == state::LayoutKind::Limit => {
                self.changed += 1;
                limit_hit(out, format!("{prefix}{}", c.path), &c.why);
            }
            Some(c) => {
                let what = if renamed {
                    format!(
                        "stored state field {i} was `{}` and is now `{}`, and",
                        f.name, g.name
                    )
                } else if c.path.is_empty() {
                    format!("stored state field `{}`", f.name)
                } else {
                    format!("stored state field `{}` (at `{}`)", f.name, c.path)
                };
                self.breaking(
                    out,
                    "state-field-changed",
                    format!("{prefix}{}", c.path),
                    c.old,
                    c.new,
                    format!(
                        "{what} {}, so the new code cannot read the stored state",
                        c.why
                    ),
                )
            }
        }
    }

    /// Field `g` of NEW at position `i` where OLD has `f` (or nothing), not
    /// the same field: moved there, or new.
    fn new_field_at(&mut self, i: usize, f: Option<&Field>, g: &Field, out: &mut Out) {
        match self.pos_old(&g.name) {
            Some(j) => self.breaking(
                out,
                "state-field-moved",
                format!("state.{}", g.name),
                format!("position {j}"),
                format!("position {i}"),
                format!(
                    "stored state field `{}` moved from position {j} to {i}: the root is read by position, so it now reads the bytes of `{}` (when both are collection handles this decodes silently and each field points at the other's data){}",
                    g.name,
                    f.map_or("(the end)", |f| f.name.as_str()),
                    f.map_or(String::new(), |f| state::swap_why(g, f))
                ),
            ),
            None if i >= self.of.len() => self.breaking(
                out,
                "state-field-added",
                format!("state.{}", g.name),
                "(absent)".into(),
                field_label(g),
                format!(
                    "stored state field `{}` was appended to the root: the stored bytes end before it, so loading the state fails",
                    g.name
                ),
            ),
            None => self.breaking(
                out,
                "state-field-added",
                format!("state.{}", g.name),
                "(absent)".into(),
                field_label(g),
                format!(
                    "stored state field `{}` was inserted at position {i}: it and every later field read the bytes of the field before them",
                    g.name
                ),
            ),
        }
    }

    /// Field `f` of OLD at position `i`, absent from NEW.
    fn old_field_gone(&mut self, i: usize, f: &Field, out: &mut Out) {
        if self.gone(&f.name) {
            self.changed += 1;
            return;
        }
        self.breaking(
            out,
            "state-field-removed",
            format!("state.{}", f.name),
            field_label(f),
            "(removed)".into(),
            format!(
                "stored state field `{}` (position {i}) is gone: the stored bytes still carry it, so they no longer decode (or the next field reads them)",
                f.name
            ),
        );
    }
}

/// A root field's type as shown: `T`, or `T?` when nullable.
fn field_label(f: &Field) -> String {
    let t = type_name(&f.ty);
    if f.nullable { format!("{t}?") } else { t }
}

/// What the layout comparison noted inside stored types that does not
/// break the stored state.
fn layout_notes(notes: Vec<state::LayoutChange>, out: &mut Out) {
    use crate::text::sanitize_line as clean;
    for n in notes {
        let (rule, why) = match n.kind {
            state::LayoutKind::Same => ("state-layout-same", format!("{} in a stored type", n.why)),
            state::LayoutKind::Reinterpreted => (
                "state-type-reinterpreted",
                format!("{} in a stored type", n.why),
            ),
            state::LayoutKind::CaseAdded => (
                "state-enum-case-added",
                format!(
                    "{} in a stored type: stored values keep their case index and still read; code rolled back to the old version cannot read the new case",
                    n.why
                ),
            ),
            _ => (
                "state-field-renamed",
                format!(
                    "{} in a stored type: borsh stores no names, so the stored state still reads",
                    n.why
                ),
            ),
        };
        out.push(
            rule,
            clean(&n.path),
            clean(&n.old),
            clean(&n.new),
            None,
            clean(&why),
        );
    }
}

fn limit_hit(out: &mut Out, path: String, why: &str) {
    let path = crate::text::sanitize_line(&path);
    out.push(
        "comparison-limit-reached",
        path.clone(),
        String::new(),
        String::new(),
        None,
        format!("`{path}`: {}; the rest of this type is unchecked, so treat it as changed and review it by hand", crate::text::sanitize_line(why)),
    );
}

/// The state findings of one service and the upgrade gate's verdict.
fn diff_state(old: &Manifest, new: &Manifest, unchanged: &Unchanged, out: &mut Out) -> Gate {
    let action = state::plan_upgrade(old, new);
    let downgrades = state::identity_downgrades(old, new);
    identity_downgrades(&downgrades, out);
    let changed = root_diff(old, new, unchanged, &action, &downgrades, out);
    let (accepted, text) = upgrade_verdict(old, new, &action, &downgrades, changed, out);
    Gate {
        service: None,
        accepted,
        action: text,
    }
}

/// Stored fields that lose their per-entry identity across the network.
fn identity_downgrades(downgrades: &[state::Downgrade], out: &mut Out) {
    for d in downgrades {
        let shown = crate::text::sanitize_line(&d.field);
        out.push(
            "state-identity-downgrade",
            format!("state.{shown}"),
            d.from.clone(),
            d.to.clone(),
            None,
            format!("UNSAFE_IDENTITY_DOWNGRADE: `{shown}` loses its per-entry authorship or writer ACL across the network, and a node's upgrade gate refuses such a migration; keep it identity-gated (rewrite entries owner by owner instead)"),
        );
    }
}

/// The two state root records compared (or why they cannot be); returns how
/// many changes break the stored state.
fn root_diff(
    old: &Manifest,
    new: &Manifest,
    unchanged: &Unchanged,
    action: &state::Action,
    downgrades: &[state::Downgrade],
    out: &mut Out,
) -> usize {
    use state::Action;
    let (of, nf) = (state::root_fields(old), state::root_fields(new));
    let migrating = matches!(action, Action::Migrate { .. });
    match (of, nf) {
        (Some(of), Some(nf)) => {
            let level = if migrating {
                Level::Warning
            } else {
                Level::Breaking
            };
            let todo = match action {
                Action::Migrate { method, .. } => format!(
                    "check that `{}` carries it",
                    crate::text::sanitize_line(method)
                ),
                _ => "bump state_version and declare a migration from the old version".into(),
            };
            root_fields_diff(old, new, unchanged, of, nf, downgrades, level, &todo, out)
        }
        (Some(_), None) | (None, Some(_)) => {
            let which = if of.is_none() { "OLD" } else { "NEW" };
            out.push(
                "state-root-missing",
                "state".into(),
                old.state_root.clone().unwrap_or_else(|| "(none)".into()),
                new.state_root.clone().unwrap_or_else(|| "(none)".into()),
                None,
                format!("{which} declares no state root record, so its state cannot be compared; build both with an SDK that emits state_root"),
            );
            0
        }
        (None, None) => 0,
    }
}

/// What the node's upgrade gate does with the release (whether it accepts
/// it, and its action), with the findings that explain it.
fn upgrade_verdict(
    old: &Manifest,
    new: &Manifest,
    action: &state::Action,
    downgrades: &[state::Downgrade],
    changed: usize,
    out: &mut Out,
) -> (bool, String) {
    use state::Action;
    match action {
        Action::CodeOnly => code_only_verdict(old, new, changed, out),
        Action::Migrate { method, from, to } => {
            migrate_verdict(method, *from, *to, downgrades, out)
        }
        Action::MissingEdge { from, to } => {
            out.push(
                "state-migration-missing",
                "state.migrations".into(),
                format!("v{from}"),
                format!("v{to}"),
                None,
                format!("state_version goes from {from} to {to} but no migration declares fromVersion {from}: a node's upgrade gate rejects the release; add a #[derive(app::Migrate)] edge from v{from}"),
            );
            (false, format!("rejected: no migration from v{from}"))
        }
        Action::Behind { from, to } => {
            out.push(
                "state-version-skipped",
                "state.state_version".into(),
                from.to_string(),
                to.to_string(),
                None,
                format!("state_version jumps from {from} to {to}: a node's upgrade gate accepts one version at a time and rejects this; release v{} first", from + 1),
            );
            (false, format!("rejected: v{from} → v{to} skips versions"))
        }
        Action::Downgrade { from, to } => {
            out.push(
                "state-version-lowered",
                "state.state_version".into(),
                from.to_string(),
                to.to_string(),
                None,
                format!("state_version goes down from {from} to {to}: a node's upgrade gate rejects schema downgrades; keep it at {from} or above"),
            );
            (false, format!("rejected: v{to} is older than v{from}"))
        }
    }
}

/// The node swaps the code only: accepted, though changed state then reads
/// in the old layout.
fn code_only_verdict(
    old: &Manifest,
    new: &Manifest,
    changed: usize,
    out: &mut Out,
) -> (bool, String) {
    if changed > 0 {
        let v = old.state_version.unwrap_or(1);
        out.push(
            "state-version-not-bumped",
            "state.state_version".into(),
            v.to_string(),
            new.state_version.unwrap_or(1).to_string(),
            None,
            format!("state changed but state_version stays {v}: a node swaps the code only and the new code reads old state in the old layout; bump state_version and declare a migration from {v}"),
        );
    }
    (true, "code-only".to_string())
}

/// The node runs a migration: accepted unless a field loses its identity.
fn migrate_verdict(
    method: &str,
    from: u32,
    to: u32,
    downgrades: &[state::Downgrade],
    out: &mut Out,
) -> (bool, String) {
    let m = crate::text::sanitize_line(method);
    if downgrades.is_empty() {
        out.push(
            "state-migration",
            "state.migrations".into(),
            format!("v{from}"),
            format!("v{to}"),
            None,
            format!("a node will run `{m}` to carry state from v{from} to v{to}"),
        );
        (true, format!("migrate {m} (v{from} → v{to})"))
    } else {
        (
            false,
            format!(
                "rejected: identity downgrade of `{}`",
                crate::text::sanitize_line(&downgrades[0].field)
            ),
        )
    }
}
