//! The app lifecycle, for both faces: install and uninstall an app, create
//! a context (its `init` arguments checked against the ABI first, as `call`
//! checks a method's), invite another node, join there (then wait, bounded,
//! until the context can be used), delete, and context aliases. The routes
//! and their version differences are the node client's
//! (`calimcp_node::lifecycle`); this module decides what is sent, in which
//! order, and what a step that fails half-way says was done.

use std::path::{Path, PathBuf};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::session::Session;
use super::wait::Pace;
use calimcp_core::abi::{App, LoadOptions};
use calimcp_core::error::{Code, Error, ErrorKind, Problem, Result};
use calimcp_core::mapping::args::{self, Validator};
use calimcp_core::mapping::schema::{self, CONTEXT_PARAM};
use calimcp_core::mapping::{RefMode, signature};
use calimcp_core::text::sanitize_line;
use calimcp_node::lifecycle::{NewContext, invitation_group, is_group_id};
use calimcp_node::{Client, ids};

/// What `app install` was given as SOURCE.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A file or directory on this machine (the node reads it by path).
    Path(PathBuf),
    /// An `http(s)` URL the node fetches.
    Url(String),
    /// `PACKAGE@VERSION`, from the node's registry.
    Registry { package: String, version: String },
}

impl Source {
    /// SOURCE as typed: a URL, then `PACKAGE@VERSION` (no `/`, not an
    /// existing file), else a path.
    pub fn parse(s: &str) -> Source {
        let lower = s.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return Source::Url(s.to_string());
        }
        if let Some((package, version)) = s.rsplit_once('@')
            && !s.contains('/')
            && !Path::new(s).exists()
            && !package.is_empty()
            && !version.is_empty()
        {
            return Source::Registry {
                package: package.to_string(),
                version: version.to_string(),
            };
        }
        Source::Path(PathBuf::from(s))
    }
}

/// `app install`'s answer (`--json`, MCP `install_application`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Installed {
    /// The node's id of the application (the same bytes give the same id).
    pub application_id: String,
    /// The package it is listed under, when known.
    pub package: Option<String>,
    /// The version it is listed with, when known.
    pub version: Option<String>,
}

/// `app uninstall`'s answer.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Uninstalled {
    /// The application ids removed (one per installed version removed).
    pub application_ids: Vec<String>,
    /// Contexts that still ran the app (removed anyway with `--force`; they
    /// keep running the code they have until deleted).
    pub contexts: Vec<String>,
}

/// `context create`'s answer.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ContextCreated {
    pub context_id: String,
    /// The namespace the context is in (made for it unless `--namespace`).
    pub namespace_id: String,
    /// The node's identity in the context.
    pub member_public_key: String,
    /// The alias set for it, if one was asked for.
    pub alias: Option<String>,
}

/// What `context invite` writes and `context join` reads.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Invitation {
    /// The namespace the invitation admits to (64 hex).
    pub namespace_id: String,
    /// The context to join in it.
    pub context_id: String,
    /// The node's signed invitation, byte for byte as the node wrote it.
    pub invitation: Value,
}

/// `context join`'s answer.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Joined {
    pub context_id: String,
    pub namespace_id: String,
    /// This node's identity in the context.
    pub member_public_key: String,
    /// The alias set for it on this node, if one was asked for.
    pub alias: Option<String>,
    /// Always `true`: a join that is not ready in time is an error
    /// (`join_incomplete`) saying what it waits for.
    pub ready: bool,
}

/// `context delete`'s answer.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Deleted {
    pub context_id: String,
    /// `false` when the node no longer had it.
    pub deleted: bool,
}

/// One context alias (`context alias add/remove/list`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AliasRow {
    pub alias: String,
    /// The context it names; `null` after `remove`.
    pub context_id: Option<String>,
}

