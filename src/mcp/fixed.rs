//! The fixed tools: `describe_app` (what an app offers), `select_app` (pin
//! the context an app's tools run in for this session), `wait_for_context`
//! (until a context is initialized on the node), `call_until` (a [view]
//! tool repeated until its result equals a value: `call VIEW --until`),
//! `call_many` (several app tool calls at once, [`super::many`]), and,
//! listed from [`super::events`], `wait_for_events`. Their names are
//! reserved in [`calimcp_core::mapping::toolset::RESERVED_NAMES`]; their arguments
//! are types in [`args`], which give the listed input schemas.

use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

use calimcp_catalog::context::ContextRow;
use calimcp_catalog::describe::{AppRow, ServiceDescription, describe_service};
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;

use super::live::View;

pub mod args;

// The fixed tools' names and their arguments' defaults and bounds live with
// the argument types (a leaf module: it imports nothing of the server).
pub(crate) use args::{
    CALL_MANY, CALL_UNTIL, DEFAULT_EVERY, DEFAULT_MAX, DEFAULT_WAIT, DEFAULT_WITHIN, DESCRIBE_APP,
    MAX_CALLS, MAX_WAIT, MAX_WITHIN, SELECT_APP, WAIT_FOR_CONTEXT, WAIT_FOR_EVENTS,
};

/// The fixed tools' names.
pub(crate) const NAMES: [&str; 6] = [
    DESCRIBE_APP,
    SELECT_APP,
    WAIT_FOR_EVENTS,
    WAIT_FOR_CONTEXT,
    CALL_UNTIL,
    CALL_MANY,
];

/// Why the fixed tool `name` is not served: `--allow`/`--deny` apply to the
/// fixed tools as to the others (all six only read or, `call_many`, refuse
/// a [mut] call inside as a single call would, so `--read-only` keeps them). A lifecycle tool ([`super::lifecycle`]) is served only with its
/// toolset on (`--toolsets lifecycle`) and never under `--read-only`: each
/// changes the node. `None` when it is served, or `name` is no fixed tool.
pub(crate) fn refused(scope: &super::live::Scope, name: &str) -> Option<String> {
    let filter = &scope.filter;
    if super::blobs::NAMES.contains(&name) {
        return blob_refused(scope, name);
    }
    if super::lifecycle::NAMES.contains(&name) {
        if !scope.lifecycle {
            return Some(format!(
                "`{name}` is in the lifecycle toolset, which this server does not serve (start it with --toolsets lifecycle)"
            ));
        }
        if filter.read_only {
            return Some(format!(
                "`{name}` changes the node: this server runs with --read-only"
            ));
        }
        if !filter.admits_name(name, false) {
            return Some(format!("`{name}` is excluded by --allow/--deny"));
        }
        return None;
    }
    if !NAMES.contains(&name) || filter.admits_name(name, true) {
        return None;
    }
    Some(format!("`{name}` is excluded by --allow/--deny"))
}

/// Why blob tool `name` is not served: its toolset off (`--toolsets
/// blobs`), `--read-only` (all but `list_blobs`), `--allow`/`--deny`.
fn blob_refused(scope: &super::live::Scope, name: &str) -> Option<String> {
    let reads = super::blobs::reads_only(name);
    if !scope.blobs {
        Some(format!(
            "`{name}` is in the blobs toolset, which this server does not serve (start it with --toolsets apps,blobs)"
        ))
    } else if scope.filter.read_only && !reads {
        Some(format!(
            "`{name}` changes the node: this server runs with --read-only"
        ))
    } else if !scope.filter.admits_name(name, reads) {
        Some(format!("`{name}` is excluded by --allow/--deny"))
    } else {
        None
    }
}

