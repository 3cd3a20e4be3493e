//! The one rule that puts the local apps and the node's together, for every
//! command and the server alike.
//!
//! 1. **Identity.** Which node rows a local app is: [`identity`] (its
//!    package; its module's bytes, the blob id the node lists; its ABI only
//!    when no module is at hand, and never when rows of two apps have it). A
//!    node app listed without a package (a node that joined a context
//!    received the app by blob share: rc.25 lists no package, rc.4
//!    `unknown` `0.0.0`, both read as none by [`calimcp_node`]) that a local
//!    app is takes its package, version and name, so one app has one name on
//!    every node. Without one it is named after its application id.
//! 2. **Versions.** A node lists each installed version of a package as an
//!    application of its own. The rows of one package and signer are one app:
//!    the newest version with a readable ABI stands for it, and every row is
//!    one of its [`Install`]s (newest first), so its contexts are found on all
//!    of them and one set of tool names serves them all. Rows whose ABI could
//!    not be read are kept as installs with the reason; only a package none of
//!    whose rows can be read is left out.
//! 3. **Shadowing.** A node app that a local app is (its package, or a row
//!    with the local module's bytes: a file under any name) is not listed
//!    again: the local manifest names and describes it, and the node's rows
//!    become the local app's installs. A local app whose package is only its
//!    file's name (`kv.wasm` → `kv`) takes the node app's package, version
//!    and name instead: the node's package wins over a file name. A local
//!    app without a guide or icon takes the node's (a bare `abi.json` carries
//!    no metadata).
//! 4. **Names.** Local apps are named first, then the node's in the order a
//!    [`Naming`] first saw them; a slug once given out keeps its app
//!    ([`mapping::toolset::app_slugs_with`]). Names never depend on the order
//!    a node lists its apps in.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashSet};

use super::{Catalog, identity};
use calimcp_core::abi::{App, Install};
use calimcp_core::error::Error;
use calimcp_core::mapping::{self, ToolOptions, ToolSet};

/// How a catalog names node apps over its life: the order it first saw them
/// and the slugs it has given out. A CLI command starts empty; a server keeps
/// one for its whole life, so a name never moves to another app.
#[derive(Debug, Clone, Default)]
pub(crate) struct Naming {
    /// Node app keys ([`mapping::toolset::slug_key`]) in first-seen order.
    seen: Vec<String>,
    /// Slugs given out, by app key.
    slugs: BTreeMap<String, String>,
    /// Whether given-out slugs are kept (a server) or not (one command).
    sticky: bool,
}

impl Naming {
    /// Naming for a server: names, once given out, stay with their app.
    pub(crate) fn sticky() -> Naming {
        Naming {
            sticky: true,
            ..Naming::default()
        }
    }
}

/// The catalog a server keeps for its whole life: its local apps (read
/// once) and the names it has given out, so that every re-read of the
/// node's apps is assembled as the first was and a name never moves to
/// another app.
pub struct Served {
    local: Catalog,
    naming: std::sync::Mutex<Naming>,
}

impl Served {
    /// A server's catalog starting from its local apps.
    pub fn new(local: Catalog) -> Served {
        Served {
            local: Catalog {
                apps: local.apps,
                skipped: local.skipped,
                ..Catalog::default()
            },
            naming: std::sync::Mutex::new(Naming::sticky()),
        }
    }

    /// The packages of the local apps: the node's apps of these packages
    /// are shadowed, so their ABIs need not be read.
    pub fn local_packages(&self) -> HashSet<String> {
        self.local.packages()
    }

    /// The local apps and the node's `apps` (and those `unusable`), as one
    /// catalog with its tools.
    pub fn with_node_apps(
        &self,
        (apps, unusable): (Vec<App>, Vec<(App, Error)>),
        opts: &ToolOptions,
    ) -> Catalog {
        let mut naming = self.naming.lock().unwrap_or_else(|e| e.into_inner());
        self.local
            .clone()
            .with_node_apps_named(apps, unusable, opts, &mut naming)
    }
}

