//! `smp`: Kubernetes strategic merge patch from the command line.
//!
//! Each subcommand lives in its own module and returns `Result<(), CliError>`; `main` turns an
//! error into one `error: ` line on stderr and exit status 1. Usage errors are clap's (status 2).

#![warn(missing_docs)]

mod apply;
mod apply_config;
mod diff;
mod error;
mod io;
mod kinds;
mod normalize;
mod patch;
mod three_way;

use std::process::ExitCode;

/// Parsing a document into `serde_json::Value` is allocation-bound; mimalloc roughly halves
/// the allocator's share compared with glibc malloc. The library leaves the choice to its users.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{CommandFactory, Parser, Subcommand};

use crate::error::CliError;

/// Kubernetes strategic merge patch (SMP) on JSON and YAML documents.
#[derive(Debug, Parser)]
#[command(
    name = "smp",
    version,
    long_about = "Kubernetes strategic merge patch (SMP) on JSON and YAML documents.\n\n\
        Lists are merged the way `kubectl patch --type=strategic` merges them, guided by the \
        patch metadata (x-kubernetes-patch-strategy, x-kubernetes-patch-merge-key) of an \
        OpenAPI schema.",
    after_help = "Errors print one line starting with `error: ` on stderr and exit with status 1; \
        usage errors exit with status 2.\n\nRun `smp help <COMMAND>` (patch, apply, apply-config, diff, three-way, normalize) for an example.",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Patch(patch::PatchArgs),
    Apply(apply::ApplyArgs),
    ApplyConfig(apply_config::ApplyConfigArgs),
    Diff(diff::DiffArgs),
    ThreeWay(three_way::ThreeWayArgs),
    Normalize(normalize::NormalizeArgs),
}

impl Command {
    /// Checks what clap cannot express declaratively; a failure is a usage error.
    fn validate(&self) -> Result<(), String> {
        match self {
            Command::Patch(args) => args.validate(),
            Command::Apply(args) => args.validate(),
            Command::ApplyConfig(args) => args.validate(),
            Command::Diff(args) => args.validate(),
            Command::ThreeWay(args) => args.validate(),
            Command::Normalize(args) => args.validate(),
        }
    }

    /// The subcommand's name, as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Patch(_) => "patch",
            Command::Apply(_) => "apply",
            Command::ApplyConfig(_) => "apply-config",
            Command::Diff(_) => "diff",
            Command::ThreeWay(_) => "three-way",
            Command::Normalize(_) => "normalize",
        }
    }

    fn run(self) -> Result<(), CliError> {
        match self {
            Command::Patch(args) => patch::run(&args),
            Command::Apply(args) => apply::run(&args),
            Command::ApplyConfig(args) => apply_config::run(&args),
            Command::Diff(args) => diff::run(&args),
            Command::ThreeWay(args) => three_way::run(&args),
            Command::Normalize(args) => normalize::run(&args),
        }
    }
}

/// Reports a usage error the way clap does (with the subcommand's usage line) and exits with 2.
fn usage_error(subcommand: &str, msg: String) -> ! {
    let kind = clap::error::ErrorKind::ArgumentConflict;
    let mut cli = Cli::command();
    // Building fills in the subcommands' full names ("smp apply") for their usage lines.
    cli.build();
    match cli.find_subcommand_mut(subcommand) {
        Some(sub) => sub.error(kind, msg).exit(),
        None => cli.error(kind, msg).exit(),
    }
}

fn main() -> ExitCode {
    // Panics are bugs; keep even those to a single stderr line.
    std::panic::set_hook(Box::new(|info| {
        eprintln!(
            "error: internal error (please report): {}",
            error::one_line(&info.to_string())
        );
    }));

    let cli = Cli::parse();
    if let Err(msg) = cli.command.validate() {
        usage_error(cli.command.name(), msg);
    }
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
