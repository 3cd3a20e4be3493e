//! `cli`: the command-line face. One file per subcommand; each parses its
//! arguments, asks the catalog, and hands a value to `output`. clap stays here.

mod app;
mod apps;
mod args;
mod auth;
mod blob;
mod call;
mod complete;
mod completions;
mod context;
mod contexts;
mod describe;
mod diff;
mod doc;
mod events;
pub mod json_schemas;
mod login;
mod logout;
pub(crate) mod node;
mod nodes;
pub(crate) mod output;
mod schema;
mod serve;
mod stdin;
pub(crate) mod textfile;
mod toolcmd;
mod tools;
mod use_ctx;
mod wait;
pub(crate) mod watch;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};

use calimcp_catalog::Catalog;
pub(crate) use calimcp_catalog::session::{Selection, check_service};
use calimcp_catalog::session::{Session, Settings};
use calimcp_core::abi::LoadOptions;
use calimcp_core::error::{Code, EXIT_OK, EXIT_USAGE, Error, Result};
use calimcp_core::mapping::filter::Filter;
use calimcp_core::mapping::names::{DEFAULT_MAX_NAME_LEN, MIN_MAX_NAME_LEN};
use calimcp_core::mapping::{RefMode, ToolOptions};
use output::{ColorChoice, Ui};

const EXIT_CODES: &str = "\
Examples:
  calimcp describe examples/kv-store            # signatures and tool names
  calimcp schema examples/kv-store set          # one method's JSON Schema
  calimcp tools --apps examples --json          # the MCP tools, as serve lists them
  calimcp call kv_store_get --key a -c my-alias # a method on the node
  calimcp serve --node http://127.0.0.1:2528    # an MCP server for agents

Exit codes:
  0    success
  1    internal error (a bug: please report it)
  2    bad input: usage, an unreadable or invalid manifest, an unknown app or method
  3    authentication failed
  4    the node is unreachable or timed out
  5    the node or the application returned an error
  6    call --wait-event: the call ran (its result is printed), then waiting for its event failed
  124  watch --stop-after or call --wait-event: the event did not come in time;
       call --until or wait: the value or the state did not come within --within

Environment:
  CALIMERO_NODE_URL        the node (--node), a URL or a name; default http://127.0.0.1:2528
  CALIMERO_AUTH_TOKEN      access token (--token)
  CALIMERO_REFRESH_TOKEN   refresh token paired with the access token
  CALIMERO_USERNAME        with CALIMERO_PASSWORD or CALIMERO_PASSWORD_FILE: log in
  CALIMERO_PASSWORD        the password for CALIMERO_USERNAME
  CALIMERO_PASSWORD_FILE   a file (or pipe) holding that password, at most 64KiB
  CALIMCP_APPS             apps directories, colon-separated (--apps)
  CALIMCP_OFFLINE          1: never contact the node (--offline)
  CALIMCP_NO_INPUT         1: never prompt for missing parameters (call --no-input)
  CALIMCP_STATE_DIR        tokens, ABI cache and pins; default $XDG_STATE_HOME/calimcp
  CALIMCP_MAX_RESPONSE     largest node answer read (default 16MiB)
  CALIMCP_MAX_BLOB         largest app module downloaded for its ABI (default 64MiB)
  CALIMCP_MAX_SCHEMAS      schemas one listing expands in full (default 16MiB)
  CALIMCP_MAX_ARGS         largest --args, @FILE or - value read by call (default 16MiB)
  CALIMCP_MAX_STATE        largest nodes.json or pins file read (default 1MiB)
  CALIMCP_PROBE_PORTS      loopback ports tried for a node when none is given
                           (default 2528,2428; none: no probe)
  CALIMCP_MAX_BATCH        messages in one JSON-RPC batch to serve (default 100)
  CALIMCP_MAX_ANSWER       bytes of one batch's answer from serve (default 32MiB)
  CALIMCP_MAX_SESSIONS     live serve --http sessions (default 1000)
  CALIMCP_HEADER_TIMEOUT   seconds serve --http waits for a request's headers (default 10)
  CALIMCP_REREAD_INTERVAL  least seconds between serve's re-reads for unknown names (default 2)
  CALIMCP_MAX_BACKLOG      version changes serve holds while it re-reads (default 1MiB)
  CALIMCP_MAX_EXEC_QUEUE   bytes of events waiting for watch --exec (default 64MiB)
  NO_COLOR                 set: no colour (as --color never)
