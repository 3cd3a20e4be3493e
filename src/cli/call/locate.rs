//! Finding what a call names: the tool (local apps first, then the node's;
//! `PATH.METHOD`), with did-you-mean when it is unknown, and the context it
//! runs in.

use super::*;

/// The local apps a call looks at: the --apps directories (no APP paths).
pub(in crate::cli) fn local_sources(g: &GlobalArgs) -> Sources {
    Sources {
        apps_dirs: g.apps.clone(),
        paths: Vec::new(),
        load: LoadOptions {
            package: g.package.clone(),
        },
    }
}

/// The tool `token` names, if any app of the catalog has it.
pub(in crate::cli) fn find_tool(
    catalog: &Catalog,
    token: &str,
    service: Option<&str>,
) -> Result<Option<Tool>> {
    if let Some(t) = catalog.tools.get(token) {
        return Ok(Some(t.clone()));
    }
    let Some((app_q, method)) = token.rsplit_once('.') else {
        return Ok(None);
    };
    if app_q.is_empty() || method.is_empty() {
        return Ok(None);
    }
    let (index, service) = match catalog.resolve(app_q) {
        Ok(i) => (i, service.map(str::to_string)),
        Err(e) if e.code != "unknown_app" => return Err(e),
        Err(_) => {
            // APP.SERVICE.METHOD
            let Some((app_q2, svc)) = app_q.rsplit_once('.') else {
                return Ok(None);
            };
            match catalog.resolve(app_q2) {
                Ok(i)
                    if catalog.apps[i]
                        .services
                        .iter()
                        .any(|s| s.name.as_deref() == Some(svc)) =>
                {
                    (i, Some(svc.to_string()))
                }
                Ok(_) => return Ok(None),
                Err(e) if e.code != "unknown_app" => return Err(e),
                Err(_) => return Ok(None),
            }
        }
    };
    let app = &catalog.apps[index];
    let in_app: Vec<&Tool> = catalog.tools.for_app(index, service.as_deref()).collect();
    let matching: Vec<&Tool> = in_app
        .iter()
        .copied()
        .filter(|t| t.method == method)
        .collect();
    match matching.as_slice() {
        [one] => Ok(Some((*one).clone())),
        [] if method == "init" => Err(Error::input(
            "init_not_callable",
            "`init` runs once, when a context is created; it cannot be called on a context",
        )),
        [] => {
            let names: Vec<&str> = in_app.iter().map(|t| t.method.as_str()).collect();
            let hint = match did_you_mean(method, names.iter().copied()).first() {
                Some(s) => format!("did you mean `{}`?", sanitize_line(s)),
                None => format!("its methods: {}", sanitize_line(&names.join(", "))),
            };
            Err(Error::input(
                "unknown_method",
                format!(
                    "{} has no method `{}`",
                    sanitize_line(app.package_or_id()),
                    sanitize_line(method)
                ),
            )
            .with_hint(hint))
        }
        many => {
            let services: Vec<String> = many
                .iter()
                .map(|t| sanitize_line(t.service.as_deref().unwrap_or("-")))
                .collect();
            Err(Error::input(
                "ambiguous_tool",
                format!(
                    "`{}` exists in several services of {}: {}",
                    sanitize_line(method),
                    sanitize_line(app.package_or_id()),
                    services.join(", ")
                ),
            )
            .with_hint("pass --service NAME, or write APP.SERVICE.METHOD"))
        }
    }
}