/// The fixed tools, as listed: each `inputSchema` generated from the type
/// its arguments are parsed into ([`args`]).
pub(crate) fn tools() -> Vec<rmcp::model::Tool> {
    static TOOLS: OnceLock<Vec<rmcp::model::Tool>> = OnceLock::new();
    TOOLS
        .get_or_init(|| {
            let defs = [
                json!({
                    "name": DESCRIBE_APP,
                    "title": "Describe an app",
                    "description": "What an app offers: each method's signature ([view] reads, [mut] changes state) and the tool that runs it. Without `app`, lists the apps this server serves. Start here.",
                    "inputSchema": args::schema_of(DESCRIBE_APP),
                    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
                    "_meta": {"ui": {"resourceUri": super::pages::UI_URI}}
                }),
                json!({
                    "name": SELECT_APP,
                    "title": "Select an app and its context",
                    "description": "Pins, for this session, the context an app's tools run in: `context` (an id or alias), else the app's only context. Returns the app's tool names. A tool's `_context` argument still overrides the pin for one call.",
                    "inputSchema": args::schema_of(SELECT_APP),
                    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
                }),
                json!({
                    "name": WAIT_FOR_CONTEXT,
                    "title": "Wait until a context is initialized",
                    "description": format!("Waits until the node has a context's state: a node that joined a context has none until its first sync with a peer, and every call in it fails until then. Checks every `every` seconds (default {DEFAULT_EVERY}) for at most `within` seconds (default {DEFAULT_WITHIN}, at most {MAX_WITHIN}); when the state does not come in time, the error says why (no peers, a failed sync, …). Use it instead of a loop of calls after joining a context."),
                    "inputSchema": args::schema_of(WAIT_FOR_CONTEXT),
                    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
                }),
                json!({
                    "name": CALL_UNTIL,
                    "title": "Repeat a [view] tool until its result is as expected",
                    "description": format!("Calls a [view] tool (one that only reads) with `arguments` every `every` seconds (default {DEFAULT_EVERY}) until its result equals `until`, or the value at `until_path` in it does (a JSON pointer such as /items/0/name, or a dotted path such as items.0.name), for at most `within` seconds (default {DEFAULT_WITHIN}, at most {MAX_WITHIN}). Values compare as JSON (objects regardless of key order), numbers exactly by their decimal text (never through a double), and a number matches its decimal string: to wait for an integer beyond 2^53 exactly, give `until` as a decimal string (\"18446744073709551615\"), as results carry such integers. Returns the matching result; when it does not come in time, an error with the last result. [mut] tools are refused. Use it instead of a loop of calls when waiting for state another party changes."),
                    "inputSchema": args::schema_of(CALL_UNTIL),
                    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}
                }),
                json!({
                    "name": CALL_MANY,
                    "title": "Call several app tools at once",
                    "description": format!("Runs 1 to {max} app tool calls (`calls`: each a `tool` and its `arguments`, as for calling it) and answers each in the order given: `{{ok: true, result}}`, or `{{ok: false, error}}` with the error's `code`, `message`, `hint` and `retryable`; one failing call does not fail the others. Consecutive [view] calls run concurrently; a [mut] call runs alone, after every call before it and before any after it, and is never repeated. Each call is checked exactly as a single call (context, version, arguments, --read-only). Only app tools: not describe_app, call_until, call_many and the other fixed tools.", max = MAX_CALLS),
                    "inputSchema": args::schema_of(CALL_MANY),
                    "outputSchema": super::many::output_schema(),
                    "annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": false}
                }),
            ];
            defs.into_iter()
                .chain([super::events::tool()])
                .filter_map(|d| serde_json::from_value(d).ok())
                .collect()
        })
        .clone()
}

pub use args::{DescribeAppArgs, SelectAppArgs};

/// `wait_for_context`'s arguments, read.
pub(crate) struct WaitContextArgs {
    pub context: String,
    pub within: std::time::Duration,
    pub every: std::time::Duration,
}

/// `describe_app`'s arguments; the text of an `isError` result when they are bad.
pub(crate) fn parse_describe(
    raw: &Map<String, Value>,
) -> std::result::Result<DescribeAppArgs, String> {
    args::parse(DESCRIBE_APP, raw)
}

/// `select_app`'s arguments.
pub(crate) fn parse_select(raw: &Map<String, Value>) -> std::result::Result<SelectAppArgs, String> {
    args::parse(SELECT_APP, raw)
}

fn seconds(secs: Option<f64>, default: f64) -> std::time::Duration {
    std::time::Duration::from_secs_f64(secs.unwrap_or(default))
}