/// Compares two versions the way semver orders them, leniently: numeric dot
/// parts numerically, a pre-release before its release, anything that is not
/// a version after every version (then by text).
pub(crate) fn compare_versions(a: Option<&str>, b: Option<&str>) -> Ordering {
    fn parse(v: &str) -> Option<(Vec<u64>, Option<&str>)> {
        let v = v.trim().trim_start_matches('v');
        let v = v.split('+').next()?;
        let (core, pre) = match v.split_once('-') {
            Some((c, p)) => (c, Some(p)),
            None => (v, None),
        };
        let nums = core
            .split('.')
            .map(|p| p.parse::<u64>().ok())
            .collect::<Option<Vec<u64>>>()?;
        Some((nums, pre))
    }
    fn pre_cmp(a: &str, b: &str) -> Ordering {
        let (pa, pb): (Vec<&str>, Vec<&str>) = (a.split('.').collect(), b.split('.').collect());
        for (x, y) in pa.iter().zip(&pb) {
            let o = match (x.parse::<u64>(), y.parse::<u64>()) {
                (Ok(x), Ok(y)) => x.cmp(&y),
                (Ok(_), Err(_)) => Ordering::Less,
                (Err(_), Ok(_)) => Ordering::Greater,
                (Err(_), Err(_)) => x.cmp(y),
            };
            if o != Ordering::Equal {
                return o;
            }
        }
        pa.len().cmp(&pb.len())
    }
    match (a.and_then(parse), b.and_then(parse)) {
        (Some((na, pa)), Some((nb, pb))) => {
            let len = na.len().max(nb.len());
            let pad = |n: &Vec<u64>| {
                (0..len)
                    .map(|i| n.get(i).copied().unwrap_or(0))
                    .collect::<Vec<_>>()
            };
            pad(&na).cmp(&pad(&nb)).then_with(|| match (pa, pb) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (Some(x), Some(y)) => pre_cmp(x, y),
            })
        }
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => a.cmp(&b),
    }
}

/// The key node rows of one app share: package and signer (rows without a
/// package are apps of their own).
fn group_key(app: &App) -> Option<(String, Option<String>)> {
    app.package.clone().map(|p| (p, app.signer.clone()))
}

fn install(app: &App, unusable: Option<&Error>) -> Install {
    Install {
        id: app.id.to_string(),
        version: app.version.clone(),
        unusable: unusable.map(|e| e.message.clone()),
    }
}

/// Rule 1: the node rows each local app is ([`identity::rows_of`]), by
/// application id (none for a local app that cannot be told apart); rows
/// without a package that one local app is take that app's identity.
fn identify(node: &mut [App], unusable: &mut [(App, Error)], local: &[App]) -> Vec<Vec<String>> {
    let claims: Vec<Vec<String>> = {
        let rows: Vec<&App> = node.iter().chain(unusable.iter().map(|(a, _)| a)).collect();
        local
            .iter()
            .map(|l| match identity::rows_of(l, &rows) {
                identity::Found::Rows(found) => {
                    found.iter().map(|&i| rows[i].id.to_string()).collect()
                }
                identity::Found::Ambiguous(_) => Vec::new(),
            })
            .collect()
    };
    let rows = node.iter_mut().chain(unusable.iter_mut().map(|(a, _)| a));
    for app in rows.filter(|a| a.package.is_none()) {
        if let Some(l) = local
            .iter()
            .zip(&claims)
            .find(|(_, c)| c.iter().any(|id| **id == *app.id))
            .map(|(l, _)| l)
        {
            app.package = l.package.clone();
            app.version = app.version.take().or_else(|| l.version.clone());
            app.name = app.name.take().or_else(|| l.name.clone());
        }
    }
    claims
}

/// Node apps whose ABI was read, and the others with the reason.
type Listing = (Vec<App>, Vec<(App, Error)>);

/// One node row and why its ABI could not be read, if it could not.
type Row = (App, Option<Error>);

