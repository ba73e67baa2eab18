//! `smp merge`: apply a strategic merge patch to a document (called `smp apply` until it was
//! renamed, so that `smp apply` could be what a kubectl user expects: see `main.rs`).

use std::path::PathBuf;

use clap::Args;
use smp_core::DocRole;

use crate::error::CliError;
use crate::io::{self, InputArgs, OutputArgs, SchemaArgs, Source};
use crate::kinds;

const EXAMPLE: &str = "\
Example:
  smp merge --schema examples/pod-schema.json#io.k8s.api.core.v1.Pod \\
      examples/pod.yaml examples/patch.yaml -o yaml

  # the patch from stdin; the document's apiVersion and kind pick its built-in schema:
  echo '{\"metadata\":{\"labels\":{\"tier\":\"web\"}}}' | smp merge examples/pod.yaml -

Prints the patched document (JSON with a 2-space indent, or YAML). An empty document or `null`
counts as `{}`; any other document must be an object. For `kubectl patch` on manifests (many
documents, Lists, kubectl's output) use `smp patch`; for `kubectl apply`, `smp apply-config`.

`smp apply ORIGINAL PATCH`, this command's old name, still works and says so on stderr.";

/// Apply a strategic merge patch to one document and print the result.
///
/// ORIGINAL and PATCH are JSON or YAML (detected); `-` reads one of them from stdin.
#[derive(Debug, Args)]
#[command(after_long_help = EXAMPLE)]
pub struct MergeArgs {
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

impl MergeArgs {
    /// Usage checks clap cannot express.
    pub fn validate(&self) -> Result<(), String> {
        io::check_single_stdin(
            [self.original.as_path(), self.patch.as_path()]
                .into_iter()
                .chain(self.schema.path()),
        )
    }
}

/// Runs `smp merge`.
pub fn run(args: &MergeArgs) -> Result<(), CliError> {
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
