//! Server-side apply without a server: `smp apply-config --server-side` and `smp update` give
//! the object the API server would store, with its `metadata.managedFields`, or the conflicts
//! it would refuse the apply with.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::Value;
use smp_core::DocRole;
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager, FieldManagerError};
use smp_ssa::schema::{Gvk, Schema, crd_reset_fields, from_crds};

use crate::error::CliError;
use crate::io::{self, InputArgs, OutputArgs, SchemaArgs, Source};

/// The options of a write the field manager records.
#[derive(Debug, Args)]
pub struct FieldManagerArgs {
    /// The time stamp written in managedFields (RFC 3339, e.g. `2026-11-26T12:00:00Z`);
    /// by default the current time.
    #[arg(long = "now", value_name = "RFC3339", value_parser = parse_time)]
    pub now: Option<i64>,

    /// Write through this subresource (`status`) rather than the main resource.
    #[arg(long = "subresource", value_name = "NAME")]
    pub subresource: Option<String>,

    /// Leave out what the API server does to built-in objects beyond the field manager: its
    /// scheme's defaults (a Deployment's strategy, containers' pull policies, ...), on create
    /// the admission plugins and what the kind's strategy sets (a Pod's status), and
    /// validation.
    #[arg(long = "no-defaulting")]
    pub no_defaulting: bool,
}

impl FieldManagerArgs {
    /// The scheme's defaults, as decoding gives them (no manager owns them after an apply;
    /// an update's manager owns them, as on the server).
    fn default(&self, object: &mut Value) {
        if !self.no_defaulting {
            // Untyped documents were refused before; nothing to default in them.
            let _ = smp_admission::defaulting::default_object(object);
            smp_admission::printing::print_as_go(object);
        }
    }

    /// What the server does after the field manager: on create, the admission plugins and
    /// the kind's strategy (no manager owns what they set); then validation, whose refusal is
    /// the server's 422 message.
    fn admit_and_validate(&self, object: &mut Value, live: Option<&Value>) -> Result<(), CliError> {
        if self.no_defaulting {
            return Ok(());
        }
        crate::server_steps::admit_and_validate(object, live)
    }
}

fn parse_time(text: &str) -> Result<i64, String> {
    match Clock::fixed(text) {
        Some(Clock::Fixed(seconds)) => Ok(seconds),
        _ => Err(format!(
            "expected an RFC 3339 time such as 2026-11-26T12:00:00Z, got `{text}`"
        )),
    }
}

/// The structured types to type `object` with: its CRD's (from `--crd`) or a built-in kind's.
/// The types of `object`'s kind, and the fields its endpoint resets when it is a custom
/// resource (a built-in kind's come with [`FieldManager::builtin`]).
struct Types {
    schema: Cow<'static, Schema>,
    crds: Vec<Value>,
}

fn schema_for(
    schema_args: &SchemaArgs,
    input: &InputArgs,
    object: &Value,
) -> Result<Types, CliError> {
    let version = text(object, "apiVersion");
    let kind = text(object, "kind");
    if version.is_empty() || kind.is_empty() {
        return Err(CliError::message(
            "the object has no apiVersion and kind: server-side apply types it by them",
        ));
    }
    if !schema_args.crd.is_empty() {
        let crds = schema_args.load(input)?.crds;
        let schema = from_crds(crds.documents())
            .map_err(|e| CliError::new("the CRDs given with --crd", e))?;
        if schema.kind(&Gvk::of(version, kind)).is_some() {
            return Ok(Types {
                schema: Cow::Owned(schema),
                crds: crds.documents().to_vec(),
            });
        }
    }
    Ok(Types {
        schema: Cow::Borrowed(smp_ssa::builtin::schema()),
        crds: Vec::new(),
    })
}

fn text<'v>(object: &'v Value, key: &str) -> &'v str {
    object.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The field manager for `object`'s kind.
fn field_manager<'s>(
    types: &'s Types,
    object: &Value,
    options: &FieldManagerArgs,
) -> Result<FieldManager<'s>, CliError> {
    let schema: &Schema = &types.schema;
    let (version, kind) = (text(object, "apiVersion"), text(object, "kind"));
    let builtin = std::ptr::eq(schema, smp_ssa::builtin::schema());
    let made = if builtin {
        FieldManager::builtin(version, kind)
    } else {
        FieldManager::new(schema, version, kind)
    };
    let mut fm = made.map_err(|_| {
        CliError::message(format_args!(
            "no type for apiVersion {version}, kind {kind}: not a Kubernetes v{} kind (give its CustomResourceDefinition with --crd)",
            smp_ssa::builtin::KUBERNETES_VERSION
        ))
    })?;
    if let Some(subresource) = &options.subresource {
        fm = fm.subresource(subresource);
    }
    let subresource = options.subresource.as_deref().unwrap_or("");
    if let Some(resets) = crd_reset_fields(&types.crds, version, kind, subresource) {
        fm = fm.reset_fields(resets);
    }
    if let Some(seconds) = options.now {
        fm = fm.clock(Clock::Fixed(seconds));
    }
    Ok(fm)
}