An empty value counts as unset. `watch --exec` sets CALIMCP_EVENT, CALIMCP_CONTEXT
and CALIMCP_APP for its command.";

/// Calimero application ABIs as JSON Schemas, signatures, CLI calls and MCP tools.
///
/// An APP is a path (a wasm-abi/1 abi.json, a .wasm with an embedded ABI, an .mpk
/// bundle or a bundle directory) or a name among the apps of the --apps
/// directories, then the node's: a package (com.calimero.kv-store), its
/// trailing segments (kv-store), a bundle's metadata name, or an application id.
#[derive(Debug, Parser)]
#[command(name = "calimcp", version = env!("VERSION_AND_COMMIT"), propagate_version = true, arg_required_else_help = true, after_long_help = EXIT_CODES, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Flags every subcommand accepts, before or after its name.
#[derive(Debug, Args)]
pub(crate) struct GlobalArgs {
    /// Machine-readable output; errors become one JSON line on stderr
    #[arg(long, global = true, help_heading = "Global options")]
    pub json: bool,
    /// When to colour the output [NO_COLOR and a non-terminal mean never]
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN", help_heading = "Global options")]
    pub color: ColorChoice,
    /// Hide warnings
    #[arg(long, short = 'q', global = true, help_heading = "Global options")]
    pub quiet: bool,
    /// A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)
    #[arg(
        long = "apps",
        global = true,
        env = "CALIMCP_APPS",
        hide_env_values = true,
        value_delimiter = ':',
        value_name = "DIR",
        value_hint = clap::ValueHint::DirPath,
        help_heading = "Global options"
    )]
    pub apps: Vec<PathBuf>,
    /// The package of a bare manifest or module given as APP (default: its file name)
    #[arg(
        long,
        global = true,
        value_name = "NAME",
        help_heading = "Global options"
    )]
    pub package: Option<String>,
    /// Narrow a multi-service app to one service
    #[arg(
        long,
        global = true,
        value_name = "NAME",
        help_heading = "Global options"
    )]
    pub service: Option<String>,
    /// How named types appear in schemas: expanded in place, or once under $defs
    #[arg(long, global = true, value_enum, default_value_t = Refs::Inline, value_name = "MODE", help_heading = "Mapping options")]
    pub refs: Refs,
    /// Longest tool name; longer ones are shortened with a hash
    #[arg(long, global = true, default_value_t = DEFAULT_MAX_NAME_LEN, value_name = "N", value_parser = parse_max_len, help_heading = "Mapping options")]
    pub max_name_len: usize,
    /// `CALIMCP_MAX_SCHEMAS`, read and checked when the command starts.
    #[arg(skip = calimcp_core::mapping::schema::MAX_LISTING_BYTES)]
    pub max_schemas: usize,
    #[command(flatten)]
    pub node: node::NodeArgs,
}

fn parse_max_len(s: &str) -> std::result::Result<usize, String> {
    let n: usize = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if n < MIN_MAX_NAME_LEN {
        return Err(format!("must be at least {MIN_MAX_NAME_LEN}"));
    }
    Ok(n)
}

/// `--refs` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Refs {
    /// Expand named types in place (recursion capped at depth 8)
    Inline,
    /// Every named type once under $defs; exact recursion
    Defs,
}

/// The subcommands; each one's name is its variant's, in lower case.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    Schema(schema::SchemaArgs),
    Describe(describe::DescribeArgs),
    Doc(doc::DocArgs),
    Tools(tools::ToolsArgs),
    Serve(serve::ServeArgs),
    Apps(apps::AppsArgs),
    App(app::AppArgs),
    Blob(blob::BlobArgs),
    Call(call::CallArgs),
    Use(use_ctx::UseArgs),
    Contexts(contexts::ContextsArgs),
    Context(context::ContextArgs),
    Diff(diff::DiffArgs),
    Watch(watch::WatchArgs),
    Wait(wait::WaitArgs),
    Login(login::LoginArgs),
    Logout(logout::LogoutArgs),
    Auth(auth::AuthArgs),
    Node(nodes::NodeCmdArgs),
    Completions(completions::CompletionsArgs),
}

