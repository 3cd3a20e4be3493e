//! Dynamic completion: `COMPLETE=$SHELL calimcp` (clap_complete's env-based
//! completer). Tool names and each method's flags come from the catalog at
//! completion time: the local apps (--apps on the line, or CALIMCP_APPS) and
//! the node's (bounded by a 2 s timeout; a node that does not answer only
//! leaves its tools out). Nothing but completions is ever printed.

use std::ffi::OsString;
use std::sync::OnceLock;
use std::time::Duration;

use clap_complete::CompletionCandidate;
use clap_complete::env::CompleteEnv;

use super::GlobalArgs;
use crate::catalog::{self, Catalog};

/// How to enable dynamic completion, per shell.
macro_rules! dynamic_help {
    () => {
        "Dynamic completion (tool names and each method's flags, read from your apps and
the node when you press Tab) is enabled by sourcing calimcp's own output at shell
start-up instead of a static script:
  bash:        echo 'source <(COMPLETE=bash calimcp)' >> ~/.bashrc
  zsh:         echo 'source <(COMPLETE=zsh calimcp)' >> ~/.zshrc
  fish:        echo 'COMPLETE=fish calimcp | source' >> ~/.config/fish/config.fish
  elvish:      echo 'eval (E:COMPLETE=elvish calimcp | slurp)' >> ~/.elvish/rc.elv
  powershell:  add to $PROFILE:
               $env:COMPLETE = \"powershell\"; calimcp | Out-String | Invoke-Expression; Remove-Item Env:\\COMPLETE
Re-source after upgrading calimcp (the protocol between the script and the binary
may change). Set CALIMCP_APPS and CALIMERO_NODE_URL in the shell to complete the
tools of those apps and that node."
    };
}

/// The long help of `calimcp completions`: the static scripts, then the dynamic completer.
pub const COMPLETIONS_LONG_HELP: &str = concat!(
    "Examples:
  calimcp completions bash > ~/.local/share/bash-completion/completions/calimcp
  calimcp completions fish > ~/.config/fish/completions/calimcp.fish

",
    dynamic_help!()
);

/// Answers a completion request when COMPLETE is set; returns the exit code then.
pub fn complete() -> Option<u8> {
    if std::env::var_os("COMPLETE").is_none_or(|v| v.is_empty() || v == "0") {
        return None;
    }
    let cwd = std::env::current_dir().ok();
    match CompleteEnv::with_factory(command).try_complete(std::env::args_os(), cwd.as_deref()) {
        Ok(true) => Some(0),
        Ok(false) => None,
        Err(e) => {
            let _ = e.print();
            Some(1)
        }
    }
}

/// The words on the line being completed (what follows `--`).
fn words() -> Vec<OsString> {
    let args: Vec<OsString> = std::env::args_os().collect();
    match args.iter().position(|a| a == "--") {
        Some(i) => args[i + 1..].to_vec(),
        None => Vec::new(),
    }
}

struct Loaded {
    globals: Option<GlobalArgs>,
    catalog: Catalog,
}

/// The catalog for the line being completed, loaded once per process.
fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| {
        let Ok(g) = super::call::prescan_globals(&words()) else {
            return Loaded {
                globals: None,
                catalog: Catalog::default(),
            };
        };
        let opts = g.tool_options();
        let mut catalog = Catalog::load(&super::call::local_sources(&g), &opts)
            .map(|(c, _)| c)
            .unwrap_or_default();
        if !g.node.offline {
            let node_apps = g.node.options().ok().and_then(|mut o| {
                o.verbose = false;
                o.timeout = o.timeout.min(Duration::from_secs(2));
                let client = crate::node::Client::new(o).ok()?;
                super::node::runtime()
                    .ok()?
                    .block_on(catalog::node::load(&client))
                    .ok()
            });
            if let Some((apps, unusable)) = node_apps {
                catalog = catalog.with_node_apps(apps, unusable, &opts);
            }
        }
        Loaded {
            globals: Some(g),
            catalog,
        }
    })
}

/// Candidates for TOOL: every tool name, described by its signature.
pub fn tool_candidates() -> Vec<CompletionCandidate> {
    loaded()
        .catalog
        .tools
        .tools
        .iter()
        .map(|t| CompletionCandidate::new(t.name.clone()).help(Some(t.signature.clone().into())))
        .collect()
}

/// The TOOL word of `call`, when it is complete (not the word being typed).
fn tool_word(words: &[OsString]) -> Option<String> {
    let words: Vec<&str> = words.iter().filter_map(|w| w.to_str()).collect();
    let call = words.iter().position(|w| *w == "call")?;
    let cmd =
        super::call::CallFlags::augment_args(GlobalArgs::augment_args(clap::Command::new("x")));
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

use clap::Args as _;

/// The command to complete against: with `call TOOL` on the line, the
/// run-time command of that tool (its parameters are flags); else the static one.
fn command() -> clap::Command {
    if let Some(token) = tool_word(&words()) {
        let l = loaded();
        let service = l.globals.as_ref().and_then(|g| g.service.as_deref());
        if let Ok(Some(tool)) = super::call::find_tool(&l.catalog, &token, service) {
            let app = &l.catalog.apps[tool.app];
            return super::call::tool_command(&token, &tool, app);
        }
    }
    super::command()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
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
