//! Dynamic completion: `COMPLETE=$SHELL calimcp` (clap_complete's env-based
//! completer). Tool names (and `APP.METHOD` forms), app names for APP
//! arguments (with paths), `schema APP` method names, and each method's
//! flags come from the catalog at
//! completion time: the local apps (--apps on the line, or CALIMCP_APPS) and
//! the node's (bounded by a 2 s timeout; a node that does not answer only
//! leaves its tools out). Nothing but completions is ever printed.

use std::ffi::{OsStr, OsString};
use std::sync::OnceLock;
use std::time::Duration;

use clap_complete::CompletionCandidate;
use clap_complete::engine::{PathCompleter, ValueCompleter};
use clap_complete::env::CompleteEnv;

use super::GlobalArgs;
use calimcp_catalog::{self, Catalog};
use calimcp_core::error::{EXIT_OK, ErrorKind};
use calimcp_core::mapping::ToolOptions;

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
pub(crate) const COMPLETIONS_LONG_HELP: &str = concat!(
    "Examples:
  mkdir -p ~/.local/share/bash-completion/completions
  calimcp completions bash > ~/.local/share/bash-completion/completions/calimcp
  echo 'source <(calimcp completions bash)' >> ~/.bashrc   # without bash-completion

",
    dynamic_help!()
);

/// The process arguments, as `main` read them (the candidate functions clap
/// calls take no context).
static ARGV: OnceLock<Vec<OsString>> = OnceLock::new();

/// Answers a completion request when COMPLETE is set; returns the exit code then.
pub(crate) fn complete(argv: &[OsString]) -> Option<u8> {
    if std::env::var_os("COMPLETE").is_none_or(|v| v.is_empty() || v == "0") {
        return None;
    }
    let _ = ARGV.set(argv.to_vec());
    let cwd = std::env::current_dir().ok();
    match CompleteEnv::with_factory(command).try_complete(argv.iter(), cwd.as_deref()) {
        Ok(true) => Some(EXIT_OK),
        Ok(false) => None,
        Err(e) => {
            let _ = e.print();
            Some(ErrorKind::Internal.exit_code())
        }
    }
}

/// The words on the line being completed (what follows `--`).
fn words() -> Vec<OsString> {
    let args: &[OsString] = ARGV.get().map_or(&[], Vec::as_slice);
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
        let Ok(mut g) = super::args::prescan_globals(&words()) else {
            return Loaded {
                globals: None,
                catalog: Catalog::default(),
            };
        };
        // A node name (or the current node) as a command would resolve it; an unknown name stays as typed.
        let _ = g.node.resolve();
        // The same catalog a call would see, with a short bound on the node.
        let catalog = g
            .session()
            .map(|mut s| {
                if let Some(o) = s.settings.node.as_mut() {
                    o.verbose = false;
                    o.timeout = o.timeout.min(Duration::from_secs(2));
                }
                s.settings.quiet = true;
                let (mut catalog, _) = s.local(Vec::new()).unwrap_or_default();
                // Every app, as a listing would show them; a silent node adds none.
                let _ = s.add_node_apps(&mut catalog, &[]);
                catalog
            })
            .unwrap_or_default();
        Loaded {
            globals: Some(g),
            catalog,
        }
    })
}

/// Candidates for TOOL: every tool name, described by its signature; once a
/// `.` is typed, the `APP.METHOD` forms too (`kv-store.get`).
pub(crate) fn tool_candidates(current: &OsStr) -> Vec<CompletionCandidate> {
    let cur = current.to_string_lossy();
    let l = loaded();
    let mut out: Vec<CompletionCandidate> = l
        .catalog
        .tools
        .tools
        .iter()
        .filter(|t| t.name.starts_with(&*cur))
        .filter_map(|t| candidate(&t.name, Some(&t.signature)))
        .collect();
    if cur.contains('.') {
        for t in &l.catalog.tools.tools {
            let pkg = l.catalog.apps[t.app].package_or_id();
            let app = pkg.rsplit('.').next().unwrap_or(pkg);
            let service = t
                .service
                .as_deref()
                .map(|s| format!("{s}."))
                .unwrap_or_default();
            for base in [app, pkg] {
                let form = format!("{base}.{service}{}", t.method);
                if form.starts_with(&*cur) {
                    out.extend(candidate(&form, Some(&t.signature)));
                }
            }
        }
    }
    out
}