impl GlobalArgs {
    pub(crate) fn tool_options(&self) -> ToolOptions {
        ToolOptions {
            refs: match self.refs {
                Refs::Inline => RefMode::Inline,
                Refs::Defs => RefMode::Defs,
            },
            max_name_len: self.max_name_len,
            listing_budget: self.max_schemas,
        }
    }

    pub(crate) fn ui(&self) -> Ui {
        Ui::new(self.json, self.quiet, self.color)
    }
}

impl GlobalArgs {
    /// The session of this command: the options read once, the node made
    /// on first use ([`catalog::session`]).
    pub(crate) fn session(&self) -> Result<Session> {
        Ok(Session::new(Settings {
            apps_dirs: self.apps.clone(),
            load: LoadOptions {
                package: self.package.clone(),
            },
            service: self.service.clone(),
            tools: self.tool_options(),
            node: if self.node.offline {
                None
            } else {
                Some(self.node.options_unchecked()?)
            },
            node_url: self.node.url().to_string(),
            node_named: self.node.explicit(),
            node_source: self.node.source_text(),
            quiet: self.quiet,
            node_error: self.node.deferred.clone(),
            state_dir: node::state_dir(),
            max_state: node::max_state()?,
        }))
    }

    /// The apps `args` name ([`Session::select`]); what the session noted is
    /// shown as warnings.
    pub(crate) fn select(
        &self,
        session: &Session,
        args: &[String],
        one: bool,
    ) -> Result<Selection> {
        let sel = session.select(args, one);
        self.say(session);
        sel
    }

    /// Shows what the session noted, as warnings.
    pub(crate) fn say(&self, session: &Session) {
        let ui = self.ui();
        for note in session.take_notes() {
            ui.warn(note);
        }
    }
}

/// The options `tools` and `serve` share to choose what is exposed.
#[derive(Debug, Args, Clone, Default)]
pub(crate) struct FilterArgs {
    /// Only these apps (repeatable; same as naming them as APP)
    #[arg(long = "app", value_name = "APP", add = clap_complete::ArgValueCompleter::new(complete::app_candidates))]
    pub app: Vec<String>,
    /// Only [view] methods
    #[arg(long)]
    pub read_only: bool,
    /// Only tools whose name matches GLOB (`*`, `?`; repeatable)
    #[arg(long, value_name = "GLOB")]
    pub allow: Vec<String>,
    /// Never tools whose name matches GLOB (repeatable; wins over --allow)
    #[arg(long, value_name = "GLOB")]
    pub deny: Vec<String>,
}

impl FilterArgs {
    pub(crate) fn filter(&self) -> Filter {
        Filter {
            read_only: self.read_only,
            allow: self.allow.clone(),
            deny: self.deny.clone(),
        }
    }
}

/// The "nothing to list" error of `apps` and `tools`, naming the apps
/// directories the same way in both.
pub(crate) fn no_apps(g: &GlobalArgs) -> Error {
    let dirs: Vec<String> = g.apps.iter().map(|d| d.display().to_string()).collect();
    Error::input(
        Code::NoApps,
        if dirs.is_empty() {
            "no apps: no --apps directory was given".to_string()
        } else {
            format!("no apps found in {}", dirs.join(", "))
        },
    )
    .with_hint("an apps directory holds bundle directories (with manifest.json), .mpk files, .json manifests and .wasm modules; an APP may also be such a path")
}

/// Prints the warnings that concern `apps` (and the skipped entries of apps directories).
pub(crate) fn report_warnings(ui: &Ui, catalog: &Catalog, apps: &[usize]) {
    for w in &catalog.skipped {
        ui.warn(w);
    }
    for &i in apps {
        for w in &catalog.apps[i].warnings {
            ui.warn(w);
        }
    }
}

