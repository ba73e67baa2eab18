//! Reading documents and schemas and writing results, shared by the subcommands.

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::{Map, Value};
use smp_core::error::kind_of;
use smp_core::{DocRole, PatchError, Schema};

use crate::error::CliError;

/// Where a document comes from: a file, or standard input when the path is `-`.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// Standard input.
    Stdin,
    /// A file.
    File(&'a Path),
}

impl<'a> Source<'a> {
    /// `-` means standard input; anything else is a file path.
    pub fn new(path: &'a Path) -> Source<'a> {
        if path.as_os_str() == "-" {
            Source::Stdin
        } else {
            Source::File(path)
        }
    }

    /// Reads the whole input, but never more than `limit` bytes: a stream that goes on (a pipe,
    /// `/dev/zero`) is read up to `limit + 1` bytes and reported, a regular file larger than
    /// `limit` is reported before anything is read.
    pub fn read_text(self, role: DocRole, limit: u64) -> Result<String, CliError> {
        let fail = |cause: &dyn fmt::Display| {
            CliError::new(format_args!("cannot read {role} {self}"), cause)
        };
        let mut bytes = Vec::new();
        let read = match self {
            Source::Stdin => read_at_most(std::io::stdin().lock(), limit, &mut bytes),
            Source::File(path) => std::fs::File::open(path).and_then(|file| {
                let metadata = file.metadata()?;
                if metadata.is_file() {
                    if metadata.len() > limit {
                        return Ok(false);
                    }
                    // The size is known: one allocation (the file may still grow meanwhile).
                    let size = usize::try_from(metadata.len()).unwrap_or(0);
                    bytes.reserve_exact(size.saturating_add(1));
                }
                read_at_most(file, limit, &mut bytes)
            }),
        };
        match read {
            Err(e) => Err(fail(&e)),
            Ok(false) => Err(fail(&too_large(limit))),
            Ok(true) => String::from_utf8(bytes).map_err(|e| {
                let at = e.utf8_error().valid_up_to();
                fail(&format_args!("not valid UTF-8 (at byte {at})"))
            }),
        }
    }
}

/// Reads `reader` to its end into `bytes`, unless it holds more than `limit` bytes: then it
/// stops after `limit + 1` bytes and returns `false`.
fn read_at_most(reader: impl Read, limit: u64, bytes: &mut Vec<u8>) -> std::io::Result<bool> {
    reader.take(limit.saturating_add(1)).read_to_end(bytes)?;
    Ok(u64::try_from(bytes.len()).is_ok_and(|n| n <= limit))
}

/// The message for an input over the limit.
fn too_large(limit: u64) -> String {
    format!(
        "larger than the input size limit of {} (--max-input-size)",
        human_size(limit)
    )
}

impl fmt::Display for Source<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Stdin => f.write_str("<stdin>"),
            Source::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Fails (as a usage error) when more than one of `paths` is `-`: stdin can be read only once.
pub fn check_single_stdin<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Result<(), String> {
    let stdin_count = paths
        .into_iter()
        .filter(|p| matches!(Source::new(p), Source::Stdin))
        .count();
    if stdin_count > 1 {
        return Err("at most one input may be `-` (standard input)".to_owned());
    }
    Ok(())
}

/// The `--max-input-size` option, shared by every subcommand (it applies to each input: every
/// file, standard input, an inline `-p` patch and the `--schema` document).
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Largest input accepted: bytes, or K, M, G (KiB, MiB, GiB).
    ///
    /// Each input (every file, standard input, an inline -p patch, the --schema document) may be
    /// at most this large; a larger one, or an endless stream such as /dev/zero, is an error
    /// naming it. Reading stops one byte past the limit, so memory stays bounded.
    #[arg(
        long = "max-input-size",
        value_name = "SIZE",
        default_value = "64MiB",
        value_parser = parse_size
    )]
    pub max_input_size: u64,
}

impl InputArgs {
    /// Reads one input's text (see [`Source::read_text`]).
    pub fn read_text(&self, path: &Path, role: DocRole) -> Result<String, CliError> {
        Source::new(path).read_text(role, self.max_input_size)
    }

    /// Checks an input given on the command line (`-p`) against the limit.
    pub fn check_inline(&self, text: &str, what: &str) -> Result<(), CliError> {
        if u64::try_from(text.len()).is_ok_and(|n| n <= self.max_input_size) {
            return Ok(());
        }
        Err(CliError::new(what, too_large(self.max_input_size)))
    }

    /// Reads and parses one JSON or YAML document.
    pub fn read_document(&self, path: &Path, role: DocRole) -> Result<Value, CliError> {
        let text = self.read_text(path, role)?;
        smp_core::input::parse_document(&text, role)
            .map_err(|e| CliError::new(format_args!("{role} {}", Source::new(path)), e))
    }

    /// Reads a document that must be an object; an empty document or `null` counts as `{}`.
    pub fn read_object(&self, path: &Path, role: DocRole) -> Result<Value, CliError> {
        match self.read_document(path, role)? {
            Value::Null => Ok(Value::Object(Map::new())),
            object @ Value::Object(_) => Ok(object),
            other => Err(CliError::new(
                format_args!("{role} {}", Source::new(path)),
                PatchError::InvalidDocument {
                    role,
                    detail: format!("expected an object, found {}", kind_of(&other)),
                },
            )),
        }
    }
}

