//! `smp`: Kubernetes strategic merge patch from the command line.
//!
//! **Its place.** The top of smp: it stands on every library crate (smp-core, smp-types,
//! smp-ssa, smp-admission, smp-apiserver) and nothing stands on it.
//!
//! Each subcommand lives in its own module and returns `Result<(), CliError>`; `main` turns an
//! error into one `error: ` line on stderr and exit status 1. Usage errors are clap's (status 2).

#![warn(missing_docs)]

mod apply_config;
mod completions;
mod default;
mod diff;
mod documents;
mod error;
mod io;
mod kinds;
mod merge;
mod normalize;
mod patch;
mod serve;
mod server_side;
mod server_steps;
mod three_way;
mod validate;

use std::ffi::OsString;
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
        OpenAPI schema. `apply-config --server-side` and `update` compute server-side apply and \
        the managedFields the API server records.",
    after_help = "Errors print one line starting with `error: ` on stderr and exit with status 1; \
        usage errors exit with status 2.\n\nRun `smp help <COMMAND>` for its options, their defaults and an example.",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Patch(patch::PatchArgs),
    #[command(visible_alias = "apply")]
    ApplyConfig(apply_config::ApplyConfigArgs),
    Merge(merge::MergeArgs),
    Diff(diff::DiffArgs),
    ThreeWay(three_way::ThreeWayArgs),
    Update(server_side::UpdateArgs),
    Serve(serve::ServeArgs),
    Normalize(normalize::NormalizeArgs),
    Default(default::DefaultArgs),
    Validate(validate::ValidateArgs),
    Completions(completions::CompletionsArgs),
    Man(completions::ManArgs),
}

impl Command {
    /// Checks what clap cannot express declaratively; a failure is a usage error.
    fn validate(&self) -> Result<(), String> {
        match self {
            Command::Patch(args) => args.validate(),
            Command::Merge(args) => args.validate(),
            Command::ApplyConfig(args) => args.validate(),
            Command::Diff(args) => args.validate(),
            Command::ThreeWay(args) => args.validate(),
            Command::Update(args) => args.validate(),
            Command::Serve(args) => args.validate(),
            Command::Normalize(args) => args.validate(),
            Command::Default(_)
            | Command::Validate(_)
            | Command::Completions(_)
            | Command::Man(_) => Ok(()),
        }
    }

    /// The subcommand's name, as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Patch(_) => "patch",
            Command::Merge(_) => "merge",
            Command::ApplyConfig(_) => "apply-config",
            Command::Diff(_) => "diff",
            Command::ThreeWay(_) => "three-way",
            Command::Update(_) => "update",
            Command::Serve(_) => "serve",
            Command::Normalize(_) => "normalize",
            Command::Default(_) => "default",
            Command::Validate(_) => "validate",
            Command::Completions(_) => "completions",
            Command::Man(_) => "man",
        }
    }

    fn run(self) -> Result<(), CliError> {
        match self {
            Command::Patch(args) => patch::run(&args),
            Command::Merge(args) => merge::run(&args),
            Command::ApplyConfig(args) => apply_config::run(&args),
            Command::Diff(args) => diff::run(&args),
            Command::ThreeWay(args) => three_way::run(&args),
            Command::Update(args) => server_side::update(&args),
            Command::Serve(args) => serve::run(&args),
            Command::Normalize(args) => normalize::run(&args),
            Command::Default(args) => default::run(&args),
            Command::Validate(args) => validate::run(&args),
            Command::Completions(args) => completions::completions(&args, Cli::command()),
            Command::Man(args) => completions::man(&args, Cli::command()),
        }
    }
}

/// Reports a usage error the way clap does (with the subcommand's usage line) and exits with 2.
fn usage_error(subcommand: &str, msg: String) -> ! {
    let kind = clap::error::ErrorKind::ArgumentConflict;
    let mut cli = Cli::command();
    // Building fills in the subcommands' full names ("smp merge") for their usage lines.
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

    let cli = Cli::parse_from(route_legacy_apply(std::env::args_os().collect()));
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

/// The options that make `smp apply` the kubectl-style client-side apply (`apply-config`).
const APPLY_CONFIG_OPTIONS: [&str; 5] = ["-f", "--filename", "--live", "-h", "--help"];

/// `smp apply` is what a kubectl user expects: `kubectl apply -f` (client-side apply, the
/// `apply-config` subcommand, of which `apply` is an alias). Until that was so, `smp apply
/// ORIGINAL PATCH` was the plain patch application now called `smp merge`, and scripts that
/// spell it so keep working: `apply` with none of apply-config's file options runs `merge`, and
/// says so on stderr.
fn route_legacy_apply(mut args: Vec<OsString>) -> Vec<OsString> {
    if args.get(1).is_none_or(|a| a != "apply") {
        return args;
    }
    let kubectl_style = args[2..].iter().any(|arg| {
        let arg = arg.to_string_lossy();
        let name = arg.split_once('=').map_or(arg.as_ref(), |(name, _)| name);
        APPLY_CONFIG_OPTIONS.contains(&name) || (name.starts_with("-f") && !name.starts_with("--"))
    });
    if !kubectl_style {
        eprintln!(
            "warning: `smp apply ORIGINAL PATCH` is now `smp merge ORIGINAL PATCH` (this run \
             merges as before); `smp apply -f FILE --live FILE` is `kubectl apply`"
        );
        args[1] = OsString::from("merge");
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routed(args: &[&str]) -> Vec<String> {
        route_legacy_apply(args.iter().map(OsString::from).collect())
            .into_iter()
            .map(|a| a.into_string().expect("UTF-8"))
            .collect()
    }

    #[test]
    fn apply_with_two_files_is_the_old_merge() {
        assert_eq!(routed(&["smp", "apply", "a.yaml", "p.yaml"])[1], "merge");
        assert_eq!(
            routed(&["smp", "apply", "-o", "yaml", "a", "p"])[1],
            "merge"
        );
        assert_eq!(
            routed(&["smp", "apply", "--live", "l", "-f", "d"])[1],
            "apply"
        );
        assert_eq!(
            routed(&["smp", "apply", "--filename=d", "--live=l"])[1],
            "apply"
        );
        assert_eq!(
            routed(&["smp", "apply", "-fd.yaml", "--live", "l"])[1],
            "apply"
        );
        assert_eq!(routed(&["smp", "apply", "--help"])[1], "apply");
        assert_eq!(routed(&["smp", "patch", "-f", "x"])[1], "patch");
        assert_eq!(routed(&["smp"]), ["smp"]);
    }

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
