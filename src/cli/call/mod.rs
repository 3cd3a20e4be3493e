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
//! `argv` reads the argument object from the parsed line, `prompt` asks for
//! missing ones.

mod argv;
mod locate;
mod prompt;
mod retry;
mod until;

use std::ffi::OsString;
use std::io::IsTerminal;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, FromArgMatches};
use serde_json::{Map, Value, json};

use super::node::pins;
use super::toolcmd::params::{self, ParamSpec, Stdin, ValueKind};
use super::toolcmd::{CallFlags, command, reserved_flags, unknown_flag};
use super::{GlobalArgs, output, report_clap_error};
use crate::abi::App;
use crate::catalog::context::{Target, explain_context_error, looks_like_context_id};
use crate::catalog::session::Session;
use crate::error::{Code, EXIT_TIMEOUT, Error, Result};
use crate::mapping::Tool;
use crate::mapping::args::Problem;
use crate::node::Client;
use crate::node::ids::error_as_typed;
use crate::text::sanitize_line;
use argv::*;
use locate::*;
use prompt::*;

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
not come in time the exit code is 124.

--until VALUE repeats a [view] call every --every seconds (default 1) until its
result equals VALUE (JSON; a bare word is a string), --until-path PATH=VALUE
until the value at PATH in it does (a JSON pointer /a/0 or a dotted path a.0);
the result is printed once. After --within seconds (default 60) the last
result is printed and the exit code is 124. -v shows each try.";

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