/// Candidates for an APP argument: the apps' names (a package's last
/// segment, and the package), then paths, as a shell completes them.
pub(crate) fn app_candidates(current: &OsStr) -> Vec<CompletionCandidate> {
    let cur = current.to_string_lossy();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    if !cur.contains('/') {
        for a in &loaded().catalog.apps {
            let pkg = a.package_or_id();
            let short = pkg.rsplit('.').next().unwrap_or(pkg);
            for name in [short, pkg] {
                if name.starts_with(&*cur) && seen.insert(name.to_string()) {
                    out.extend(candidate(name, Some(&calimcp_catalog::resolve::label(a))));
                }
            }
        }
    }
    out.extend(PathCompleter::any().complete(current));
    out
}

/// Candidates for `schema APP METHOD`: the methods of the APP on the line.
pub(crate) fn method_candidates(current: &OsStr) -> Vec<CompletionCandidate> {
    let cur = current.to_string_lossy();
    let words = words();
    let words: Vec<&str> = words.iter().filter_map(|w| w.to_str()).collect();
    let Some(at) = words.iter().position(|w| *w == "schema") else {
        return Vec::new();
    };
    let Some(app) = words[at + 1..words.len().saturating_sub(1)]
        .iter()
        .find(|w| !w.starts_with('-'))
    else {
        return Vec::new();
    };
    let l = loaded();
    let from_path;
    let (catalog, index) = if calimcp_catalog::looks_like_path(app) {
        let sources = calimcp_catalog::Sources {
            paths: vec![std::path::PathBuf::from(app)],
            ..Default::default()
        };
        let Ok((c, groups)) = Catalog::load(&sources, &ToolOptions::default()) else {
            return Vec::new();
        };
        let Some(&i) = groups.first().and_then(|g| g.first()) else {
            return Vec::new();
        };
        from_path = c;
        (&from_path, i)
    } else {
        match l.catalog.resolve(app) {
            Ok(i) => (&l.catalog, i),
            Err(_) => return Vec::new(),
        }
    };
    let mut names: Vec<&str> = catalog.apps[index]
        .services
        .iter()
        .flat_map(|s| s.manifest.methods.iter().map(|m| m.name.as_str()))
        .filter(|n| n.starts_with(&*cur))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .filter_map(|n| candidate(n, None))
        .collect()
}

/// A completion candidate from names a node or a manifest supplied: the
/// shell prints candidates raw, so a value with control characters or
/// terminal escapes is not offered at all (an altered value would name
/// nothing), and the description is made terminal-safe.
fn candidate(value: &str, help: Option<&str>) -> Option<CompletionCandidate> {
    if value.is_empty() || value.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return None;
    }
    let c = CompletionCandidate::new(value.to_string());
    Some(match help {
        Some(h) => c.help(Some(calimcp_core::text::sanitize_line(h).into())),
        None => c,
    })
}

/// The command to complete against: with `call TOOL` on the line, the
/// run-time command of that tool (its parameters are flags); else the static one.
fn command() -> clap::Command {
    if let Some(token) = super::toolcmd::tool_word(&words()) {
        let l = loaded();
        let service = l.globals.as_ref().and_then(|g| g.service.as_deref());
        if let Ok(Some(tool)) = calimcp_catalog::session::find_tool(&l.catalog, &token, service) {
            let app = &l.catalog.apps[tool.app];
            return super::toolcmd::tool_command(&token, &tool, app);
        }
    }
    super::command()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_supplied_names_never_reach_the_shell_raw() {
        assert!(candidate("kv-store", Some("ok")).is_some());
        assert!(candidate("evil\u{1b}]0;pwned\u{7}", None).is_none());
        assert!(candidate("two words", None).is_none());
        let c = candidate("kv", Some("desc\u{1b}[31mred")).unwrap();
        let help = c.get_help().map(|h| h.to_string()).unwrap_or_default();
        assert!(!help.contains('\u{1b}'), "{help:?}");
    }
}