/// `context create`'s request.
#[derive(Debug, Clone, Default)]
pub struct CreateRequest {
    /// The init arguments (an object; empty for none).
    pub args: Map<String, Value>,
    pub name: Option<String>,
    pub alias: Option<String>,
    pub namespace: Option<String>,
    pub service: Option<String>,
    /// The version to use among several installed (`APP@VERSION`), or an application id.
    pub version: Option<String>,
}

/// An app as `app uninstall` and `context create` take it (`APP`,
/// `APP@VERSION` or an application id): the name to find it by, and the
/// installed version it names (the version, or the id itself), if any.
pub fn app_and_version(app: &str) -> (String, Option<String>) {
    let (name, version) = match app.rsplit_once('@') {
        Some((name, v)) if !name.is_empty() && !v.is_empty() && !app.contains('/') => {
            (name.to_string(), Some(v.to_string()))
        }
        _ => (app.to_string(), None),
    };
    let version = version.or_else(|| super::ids::is_id(&name).then(|| name.clone()));
    (name, version)
}

/// The `init` method of `app` (of `service`), if it declares one.
pub(crate) fn init_method<'a>(
    app: &'a App,
    service: Option<&str>,
) -> Result<
    Option<(
        &'a calimcp_core::abi::Manifest,
        &'a calimcp_core::abi::Method,
    )>,
> {
    let svc = match (service, app.services.len()) {
        (None, n) if n > 1 => {
            let names: Vec<&str> = app
                .services
                .iter()
                .filter_map(|s| s.name.as_deref())
                .collect();
            return Err(Error::input(
                Code::ServiceRequired,
                format!(
                    "{} has several services ({}); a context runs one",
                    sanitize_line(app.package_or_id()),
                    sanitize_line(&names.join(", "))
                ),
            )
            .with_hint("name one with --service NAME"));
        }
        (None, _) => app.services.first(),
        (Some(s), _) => {
            super::session::check_service(app, s)?;
            app.service(Some(s))
        }
    };
    Ok(svc.and_then(|s| s.manifest.method("init").map(|m| (&*s.manifest, m))))
}

/// The input schema of `init`: its parameters, without the injected `_context`.
pub(crate) fn init_schema(
    m: &calimcp_core::abi::Manifest,
    method: &calimcp_core::abi::Method,
) -> Value {
    let mut input = schema::method_schemas(m, method, RefMode::Inline).input;
    if let Some(props) = input.get_mut("properties").and_then(Value::as_object_mut) {
        props.remove(CONTEXT_PARAM);
    }
    input
}

/// The init signature as `describe` writes methods (`[mut] init(owner: string, limit: u32) -> unit`),
/// or `init()` when the app declares none.
pub fn init_signature(app: &App, service: Option<&str>) -> String {
    match init_method(app, service) {
        Ok(Some((_, m))) => signature::signature(m),
        _ => "init()".to_string(),
    }
}

/// Checks `args` against the app's `init` (the same schema and value checks
/// `call` applies to a method's arguments) and returns the bytes the node
/// gets as `initializationParams`: the JSON of the declared parameters, or
/// nothing for an `init` that takes none. Nothing is sent on failure.
pub fn init_arguments(
    app: &App,
    service: Option<&str>,
    args: &Map<String, Value>,
) -> Result<Vec<u8>> {
    let found = init_method(app, service)?;
    let takes_none = found.is_none_or(|(_, m)| m.params.is_empty());
    if takes_none {
        if args.is_empty() {
            return Ok(Vec::new());
        }
        let given: Vec<&str> = args.keys().map(String::as_str).collect();
        return Err(Error::input(
            Code::Usage,
            format!(
                "{}'s init takes no arguments, but {} {} given (nothing was sent)",
                sanitize_line(app.package_or_id()),
                sanitize_line(&given.join(", ")),
                if given.len() == 1 { "was" } else { "were" }
            ),
        )
        .with_hint("create the context without init arguments"));
    }
    let (manifest, method) = found.expect("checked");
    let schema = init_schema(manifest, method);
    let validator = Validator::new(&schema).map_err(Error::internal)?;
    let value = Value::Object(args.clone());
    let problems = args::merge(
        validator.check(&value),
        args::check_values(manifest, method, args),
    );
    if !problems.is_empty() {
        return Err(invalid_init(app, &signature::signature(method), problems));
    }
    let out = args::outgoing(manifest, method, args);
    serde_json::to_vec(&out).map_err(|e| Error::internal(e.to_string()))
}

