//! `smp patch`: `kubectl patch --local` without a cluster.
//!
//! Every document of FILE (a multi-document YAML stream, JSON, or a `List`, whose items are
//! taken one by one as kubectl does) is patched on its own and printed. The schema of a
//! strategic patch comes from `--schema` or from the document's `apiVersion`/`kind`
//! ([`crate::kinds`]). A document that fails (an unknown kind, a patch error) prints one
//! `error: ` line naming it; the others are still printed, and the status is 1.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::Value;
use smp_core::DocRole;
use smp_core::error::kind_of;

use crate::documents::{Place, Printer, objects, report};
use crate::error::CliError;
use crate::io::{self, Format, InputArgs, SchemaArgs, Schemas, Source};
use crate::kinds::{TypeMeta, Typing};

mod stream;

const EXAMPLE: &str = "\
Example:
  smp patch -f examples/deployment.yaml --patch-file examples/deployment-patch.yaml -o yaml

  # inline, like kubectl:
  smp patch -f examples/pod.yaml -p '{\"metadata\":{\"labels\":{\"tier\":\"web\"}}}'
  smp patch -f examples/pod.yaml --type json -p '[{\"op\":\"remove\",\"path\":\"/spec/tolerations\"}]'

Output is kubectl's: JSON with 4-space indent and sorted keys, one object after the other
(the items of a List are printed one by one), without `metadata.managedFields` unless
--show-managed-fields; with `-o yaml` the documents are separated by `---`. Every kind of the
Kubernetes v1.34 API has a built-in type (smp-types); another kind (a custom resource) needs
--schema, or --type merge/json.";

/// How the patch is interpreted (`kubectl patch --type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PatchType {
    /// Kubernetes strategic merge patch.
    Strategic,
    /// JSON merge patch (RFC 7386).
    Merge,
    /// JSON patch (RFC 6902).
    Json,
}

/// Patch the objects of a file the way `kubectl patch --local` does, and print them.
#[derive(Debug, Args)]
#[command(after_long_help = EXAMPLE)]
pub struct PatchArgs {
    /// The objects to patch (JSON or YAML, several documents or a List; `-` for stdin).
    #[arg(short = 'f', long = "filename", value_name = "FILE")]
    file: PathBuf,

    /// The patch, inline (JSON or YAML).
    #[arg(
        short = 'p',
        long = "patch",
        value_name = "PATCH",
        required_unless_present = "patch_file",
        conflicts_with = "patch_file"
    )]
    patch: Option<String>,

    /// The patch, from a file (JSON or YAML; `-` for stdin).
    #[arg(long = "patch-file", value_name = "FILE")]
    patch_file: Option<PathBuf>,

    /// The patch type.
    #[arg(long = "type", value_enum, default_value_t = PatchType::Strategic)]
    patch_type: PatchType,

    #[command(flatten)]
    schema: SchemaArgs,

    #[command(flatten)]
    input: InputArgs,

    /// Output format, as kubectl prints it: `json`, with a 4-space indent, keys sorted and
    /// `<`, `>`, `&` escaped, or `yaml`, documents separated by `---`.
    #[arg(short = 'o', long = "output", value_enum, value_name = "FORMAT", default_value_t = Format::Json, hide_possible_values = true)]
    format: Format,

    /// Keep `metadata.managedFields` in the output (kubectl's flag: without it, kubectl prints
    /// objects without them).
    #[arg(long = "show-managed-fields")]
    show_managed_fields: bool,
}

impl PatchArgs {
    /// Usage checks clap cannot express.
    pub fn validate(&self) -> Result<(), String> {
        io::check_single_stdin(
            [Some(self.file.as_path()), self.patch_file.as_deref()]
                .into_iter()
                .flatten()
                .chain(self.schema.path()),
        )
    }
}

/// What `copy` operations of a JSON patch may add to the objects of one run, beyond the size of
/// FILE and the patch, in the units YAML aliases are counted in (one per value plus one per byte
/// of every string and key): the rule of `smp_core`'s YAML reader for aliases.
const COPY_ALLOWANCE: u64 = 1_000_000;

