//! The JSON Schemas of what `--json` prints, one per output shape (a command
//! with several shapes has several: `call`, `call-dry-run`, `call-wait-event`),
//! generated from the types that print it and published as docs/json/NAME.schema.json
//! (tests/generated.rs fails when one is stale and rewrites them with
//! CALIMCP_UPDATE_GENERATED=1; tests/json_contract.rs checks each command's
//! output against its schema). docs/reference/json.md says how they evolve.

use std::collections::BTreeMap;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde_json::Value;

use super::auth::LoginRow;
use calimcp_catalog::context::ContextRow;
use calimcp_catalog::describe::AppRow;
use calimcp_catalog::wait::ContextReady;
use calimcp_core::mapping::events::EventLine;

/// One published schema: the file's name (without `.schema.json`), the
/// command whose `--json` output it describes, and the schema.
pub struct Published {
    pub name: &'static str,
    pub command: &'static str,
    pub schema: Value,
}

/// Every published schema, in file-name order.
pub fn all() -> Vec<Published> {
    let mut all: Vec<Published> = [lifecycle(), blobs(), accounts(), inspect(), calls()]
        .into_iter()
        .flatten()
        .collect();
    all.sort_by_key(|p| p.name);
    all
}

/// The node's blobs: `blob upload|list|info|download|delete`.
fn blobs() -> Vec<Published> {
    use calimcp_catalog::blobs::{Blob, BlobDeleted, BlobInfo};
    vec![
        one::<Blob>(
            "blob-upload",
            "calimcp blob upload FILE --json",
            "The blob uploaded: its id (as the node writes ids) and its size in bytes.",
        ),
        one::<Vec<Blob>>(
            "blob-list",
            "calimcp blob list --json",
            "The node's blobs, one row each: id and size in bytes.",
        ),
        one::<BlobInfo>(
            "blob-info",
            "calimcp blob info ID --json (and blob download ID -o FILE --json)",
            "What the node says of a blob: size, SHA-256, content type, and the installed apps whose module it is.",
        ),
        one::<BlobDeleted>(
            "blob-delete",
            "calimcp blob delete ID --json",
            "The blob deleted (deleted: false when the node had none), and the apps whose module it was (with --force).",
        ),
    ]
}

/// The app's life on a node: `app` and `context` (install, create, invite, join, aliases, delete).
fn lifecycle() -> Vec<Published> {
    vec![
        one::<calimcp_catalog::lifecycle::Installed>(
            "app-install",
            "calimcp app install SOURCE --json",
            "The application installed: its id on the node, and the package and version it is listed with.",
        ),
        one::<calimcp_catalog::lifecycle::Uninstalled>(
            "app-uninstall",
            "calimcp app uninstall APP --json",
            "The application ids removed, and the contexts that still ran the app (with --force).",
        ),
        one::<calimcp_catalog::lifecycle::AliasRow>(
            "context-alias",
            "calimcp context alias add|remove --json",
            "The alias set (with its context) or removed (contextId null).",
        ),
        one::<Vec<calimcp_catalog::lifecycle::AliasRow>>(
            "context-alias-list",
            "calimcp context alias list --json",
            "The context aliases of the node, one row each.",
        ),
        one::<calimcp_catalog::lifecycle::ContextCreated>(
            "context-create",
            "calimcp context create APP --json",
            "The context created, its namespace, the node's identity in it and its alias.",
        ),
        one::<calimcp_catalog::lifecycle::Deleted>(
            "context-delete",
            "calimcp context delete CTX --json",
            "The context deleted (deleted: false when the node no longer had it).",
        ),
        one::<calimcp_catalog::lifecycle::Invitation>(
            "context-invite",
            "calimcp context invite CTX",
            "The invitation file: the namespace, the context, and the node's signed invitation as it wrote it.",
        ),
        one::<calimcp_catalog::lifecycle::Joined>(
            "context-join",
            "calimcp context join FILE --json",
            "The context joined and ready on this node.",
        ),
    ]
}

/// Logins and named nodes: `auth`, `login`, `logout`, `node`.
fn accounts() -> Vec<Published> {
    vec![
        one::<Vec<LoginRow>>(
            "auth-status",
            "calimcp auth status --json",
            "The cached logins (no token is shown).",
        ),
        one::<super::auth::Token<'static>>(
            "auth-token",
            "calimcp auth token --json",
            "The node's access token, proven by one request.",
        ),
        one::<super::login::LoggedIn<'static>>(
            "login",
            "calimcp login --json",
            "The login made (it is kept for later commands).",
        ),
        one::<super::logout::LoggedOut<'static>>(
            "logout",
            "calimcp logout --json",
            "The cached logins removed.",
        ),
        one::<super::nodes::NodeAdded>(
            "node-add",
            "calimcp node add NAME URL --json",
            "The node named.",
        ),
        one::<super::nodes::NodesImported>(
            "node-import",
            "calimcp node import [PATH] --json",
            "The nodes imported from meroctl's node list.",
        ),
        one::<Vec<super::nodes::NodeRow<'static>>>(
            "node-list",
            "calimcp node list --json",
            "The named nodes.",
        ),
        one::<super::nodes::NodeRemoved<'static>>(
            "node-remove",
            "calimcp node remove NAME --json",
            "The name forgotten.",
        ),
        one::<super::nodes::NodeUsed<'static>>(
            "node-use",
            "calimcp node use NAME|--clear --json",
            "The current node now.",
        ),
    ]
}