/// Rule 2: the rows of one package and signer become one app.
fn group_versions(node: Vec<App>, unusable: Vec<(App, Error)>) -> Listing {
    let mut rows: Vec<Row> = node.into_iter().map(|a| (a, None)).collect();
    rows.extend(unusable.into_iter().map(|(a, e)| (a, Some(e))));
    // Newest first; a readable row before an unreadable one of the same version.
    rows.sort_by(|(a, ea), (b, eb)| {
        compare_versions(b.version.as_deref(), a.version.as_deref())
            .then_with(|| ea.is_some().cmp(&eb.is_some()))
            .then_with(|| a.id.cmp(&b.id))
    });
    let mut apps: Vec<App> = Vec::new();
    let mut left_out: Vec<(App, Error)> = Vec::new();
    let mut groups: BTreeMap<(String, Option<String>), Vec<Row>> = BTreeMap::new();
    for (app, err) in rows {
        match group_key(&app) {
            Some(key) => groups.entry(key).or_default().push((app, err)),
            None => {
                let inst = install(&app, err.as_ref());
                match err {
                    Some(e) => left_out.push((
                        App {
                            installs: vec![inst],
                            ..app
                        },
                        e,
                    )),
                    None => apps.push(App {
                        installs: vec![inst],
                        ..app
                    }),
                }
            }
        }
    }
    for (_, rows) in groups {
        let installs: Vec<Install> = rows.iter().map(|(a, e)| install(a, e.as_ref())).collect();
        let mut rows = rows;
        let chosen = rows.iter().position(|(_, e)| e.is_none()).unwrap_or(0);
        match rows.swap_remove(chosen) {
            (app, None) => apps.push(App { installs, ..app }),
            (app, Some(e)) => left_out.push((App { installs, ..app }, e)),
        }
    }
    (apps, left_out)
}

impl Catalog {
    /// Adds the node's apps after the local ones ([the module's rules](self))
    /// and builds the tool set, with names from a fresh [`Naming`].
    pub(crate) fn with_node_apps(
        self,
        node: Vec<App>,
        unusable: Vec<(App, Error)>,
        opts: &ToolOptions,
    ) -> Catalog {
        self.with_node_apps_named(node, unusable, opts, &mut Naming::default())
    }

    /// [`Catalog::with_node_apps`] naming with `naming` (and recording in it
    /// the names given out, when it is sticky).
    pub(crate) fn with_node_apps_named(
        self,
        mut node: Vec<App>,
        unusable: Vec<(App, Error)>,
        opts: &ToolOptions,
        naming: &mut Naming,
    ) -> Catalog {
        let Catalog {
            mut apps, skipped, ..
        } = self;
        let mut unusable = unusable;
        let claims = identify(&mut node, &mut unusable, &apps);
        let (node, unusable) = group_versions(node, unusable);
        let (shadowed, shadowed_out) = shadow(&mut apps, &claims, &node, &unusable);
        let first = apps.len();
        apps.extend(
            node.into_iter()
                .enumerate()
                .filter(|(i, _)| !shadowed.contains(i))
                .map(|(_, a)| a),
        );
        let ranks = naming.ranks(&apps, first);
        let tools = naming.tools(&apps, &ranks, opts);
        let mut catalog = Catalog::from_parts(apps, tools, skipped);
        catalog.unusable = unusable
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !shadowed_out.contains(i))
            .map(|(_, u)| u)
            .collect();
        catalog
    }
}

/// Rule 3: a local app takes the node apps it is (by package or code): their
/// installs become its own. Returns which of `node` and of `unusable` it took.
fn shadow(
    apps: &mut [App],
    claims: &[Vec<String>],
    node: &[App],
    unusable: &[(App, Error)],
) -> (HashSet<usize>, HashSet<usize>) {
    let mut shadowed: HashSet<usize> = HashSet::new();
    let mut shadowed_out: HashSet<usize> = HashSet::new();
    for (local, claim) in apps.iter_mut().zip(claims) {
        let mine = |a: &App| a.installs.iter().any(|i| claim.contains(&i.id));
        for (i, a) in node.iter().enumerate() {
            if mine(a) {
                local.installs.extend(a.installs.iter().cloned());
                local.guide = local.guide.take().or_else(|| a.guide.clone());
                local.icon = local.icon.take().or_else(|| a.icon.clone());
                shadowed.insert(i);
                if local.package_from_file && a.package.is_some() {
                    local.package = a.package.clone();
                    local.version = a.version.clone();
                    local.name = a.name.clone().or(local.name.take());
                    local.package_from_file = false;
                }
            }
        }
        for (i, (a, _)) in unusable.iter().enumerate() {
            if mine(a) {
                local.installs.extend(a.installs.iter().cloned());
                shadowed_out.insert(i);
            }
        }
    }
    (shadowed, shadowed_out)
}