/// Runs `smp patch`.
pub fn run(args: &PatchArgs) -> Result<(), CliError> {
    let schemas = args.schema.load(&args.input)?;
    let (patch, patch_size) = read_patch(args)?;
    let source = Source::new(&args.file);
    let text = args.input.read_text(&args.file, DocRole::Original)?;
    let fast =
        args.patch_type == PatchType::Strategic && stream::suits(&patch, args.show_managed_fields);
    if fast {
        let job = stream::Job {
            patch: &patch,
            schemas: &schemas,
            source,
            show_managed_fields: args.show_managed_fields,
            format: args.format,
        };
        // A JSON document is taken apart into its objects; a YAML stream in the block style of
        // manifests into its documents.
        if let Some(found) = smp_core::sparse::json_objects(&text) {
            let input = stream::Input::JsonObjects { list: found.list };
            return report(stream::run(&found.objects, input, &job)?);
        }
        if let Some(documents) = smp_core::yaml::split_documents(&text) {
            return report(stream::run(&documents, stream::Input::YamlDocuments, &job)?);
        }
    }
    let docs = smp_core::input::parse_documents(&text, DocRole::Original)
        .map_err(|e| CliError::new(format_args!("{} {source}", DocRole::Original), e))?;
    let mut copies = CopyBudget {
        total: units(text.len())
            .saturating_add(units(patch_size))
            .saturating_add(COPY_ALLOWANCE),
        used: 0,
    };
    drop(text);

    let mut out = Printer {
        format: args.format,
        printed: 0,
    };
    let mut errors = Vec::new();
    for (i, doc) in docs.into_iter().enumerate() {
        for (item, object) in objects(doc) {
            let place = Place {
                source,
                document: i + 1,
                item,
            };
            let patched = patch_one(object, &patch, args.patch_type, &schemas, &mut copies);
            match patched {
                Ok(mut v) => {
                    shown(&mut v, args.show_managed_fields);
                    // Printed at once, so that memory holds one result at a time.
                    out.print(&v)?;
                }
                Err(e) => errors.push(CliError::new(place, e)),
            }
        }
    }

    report(errors)
}

/// The patch (an object for strategic and merge patches, a list of operations for JSON patch)
/// and the size of its text.
fn read_patch(args: &PatchArgs) -> Result<(Value, usize), CliError> {
    let (text, origin) = match (&args.patch, &args.patch_file) {
        (Some(text), _) => {
            args.input.check_inline(text, "patch (-p)")?;
            (text.clone(), "patch (-p)".to_owned())
        }
        (None, Some(path)) => (
            args.input.read_text(path, DocRole::Patch)?,
            format!("patch {}", Source::new(path)),
        ),
        // clap requires one of the two.
        (None, None) => (String::new(), "patch".to_owned()),
    };
    let patch = smp_core::input::parse_document(&text, DocRole::Patch)
        .map_err(|e| CliError::new(&origin, e))?;
    let ok = match args.patch_type {
        PatchType::Strategic | PatchType::Merge => patch.is_object() || patch.is_null(),
        PatchType::Json => patch.is_array(),
    };
    if !ok {
        let expected = match args.patch_type {
            PatchType::Json => "a list of operations",
            _ => "an object",
        };
        return Err(CliError::new(
            origin,
            format_args!("expected {expected}, found {}", kind_of(&patch)),
        ));
    }
    Ok((patch, text.len()))
}

fn patch_one(
    object: Value,
    patch: &Value,
    patch_type: PatchType,
    schemas: &Schemas,
    copies: &mut CopyBudget,
) -> Result<Value, String> {
    if !object.is_object() {
        return Err(format!("expected an object, found {}", kind_of(&object)));
    }
    let patched = apply_patch(object, patch, patch_type, schemas, copies)?;
    // kubectl decodes the result as an API object, which needs a kind (a top-level
    // `$patch: delete` leaves `{}`).
    if patched
        .get("kind")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        return Err("the patched object has no `kind`".to_owned());
    }
    Ok(patched)
}

