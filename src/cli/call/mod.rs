//! `calimcp call TOOL [--PARAM VALUE …]`: a validated call of one method on a node.
//!
//! Two parses. The static one (clap derive) routes here with TOOL and the
//! rest of the line untouched. Then the catalog is loaded (local apps first;
//! the node's only when TOOL is not local), TOOL is found, and a second
//! command is built at run time with one flag per declared parameter and the
//! global and call flags, so flags work anywhere on the line and
//! `call TOOL --help` shows the method's signature and parameters. The
//! arguments go through [`Catalog::prepare`] — the same compiled schema the
//! tools carry — so a bad argument is exit 2 and nothing is sent.

mod params;

use std::collections::HashSet;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, FromArgMatches};
use serde_json::{Map, Value, json};

use super::node::{both_tried, runtime, state_dir};
use super::{GlobalArgs, output, report_clap_error};
use crate::abi::{App, LoadOptions};
use crate::catalog::context::{
    Pins, explain_context_error, looks_like_context_id, resolve_context,
};
use crate::catalog::{self, Catalog, Sources};
use crate::error::{Error, Result};
use crate::mapping::Tool;
use crate::mapping::args::Problem;
use crate::mapping::names::app_slug;
use crate::node::{self, Client};
use crate::text::{did_you_mean, sanitize_line};
use params::{ParamSpec, Stdin, ValueKind};

const ABOUT: &str = "\
Call a method on a Calimero node, checking every argument against the ABI first.

TOOL is a generated tool name (`calimcp tools` lists them: kv_store_get) or
APP.METHOD: an app name as the other commands take it, a dot, and the method
(kv-store.get, com.calimero.kv-store.get; a multi-service app's method is
APP.SERVICE.METHOD, or APP.METHOD with --service). Local apps (--apps) come
first, then the node's. APP may also be the path of an abi.json, a .wasm, an
.mpk or a bundle directory (examples/kv-store.get, ./res/abi.json.set).

Each parameter of the method is a flag: `calimcp call TOOL --help` lists them
with their types and docs. Strings are taken literally; integers exactly (u64
and i64 keep every digit; -5 is a value); bools as true/false; bytes as hex or
a JSON array; lists, maps, tuples, records and variants as JSON. For a
non-string parameter, @FILE reads its JSON value from a file and - from stdin.
--args gives the whole argument object (JSON, @FILE or -); a parameter may not
come from both. A parameter named like a calimcp flag (json, service, …) is
--param-NAME, and any parameter can go in --args.

The context: --context, else `_context` in --args, else the one pinned with
`calimcp use APP --context X`, else the app's only context, else the context
aliased `default` when it belongs to the app. An id (64 hex characters, or
base58 of 32 bytes) is used as is; anything else is an alias, looked up on the
node.

Missing required parameters are asked for when stdin and stderr are terminals
(not with --json or --no-input), and the equivalent command is printed on
stderr; otherwise the call fails listing every one of them.

The result (the method's output) is printed as JSON on stdout: pretty on a
terminal, compact otherwise or with --json; a method returning nothing prints
null.

--wait-event NAME subscribes to the context's events before the call, makes
it, then waits (--wait-timeout, default 30 s) for the app's first event called
NAME there: it is printed after the result as `calimcp watch` prints it, or,
with --json, one object {\"result\": …, \"event\": {…}} holds both. If it does
not come in time the exit code is 124.";

const AFTER: &str = "\
Examples:
  calimcp call kv_store_set --key a --value b
  calimcp call kv-store.get --key a --context my-alias
  calimcp call kv_store_set --args '{\"key\":\"a\",\"value\":\"b\"}' --dry-run
  calimcp call every_kind_paint --param-color Red --json   # a parameter named like a flag
  calimcp call kv_store_set --key a --value b --wait-event Inserted
  calimcp use kv-store --context my-alias     # later calls use it

Exit codes: 0 success, 2 bad input (unknown tool, invalid arguments: nothing is
sent), 3 authentication failed, 4 the node is unreachable or timed out, 5 the
node or the application returned an error, 124 the --wait-event event did not
come in time (the call itself succeeded).";

/// Call a method on a node, checking every argument first.
// `--help` is a plain switch here: with TOOL it shows the method's own help,
// which only the run-time command knows.
#[derive(Debug, Args)]
#[command(long_about = ABOUT, after_long_help = AFTER, disable_help_flag = true)]
pub struct CallArgs {
    /// A tool name (kv_store_get) or APP.METHOD (kv-store.get)
    #[arg(value_name = "TOOL", add = clap_complete::ArgValueCompleter::new(super::complete::tool_candidates))]
    pub tool: Option<String>,
    /// Print help; with TOOL, the method's parameters
    #[arg(short = 'h', long)]
    pub help: bool,
    #[command(flatten)]
    pub flags: CallFlags,
    /// The method's parameters, --PARAM VALUE (see `calimcp call TOOL --help`)
    #[arg(
        value_name = "PARAMS",
        trailing_var_arg = true,
        allow_hyphen_values = true,
        num_args = 0..
    )]
    pub rest: Vec<OsString>,
}

