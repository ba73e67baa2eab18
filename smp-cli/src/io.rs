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

    fn read_text(self, role: DocRole) -> Result<String, CliError> {
        let text = match self {
            Source::Stdin => {
                let mut text = String::new();
                std::io::stdin().read_to_string(&mut text).map(|_| text)
            }
            Source::File(path) => std::fs::read_to_string(path),
        };
        text.map_err(|e| CliError::new(format_args!("cannot read {role} {self}"), e))
    }
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

/// Reads and parses one JSON or YAML document.
pub fn read_document(path: &Path, role: DocRole) -> Result<Value, CliError> {
    let source = Source::new(path);
    let text = source.read_text(role)?;
    smp_core::input::parse_document(&text, role)
        .map_err(|e| CliError::new(format_args!("{role} {source}"), e))
}

/// Reads every document of a JSON or multi-document YAML file (empty documents are `null`).
pub fn read_documents(path: &Path, role: DocRole) -> Result<Vec<Value>, CliError> {
    let source = Source::new(path);
    let text = source.read_text(role)?;
    smp_core::input::parse_documents(&text, role)
        .map_err(|e| CliError::new(format_args!("{role} {source}"), e))
}

/// Reads a document that must be an object; an empty document or `null` counts as `{}`.
pub fn read_object(path: &Path, role: DocRole) -> Result<Value, CliError> {
    match read_document(path, role)? {
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

/// The `--schema` option.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// OpenAPI v2 or v3 document (JSON or YAML) and the definition of the document's type,
    /// e.g. `pod-schema.json#io.k8s.api.core.v1.Pod`.
    ///
    /// Without --schema a document's `apiVersion`/`kind` picks a built-in type: every kind of
    /// the Kubernetes v1.34 API. Other documents (custom resources) are handled untyped:
    /// objects merge, lists are replaced whole, and `$patch` and the other directives still
    /// apply.
    #[arg(long, value_name = "FILE#DEFINITION", value_parser = SchemaSpec::parse)]
    pub schema: Option<SchemaSpec>,
}

impl SchemaArgs {
    /// The schema file, if it is one of the inputs.
    pub fn path(&self) -> Option<&Path> {
        self.schema.as_ref().map(|s| s.file.as_path())
    }

    /// Loads the named definition; `None` when `--schema` is absent (the documents' kinds
    /// decide then, see `kinds`).
    pub fn load_given(&self) -> Result<Option<Schema>, CliError> {
        let Some(spec) = &self.schema else {
            return Ok(None);
        };
        let doc = read_document(&spec.file, DocRole::Schema)?;
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

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Pretty-printed JSON, 2-space indent.
    Json,
    /// YAML.
    Yaml,
}

/// The `-o/--output` option.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = Format::Json)]
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
    fn single_stdin() {
        let p = |s: &'static str| Path::new(s);
        assert!(check_single_stdin([p("-"), p("a")]).is_ok());
        assert!(check_single_stdin([p("-"), p("-")]).is_err());
    }
}