/// What apps, contexts and tools there are: `apps`, `contexts`, `describe`, `diff`, `schema`, `tools`, `use`.
fn inspect() -> Vec<Published> {
    vec![
        one::<Vec<AppRow>>(
            "apps",
            "calimcp apps --json",
            "The apps found, one row each.",
        ),
        one::<Vec<ContextRow>>(
            "contexts",
            "calimcp contexts --json",
            "The contexts of the apps on the node, one row each.",
        ),
        one::<super::describe::DescribeOutput>(
            "describe",
            "calimcp describe APP --json",
            "The app's service described, or (an app with several services, no --service) an array of them.",
        ),
        one::<super::diff::DiffOutput<'static>>(
            "diff",
            "calimcp diff OLD NEW --json",
            "What NEW breaks for OLD's callers, agents and stored state.",
        ),
        one::<SchemaOutput>(
            "schema",
            "calimcp schema APP [METHOD] [--output]",
            "JSON Schemas: one method's (null for --output of a method that returns nothing), else each method's by name, else (several services) each service's methods by service name.",
        ),
        one::<Vec<rmcp::model::Tool>>(
            "tools",
            "calimcp tools --json",
            "The tools, as MCP tools/list describes them.",
        ),
        one::<super::use_ctx::UseAnswer<'static>>(
            "use",
            "calimcp use APP --json",
            "The context calls of the app use on the node.",
        ),
    ]
}

/// Calls, waits and events, and the lines every command may write on stderr.
fn calls() -> Vec<Published> {
    vec![
        one::<Value>(
            "call",
            "calimcp call TOOL --json",
            "The method's result (also with --until: the result that matched), as the ABI types it: `calimcp schema APP METHOD --output` gives its schema; null for a method that returns nothing.",
        ),
        one::<super::call::DryRun<'static>>(
            "call-dry-run",
            "calimcp call TOOL --dry-run --json",
            "The request that would be sent to the node.",
        ),
        one::<super::call::WithEvent<'static>>(
            "call-wait-event",
            "calimcp call TOOL --wait-event NAME --json",
            "The call's result and the event waited for.",
        ),
        one::<calimcp_core::error::ErrorLine>(
            "error",
            "calimcp … --json (stderr)",
            "The line a command that fails writes on stderr with --json.",
        ),
        one::<super::output::NoteLine<'static>>(
            "note",
            "calimcp … --json (stderr)",
            "A status line a command writes on stderr with --json (`watch`: what it watches).",
        ),
        one::<ContextReady>(
            "wait",
            "calimcp wait CONTEXT --json",
            "The context, once the node has its state (a timeout is an error line, exit 124).",
        ),
        one::<EventLine<'static>>(
            "watch",
            "calimcp watch APP --json",
            "One event: each line of the output is one such object.",
        ),
    ]
}

/// `T`'s schema as it is serialised (a field always written is required,
/// `null` or not), titled with the command.
fn one<T: JsonSchema>(name: &'static str, command: &'static str, about: &str) -> Published {
    let schema: Schema = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>();
    let mut out = serde_json::Map::new();
    let mut rest = match schema.to_value() {
        Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    out.extend(rest.remove("$schema").map(|v| ("$schema".to_string(), v)));
    out.insert("title".into(), command.into());
    out.insert("description".into(), about.into());
    rest.remove("title");
    rest.remove("description");
    out.extend(rest);
    Published {
        name,
        command,
        schema: Value::Object(out),
    }
}

/// `schema`'s output, for its schema only (the command streams it): a
/// method's JSON Schema, or the methods' by name, or the services'.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum SchemaOutput {
    /// One method's schema; `null` for --output of a unit return.
    Method(Option<BTreeMap<String, Value>>),
    /// Each method's schema by name (`null` for --output of a unit return).
    Methods(BTreeMap<String, Option<BTreeMap<String, Value>>>),
    /// Each service's methods, by service name.
    Services(BTreeMap<String, BTreeMap<String, Option<BTreeMap<String, Value>>>>),
}
