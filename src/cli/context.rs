//! `calimcp context create|invite|join|delete|list|alias`: make a context
//! of an installed app (its `init` arguments checked against the ABI before
//! anything is sent), bring another node into it, delete it, and name it
//! (meroctl's `context` words); `context list` is `calimcp contexts`.

use std::collections::HashSet;
use std::ffi::OsString;
use std::io::{IsTerminal, Read};
use std::time::Duration;

use clap::{Args, FromArgMatches, Subcommand};
use serde_json::Value;

use super::app::confirm;
use super::args::parse_secs;
use super::toolcmd::files::{self, progress_line};
use super::toolcmd::input::{self, Given};
use super::toolcmd::params::{self, ParamSpec};
use super::toolcmd::prompt::answer_check;
use super::toolcmd::reserved_in;
use super::{GlobalArgs, output};
use calimcp_catalog::lifecycle::{self, CreateRequest, Invitation};
use calimcp_core::abi::App;
use calimcp_core::error::{Code, Error, Result};
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
/// or the whole object with --args; every option (calimcp's own, --node,
/// --json, … too) may come anywhere on the line. Required ones not given
/// are asked for when stdin and stderr are terminals (not with --json or
/// --no-input), and the command without prompts is printed on stderr;
/// otherwise they are an error. They are checked against `init`'s schema
/// before anything is sent; arguments for an `init` that takes none are
/// refused. The node puts every context in a namespace (merod
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
    #[command(flatten)]
    pub flags: CreateFlags,
    /// The init arguments as flags: --PARAM VALUE for each parameter of `init`
    #[arg(
        value_name = "INIT ARGUMENTS",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub init: Vec<String>,
}

/// The options of `context create`, accepted anywhere on its line (before
/// or after APP and the init arguments), as calimcp's global options are.
#[derive(Debug, Clone, Args)]
pub(crate) struct CreateFlags {
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
    /// Never prompt for missing init arguments
    #[arg(
        long,
        env = "CALIMCP_NO_INPUT",
        value_parser = clap::builder::FalseyValueParser::new()
    )]
    pub no_input: bool,
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

/// `argv` is the whole line: `create` parses it again once the app's
/// `init` is known (the global options in `g` were read from all of it).
pub(crate) fn run(g: &GlobalArgs, args: ContextArgs, argv: &[OsString]) -> Result<()> {
    match args.command {
        ContextCommand::Create(a) => create(g, a, argv),
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
        icon: None,
    }))
}

/// `context create`'s run-time command: the global options, then `context
/// create` with its own options, APP and one flag per parameter of the
/// app's `init` (as `call` builds a method's), so every option works
/// anywhere on the line.
fn create_command(specs: &[ParamSpec]) -> clap::Command {
    let create = CreateFlags::augment_args(clap::Command::new("create"))
        .arg(clap::Arg::new("app").required(true).value_name("APP"))
        .allow_negative_numbers(true)
        .args(specs.iter().filter_map(params::arg));
    let context = clap::Command::new("context")
        .subcommand(create)
        .subcommand_required(true);
    let cmd = GlobalArgs::augment_args(
        clap::Command::new("calimcp")
            .bin_name("calimcp")
            .max_term_width(100)
            .subcommand(context),
    );
    super::without_empty_env(cmd)
}

/// Flags an init parameter's flag must not take: calimcp's global options
/// and `create`'s own (such a parameter is `--param-NAME`).
fn create_reserved() -> HashSet<String> {
    reserved_in(&CreateFlags::augment_args(GlobalArgs::augment_args(
        clap::Command::new("x"),
    )))
}

/// An argument the app's `init` does not take: says what it takes.
fn unexpected(
    e: &clap::Error,
    app: &App,
    service: Option<&str>,
    specs: &[ParamSpec],
) -> Option<Error> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(given)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let what = if specs.is_empty() {
        "its init takes no arguments".to_string()
    } else {
        format!(
            "its init is {}; init arguments are flags (--PARAM VALUE)",
            sanitize_line(&lifecycle::init_signature(app, service))
        )
    };
    Some(Error::input(
        Code::Usage,
        format!(
            "unexpected argument `{}` for {}: {what}",
            sanitize_line(given),
            sanitize_line(app.package_or_id())
        ),
    ))
}

/// The line of `context create` parsed with `app`'s `init`: its options and
/// the init argument object (`--args`, the flags, then prompts on a terminal
/// for required ones still missing: the rule `call` reads a method's
/// arguments by, [`input::arguments`]).
fn read_line(
    g: &GlobalArgs,
    app: &App,
    argv: &[OsString],
) -> Result<Option<(CreateFlags, input::Arguments)>> {
    let service = g.service.as_deref();
    let tool = init_tool(app, service)?;
    let specs: Vec<ParamSpec> = tool
        .as_ref()
        .map(|t| params::specs(t, &create_reserved()))
        .unwrap_or_default();
    let matches = match create_command(&specs).try_get_matches_from(argv) {
        Ok(m) => m,
        Err(e) => {
            if let Some(err) = unexpected(&e, app, service, &specs) {
                return Err(err);
            }
            return super::clap_result(&e, g.json).map(|()| None);
        }
    };
    let m = matches
        .subcommand_matches("context")
        .and_then(|m| m.subcommand_matches("create"))
        .ok_or_else(|| Error::internal("the create matches are missing"))?;
    let flags = CreateFlags::from_arg_matches(m).map_err(|e| Error::internal(e.to_string()))?;
    let given = Given {
        args_json: flags.args_json.as_deref(),
        no_input: flags.no_input,
        what: "command",
    };
    let check = answer_check(|v: &Value| {
        let obj = v.as_object().cloned().unwrap_or_default();
        lifecycle::init_arguments(app, service, &obj)
            .map(|_| ())
            .map_err(|e| e.problems)
    });
    let mut read = input::arguments(g, &given, &specs, m, argv, &check, &mut |_| Ok(()))?;
    if !read.problems.is_empty() {
        let signature = lifecycle::init_signature(app, service);
        return Err(lifecycle::invalid_init(
            app,
            &signature,
            std::mem::take(&mut read.problems),
        ));
    }
    Ok(Some((flags, read)))
}

fn create(g: &GlobalArgs, args: CreateArgs, argv: &[OsString]) -> Result<()> {
    let session = g.session()?;
    session.answering("creating a context")?;
    let (name, version) = lifecycle::app_and_version(&args.app);
    let sel = g.select(&session, std::slice::from_ref(&name), true)?;
    let app = &sel.catalog.apps[sel.apps[0]];
    // --help after the init arguments: shown, nothing else done.
    let Some((flags, read)) = read_line(g, app, argv)? else {
        return Ok(());
    };
    let (mut init, blobs) = (read.obj, read.blobs);
    // `@blob:FILE` init arguments: uploaded once, just before the create.
    let progress = |p: &std::path::Path, n| progress_line(g, &p.display().to_string(), n);
    for (param, id) in files::upload(&session, &blobs, &progress)? {
        init.insert(param, Value::String(id));
    }
    if let Some(a) = &flags.alias {
        lifecycle::check_alias(a)?;
    }
    let req = CreateRequest {
        args: init,
        name: flags.name,
        alias: flags.alias,
        namespace: flags.namespace,
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
