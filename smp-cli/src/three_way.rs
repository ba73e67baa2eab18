//! `smp three-way`: create the patch `kubectl apply` sends.

use std::path::PathBuf;

use clap::{ArgAction, Args};
use smp_core::DocRole;

use crate::error::CliError;
use crate::io::{self, CreateArgs, InputArgs, OutputArgs, SchemaArgs, Source};
use crate::kinds;

const EXAMPLE: &str = "\
Example:
  smp three-way --schema examples/pod-schema.json#io.k8s.api.core.v1.Pod --overwrite=false \\
      last-applied.yaml examples/pod.yaml live-pod.yaml -o yaml

Prints the patch (upstream CreateThreeWayMergePatch) that makes CURRENT what MODIFIED asks for:
the additions and changes from CURRENT to MODIFIED, plus the deletions of what ORIGINAL had and
MODIFIED dropped. Members that only CURRENT has (set by others) are left alone.

With --overwrite=false the patch is checked against the changes made from ORIGINAL to CURRENT;
if both change the same member differently, nothing is printed and the command fails with a
`conflict` error naming the member's path. An empty document or `null` counts as `{}`; any
other document must be an object.";

/// Create the three-way patch `kubectl apply` sends, and print it.
///
/// ORIGINAL is the last-applied configuration, MODIFIED the new configuration and CURRENT the
/// live object. All three are JSON or YAML (detected); `-` reads one of them from stdin.
#[derive(Debug, Args)]
#[command(after_long_help = EXAMPLE)]
pub struct ThreeWayArgs {
    #[command(flatten)]
    schema: SchemaArgs,

    #[command(flatten)]
    input: InputArgs,

    #[command(flatten)]
    create: CreateArgs,

    /// Whether MODIFIED wins over changes made from ORIGINAL to CURRENT (as in kubectl).
    /// `--overwrite=false` fails on such conflicts instead.
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

    /// The last-applied configuration (JSON or YAML; `-` for stdin).
    original: PathBuf,

    /// The new configuration (JSON or YAML; `-` for stdin).
    modified: PathBuf,

    /// The live object (JSON or YAML; `-` for stdin).
    current: PathBuf,

    #[command(flatten)]
    output: OutputArgs,
}

impl ThreeWayArgs {
    /// Usage checks clap cannot express.
    pub fn validate(&self) -> Result<(), String> {
        io::check_single_stdin(
            [
                self.original.as_path(),
                self.modified.as_path(),
                self.current.as_path(),
            ]
            .into_iter()
            .chain(self.schema.path()),
        )
    }
}

/// Runs `smp three-way`.
pub fn run(args: &ThreeWayArgs) -> Result<(), CliError> {
    let schemas = args.schema.load(&args.input)?;
    let original = args.input.read_object(&args.original, DocRole::Original)?;
    let modified = args.input.read_object(&args.modified, DocRole::Modified)?;
    let current = args.input.read_object(&args.current, DocRole::Current)?;
    let typing = kinds::resolve(&schemas, &[&original, &modified, &current]);
    let patch = smp_core::three_way(
        &original,
        &modified,
        &current,
        typing.node(&schemas),
        &args
            .create
            .three_way(smp_core::Conflicts::from_overwrite_flag(args.overwrite)),
    )
    .map_err(|e| {
        CliError::new(
            format_args!(
                "creating a three-way patch from {}, {} and {}",
                Source::new(&args.original),
                Source::new(&args.modified),
                Source::new(&args.current)
            ),
            e,
        )
    })?;
    args.output.write(&patch)
}
