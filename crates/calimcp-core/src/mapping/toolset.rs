//! The tool set for a list of apps: one tool per method (`init` excepted),
//! named, described, with annotations. `calimcp tools --json` and the MCP
//! server's `tools/list` are both this, serialised by [`Tool::to_mcp`].
//!
//! Schemas are computed when asked for ([`Tool::schemas`]), not kept: a
//! 5,000-method app would otherwise hold hundreds of megabytes of JSON trees
//! that `describe` never needs and `tools --json` only needs one at a time.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Arc;

use serde_json::Value;

use super::names::{self, DEFAULT_MAX_NAME_LEN};
use super::schema::{self, CONTEXT_PARAM, MethodSchemas, MethodTrees, RefMode};
use super::signature;
use super::tree::{Node, Obj, node};
use crate::abi::{App, Manifest, Method};
use crate::text::sanitize_line;

/// Fixed tools of the MCP server; generated names never take these.
pub(crate) const RESERVED_NAMES: &[&str] = &[
    "describe_app",
    "select_app",
    "wait_for_events",
    "wait_for_context",
    "call_until",
    "call_many",
];

/// Options that change the generated tools.
#[derive(Debug, Clone)]
pub struct ToolOptions {
    pub refs: RefMode,
    pub max_name_len: usize,
    /// What one listing's schemas may add up to ([`schema::SchemaBudget`]).
    pub listing_budget: usize,
}

impl Default for ToolOptions {
    fn default() -> Self {
        ToolOptions {
            refs: RefMode::Inline,
            max_name_len: DEFAULT_MAX_NAME_LEN,
            listing_budget: schema::MAX_LISTING_BYTES,
        }
    }
}

/// One generated tool.
#[derive(Debug, Clone)]
pub struct Tool {
    pub name: String,
    pub title: String,
    pub description: String,
    pub signature: String,
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    /// Index of the app in the list the set was built from.
    pub app: usize,
    pub service: Option<String>,
    /// The method name exactly as the node knows it.
    pub method: String,
    /// Whether `_context` was injected (false when the method declares it).
    pub context_injected: bool,
    /// The manifest the method comes from, and its index in `methods`.
    pub manifest: Arc<Manifest>,
    pub method_index: usize,
    /// How named types are written in this tool's schemas.
    pub refs: RefMode,
    /// Its app's icon ([`App::icon`]): MCP `icons`.
    pub icon: Option<Arc<str>>,
}

impl Tool {
    /// The method this tool calls.
    pub fn abi_method(&self) -> &Method {
        &self.manifest.methods[self.method_index]
    }

    /// The input and return schemas, with any degradations (computed on each call).
    pub fn schemas(&self) -> MethodSchemas {
        schema::method_schemas(&self.manifest, self.abi_method(), self.refs)
    }

    /// The schemas a listing shows, as built: in full, or spent
    /// ([`schema::listed_method_schemas`]).
    pub fn listed_trees(&self, spent: bool) -> MethodTrees<'_> {
        schema::listed_method_trees(&self.manifest, self.abi_method(), self.refs, spent)
    }

    /// The tool's `inputSchema`.
    pub fn input_schema(&self) -> Value {
        self.schemas().input
    }

    /// The return schema, unwrapped (`schema --output`); `None` for unit.
    pub fn return_schema(&self) -> Option<Value> {
        self.schemas().output
    }

    /// The MCP output schema: the return wrapped as `{"result": …}`.
    pub fn output_schema(&self) -> Option<Value> {
        self.listed_trees(false)
            .output
            .map(|o| schema::wrap_output(o).into_value())
    }

    /// The MCP `Tool` object, exactly as the server advertises it.
    pub fn to_mcp(&self) -> Value {
        self.to_mcp_with(self.listed_trees(false))
    }

    /// [`Tool::to_mcp`] with schemas the caller already computed (moved in,
    /// not copied; take the warnings out first if they are wanted).
    pub fn to_mcp_with(&self, schemas: MethodTrees<'_>) -> Value {
        self.mcp(schemas).into_value()
    }

    /// The MCP `Tool` object as a tree ([`Node`]), borrowing the tool's
    /// text: `tools --json` writes it as it is, [`Tool::to_mcp_with`] converts
    /// it. The keys in the order MCP clients have always seen.
    pub fn mcp<'a>(&'a self, schemas: MethodTrees<'a>) -> Node<'a> {
        let mut t = Obj::new();
        t.insert("name", self.name.as_str());
        t.insert("title", self.title.as_str());
        t.insert("description", self.description.as_str());
        t.insert("inputSchema", schemas.input);
        if let Some(out) = schemas.output {
            t.insert("outputSchema", schema::wrap_output(out));
        }
        t.insert(
            "annotations",
            node! {
                "readOnlyHint" => self.read_only,
                "destructiveHint" => self.destructive,
                "idempotentHint" => self.idempotent,
                "openWorldHint" => false,
            },
        );
        if let Some(icon) = &self.icon {
            let mut one = Obj::new();
            one.insert("src", &**icon);
            t.insert("icons", Node::Arr(vec![Node::Obj(one)]));
        }
        Node::Obj(t)
    }

    pub fn kind(&self) -> &'static str {
        if self.read_only { "view" } else { "mut" }
    }
}

