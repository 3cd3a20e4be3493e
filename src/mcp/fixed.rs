//! The fixed tools: `describe_app` (what an app offers), `select_app` (pin
//! the context an app's tools run in for this session), `wait_for_context`
//! (until a context is initialized on the node), `call_until` (a [view]
//! tool repeated until its result equals a value: `call VIEW --until`), and,
//! listed from [`super::events`], `wait_for_events`. Their names are
//! reserved in [`crate::mapping::toolset::RESERVED_NAMES`].

use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::catalog::context::ContextRow;
use crate::catalog::describe::{AppRow, ServiceDescription, describe_service};
use crate::error::{Code, Error, Result};
use crate::text::sanitize_line;

use super::live::View;

pub const DESCRIBE_APP: &str = "describe_app";
pub const SELECT_APP: &str = "select_app";
pub const WAIT_FOR_CONTEXT: &str = "wait_for_context";
pub const CALL_UNTIL: &str = "call_until";

/// The fixed tools' names.
pub const NAMES: [&str; 5] = [
    DESCRIBE_APP,
    SELECT_APP,
    super::events::WAIT_FOR_EVENTS,
    WAIT_FOR_CONTEXT,
    CALL_UNTIL,
];

/// Why the fixed tool `name` is not served: `--allow`/`--deny` apply to the
/// fixed tools as to the others (all five only read, so `--read-only` keeps
/// them). `None` when it is served, or `name` is no fixed tool.
pub fn refused(filter: &crate::mapping::filter::Filter, name: &str) -> Option<String> {
    if !NAMES.contains(&name) || filter.admits_name(name, true) {
        return None;
    }
    Some(format!("`{name}` is excluded by --allow/--deny"))
}

/// Seconds `wait_for_context` and `call_until` wait by default, and at most.
pub const DEFAULT_WITHIN: f64 = 60.0;
pub const MAX_WITHIN: f64 = 600.0;
/// Seconds between their tries by default, and at least.
pub const DEFAULT_EVERY: f64 = 1.0;
pub const MIN_EVERY: f64 = 0.01;

/// The fixed tools, as listed.
pub fn tools() -> Vec<rmcp::model::Tool> {
    static TOOLS: OnceLock<Vec<rmcp::model::Tool>> = OnceLock::new();
    TOOLS
        .get_or_init(|| {
            let defs = [
                json!({
                    "name": DESCRIBE_APP,
                    "title": "Describe an app",
                    "description": "What an app offers: each method's signature ([view] reads, [mut] changes state) and the tool that runs it. Without `app`, lists the apps this server serves. Start here.",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "app": {"type": "string", "description": "The app: its package (com.calimero.kv-store), trailing segments (kv-store), name, tool prefix (kv_store) or application id. Omit to list the apps."},
                            "service": {"type": "string", "description": "For a multi-service app: only this service."}
                        },
                        "additionalProperties": false
                    },
                    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
                    "_meta": {"ui": {"resourceUri": super::pages::UI_URI}}
                }),
                json!({
                    "name": SELECT_APP,
                    "title": "Select an app and its context",
                    "description": "Pins, for this session, the context an app's tools run in: `context` (an id or alias), else the app's only context. Returns the app's tool names. A tool's `_context` argument still overrides the pin for one call.",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "app": {"type": "string", "description": "The app, named as for describe_app."},
                            "context": {"type": "string", "description": "Context id or alias to pin; default: the app's only context."},
                            "service": {"type": "string", "description": "For a multi-service app: the service whose context to pin."}
                        },
                        "required": ["app"],
                        "additionalProperties": false
                    },
                    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
                }),
                json!({
                    "name": WAIT_FOR_CONTEXT,
                    "title": "Wait until a context is initialized",
                    "description": format!("Waits until the node has a context's state: a node that joined a context has none until its first sync with a peer, and every call in it fails until then. Checks every `every` seconds (default {DEFAULT_EVERY}) for at most `within` seconds (default {DEFAULT_WITHIN}, at most {MAX_WITHIN}); when the state does not come in time, the error says why (no peers, a failed sync, …). Use it instead of a loop of calls after joining a context."),
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "context": {"type": "string", "description": "Context id or alias."},
                            "within": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_WITHIN, "description": format!("Seconds to wait at most (default {DEFAULT_WITHIN}).")},
                            "every": {"type": "number", "minimum": MIN_EVERY, "maximum": MAX_WITHIN, "description": format!("Seconds between checks (default {DEFAULT_EVERY}).")}
                        },
                        "required": ["context"],
                        "additionalProperties": false
                    },
                    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
                }),
                json!({
                    "name": CALL_UNTIL,
                    "title": "Repeat a [view] tool until its result is as expected",
                    "description": format!("Calls a [view] tool (one that only reads) with `arguments` every `every` seconds (default {DEFAULT_EVERY}) until its result equals `until`, or the value at `until_path` in it does (a JSON pointer such as /items/0/name, or a dotted path such as items.0.name), for at most `within` seconds (default {DEFAULT_WITHIN}, at most {MAX_WITHIN}). Values compare as JSON (objects regardless of key order), numbers exactly by their decimal text (never through a double), and a number matches its decimal string: to wait for an integer beyond 2^53 exactly, give `until` as a decimal string (\"18446744073709551615\"), as results carry such integers. Returns the matching result; when it does not come in time, an error with the last result. [mut] tools are refused. Use it instead of a loop of calls when waiting for state another party changes."),
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "tool": {"type": "string", "description": "The [view] tool to call."},
                            "arguments": {"type": "object", "description": "Its arguments, as for calling it (with `_context` if needed)."},
                            "until": {"description": "The value waited for (any JSON; an integer beyond 2^53 as a decimal string)."},
                            "until_path": {"type": "string", "description": "Compare only the value at this path of the result (JSON pointer or dotted path)."},
                            "within": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_WITHIN, "description": format!("Seconds to try at most (default {DEFAULT_WITHIN}).")},
                            "every": {"type": "number", "minimum": MIN_EVERY, "maximum": MAX_WITHIN, "description": format!("Seconds between tries (default {DEFAULT_EVERY}).")}
                        },
                        "required": ["tool", "until"],
                        "additionalProperties": false
                    },
                    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}
                }),
            ];
            defs.into_iter()
                .chain([super::events::tool()])
                .filter_map(|d| serde_json::from_value(d).ok())
                .collect()
        })
        .clone()
}

