//! The run-time command of a tool: the global flags, `call` with its own
//! flags ([`CallFlags`]) and TOOL with one flag per declared parameter
//! ([`params`]), built once the tool is known. `call` parses its line with
//! it; the completer (`complete`) completes a tool's flags with it.
//! `input` reads the argument object from the parsed line (with `prompt` on
//! a terminal; `files` for `@bytes:FILE` and `@blob:FILE`): `call` for a method, `context create` for `init`. They all
//! use this module, so no command file imports another.

pub(super) mod files;
pub(super) mod input;
pub(super) mod params;
pub(super) mod prompt;

use std::collections::HashSet;
use std::ffi::OsString;

use clap::Args;

use super::GlobalArgs;
use super::args::parse_secs;
use calimcp_core::abi::App;
use calimcp_core::mapping::Tool;
use calimcp_core::text::{did_you_mean, sanitize_line};
use params::ParamSpec;

/// The options of `call`, accepted before or after TOOL.
#[derive(Debug, Clone, Args)]
pub(crate) struct CallFlags {
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
        value_parser = parse_secs,
        help_heading = "Call options"
    )]
    pub wait_timeout: Option<std::time::Duration>,
    /// Retry up to N times on an error the node marks retryable (a [mut] call only when nothing ran)
    #[arg(
        long,
        value_name = "N",
        global = true,
        default_value_t = 0,
        value_parser = clap::value_parser!(u32).range(0..=20),
        help_heading = "Call options"
    )]
    pub retry: u32,
    /// Repeat a [view] call until its result equals VALUE (JSON; a bare word is a string)
    #[arg(
        long,
        value_name = "VALUE",
        global = true,
        allow_hyphen_values = true,
        conflicts_with_all = ["dry_run", "wait_event", "until_path"],
        help_heading = "Repeat options"
    )]
    pub until: Option<String>,
    /// Repeat a [view] call until the value at PATH (/json/pointer or dotted.path) equals VALUE
    #[arg(
        long,
        value_name = "PATH=VALUE",
        global = true,
        allow_hyphen_values = true,
        conflicts_with_all = ["dry_run", "wait_event"],
        help_heading = "Repeat options"
    )]
    pub until_path: Option<String>,
    /// With --until: seconds between tries (default 1)
    #[arg(
        long,
        value_name = "SECS",
        global = true,
        value_parser = parse_secs,
        help_heading = "Repeat options"
    )]
    pub every: Option<std::time::Duration>,
    /// With --until: give up after SECS (default 60), exit 124
    #[arg(
        long,
        value_name = "SECS",
        global = true,
        value_parser = parse_secs,
        help_heading = "Repeat options"
    )]
    pub within: Option<std::time::Duration>,
}

/// Flags a parameter flag must not take: global and call flags, help.
pub(super) fn reserved_flags() -> HashSet<String> {
    reserved_in(&CallFlags::augment_args(GlobalArgs::augment_args(
        clap::Command::new("x"),
    )))
}

/// The flags of `cmd` (and help, version): a parameter flag must not take them.
pub(super) fn reserved_in(cmd: &clap::Command) -> HashSet<String> {
    let mut set: HashSet<String> = ["help", "version"].map(String::from).into();
    for a in cmd.get_arguments() {
        set.extend(a.get_long().map(String::from));
        set.extend(a.get_all_aliases().into_iter().flatten().map(String::from));
    }
    set
}

/// The run-time command of a tool (for completion).
pub(super) fn tool_command(token: &str, tool: &Tool, app: &App) -> clap::Command {
    command(token, tool, app, &params::specs(tool, &reserved_flags()))
}