/// Every tool of a list of apps, sorted by name.
#[derive(Debug, Clone, Default)]
pub struct ToolSet {
    pub tools: Vec<Tool>,
    /// Each app's slug (the prefix of its tool names), by app index.
    pub slugs: Vec<String>,
}

impl ToolSet {
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.tools[i])
    }

    /// The tools of one app (and service), in method-name order.
    pub fn for_app(&self, app: usize, service: Option<&str>) -> impl Iterator<Item = &Tool> {
        self.tools
            .iter()
            .filter(move |t| t.app == app && (service.is_none() || t.service.as_deref() == service))
    }
}

/// Ranks that put the first `first` apps before the others.
fn first_ranks(len: usize, first: usize) -> Vec<u32> {
    (0..len).map(|i| u32::from(i >= first)).collect()
}

/// The key an app's slug is kept under: its package and signer, else its id.
pub fn slug_key(app: &App) -> String {
    match (&app.package, &app.signer) {
        (Some(p), Some(s)) => format!("{p}#{s}"),
        (Some(p), None) => p.clone(),
        (None, _) => app.id.to_string(),
    }
}

/// The slugs of `apps`, named in (rank, package, id) order: an app whose
/// [`slug_key`] has a slug in `prior` keeps it, and a slug in `prior` is never
/// given to another app (a server keeps what it has announced). Otherwise the
/// first app to ask for a slug gets it; the next gets `_<id tail>`. An app
/// without package gets the shortest prefix of its id (at least 6) that is
/// free ([`id_slug`]).
pub fn app_slugs_with(
    apps: &[App],
    ranks: &[u32],
    prior: &BTreeMap<String, String>,
) -> Vec<String> {
    let rank = |i: usize| ranks.get(i).copied().unwrap_or(u32::MAX);
    let mut order: Vec<usize> = (0..apps.len()).collect();
    order.sort_by(|&a, &b| {
        (rank(a), apps[a].package_or_id(), &apps[a].id).cmp(&(
            rank(b),
            apps[b].package_or_id(),
            &apps[b].id,
        ))
    });
    let mut taken: HashSet<String> = prior.values().cloned().collect();
    let mut slugs = vec![String::new(); apps.len()];
    let mut done = vec![false; apps.len()];
    let mut used: HashSet<&String> = HashSet::new();
    for &i in &order {
        if let Some(kept) = prior.get(&slug_key(&apps[i]))
            && used.insert(kept)
        {
            slugs[i] = kept.clone();
            done[i] = true;
        }
    }
    for i in order {
        if done[i] {
            continue;
        }
        let Some(package) = &apps[i].package else {
            slugs[i] = id_slug(&apps[i].id, &mut taken);
            continue;
        };
        let base = names::app_slug(package);
        let mut slug = if taken.contains(&base) {
            format!("{base}_{}", names::id_tail(&apps[i].id))
        } else {
            base.clone()
        };
        let mut n = 2;
        while taken.contains(&slug) {
            slug = format!("{base}_{}_{n}", names::id_tail(&apps[i].id));
            n += 1;
        }
        taken.insert(slug.clone());
        slugs[i] = slug;
    }
    slugs
}

