//! `smp apply`: apply a strategic merge patch to a document.

use std::path::PathBuf;

use clap::Args;
use smp_core::DocRole;

use crate::error::CliError;
use crate::io::{self, InputArgs, OutputArgs, SchemaArgs, Source};
use crate::kinds;

const EXAMPLE: &str = "\
Example:
  smp apply --schema examples/pod-schema.json#io.k8s.api.core.v1.Pod \\
      examples/pod.yaml examples/patch.yaml -o yaml

  # the patch from stdin; the document's apiVersion and kind pick its built-in schema:
  echo '{\"metadata\":{\"labels\":{\"tier\":\"web\"}}}' | smp apply examples/pod.yaml -

Prints the patched document. An empty document or `null` counts as `{}`; any other document must
be an object.";

/// Apply a strategic merge patch to a document and print the result.
///
/// ORIGINAL and PATCH are JSON or YAML (detected); `-` reads one of them from stdin.
#[derive(Debug, Args)]
#[command(after_long_help = EXAMPLE)]
pub struct ApplyArgs {
    #[command(flatten)]
    schema: SchemaArgs,

    #[command(flatten)]
    input: InputArgs,

    /// The document to patch (JSON or YAML; `-` for stdin).
    original: PathBuf,

    /// The strategic merge patch (JSON or YAML; `-` for stdin).
    patch: PathBuf,

    #[command(flatten)]
    output: OutputArgs,
}

impl ApplyArgs {
    /// Usage checks clap cannot express.
    pub fn validate(&self) -> Result<(), String> {
        io::check_single_stdin(
            [self.original.as_path(), self.patch.as_path()]
                .into_iter()
                .chain(self.schema.path()),
        )
    }
}

/// Runs `smp apply`.
pub fn run(args: &ApplyArgs) -> Result<(), CliError> {
    let schemas = args.schema.load(&args.input)?;
    let original = args.input.read_object(&args.original, DocRole::Original)?;
    let patch = args.input.read_object(&args.patch, DocRole::Patch)?;
    let typing = kinds::resolve(&schemas, &[&original]);
    let patched = smp_core::apply_owned(original, &patch, typing.node(&schemas)).map_err(|e| {
        CliError::new(
            format_args!(
                "applying {} to {}",
                Source::new(&args.patch),
                Source::new(&args.original)
            ),
            e,
        )
    })?;
    args.output.write(&patched)
}
