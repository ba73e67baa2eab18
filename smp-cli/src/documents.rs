//! The documents a command reads and the objects it prints: every document of a file (a
//! multi-document YAML stream, JSON, or a `List`, whose items are taken one by one, as
//! kubectl takes them), where each object sits for messages, and the printer that writes
//! objects as they come.

use std::fmt;
use std::io::Write;

use serde_json::Value;

use crate::error::CliError;
use crate::io::{Format, Source};

/// Where an object sits in FILE, for messages: `deploy.yaml document 2`, `... item 3`.
pub(crate) struct Place<'a> {
    pub(crate) source: Source<'a>,
    pub(crate) document: usize,
    pub(crate) item: Option<usize>,
}

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} document {}", self.source, self.document)?;
        if let Some(item) = self.item {
            write!(f, " item {item}")?;
        }
        Ok(())
    }
}

/// One line per failed object; the last is returned so `main` prints it and exits 1.
pub(crate) fn report(mut errors: Vec<CliError>) -> Result<(), CliError> {
    let last = errors.pop();
    for e in errors {
        eprintln!("error: {e}");
    }
    last.map_or(Ok(()), Err)
}

/// The objects of one document: itself, or the items of a List. Empty documents give none.
pub(crate) fn objects(doc: Value) -> Vec<(Option<usize>, Value)> {
    let is_list = doc.get("kind").and_then(Value::as_str) == Some("List")
        && doc.get("items").is_some_and(Value::is_array);
    match doc {
        Value::Null => Vec::new(),
        Value::Object(mut map) if is_list => match map.remove("items") {
            Some(Value::Array(items)) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| (Some(i + 1), item))
                .collect(),
            _ => Vec::new(),
        },
        other => vec![(None, other)],
    }
}

/// Prints objects to stdout as they come, in kubectl's layout.
pub(crate) struct Printer {
    pub(crate) format: Format,
    pub(crate) printed: usize,
}

impl Printer {
    pub(crate) fn print(&mut self, object: &Value) -> Result<(), CliError> {
        let mut text = String::new();
        match self.format {
            Format::Json => text.push_str(&smp_core::gojson::to_string_pretty(object)),
            Format::Yaml => {
                if self.printed > 0 {
                    text.push_str("---\n");
                }
                text.push_str(&smp_core::yaml::to_yaml_string(object));
                if !text.ends_with('\n') {
                    text.push('\n');
                }
            }
        }
        self.printed += 1;
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| CliError::new("cannot write output", e))
    }
}