/// The run-time command: globals, `call` with its flags, and TOOL with one flag per parameter.
pub(super) fn command(token: &str, tool: &Tool, app: &App, specs: &[ParamSpec]) -> clap::Command {
    let mut long_about = tool.signature.clone();
    if let Some(doc) = &tool.abi_method().doc {
        long_about.push_str("\n\n");
        long_about.push_str(calimcp_core::text::sanitize_doc(doc).trim());
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
         file and - from stdin. A bytes parameter takes @bytes:FILE (the file's raw bytes) and a\n\
         32-byte id @blob:FILE (the file uploaded, its blob id passed). --args JSON|@FILE|- gives\n\
         the whole argument object.\n\n\
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
    let mut call = CallFlags::augment_args(clap::Command::new("call"))
        .about("Call a method on a node, checking every argument first")
        .subcommand(tool_cmd)
        .subcommand_required(true)
        .disable_help_subcommand(true);
    // The repeat options are for [view] methods: a [mut] tool neither lists
    // nor completes them (still accepted, so `call` says why they do not apply).
    if !tool.read_only {
        for id in ["until", "until_path", "every", "within"] {
            call = call.mut_arg(id, |a| a.hide(true));
        }
    }
    // Flags that change nothing about a call stay accepted but unlisted; the
    // others are one block, as in every command's help.
    let cmd = ["color", "package", "refs", "max_name_len"].iter().fold(
        GlobalArgs::augment_args(
            clap::Command::new("calimcp")
                .bin_name("calimcp")
                .max_term_width(100)
                .subcommand(call),
        ),
        |cmd, id| cmd.mut_arg(*id, |a| a.hide(true)),
    );
    crate::cli::fold_global_options(crate::cli::without_empty_env(cmd))
}

/// An unknown flag on a tool's line. A parameter flag alike is suggested:
/// clap's own suggestion when it names one, else the did-you-mean the rest
/// of calimcp uses (clap's Jaro threshold misses two swapped letters:
/// `--kye` for `--key`); a visible calimcp flag clap suggests is kept too
/// (`--dry-rnu`). Otherwise clap's tip would name a flag that is not the
/// point (`--c` → `--color`, a hidden global): the error says instead that
/// the method has no such parameter and lists the ones it has.
pub(super) fn unknown_flag(
    e: &mut clap::Error,
    cmd: &clap::Command,
    tool: &Tool,
    specs: &[ParamSpec],
) -> Option<calimcp_core::error::Error> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(given)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    if !given.starts_with('-') {
        return param_without_dashes(given, tool, specs);
    }
    let name = given.strip_prefix("--")?;
    let name = name.split('=').next().unwrap_or(name).to_string();
    let given = given.split('=').next().unwrap_or(given).to_string();
    let param_flags: Vec<&str> = specs
        .iter()
        .flat_map(|s| s.long.iter().chain(s.alias.iter()))
        .map(String::as_str)
        .collect();
    let clap_said = match e.get(ContextKind::SuggestedArg) {
        Some(ContextValue::String(s)) => Some(s.trim_start_matches('-').to_string()),
        _ => None,
    };
    if clap_said
        .as_deref()
        .is_some_and(|s| param_flags.contains(&s))
    {
        return None;
    }
    if let Some(best) = did_you_mean(&name, param_flags.iter().copied()).first() {
        e.insert(
            ContextKind::SuggestedArg,
            ContextValue::String(format!("--{best}")),
        );
        return None;
    }
    let visible = |long: &str| {
        cmd.get_arguments()
            .chain(cmd.get_subcommands().flat_map(|s| s.get_arguments()))
            .any(|a| a.get_long() == Some(long) && !a.is_hide_set())
    };
    if clap_said.as_deref().is_some_and(visible) {
        return None;
    }
    let listed: Vec<String> = specs
        .iter()
        .map(|s| {
            let need = if s.required { "" } else { ", optional" };
            format!("{} ({}{need})", s.flag(), sanitize_line(&s.type_name))
        })
        .collect();
    let method = sanitize_line(&tool.method);
    let has = if listed.is_empty() {
        format!("`{method}` takes no parameters")
    } else {
        format!("its parameters: {}", listed.join(", "))
    };
    Some(
        calimcp_core::error::Error::input(
            calimcp_core::error::Code::Usage,
            format!(
                "unexpected argument '{}': `{method}` has no parameter `{}`; {has}",
                sanitize_line(&given),
                sanitize_line(&name)
            ),
        )
        .with_hint(format!(
            "`calimcp call {} --help` describes them",
            sanitize_line(&tool.name)
        )),
    )
}

/// `call kv_store_get key=a`: a parameter written as `NAME=VALUE` (or a
/// bare word) where its flag is meant; says how it is spelled.
fn param_without_dashes(
    given: &str,
    tool: &Tool,
    specs: &[ParamSpec],
) -> Option<calimcp_core::error::Error> {
    let (name, value) = match given.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (given, None),
    };
    let spec = specs
        .iter()
        .find(|s| s.long.as_deref() == Some(name) || s.name == name)?;
    let shown = match (&spec.long, value) {
        (Some(l), Some(v)) => format!("--{l} {}", shell_word(v)),
        (Some(l), None) => format!("--{l} VALUE"),
        (None, _) => spec.flag(),
    };
    Some(
        calimcp_core::error::Error::input(
            calimcp_core::error::Code::Usage,
            format!(
                "unexpected argument '{}': a parameter is a flag, `{shown}`",
                sanitize_line(given)
            ),
        )
        .with_hint(format!(
            "`calimcp call {} --help` lists the parameters of `{}`",
            sanitize_line(&tool.name),
            sanitize_line(&tool.method)
        )),
    )
}

