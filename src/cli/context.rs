//! `calimcp context create|invite|join|delete|list|alias`: make a context
//! of an installed app (its `init` arguments checked against the ABI before
//! anything is sent), bring another node into it, delete it, and name it
//! (meroctl's `context` words); `context list` is `calimcp contexts`.

use std::collections::HashSet;
use std::io::{IsTerminal, Read};
use std::time::Duration;

use clap::{Args, Subcommand};
use serde_json::{Map, Value};

use super::app::{confirm, split_version};
use super::args::parse_secs;
use super::toolcmd::params::{self, ParamSpec, Stdin};
use super::{GlobalArgs, output};
use calimcp_catalog::lifecycle::{self, CreateRequest, Invitation};
use calimcp_core::abi::App;
use calimcp_core::error::{Code, Error, Problem, Result};
use calimcp_core::mapping::{RefMode, Tool};
use calimcp_core::text::sanitize_line;

/// Create, join, delete and name contexts on the node.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp context create com.example.kv --alias kv
  calimcp context invite kv -o invitation.json
  calimcp context join invitation.json --alias kv
  calimcp context alias list")]
pub(crate) struct ContextArgs {
    #[command(subcommand)]
    pub command: ContextCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum ContextCommand {
    Create(CreateArgs),
    Invite(InviteArgs),
    Join(JoinArgs),
    Delete(DeleteArgs),
    /// List the contexts (the same as `calimcp contexts`)
    List(super::contexts::ContextsArgs),
    Alias(AliasArgs),
}

/// Create a context of an installed app, its init arguments checked first.
///
/// The init arguments are given as `call` takes a method's: one flag per
/// parameter of the app's `init` after APP (`--owner alice --limit 10`),
/// or the whole object with --args. They are checked against `init`'s
/// schema before anything is sent; arguments for an `init` that takes none
/// are refused. The node puts every context in a namespace (merod
/// 0.11.0-rc.4 and rc.25): without --namespace a new one is made for it
/// first, with it the context goes into that one. With several versions
/// installed the newest is used, unless APP is APP@VERSION or an
/// application id. Prints the context id.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp context create com.example.kv
  calimcp context create com.example.registry --alias reg --owner alice --limit 10
  calimcp context create com.example.registry --args '{\"owner\":\"alice\",\"limit\":10}' --json")]
pub(crate) struct CreateArgs {
    /// The app: a name, APP@VERSION or an application id
    #[arg(add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates))]
    pub app: String,
    /// A name for the context (shown in the namespace's listing)
    #[arg(long, value_name = "N")]
    pub name: Option<String>,
    /// Set this alias for the new context on this node
    #[arg(long, value_name = "A")]
    pub alias: Option<String>,
    /// Create it in this namespace (64 hex) instead of a new one
    #[arg(long, value_name = "ID")]
    pub namespace: Option<String>,
    /// The whole init argument object: JSON, @FILE, or - for stdin
    #[arg(long = "args", value_name = "JSON|@FILE|-")]
    pub args_json: Option<String>,
    /// The init arguments as flags: --PARAM VALUE for each parameter of `init`
    #[arg(
        value_name = "INIT ARGUMENTS",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub init: Vec<String>,
}

/// Write an invitation for another node into a context's namespace.
///
/// Writes `{"namespaceId", "contextId", "invitation"}`: the node's signed
/// invitation as it wrote it (it is signed: change nothing), with the
/// context it is for. Give the file to `calimcp context join` on the other
/// node.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp context invite kv -o invitation.json")]
pub(crate) struct InviteArgs {
    /// The context: an id or an alias
    pub context: String,
    /// Write it to FILE instead of stdout
    #[arg(short = 'o', long = "output", value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub output: Option<std::path::PathBuf>,
}

/// Join a context on this node with an invitation from `context invite`.
///
/// Joins the namespace, then the context, then waits (at most --within
/// seconds) until the app's code and the context's state have arrived, so
/// the next `call` works. When it runs out it says what it waits for;
/// running it again finishes what is left.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp context join invitation.json --alias kv
  calimcp --node http://127.0.0.1:2529 context join - < invitation.json")]
pub(crate) struct JoinArgs {
    /// The invitation file `context invite` wrote, or - for stdin
    #[arg(value_name = "FILE|-", value_hint = clap::ValueHint::FilePath)]
    pub file: String,
    /// Set this alias for the context on this node
    #[arg(long, value_name = "A")]
    pub alias: Option<String>,
    /// The longest wait, in seconds (default 180)
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub within: Option<Duration>,
}

/// Delete a context from this node.
///
/// Asks first on a terminal; off a terminal --yes is required.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp context delete kv --yes")]
pub(crate) struct DeleteArgs {
    /// The context: an id or an alias
    pub context: String,
    /// Do not ask
    #[arg(long, short = 'y')]
    pub yes: bool,
}

/// Context aliases on this node (as meroctl's `context alias`).
#[derive(Debug, Args)]
pub(crate) struct AliasArgs {
    #[command(subcommand)]
    pub command: AliasCommand,
}

#[derive(Debug, Subcommand)]
pub(crate) enum AliasCommand {
    /// Name a context on this node
    #[command(after_help = "Examples:\n  calimcp context alias add kv 5Hq…")]
    Add {
        /// The alias: 1 to 50 of A-Z a-z 0-9 . _ -
        name: String,
        /// The context: an id or an alias
        context: String,
    },
    /// Remove an alias (the context stays)
    Remove {
        /// The alias
        name: String,
    },
    /// List the context aliases of this node
    List,
}

pub(crate) fn run(g: &GlobalArgs, args: ContextArgs) -> Result<()> {
    match args.command {
        ContextCommand::Create(a) => create(g, a),
        ContextCommand::Invite(a) => invite(g, a),
        ContextCommand::Join(a) => join(g, a),
        ContextCommand::Delete(a) => delete(g, a),
        ContextCommand::List(a) => super::contexts::run(g, a),
        ContextCommand::Alias(a) => alias(g, a),
    }
}

/// The `init` method as a tool, for its parameter flags.
fn init_tool(app: &App, service: Option<&str>) -> Result<Option<Tool>> {
    let Some(svc) = (match service {
        Some(s) => app.service(Some(s)),
        None => app.services.first(),
    }) else {
        return Ok(None);
    };
    let Some(index) = svc.manifest.methods.iter().position(|m| m.name == "init") else {
        return Ok(None);
    };
    Ok(Some(Tool {
        name: "init".into(),
        title: "init".into(),
        description: String::new(),
        signature: String::new(),
        read_only: false,
        destructive: false,
        idempotent: false,
        app: 0,
        service: svc.name.clone(),
        method: "init".into(),
        context_injected: false,
        manifest: svc.manifest.clone(),
        method_index: index,
        refs: RefMode::Inline,
    }))
}

/// The init argument object: --args, then each `--PARAM VALUE` word.
fn init_arguments(
    app: &App,
    service: Option<&str>,
    args_json: Option<&str>,
    words: &[String],
) -> Result<Map<String, Value>> {
    let mut stdin = Stdin::bounded(super::node::size_env("CALIMCP_MAX_ARGS", params::MAX_ARGS)?);
    let mut obj = match args_json {
        Some(raw) => params::parse_args(raw, &mut stdin)
            .map_err(|e| Error::input(Code::InvalidArguments, e))?,
        None => Map::new(),
    };
    if words.is_empty() {
        return Ok(obj);
    }
    let tool = init_tool(app, service)?;
    let specs: Vec<ParamSpec> = tool
        .as_ref()
        .map(|t| params::specs(t, &HashSet::new()))
        .unwrap_or_default();
    let signature = lifecycle::init_signature(app, service);
    let mut problems: Vec<Problem> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        let Some(flag) = word.strip_prefix("--") else {
            return Err(Error::input(
                Code::Usage,
                format!(
                    "unexpected `{}`: init arguments are flags (--PARAM VALUE); its init is {}",
                    sanitize_line(word),
                    sanitize_line(&signature)
                ),
            ));
        };
        let (flag, inline) = match flag.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (flag, None),
        };
        let Some(spec) = specs
            .iter()
            .find(|s| s.long.as_deref() == Some(flag) || s.alias.as_deref() == Some(flag))
        else {
            let what = if specs.is_empty() {
                "its init takes no arguments".to_string()
            } else {
                format!("its init is {}", sanitize_line(&signature))
            };
            return Err(Error::input(
                Code::Usage,
                format!(
                    "unexpected argument `--{}` for {}: {what}",
                    sanitize_line(flag),
                    sanitize_line(app.package_or_id())
                ),
            ));
        };
        let raw = match inline {
            Some(v) => v,
            None if spec.kind == params::ValueKind::Bool
                && words.get(i + 1).is_none_or(|w| w.starts_with("--")) =>
            {
                "true".to_string()
            }
            None => {
                i += 1;
                words.get(i).cloned().ok_or_else(|| {
                    Error::input(Code::Usage, format!("{} needs a value", spec.flag()))
                })?
            }
        };
        i += 1;
        if obj.contains_key(&spec.name) {
            problems.push(Problem::new(
                spec.name.clone(),
                format!(
                    "{}: given both in --args and as {}",
                    sanitize_line(&spec.name),
                    spec.flag()
                ),
            ));
            continue;
        }
        match spec.parse(&raw, &mut stdin) {
            Ok(v) => {
                obj.insert(spec.name.clone(), v);
            }
            Err(p) => problems.push(p.at(spec.name.clone(), &spec.flag())),
        }
    }
    if !problems.is_empty() {
        let lines: Vec<String> = problems.iter().map(|p| format!("\n  {p}")).collect();
        let mut e = Error::input(
            Code::InvalidArguments,
            format!(
                "invalid init arguments for {} (nothing was sent):{}",
                sanitize_line(app.package_or_id()),
                lines.concat()
            ),
        )
        .with_hint(format!("its init is {}", sanitize_line(&signature)));
        e.problems = problems;
        return Err(e);
    }
    Ok(obj)
}

