//! A context as the node lists it, in the form every output shows: plain
//! data, here below the error type, which names a context's rows in its
//! "which context?" errors, and below the engine, which fills them.

use schemars::JsonSchema;
use serde::Serialize;

/// A context of an app on the node, as `calimcp contexts --json`, `describe
/// --json`, `use --json` and MCP `describe_app` list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ContextRow {
    /// The context id, in the node's form.
    pub id: String,
    /// Its aliases on the node.
    pub aliases: Vec<String>,
    /// Its name, when the node gives one.
    pub name: Option<String>,
    /// The app it runs: its package, else its id.
    pub app: String,
    /// The version of the app it runs (`null` when the node does not say).
    pub version: Option<String>,
    /// The node's application id it runs.
    #[serde(rename = "applicationId")]
    pub application_id: String,
    /// The service it runs (`null` for a single-service app).
    pub service: Option<String>,
    /// Whether the node has its state yet (`null` when the node does not say).
    pub initialized: Option<bool>,
    /// The version its group targets when that is another one (`app
    /// upgrade`): the context moves to it at its next execution. Absent
    /// when there is none.
    #[serde(rename = "pendingVersion", skip_serializing_if = "Option::is_none")]
    pub pending_version: Option<String>,
}

impl ContextRow {
    /// Whether calls choose this context when none is given: it has the
    /// alias [`DEFAULT_ALIAS`].
    pub fn is_default(&self) -> bool {
        self.aliases.iter().any(|a| a == DEFAULT_ALIAS)
    }

    /// Whether `name` is this context's id or one of its aliases.
    pub fn answers_to(&self, name: &str) -> bool {
        self.id == name || self.aliases.iter().any(|a| a == name)
    }
}

/// The alias that marks an app's default context: calls go to the app's
/// only context, else to the one with this alias.
pub const DEFAULT_ALIAS: &str = "default";
