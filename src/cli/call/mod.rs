//! `calimcp call TOOL [--PARAM VALUE …]`: a validated call of one method on a node.
//!
//! The line is read in one pass once the tool is known. The static parse
//! (clap derive, in `cli`) only routes here with TOOL, and the global flags
//! are read from the whole line there, since they may come anywhere (also
//! after the parameters). With them the catalog is loaded (local apps first;
//! the node's only when TOOL is not local) and TOOL is found; then the tool's
//! run-time command ([`super::toolcmd`]: the global and call flags and one
//! flag per declared parameter) parses the line, so flags work anywhere on
//! it and `call TOOL --help` shows the method's signature and parameters. The
//! arguments go through [`Catalog::prepare`] — the same compiled schema the
//! tools carry — so a bad argument is exit 2 and nothing is sent.
//!
//! Here: the command's arguments and `run`; `locate` finds the context,
//! `argv` reports the problems of the parsed line.

mod argv;
mod locate;
mod until;

use std::ffi::OsString;

use clap::{ArgMatches, Args, FromArgMatches};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::toolcmd::files::{self, BlobFile, progress_line};
use super::toolcmd::input::{Given, arguments};
use super::toolcmd::params::{self, ParamSpec};
use super::toolcmd::prompt::answer_check;
use super::toolcmd::{CallFlags, command, reserved_flags, unknown_flag};
use super::{GlobalArgs, output};
use argv::*;
use calimcp_catalog::Catalog;
use calimcp_catalog::call::{Audience, Bound, Use, check_use};
use calimcp_catalog::context::looks_like_context_id;
use calimcp_catalog::events::Subscription;
use calimcp_catalog::invoke::Prepared;
use calimcp_catalog::session::Session;
use calimcp_catalog::wait::Pace;
use calimcp_core::abi::App;
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::mapping::Tool;
use calimcp_core::mapping::args::Problem;
use calimcp_core::text::sanitize_line;
use locate::*;

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
A bytes parameter takes a file: @bytes:FILE sends its raw bytes (binary
allowed; a fixed-size bytes checks the length), and for a 32-byte id (a
BlobId) @blob:FILE uploads the file as a blob, once, just before the call
(--dry-run says what it would upload and uploads nothing), and passes its
blob id as the node writes ids.
A nullable (optional) parameter's flag takes null for JSON null (--v null; the
string `null` then goes in --args). --args gives the whole argument object
(JSON, @FILE or -); a parameter may not come from both. A parameter named like a calimcp flag (json, service, …) is
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
not come in time the exit code is 124.

--until VALUE repeats a [view] call every --every seconds (default 1) until its
result equals VALUE (JSON; a bare word is a string), --until-path PATH=VALUE
until the value at PATH in it does (a JSON pointer /a/0 or a dotted path a.0);
the result is printed once. [view] is the method's kind in the version the
context runs. --within (default 60) bounds the whole wait, finding the context
included; the last try is at the deadline, then the last result is printed
and the exit code is 124. -v shows each try.";

const AFTER: &str = "\
Examples:
  calimcp call kv_store_set --key a --value b
  calimcp call kv-store.get --key a --context my-alias
  calimcp call kv_store_set --args '{\"key\":\"a\",\"value\":\"b\"}' --dry-run
  calimcp call every_kind_paint --param-color Red --json   # a parameter named like a flag
  calimcp call kv_store_set --key a --value b --wait-event Inserted
  calimcp call kv-store.get --key a --until b --within 30   # repeat until it returns \"b\"
  calimcp use kv-store --context my-alias     # later calls use it

Exit codes: 0 success, 2 bad input (unknown tool, invalid arguments: nothing is
sent), 3 authentication failed, 4 the node is unreachable or timed out, 5 the
node or the application returned an error, 124 the --wait-event event did not
come in time (the call itself succeeded), or --until did not see the value
within --within.";