/// The error for invalid init arguments of `app` (whose init is
/// `signature`): each problem on a line, nothing sent.
pub fn invalid_init(app: &App, signature: &str, problems: Vec<Problem>) -> Error {
    let lines: Vec<String> = problems.iter().map(|p| format!("\n  {p}")).collect();
    let mut e = Error::input(
        Code::InvalidArguments,
        format!(
            "invalid init arguments for {} (nothing was sent):{}",
            sanitize_line(app.package_or_id()),
            lines.concat()
        ),
    )
    .with_hint(format!("its init is {}", sanitize_line(signature)));
    e.problems = problems;
    e
}

/// Which installed version of `app` to use: the one `version` names (a
/// version or an application id), else the newest.
pub(crate) async fn chosen_install(
    client: &Client,
    app: &App,
    version: Option<&str>,
) -> Result<calimcp_core::abi::Install> {
    let installs = super::context::installs_of(client, app).await?;
    if installs.is_empty() {
        return Err(Error::input(
            Code::NotInstalled,
            format!(
                "{} is not installed on the node at {}",
                sanitize_line(app.package_or_id()),
                client.url()
            ),
        )
        .with_hint("install it first: calimcp app install PATH|URL"));
    }
    match version {
        None => Ok(installs[0].clone()),
        Some(v) => installs
            .iter()
            .find(|i| i.version.as_deref() == Some(v) || ids::same(&i.id, v))
            .cloned()
            .ok_or_else(|| {
                let listed: Vec<String> = installs
                    .iter()
                    .map(|i| format!("{} ({})", i.version.as_deref().unwrap_or("?"), i.id))
                    .collect();
                Error::input(
                    Code::UnknownApp,
                    format!(
                        "{} has no installed version `{}` on the node at {}; installed: {}",
                        sanitize_line(app.package_or_id()),
                        sanitize_line(v),
                        client.url(),
                        sanitize_line(&listed.join(", "))
                    ),
                )
            }),
    }
}

/// `--metadata` as the node stores it: the object's JSON bytes (none when
/// not given); anything but an object is refused.
fn metadata_bytes(metadata: Option<&Value>) -> Result<Vec<u8>> {
    match metadata {
        Some(v) if !v.is_object() => Err(Error::input(
            Code::Usage,
            "--metadata must be a JSON object (name, description, …)",
        )),
        Some(v) => serde_json::to_vec(v).map_err(|e| Error::internal(e.to_string())),
        None => Ok(Vec::new()),
    }
}

/// `PACKAGE@VERSION` on a node without a registry (rc.4, rc.25).
fn no_registry(client: &Client, package: &str, version: &str) -> Error {
    Error::input(
        Code::RegistryUnavailable,
        format!(
            "`{}@{}`: the node at {} installs from no registry (merod 0.11.0-rc.4 and rc.25 install only by path or URL; rc.31 and later install PACKAGE@VERSION from the registry the node is configured with)",
            sanitize_line(package),
            sanitize_line(version),
            client.url()
        ),
    )
    .with_hint("install from a file (calimcp app install ./app.wasm) or an https URL")
}

/// The node's install-from-URL route.
async fn install_url(client: &Client, url: &str, meta: &[u8]) -> Result<Installed> {
    let id = client
        .install_application_url(url, meta, None)
        .await
        .map_err(|e| {
            if e.message.contains("non-public address") {
                e.with_hint("this node (merod 0.11.0-rc.25 and later) fetches only from public hosts: serve the file from one, or install it by path when the node runs on this machine")
            } else {
                e
            }
        })?;
    // A wasm from a URL is listed as package "unknown", version "0.0.0".
    Ok(Installed {
        application_id: id,
        package: None,
        version: None,
    })
}