/// Reports the schema degradations of tools as they are computed, up to a
/// limit, then says how many more there were.
#[derive(Debug, Default)]
pub(crate) struct SchemaWarnings {
    shown: usize,
    hidden: usize,
}

impl SchemaWarnings {
    const LIMIT: usize = 20;

    pub(crate) fn report(&mut self, ui: &Ui, tool: &str, warnings: &[String]) {
        for w in warnings {
            if self.shown < Self::LIMIT {
                ui.warn(format_args!("{tool}: {w}"));
                self.shown += 1;
            } else {
                self.hidden += 1;
            }
        }
    }

    pub(crate) fn finish(self, ui: &Ui) {
        if self.hidden > 0 {
            ui.warn(format_args!(
                "… and {} more schema warnings like these (--quiet hides them)",
                self.hidden
            ));
        }
    }
}

/// What finding the node passed over (warnings), and with `-v` where the
/// node came from when none was given.
fn say_found(g: &GlobalArgs) {
    let ui = g.ui();
    for w in &g.node.found_warnings {
        ui.warn(w);
    }
    if g.node.verbose
        && !g.node.offline
        && let Some(source) = g.node.source_text()
    {
        let url = calimcp_catalog::accounts::normalize_url(g.node.url())
            .map(|(_, s)| s)
            .unwrap_or_default();
        eprintln!(
            "node: {} (from {source})",
            calimcp_core::text::sanitize_line(&url)
        );
    }
}

/// Runs the parsed command. A failure comes back as an [`Error`], printed by
/// [`main`] alone, whose kind decides the exit code.
pub(crate) fn run(mut cli: Cli, argv: &[OsString]) -> Result<()> {
    cli.global.max_schemas = usize::try_from(node::size_env(
        "CALIMCP_MAX_SCHEMAS",
        calimcp_core::mapping::schema::MAX_LISTING_BYTES as u64,
    )?)
    .unwrap_or(usize::MAX);
    // `--node NAME` (or the current node) becomes its URL; `node` reads the file itself.
    if !matches!(cli.command, Command::Node(_) | Command::Completions(_)) {
        cli.global.node.resolve()?;
        say_found(&cli.global);
    }
    match cli.command {
        Command::Schema(args) => schema::run(&cli.global, args),
        Command::Describe(args) => describe::run(&cli.global, args),
        Command::Doc(args) => doc::run(&cli.global, args),
        Command::Tools(args) => tools::run(&cli.global, args),
        Command::Serve(args) => serve::run(&cli.global, args),
        Command::Apps(args) => apps::run(&cli.global, args),
        Command::App(args) => app::run(&cli.global, args),
        Command::Blob(args) => blob::run(&cli.global, args),
        Command::Call(args) => call::run(&cli.global, args, argv),
        Command::Use(args) => use_ctx::run(&cli.global, args),
        Command::Contexts(args) => contexts::run(&cli.global, args),
        Command::Context(args) => context::run(&cli.global, args, argv),
        Command::Diff(args) => diff::run(&cli.global, args),
        Command::Watch(args) => watch::run(&cli.global, args),
        Command::Wait(args) => wait::run(&cli.global, args),
        Command::Login(args) => login::run(&cli.global, args),
        Command::Logout(args) => logout::run(&cli.global, args),
        Command::Auth(args) => auth::run(&cli.global, args),
        Command::Node(args) => nodes::run(&cli.global, args),
        Command::Completions(args) => completions::run(args),
    }
}

/// The clap command tree: parsing, help and completions.
pub fn command() -> clap::Command {
    fold_global_options(without_empty_env(Cli::command()))
}

/// The command tree for man pages: every option described where it is
/// listed (a man page is the reference), nothing read from the environment.
/// The version is the package's alone: the pages are committed, the commit
/// would make them stale at every commit.
pub fn man_command() -> clap::Command {
    Cli::command().version(env!("CARGO_PKG_VERSION"))
}

