//! `calimcp completions SHELL`: static completion scripts.

use clap::Args;
use clap_complete::Shell;

use calimcp_core::error::Result;

/// Print a shell completion script
///
/// The scripts are also committed under completions/. Install, e.g.:
///   bash:  calimcp completions bash > ~/.local/share/bash-completion/completions/calimcp
///   zsh:   calimcp completions zsh > ~/.zfunc/_calimcp   (with ~/.zfunc in $fpath)
///   fish:  calimcp completions fish > ~/.config/fish/completions/calimcp.fish
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
#[command(after_help = "Examples:
  echo 'source <(COMPLETE=bash calimcp)' >> ~/.bashrc   # dynamic (recommended)
  calimcp completions bash > ~/.local/share/bash-completion/completions/calimcp   # static

Every shell, and what each kind completes: see --help.", after_long_help = super::complete::COMPLETIONS_LONG_HELP)]
pub(crate) struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    pub shell: Shell,
}

pub(crate) fn run(args: CompletionsArgs) -> Result<()> {
    let mut cmd = super::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "calimcp", &mut buf);
    let mut script = String::from_utf8_lossy(&buf).into_owned();
    if args.shell == Shell::Bash {
        script = bash_paths_for_positionals(&script, &cmd);
    }
    super::output::print(&script)?;
    Ok(())
}

/// clap's bash script offers a command's flags for its first word even when
/// that word is a positional APP (`calimcp describe <TAB>` inserted the `-`
/// every flag starts with), and again for any word that is not a flag's
/// value. For the commands whose positionals are paths or names (every
/// positional without a fixed list of values), flags are offered only for a
/// word that starts with `-`; any other word gets no list, so bash's
/// `-o default` completes file names.
fn bash_paths_for_positionals(script: &str, cmd: &clap::Command) -> String {
    let takes_path = |sc: &clap::Command| {
        sc.get_positionals()
            .any(|p| p.get_possible_values().is_empty())
    };
    let blocks: Vec<String> = cmd
        .get_subcommands()
        .filter(|sc| !sc.has_subcommands() && takes_path(sc))
        .map(|sc| {
            format!(
                "        calimcp__subcmd__{})",
                sc.get_name().replace('-', "__")
            )
        })
        .collect();
    let mut out = String::with_capacity(script.len());
    let mut in_block = false;
    for line in script.lines() {
        if line.starts_with("        ") && line.ends_with(')') && !line.starts_with("         ") {
            in_block = blocks.iter().any(|b| b == line);
        }
        let line = if !in_block {
            line.to_string()
        } else if line.starts_with("            if [[ ${cur} == -* || ${COMP_CWORD} -eq ") {
            "            if [[ ${cur} == -* ]] ; then".to_string()
        } else if line == "            COMPREPLY=( $(compgen -W \"${opts}\" -- \"${cur}\") )" {
            "            COMPREPLY=()".to_string()
        } else {
            line.to_string()
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}