/// Step 1 of a join: the namespace. The node looks for a member to join
/// through; it may find none at first (peers still connecting). Returns the
/// last error it was retried after.
async fn join_namespace(client: &Client, inv: &Invitation, pace: &Pace) -> Result<Option<Error>> {
    let (ns, ctx) = (&inv.namespace_id, &inv.context_id);
    let mut last: Option<Error> = None;
    loop {
        match pace
            .attempt(client.join_namespace(ns, &inv.invitation))
            .await
        {
            Some(Ok(_)) => return Ok(last),
            Some(Err(e)) if no_member_yet(&e) => last = Some(e),
            Some(Err(e)) => {
                return Err(Error {
                    message: format!(
                        "joining namespace {ns} failed (nothing was joined): {}",
                        e.message
                    ),
                    ..e
                });
            }
            None => last = None,
        }
        if !pace.next().await {
            return Err(incomplete(
                "the namespace was not joined: no member of it could be reached",
                last,
                ns,
                ctx,
                pace,
            ));
        }
    }
}

/// Step 2 of a join: the context, known once the namespace's state arrived.
/// Returns the member key and the last error retried after.
async fn join_context(
    client: &Client,
    inv: &Invitation,
    pace: &Pace,
    mut last: Option<Error>,
) -> Result<(String, Option<Error>)> {
    let (ns, ctx) = (&inv.namespace_id, &inv.context_id);
    loop {
        match pace.attempt(client.join_context(ctx)).await {
            Some(Ok(key)) => return Ok((key, last)),
            Some(Err(e)) if e.kind == ErrorKind::Remote => last = Some(e),
            Some(Err(e)) => return Err(e),
            None => last = None,
        }
        if !pace.next().await {
            return Err(incomplete(
                "the namespace was joined, but the node does not know the context yet",
                last,
                ns,
                ctx,
                pace,
            ));
        }
    }
}

/// The hint for an install-by-path the node could not read.
const PATH_HINT: &str = "the node reads the path on its own machine: it must run on this machine and see the file (a node in a container or on another host does not). Otherwise serve the file over https and pass its URL, or copy it where the node can read it";

impl Session {
    /// Installs an app from SOURCE. A local module or bundle is loaded
    /// first (an invalid one is refused before anything is sent) and the
    /// node is given its absolute path; a bundle's manifest `metadata` is the
    /// app's metadata unless `metadata` is given.
    pub async fn install_app(
        &self,
        source: &Source,
        package: Option<&str>,
        version: Option<&str>,
        metadata: Option<&Value>,
    ) -> Result<Installed> {
        let client = self.client_for("installing an app")?;
        let meta = metadata_bytes(metadata)?;
        match source {
            Source::Registry { package, version } => Err(no_registry(client, package, version)),
            Source::Url(url) => install_url(client, url, &meta).await,
            Source::Path(path) => {
                let abs = std::path::absolute(path).map_err(|e| {
                    Error::input(
                        Code::Unreadable,
                        format!("cannot read {}: {e}", path.display()),
                    )
                })?;
                let loaded = self.checked_local(&abs, package)?;
                // A bundle's own metadata, unless --metadata was given.
                let meta = match (metadata, calimcp_core::abi::load::bundle_metadata(&abs)?) {
                    (None, Some(own)) => metadata_bytes(Some(&own))?,
                    _ => meta,
                };
                let package = package
                    .map(str::to_string)
                    .or_else(|| loaded.as_ref().and_then(|a| a.package.clone()));
                let version = version
                    .map(str::to_string)
                    .or_else(|| loaded.as_ref().and_then(|a| a.version.clone()));
                let text = abs.to_string_lossy().into_owned();
                let id = client
                    .install_dev_application(&text, &meta, package.as_deref(), version.as_deref())
                    .await
                    .map_err(|e| {
                        if e.message.contains("not found at") || e.message.contains("not permitted")
                        {
                            e.with_hint(PATH_HINT)
                        } else {
                            e
                        }
                    })?;
                Ok(Installed {
                    application_id: id,
                    package,
                    version,
                })
            }
        }
    }

