//! The `lifecycle` toolset (`serve --toolsets lifecycle`, or `all`): the
//! tools that change what the node holds — `install_application`,
//! `uninstall_application`, `create_context`, `invite_to_context`,
//! `join_context`, `delete_context`, `set_alias`, `remove_alias`, and
//! `upgrade_app` (its code in [`super::upgrade`]). Opt-in;
//! `--read-only` hides every one of them (they all change the node), and
//! `--allow`/`--deny` apply as to any tool. Each runs the catalog's engine
//! (`calimcp_catalog::lifecycle`), the one the CLI's `app` and `context`
//! commands run; after each the server reads the node again and announces
//! `list_changed`, so a new context's tools work at once.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use calimcp_core::mapping::args::Validator;

pub(crate) const INSTALL_APPLICATION: &str = "install_application";
pub(crate) const UNINSTALL_APPLICATION: &str = "uninstall_application";
pub(crate) const CREATE_CONTEXT: &str = "create_context";
pub(crate) const INVITE_TO_CONTEXT: &str = "invite_to_context";
pub(crate) const JOIN_CONTEXT: &str = "join_context";
pub(crate) const DELETE_CONTEXT: &str = "delete_context";
pub(crate) const SET_ALIAS: &str = "set_alias";
pub(crate) const REMOVE_ALIAS: &str = "remove_alias";
pub(crate) const UPGRADE_APP: &str = super::upgrade::NAME;

/// The lifecycle tools' names.
pub(crate) const NAMES: [&str; 9] = [
    INSTALL_APPLICATION,
    UNINSTALL_APPLICATION,
    CREATE_CONTEXT,
    INVITE_TO_CONTEXT,
    JOIN_CONTEXT,
    DELETE_CONTEXT,
    SET_ALIAS,
    REMOVE_ALIAS,
    UPGRADE_APP,
];

/// The toolsets `serve --toolsets` takes.
pub(crate) const TOOLSETS: [&str; 4] = ["apps", "lifecycle", "blobs", "all"];

/// How long `join_context` waits at most for the context to be ready.
pub(crate) const JOIN_WITHIN: std::time::Duration = std::time::Duration::from_secs(180);

/// `install_application`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct InstallArgs {
    /// PACKAGE@VERSION (from the node's registry, where it has one) or an https URL the node fetches; a path only inside the directory the server was started with --install-from.
    #[schemars(length(min = 1))]
    pub source: String,
    /// The package to list it under (a path only).
    pub package: Option<String>,
    /// The version to list it with (a path only).
    pub version: Option<String>,
}

/// `uninstall_application`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct UninstallArgs {
    /// The app, named as for describe_app; APP@VERSION or an application id for one version.
    #[schemars(length(min = 1))]
    pub app: String,
    /// Remove it even while contexts run it.
    pub force: Option<bool>,
}

/// `create_context`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateArgs {
    /// The app, named as for describe_app; APP@VERSION or an application id for one version (default: the newest).
    #[schemars(length(min = 1))]
    pub app: String,
    /// The arguments of the app's init (describe_app shows its signature), checked before anything is sent.
    pub args: Option<Map<String, Value>>,
    /// A name for the context.
    pub name: Option<String>,
    /// An alias to set for it on this node.
    pub alias: Option<String>,
    /// The namespace (64 hex) to create it in; default: a new one.
    pub namespace: Option<String>,
    /// For a multi-service app: the service the context runs.
    pub service: Option<String>,
}

/// `invite_to_context` and `delete_context`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ContextArgs {
    /// Context id or alias.
    #[schemars(length(min = 1))]
    pub context: String,
}

/// `join_context`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct JoinArgs {
    /// The object invite_to_context returned on the inviting node, unchanged.
    pub invitation: calimcp_catalog::lifecycle::Invitation,
    /// An alias to set for the context on this node.
    pub alias: Option<String>,
}

/// `set_alias`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetAliasArgs {
    /// The alias: 1 to 50 of A-Z a-z 0-9 . _ -
    #[schemars(length(min = 1))]
    pub alias: String,
    /// Context id or alias.
    #[schemars(length(min = 1))]
    pub context: String,
}

/// `remove_alias`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RemoveAliasArgs {
    #[schemars(length(min = 1))]
    pub alias: String,
}