/// Parses `--max-input-size`: a number of bytes, optionally followed by `K`, `M` or `G` (also
/// written `Ki`, `KiB`, `KB`, ...; any case), which multiply by 1024, 1024² and 1024³.
fn parse_size(text: &str) -> Result<u64, String> {
    let digits_end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(digits_end);
    let shift = match unit.trim_start().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "ki" | "kb" | "kib" => 10,
        "m" | "mi" | "mb" | "mib" => 20,
        "g" | "gi" | "gb" | "gib" => 30,
        _ => return Err(format!("unknown unit `{unit}` (use K, M or G)")),
    };
    let number: u64 = digits
        .parse()
        .map_err(|_| format!("expected a size such as 64MiB or 1000000, got `{text}`"))?;
    if number == 0 {
        return Err("the size must be at least 1 byte".to_owned());
    }
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is too large"))
}

/// `67108864` as `64 MiB`, for messages.
fn human_size(bytes: u64) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

/// `FILE#DEFINITION`: an OpenAPI document and the name of a definition in it.
#[derive(Debug, Clone)]
pub struct SchemaSpec {
    /// The OpenAPI document (`-` for stdin).
    pub file: PathBuf,
    /// The definition (v2 `definitions`, v3 `components.schemas`) of the document's type.
    pub definition: String,
}

impl SchemaSpec {
    fn parse(text: &str) -> Result<SchemaSpec, String> {
        match text.rsplit_once('#') {
            Some((file, definition)) if !file.is_empty() && !definition.is_empty() => {
                Ok(SchemaSpec {
                    file: PathBuf::from(file),
                    definition: definition.to_owned(),
                })
            }
            _ => Err(format!(
                "expected FILE#DEFINITION, e.g. `pod-schema.json#io.k8s.api.core.v1.Pod`, got `{text}`"
            )),
        }
    }
}

/// The CRDs of `--crd` options (files, streams, Lists or directories); each path must hold
/// one with a served version.
fn crd_catalog(paths: &[PathBuf]) -> Result<smp_core::openapi::crd::CrdCatalog, CliError> {
    let mut crds = smp_core::openapi::crd::CrdCatalog::new();
    for path in paths {
        let added = crds
            .add_path(path)
            .map_err(|e| CliError::new("loading --crd", e))?;
        if added == 0 {
            return Err(CliError::new(
                format_args!("--crd {}", path.display()),
                "no CustomResourceDefinition with a served version found there",
            ));
        }
    }
    Ok(crds)
}

/// The CRDs of `--crd`, as admission reads them (`smp default`, `smp validate`).
pub(crate) fn custom_resource_definitions(
    paths: &[PathBuf],
) -> Result<smp_admission::customresource::Definitions, CliError> {
    let mut definitions = smp_admission::customresource::Definitions::new();
    for crd in crd_catalog(paths)?.documents() {
        definitions
            .add(crd)
            .map_err(|e| CliError::new("loading --crd", e))?;
    }
    Ok(definitions)
}

/// The `--schema` and `--crd` options.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// OpenAPI v2 or v3 document (JSON or YAML) and the definition of the document's type,
    /// e.g. `pod-schema.json#io.k8s.api.core.v1.Pod`.
    ///
    /// Without --schema a document's `apiVersion`/`kind` picks a built-in type: every kind of
    /// the Kubernetes v1.34 API, then the custom resources of --crd. Other documents are
    /// handled untyped: objects merge, lists are replaced whole, and `$patch` and the other
    /// directives still apply.
    #[arg(long, value_name = "FILE#DEFINITION", value_parser = SchemaSpec::parse)]
    pub schema: Option<SchemaSpec>,

    /// CustomResourceDefinitions (a file, several YAML documents, a `List`, or a directory of
    /// them): custom resources of their served versions are patched strategically, lists
    /// merged as their `x-kubernetes-list-type` markers say, and embedded resources typed by
    /// their own `apiVersion`/`kind` (built-in or of these CRDs). May be repeated.
    #[arg(long = "crd", value_name = "FILE_OR_DIR")]
    pub crd: Vec<PathBuf>,
}

/// The schemas a command may type its documents with.
#[derive(Debug, Default)]
pub struct Schemas {
    /// From `--schema`.
    pub given: Option<Schema>,
    /// From `--crd`.
    pub crds: smp_core::openapi::crd::CrdCatalog,
}

impl SchemaArgs {
    /// The schema file, if it is one of the inputs.
    pub fn path(&self) -> Option<&Path> {
        self.schema.as_ref().map(|s| s.file.as_path())
    }

    /// Loads `--schema` and `--crd`.
    pub fn load(&self, input: &InputArgs) -> Result<Schemas, CliError> {
        let given = self.load_given(input)?;
        let crds = crd_catalog(&self.crd)?;
        Ok(Schemas { given, crds })
    }