/// Takes `create`'s own options out of the words after APP (they may come
/// after the init arguments); a global option there is a usage error that
/// says where it goes.
fn own_options(args: &mut CreateArgs) -> Result<()> {
    let words = std::mem::take(&mut args.init);
    let mut rest = Vec::new();
    let globals: Vec<String> = super::command()
        .get_arguments()
        .filter(|a| a.is_global_set())
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect();
    let mut it = words.into_iter();
    while let Some(w) = it.next() {
        let (flag, inline) = match w.split_once('=') {
            Some((f, v)) if w.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (w.clone(), None),
        };
        let slot = match flag.as_str() {
            "--name" => Some(&mut args.name),
            "--alias" => Some(&mut args.alias),
            "--namespace" => Some(&mut args.namespace),
            "--args" => Some(&mut args.args_json),
            _ => None,
        };
        if let Some(slot) = slot {
            let value = inline
                .or_else(|| it.next())
                .ok_or_else(|| Error::input(Code::Usage, format!("{flag} needs a value")))?;
            *slot = Some(value);
            continue;
        }
        if let Some(g) = flag
            .strip_prefix("--")
            .filter(|g| globals.iter().any(|x| x == g))
        {
            return Err(Error::input(
                Code::Usage,
                format!(
                    "--{g} is calimcp's own option: give it before APP (calimcp --{g} … context create APP …)"
                ),
            ));
        }
        rest.push(w);
    }
    args.init = rest;
    Ok(())
}