pub(super) fn unknown_tool(catalog: &Catalog, token: &str) -> Error {
    // A tool of a node app whose ABI could not be read: say why.
    for (app, err) in &catalog.unusable {
        if token.starts_with(&format!("{}_", app_slug(app.package_or_id()))) {
            return err.clone();
        }
    }
    let t = sanitize_line(token);
    if catalog.tools.tools.is_empty() {
        return Error::input("unknown_tool", format!("no tool `{t}`: no apps were found"))
            .with_hint("pass --apps DIR (or set CALIMCP_APPS), or a reachable --node URL");
    }
    let names = catalog.tools.tools.iter().map(|t| t.name.as_str());
    // meroctl's habit: a bare method name. Name the tools that have it.
    let by_method: Vec<String> = catalog
        .tools
        .tools
        .iter()
        .filter(|t| t.method == token)
        .take(5)
        .map(|t| {
            // The package's last segment names the app (`kv-store`).
            let pkg = catalog.apps[t.app].package_or_id();
            let app = sanitize_line(pkg.rsplit('.').next().unwrap_or(pkg));
            let service = t
                .service
                .as_deref()
                .map(|s| format!("{}.", sanitize_line(s)))
                .unwrap_or_default();
            format!("`{}` ({app}.{service}{})", t.name, sanitize_line(&t.method))
        })
        .collect();
    let hint = if !by_method.is_empty() {
        format!(
            "a method is called through its app: {} (`calimcp tools` lists every tool)",
            by_method.join(", ")
        )
    } else {
        match did_you_mean(token, names).first() {
            Some(s) => format!("did you mean `{s}`? `calimcp tools` lists every tool"),
            None => "`calimcp tools` lists every tool; a method can also be named APP.METHOD (kv-store.get)"
                .into(),
        }
    };
    Error::input("unknown_tool", format!("no tool `{t}`")).with_hint(hint)
}

/// Whether the local tools offer a suggestion for `token` (a close name, or
/// tools with that method).
pub(super) fn has_suggestion(catalog: &Catalog, token: &str) -> bool {
    let names = catalog.tools.tools.iter().map(|t| t.name.as_str());
    catalog.tools.tools.iter().any(|t| t.method == token) || !did_you_mean(token, names).is_empty()
}

/// The node, connected on first use.
pub(super) struct Node<'a> {
    args: &'a crate::cli::node::NodeArgs,
    conn: Option<(Client, tokio::runtime::Runtime)>,
}

impl<'a> Node<'a> {
    /// Not connected yet.
    pub(super) fn new(args: &'a crate::cli::node::NodeArgs) -> Self {
        Node { args, conn: None }
    }

    pub(super) fn get(&mut self) -> Result<&(Client, tokio::runtime::Runtime)> {
        if self.conn.is_none() {
            self.conn = Some((self.args.client()?, runtime()?));
        }
        self.conn
            .as_ref()
            .ok_or_else(|| Error::internal("no node connection"))
    }
}

/// `PATH.METHOD` or `PATH.SERVICE.METHOD` with PATH an existing file or
/// directory: (path, service, method). A token whose app part looks like a
/// path but names nothing is an error saying what TOOL may be.
pub(super) fn path_method(token: &str) -> Result<Option<(PathBuf, Option<String>, String)>> {
    let Some((app, method)) = token.rsplit_once('.') else {
        return Ok(None);
    };
    if app.is_empty() || method.is_empty() {
        return Ok(None);
    }
    if Path::new(app).exists() {
        return Ok(Some((app.into(), None, method.to_string())));
    }
    if let Some((path, service)) = app.rsplit_once('.')
        && !path.is_empty()
        && Path::new(path).exists()
    {
        return Ok(Some((
            path.into(),
            Some(service.to_string()),
            method.to_string(),
        )));
    }
    if catalog::looks_like_path(app) {
        return Err(Error::input(
            "unknown_tool",
            format!(
                "no tool `{}`: `{}` looks like a path, but there is no such file or directory",
                sanitize_line(token),
                sanitize_line(app)
            ),
        )
        .with_hint("TOOL is a tool name (kv_store_get), APP.METHOD with an app's name (kv-store.get), or PATH.METHOD with the path of an abi.json, .wasm, .mpk or bundle directory (examples/kv-store.get)"));
    }
    Ok(None)
}

