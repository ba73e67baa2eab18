//! `smp diff`: create the two-way patch that turns one document into another.

use std::path::PathBuf;

use clap::Args;
use smp_core::DocRole;

use crate::error::CliError;
use crate::io::{self, CreateArgs, InputArgs, OutputArgs, SchemaArgs, Source};
use crate::kinds;

const EXAMPLE: &str = "\
Example:
  smp diff --schema examples/pod-schema.json#io.k8s.api.core.v1.Pod \\
      examples/pod.yaml modified-pod.yaml -o yaml

  # the modified document from stdin, untyped (changed lists are sent whole):
  echo '{\"kind\":\"Pod\"}' | smp diff examples/pod.yaml -

Prints the patch (upstream CreateTwoWayMergePatch): applying it to ORIGINAL with `smp merge` and
the same schema gives MODIFIED. Members that MODIFIED drops are sent as `null`, list items it
drops as `$patch: delete` or `$deleteFromPrimitiveList`, and the order of merged lists as
`$setElementOrder`. Identical documents give `{}`. An empty document or `null` counts as `{}`;
any other document must be an object.";

/// Create the strategic merge patch that turns ORIGINAL into MODIFIED, and print it.
///
/// ORIGINAL and MODIFIED are JSON or YAML (detected); `-` reads one of them from stdin.
#[derive(Debug, Args)]
#[command(after_long_help = EXAMPLE)]
pub struct DiffArgs {
    #[command(flatten)]
    schema: SchemaArgs,

    #[command(flatten)]
    input: InputArgs,

    #[command(flatten)]
    create: CreateArgs,

    /// The document as it is (JSON or YAML; `-` for stdin).
    original: PathBuf,

    /// The document as it should be (JSON or YAML; `-` for stdin).
    modified: PathBuf,

    #[command(flatten)]
    output: OutputArgs,
}

impl DiffArgs {
    /// Usage checks clap cannot express.
    pub fn validate(&self) -> Result<(), String> {
        io::check_single_stdin(
            [self.original.as_path(), self.modified.as_path()]
                .into_iter()
                .chain(self.schema.path()),
        )
    }
}

/// Runs `smp diff`.
pub fn run(args: &DiffArgs) -> Result<(), CliError> {
    let schemas = args.schema.load(&args.input)?;
    let original = args.input.read_object(&args.original, DocRole::Original)?;
    let modified = args.input.read_object(&args.modified, DocRole::Modified)?;
    let typing = kinds::resolve(&schemas, &[&original, &modified]);
    let options = smp_core::DiffOptions {
        patch_merge_key: args.create.patch_merge_key(),
        ..smp_core::DiffOptions::default()
    };
    let patch = smp_core::diff_with(&original, &modified, typing.node(&schemas), &options)
        .map_err(|e| {
            CliError::new(
                format_args!(
                    "creating a patch from {} to {}",
                    Source::new(&args.original),
                    Source::new(&args.modified)
                ),
                e,
            )
        })?;
    args.output.write(&patch)
}