fn apply_patch(
    object: Value,
    patch: &Value,
    patch_type: PatchType,
    schemas: &Schemas,
    copies: &mut CopyBudget,
) -> Result<Value, String> {
    match patch_type {
        PatchType::Strategic => {
            let typing = match &schemas.given {
                Some(schema) => Typing::Given(schema),
                None => strategic_kind(&object, schemas)?,
            };
            smp_core::apply_owned(object, patch, typing.node(schemas)).map_err(|e| e.to_string())
        }
        PatchType::Merge => {
            let mut object = object;
            json_patch::merge(&mut object, patch);
            Ok(object)
        }
        PatchType::Json => {
            let ops: json_patch::Patch =
                serde_json::from_value(patch.clone()).map_err(|e| format!("json patch: {e}"))?;
            let mut object = object;
            // One operation at a time, so that each copy is charged before it is made. (A
            // failed patch leaves `object` half patched; it is dropped with the error.)
            for (i, op) in ops.iter().enumerate() {
                if let json_patch::PatchOperation::Copy(copy) = op
                    && let Some(from) = object.pointer(copy.from.as_str())
                {
                    copies.charge(from).map_err(|limit| {
                        format!(
                            "json patch: operation '/{i}' (copy from '{}'): the copies of \
                                 the patch would exceed {limit} units (one per value plus one \
                                 per byte of its strings and keys; the limit is the size of the \
                                 file and the patch plus {COPY_ALLOWANCE})",
                            copy.from
                        )
                    })?;
                }
                json_patch::patch_unsafe(&mut object, std::slice::from_ref(op)).map_err(|e| {
                    format!(
                        "json patch: operation '/{i}' failed at path '{}': {}",
                        e.path, e.kind
                    )
                })?;
            }
            Ok(object)
        }
    }
}

/// What the `copy` operations of JSON patches may copy in this run, and have copied.
struct CopyBudget {
    total: u64,
    used: u64,
}

impl CopyBudget {
    /// A budget for patches that copy nothing (strategic, merge).
    fn unused() -> CopyBudget {
        CopyBudget { total: 0, used: 0 }
    }

    /// Counts what copying `value` costs; `Err` with the total when it does not fit (nothing
    /// is counted then).
    fn charge(&mut self, value: &Value) -> Result<(), u64> {
        let left = self.total.saturating_sub(self.used);
        let cost = weight_up_to(value, left);
        if cost > left {
            return Err(self.total);
        }
        self.used += cost;
        Ok(())
    }
}

fn units(bytes: usize) -> u64 {
    u64::try_from(bytes).unwrap_or(u64::MAX)
}

/// One unit per value in `value` plus one per byte of its strings and keys, counted no further
/// than just past `limit` (so that a big value costs no more time than the budget allows).
fn weight_up_to(value: &Value, limit: u64) -> u64 {
    let mut total: u64 = 0;
    let mut pending = vec![value];
    while let Some(v) = pending.pop() {
        total = total.saturating_add(1);
        match v {
            Value::String(s) => total = total.saturating_add(units(s.len())),
            Value::Array(items) => pending.extend(items),
            Value::Object(map) => {
                for (key, v) in map {
                    total = total.saturating_add(units(key.len()));
                    pending.push(v);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
        if total > limit {
            break;
        }
    }
    total
}

/// The built-in type (or `--crd` schema) of a document for a strategic patch, or kubectl's
/// refusal.
fn strategic_kind<'s>(object: &Value, schemas: &'s Schemas) -> Result<Typing<'s>, String> {
    let Some(meta) = TypeMeta::of(object) else {
        return Err(
            "no apiVersion and kind to choose a schema by (give --schema, or use --type merge)"
                .to_owned(),
        );
    };
    match meta.typing(schemas) {
        Typing::Untyped => Err(format!(
            "strategic merge patch is not supported for {meta} locally, try --type merge \
             (or give its CustomResourceDefinition with --crd, or its schema with --schema)"
        )),
        typing => Ok(typing),
    }
}

/// What kubectl's printer does unless `--show-managed-fields`: server-side apply's bookkeeping
/// is left out of printed objects.
fn shown(object: &mut Value, show_managed_fields: bool) {
    if show_managed_fields {
        return;
    }
    if let Some(Value::Object(metadata)) = object.get_mut("metadata") {
        metadata.remove("managedFields");
    }
}