/// The tool of `PATH.METHOD`: the app at PATH (plus the --apps directories).
pub(super) fn locate_path(
    g: &GlobalArgs,
    token: &str,
    path: PathBuf,
    service: Option<String>,
    method: &str,
) -> Result<(Catalog, Tool)> {
    let mut sources = local_sources(g);
    sources.paths = vec![path.clone()];
    let (catalog, explicit) = Catalog::load(&sources, &g.tool_options())?;
    let group = explicit.into_iter().next().unwrap_or_default();
    let shown = sanitize_line(&path.display().to_string());
    let index = match group.as_slice() {
        [one] => *one,
        [] => {
            return Err(Error::input(
                "no_apps",
                format!("no tool `{}`: {shown} holds no app", sanitize_line(token)),
            ));
        }
        many => {
            let list: Vec<String> = many
                .iter()
                .map(|&i| format!("\n  {}", catalog::resolve::label(&catalog.apps[i])))
                .collect();
            return Err(Error::input(
                "ambiguous_app",
                format!("{shown} holds several apps:{}", list.concat()),
            )
            .with_hint(format!(
                "name one of them: `calimcp call --apps {shown} APP.{}`",
                sanitize_line(method)
            )));
        }
    };
    let service = service.or_else(|| g.service.clone());
    if let Some(s) = &service {
        crate::cli::check_service(&catalog.apps[index], s)?;
    }
    let by_id = format!("{}.{method}", catalog.apps[index].id);
    match find_tool(&catalog, &by_id, service.as_deref())? {
        Some(tool) => Ok((catalog, tool)),
        None => Err(unknown_tool(&catalog, token)),
    }
}

/// The catalog and the tool `token` names: local apps first, then the node's.
pub(super) fn locate(g: &GlobalArgs, node: &mut Node<'_>, token: &str) -> Result<(Catalog, Tool)> {
    if let Some((path, service, method)) = path_method(token)? {
        return locate_path(g, token, path, service, &method);
    }
    let opts = g.tool_options();
    let (mut catalog, _) = Catalog::load(&local_sources(g), &opts)?;
    for w in &catalog.skipped {
        g.ui().warn(w);
    }
    let mut found = find_tool(&catalog, token, g.service.as_deref())?;
    if found.is_none() && !g.node.offline {
        let (client, rt) = node.get()?;
        match rt.block_on(catalog::node::load_except(client, &catalog.packages())) {
            Ok((apps, unusable)) => catalog = catalog.with_node_apps(apps, unusable, &opts),
            // A name close to a local tool is a typo, not a node problem:
            // exit 2 with the suggestion, the node's silence as a remark.
            Err(e)
                if e.kind == crate::ErrorKind::Unreachable && has_suggestion(&catalog, token) =>
            {
                let mut err = unknown_tool(&catalog, token);
                err.hint = Some(format!(
                    "{}\n  (the node at {} did not answer, so its apps were not searched)",
                    err.hint.unwrap_or_default(),
                    client.url()
                ));
                return Err(err);
            }
            Err(e) => {
                let what = format!("no tool `{}`", sanitize_line(token));
                return Err(both_tried(g, &what, e));
            }
        }
        found = find_tool(&catalog, token, g.service.as_deref())?;
    }
    match found {
        Some(tool) => Ok((catalog, tool)),
        None => Err(unknown_tool(&catalog, token)),
    }
}

/// The context a call runs in and the URL it goes to. A dry run with a
/// context id needs no node at all.
pub(super) fn find_context(
    g: &GlobalArgs,
    node: &mut Node<'_>,
    flags: &CallFlags,
    app: &App,
    service: Option<&str>,
    explicit: Option<&str>,
) -> Result<(String, String)> {
    match explicit {
        Some(id) if flags.dry_run && looks_like_context_id(id) => {
            let (_, shown) = node::normalize_url(g.node.url())?;
            Ok((id.to_string(), format!("{shown}/jsonrpc")))
        }
        _ if g.node.offline => Err(Error::input(
            "offline",
            "--offline: this call needs the node (a dry run with --context ID does not)",
        )),
        explicit => {
            let (client, rt) = node.get()?;
            let pins = Pins::load(&state_dir());
            let pinned = pins.get(client.url(), app, service);
            let resolve = resolve_context(client, app, service, explicit, pinned, true);
            let context = rt.block_on(resolve).map_err(|e| {
                // A dry run needs the node only to find the context.
                if flags.dry_run && e.kind == crate::ErrorKind::Unreachable {
                    e.with_hint(
                        "a dry run with a context id (-c ID, 64 hex or base58) needs no node",
                    )
                } else {
                    e
                }
            })?;
            Ok((context, client.jsonrpc_url()))
        }
    }
}