/// Call a method on a node, checking every argument first.
// `--help` is a plain switch here: with TOOL it shows the method's own help,
// which only the run-time command knows.
#[derive(Debug, Args)]
#[command(long_about = ABOUT, after_long_help = AFTER, disable_help_flag = true)]
pub(crate) struct CallArgs {
    /// A tool name (kv_store_get) or APP.METHOD (kv-store.get)
    #[arg(value_name = "TOOL", add = clap_complete::ArgValueCompleter::new(super::complete::tool_candidates))]
    tool: Option<String>,
    /// Print help; with TOOL, the method's parameters
    #[arg(short = 'h', long)]
    pub help: bool,
    #[command(flatten)]
    flags: CallFlags,
    /// The method's parameters, --PARAM VALUE (see `calimcp call TOOL --help`)
    #[arg(
        value_name = "PARAMS",
        trailing_var_arg = true,
        allow_hyphen_values = true,
        num_args = 0..
    )]
    pub rest: Vec<OsString>,
}

/// `g` holds the global flags of the whole line (read in [`super::main`]:
/// after TOOL they are part of the tool's line, which the static parse leaves
/// to this command). The steps are the engine's ([`calimcp_catalog::call`]):
/// locate the tool, bind its context, take that version's tool, check, send.
pub(crate) fn run(g: &GlobalArgs, args: CallArgs, argv: &[OsString]) -> Result<()> {
    let Some(token) = args.tool.clone() else {
        return no_tool(g, args.help);
    };
    let session = g.session()?;
    let located = session.locate(&token);
    g.say(&session);
    let (catalog, tool) = located?;
    for w in &catalog.skipped {
        g.ui().warn(w);
    }
    let app = &catalog.apps[tool.app];
    if g.node.verbose {
        for w in &app.warnings {
            g.ui().warn(w);
        }
    }
    // The one parse of the line, with the method's parameters.
    let specs = params::specs(&tool, &reserved_flags());
    let mut cmd = command(&token, &tool, app, &specs);
    let matches = match cmd.try_get_matches_from_mut(argv) {
        Ok(m) => m,
        Err(mut e) => {
            if let Some(err) = unknown_flag(&mut e, &cmd, &tool, &specs) {
                return Err(err);
            }
            plain_usage(&mut e, &mut cmd, &token);
            return super::clap_result(&e, g.json);
        }
    };
    let tool_m = sub(&matches, "call")
        .and_then(|m| m.subcommand())
        .map(|(_, m)| m)
        .ok_or_else(|| Error::internal("the tool's matches are missing"))?;
    let flags = CallFlags::from_arg_matches(tool_m).map_err(|e| Error::internal(e.to_string()))?;
    let until = until::Until::from_flags(&flags)?;
    // --within bounds the whole wait: finding the context is part of it.
    let pace = until.as_ref().map(until::Until::pace);
    let call = Call {
        g,
        session: &session,
        flags: &flags,
        catalog: &catalog,
        tool: &tool,
        pace: pace.as_ref(),
    };
    // A --within that runs out here is an error of kind Timeout: exit 124.
    let ready = call.ready(&specs, tool_m, argv)?;
    // What binding the context noted (a context that moves on this call).
    g.say(&session);
    if flags.dry_run {
        for line in files::would_upload(&ready.blobs) {
            g.ui().note(line);
        }
        return dry_run(g, &ready, flags.executor.as_deref());
    }
    let ready = call.uploaded(ready)?;
    match (&until, &pace) {
        (Some(until), Some(pace)) => until::repeat(&call, &ready, until, pace),
        _ => once(&call, &ready),
    }
}

/// clap's usage line names the flags given (`Usage: calimcp call T --apps
/// <DIR>`), as if they were required: the tool's plain usage line instead.
fn plain_usage(e: &mut clap::Error, cmd: &mut clap::Command, token: &str) {
    use clap::error::{ContextKind, ContextValue};
    if e.get(ContextKind::Usage).is_none() {
        return;
    }
    cmd.build();
    let Some(tool) = cmd
        .find_subcommand_mut("call")
        .and_then(|c| c.find_subcommand_mut(token))
    else {
        return;
    };
    e.insert(
        ContextKind::Usage,
        ContextValue::StyledStr(tool.render_usage()),
    );
}