/// The arguments of a fixed tool, checked by hand (they are few and fixed).
pub struct FixedArgs {
    pub app: Option<String>,
    pub context: Option<String>,
    pub service: Option<String>,
}

/// Reads `{app, context, service}`; `allowed` says which keys the tool takes.
pub fn parse_args(
    tool: &str,
    args: &Map<String, Value>,
    allowed: &[&str],
    required: &[&str],
) -> std::result::Result<FixedArgs, String> {
    let mut problems = Vec::new();
    for key in args.keys() {
        if !allowed.contains(&key.as_str()) {
            problems.push(format!(
                "{}: unknown argument; known: {}",
                sanitize_line(key),
                allowed.join(", ")
            ));
        }
    }
    let mut get = |key: &str| match args.get(key) {
        None | Some(Value::Null) => {
            if required.contains(&key) {
                problems.push(format!("{key}: missing required argument (a string)"));
            }
            None
        }
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            problems.push(format!(
                "{key}: expected a string, got {}",
                sanitize_line(&other.to_string())
            ));
            None
        }
    };
    let parsed = FixedArgs {
        app: get("app"),
        context: get("context"),
        service: get("service"),
    };
    if problems.is_empty() {
        Ok(parsed)
    } else {
        Err(format!(
            "Invalid arguments for {tool}:\n{}",
            problems
                .iter()
                .map(|p| format!("  - {p}"))
                .collect::<Vec<_>>()
                .join("\n")
        ))
    }
}

/// Seconds from an optional number argument, between `min` (exclusive
/// when `above`) and `max`; a problem is added otherwise.
/// A required, non-empty string argument; `(missing, expected)` say what it
/// is in the problem when it is absent or not a string.
fn required_string(
    args: &Map<String, Value>,
    key: &str,
    (missing, expected): (&str, &str),
    problems: &mut Vec<String>,
) -> Option<String> {
    match args.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        None | Some(Value::Null) => {
            problems.push(format!("{key}: missing required argument ({missing})"));
            None
        }
        Some(other) => {
            problems.push(format!(
                "{key}: expected {expected}, got {}",
                sanitize_line(&other.to_string())
            ));
            None
        }
    }
}

/// The `within` and `every` arguments both waiting tools take.
fn within_every(
    args: &Map<String, Value>,
    problems: &mut Vec<String>,
) -> (std::time::Duration, std::time::Duration) {
    let within = seconds(
        args,
        "within",
        DEFAULT_WITHIN,
        (0.0, true, MAX_WITHIN),
        problems,
    );
    let every = seconds(
        args,
        "every",
        DEFAULT_EVERY,
        (MIN_EVERY, false, MAX_WITHIN),
        problems,
    );
    (within, every)
}

fn seconds(
    args: &Map<String, Value>,
    key: &str,
    default: f64,
    (min, above, max): (f64, bool, f64),
    problems: &mut Vec<String>,
) -> std::time::Duration {
    let secs = match args.get(key) {
        None | Some(Value::Null) => default,
        Some(v) => match v.as_f64() {
            Some(t) if (if above { t > min } else { t >= min }) && t <= max => t,
            _ => {
                problems.push(format!(
                    "{key}: expected a number of seconds {} {min} and at most {max}, got {}",
                    if above { "above" } else { "from" },
                    sanitize_line(&v.to_string())
                ));
                default
            }
        },
    };
    std::time::Duration::from_secs_f64(secs)
}

