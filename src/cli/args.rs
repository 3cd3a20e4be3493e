//! Argument handling the commands share, kept out of the command files so
//! that no command imports another: the global flags found anywhere on a line
//! (read once for `call` by `cli::main`, and by the completer) and value
//! parsers.

use std::ffi::OsString;
use std::time::Duration;

use clap::{Args, FromArgMatches};

use super::GlobalArgs;

/// The global flags on the line, wherever they are: for finding the apps
/// before the method's own flags are known. Values of other flags are never
/// taken for globals (they would need `--flag=value` to start with `--`).
pub(super) fn prescan_globals(argv: &[OsString]) -> std::result::Result<GlobalArgs, clap::Error> {
    // An empty variable counts as unset here too (`CALIMCP_APPS=`).
    let globals = super::without_empty_env(GlobalArgs::augment_args(
        clap::Command::new("calimcp")
            .no_binary_name(true)
            .args_override_self(true),
    ));
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
        if let Some(a) = global_named(&globals, tok) {
            kept.push(argv[i].clone());
            if takes_next(a, tok) && i + 1 < argv.len() {
                kept.push(argv[i + 1].clone());
                i += 1;
            }
        }
        i += 1;
    }
    let m = globals.try_get_matches_from(kept)?;
    GlobalArgs::from_arg_matches(&m)
}

/// The global argument a token is (`--json`, `--node=URL`, `--api`, `-q`), if any.
fn global_named<'c>(globals: &'c clap::Command, tok: &str) -> Option<&'c clap::Arg> {
    if let Some(long) = tok.strip_prefix("--") {
        let name = long.split('=').next().unwrap_or(long);
        globals.get_arguments().find(|a| {
            a.get_long() == Some(name) || a.get_all_aliases().is_some_and(|al| al.contains(&name))
        })
    } else if tok.len() == 2 && tok.starts_with('-') {
        let c = tok.chars().nth(1);
        globals.get_arguments().find(|a| a.get_short() == c)
    } else {
        None
    }
}

/// Whether the global `a`, written as `tok`, takes the next word as its value.
fn takes_next(a: &clap::Arg, tok: &str) -> bool {
    a.get_action().takes_values() && !tok.contains('=')
}

/// A positive number of seconds (`--timeout 1.5`), for `watch` and `call --wait-event`.
pub(super) fn parse_secs(s: &str) -> std::result::Result<Duration, String> {
    let n: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(n.is_finite() && n > 0.0 && n <= 1e9) {
        return Err("must be a positive number of seconds".into());
    }
    Ok(Duration::from_secs_f64(n))
}

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
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_secs("1.5").unwrap(), Duration::from_millis(1500));
        assert!(parse_secs("0").is_err());
        assert!(parse_secs("-1").is_err());
        assert!(parse_secs("x").is_err());
        assert!(parse_secs("inf").is_err());
    }
}