/// `g` holds the global flags of the whole line (read in [`super::main`]:
/// after TOOL they are part of the tool's line, which the static parse leaves
/// to this command).
pub fn run(g: &GlobalArgs, args: CallArgs, argv: &[OsString]) -> Result<u8> {
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
        return Ok(report_clap_error(&e, g.json));
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
            return Ok(report_clap_error(&e, g.json));
        }
    };
    let tool_m = sub(&matches, "call")
        .and_then(|m| m.subcommand())
        .map(|(_, m)| m)
        .ok_or_else(|| Error::internal("the tool's matches are missing"))?;
    let flags = CallFlags::from_arg_matches(tool_m).map_err(|e| Error::internal(e.to_string()))?;
    // A [mut] method is refused before anything is read or asked.
    let until = until::Until::from_flags(&flags, &tool)?;
    let service = tool.service.as_deref();
    let mut early: Option<Found> = None;
    let check = answer_check(&catalog, &tool);
    let (obj, flag_problems) = arguments(g, &flags, &specs, tool_m, argv, &check, &mut |obj| {
        let explicit = flags.context.clone().or_else(|| {
            obj.get(crate::mapping::schema::CONTEXT_PARAM)
                .and_then(Value::as_str)
                .map(str::to_string)
        });
        early = Some(find_context(
            &session,
            &flags,
            app,
            service,
            explicit.as_deref(),
        )?);
        Ok(())
    })?;
    let obj_again = obj.clone();
    let prepared = match catalog.prepare(&tool, &Value::Object(obj)) {
        Ok(prepared) if flag_problems.is_empty() => prepared,
        Ok(_) => return Err(invalid_args(&tool, &specs, &flag_problems, &[])),
        Err(problems) => return Err(invalid_args(&tool, &specs, &flag_problems, &problems)),
    };

    let explicit = flags.context.clone().or(prepared.context.clone());
    let found = match early {
        Some(found) => found,
        None => find_context(&session, &flags, app, service, explicit.as_deref())?,
    };
    // The context may run another version of the app than the tool was
    // built from: check and build the call with that version's ABI.
    let prepared = match &found.target {
        Some(target) => match session.tool_for_target(&catalog, &tool, target)? {
            Some((vcat, vtool)) => {
                g.say(&session);
                match vcat.prepare(&vtool, &Value::Object(obj_again)) {
                    Ok(p) => p,
                    Err(problems) => return Err(invalid_args(&vtool, &specs, &[], &problems)),
                }
            }
            None => prepared,
        },
        None => prepared,
    };
    let Found { context, url, .. } = found;
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
    let (client, rt) = (session.client()?, session.runtime()?);
    if let Some(until) = &until {
        let (context, prepared, typed) = (&context, &prepared, explicit.as_deref());
        return until::repeat(g, until, &prepared.method, rt, move || async move {
            match client
                .execute(context, &prepared.method, &prepared.args_json, executor)
                .await
            {
                Ok(out) => Ok(out),
                Err(e) => {
                    let e = explain_context_error(client, app, service, context, e).await;
                    Err(prepared.explain(error_as_typed(e, typed)))
                }
            }
        });
    }
    // With --wait-event the subscription comes first, so the event cannot be missed.
    let mut sub = match &flags.wait_event {
        Some(name) => {
            super::events::warn_undeclared(&g.ui(), app, service, name);
            let wait = flags.wait_timeout.unwrap_or(DEFAULT_WAIT);
            // Opening the stream is bounded too: nothing is called until it is open.
            let opened = rt.block_on(async {
                tokio::time::timeout(wait, client.subscribe(std::slice::from_ref(&context))).await
            });
            match opened {
                Ok(sub) => Some(sub?),
                Err(_) => {
                    return Err(Error::new(
                        crate::error::ErrorKind::Unreachable,
                        Code::StreamTimeout,
                        format!(
                            "the node at {} did not open its event stream within {} s; `{}` was not called",
                            client.url(),
                            wait.as_secs_f64(),
                            sanitize_line(&prepared.method)
                        ),
                    )
                    .with_hint("raise --wait-timeout, or call without --wait-event"));
                }
            }
        }
        None => None,
    };
    let mut tried = 0u32;
    let out = loop {
        let e = match rt.block_on(client.execute(
            &context,
            &prepared.method,
            &prepared.args_json,
            executor,
        )) {
            Ok(out) => break out,
            Err(e) => e,
        };
        if tried < flags.retry && retry::may_retry(&e, tool.read_only) {
            tried += 1;
            let pause = retry::pause(tried);
            g.ui().warn(format_args!(
                "{} (retry {tried} of {} in {} s)",
                e.message,
                flags.retry,
                pause.as_secs_f64()
            ));
            std::thread::sleep(pause);
            continue;
        }
        let e = rt.block_on(explain_context_error(client, app, service, &context, e));
        return Err(prepared.explain(error_as_typed(e, explicit.as_deref())));
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
    // The call has run: whatever happens to the stream now, its result is printed.
    let waited = rt.block_on(super::events::wait_for(
        &ui, sub, &manifest, &context, name, deadline,
    ));
    let (line, broke) = match waited {
        Ok(line) => (line, None),
        Err(e) => (None, Some(e)),
    };
    if g.json {
        let event = line.as_ref().map_or(Value::Null, |l| l.json());
        output::print_json_compact(&json!({"result": out, "event": event}))?;
    } else {
        output::print_json(&out)?;
        if let Some(l) = &line {
            output::print(&l.text(ui.color_out))?;
        }
    }
    if let Some(e) = broke {
        ui.error(&Error {
            kind: crate::error::ErrorKind::AfterCall,
            message: format!(
                "the call succeeded (its result is printed above), but waiting for its `{}` event failed: {}",
                sanitize_line(name),
                e.message
            ),
            hint: Some("do not repeat the call to get the event: it has run; `calimcp watch` shows the app's next events".into()),
            ..e
        });
        return Ok(crate::error::ErrorKind::AfterCall.exit_code());
    }
    if line.is_none() {
        ui.error(&Error::new(
            crate::error::ErrorKind::Remote,
            Code::Timeout,
            format!(
                "the call succeeded, but no `{}` event arrived within {} s",
                sanitize_line(name),
                wait.as_secs_f64()
            ),
        ));
        return Ok(EXIT_TIMEOUT);
    }
    Ok(0)
}

/// How long `--wait-event` waits when `--wait-timeout` is not given.
const DEFAULT_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

#[cfg(test)]
mod tests {
    use super::*;

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