/// `wait_for_context`'s arguments.
pub(crate) fn parse_wait_context(
    raw: &Map<String, Value>,
) -> std::result::Result<WaitContextArgs, String> {
    let a: args::WaitForContextInput = args::parse(WAIT_FOR_CONTEXT, raw)?;
    Ok(WaitContextArgs {
        context: a.context,
        within: seconds(a.within, DEFAULT_WITHIN),
        every: seconds(a.every, DEFAULT_EVERY),
    })
}

/// `call_until`'s arguments, read.
pub(crate) struct CallUntilArgs {
    pub tool: String,
    pub arguments: Map<String, Value>,
    pub expect: calimcp_catalog::wait::Expect,
    pub within: std::time::Duration,
    pub every: std::time::Duration,
}

/// `call_until`'s arguments.
pub(crate) fn parse_call_until(
    raw: &Map<String, Value>,
) -> std::result::Result<CallUntilArgs, String> {
    let a: args::CallUntilInput = args::parse(CALL_UNTIL, raw)?;
    Ok(CallUntilArgs {
        expect: calimcp_catalog::wait::Expect::from_json(a.until_path.as_deref(), &a.until),
        tool: a.tool,
        arguments: a.arguments.unwrap_or_default(),
        within: seconds(a.within, DEFAULT_WITHIN),
        every: seconds(a.every, DEFAULT_EVERY),
    })
}

/// `call_many`'s calls, each a tool and its arguments.
pub(crate) fn parse_call_many(
    raw: &Map<String, Value>,
) -> std::result::Result<Vec<super::many::Call>, String> {
    let a: args::CallManyInput = args::parse(CALL_MANY, raw)?;
    Ok(a.calls
        .into_iter()
        .map(|c| (c.tool, c.arguments.unwrap_or_default()))
        .collect())
}

/// Which service of `app` a request means: the one named, the server's
/// `--service`, or the only one.
pub(crate) fn pick_service(
    view: &View,
    app: usize,
    requested: Option<&str>,
    server_service: Option<&str>,
) -> Result<Option<String>> {
    let a = &view.catalog.apps[app];
    let names: Vec<&str> = a
        .services
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    let multi = a.services.len() > 1;
    let pkg = sanitize_line(a.package_or_id());
    match requested {
        Some(w) if names.contains(&w) => Ok(Some(w.to_string())),
        Some(w) if multi => Err(Error::input(
            Code::UnknownService,
            format!("{pkg} has no service `{}`", sanitize_line(w)),
        )
        .with_hint(format!("its services: {}", names.join(", ")))),
        Some(w) => Err(Error::input(
            Code::UnknownService,
            format!(
                "{pkg} is a single-service app: it has no service `{}`",
                sanitize_line(w)
            ),
        )
        .with_hint("leave `service` out")),
        None if multi => match server_service {
            Some(w) if names.contains(&w) => Ok(Some(w.to_string())),
            _ => Err(
                Error::input(Code::ServiceRequired, format!("{pkg} has several services"))
                    .with_hint(format!("pass `service`: one of {}", names.join(", "))),
            ),
        },
        None => Ok(a.services.first().and_then(|s| s.name.clone())),
    }
}

/// `describe_app` without an app: the apps served, those left out and why,
/// and the node's state.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct AppListing {
    pub apps: Vec<ServedApp>,
    /// The node's apps that are not served, each with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
    /// The node the server runs on (absent with --offline).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<NodeState>,
    /// What to do next.
    pub note: String,
}

/// An app served: the app's row and how many tools this server has for it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ServedApp {
    #[serde(flatten)]
    pub app: AppRow,
    /// How many of its tools this server lists.
    pub tools: usize,
}

/// A node app that is not served.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct LeftOut {
    /// Its package, else its id.
    pub app: String,
    pub id: String,
    /// Why its ABI could not be used.
    pub reason: String,
}

/// The node a server runs on.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct NodeState {
    pub url: String,
    /// `answering`, `not answering` or `not read yet`.
    pub status: String,
}