fn create(g: &GlobalArgs, mut args: CreateArgs) -> Result<()> {
    own_options(&mut args)?;
    let session = g.session()?;
    session.answering("creating a context")?;
    let (name, version) = split_version(&args.app);
    let sel = g.select(&session, std::slice::from_ref(&name), true)?;
    let app = &sel.catalog.apps[sel.apps[0]];
    let version = version.or_else(|| calimcp_catalog::ids::is_id(&name).then(|| name.clone()));
    if let Some(a) = &args.alias {
        lifecycle::check_alias(a)?;
    }
    let init = init_arguments(
        app,
        g.service.as_deref(),
        args.args_json.as_deref(),
        &args.init,
    )?;
    let req = CreateRequest {
        args: init,
        name: args.name,
        alias: args.alias,
        namespace: args.namespace,
        service: g.service.clone(),
        version,
    };
    let done = session.block_on(session.create_context(app, &req))??;
    if g.json {
        return output::print_json(&done);
    }
    output::print(&done.context_id)?;
    g.ui().note(format_args!(
        "created in namespace {}{}; call it with: calimcp call TOOL -c {}",
        done.namespace_id,
        done.alias
            .as_deref()
            .map(|a| format!(", alias {}", sanitize_line(a)))
            .unwrap_or_default(),
        done.alias.as_deref().unwrap_or(&done.context_id)
    ));
    Ok(())
}