fn invalid(tool: &str, problems: &[String]) -> String {
    format!(
        "Invalid arguments for {tool}:\n{}",
        problems
            .iter()
            .map(|p| format!("  - {p}"))
            .collect::<Vec<_>>()
            .join("\n")
    )
}

fn unknown_keys(args: &Map<String, Value>, allowed: &[&str], problems: &mut Vec<String>) {
    for key in args.keys() {
        if !allowed.contains(&key.as_str()) {
            problems.push(format!(
                "{}: unknown argument; known: {}",
                sanitize_line(key),
                allowed.join(", ")
            ));
        }
    }
}

/// `wait_for_context`'s arguments.
pub struct WaitContextArgs {
    pub context: String,
    pub within: std::time::Duration,
    pub every: std::time::Duration,
}

pub fn parse_wait_context(
    args: &Map<String, Value>,
) -> std::result::Result<WaitContextArgs, String> {
    let mut problems = Vec::new();
    unknown_keys(args, &["context", "within", "every"], &mut problems);
    let context = required_string(
        args,
        "context",
        ("a string", "a context id or alias (a string)"),
        &mut problems,
    );
    let (within, every) = within_every(args, &mut problems);
    match context {
        Some(context) if problems.is_empty() => Ok(WaitContextArgs {
            context,
            within,
            every,
        }),
        _ => Err(invalid(WAIT_FOR_CONTEXT, &problems)),
    }
}

/// `call_until`'s arguments.
pub struct CallUntilArgs {
    pub tool: String,
    pub arguments: Map<String, Value>,
    pub expect: crate::catalog::wait::Expect,
    pub within: std::time::Duration,
    pub every: std::time::Duration,
}

pub fn parse_call_until(args: &Map<String, Value>) -> std::result::Result<CallUntilArgs, String> {
    let mut problems = Vec::new();
    unknown_keys(
        args,
        &[
            "tool",
            "arguments",
            "until",
            "until_path",
            "within",
            "every",
        ],
        &mut problems,
    );
    let tool = required_string(args, "tool", ("a tool name", "a tool name"), &mut problems);
    let arguments = match args.get("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(o)) => o.clone(),
        Some(other) => {
            problems.push(format!(
                "arguments: expected an object of the tool's arguments, got {}",
                crate::abi::parse::kind_of(other)
            ));
            Map::new()
        }
    };
    let path = match args.get("until_path") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            problems.push(format!(
                "until_path: expected a JSON pointer or dotted path (a string), got {}",
                sanitize_line(&other.to_string())
            ));
            None
        }
    };
    let until = args.get("until");
    if until.is_none() {
        problems.push("until: missing required argument (the JSON value waited for)".into());
    }
    let (within, every) = within_every(args, &mut problems);
    match (tool, until) {
        (Some(tool), Some(until)) if problems.is_empty() => Ok(CallUntilArgs {
            tool,
            arguments,
            expect: crate::catalog::wait::Expect::from_json(path.as_deref(), until),
            within,
            every,
        }),
        _ => Err(invalid(CALL_UNTIL, &problems)),
    }
}

/// Which service of `app` a request means: the one named, the server's
/// `--service`, or the only one.
pub fn pick_service(
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
pub struct AppListing {
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
pub struct ServedApp {
    #[serde(flatten)]
    pub app: AppRow,
    /// How many of its tools this server lists.
    pub tools: usize,
}

/// A node app that is not served.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LeftOut {
    /// Its package, else its id.
    pub app: String,
    pub id: String,
    /// Why its ABI could not be used.
    pub reason: String,
}

/// The node a server runs on.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NodeState {
    pub url: String,
    /// `answering`, `not answering` or `not read yet`.
    pub status: String,
}

/// `describe_app` without an app: the apps served.
pub fn list_apps(view: &View, node: Option<(String, Option<bool>)>) -> AppListing {
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
pub fn left_out(view: &View) -> Vec<LeftOut> {
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
pub struct AppDescribed {
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
}

/// One service described, or (an app with several) each of them.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Described {
    Service(Box<DescribedService>),
    Services { services: Vec<DescribedService> },
}

/// A service described, with the context pinned for it in this session.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DescribedService {
    #[serde(flatten)]
    pub service: ServiceDescription,
    /// The context `select_app` pinned for this session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// `describe_app` for one app: per service, each method's signature and tool
/// (`null` where this server exposes none).
pub fn describe(
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
            let hidden: Vec<&crate::abi::Method> = svc
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
    AppDescribed {
        described,
        note,
        contexts: None,
        contexts_error: None,
    }
}