/// The live object, or `None` when there is none (no file, an empty one, `{}`).
fn read_live(input: &InputArgs, live: Option<&Path>) -> Result<Option<Value>, CliError> {
    let Some(path) = live else { return Ok(None) };
    let object = input.read_object(path, DocRole::Current)?;
    Ok((object != Value::Object(serde_json::Map::new())).then_some(object))
}

fn fail(e: FieldManagerError, what: impl std::fmt::Display) -> CliError {
    match e {
        // The server's message, lines and all, as kubectl prints it.
        FieldManagerError::Conflict(conflict) => CliError::verbatim(conflict),
        other => CliError::new(what, other),
    }
}

/// Runs `smp apply-config --server-side`.
#[allow(clippy::too_many_arguments)]
pub fn apply(
    input: &InputArgs,
    schema_args: &SchemaArgs,
    output: &OutputArgs,
    live: Option<&Path>,
    desired: &Path,
    manager: &str,
    force: bool,
    options: &FieldManagerArgs,
) -> Result<(), CliError> {
    let applied = input.read_object(desired, DocRole::Modified)?;
    let live = read_live(input, live)?;
    let types = schema_for(schema_args, input, &applied)?;
    let fm = field_manager(&types, &applied, options)?;
    let mut object = fm
        .apply(live.as_ref(), &applied, manager, ApplyOptions { force })
        .map_err(|e| fail(e, format_args!("applying {}", Source::new(desired))))?;
    options.default(&mut object);
    options.admit_and_validate(&mut object, live.as_ref())?;
    output.write(&object)
}

const UPDATE_EXAMPLE: &str = "\
Example:
  # a controller writes the object (PUT, or a JSON, merge or strategic merge patch):
  smp update --field-manager my-controller --live live.yaml -f new.yaml -o yaml

The new object is printed with the managedFields the API server would give it: the manager
owns what it added or changed; other managers lose what it changed or removed. Without --live
(or with an empty one) the object is being created.";

/// Record a write of an object (not an apply) in its managedFields, as the API server does for
/// a create, an update or a patch.
#[derive(Debug, Args)]
#[command(after_long_help = UPDATE_EXAMPLE)]
pub struct UpdateArgs {
    /// The manager writing (`--field-manager` of kubectl and client-go).
    #[arg(long = "field-manager", value_name = "NAME")]
    manager: String,

    /// The live object, as the server has it (JSON or YAML; `-` for stdin); none: a create.
    #[arg(long = "live", value_name = "FILE")]
    live: Option<PathBuf>,

    /// The object written (JSON or YAML; `-` for stdin).
    #[arg(short = 'f', long = "filename", value_name = "FILE")]
    new: PathBuf,

    #[command(flatten)]
    options: FieldManagerArgs,

    #[command(flatten)]
    schema: SchemaArgs,

    #[command(flatten)]
    input: InputArgs,

    #[command(flatten)]
    output: OutputArgs,
}

impl UpdateArgs {
    /// Usage checks clap cannot express.
    pub fn validate(&self) -> Result<(), String> {
        if self.schema.schema.is_some() {
            return Err("--schema is not used by `smp update`: types come from the built-in kinds and --crd".into());
        }
        io::check_single_stdin(
            self.live
                .iter()
                .map(PathBuf::as_path)
                .chain([self.new.as_path()]),
        )
    }
}

/// Runs `smp update`.
pub fn update(args: &UpdateArgs) -> Result<(), CliError> {
    let mut new = args.input.read_object(&args.new, DocRole::Modified)?;
    let live = read_live(&args.input, args.live.as_deref())?;
    let types = schema_for(&args.schema, &args.input, &new)?;
    let fm = field_manager(&types, &new, &args.options)?;
    args.options.default(&mut new);
    let mut object = fm
        .update(live.as_ref(), new, &args.manager)
        .map_err(|e| fail(e, format_args!("updating with {}", Source::new(&args.new))))?;
    args.options
        .admit_and_validate(&mut object, live.as_ref())?;
    args.output.write(&object)
}
