//! `smp apply-config`: what `kubectl apply` (client-side) would send and what the object would
//! become, from the live object and the desired configuration, without a cluster.

use std::path::PathBuf;

use clap::{ArgAction, Args, ValueEnum};
use smp_core::DocRole;

use crate::error::CliError;
use crate::io::{self, CreateArgs, InputArgs, OutputArgs, SchemaArgs, Source};
use crate::kinds;

const EXAMPLE: &str = "\
Example:
  # what `kubectl apply -f desired.yaml` would make of the live object:
  smp apply-config --live live.yaml -f desired.yaml -o yaml

  # the patch kubectl would send (a strategic merge patch):
  smp apply-config --live live.yaml -f desired.yaml --print patch

The live object's kubectl.kubernetes.io/last-applied-configuration annotation says what was
applied last time: what it had and the desired configuration dropped is deleted; what others
set on the live object and neither configuration has is kept. The patch also writes the new
annotation (the desired configuration as compact JSON), as kubectl does. Without the annotation
nothing is deleted. The document's apiVersion and kind pick its built-in type; --schema gives
another.";

/// What to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Print {
    /// The object the server would hold after the apply.
    Object,
    /// The three-way strategic merge patch kubectl would send.
    Patch,
}

/// Compute what `kubectl apply -f` (client-side apply) does to a live object, and print the
/// resulting object or the patch it sends.
#[derive(Debug, Args)]
#[command(after_long_help = EXAMPLE)]
pub struct ApplyConfigArgs {
    /// The live object, as the server has it (JSON or YAML; `-` for stdin).
    #[arg(long = "live", value_name = "FILE")]
    live: PathBuf,

    /// The desired configuration, as given to `kubectl apply -f` (JSON or YAML; `-` for stdin).
    #[arg(short = 'f', long = "filename", value_name = "FILE")]
    desired: PathBuf,

    /// Whether the desired configuration wins over changes others made to the same fields
    /// (kubectl's `--overwrite`, true by default). `--overwrite=false` fails on such conflicts.
    #[arg(
        long,
        value_name = "BOOL",
        action = ArgAction::Set,
        num_args = 0..=1,
        require_equals = true,
        default_value_t = true,
        default_missing_value = "true"
    )]
    overwrite: bool,

    /// What to print.
    #[arg(long = "print", value_enum, default_value_t = Print::Object)]
    print: Print,

    #[command(flatten)]
    schema: SchemaArgs,

    #[command(flatten)]
    input: InputArgs,

    #[command(flatten)]
    create: CreateArgs,

    #[command(flatten)]
    output: OutputArgs,
}

impl ApplyConfigArgs {
    /// Usage checks clap cannot express.
    pub fn validate(&self) -> Result<(), String> {
        io::check_single_stdin(
            [self.live.as_path(), self.desired.as_path()]
                .into_iter()
                .chain(self.schema.path()),
        )
    }
}

/// Runs `smp apply-config`.
pub fn run(args: &ApplyConfigArgs) -> Result<(), CliError> {
    let schemas = args.schema.load(&args.input)?;
    let live = args.input.read_object(&args.live, DocRole::Current)?;
    let desired = args.input.read_object(&args.desired, DocRole::Modified)?;
    let typing = kinds::resolve(&schemas, &[&desired, &live]);
    let options = args
        .create
        .three_way(smp_core::Conflicts::from_overwrite_flag(args.overwrite));
    let applied = smp_core::client_side_apply(&live, &desired, typing.node(&schemas), &options)
        .map_err(|e| {
            CliError::new(
                format_args!(
                    "applying {} to {}",
                    Source::new(&args.desired),
                    Source::new(&args.live)
                ),
                e,
            )
        })?;
    match args.print {
        Print::Object => args.output.write(&applied.result),
        Print::Patch => args.output.write(applied.patch.as_value()),
    }
}