/// The options of `call`, accepted before or after TOOL.
#[derive(Debug, Clone, Args)]
pub struct CallFlags {
    /// The whole argument object: JSON, @FILE, or - for stdin
    #[arg(
        long = "args",
        value_name = "JSON|@FILE|-",
        global = true,
        help_heading = "Call options"
    )]
    pub args_json: Option<String>,
    /// The context: an id (64 hex or base58) or an alias
    #[arg(
        short = 'c',
        long,
        value_name = "ID|ALIAS",
        global = true,
        help_heading = "Call options"
    )]
    pub context: Option<String>,
    /// Print the URL and the exact request body instead of sending the call
    #[arg(long, global = true, help_heading = "Call options")]
    pub dry_run: bool,
    /// Never prompt for missing parameters
    #[arg(
        long,
        global = true,
        env = "CALIMCP_NO_INPUT",
        value_parser = clap::builder::FalseyValueParser::new(),
        help_heading = "Call options"
    )]
    pub no_input: bool,
    /// Execute as this identity: a public key (base58 or hex) or an identity alias; honoured by merod 0.10.x only
    #[arg(
        long = "as",
        value_name = "IDENTITY",
        global = true,
        help_heading = "Call options"
    )]
    pub executor: Option<String>,
    /// After the call, wait for the app's event NAME in the call's context and print it too
    #[arg(
        long,
        value_name = "NAME",
        global = true,
        conflicts_with = "dry_run",
        help_heading = "Call options"
    )]
    pub wait_event: Option<String>,
    /// How long --wait-event waits after the call, in seconds (default 30); then exit 124
    #[arg(
        long,
        value_name = "SECS",
        global = true,
        requires = "wait_event",
        value_parser = super::watch::parse_secs,
        help_heading = "Call options"
    )]
    pub wait_timeout: Option<std::time::Duration>,
}

/// Flags a parameter flag must not take: global and call flags, help.
fn reserved_flags() -> HashSet<String> {
    let cmd = CallFlags::augment_args(GlobalArgs::augment_args(clap::Command::new("x")));
    let mut set: HashSet<String> = ["help", "version"].map(String::from).into();
    for a in cmd.get_arguments() {
        set.extend(a.get_long().map(String::from));
        set.extend(a.get_all_aliases().into_iter().flatten().map(String::from));
    }
    set
}

/// The global flags on the line, wherever they are: for finding the apps
/// before the method's own flags are known. Values of other flags are never
/// taken for globals (they would need `--flag=value` to start with `--`).
pub(super) fn prescan_globals(argv: &[OsString]) -> std::result::Result<GlobalArgs, clap::Error> {
    let globals = GlobalArgs::augment_args(clap::Command::new("calimcp").no_binary_name(true));
    let mut kept: Vec<OsString> = Vec::new();
    let mut i = 1;
    while i < argv.len() {
        let Some(tok) = argv[i].to_str() else {
            i += 1;
            continue;
        };
        if tok == "--" {
            break;
        }
        let arg = if let Some(long) = tok.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            globals.get_arguments().find(|a| {
                a.get_long() == Some(name)
                    || a.get_all_aliases().is_some_and(|al| al.contains(&name))
            })
        } else if tok.len() == 2 && tok.starts_with('-') {
            let c = tok.chars().nth(1);
            globals.get_arguments().find(|a| a.get_short() == c)
        } else {
            None
        };
        if let Some(a) = arg {
            kept.push(argv[i].clone());
            if a.get_action().takes_values() && !tok.contains('=') && i + 1 < argv.len() {
                kept.push(argv[i + 1].clone());
                i += 1;
            }
        }
        i += 1;
    }
    let m = globals.try_get_matches_from(kept)?;
    GlobalArgs::from_arg_matches(&m)
}

