//! `smp apply-config`: what `kubectl apply` (client-side) would send and what the object would
//! become, from the live object and the desired configuration, without a cluster.

use std::path::PathBuf;

use clap::{ArgAction, Args, ValueEnum};
use smp_core::DocRole;

use crate::error::CliError;
use crate::io::{self, CreateArgs, InputArgs, OutputArgs, SchemaArgs, Source};
use crate::kinds;
use crate::server_side;

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
another.

With --server-side, what `kubectl apply --server-side` would make of it: the API server's
merge by the schema's list types and keys, with metadata.managedFields recording which
manager owns which field, and the apply refused (exit status 1, the server's message) when it
would change fields other managers own, unless --force-conflicts:
  smp apply-config --server-side --field-manager me --live live.yaml -f desired.yaml -o yaml
Without --live (or with an empty one) the apply creates the object.";

/// What to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Print {
    /// The object the server would hold after the apply.
    Object,
    /// The three-way strategic merge patch kubectl would send.
    Patch,
}

/// Compute what `kubectl apply -f` does to a live object, and print the resulting object (or
/// the patch a client-side apply sends); with --server-side, the API server's server-side apply.
#[derive(Debug, Args)]
#[command(after_long_help = EXAMPLE)]
pub struct ApplyConfigArgs {
    /// The live object, as the server has it (JSON or YAML; `-` for stdin). Required for a
    /// client-side apply; with --server-side, none (or an empty one) creates the object.
    #[arg(long = "live", value_name = "FILE")]
    live: Option<PathBuf>,

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

    /// Apply as the API server does for `kubectl apply --server-side`: field ownership in
    /// metadata.managedFields, conflicts with other managers.
    #[arg(long = "server-side")]
    server_side: bool,

    /// With --server-side: the manager applying (kubectl's `--field-manager`).
    #[arg(
        long = "field-manager",
        value_name = "NAME",
        default_value = "kubectl",
        requires = "server_side"
    )]
    field_manager: String,

    /// With --server-side: take the fields other managers own instead of failing.
    #[arg(long = "force-conflicts", requires = "server_side")]
    force_conflicts: bool,

    #[command(flatten)]
    server: server_side::FieldManagerArgs,

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
        if self.server_side {
            if self.print == Print::Patch {
                return Err("--print patch is a client-side apply's: a server-side apply sends the configuration itself".into());
            }
            if self.schema.schema.is_some() {
                return Err("--schema is not used with --server-side: types come from the built-in kinds and --crd".into());
            }
        } else {
            if self.live.is_none() {
                return Err(
                    "--live is required for a client-side apply (or give --server-side)".into(),
                );
            }
            if self.server.now.is_some() || self.server.subresource.is_some() {
                return Err("--now and --subresource go with --server-side".into());
            }
        }
        io::check_single_stdin(
            self.live
                .iter()
                .map(PathBuf::as_path)
                .chain([self.desired.as_path()])
                .chain(self.schema.path()),
        )
    }
}

/// Runs `smp apply-config`.
pub fn run(args: &ApplyConfigArgs) -> Result<(), CliError> {
    if args.server_side {
        return server_side::apply(
            &args.input,
            &args.schema,
            &args.output,
            args.live.as_deref(),
            &args.desired,
            &args.field_manager,
            args.force_conflicts,
            &args.server,
        );
    }
    let Some(live_path) = args.live.as_deref() else {
        return Err(CliError::message(
            "--live is required for a client-side apply",
        ));
    };
    let schemas = args.schema.load(&args.input)?;
    let live = args.input.read_object(live_path, DocRole::Current)?;
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
                    Source::new(live_path)
                ),
                e,
            )
        })?;
    match args.print {
        Print::Object => args.output.write(&applied.result),
        Print::Patch => args.output.write(applied.patch.as_value()),
    }
}