/// A tool's input schema from its arguments' type (no `$schema`, no `title`).
pub(crate) fn schema<T: JsonSchema>() -> Value {
    let mut v = serde_json::to_value(schemars::schema_for!(T)).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.remove("$schema");
        o.remove("title");
    }
    v
}

fn schema_of(name: &str) -> Value {
    match name {
        INSTALL_APPLICATION => schema::<InstallArgs>(),
        UNINSTALL_APPLICATION => schema::<UninstallArgs>(),
        CREATE_CONTEXT => schema::<CreateArgs>(),
        INVITE_TO_CONTEXT | DELETE_CONTEXT => schema::<ContextArgs>(),
        JOIN_CONTEXT => schema::<JoinArgs>(),
        SET_ALIAS => schema::<SetAliasArgs>(),
        UPGRADE_APP => schema::<super::upgrade::UpgradeArgs>(),
        _ => schema::<RemoveAliasArgs>(),
    }
}

/// Reads a lifecycle tool's arguments: checked against its schema (every
/// problem at once), then read into its type.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(
    name: &str,
    raw: &Map<String, Value>,
) -> std::result::Result<T, String> {
    parse_with(name, &schema_of(name), raw)
}

/// Reads tool `name`'s arguments against `schema` (every problem at once),
/// then into their type: the rule of every toolset's tools.
pub(crate) fn parse_with<T: serde::de::DeserializeOwned>(
    name: &str,
    schema: &Value,
    raw: &Map<String, Value>,
) -> std::result::Result<T, String> {
    let v = Value::Object(raw.clone());
    if let Ok(validator) = Validator::new(schema) {
        let problems = validator.check(&v);
        if !problems.is_empty() {
            let lines: Vec<String> = problems.iter().map(|p| format!("\n  {p}")).collect();
            return Err(format!("invalid arguments for {name}:{}", lines.concat()));
        }
    }
    serde_json::from_value(v).map_err(|e| format!("invalid arguments for {name}: {e}"))
}

/// The lifecycle tools as listed (never `readOnlyHint`; `destructiveHint`
/// on uninstall, delete and upgrade).
pub(crate) fn tools() -> Vec<rmcp::model::Tool> {
    static TOOLS: OnceLock<Vec<rmcp::model::Tool>> = OnceLock::new();
    TOOLS
        .get_or_init(|| {
            let changes = |destructive: bool, idempotent: bool| {
                json!({"readOnlyHint": false, "destructiveHint": destructive, "idempotentHint": idempotent, "openWorldHint": true})
            };
            let defs = [
                (INSTALL_APPLICATION, "Install an application", "Installs an app on the node from `source`: PACKAGE@VERSION from the node's registry (nodes that have one), or an https URL the node fetches (public hosts only on merod 0.11.0-rc.25 and later). A local path only inside the directory the server was started with (--install-from). The same bytes again give the same application id. Returns {applicationId, package, version}; the app's tools are listed at once.", changes(false, true)),
                (UNINSTALL_APPLICATION, "Uninstall an application", "Removes an app from the node (every installed version, or the one APP@VERSION names). Refused while contexts run it (they are listed) unless `force`. Returns {applicationIds, contexts}.", changes(true, true)),
                (CREATE_CONTEXT, "Create a context", "Creates a context of an installed app. `args` are the arguments of the app's init (describe_app shows its signature), checked against it before anything is sent: a wrong or missing argument is named and nothing is created. Without `namespace` a new namespace is made for the context. Returns {contextId, namespaceId, memberPublicKey, alias}; the context can be used at once.", changes(false, false)),
                (INVITE_TO_CONTEXT, "Invite another node into a context", "Returns {namespaceId, contextId, invitation}: the node's signed invitation into the context's namespace. Pass the whole object, unchanged, to join_context on the other node's server.", changes(false, false)),
                (JOIN_CONTEXT, "Join a context", "On this node: joins the namespace and the context of an invitation from invite_to_context, then waits (at most 180 s) until the app's code and the context's state have arrived, so its tools work. Returns {contextId, namespaceId, memberPublicKey, alias, ready}; when it runs out, the error says what was done and what it waits for, and calling it again finishes the rest.", changes(false, true)),
                (DELETE_CONTEXT, "Delete a context", "Deletes a context (an id or alias) from this node. Returns {contextId, deleted}.", changes(true, true)),
                (SET_ALIAS, "Set a context alias", "Names a context on this node (aliases are node-local). Returns {alias, contextId}.", changes(false, false)),
                (REMOVE_ALIAS, "Remove a context alias", "Removes a context alias from this node (the context stays). Returns {alias, contextId: null}.", changes(false, true)),
                (UPGRADE_APP, super::upgrade::TITLE, super::upgrade::DESCRIPTION, changes(true, false)),
            ];
            listed(defs, schema_of)
        })
        .clone()
}