/// The local apps a call looks at: the --apps directories (no APP paths).
pub(super) fn local_sources(g: &GlobalArgs) -> Sources {
    Sources {
        apps_dirs: g.apps.clone(),
        paths: Vec::new(),
        load: LoadOptions {
            package: g.package.clone(),
        },
    }
}

/// The tool `token` names, if any app of the catalog has it.
pub(super) fn find_tool(
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

fn unknown_tool(catalog: &Catalog, token: &str) -> Error {
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
fn has_suggestion(catalog: &Catalog, token: &str) -> bool {
    let names = catalog.tools.tools.iter().map(|t| t.name.as_str());
    catalog.tools.tools.iter().any(|t| t.method == token) || !did_you_mean(token, names).is_empty()
}

/// The run-time command of a tool (for completion).
pub(super) fn tool_command(token: &str, tool: &Tool, app: &App) -> clap::Command {
    command(token, tool, app, &params::specs(tool, &reserved_flags()))
}

/// The run-time command: globals, `call` with its flags, and TOOL with one flag per parameter.
fn command(token: &str, tool: &Tool, app: &App, specs: &[ParamSpec]) -> clap::Command {
    let mut long_about = tool.signature.clone();
    if let Some(doc) = &tool.doc {
        long_about.push_str("\n\n");
        long_about.push_str(crate::text::sanitize_doc(doc).trim());
    }
    let owner = match &tool.service {
        Some(s) => format!("{} (service {})", app.package_or_id(), s),
        None => app.package_or_id().to_string(),
    };
    long_about.push_str(&format!(
        "\n\nTool {} of {}, from {}.",
        tool.name,
        sanitize_line(&owner),
        sanitize_line(&app.source)
    ));
    let no_flag: Vec<String> = specs
        .iter()
        .filter(|s| s.long.is_none())
        .map(|s| format!("`{}`", sanitize_line(&s.name)))
        .collect();
    if !no_flag.is_empty() {
        long_about.push_str(&format!(
            "\nParameters without a flag (pass them in --args): {}.",
            no_flag.join(", ")
        ));
    }
    let example: Vec<String> = specs
        .iter()
        .filter(|s| s.required)
        .map(|s| match &s.long {
            Some(l) => format!("--{l} <{}>", sanitize_line(&s.type_name)),
            None => s.flag(),
        })
        .collect();
    let after = format!(
        "Values: strings literal; integers exact (-5 is a value); bytes as hex or a JSON array;\n\
         other types as JSON. For a non-string parameter, @FILE reads the JSON value from a\n\
         file and - from stdin. --args JSON|@FILE|- gives the whole argument object.\n\n\
         Example:\n  calimcp call {} {}",
        sanitize_line(token),
        example.join(" ")
    );
    let tool_cmd = clap::Command::new(token.to_string())
        .about(tool.signature.clone())
        .long_about(long_about)
        .after_long_help(after)
        .allow_negative_numbers(true)
        .args(specs.iter().filter_map(params::arg));
    let call = CallFlags::augment_args(clap::Command::new("call"))
        .about("Call a method on a node, checking every argument first")
        .subcommand(tool_cmd)
        .subcommand_required(true)
        .disable_help_subcommand(true);
    // Flags that change nothing about a call stay accepted but unlisted.
    ["color", "package", "refs", "max_name_len"].iter().fold(
        GlobalArgs::augment_args(
            clap::Command::new("calimcp")
                .bin_name("calimcp")
                .max_term_width(100)
                .subcommand(call),
        ),
        |cmd, id| cmd.mut_arg(*id, |a| a.hide(true)),
    )
}

/// Every problem with the arguments in one error: the flags that could not be
/// read, then what the schema found in the rest (a parameter whose flag was
/// unreadable is not reported again as missing).
fn invalid_args(
    tool: &Tool,
    specs: &[ParamSpec],
    flag_problems: &[FlagProblem],
    problems: &[Problem],
) -> Error {
    let unreadable = |path: &str| {
        flag_problems.iter().any(|(name, _)| {
            path.strip_prefix(name.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        })
    };
    let flag_lines = flag_problems.iter().map(|(_, line)| format!("\n  {line}"));
    let lines: Vec<String> = flag_lines
        .chain(problems.iter().filter(|p| !unreadable(&p.path)).map(|p| {
            let flag = specs
                .iter()
                .find(|s| s.name == p.path)
                .filter(|_| p.message.starts_with("missing"))
                .map(|s| format!("; pass {}", s.flag()))
                .unwrap_or_default();
            format!("\n  {p}{flag}")
        }))
        .collect();
    let mut structured: Vec<Value> = flag_problems
        .iter()
        .map(|(name, line)| problem_json(name, line))
        .collect();
    structured.extend(
        problems
            .iter()
            .filter(|p| !unreadable(&p.path))
            .map(|p| problem_json(&p.path, &p.message)),
    );
    let mut e = Error::input(
        "invalid_arguments",
        format!(
            "invalid arguments for {} (nothing was sent):{}",
            tool.name,
            lines.concat()
        ),
    )
    .with_hint(format!("see `calimcp call {} --help`", tool.name));
    e.problems = structured;
    e
}

/// One problem for `--json`: its path and message, and what was expected
/// and given where the message says (`expected X, got Y`).
fn problem_json(path: &str, message: &str) -> Value {
    let mut v = json!({"path": sanitize_line(path), "message": sanitize_line(message)});
    if let Some(rest) = message.split_once("expected ").map(|(_, r)| r) {
        let (expected, got) = match rest.split_once(", got ") {
            Some((e, g)) => (e, Some(g)),
            None => (rest, None),
        };
        let expected = expected.trim_end_matches(')');
        v["expected"] = sanitize_line(expected).into();
        if let Some(g) = got {
            v["got"] = sanitize_line(g).into();
        }
    }
    v
}

/// Quotes a word for a POSIX shell when it needs it.
fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c));
    if safe {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The command line without prompts: the original words (a `--token` value
/// replaced by the variable) plus the answers.
fn equivalent(argv: &[OsString], added: &[(String, String)]) -> String {
    let mut words = vec!["calimcp".to_string()];
    let mut hide_next = false;
    for w in argv.iter().skip(1) {
        let w = w.to_string_lossy();
        if hide_next {
            words.push("\"$CALIMERO_AUTH_TOKEN\"".into());
            hide_next = false;
        } else if w == "--token" {
            words.push(w.into_owned());
            hide_next = true;
        } else if w.starts_with("--token=") {
            words.push("--token=\"$CALIMERO_AUTH_TOKEN\"".into());
        } else {
            words.push(shell_quote(&w));
        }
    }
    for (flag, value) in added {
        words.push(flag.clone());
        words.push(shell_quote(value));
    }
    sanitize_line(&words.join(" "))
}

/// Asks for each missing parameter; returns the flags and values given.
/// Asks for one line on the terminal (stderr, then stdin in its usual line
/// mode) until `check` accepts it; Ctrl-D (end of input) cancels.
fn ask(
    label: &str,
    check: impl Fn(&str) -> std::result::Result<(), String>,
) -> std::result::Result<String, String> {
    use std::io::Write;
    loop {
        eprint!("{label}: ");
        let _ = std::io::stderr().flush();
        let mut line = String::new();
        match std::io::stdin().read_line(&mut line) {
            Ok(0) => {
                eprintln!();
                return Err("end of input (Ctrl-D)".into());
            }
            Ok(_) => {}
            Err(e) => return Err(e.to_string()),
        }
        let answer = line.trim_end_matches(['\n', '\r']).to_string();
        match check(&answer) {
            Ok(()) => return Ok(answer),
            Err(why) => eprintln!("  {}", sanitize_line(&why)),
        }
    }
}

fn prompt(missing: &[&ParamSpec], args: &mut Map<String, Value>) -> Result<Vec<(String, String)>> {
    let mut added = Vec::new();
    for spec in missing {
        let label = format!(
            "{} ({})",
            sanitize_line(&spec.name),
            sanitize_line(&spec.type_name)
        );
        let kind = spec.kind;
        // What the value is for and what it looks like, above the question.
        let doc = spec
            .doc
            .as_deref()
            .and_then(|d| d.lines().next())
            .map(str::trim);
        let mut about = Vec::new();
        if let Some(d) = doc.filter(|d| !d.is_empty()) {
            about.push(sanitize_line(d));
        }
        if let Some(shape) = &spec.shape {
            about.push(format!("looks like: {shape}"));
        }
        if !about.is_empty() {
            eprintln!("  {}", about.join("; "));
        }
        let answer = ask(&label, |s| {
            if s.is_empty() && kind != ValueKind::Str {
                return Err("a value is needed".into());
            }
            if kind != ValueKind::Str && (s == "-" || s.starts_with('@')) {
                return Err("type the value itself here".into());
            }
            params::parse_value(kind, s, &mut Stdin::new(Box::new(|| Ok(String::new()))), "")
                .map(|_| ())
        })
        .map_err(|why| {
            Error::input(
                "cancelled",
                format!(
                    "cancelled: no value for {} ({why}); nothing was sent",
                    spec.flag()
                ),
            )
        })?;
        let value = params::parse_value(kind, &answer, &mut Stdin::default(), "")
            .map_err(|e| Error::input("invalid_arguments", e))?;
        args.insert(spec.name.clone(), value);
        added.push((spec.flag(), answer));
    }
    Ok(added)
}

fn sub<'a>(m: &'a ArgMatches, name: &str) -> Option<&'a ArgMatches> {
    m.subcommand_matches(name)
}

/// The node, connected on first use.
struct Node<'a> {
    args: &'a super::node::NodeArgs,
    conn: Option<(Client, tokio::runtime::Runtime)>,
}

