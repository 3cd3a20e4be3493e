//! Apps from the node, as [`App`]s: id = the node's application id, source =
//! the node URL, one service per entry of the app's `services` (or one
//! unnamed service). ABIs come through [`Client::abi`] (disk-cached; from the
//! node's ABI route, or from the app's module on nodes without it) and are
//! parsed leniently, like local manifests. An app whose ABI cannot be read
//! becomes one warning, saying what to do.

use std::collections::HashSet;

use tokio::task::JoinSet;

use super::Catalog;
use calimcp_core::abi::{self, App, Service};
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::text::sanitize_line;
use calimcp_node::{Client, NodeApp};

impl Catalog {
    /// The packages of the apps loaded so far (those a node app of the same
    /// package is shadowed by).
    pub(crate) fn packages(&self) -> HashSet<String> {
        self.apps.iter().filter_map(|a| a.package.clone()).collect()
    }
}

/// An app of the node without services: what is known of it before its ABI.
pub(crate) fn shell(client: &Client, a: &NodeApp) -> App {
    let mut app = App {
        id: a.id.clone().into(),
        package: a.package.clone(),
        version: a.version.clone(),
        name: a.name.clone(),
        signer: a.signer_id.clone(),
        code_blob: a
            .bytecode_blob
            .as_deref()
            .and_then(calimcp_node::ids::decode),
        source: client.url().to_string(),
        ..App::default()
    };
    app.guide = a
        .guide
        .as_deref()
        .and_then(|g| bounded(abi::meta::guide(g), &mut app));
    app.icon = a
        .icon
        .as_deref()
        .and_then(|i| bounded(abi::meta::icon(i), &mut app))
        .map(Into::into);
    app
}

/// A bounded guide or icon, or `None` with its warning (labelled with the app).
fn bounded<T>(r: std::result::Result<Option<T>, abi::Warning>, app: &mut App) -> Option<T> {
    r.unwrap_or_else(|mut w| {
        w.source = format!("{} ({})", app.source, app.package_or_id());
        app.warnings.push(w);
        None
    })
}

/// One service's ABI request: its position among the app's services, its name, the result.
type Fetched = (usize, Option<String>, Result<serde_json::Value>);

/// Every app of the node: those whose ABIs could be read, and the others
/// (without services) with the reason.
pub(crate) async fn load(client: &Client) -> Result<(Vec<App>, Vec<(App, Error)>)> {
    load_except(client, &HashSet::new()).await
}

/// [`load`] without reading the ABIs of the apps whose package is in `skip`
/// (those a local app shadows): they come back without services, so the
/// local app learns its installs on the node, and nothing is said of them.
pub(crate) async fn load_except(
    client: &Client,
    skip: &HashSet<String>,
) -> Result<(Vec<App>, Vec<(App, Error)>)> {
    let mut listed = client.applications().await?;
    let shadowed: Vec<App> = listed
        .iter()
        .filter(|a| a.package.as_ref().is_some_and(|p| skip.contains(p)))
        .map(|a| shell(client, a))
        .collect();
    listed.retain(|a| a.package.as_ref().is_none_or(|p| !skip.contains(p)));
    let fetched = fetch_abis(client, &listed).await?;
    let mut apps = shadowed;
    let mut unusable = Vec::new();
    for (a, mut results) in listed.iter().zip(fetched) {
        results.sort_by_key(|r| r.0);
        // An app installed from a multi-service bundle on a node that lists
        // no services (before rc.19): one ABI per service of the bundle.
        if let [(_, None, Err(e))] = results.as_slice()
            && e.code == Code::BundleServices
            && let Some(names) = client.bundle_services_of(a)
        {
            let mut per_service = Vec::new();
            for (j, name) in names.into_iter().enumerate() {
                let abi = client.abi(a, Some(&name)).await;
                per_service.push((j, Some(name), abi));
            }
            results = per_service;
        }
        match with_services(client, a, results) {
            // An unreachable node fails every request alike: that is the node's error.
            Err(e) if e.kind == calimcp_core::ErrorKind::Unreachable => return Err(e),
            Err(e) => {
                let name = sanitize_line(a.package_or_id());
                let e = if e.message.starts_with(&name) {
                    e
                } else {
                    e.context(name)
                };
                unusable.push((shell(client, a), e));
            }
            Ok(app) => apps.push(app),
        }
    }
    Ok((apps, unusable))
}

/// The ABI of every service of every app in `listed`, requested together:
/// per app, in the order they came.
async fn fetch_abis(client: &Client, listed: &[NodeApp]) -> Result<Vec<Vec<Fetched>>> {
    let mut tasks = JoinSet::new();
    for (i, a) in listed.iter().enumerate() {
        let services: Vec<Option<String>> = if a.services.is_empty() {
            vec![None]
        } else {
            a.services.iter().map(|(n, _)| Some(n.clone())).collect()
        };
        for (j, service) in services.into_iter().enumerate() {
            let (client, a) = (client.clone(), a.clone());
            tasks.spawn(async move {
                let abi = client.abi(&a, service.as_deref()).await;
                (i, j, service, abi)
            });
        }
    }
    let mut fetched: Vec<Vec<Fetched>> = listed.iter().map(|_| Vec::new()).collect();
    while let Some(done) = tasks.join_next().await {
        let (i, j, service, abi) =
            done.map_err(|e| Error::internal(format!("an ABI request failed to run: {e}")))?;
        fetched[i].push((j, service, abi));
    }
    Ok(fetched)
}

/// The node app `a` with a service per ABI in `results` (in order), or the
/// first reason one could not be read.
fn with_services(client: &Client, a: &NodeApp, results: Vec<Fetched>) -> Result<App> {
    let mut app = shell(client, a);
    for (_, service, abi) in results {
        let source = match &service {
            Some(s) => format!("{} ({}, service {})", client.url(), a.package_or_id(), s),
            None => format!("{} ({})", client.url(), a.package_or_id()),
        };
        let manifest =
            abi.and_then(|v| abi::load::manifest_from_value(&v, &source, &mut app.warnings))?;
        app.services.push(Service {
            name: service,
            manifest: manifest.into(),
        });
    }
    Ok(app)
}
impl crate::session::Session {
    /// The node's apps whose ABI could be read, and the others with the
    /// reason ([`load`] with the session's client).
    pub async fn node_apps(&self) -> Result<(Vec<App>, Vec<(App, Error)>)> {
        load(self.client()?).await
    }

    /// The node's apps as rows (one application id and version each, those
    /// whose ABI could not be read included) and the same assembled as the
    /// catalog assembles them (grouped by package, named), read once.
    pub async fn node_rows_and_apps(&self) -> Result<(Vec<App>, Catalog)> {
        let (rows, unusable) = self.node_apps().await?;
        let grouped =
            Catalog::default().with_node_apps(rows.clone(), unusable.clone(), &self.settings.tools);
        let mut all = rows;
        all.extend(unusable.into_iter().map(|(a, _)| a));
        Ok((all, grouped))
    }
}