    /// Loads the named definition; `None` when `--schema` is absent (the documents' kinds
    /// decide then, see `kinds`).
    fn load_given(&self, input: &InputArgs) -> Result<Option<Schema>, CliError> {
        let Some(spec) = &self.schema else {
            return Ok(None);
        };
        let doc = input.read_document(&spec.file, DocRole::Schema)?;
        Schema::from_openapi(&doc, &spec.definition)
            .map(Some)
            .map_err(|e| {
                CliError::new(
                    format_args!("schema {}#{}", Source::new(&spec.file), spec.definition),
                    e,
                )
            })
    }
}

/// Output formats. How each is laid out depends on the command: `smp patch` prints as kubectl
/// does (JSON with a 4-space indent and Go's escapes), the others print JSON with a 2-space
/// indent; both print YAML in kubectl's layout. Each command's `-o` help says which.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// JSON.
    Json,
    /// YAML.
    Yaml,
}

/// Options of the commands that create patches (`diff`, `three-way`, `apply-config`).
#[derive(Debug, Args)]
pub struct CreateArgs {
    /// Whether lists with recommended (multi-field) merge keys are diffed by them, their items
    /// carrying `$patchMergeKey` (`emit`, for appliers that implement the proposal, such as
    /// `smp merge`), or by their merge key alone, as kubectl does (`omit`, the default: no API
    /// server implements the directive).
    #[arg(long = "patch-merge-key", value_enum, value_name = "WHEN", default_value_t = PatchMergeKeyArg::Omit)]
    pub patch_merge_key: PatchMergeKeyArg,
}

/// The values of `--patch-merge-key`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PatchMergeKeyArg {
    /// Merge keys alone, no directive: the patch kubectl creates.
    Omit,
    /// Recommended keys, with `$patchMergeKey`.
    Emit,
}

impl CreateArgs {
    /// The library's setting.
    pub fn patch_merge_key(&self) -> smp_core::PatchMergeKey {
        match self.patch_merge_key {
            PatchMergeKeyArg::Omit => smp_core::PatchMergeKey::Omit,
            PatchMergeKeyArg::Emit => smp_core::PatchMergeKey::Emit,
        }
    }

    /// Three-way options with this setting and `conflicts`.
    pub fn three_way(&self, conflicts: smp_core::Conflicts) -> smp_core::ThreeWayOptions {
        smp_core::ThreeWayOptions {
            patch_merge_key: self.patch_merge_key(),
            ..smp_core::ThreeWayOptions::with_conflicts(conflicts)
        }
    }
}

/// The `-o/--output` option.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output format: `json`, pretty-printed with a 2-space indent, or `yaml`.
    #[arg(short = 'o', long = "output", value_enum, value_name = "FORMAT", default_value_t = Format::Json, hide_possible_values = true)]
    pub format: Format,
}

impl OutputArgs {
    /// Prints `value` to stdout in the chosen format, ending with a newline.
    pub fn write(&self, value: &Value) -> Result<(), CliError> {
        let mut text = match self.format {
            Format::Json => serde_json::to_string_pretty(value)
                .map_err(|e| CliError::new("cannot format output", e))?,
            Format::Yaml => smp_core::yaml::to_yaml_string(value),
        };
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| CliError::new("cannot write output", e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_spec() {
        let s = SchemaSpec::parse("dir/a#b.json#io.k8s.Pod").expect("valid");
        assert_eq!(s.file, PathBuf::from("dir/a#b.json"));
        assert_eq!(s.definition, "io.k8s.Pod");
        for bad in ["pod.json", "pod.json#", "#Pod", ""] {
            assert!(SchemaSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes() {
        for (text, want) in [
            ("1", 1),
            ("1000000", 1_000_000),
            ("64MiB", 64 << 20),
            ("64M", 64 << 20),
            ("64 mb", 64 << 20),
            ("2k", 2048),
            ("1Gi", 1 << 30),
            ("3b", 3),
        ] {
            assert_eq!(parse_size(text), Ok(want), "{text}");
        }
        for bad in [
            "",
            "0",
            "M",
            "1T",
            "-1",
            "1.5M",
            "99999999999999999999",
            "17179869184G",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(human_size(64 << 20), "64 MiB");
        assert_eq!(human_size(3 << 30), "3 GiB");
        assert_eq!(human_size(1000), "1000 bytes");
        assert_eq!(human_size(1536), "1536 bytes");
    }

    #[test]
    fn reading_stops_after_the_limit() {
        let mut bytes = Vec::new();
        assert!(!read_at_most(std::io::repeat(0), 1000, &mut bytes).unwrap_or(true));
        assert_eq!(bytes.len(), 1001, "at most limit + 1 bytes are read");
        let mut bytes = Vec::new();
        assert!(read_at_most(&b"abc"[..], 3, &mut bytes).unwrap_or(false));
        assert_eq!(bytes, b"abc");
    }

    #[test]
    fn single_stdin() {
        let p = |s: &'static str| Path::new(s);
        assert!(check_single_stdin([p("-"), p("a")]).is_ok());
        assert!(check_single_stdin([p("-"), p("-")]).is_err());
    }
}