/// A toolset's tools as listed, from `(name, title, description,
/// annotations)` rows and each name's input schema.
pub(crate) fn listed<'a>(
    defs: impl IntoIterator<Item = (&'a str, &'a str, &'a str, Value)>,
    schema_of: impl Fn(&str) -> Value,
) -> Vec<rmcp::model::Tool> {
    defs.into_iter()
        .filter_map(|(name, title, description, annotations)| {
            serde_json::from_value(json!({
                "name": name,
                "title": title,
                "description": description,
                "inputSchema": schema_of(name),
                "annotations": annotations,
            }))
            .ok()
        })
        .collect()
}

/// The opt-in toolsets `--toolsets` turns on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Toolsets {
    pub lifecycle: bool,
    /// The blob tools ([`super::blobs`]).
    pub blobs: bool,
}

/// `--toolsets` values, read: which opt-in toolsets are on.
pub(crate) fn parse_toolsets(values: &[String]) -> std::result::Result<Toolsets, String> {
    let mut on = Toolsets::default();
    for v in values.iter().flat_map(|v| v.split(',')).map(str::trim) {
        match v {
            "apps" => {}
            "lifecycle" => on.lifecycle = true,
            "blobs" => on.blobs = true,
            "all" => {
                on.lifecycle = true;
                on.blobs = true;
            }
            other => {
                return Err(format!(
                    "unknown toolset `{}`; toolsets: {}",
                    calimcp_core::text::sanitize_line(other),
                    TOOLSETS.join(", ")
                ));
            }
        }
    }
    Ok(on)
}

/// Whether the server may have `url` fetched: only https (a tool never makes
/// the node or calimcp read a plain-http URL for an agent); the refusal
/// names `tool`.
pub(crate) fn https_only(tool: &str, url: &str) -> std::result::Result<(), String> {
    if url.to_ascii_lowercase().starts_with("https://") {
        return Ok(());
    }
    Err(format!(
        "`{}`: {tool} fetches only https URLs",
        calimcp_core::text::sanitize_line(url)
    ))
}

/// Whether `path` may be installed by path: inside `dir` (both resolved).
pub(crate) fn inside(dir: Option<&Path>, path: &Path) -> std::result::Result<PathBuf, String> {
    let Some(dir) = dir else {
        return Err("install_application takes PACKAGE@VERSION or an https URL: this server was not started with --install-from DIR, so it never makes the node read a path of this machine".into());
    };
    let dir =
        std::fs::canonicalize(dir).map_err(|e| format!("--install-from {}: {e}", dir.display()))?;
    let full =
        std::fs::canonicalize(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if full.starts_with(&dir) {
        Ok(full)
    } else {
        Err(format!(
            "{} is outside {}, the directory this server installs from (--install-from)",
            path.display(),
            dir.display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_is_listed_and_none_is_read_only() {
        let tools = tools();
        assert_eq!(tools.len(), NAMES.len());
        for t in &tools {
            let a = t.annotations.as_ref().unwrap();
            assert_eq!(a.read_only_hint, Some(false), "{}", t.name);
            let destructive = matches!(
                t.name.as_ref(),
                UNINSTALL_APPLICATION | DELETE_CONTEXT | UPGRADE_APP
            );
            assert_eq!(a.destructive_hint, Some(destructive), "{}", t.name);
        }
    }

    #[test]
    fn toolsets_are_read() {
        let on = |lifecycle, blobs| Ok(Toolsets { lifecycle, blobs });
        assert_eq!(parse_toolsets(&[]), on(false, false));
        assert_eq!(parse_toolsets(&["apps,lifecycle".into()]), on(true, false));
        assert_eq!(parse_toolsets(&["apps,blobs".into()]), on(false, true));
        assert_eq!(parse_toolsets(&["all".into()]), on(true, true));
        assert!(parse_toolsets(&["nope".into()]).is_err());
    }
}