/// `describe_app` without an app: the apps served.
pub(crate) fn list_apps(view: &View, node: Option<(String, Option<bool>)>) -> AppListing {
    let apps: Vec<ServedApp> = view
        .apps
        .iter()
        .map(|&i| ServedApp {
            app: AppRow::of(&view.catalog.apps[i]),
            tools: view.listed_for(i, None).len(),
        })
        .collect();
    let left_out = left_out(view);
    let node = node.map(|(url, up)| NodeState {
        url,
        status: match up {
            Some(true) => "answering",
            Some(false) => "not answering",
            None => "not read yet",
        }
        .into(),
    });
    let note = if apps.is_empty() && !left_out.is_empty() {
        format!(
            "no apps can be served: the node's {} left out (see left_out for why; a user can pass the app's ABI file to calimcp serve with --apps, or reinstall the app built with a current calimero-sdk)",
            if left_out.len() == 1 {
                "only app was".to_string()
            } else {
                format!("{} apps were", left_out.len())
            }
        )
    } else if apps.is_empty() {
        "no apps are served yet".into()
    } else {
        "call describe_app with `app` for its methods and tools, then select_app to pick the context they run in".into()
    };
    AppListing {
        apps,
        left_out,
        node,
        note,
    }
}

/// The node's apps that are not served, each with why.
pub(crate) fn left_out(view: &View) -> Vec<LeftOut> {
    view.catalog
        .unusable
        .iter()
        .map(|(a, e)| LeftOut {
            app: a.package_or_id().to_string(),
            id: a.id.to_string(),
            reason: sanitize_line(&e.message),
        })
        .collect()
}

/// `describe_app` for an app: its service, or each of its services, with a
/// note on how its tools are called, and its contexts on the node.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct AppDescribed {
    #[serde(flatten)]
    pub described: Described,
    /// How the tools are called.
    pub note: String,
    /// The contexts the app's tools can run in (when the node answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contexts: Option<Vec<ContextRow>>,
    /// Why the contexts could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contexts_error: Option<String>,
    /// The URI of the app's guide (`calimero://app/{app}/guide{?version}`),
    /// when its metadata carries one: the answer shows the guide after this
    /// JSON the first time in a session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guide: Option<String>,
}

/// One service described, or (an app with several) each of them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Described {
    Service(Box<DescribedService>),
    Services { services: Vec<DescribedService> },
}

/// A service described, with the context pinned for it in this session.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct DescribedService {
    #[serde(flatten)]
    pub service: ServiceDescription,
    /// The context `select_app` pinned for this session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// `describe_app` for one app: per service, each method's signature and tool
/// (`null` where this server exposes none).
pub(crate) fn describe(
    view: &View,
    app: usize,
    service: Option<&str>,
    pinned: &[(Option<String>, String)],
) -> AppDescribed {
    let a = &view.catalog.apps[app];
    let services: Vec<Option<&str>> = match service {
        Some(s) => vec![Some(s)],
        None => a.services.iter().map(|s| s.name.as_deref()).collect(),
    };
    let mut hidden_any = false;
    let mut objs: Vec<DescribedService> = services
        .iter()
        .map(|&s| {
            let tools = view.listed_for(app, s);
            let svc = a.service(s).unwrap_or(&a.services[0]);
            let hidden: Vec<&calimcp_core::abi::Method> = svc
                .manifest
                .methods
                .iter()
                .filter(|m| !tools.iter().any(|t| t.method == m.name))
                .collect();
            hidden_any |= hidden.iter().any(|m| m.name != "init");
            DescribedService {
                service: describe_service(a, s, &tools, &hidden),
                context: pinned
                    .iter()
                    .find(|(ps, _)| ps.as_deref() == s)
                    .map(|(_, ctx)| ctx.clone()),
            }
        })
        .collect();
    let described = if objs.len() == 1 {
        Described::Service(Box::new(objs.remove(0)))
    } else {
        Described::Services { services: objs }
    };
    let mut note = String::from(
        "Each tool also takes `_context` (a context id or alias) for one call; select_app pins one for the session.",
    );
    if hidden_any {
        note.push_str(" Methods with \"tool\": null are not exposed by this server (--read-only, --allow or --deny); init runs when a context is created.");
    }
    note.push_str(&format!(
        " A new context of this app is made with create_context (the lifecycle toolset), whose `args` are its init's: {}.",
        sanitize_line(&calimcp_catalog::lifecycle::init_signature(a, service))
    ));
    AppDescribed {
        described,
        note,
        contexts: None,
        contexts_error: None,
        guide: super::resources::app_guide_uri(view, app),
    }
}