/// The global options in one short block instead of ~60 lines of
/// descriptions in every command's help (as `gh` does): a subcommand's `-h`
/// and `--help` name them and point to `calimcp --help`, which describes
/// them; the top level's `-h` (and bare `calimcp`) names them the same way
/// under "Global options". Works on any tree whose top level holds the
/// global arguments (also `call TOOL`'s run-time one).
pub(crate) fn fold_global_options(cmd: clap::Command) -> clap::Command {
    let list = global_list(&cmd);
    // Only the top level's global options fold: a subcommand's own ones
    // (`call`'s flags, global to reach TOOL) stay listed in its help.
    let folded: Vec<clap::Id> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set())
        .map(|a| a.get_id().clone())
        .collect();
    let mut cmd = cmd
        .mut_args(|a| {
            if a.is_global_set() {
                a.hide_short_help(true)
            } else {
                a
            }
        })
        .after_help(format!(
            "Global options (before or after the subcommand; `calimcp --help` describes them):\n{list}"
        ));
    // Built, the global arguments are copied into every subcommand, where
    // they are hidden from the long help too (the top level keeps it).
    cmd.build();
    let block = format!("Global options (`calimcp --help` describes them):\n{list}");
    for sc in cmd.get_subcommands_mut() {
        fold_in_subcommand(sc, &block, &folded);
    }
    cmd
}

fn fold_in_subcommand(sc: &mut clap::Command, block: &str, folded: &[clap::Id]) {
    if sc.get_name() == "help" {
        return;
    }
    let taken = std::mem::take(sc);
    let with_block = |h: Option<&clap::builder::StyledStr>| match h {
        Some(h) => format!("{h}\n\n{block}"),
        None => block.to_string(),
    };
    let short = with_block(taken.get_after_help());
    let long = with_block(taken.get_after_long_help().or(taken.get_after_help()));
    let mut out = taken
        .mut_args(|a| {
            // `-V` is accepted everywhere but listed only at the top.
            if folded.contains(a.get_id()) || a.get_id() == "version" {
                a.hide_short_help(true).hide_long_help(true)
            } else {
                a
            }
        })
        .after_help(short)
        .after_long_help(long);
    for sub in out.get_subcommands_mut() {
        fold_in_subcommand(sub, block, folded);
    }
    *sc = out;
}

/// The listed global options as `--flag VALUE` words, wrapped to 80 columns.
fn global_list(cmd: &clap::Command) -> String {
    let words: Vec<String> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set() && !a.is_hide_set())
        .filter_map(|a| {
            let long = a.get_long()?;
            let mut w = match a.get_short() {
                Some(c) => format!("-{c}, --{long}"),
                None => format!("--{long}"),
            };
            if a.get_action().takes_values()
                && let Some(v) = a.get_value_names().and_then(|v| v.first())
            {
                w.push_str(&format!(" {v}"));
            }
            Some(w)
        })
        .collect();
    let mut lines: Vec<String> = Vec::new();
    for w in words {
        match lines.last_mut() {
            Some(l) if l.len() + 3 + w.len() <= 80 => {
                l.push_str("   ");
                l.push_str(&w);
            }
            _ => lines.push(format!("  {w}")),
        }
    }
    lines.join("\n")
}

/// `calimcp call TOOL --color Red`, meant for the method's parameter `color`:
/// calimcp's own flag refuses the value before the method is known. Says how
/// a parameter that shares a flag's name is spelled (`--param-color`).
fn param_spelling(e: &clap::Error, argv: &[OsString]) -> Option<Error> {
    use clap::error::{ContextKind, ContextValue, ErrorKind as K};
    if e.kind() != K::InvalidValue {
        return None;
    }
    let args: Vec<String> = argv
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let call_at = args.iter().position(|a| a == "call")?;
    let tool = args[call_at + 1..].iter().find(|a| !a.starts_with('-'))?;
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let name = arg.trim_start_matches('-').split([' ', '=']).next()?;
    let rendered = e.render().to_string();
    let first = rendered
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ");
    Some(
        Error::input(
            Code::Usage,
            format!(
                "{first}: `--{name}` is calimcp's own flag; a parameter of the method named `{name}` is spelled --param-{name}"
            ),
        )
        .with_hint(format!(
            "`calimcp call {} --help` lists the method's flags",
            calimcp_core::text::sanitize_line(tool)
        )),
    )
}