/// `call` without TOOL: its help with `--help`, else a usage error.
fn no_tool(g: &GlobalArgs, help: bool) -> Result<()> {
    let mut cmd = super::command();
    cmd.build();
    let call = cmd
        .find_subcommand_mut("call")
        .ok_or_else(|| Error::internal("no call command"))?;
    if help {
        output::print(&call.render_long_help().to_string())?;
        return Ok(());
    }
    let e = call.error(
        clap::error::ErrorKind::MissingRequiredArgument,
        "a TOOL is required: a tool name (`calimcp tools` lists them) or APP.METHOD",
    );
    Err(super::usage_error(&e, g.json))
}

/// One call being made: the command's options and the located tool.
struct Call<'a> {
    g: &'a GlobalArgs,
    session: &'a Session,
    flags: &'a CallFlags,
    catalog: &'a Catalog,
    /// The tool as listed (the newest version's).
    tool: &'a Tool,
    /// The pace of `--until` (its deadline bounds finding the context too).
    pace: Option<&'a Pace>,
}

/// A call ready to send: its context and its checked arguments.
struct Ready {
    found: Found,
    prepared: Prepared,
    /// The argument object as read (before preparation).
    args: Value,
    /// Files to upload as blobs before the call is sent (`@blob:FILE`).
    blobs: Vec<BlobFile>,
}

impl Ready {
    /// The call bound to its context (every call but a dry run with an id has one).
    fn bound(&self) -> Result<&Bound> {
        self.found
            .bound
            .as_ref()
            .ok_or_else(|| Error::internal("a call without its context"))
    }
}

impl Call<'_> {
    fn app(&self) -> &App {
        &self.catalog.apps[self.tool.app]
    }

    /// What the call is used for, which the method's kind may refuse.
    fn uses(&self) -> Use {
        Use {
            repeated: self.pace.is_some(),
            read_only: false,
        }
    }

    /// The context (asked for early when a parameter is prompted for), and
    /// the arguments checked with the ABI of the version it runs.
    fn ready(&self, specs: &[ParamSpec], tool_m: &ArgMatches, argv: &[OsString]) -> Result<Ready> {
        let mut early: Option<Found> = None;
        let check = answer_check(|v| self.catalog.prepare(self.tool, v).map(|_| ()));
        let flags = self.flags;
        let given = Given {
            args_json: flags.args_json.as_deref(),
            no_input: flags.no_input,
            what: "call",
        };
        let read = arguments(self.g, &given, specs, tool_m, argv, &check, &mut |obj| {
            let explicit = flags.context.clone().or_else(|| {
                obj.get(calimcp_core::mapping::schema::CONTEXT_PARAM)
                    .and_then(Value::as_str)
                    .map(str::to_string)
            });
            early = Some(self.find(explicit.as_deref())?);
            Ok(())
        })?;
        let (args, flag_problems, blobs) = (Value::Object(read.obj), read.problems, read.blobs);
        let prepared = match self.catalog.prepare(self.tool, &args) {
            Ok(prepared) if flag_problems.is_empty() => prepared,
            Ok(_) => return Err(invalid_args(self.tool, specs, &flag_problems, &[])),
            Err(problems) => {
                return Err(invalid_args(self.tool, specs, &flag_problems, &problems));
            }
        };
        let found = match early {
            Some(found) => found,
            None => self.find(flags.context.as_deref().or(prepared.context.as_deref()))?,
        };
        // The context may run another version of the app than the tool was
        // built from: the call is checked and built with that version's ABI.
        let prepared = match found.bound.as_ref().filter(|b| b.version().is_some()) {
            Some(b) => b
                .prepare(self.catalog, self.tool, &args)
                .map_err(|problems| invalid_args(b.tool(self.tool), specs, &[], &problems))?,
            None => prepared,
        };
        Ok(Ready {
            found,
            prepared,
            args,
            blobs,
        })
    }

    /// The `@blob:FILE` files uploaded (once each), and the arguments
    /// prepared again when the node writes their ids in another form.
    fn uploaded(&self, mut ready: Ready) -> Result<Ready> {
        let progress = |p: &std::path::Path, n| progress_line(self.g, &p.display().to_string(), n);
        let changed = files::upload(self.session, &ready.blobs, &progress)?;
        if changed.is_empty() {
            return Ok(ready);
        }
        if let Value::Object(o) = &mut ready.args {
            for (param, id) in changed {
                o.insert(param, Value::String(id));
            }
        }
        let again = match ready.found.bound.as_ref().filter(|b| b.version().is_some()) {
            Some(b) => b.prepare(self.catalog, self.tool, &ready.args),
            None => self.catalog.prepare(self.tool, &ready.args),
        };
        ready.prepared = again.map_err(|problems| invalid_args(self.tool, &[], &[], &problems))?;
        Ok(ready)
    }

    /// The context `explicit` (else the pinned one, the only one, or the
    /// `default` alias) means, and the refusals of the method's kind there.
    fn find(&self, explicit: Option<&str>) -> Result<Found> {
        let found = find_context(self, explicit)?;
        match &found.bound {
            Some(b) => b.check_use(self.tool, self.uses())?,
            None => check_use(self.tool, self.uses(), Audience::Cli, "")?,
        }
        Ok(found)
    }

    /// Says that a try failed and is retried after `pause`.
    fn retrying(&self, e: &Error, tried: u32, pause: std::time::Duration) {
        self.g.ui().warn(format_args!(
            "{} (retry {tried} of {} in {} s)",
            e.message,
            self.flags.retry,
            pause.as_secs_f64()
        ));
    }
}

