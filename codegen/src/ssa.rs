//! smp-ssa's built-in schema: the structured types of the official OpenAPI v3 documents, in
//! smp-ssa's compact form.

use std::path::Path;

/// The compact schema of every `*.json` document of `dir` (read in name order).
pub fn compact_schema(dir: &Path) -> Result<String, String> {
    let docs = crate::documents::json_documents(dir)?;
    let schema = smp_ssa::schema::from_openapi_v3(&docs).map_err(|e| e.to_string())?;
    Ok(smp_ssa::schema::to_compact_json(&schema))
}
