//! What the tests that run upstream cases as data share.

use std::collections::BTreeMap;
use std::path::Path;

/// The listed gaps of a gaps file (`tests/data/<path>`): each case's line, to the reason of
/// the `# reason: ` line above it. A missing file lists none.
pub fn gaps(relative: &str) -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(relative);
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut gaps = BTreeMap::new();
    let mut reason = String::new();
    for line in text.lines() {
        if let Some(r) = line.strip_prefix("# reason: ") {
            reason = r.to_owned();
        } else if !line.trim().is_empty() && !line.starts_with('#') {
            gaps.insert(line.to_owned(), reason.clone());
        }
    }
    gaps
}
