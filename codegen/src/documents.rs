//! Reading the OpenAPI documents of a folder.

use std::path::Path;

use serde_json::Value;

/// Every `*.json` document of `dir` (the OpenAPI v3 documents, one per group-version), read
/// in name order.
pub fn json_documents(dir: &Path) -> Result<Vec<Value>, String> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", path.display()))
        })
        .collect()
}