/// What `call --dry-run --json` prints: the request that would be sent.
#[derive(Serialize, JsonSchema)]
pub(crate) struct DryRun<'a> {
    /// The HTTP method (always `POST`).
    pub method: &'a str,
    /// The node's JSON-RPC URL (without credentials).
    pub url: &'a str,
    /// The JSON-RPC request body: merod's `execute` with the context, method and arguments.
    pub body: &'a Value,
}

/// What `call --wait-event NAME --json` prints: the call's result and the
/// event waited for, in one object.
#[derive(Serialize, JsonSchema)]
pub(crate) struct WithEvent<'a> {
    /// The method's result, as `call --json` prints it.
    pub result: &'a Value,
    /// The event, as `watch --json` prints it; `null` when none came in
    /// time (the command then fails with a timeout, exit 124).
    #[schemars(with = "Option<calimcp_core::mapping::events::EventLine<'static>>")]
    pub event: Option<Value>,
}

/// `--dry-run`: the request that would be sent.
fn dry_run(g: &GlobalArgs, ready: &Ready, executor: Option<&str>) -> Result<()> {
    let Found { context, url, .. } = &ready.found;
    let p = &ready.prepared;
    let body = calimcp_catalog::send::execute_body(context, &p.method, &p.args_json, executor);
    if g.json {
        output::print_json_compact(&DryRun {
            method: "POST",
            url,
            body: &body,
        })?;
    } else {
        output::print(&format!(
            "POST {url}\n{}\n",
            calimcp_core::text::json_inert(body.to_string())
        ))?;
    }
    Ok(())
}

/// The call made once (retried with `--retry` while the node's error says
/// nothing ran, or the method only reads in the context's version), then,
/// with `--wait-event`, the event waited for.
fn once(c: &Call, ready: &Ready) -> Result<()> {
    let (session, rt) = (c.session, c.session.runtime()?);
    let bound = ready.bound()?;
    let p = &ready.prepared;
    let executor = c.flags.executor.as_deref();
    // With --wait-event the subscription comes first, so the event cannot be missed.
    let sub = match &c.flags.wait_event {
        Some(name) => Some(subscribe(c, &bound.target.id, name, &p.method)?),
        None => None,
    };
    let retries = c.flags.retry;
    let out = rt.block_on(session.send(
        bound,
        c.tool,
        c.app(),
        p,
        executor,
        retries,
        |e, n, pause| c.retrying(e, n, pause),
    ))?;
    if let Some(who) = executor
        && rt.block_on(session.ignores_executor(&bound.target.info.application_id))
    {
        c.g.ui().warn(format_args!(
            "--as {} was ignored: the node at {} (merod 0.11.0-rc.19 or later) runs every call as its own identity in the context",
            sanitize_line(who),
            session.url()?
        ));
    }
    match (&c.flags.wait_event, sub) {
        (Some(name), Some(sub)) => wait_event(c, &bound.target.id, name, sub, out),
        _ => {
            print_result(c.g, &out)?;
            Ok(())
        }
    }
}