    /// The app at `abs` as calimcp reads it (what the node will store must
    /// be an app calimcp can read), its ABI checked as the node checks it
    /// (the rules `diff` applies): an embedded ABI the node refuses is one it
    /// silently ignores. `None` (with a note) for a module without an ABI.
    pub(crate) fn checked_local(&self, abs: &Path, package: Option<&str>) -> Result<Option<App>> {
        let mut skipped = Vec::new();
        let opts = LoadOptions {
            package: package.map(str::to_string),
        };
        let app = match calimcp_core::abi::load::load_path(abs, &opts, &mut skipped) {
            Ok(apps) => apps.into_iter().next(),
            Err(e) if e.code == Code::NoEmbeddedAbi => {
                self.note(format!(
                    "{}: the module carries no ABI: calimcp cannot describe or call it (build it with the ABI embedded)",
                    abs.display()
                ));
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        let Some(app) = app else {
            return Ok(None);
        };
        let refused: Vec<String> = app
            .services
            .iter()
            .flat_map(|s| calimcp_core::abi::lint::refusals(&s.manifest))
            .collect();
        if refused.is_empty() {
            return Ok(Some(app));
        }
        Err(Error::input(
            Code::InvalidAbi,
            format!(
                "{}: the node would ignore this app's ABI, so nothing could describe or call it; nothing was sent: {}",
                abs.display(),
                sanitize_line(&refused.join("; "))
            ),
        )
        .with_hint("fix the manifest (rebuild the app with the SDK) and install again"))
    }

    /// Removes the installed versions of `app` (the one `version` names, or
    /// every one), refused while contexts run them unless `force`.
    pub async fn uninstall_app(
        &self,
        app: &App,
        version: Option<&str>,
        force: bool,
    ) -> Result<Uninstalled> {
        let client = self.client_for("uninstalling an app")?;
        let installs = match version {
            Some(_) => vec![chosen_install(client, app, version).await?],
            None => {
                let all = super::context::installs_of(client, app).await?;
                if all.is_empty() {
                    return Err(chosen_install(client, app, None)
                        .await
                        .err()
                        .unwrap_or_else(|| {
                            Error::input(Code::NotInstalled, "the app is not installed")
                        }));
                }
                all
            }
        };
        let mut contexts = Vec::new();
        for i in &installs {
            for c in client.contexts_for_application(&i.id).await? {
                contexts.push(c.id);
            }
        }
        if !contexts.is_empty() && !force {
            let shown: Vec<String> = contexts.iter().map(|c| sanitize_line(c)).collect();
            return Err(Error::input(
                Code::AppInUse,
                format!(
                    "{} is still run by {} context{} on the node at {}: {}",
                    sanitize_line(app.package_or_id()),
                    contexts.len(),
                    if contexts.len() == 1 { "" } else { "s" },
                    client.url(),
                    shown.join(", ")
                ),
            )
            .with_hint("delete them first (calimcp context delete CTX), or pass --force (they keep the code they have; new contexts of the app cannot be created)"));
        }
        let mut removed = Vec::new();
        for i in &installs {
            client.uninstall_application(&i.id).await?;
            removed.push(i.id.clone());
        }
        Ok(Uninstalled {
            application_ids: removed,
            contexts,
        })
    }

    /// Creates a context of `app`: its init arguments checked first, then
    /// (without `namespace`) a namespace for it, the context, and its alias.
    pub async fn create_context(&self, app: &App, req: &CreateRequest) -> Result<ContextCreated> {
        let service = req.service.as_deref();
        let init = init_arguments(app, service, &req.args)?;
        if let Some(ns) = &req.namespace
            && !is_group_id(ns)
        {
            return Err(Error::input(
                Code::Usage,
                format!(
                    "--namespace `{}` is not a namespace id (64 hex characters)",
                    sanitize_line(ns)
                ),
            ));
        }
        let client = self.client_for("creating a context")?;
        let install = chosen_install(client, app, req.version.as_deref()).await?;
        let (namespace, made) = match &req.namespace {
            Some(ns) => (ns.clone(), false),
            None => (
                client
                    .create_namespace(&install.id, req.name.as_deref())
                    .await?,
                true,
            ),
        };
        let created = client
            .create_context(&NewContext {
                application_id: &install.id,
                group_id: &namespace,
                init: &init,
                service,
                name: req.name.as_deref(),
            })
            .await
            .map_err(|e| {
                if made {
                    let hint = format!(
                        "namespace {namespace} was created for it and is empty: run the command again with --namespace {namespace} to use it"
                    );
                    e.with_hint(hint)
                } else {
                    e
                }
            })?;
        let alias = match &req.alias {
            Some(a) => {
                client
                    .create_context_alias(a, &created.context_id)
                    .await
                    .map_err(|e| {
                        let msg = format!(
                            "context {} was created (namespace {namespace}), but its alias was not set: {}",
                            created.context_id, e.message
                        );
                        Error { message: msg, ..e }.with_hint(format!(
                            "set it with: calimcp context alias add NAME {}",
                            created.context_id
                        ))
                    })?;
                Some(a.clone())
            }
            None => None,
        };
        Ok(ContextCreated {
            context_id: created.context_id,
            namespace_id: created.group_id.unwrap_or(namespace),
            member_public_key: created.member_public_key,
            alias,
        })
    }

    /// The context `value` names (an id or an alias), as the node writes it.
    pub(crate) async fn context_id_of(&self, value: &str) -> Result<String> {
        let client = self.client()?;
        let target = super::call::bind_named(client, value).await?;
        Ok(client.node_id(&target.info.id))
    }

    /// An invitation for another node into the namespace of context `value`.
    pub async fn invite(&self, value: &str) -> Result<Invitation> {
        let client = self.client_for("inviting to a context")?;
        let context_id = self.context_id_of(value).await?;
        let Some(namespace_id) = client.context_group_id(&context_id).await? else {
            return Err(Error::input(
                Code::Usage,
                format!(
                    "context {} is in no namespace on the node at {}: it cannot be joined by invitation",
                    sanitize_line(&context_id),
                    client.url()
                ),
            ));
        };
        let invitation = client.invite_to_namespace(&namespace_id).await?;
        Ok(Invitation {
            namespace_id,
            context_id,
            invitation,
        })
    }

    /// Joins the namespace and the context of `inv` on this node, then
    /// waits (within `within`) until the context's state and its app's code
    /// have arrived. `progress` is told each stage.
    pub async fn join(
        &self,
        inv: &Invitation,
        alias: Option<&str>,
        within: Duration,
        progress: &mut (dyn FnMut(&str) + Send),
    ) -> Result<Joined> {
        check_invitation(inv)?;
        let client = self.client_for("joining a context")?;
        let pace = Pace::new(Duration::from_secs(2), within);
        let ctx = &inv.context_id;
        progress("joining the namespace");
        let last = join_namespace(client, inv, &pace).await?;
        progress("joining the context");
        let (member_public_key, last) = join_context(client, inv, &pace, last).await?;
        progress("waiting for the app's code and the context's state");
        self.until_ready(client, inv, &pace, last).await?;
        if let Some(a) = alias {
            client.create_context_alias(a, ctx).await.map_err(|e| {
                let msg = format!(
                    "context {ctx} was joined and is ready, but its alias was not set: {}",
                    e.message
                );
                Error { message: msg, ..e }
                    .with_hint(format!("set it with: calimcp context alias add NAME {ctx}"))
            })?;
        }
        Ok(Joined {
            context_id: client.node_id(ctx),
            namespace_id: inv.namespace_id.clone(),
            member_public_key,
            alias: alias.map(str::to_string),
            ready: true,
        })
    }

    /// Step 3 of a join: waits until the app's code and the context's state
    /// have arrived (`last`: the last error of the steps before).
    async fn until_ready(
        &self,
        client: &Client,
        inv: &Invitation,
        pace: &Pace,
        mut last: Option<Error>,
    ) -> Result<()> {
        let mut waiting_for = "the context";
        loop {
            match pace.attempt(self.ready(client, &inv.context_id)).await {
                Some(Ok(None)) => return Ok(()),
                Some(Ok(Some(what))) => waiting_for = what,
                Some(Err(e)) if e.retryable || e.kind == ErrorKind::Remote => {
                    last = Some(e);
                }
                Some(Err(e)) => return Err(e),
                None => {}
            }
            if !pace.next().await {
                return Err(incomplete(
                    &format!(
                        "the namespace and the context were joined, but {waiting_for} has not arrived on this node yet"
                    ),
                    last.take(),
                    &inv.namespace_id,
                    &inv.context_id,
                    pace,
                ));
            }
        }
    }

    /// `None` when context `ctx` can be used on this node; else what has
    /// not arrived yet.
    async fn ready(&self, client: &Client, ctx: &str) -> Result<Option<&'static str>> {
        let Some(info) = client.context(ctx).await? else {
            return Ok(Some("the context"));
        };
        let apps = client.applications().await?;
        let Some(app) = apps.iter().find(|a| ids::same(&a.id, &info.application_id)) else {
            return Ok(Some("the app's code"));
        };
        match client.abi(app, info.service_name.as_deref()).await {
            Err(e) if e.code == Code::CodePending => return Ok(Some("the app's code")),
            // Code without an ABI is there all the same.
            _ => {}
        }
        match super::wait::initialized(client, &info).await? {
            Some(false) => Ok(Some("the context's state")),
            _ => Ok(None),
        }
    }

    /// Deletes context `value` (an id or an alias) from this node.
    pub async fn delete_context(&self, value: &str) -> Result<Deleted> {
        let client = self.client_for("deleting a context")?;
        let context_id = self.context_id_of(value).await?;
        let deleted = client.delete_context(&context_id).await?;
        Ok(Deleted {
            context_id,
            deleted,
        })
    }

    /// Sets alias `alias` for context `value` on this node.
    pub async fn set_alias(&self, alias: &str, value: &str) -> Result<AliasRow> {
        check_alias(alias)?;
        let client = self.client_for("setting an alias")?;
        let context_id = self.context_id_of(value).await?;
        client.create_context_alias(alias, &context_id).await?;
        Ok(AliasRow {
            alias: alias.to_string(),
            context_id: Some(context_id),
        })
    }

    /// Removes alias `alias` on this node; an unknown alias is an error.
    pub async fn remove_alias(&self, alias: &str) -> Result<AliasRow> {
        let client = self.client_for("removing an alias")?;
        if client.lookup_context_alias(alias).await?.is_none() {
            return Err(Error::input(
                Code::UnknownContext,
                format!(
                    "the node at {} has no context alias `{}`",
                    client.url(),
                    sanitize_line(alias)
                ),
            )
            .with_hint("list them with: calimcp context alias list"));
        }
        client.delete_context_alias(alias).await?;
        Ok(AliasRow {
            alias: alias.to_string(),
            context_id: None,
        })
    }

    /// Every context alias on this node.
    pub async fn aliases(&self) -> Result<Vec<AliasRow>> {
        let client = self.client_for("listing aliases")?;
        Ok(client
            .context_aliases()
            .await
            .into_iter()
            .map(|(alias, id)| AliasRow {
                alias,
                context_id: Some(id),
            })
            .collect())
    }
}

/// Aliases as rc.25 takes them (rc.4 takes more, but such an alias would
/// not move to a newer node): 1 to 50 of `[A-Za-z0-9._-]`.
pub fn check_alias(alias: &str) -> Result<()> {
    let ok = !alias.is_empty()
        && alias.len() <= 50
        && alias
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    if ok {
        return Ok(());
    }
    Err(Error::input(
        Code::Usage,
        format!(
            "`{}` is not a usable alias: 1 to 50 characters of A-Z a-z 0-9 . _ -",
            sanitize_line(alias)
        ),
    ))
}

/// An invitation file as `context invite` writes it.
pub fn check_invitation(inv: &Invitation) -> Result<()> {
    let bad = |why: &str| {
        Error::input(
            Code::InvalidInvitation,
            format!("the invitation is not one `calimcp context invite` wrote: {why}"),
        )
        .with_hint("ask for a new one on the inviting node: calimcp context invite CTX -o FILE")
    };
    if !is_group_id(&inv.namespace_id) {
        return Err(bad("`namespaceId` is not 64 hex characters"));
    }
    if !ids::is_id(&inv.context_id) {
        return Err(bad("`contextId` is not a context id"));
    }
    match invitation_group(&inv.invitation) {
        Some(g) if g.eq_ignore_ascii_case(&inv.namespace_id) => Ok(()),
        Some(_) => Err(bad("its `invitation` is for another namespace")),
        None => Err(bad("`invitation` is not the node's signed invitation")),
    }
}

/// The node found no member to join the namespace through (yet).
fn no_member_yet(e: &Error) -> bool {
    e.status == Some(504)
        || e.message.contains("mesh peer")
        || e.message.contains("reach any member")
}

fn incomplete(what: &str, last: Option<Error>, ns: &str, ctx: &str, pace: &Pace) -> Error {
    let last = last
        .map(|e| format!(" (the node's last answer: {})", e.message))
        .unwrap_or_default();
    let _ = ns;
    Error::new(
        ErrorKind::Timeout,
        Code::JoinIncomplete,
        format!(
            "{what} within {} s{last}",
            pace.within().as_secs_f64()
        ),
    )
    .with_hint(format!(
        "run the same `calimcp context join` again to finish (what is done is not repeated), with a longer --within; the inviting node must be running and reachable. `calimcp wait {ctx}` waits for the context alone"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_told_apart() {
        assert_eq!(
            Source::parse("https://x.io/a.wasm"),
            Source::Url("https://x.io/a.wasm".into())
        );
        assert_eq!(
            Source::parse("com.x.kv@1.0.0"),
            Source::Registry {
                package: "com.x.kv".into(),
                version: "1.0.0".into()
            }
        );
        assert_eq!(
            Source::parse("./dir/a@1.wasm"),
            Source::Path("./dir/a@1.wasm".into())
        );
        assert_eq!(Source::parse("app.wasm"), Source::Path("app.wasm".into()));
    }

    #[test]
    fn apps_name_their_version_by_at_or_by_id() {
        let id = "1".repeat(64);
        assert_eq!(
            app_and_version("com.x.kv@1.2.0"),
            ("com.x.kv".into(), Some("1.2.0".into()))
        );
        assert_eq!(app_and_version("com.x.kv"), ("com.x.kv".into(), None));
        assert_eq!(app_and_version(&id), (id.clone(), Some(id.clone())));
        assert_eq!(
            app_and_version("./dir@x/abi.json"),
            ("./dir@x/abi.json".into(), None)
        );
    }

    #[test]
    fn aliases_are_checked() {
        assert!(check_alias("kv-main.1_x").is_ok());
        assert!(check_alias("bad alias!").is_err());
        assert!(check_alias(&"a".repeat(51)).is_err());
    }
}