/// Whether clap answers the line with help (`-h`, `--help`, `help CMD`, or
/// a bare command that needs a subcommand).
fn shows_help(e: &clap::Error) -> bool {
    use clap::error::ErrorKind as K;
    matches!(
        e.kind(),
        K::DisplayHelp | K::DisplayHelpOnMissingArgumentOrSubcommand
    )
}

/// `calimcp --version` (or `-V`) and nothing else, answered before clap
/// builds its command tree (most of the instructions of this command; BENCHMARKS.md,
/// issue 34). The text is clap's own for that line: the command's name, not
/// the name it was run by, and the version. Any other line goes to clap.
fn version_only(argv: &[OsString]) -> Option<ExitCode> {
    let [_, flag] = argv else { return None };
    if flag != "--version" && flag != "-V" {
        return None;
    }
    use std::io::Write;
    // As clap does: a closed stdout is not an error.
    let _ = writeln!(
        std::io::stdout().lock(),
        "calimcp {}",
        env!("VERSION_AND_COMMIT")
    );
    Some(ExitCode::SUCCESS)
}

/// Prints a clap error (or the help and version it carries); returns the exit code.
pub(crate) fn report_clap_error(e: &clap::Error, json: bool) -> u8 {
    use clap::error::ErrorKind as K;
    if matches!(
        e.kind(),
        K::DisplayHelp | K::DisplayVersion | K::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return if e.kind() == K::DisplayHelpOnMissingArgumentOrSubcommand {
            EXIT_USAGE
        } else {
            EXIT_OK
        };
    }
    if json {
        Ui::new(true, false, ColorChoice::Never).error(&usage_error(e, true));
    } else {
        let _ = e.print();
    }
    EXIT_USAGE
}

/// A clap error met by a command: help and version are printed (success),
/// anything else is a usage error ([`usage_error`]).
pub(crate) fn clap_result(e: &clap::Error, json: bool) -> Result<()> {
    use clap::error::ErrorKind as K;
    match e.kind() {
        K::DisplayHelp | K::DisplayVersion => {
            let _ = e.print();
            Ok(())
        }
        _ => Err(usage_error(e, json)),
    }
}

/// A clap error as a usage [`Error`] (exit 2): for `--json` its first line
/// (with the arguments it names and clap's tip), else clap's whole text
/// (the usage line and where to read more).
pub(crate) fn usage_error(e: &clap::Error, json: bool) -> Error {
    let message = e.render().to_string();
    if !json {
        let text = message.trim_end().trim_start_matches("error: ");
        return Error::input(Code::Usage, text);
    }
    {
        // The first line, and clap's tip when it has one (a similar flag).
        let mut lines = message.lines().map(str::trim);
        let mut text = lines
            .next()
            .unwrap_or("usage error")
            .trim_start_matches("error: ")
            .to_string();
        // "the following required arguments were not provided:" names them on the next lines.
        if text.ends_with(':') {
            let named: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
            if !named.is_empty() {
                text = format!("{text} {}", named.join(", "));
            }
        }
        if let Some(tip) = lines.find_map(|l| l.strip_prefix("tip: ")) {
            text = format!("{text} ({tip})");
        }
        Error::input(Code::Usage, text)
    }
}

/// An environment variable set to an empty (or blank) value counts as unset:
/// `CALIMCP_APPS=` means no directories rather than a usage error. Help shows
/// `[env: X]` for every variable, never its value nor an empty `[env: X=]`. Applied to
/// every argument of every subcommand (`call` parses its line again through
/// `toolcmd::command`, which applies this too).
pub(crate) fn without_empty_env(mut cmd: clap::Command) -> clap::Command {
    // Only subcommands whose arguments name a variable are rebuilt: going
    // through every subcommand of the tree was 17% of `--version`.
    cmd = cmd.mut_args(|a| {
        let Some(name) = a.get_env().map(|n| n.to_string_lossy().into_owned()) else {
            return a;
        };
        match std::env::var_os(&name) {
            // clap would read the empty value: drop the binding, keep the doc.
            Some(v) if is_blank(&v) => {
                let help = a.get_help().map(|h| format!("{h} [env: {name}]"));
                let a = a.env(None::<&str>);
                match help {
                    Some(h) => a.help(h),
                    None => a,
                }
            }
            // A variable's value is never shown (`[env: X]`, not `[env: X=value]`).
            Some(_) | None => a.hide_env_values(true),
        }
    });
    // In place: `mut_subcommand` would move each one to the end.
    for sub in cmd.get_subcommands_mut().filter(|s| names_env(s)) {
        *sub = without_empty_env(std::mem::take(sub));
    }
    cmd
}

