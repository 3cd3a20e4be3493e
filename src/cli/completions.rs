//! `calimcp completions SHELL`: static completion scripts.

use clap::Args;
use clap_complete::Shell;

use crate::error::Result;

/// Print a shell completion script.
///
/// The scripts are also committed under completions/. Install, e.g.:
///   bash:  calimcp completions bash > ~/.local/share/bash-completion/completions/calimcp
///   zsh:   calimcp completions zsh > ~/.zfunc/_calimcp   (with ~/.zfunc in $fpath)
///   fish:  calimcp completions fish > ~/.config/fish/completions/calimcp.fish
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mkdir -p ~/.local/share/bash-completion/completions
  calimcp completions bash > ~/.local/share/bash-completion/completions/calimcp
  echo 'source <(calimcp completions bash)' >> ~/.bashrc   # without bash-completion

Dynamic completion (tool names and method flags): see --help.", after_long_help = super::complete::COMPLETIONS_LONG_HELP)]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn run(args: CompletionsArgs) -> Result<u8> {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut super::command(), "calimcp", &mut buf);
    super::output::print(&String::from_utf8_lossy(&buf))?;
    Ok(0)
}