/// `v` as one shell word in a suggested command.
fn shell_word(v: &str) -> String {
    let v = sanitize_line(v);
    if !v.is_empty()
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@,+".contains(c))
    {
        v
    } else {
        format!("'{}'", v.replace('\'', r"'\''"))
    }
}

/// The TOOL word of `call`, when it is complete (not the word being typed).
pub(super) fn tool_word(words: &[OsString]) -> Option<String> {
    let words: Vec<&str> = words.iter().filter_map(|w| w.to_str()).collect();
    let call = words.iter().position(|w| *w == "call")?;
    let cmd = CallFlags::augment_args(GlobalArgs::augment_args(clap::Command::new("x")));
    let takes_value = |flag: &str| {
        cmd.get_arguments().any(|a| {
            let named = match flag.strip_prefix("--") {
                Some(l) => {
                    a.get_long() == Some(l) || a.get_all_aliases().is_some_and(|al| al.contains(&l))
                }
                None => flag.len() == 2 && a.get_short() == flag.chars().nth(1),
            };
            named && a.get_action().takes_values()
        })
    };
    let mut i = call + 1;
    while i + 1 < words.len() {
        let w = words[i];
        if w.starts_with('-') {
            i += if !w.contains('=') && takes_value(w) {
                2
            } else {
                1
            };
            continue;
        }
        return Some(w.to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_run_time_command_is_well_formed() {
        let abi = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/support/abi/typed.json"
        ))
        .unwrap();
        let m = calimcp_core::abi::parse_manifest(&abi, &mut Vec::new()).unwrap();
        let app = App {
            id: "t".into(),
            package: Some("com.calimero.typed".into()),
            services: vec![calimcp_core::abi::Service {
                name: None,
                manifest: m.into(),
            }],
            ..App::default()
        };
        let set = calimcp_core::mapping::build(std::slice::from_ref(&app), &Default::default());
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
    fn the_tool_word_is_found_past_flags() {
        assert_eq!(
            tool_word(&os(&["calimcp", "call", "kv_set", "--k"])),
            Some("kv_set".into())
        );
        assert_eq!(
            tool_word(&os(&[
                "calimcp",
                "--apps",
                "d",
                "call",
                "-c",
                "ctx",
                "--dry-run",
                "kv.get",
                ""
            ])),
            Some("kv.get".into())
        );
        // the tool itself is being typed
        assert_eq!(tool_word(&os(&["calimcp", "call", "kv_"])), None);
        assert_eq!(tool_word(&os(&["calimcp", "tools", "x", "y"])), None);
    }
}
