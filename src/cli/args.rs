//! Argument handling the commands share, kept out of the command files so
//! that no command imports another: the global flags found anywhere on a line
//! (read once for `call` by `cli::main`, and by the completer), the narrowed
//! tree a line that names its subcommand is parsed with, and value parsers.

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
        clap::Command::new("calimcp").no_binary_name(true),
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

/// The line parsed with the subcommand it names alone, the global arguments
/// built into that subcommand: before it parses, clap copies every global
/// argument into every subcommand, the sixteen the line does not name too
/// (~250 copies, ~360 KB of heap: most of clap's part of a one-shot
/// command's start-up, issue 34), and into the named one too.
///
/// `None`, for the whole tree, unless the first word that is not a global flag
/// (or its value) is a subcommand's name; global flags before the name are
/// read after it (`--json tools x` as `tools --json x`), as clap reads a
/// global flag on either side. The caller parses with the whole tree whenever
/// this parse fails (an error, help, the version), so every message is the
/// whole tree's; a line this parse takes names the same subcommand in both
/// trees, and parses the same (tested below).
pub(super) fn parse_narrowed(
    argv: &[OsString],
) -> Option<std::result::Result<super::Cli, clap::Error>> {
    let (cmd, line) = narrowed(argv)?;
    Some(cmd.try_get_matches_from(line).and_then(|m| {
        let global = match m.subcommand() {
            Some((_, sub)) => GlobalArgs::from_arg_matches(sub)?,
            None => GlobalArgs::from_arg_matches(&m)?,
        };
        Ok(super::Cli {
            global,
            command: super::Command::from_arg_matches(&m)?,
        })
    }))
}

/// The tree [`parse_narrowed`] parses with, and the line reordered for it.
fn narrowed(argv: &[OsString]) -> Option<(clap::Command, Vec<OsString>)> {
    let first = argv.get(1)?.to_str()?;
    let at = if first.starts_with('-') {
        // Global flags come first: which ones take the next word as a value.
        let globals = GlobalArgs::augment_args(clap::Command::new("calimcp"));
        let mut i = 1;
        loop {
            let tok = argv.get(i)?.to_str()?;
            if !tok.starts_with('-') {
                break i;
            }
            let global = global_named(&globals, tok)?;
            i += if takes_next(global, tok) { 2 } else { 1 };
        }
    } else {
        1
    };
    let name = argv[at].to_str()?;
    let sub = GlobalArgs::augment_args(super::subcommand_named(name)?);
    let line = [&argv[..1], &argv[at..=at], &argv[1..at], &argv[at + 1..]].concat();
    let cmd = clap::Command::new("calimcp")
        .subcommand_required(true)
        .subcommand(sub);
    Some((unset_blank_env(cmd), line))
}

/// [`super::without_empty_env`] for a tree that only parses ([`narrowed`]):
/// a variable set to a blank value counts as unset. Help never comes from
/// this tree, so the arguments are left as they are (no copy of every one)
/// unless a variable is blank.
fn unset_blank_env(mut cmd: clap::Command) -> clap::Command {
    let blank: Vec<clap::Id> = cmd
        .get_arguments()
        .filter(|a| {
            a.get_env()
                .and_then(std::env::var_os)
                .is_some_and(|v| super::is_blank(&v))
        })
        .map(|a| a.get_id().clone())
        .collect();
    for id in blank {
        cmd = cmd.mut_arg(id, |a| a.env(None::<&str>));
    }
    for sub in cmd.get_subcommands_mut() {
        *sub = unset_blank_env(std::mem::take(sub));
    }
    cmd
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

    fn line(words: &str) -> Vec<OsString> {
        std::iter::once("calimcp")
            .chain(words.split(' ').filter(|w| !w.is_empty()))
            .map(OsString::from)
            .collect()
    }

    /// What the whole tree makes of a line, and what the narrowed parse does.
    fn both(words: &str) -> (String, Option<String>) {
        use clap::CommandFactory;
        let argv = line(words);
        let whole = super::super::Cli::command()
            .try_get_matches_from(&argv)
            .and_then(|m| <super::super::Cli as FromArgMatches>::from_arg_matches(&m))
            .map(|cli| format!("{cli:?}"))
            .unwrap_or_else(|e| panic!("{words}: {e:?}"));
        let narrow = parse_narrowed(&argv).map(|r| match r {
            Ok(cli) => format!("{cli:?}"),
            Err(e) => panic!("the narrowed parse refuses {words}: {e}"),
        });
        (whole, narrow)
    }

    #[test]
    fn a_line_naming_its_subcommand_parses_the_same_in_the_narrowed_tree() {
        for words in [
            "tools app.json --json",
            "--json tools app.json",
            "--node http://n:1 --color never -q tools --read-only a b",
            "--api=http://n:1 schema app.json get --output",
            "--apps x:y --refs defs --max-name-len 20 describe app",
            "-v --timeout 3 --token t call kv_store_get --key k --json",
            "--offline call kv_store_set --key a --value -5 -- --json",
            "--package p --service s apps",
            "node list",
            "completions bash",
            "diff a.json b.json --json",
            "--color always watch app --context c",
        ] {
            let (whole, narrow) = both(words);
            assert_eq!(narrow.as_ref(), Some(&whole), "{words}");
        }
    }

    /// Every subcommand of the tree is found by its name alone, with the
    /// same arguments, and nothing else is.
    #[test]
    fn each_subcommand_is_named_alone() {
        let whole = <super::super::Command as clap::Subcommand>::augment_subcommands(
            clap::Command::new("all"),
        );
        for sub in whole.get_subcommands() {
            let mut sub = sub.clone();
            sub.build();
            let mut alone = super::super::subcommand_named(sub.get_name())
                .unwrap_or_else(|| panic!("{} is not found by name", sub.get_name()));
            alone.build();
            let ids = |c: &clap::Command| {
                c.get_arguments()
                    .map(|a| a.get_id().to_string())
                    .collect::<Vec<_>>()
            };
            assert_eq!(ids(&alone), ids(&sub), "{}", sub.get_name());
            // With the global arguments built in, as `narrowed` does: clap's
            // checks (debug builds) refuse an id, long or short given twice.
            let mut with_globals = clap::Command::new("calimcp").subcommand(
                GlobalArgs::augment_args(super::super::subcommand_named(sub.get_name()).unwrap()),
            );
            with_globals.build();
            assert!(
                sub.get_all_aliases().next().is_none(),
                "{} has an alias: name it here too",
                sub.get_name()
            );
        }
        assert!(super::super::subcommand_named("help").is_none());
        assert!(super::super::subcommand_named("Tools").is_none());
    }

    #[test]
    fn lines_the_narrowed_tree_does_not_take_go_to_the_whole_tree() {
        for words in [
            "--help tools",
            "--unknown tools",
            "- tools",
            "-qv tools",
            "help tools",
            "--node tools",
            "",
        ] {
            assert!(narrowed(&line(words)).is_none(), "{words}");
        }
        // A global's value is not taken for the subcommand, and the globals
        // before the name are read after it.
        let (cmd, line) =
            narrowed(&line("--node tools -q schema x")).expect("a subcommand is named");
        let subs: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
        assert_eq!(subs, ["schema"]);
        assert_eq!(line, ["calimcp", "schema", "--node", "tools", "-q", "x"]);
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
