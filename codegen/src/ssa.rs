//! smp-ssa's built-in schema: the structured types of the official OpenAPI v3 documents, in
//! smp-ssa's compact form.

use std::path::Path;

/// The compact schema of every `*.json` document of `dir` (read in name order).
pub fn compact_schema(dir: &Path) -> Result<String, String> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut docs = Vec::with_capacity(paths.len());
    for path in &paths {
        let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        docs.push(
            serde_json::from_slice::<serde_json::Value>(&text)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        );
    }
    let schema = smp_ssa::schema::from_openapi_v3(&docs).map_err(|e| e.to_string())?;
    Ok(smp_ssa::schema::to_compact_json(&schema))
}