/// The slug of an app without package: the shortest prefix of its id, at
/// least 6 characters, that no slug taken is (then `_2`, … if the whole id
/// is, which only a lowercased clash can make).
fn id_slug(id: &str, taken: &mut HashSet<String>) -> String {
    let len = id.chars().filter(char::is_ascii_alphanumeric).count();
    let mut slug = (6..=len.max(6))
        .map(|n| names::id_prefix(id, n))
        .find(|s| !taken.contains(s))
        .unwrap_or_else(|| names::id_prefix(id, len));
    let mut n = 2;
    let base = slug.clone();
    while taken.contains(&slug) {
        slug = format!("{base}_{n}");
        n += 1;
    }
    taken.insert(slug.clone());
    slug
}

fn title(method: &str, app: &App) -> String {
    let words: Vec<&str> = method.split('_').filter(|w| !w.is_empty()).collect();
    let mut t = words.join(" ");
    if let Some(first) = t.get(..1) {
        t = first.to_uppercase() + &t[1..];
    }
    let owner = app.name.as_deref().unwrap_or_else(|| app.package_or_id());
    sanitize_line(&format!("{t} ({owner})"))
}

/// Builds the tool set of `apps`. Names depend only on the apps, never on the
/// order they are given in.
pub fn build(apps: &[App], opts: &ToolOptions) -> ToolSet {
    build_ranked(apps, apps.len(), opts)
}

/// [`build`] where the first `first` apps (the local ones) are named before
/// the others (the node's), so joining the others never renames their tools.
pub fn build_ranked(apps: &[App], first: usize, opts: &ToolOptions) -> ToolSet {
    build_with(
        apps,
        &first_ranks(apps.len(), first),
        &BTreeMap::new(),
        opts,
    )
}

/// The tool set with apps named in rank order and the slugs of `prior` kept
/// ([`app_slugs_with`]).
pub fn build_with(
    apps: &[App],
    ranks: &[u32],
    prior: &BTreeMap<String, String>,
    opts: &ToolOptions,
) -> ToolSet {
    let slugs = app_slugs_with(apps, ranks, prior);
    let rank = |i: usize| ranks.get(i).copied().unwrap_or(u32::MAX);
    let mut units: Vec<(usize, usize)> = Vec::new();
    for (a, app) in apps.iter().enumerate() {
        for s in 0..app.services.len() {
            units.push((a, s));
        }
    }
    units.sort_by(|x, y| {
        let (ax, ay) = (&apps[x.0], &apps[y.0]);
        (
            rank(x.0),
            ax.package_or_id(),
            &ax.id,
            &ax.services[x.1].name,
        )
            .cmp(&(
                rank(y.0),
                ay.package_or_id(),
                &ay.id,
                &ay.services[y.1].name,
            ))
    });
    let mut taken: BTreeSet<String> = RESERVED_NAMES.iter().map(|s| s.to_string()).collect();
    // Sized once: a tool is ~220 bytes, and each doubling of a growing Vec
    // is a fresh block of memory to fault in (issue 34).
    let count = units
        .iter()
        .map(|&(a, s)| apps[a].services[s].manifest.methods.len())
        .sum();
    let mut tools = Vec::with_capacity(count);
    for (a, s) in units {
        let app = &apps[a];
        let service = &app.services[s];
        let prefix = match (&service.name, app.services.len() > 1) {
            (Some(name), true) => format!("{}_{}", slugs[a], names::sanitize(name)),
            _ => slugs[a].clone(),
        };
        let mut methods: Vec<(usize, &Method)> = service
            .manifest
            .methods
            .iter()
            .enumerate()
            .filter(|(_, m)| m.name != "init")
            .collect();
        methods.sort_by(|x, y| x.1.name.cmp(&y.1.name));
        for (method_index, method) in methods {
            let full = format!("{prefix}_{}", names::sanitize(&method.name));
            let mut name = names::shorten(&full, opts.max_name_len);
            let mut n = 2;
            while taken.contains(&name) {
                let suffix = format!("_{n}");
                name = names::shorten(&full, opts.max_name_len - suffix.len()) + &suffix;
                n += 1;
            }
            taken.insert(name.clone());
            tools.push(make_tool(name, app, a, s, method_index, opts));
        }
    }
    // Names are unique (`taken`), so an unstable sort gives the one order,
    // in place: a stable sort would take a scratch copy of the tools.
    tools.sort_unstable_by(|x, y| x.name.cmp(&y.name));
    ToolSet { tools, slugs }
}