fn print_result(g: &GlobalArgs, out: &Value) -> Result<()> {
    if g.json {
        output::print_json_compact(out)
    } else {
        output::print_json(out)
    }
}

/// The subscription `--wait-event` opens before the call, bounded by
/// `--wait-timeout`: nothing is called until it is open.
fn subscribe(c: &Call, context: &str, name: &str, method: &str) -> Result<Subscription> {
    let (session, rt) = (c.session, c.session.runtime()?);
    super::events::warn_undeclared(&c.g.ui(), c.app(), c.tool.service.as_deref(), name);
    let wait = c.flags.wait_timeout.unwrap_or(DEFAULT_WAIT);
    let contexts = [context.to_string()];
    let opened =
        rt.block_on(async { tokio::time::timeout(wait, session.subscribe(&contexts)).await });
    match opened {
        Ok(sub) => sub,
        Err(_) => Err(Error::new(
            calimcp_core::error::ErrorKind::Unreachable,
            Code::StreamTimeout,
            format!(
                "the node at {} did not open its event stream within {} s; `{}` was not called",
                session.url()?,
                wait.as_secs_f64(),
                sanitize_line(method)
            ),
        )
        .with_hint("raise --wait-timeout, or call without --wait-event")),
    }
}

/// After the call: its result, then the first `name` event in `context`.
fn wait_event(
    c: &Call,
    context: &str,
    name: &str,
    mut sub: Subscription,
    out: Value,
) -> Result<()> {
    let (g, rt) = (c.g, c.session.runtime()?);
    let wait = c.flags.wait_timeout.unwrap_or(DEFAULT_WAIT);
    let manifest = c
        .app()
        .service(c.tool.service.as_deref())
        .or_else(|| c.app().services.first())
        .map(|s| s.manifest.clone())
        .unwrap_or_default();
    let deadline = tokio::time::Instant::now() + wait;
    let ui = g.ui();
    // The call has run: whatever happens to the stream now, its result is printed.
    let waited = rt.block_on(super::events::wait_for(
        &ui, &mut sub, &manifest, context, name, deadline,
    ));
    let (line, broke) = match waited {
        Ok(line) => (line, None),
        Err(e) => (None, Some(e)),
    };
    if g.json {
        output::print_json_compact(&WithEvent {
            result: &out,
            event: line.as_ref().map(|l| l.json()),
        })?;
    } else {
        output::print_json(&out)?;
        if let Some(l) = &line {
            output::print(&l.text(ui.color_out))?;
        }
    }
    if let Some(e) = broke {
        return Err(Error {
            kind: ErrorKind::AfterCall,
            message: format!(
                "the call succeeded (its result is printed above), but waiting for its `{}` event failed: {}",
                sanitize_line(name),
                e.message
            ),
            hint: Some("do not repeat the call to get the event: it has run; `calimcp watch` shows the app's next events".into()),
            ..e
        });
    }
    if line.is_none() {
        return Err(Error::new(
            ErrorKind::Timeout,
            Code::Timeout,
            format!(
                "the call succeeded, but no `{}` event arrived within {} s",
                sanitize_line(name),
                wait.as_secs_f64()
            ),
        ));
    }
    Ok(())
}

/// How long `--wait-event` waits when `--wait-timeout` is not given.
const DEFAULT_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

#[cfg(test)]
mod tests {
    use super::*;

    use crate::cli::toolcmd::prompt::equivalent;

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