/// Whether a variable's value is empty or blank: it then counts as unset.
pub(crate) fn is_blank(value: &std::ffi::OsStr) -> bool {
    value.to_string_lossy().trim().is_empty()
}

/// Whether an argument of `cmd` or of its subcommands reads a variable.
fn names_env(cmd: &clap::Command) -> bool {
    cmd.get_arguments().any(|a| a.get_env().is_some()) || cmd.get_subcommands().any(names_env)
}

/// meroctl's `--output-format json` is calimcp's `--json`: say so when clap
/// has nothing closer to offer.
fn suggest_json_for_meroctl_habits(e: &mut clap::Error) {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument || e.get(ContextKind::SuggestedArg).is_some() {
        return;
    }
    let Some(ContextValue::String(given)) = e.get(ContextKind::InvalidArg) else {
        return;
    };
    let name = given.split('=').next().unwrap_or(given);
    if matches!(name, "--output-format" | "--output" | "--format" | "-o") {
        e.insert(
            ContextKind::SuggestedArg,
            ContextValue::String("--json".into()),
        );
    }
}

/// Entry point of the binary: parse, run, report.
pub fn main() -> ExitCode {
    calimcp_core::memory::avoid_transparent_huge_pages();
    // The process arguments, read here once and handed to whoever needs them.
    let argv: Vec<OsString> = std::env::args_os().collect();
    if let Some(code) = complete::complete(&argv) {
        return ExitCode::from(code);
    }
    if let Some(code) = version_only(&argv) {
        return code;
    }
    let json_requested = argv.iter().any(|a| a == "--json");
    // Folding the global options into every subcommand's help (~40% of the
    // instructions of `--version`) only matters when help is shown: the line
    // is parsed without it, and parsed again with it when clap asks for help.
    let parse = |cmd: clap::Command| {
        cmd.try_get_matches_from(&argv)
            .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m))
    };
    let parsed = match parse(without_empty_env(Cli::command())) {
        Err(e) if shows_help(&e) => parse(command()),
        other => other,
    };
    let mut cli = match parsed {
        Ok(cli) => cli,
        Err(mut e) => {
            if let Some(err) = param_spelling(&e, &argv) {
                return fail(&Ui::new(json_requested, false, ColorChoice::Auto), &err);
            }
            suggest_json_for_meroctl_habits(&mut e);
            return ExitCode::from(report_clap_error(&e, json_requested));
        }
    };
    if !matches!(cli.command, Command::Serve(_)) {
        calimcp_core::memory::keep_freed_memory_until_exit();
    }
    // A call's global flags may come after its parameters (`call T --a 1 --json`),
    // where the static parse leaves them to the tool's own line: they are read
    // from the whole line, once, here (and errors follow them too). The same
    // for `context create APP`'s init arguments.
    let create = |c: &Command| {
        matches!(
            c,
            Command::Context(context::ContextArgs {
                command: context::ContextCommand::Create(_)
            })
        )
    };
    if matches!(cli.command, Command::Call(_)) || create(&cli.command) {
        match args::prescan_globals(&argv) {
            Ok(g) => cli.global = g,
            Err(e) => return ExitCode::from(report_clap_error(&e, json_requested)),
        }
    }
    let ui = cli.global.ui();
    match run(cli, &argv) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if output::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => fail(&ui, &e),
    }
}

/// The one place a failure is reported: printed, then the exit code of its
/// kind ([`ErrorKind::exit_code`](calimcp_core::error::ErrorKind::exit_code)).
fn fail(ui: &Ui, e: &Error) -> ExitCode {
    ui.error(e);
    ExitCode::from(e.kind.exit_code())
}
