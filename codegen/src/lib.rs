//! smp-codegen: generates the Rust source of `smp-types` from the Kubernetes OpenAPI document.
//!
//! The pipeline, one module per step:
//!
//! 1. [`overlay`]: read `overlay.toml`, the one reviewed file of facts the document lacks, and
//!    write each entry into the document as the OpenAPI extension it stands for;
//! 2. [`model`]: read every definition of the (overlaid) document into a model of Rust items:
//!    structs with typed fields and their patch metadata, opaque values, hand-written types;
//! 3. [`emit`]: write one module per group/version, the module tree above them, and the
//!    registry of definitions and kinds;
//! 4. [`format`](mod@format): format the files with `rustfmt`, so that the output is what `cargo fmt` keeps.
//!
//! The output is deterministic: the same inputs give the same bytes. `smp-codegen` (the binary)
//! writes it into `smp-types/src`; `smp-codegen --check` and the `up_to_date` test compare
//! instead.

#![warn(missing_docs)]

pub mod counterparts;
mod documents;
pub mod emit;
pub mod error;
pub mod features;
pub mod format;
pub mod model;
pub mod names;
pub mod overlay;

mod docs;
pub mod openapi;
pub mod resources;
pub mod ssa;

pub use documents::json_documents;
pub use error::Error;
pub use names::GENERATED_ROOTS;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// The environment variable naming the OpenAPI document to generate from, when no `--spec` is
/// given.
pub const SPEC_VAR: &str = "SMP_CODEGEN_SPEC";

/// The document, relative to the shared data directory ([`smp_testdata::dir`]).
pub const SHARED_SPEC: &str = "openapi/swagger.json";

/// Where the inputs and the output live.
pub struct Paths {
    /// The OpenAPI v2 document: another project's file, so not in this repository. By default
    /// `../shared/openapi/swagger.json` beside the checkout, or [`SPEC_VAR`]; a cluster's own
    /// (`kubectl get --raw /openapi/v2`) works as well.
    pub spec: PathBuf,
    /// The overlay.
    pub overlay: PathBuf,
    /// Which k8s-openapi versions declare each definition (`k8s-openapi.txt`).
    pub k8s_openapi: PathBuf,
    /// `smp-types/src`.
    pub out: PathBuf,
}

impl Paths {
    /// The committed inputs and output of this repository, with the document at `spec`.
    pub fn with_spec(spec: PathBuf) -> Paths {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let workspace = here.parent().unwrap_or(here);
        Paths {
            spec,
            overlay: here.join("overlay.toml"),
            k8s_openapi: here.join("k8s-openapi.txt"),
            out: workspace.join("smp-types/src"),
        }
    }
}

impl Default for Paths {
    /// The document named by [`SPEC_VAR`], else the shared copy ([`SHARED_SPEC`]).
    fn default() -> Paths {
        let spec = std::env::var_os(SPEC_VAR)
            .filter(|s| !s.is_empty())
            .map_or_else(|| smp_testdata::dir().join(SHARED_SPEC), PathBuf::from);
        Paths::with_spec(spec)
    }
}

/// The generated files outside the module trees: the registry and the k8s-openapi
/// counterparts.
pub const GENERATED_FILES: &[&str] = &[emit::REGISTRY_FILE, counterparts::FILE];

/// The generated source: file path (relative to `smp-types/src`) to its formatted text.
pub struct Output {
    /// Path (relative to `smp-types/src`) to formatted text.
    pub files: BTreeMap<PathBuf, String>,
}

/// Reads the document, applies the overlay, and returns the OpenAPI document as smp-types sees
/// it. The metadata test uses this too.
pub fn overlaid_document(paths: &Paths) -> Result<Value, Error> {
    let mut doc = read_json(&paths.spec)?;
    let overlay = overlay::Overlay::read(&paths.overlay)?;
    overlay.apply(&mut doc)?;
    Ok(doc)
}

/// Generates every file.
pub fn generate(paths: &Paths) -> Result<Output, Error> {
    let doc = read_json(&paths.spec)?;
    let overlay = overlay::Overlay::read(&paths.overlay)?;
    let mut overlaid = doc.clone();
    overlay.apply(&mut overlaid)?;
    let api = model::Api::read(&overlaid, &overlay)?;
    let mut files = emit::files(&api)?;
    let data = counterparts::Counterparts::read(&paths.k8s_openapi)?;
    files.insert(
        PathBuf::from(counterparts::FILE),
        counterparts::emit(&api, &data, emit::GENERATED)?,
    );
    let files = format::rustfmt(files)?;
    Ok(Output { files })
}

fn read_json(path: &Path) -> Result<Value, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::new(format!(
            "reading the OpenAPI document {}: {e} (give another with --spec or {SPEC_VAR})",
            path.display()
        ))
    })?;
    serde_json::from_str(&text).map_err(|e| Error::new(format!("parsing {}: {e}", path.display())))
}

impl Output {
    /// Replaces the generated part of `out` (the [`GENERATED_ROOTS`] trees and
    /// [`GENERATED_FILES`]) with this output.
    pub fn write(&self, out: &Path) -> Result<(), Error> {
        for root in GENERATED_ROOTS {
            let dir = out.join(root);
            if dir.exists() {
                std::fs::remove_dir_all(&dir)
                    .map_err(|e| Error::new(format!("removing {}: {e}", dir.display())))?;
            }
        }
        for (path, text) in &self.files {
            let full = out.join(path);
            if let Some(parent) = full.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| Error::new(format!("creating {}: {e}", parent.display())))?;
            }
            std::fs::write(&full, text)
                .map_err(|e| Error::new(format!("writing {}: {e}", full.display())))?;
        }
        Ok(())
    }

    /// The differences between this output and the generated part of `out`: files that differ,
    /// are missing, or are there but not generated. Empty when `out` is up to date.
    pub fn differences(&self, out: &Path) -> Result<Vec<String>, Error> {
        let mut found = BTreeMap::new();
        for root in GENERATED_ROOTS {
            collect_files(out, Path::new(root), &mut found)?;
        }
        for file in GENERATED_FILES {
            let path = out.join(file);
            if path.exists() {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| Error::new(format!("reading {}: {e}", path.display())))?;
                found.insert(PathBuf::from(file), text);
            }
        }
        let mut out_of_date = Vec::new();
        for (path, text) in &self.files {
            match found.get(path) {
                None => out_of_date.push(format!("missing: {}", path.display())),
                Some(existing) if existing != text => {
                    out_of_date.push(format!("differs: {}", path.display()));
                }
                Some(_) => {}
            }
        }
        for path in found.keys() {
            if !self.files.contains_key(path) {
                out_of_date.push(format!("not generated: {}", path.display()));
            }
        }
        Ok(out_of_date)
    }
}

/// Every file under `base/rel`, keyed by its path relative to `base`.
fn collect_files(
    base: &Path,
    rel: &Path,
    found: &mut BTreeMap<PathBuf, String>,
) -> Result<(), Error> {
    let dir = base.join(rel);
    if !dir.exists() {
        return Ok(());
    }
    let entries = std::fs::read_dir(&dir)
        .map_err(|e| Error::new(format!("listing {}: {e}", dir.display())))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::new(format!("listing {}: {e}", dir.display())))?;
        let rel = rel.join(entry.file_name());
        let path = base.join(&rel);
        if path.is_dir() {
            collect_files(base, &rel, found)?;
        } else {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| Error::new(format!("reading {}: {e}", path.display())))?;
            found.insert(rel, text);
        }
    }
    Ok(())
}