impl Node<'_> {
    fn get(&mut self) -> Result<&(Client, tokio::runtime::Runtime)> {
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
fn path_method(token: &str) -> Result<Option<(PathBuf, Option<String>, String)>> {
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
fn locate_path(
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
        super::check_service(&catalog.apps[index], s)?;
    }
    let by_id = format!("{}.{method}", catalog.apps[index].id);
    match find_tool(&catalog, &by_id, service.as_deref())? {
        Some(tool) => Ok((catalog, tool)),
        None => Err(unknown_tool(&catalog, token)),
    }
}

/// The catalog and the tool `token` names: local apps first, then the node's.
fn locate(g: &GlobalArgs, node: &mut Node<'_>, token: &str) -> Result<(Catalog, Tool)> {
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
fn find_context(
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

/// A parameter flag whose value could not be read: (parameter name, message).
type FlagProblem = (String, String);

/// The argument object: `--args`, then the parameter flags, then (on a
/// terminal, when every flag could be read) prompts for the required ones
/// still missing, after `before_prompt` (which finds the node and context). Flags whose values cannot be read come back beside it, so
/// they are reported together with what the schema finds.
fn arguments(
    g: &GlobalArgs,
    flags: &CallFlags,
    specs: &[ParamSpec],
    tool_m: &ArgMatches,
    argv: &[OsString],
    before_prompt: &mut dyn FnMut(&Map<String, Value>) -> Result<()>,
) -> Result<(Map<String, Value>, Vec<FlagProblem>)> {
    let mut stdin = Stdin::default();
    let mut obj = match &flags.args_json {
        Some(raw) => {
            params::parse_args(raw, &mut stdin).map_err(|e| Error::input("invalid_arguments", e))?
        }
        None => Map::new(),
    };
    let mut problems = Vec::new();
    for spec in specs {
        if tool_m.value_source(&spec.id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let Some(raw) = tool_m.get_one::<String>(&spec.id) else {
            continue;
        };
        if obj.contains_key(&spec.name) {
            problems.push((
                spec.name.clone(),
                format!(
                    "{}: given both in --args and as {}",
                    sanitize_line(&spec.name),
                    spec.flag()
                ),
            ));
            continue;
        }
        match params::parse_value(spec.kind, raw, &mut stdin, &spec.flag()) {
            Ok(v) => {
                obj.insert(spec.name.clone(), v);
            }
            Err(e) => problems.push((spec.name.clone(), format!("{}: {e}", spec.flag()))),
        }
    }
    if !problems.is_empty() {
        return Ok((obj, problems));
    }
    let missing: Vec<&ParamSpec> = specs
        .iter()
        .filter(|s| s.required && !obj.contains_key(&s.name))
        .collect();
    let interactive = !missing.is_empty()
        && std::io::stdin().is_terminal()
        && std::io::stderr().is_terminal()
        && !g.json
        && !flags.no_input;
    if interactive {
        // Whatever can fail without the user's answers fails before the questions.
        before_prompt(&obj)?;
        let added = prompt(&missing, &mut obj)?;
        g.ui().note(format_args!(
            "the same call without prompts:\n  {}",
            equivalent(argv, &added)
        ));
    }
    Ok((obj, problems))
}

/// clap suggests a flag only above its own Jaro threshold, which misses two
/// swapped letters (`--kye` for `--key`); an unknown flag with no suggestion
/// gets the did-you-mean the rest of calimcp uses, over the method's
/// parameter flags.
fn suggest_param_flag(e: &mut clap::Error, specs: &[ParamSpec]) {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument || e.get(ContextKind::SuggestedArg).is_some() {
        return;
    }
    let Some(ContextValue::String(given)) = e.get(ContextKind::InvalidArg) else {
        return;
    };
    let Some(name) = given.strip_prefix("--") else {
        return;
    };
    let name = name.split('=').next().unwrap_or(name);
    let flags = specs
        .iter()
        .flat_map(|s| s.long.iter().chain(s.alias.iter()));
    if let Some(best) = did_you_mean(name, flags.map(String::as_str)).first() {
        e.insert(
            ContextKind::SuggestedArg,
            ContextValue::String(format!("--{best}")),
        );
    }
}

pub fn run(g1: &GlobalArgs, args: CallArgs) -> Result<u8> {
    let Some(token) = args.tool.clone() else {
        let mut cmd = super::command();
        cmd.build();
        let call = cmd
            .find_subcommand_mut("call")
            .ok_or_else(|| Error::internal("no call command"))?;
        if args.help {
            output::print(&call.render_long_help().to_string())?;
            return Ok(0);
        }
        let e = call.error(
            clap::error::ErrorKind::MissingRequiredArgument,
            "a TOOL is required: a tool name (`calimcp tools` lists them) or APP.METHOD",
        );
        return Ok(report_clap_error(&e, g1.json));
    };
    let argv: Vec<OsString> = std::env::args_os().collect();
    let g = match prescan_globals(&argv) {
        Ok(g) => g,
        Err(e) => return Ok(report_clap_error(&e, g1.json)),
    };
    let mut node = Node {
        args: &g.node,
        conn: None,
    };
    let (catalog, tool) = locate(&g, &mut node, &token)?;
    let app = &catalog.apps[tool.app];
    if g.node.verbose {
        for w in &app.warnings {
            g.ui().warn(w);
        }
    }

    // The second parse, with the method's parameters.
    let specs = params::specs(&tool, &reserved_flags());
    let matches = match command(&token, &tool, app, &specs).try_get_matches_from(&argv) {
        Ok(m) => m,
        Err(mut e) => {
            suggest_param_flag(&mut e, &specs);
            return Ok(report_clap_error(&e, g.json));
        }
    };
    let tool_m = sub(&matches, "call")
        .and_then(|m| m.subcommand())
        .map(|(_, m)| m)
        .ok_or_else(|| Error::internal("the tool's matches are missing"))?;
    let flags = CallFlags::from_arg_matches(tool_m).map_err(|e| Error::internal(e.to_string()))?;
    let service = tool.service.as_deref();
    let mut early: Option<(String, String)> = None;
    let (obj, flag_problems) = arguments(&g, &flags, &specs, tool_m, &argv, &mut |obj| {
        let explicit = flags.context.clone().or_else(|| {
            obj.get(crate::mapping::schema::CONTEXT_PARAM)
                .and_then(Value::as_str)
                .map(str::to_string)
        });
        early = Some(find_context(
            &g,
            &mut node,
            &flags,
            app,
            service,
            explicit.as_deref(),
        )?);
        Ok(())
    })?;
    let prepared = match catalog.prepare(&tool, &Value::Object(obj)) {
        Ok(prepared) if flag_problems.is_empty() => prepared,
        Ok(_) => return Err(invalid_args(&tool, &specs, &flag_problems, &[])),
        Err(problems) => return Err(invalid_args(&tool, &specs, &flag_problems, &problems)),
    };

    let explicit = flags.context.clone().or(prepared.context.clone());
    let (context, url) = match early {
        Some(found) => found,
        None => find_context(&g, &mut node, &flags, app, service, explicit.as_deref())?,
    };
    let executor = flags.executor.as_deref();
    if flags.dry_run {
        let body =
            Client::execute_body(&context, &prepared.method, &prepared.args_json, executor, 1);
        if g.json {
            output::print_json_compact(&json!({"method": "POST", "url": url, "body": body}))?;
        } else {
            output::print(&format!(
                "POST {url}\n{}\n",
                crate::text::json_inert(body.to_string())
            ))?;
        }
        return Ok(0);
    }
    let (client, rt) = node.get()?;
    // With --wait-event the subscription comes first, so the event cannot be missed.
    let mut sub = match &flags.wait_event {
        Some(name) => {
            let declared = app
                .service(service)
                .is_some_and(|s| s.manifest.events.iter().any(|e| &e.name == name));
            if !declared {
                g.ui().warn(format_args!(
                    "{} declares no event `{}`; waiting for it anyway",
                    sanitize_line(app.package_or_id()),
                    sanitize_line(name)
                ));
            }
            Some(rt.block_on(client.subscribe(std::slice::from_ref(&context)))?)
        }
        None => None,
    };
    let out = match rt.block_on(client.execute(
        &context,
        &prepared.method,
        &prepared.args_json,
        executor,
    )) {
        Ok(out) => out,
        Err(e) => {
            let e = rt.block_on(explain_context_error(client, app, service, &context, e));
            return Err(prepared.explain(e));
        }
    };
    let (Some(name), Some(sub)) = (&flags.wait_event, sub.as_mut()) else {
        if g.json {
            output::print_json_compact(&out)?;
        } else {
            output::print_json(&out)?;
        }
        return Ok(0);
    };
    let wait = flags.wait_timeout.unwrap_or(DEFAULT_WAIT);
    let manifest = app
        .service(service)
        .or_else(|| app.services.first())
        .map(|s| s.manifest.clone())
        .unwrap_or_default();
    let deadline = tokio::time::Instant::now() + wait;
    let ui = g.ui();
    let line = rt.block_on(super::watch::wait_for(
        &ui, sub, &manifest, &context, name, deadline,
    ))?;
    if g.json {
        let event = line.as_ref().map_or(Value::Null, |l| l.json());
        output::print_json_compact(&json!({"result": out, "event": event}))?;
    } else {
        output::print_json(&out)?;
        if let Some(l) = &line {
            output::print(&l.text(ui.color_out))?;
        }
    }
    if line.is_none() {
        ui.error(&Error::new(
            crate::error::ErrorKind::Remote,
            "timeout",
            format!(
                "the call succeeded, but no `{}` event arrived within {} s",
                sanitize_line(name),
                wait.as_secs_f64()
            ),
        ));
        return Ok(super::watch::EXIT_TIMEOUT);
    }
    Ok(0)
}

/// How long `--wait-event` waits when `--wait-timeout` is not given.
const DEFAULT_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globals_are_found_anywhere_and_values_are_not_flags() {
        let argv: Vec<OsString> = [
            "calimcp",
            "call",
            "kv_store_set",
            "--key",
            "a",
            "--apps",
            "x:y",
            "--node=http://n",
            "-v",
            "--delta",
            "-5",
            "--json",
            "--",
            "--service",
            "s",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let g = prescan_globals(&argv).unwrap();
        assert_eq!(g.apps.len(), 2);
        assert_eq!(g.node.url.as_deref(), Some("http://n"));
        assert!(g.node.verbose && g.json);
        assert_eq!(g.service, None, "nothing after -- is a flag");
    }

    #[test]
    fn the_run_time_command_is_well_formed() {
        let abi = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/support/abi/typed.json"
        ))
        .unwrap();
        let m = crate::abi::parse_manifest(&abi, &mut Vec::new()).unwrap();
        let app = App {
            id: "t".into(),
            package: Some("com.calimero.typed".into()),
            services: vec![crate::abi::Service {
                name: None,
                manifest: m.into(),
            }],
            ..App::default()
        };
        let set = crate::mapping::build(std::slice::from_ref(&app), &Default::default());
        let reserved = reserved_flags();
        assert!(
            reserved.contains("json") && reserved.contains("api") && reserved.contains("context")
        );
        for tool in &set.tools {
            let specs = params::specs(tool, &reserved);
            command(&tool.name, tool, &app, &specs).debug_assert();
        }
    }

    #[test]
    fn equivalent_commands_quote_and_hide_the_token() {
        let argv: Vec<OsString> = ["/bin/calimcp", "call", "t", "--token", "s3cret", "--x=it's"]
            .iter()
            .map(OsString::from)
            .collect();
        let s = equivalent(&argv, &[("--key".into(), "a b".into())]);
        assert_eq!(
            s,
            r#"calimcp call t --token "$CALIMERO_AUTH_TOKEN" '--x=it'\''s' --key 'a b'"#
        );
    }
}