impl Naming {
    /// Rule 4: local first (`apps` before `first`), then the node's in
    /// first-seen order (those not seen before noted now, sorted).
    fn ranks(&mut self, apps: &[App], first: usize) -> Vec<u32> {
        let mut fresh: Vec<&App> = apps[first..]
            .iter()
            .filter(|a| !self.seen.contains(&mapping::toolset::slug_key(a)))
            .collect();
        fresh.sort_by(|a, b| (a.package_or_id(), &a.id).cmp(&(b.package_or_id(), &b.id)));
        let fresh: Vec<String> = fresh
            .iter()
            .map(|a| mapping::toolset::slug_key(a))
            .collect();
        self.seen.extend(fresh);
        apps.iter()
            .enumerate()
            .map(|(i, a)| {
                if i < first {
                    0
                } else {
                    let key = mapping::toolset::slug_key(a);
                    1 + self.seen.iter().position(|k| *k == key).unwrap_or(0) as u32
                }
            })
            .collect()
    }

    /// The tool set of `apps` ranked by `ranks`, with the slugs given out
    /// before when sticky (and the new ones recorded).
    fn tools(&mut self, apps: &[App], ranks: &[u32], opts: &ToolOptions) -> ToolSet {
        let prior = if self.sticky {
            self.slugs.clone()
        } else {
            BTreeMap::new()
        };
        let tools = mapping::toolset::build_with(apps, ranks, &prior, opts);
        if self.sticky {
            for (app, slug) in apps
                .iter()
                .zip(mapping::toolset::app_slugs_with(apps, ranks, &prior))
            {
                self.slugs
                    .entry(mapping::toolset::slug_key(app))
                    .or_insert(slug);
            }
        }
        tools
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use calimcp_core::abi::Service;
    use std::sync::Arc;

    fn app(id: &str, package: Option<&str>, version: Option<&str>, methods: &[&str]) -> App {
        let manifest = calimcp_core::abi::Manifest {
            methods: methods
                .iter()
                .map(|m| calimcp_core::abi::Method {
                    name: m.to_string(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        App {
            id: id.into(),
            package: package.map(Into::into),
            version: version.map(Into::into),
            services: vec![Service {
                name: None,
                manifest: Arc::new(manifest),
            }],
            ..App::default()
        }
    }

    fn names(c: &Catalog) -> Vec<&str> {
        c.tools.tools.iter().map(|t| t.name.as_str()).collect()
    }

    #[test]
    fn versions_compare_as_semver() {
        let v = |a, b| compare_versions(Some(a), Some(b));
        assert_eq!(v("0.10.0", "0.9.9"), Ordering::Greater);
        assert_eq!(v("1.0.0-rc.2", "1.0.0"), Ordering::Less);
        assert_eq!(v("1.0.0-rc.10", "1.0.0-rc.9"), Ordering::Greater);
        assert_eq!(v("1.0", "1.0.0"), Ordering::Equal);
        assert_eq!(compare_versions(Some("1.0.0"), None), Ordering::Greater);
        assert_eq!(compare_versions(Some("x"), Some("0.0.1")), Ordering::Less);
    }

    #[test]
    fn versions_of_a_package_are_one_app_named_once() {
        let node = vec![
            app(
                "B",
                Some("com.x.events"),
                Some("0.2.0"),
                &["insert", "remove"],
            ),
            app("A", Some("com.x.events"), Some("0.1.0"), &["insert"]),
        ];
        let c = Catalog::default().with_node_apps(node, vec![], &ToolOptions::default());
        assert_eq!(c.apps.len(), 1);
        assert_eq!(c.apps[0].id, "B");
        let ids: Vec<&str> = c.apps[0].installs.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["B", "A"]);
        assert_eq!(names(&c), ["events_insert", "events_remove"]);
    }

    #[test]
    fn a_shared_app_takes_the_local_identity_and_is_not_listed_twice() {
        let local = app("L", Some("com.x.events"), Some("0.1.0"), &["insert"]);
        let shared = app("N", None, None, &["insert"]);
        let c = Catalog::new(vec![local], vec![], &ToolOptions::default()).with_node_apps(
            vec![shared],
            vec![],
            &ToolOptions::default(),
        );
        assert_eq!(c.apps.len(), 1);
        assert_eq!(c.apps[0].installs[0].id, "N");
        assert_eq!(names(&c), ["events_insert"]);
    }

    #[test]
    fn a_local_app_without_metadata_takes_the_node_apps_guide_and_icon() {
        let local = app("L", Some("com.x.events"), Some("0.1.0"), &["insert"]);
        let mut on_node = app("N", Some("com.x.events"), Some("0.1.0"), &["insert"]);
        on_node.guide = calimcp_core::abi::meta::Guide::new("## Procedures\n### Insert\n");
        on_node.icon = Some("https://example.com/i.png".into());
        on_node.installs = vec![install(&on_node, None)];
        let c = Catalog::new(vec![local], vec![], &ToolOptions::default()).with_node_apps(
            vec![on_node],
            vec![],
            &ToolOptions::default(),
        );
        assert_eq!(c.apps.len(), 1);
        let a = &c.apps[0];
        assert_eq!(a.guide.as_ref().unwrap().procedures, ["Insert"]);
        assert_eq!(a.icon.as_deref(), Some("https://example.com/i.png"));
        // Its tools carry the icon it took.
        assert_eq!(c.tools.tools[0].icon.as_deref(), a.icon.as_deref());
    }

    #[test]
    fn a_file_named_app_takes_the_node_apps_package_a_declared_one_keeps_its_own() {
        let node_row = |id: &str| App {
            code_blob: Some([7; 32]),
            ..app(id, Some("com.example.kv-c"), Some("0.2.0"), &["get"])
        };
        let file = App {
            code_blob: Some([7; 32]),
            package_from_file: true,
            ..app("L", Some("kv"), None, &["get"])
        };
        let c = Catalog::new(vec![file.clone()], vec![], &ToolOptions::default()).with_node_apps(
            vec![node_row("N")],
            vec![],
            &ToolOptions::default(),
        );
        assert_eq!(c.apps.len(), 1);
        assert_eq!(c.apps[0].package.as_deref(), Some("com.example.kv-c"));
        assert_eq!(c.apps[0].version.as_deref(), Some("0.2.0"));
        assert_eq!(c.apps[0].installs[0].id, "N");
        assert_eq!(names(&c), ["kv_c_get"]);
        // A package the user or a bundle declared is the app's own.
        let declared = App {
            package_from_file: false,
            ..file
        };
        let c = Catalog::new(vec![declared], vec![], &ToolOptions::default()).with_node_apps(
            vec![node_row("N")],
            vec![],
            &ToolOptions::default(),
        );
        assert_eq!(c.apps[0].package.as_deref(), Some("kv"));
        assert_eq!(names(&c), ["kv_get"]);
    }

    #[test]
    fn apps_without_package_keep_the_method_under_a_short_id_prefix() {
        let long = "echo_a_rather_long_method_name_i64";
        let one = app(
            "9zldiwb8rxjdffg2raj5sp3veyxhnzwstj45sm2ejx",
            None,
            None,
            &[long, "get"],
        );
        // Another app whose id starts alike: one more character tells them apart.
        let two = app(
            "9zldiwq8rxjdffg2raj5sp3veyxhnzwstj45sm2ejx",
            None,
            None,
            &["get"],
        );
        let c = Catalog::default().with_node_apps(vec![one, two], vec![], &ToolOptions::default());
        assert_eq!(
            names(&c),
            [&format!("9zldiw_{long}"), "9zldiw_get", "9zldiwq_get",]
        );
    }

    #[test]
    fn names_do_not_follow_listing_order_and_stick_in_a_server() {
        let opts = ToolOptions::default();
        let mut naming = Naming::sticky();
        let one = vec![app("Z", Some("b.notes"), None, &["get"])];
        let c = Catalog::default().with_node_apps_named(one.clone(), vec![], &opts, &mut naming);
        assert_eq!(names(&c), ["notes_get"]);
        // Another `notes` app whose package sorts first arrives: the first keeps its name.
        let two = vec![app("A", Some("a.notes"), None, &["get"]), one[0].clone()];
        let c = Catalog::default().with_node_apps_named(two, vec![], &opts, &mut naming);
        let t = c.tools.get("notes_get").unwrap();
        assert_eq!(c.apps[t.app].id, "Z");
        // The first leaves: its name is not given to the other.
        let only_a = vec![app("A", Some("a.notes"), None, &["get"])];
        let c = Catalog::default().with_node_apps_named(only_a, vec![], &opts, &mut naming);
        assert!(c.tools.get("notes_get").is_none(), "{:?}", names(&c));
    }
}
