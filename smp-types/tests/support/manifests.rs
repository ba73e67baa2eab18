//! The shipped manifests: `examples/*.yaml` but patches, and `examples/manifests/*.yaml`.

use std::path::{Path, PathBuf};

use serde_json::Value;
use smp_core::DocRole;

/// `examples/` of the repository.
pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

/// A manifest, parsed as `smp` parses it.
pub fn read_path(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("example");
    smp_core::parse_document(&text, DocRole::Original).expect("parses")
}

/// Every manifest with its file name, in name order per directory.
pub fn all() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for dir in [examples(), examples().join("manifests")] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("examples directory")
            .map(|e| e.expect("entry").path())
            .collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".yaml") && !name.contains("patch") {
                out.push((name.to_owned(), read_path(&path)));
            }
        }
    }
    out
}
