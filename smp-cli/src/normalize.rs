//! `smp normalize`: normalize the unions (KEP-1027) of a document, as an API server does after
//! a patch or an update, and validate them.

use std::path::PathBuf;

use clap::Args;
use smp_core::{DocRole, union};

use crate::error::CliError;
use crate::io::{self, InputArgs, OutputArgs, SchemaArgs, Source};
use crate::kinds;

const EXAMPLE: &str = "\
Example:
  smp normalize --schema deployment-schema.json#Deployment new.yaml old.yaml

Unions are read from the schema's `x-kubernetes-unions`, or, without --schema, from the
smp-types type that NEW's apiVersion/kind names. With OLD (the object before the
update), a member newly set clears the others and a changed discriminator keeps only the member
it selects; without OLD the document is treated as a creation. Prints the normalized NEW, or
fails naming each union left with more than one member set (or a discriminator that names
another member).";

/// Normalize the unions of a document against its previous version and print the result.
///
/// NEW and OLD are JSON or YAML (detected); `-` reads one of them from stdin.
#[derive(Debug, Args)]
#[command(after_long_help = EXAMPLE)]
pub struct NormalizeArgs {
    #[command(flatten)]
    schema: SchemaArgs,

    #[command(flatten)]
    input: InputArgs,

    /// The updated document (JSON or YAML; `-` for stdin).
    new: PathBuf,

    /// The document before the update (JSON or YAML; `-` for stdin); absent for a creation.
    old: Option<PathBuf>,

    #[command(flatten)]
    output: OutputArgs,
}

impl NormalizeArgs {
    /// Usage checks clap cannot express.
    pub fn validate(&self) -> Result<(), String> {
        io::check_single_stdin(
            [Some(self.new.as_path()), self.old.as_deref()]
                .into_iter()
                .flatten()
                .chain(self.schema.path()),
        )
    }
}

/// Runs `smp normalize`.
pub fn run(args: &NormalizeArgs) -> Result<(), CliError> {
    let schemas = args.schema.load(&args.input)?;
    let mut new = args.input.read_object(&args.new, DocRole::Modified)?;
    let old = match &args.old {
        Some(path) => Some(args.input.read_object(path, DocRole::Original)?),
        None => None,
    };
    let typing = kinds::resolve(&schemas, &[&new]);
    union::normalize(&mut new, old.as_ref(), typing.node(&schemas));
    union::validate(&new, typing.node(&schemas)).map_err(|errors| {
        CliError::new(
            format_args!("normalizing {}", Source::new(&args.new)),
            union::UpdateError::Invalid(errors),
        )
    })?;
    args.output.write(&new)
}