fn invite(g: &GlobalArgs, args: InviteArgs) -> Result<()> {
    let session = g.session()?;
    let inv = session.block_on(session.invite(&args.context))??;
    let text = serde_json::to_string_pretty(&inv).map_err(|e| Error::internal(e.to_string()))?;
    match &args.output {
        Some(path) => {
            write_private(path, &(text + "\n"))?;
            g.ui().note(format_args!(
                "wrote the invitation to {}; on the other node: calimcp context join {}",
                path.display(),
                path.display()
            ));
            Ok(())
        }
        None => output::print(&text),
    }
}

fn read_invitation(file: &str) -> Result<Invitation> {
    let text = if file == "-" {
        let mut s = String::new();
        std::io::stdin()
            .take(1 << 20)
            .read_to_string(&mut s)
            .map_err(|e| Error::input(Code::Unreadable, format!("cannot read stdin: {e}")))?;
        s
    } else {
        std::fs::read_to_string(file).map_err(|e| {
            Error::input(
                Code::Unreadable,
                format!("cannot read {}: {e}", sanitize_line(file)),
            )
        })?
    };
    serde_json::from_str(&text).map_err(|e| {
        Error::input(
            Code::InvalidInvitation,
            format!("the invitation is not one `calimcp context invite` wrote: {e}"),
        )
        .with_hint("ask for a new one on the inviting node: calimcp context invite CTX -o FILE")
    })
}

fn join(g: &GlobalArgs, args: JoinArgs) -> Result<()> {
    let inv = read_invitation(&args.file)?;
    lifecycle::check_invitation(&inv)?;
    if let Some(a) = &args.alias {
        lifecycle::check_alias(a)?;
    }
    let session = g.session()?;
    let within = args.within.unwrap_or(Duration::from_secs(180));
    let ui = g.ui();
    let show = std::io::stderr().is_terminal() && !g.json;
    let mut progress = |stage: &str| {
        if show {
            ui.note(format_args!("{stage}…"));
        }
    };
    let done =
        session.block_on(session.join(&inv, args.alias.as_deref(), within, &mut progress))??;
    if g.json {
        return output::print_json(&done);
    }
    output::print(&done.context_id)?;
    g.ui().note(format_args!(
        "joined and ready; call it with: calimcp call TOOL -c {}",
        done.alias.as_deref().unwrap_or(&done.context_id)
    ));
    Ok(())
}

fn delete(g: &GlobalArgs, args: DeleteArgs) -> Result<()> {
    let session = g.session()?;
    session.answering("deleting a context")?;
    let url = session.node_url()?.to_string();
    confirm(
        g,
        &format!(
            "delete context {} from the node at {url}?",
            sanitize_line(&args.context)
        ),
        args.yes,
    )?;
    let done = session.block_on(session.delete_context(&args.context))??;
    if g.json {
        return output::print_json(&done);
    }
    output::print(&format!(
        "{} {}",
        if done.deleted {
            "deleted"
        } else {
            "already gone:"
        },
        done.context_id
    ))
}

fn alias(g: &GlobalArgs, args: AliasArgs) -> Result<()> {
    let session = g.session()?;
    match args.command {
        AliasCommand::Add { name, context } => {
            let row = session.block_on(session.set_alias(&name, &context))??;
            if g.json {
                return output::print_json(&row);
            }
            output::print(&format!(
                "{} → {}",
                sanitize_line(&row.alias),
                row.context_id.as_deref().unwrap_or("")
            ))
        }
        AliasCommand::Remove { name } => {
            let row = session.block_on(session.remove_alias(&name))??;
            if g.json {
                return output::print_json(&row);
            }
            output::print(&format!("removed {}", sanitize_line(&row.alias)))
        }
        AliasCommand::List => {
            let rows = session.block_on(session.aliases())??;
            if g.json {
                return output::print_json(&rows);
            }
            let lines: Vec<String> = rows
                .iter()
                .map(|r| {
                    format!(
                        "{}\t{}",
                        sanitize_line(&r.alias),
                        sanitize_line(r.context_id.as_deref().unwrap_or(""))
                    )
                })
                .collect();
            output::print(&lines.join("\n"))
        }
    }
}

/// Writes `text` to `path`, readable by its owner only (an invitation admits
/// whoever holds it).
fn write_private(path: &std::path::Path, text: &str) -> Result<()> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    opts.open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| {
            Error::input(
                Code::Unwritable,
                format!("cannot write {}: {e}", path.display()),
            )
        })
}