fn make_tool(
    name: String,
    app: &App,
    index: usize,
    s: usize,
    method_index: usize,
    opts: &ToolOptions,
) -> Tool {
    let service = &app.services[s];
    let method = &service.manifest.methods[method_index];
    let signature = signature::signature(method);
    let description = match &method.doc {
        Some(doc) => format!("{signature}\n\n{doc}"),
        None => signature.clone(),
    };
    let read_only = method.is_view();
    Tool {
        title: title(&method.name, app),
        name,
        description,
        signature,
        read_only,
        // MCP's default: a mutating method is destructive (an ABI cannot yet
        // mark one harmless); a view keeps the ABI's flag.
        destructive: method.destructive || !read_only,
        idempotent: method.idempotent || read_only,
        app: index,
        service: service.name.clone(),
        method: method.name.clone(),
        context_injected: !method.params.iter().any(|p| p.name == CONTEXT_PARAM),
        manifest: service.manifest.clone(),
        method_index,
        refs: opts.refs,
        icon: app.icon.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{Service, parse_manifest};

    /// Naming one local app with a package, and its tools, needs no id: the
    /// hash of its manifest is not worked out (issue 34, start-up).
    #[test]
    fn one_local_app_is_named_without_hashing_its_id() {
        let text = include_str!("../../../../examples/every-kind.json");
        let app = crate::abi::load::app_from_bytes(
            text.as_bytes().to_vec(),
            false,
            "every-kind".into(),
            "every-kind.json".into(),
        )
        .unwrap();
        let set = build(std::slice::from_ref(&app), &ToolOptions::default());
        assert!(set.tools.len() > 5, "{}", set.tools.len());
        assert!(!app.id.is_known());
        assert_eq!(app.id.len(), 16, "still there when asked: {}", app.id);
    }

    /// `tools --json` writes [`Tool::mcp`]; the server lists [`Tool::to_mcp_with`]:
    /// the same text, for every kind of type, return and mode.
    #[test]
    fn the_streamed_tool_is_the_listed_tool() {
        let text = include_str!("../../../../examples/every-kind.json");
        let manifest = parse_manifest(text.as_bytes(), &mut Vec::new()).unwrap();
        let app = App {
            id: "0123456789abcdef".into(),
            package: Some("com.example.every-kind".into()),
            services: vec![Service {
                name: None,
                manifest: Arc::new(manifest),
            }],
            ..App::default()
        };
        for refs in [RefMode::Inline, RefMode::Defs] {
            let set = build(
                std::slice::from_ref(&app),
                &ToolOptions {
                    refs,
                    ..ToolOptions::default()
                },
            );
            assert!(set.tools.len() > 5, "{}", set.tools.len());
            let mut outputs = 0;
            for t in &set.tools {
                let tree = t.mcp(t.listed_trees(false));
                let streamed = serde_json::to_string(&tree).unwrap();
                let listed = t.to_mcp_with(t.listed_trees(false));
                outputs += usize::from(listed.get("outputSchema").is_some());
                assert_eq!(streamed, listed.to_string(), "{} ({refs:?})", t.name);
                assert_eq!(
                    serde_json::to_string_pretty(&tree).unwrap(),
                    serde_json::to_string_pretty(&listed).unwrap()
                );
            }
            assert!(outputs > 0 && outputs < set.tools.len(), "{outputs}");
        }
    }
}
