//! `smp completions SHELL` and `smp man [COMMAND]`: shell completion scripts and man pages,
//! generated from the command definition itself (clap_complete, clap_mangen), so they cannot
//! fall out of step with it.

use std::io::Write;

use clap::{Args, Command};
use clap_complete::Shell;

use crate::error::CliError;

const COMPLETIONS_EXAMPLE: &str = "\
Example:
  smp completions bash > ~/.local/share/bash-completion/completions/smp
  smp completions zsh > \"${fpath[1]}/_smp\"
  smp completions fish > ~/.config/fish/completions/smp.fish";

const MAN_EXAMPLE: &str = "\
Example:
  smp man > smp.1 && man ./smp.1
  smp man patch > smp-patch.1";

/// Print a shell completion script.
#[derive(Debug, Args)]
#[command(after_long_help = COMPLETIONS_EXAMPLE)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    shell: Shell,
}

/// Print a man page (roff): the command's, or a subcommand's.
#[derive(Debug, Args)]
#[command(after_long_help = MAN_EXAMPLE)]
pub struct ManArgs {
    /// A subcommand (`patch`, `apply-config`, ...); without it, the page of `smp` itself.
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
}

/// Writes the completion script for `args.shell`.
pub fn completions(args: &CompletionsArgs, mut cmd: Command) -> Result<(), CliError> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "smp", &mut out);
    write_stdout(&out)
}

/// Writes the man page of `smp` or of one of its subcommands.
pub fn man(args: &ManArgs, mut cmd: Command) -> Result<(), CliError> {
    cmd.build();
    let page = match &args.command {
        None => cmd,
        Some(name) => cmd
            .find_subcommand(name)
            .cloned()
            .ok_or_else(|| CliError::message(format!("no subcommand {name:?}")))?,
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut out)
        .map_err(|e| CliError::message(format!("writing the man page: {e}")))?;
    write_stdout(&out)
}

fn write_stdout(bytes: &[u8]) -> Result<(), CliError> {
    std::io::stdout()
        .lock()
        .write_all(bytes)
        .map_err(|e| CliError::message(format!("writing to standard output: {e}")))
}
