//! The machine-readable reports of an app: what `calimcp apps --json` and
//! `calimcp describe --json` print and what the MCP server's `describe_app`
//! returns, as types (their JSON Schemas are published in docs/json/).
//! Every report of an app carries the same [`AppInfo`] fields.

use schemars::JsonSchema;
use serde::Serialize;

use super::context::ContextRow;
use calimcp_core::abi::{App, Event, Method};
use calimcp_core::mapping::signature::type_name;
use calimcp_core::mapping::{Tool, signature};

/// Who an app is and where it came from: the fields every report of an app
/// (a listing row, a description) shares.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AppInfo {
    /// What the app is called: its bundle name, else its package, else its id.
    pub app: String,
    /// The app's id: the node's application id, or for a local app a short
    /// hash of its package and ABI content.
    pub id: String,
    /// The bundle's `metadata.name`, when it has one.
    pub name: Option<String>,
    /// The package name, when the app has one.
    pub package: Option<String>,
    /// The version, when the app has one.
    pub version: Option<String>,
    /// The names of its services (empty for a single-service app).
    pub services: Vec<String>,
    /// Where it came from: a path, or the node's URL.
    pub source: String,
    /// The versions the node has of the app, newest first, each with its
    /// application id (empty for a local app). The methods are the newest's.
    pub versions: Vec<AppVersion>,
    /// Whether the app's metadata carries a guide: markdown its author wrote
    /// on how to use it (the MCP server serves it as the resource
    /// `calimero://app/{app}/guide`; `calimcp doc` renders it).
    pub has_guide: bool,
    /// The `###` titles under `## Procedures` in its guide, in order (empty
    /// without a guide).
    pub procedures: Vec<String>,
}

/// One version the node has of an app.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AppVersion {
    /// The version (`null` where the node names none).
    pub version: Option<String>,
    /// The node's application id of this version.
    pub id: String,
}

/// One app of a listing (`calimcp apps --json`, MCP `describe_app` without
/// an app): the app and how many methods it has.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AppRow {
    #[serde(flatten)]
    pub app: AppInfo,
    /// How many methods its services declare.
    pub methods: usize,
}

/// The description of an app's service (`calimcp describe --json`, MCP
/// `describe_app`): the app, its methods and its events.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ServiceDescription {
    #[serde(flatten)]
    pub app: AppInfo,
    /// The service described (`null` for a single-service app).
    pub service: Option<String>,
    /// Its methods, sorted by name.
    pub methods: Vec<MethodRow>,
    /// The events it declares, in ABI order.
    pub events: Vec<EventRow>,
    /// The service's contexts on the node (node apps, when the node answers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contexts: Option<Vec<ContextRow>>,
}

/// A method: its name, tool, kind, signature and doc comment.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MethodRow {
    /// The method's name in the ABI.
    pub name: String,
    /// Its tool's name (`null` for a method without a tool, such as `init`).
    pub tool: Option<String>,
    /// `view` (only reads) or `mut` (changes state).
    pub kind: MethodKind,
    /// `[view] name(param: type, …) -> type`.
    pub signature: String,
    /// Its doc comment, when it has one.
    pub doc: Option<String>,
}

/// Whether a method only reads (`view`) or changes state (`mut`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MethodKind {
    View,
    Mut,
}

impl MethodKind {
    fn of(read_only: bool) -> Self {
        if read_only { Self::View } else { Self::Mut }
    }
}

/// An event an app declares.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EventRow {
    /// The event's name.
    pub name: String,
    /// The payload's type as signatures write it (`null` without one).
    pub payload: Option<String>,
    /// `Name(Type)`, or `Name` without a payload.
    pub signature: String,
}

impl EventRow {
    pub fn of(e: &Event) -> Self {
        let payload = e.payload.as_ref().map(type_name);
        let signature = match &payload {
            Some(t) => format!("{}({t})", e.name),
            None => e.name.clone(),
        };
        EventRow {
            name: e.name.clone(),
            payload,
            signature,
        }
    }
}

impl AppInfo {
    pub(crate) fn of(app: &App) -> Self {
        AppInfo {
            app: app
                .name
                .as_deref()
                .unwrap_or_else(|| app.package_or_id())
                .to_string(),
            id: app.id.to_string(),
            name: app.name.clone(),
            package: app.package.clone(),
            version: app.version.clone(),
            services: app.services.iter().filter_map(|s| s.name.clone()).collect(),
            source: app.source.clone(),
            versions: app
                .installs
                .iter()
                .map(|i| AppVersion {
                    version: i.version.clone(),
                    id: i.id.clone(),
                })
                .collect(),
            has_guide: app.guide.is_some(),
            procedures: app
                .guide
                .as_ref()
                .map(|g| g.procedures.clone())
                .unwrap_or_default(),
        }
    }
}

impl AppRow {
    pub fn of(app: &App) -> Self {
        AppRow {
            app: AppInfo::of(app),
            methods: app.services.iter().map(|s| s.manifest.methods.len()).sum(),
        }
    }
}

/// The description of one service of `app`: its methods (ABI order is not
/// kept: sorted by name), each with its signature and tool name, and the
/// events it declares (ABI order) with their payload types. Methods in
/// `methods_without_tool` (such as `init`) are listed with `"tool": null`.
pub fn describe_service(
    app: &App,
    service: Option<&str>,
    tools: &[&Tool],
    methods_without_tool: &[&Method],
) -> ServiceDescription {
    let mut methods: Vec<MethodRow> = tools
        .iter()
        .map(|t| MethodRow {
            name: t.method.clone(),
            tool: Some(t.name.clone()),
            kind: MethodKind::of(t.read_only),
            signature: t.signature.clone(),
            doc: t.abi_method().doc.clone(),
        })
        .collect();
    methods.extend(methods_without_tool.iter().map(|m| MethodRow {
        name: m.name.clone(),
        tool: None,
        kind: MethodKind::of(m.is_view()),
        signature: signature(m),
        doc: m.doc.clone(),
    }));
    methods.sort_by(|a, b| a.name.cmp(&b.name));
    let events = app
        .service(service)
        .or_else(|| app.services.first())
        .map(|s| s.manifest.events.iter().map(EventRow::of).collect())
        .unwrap_or_default();
    ServiceDescription {
        app: AppInfo::of(app),
        service: service.map(str::to_string),
        methods,
        events,
        contexts: None,
    }
}
