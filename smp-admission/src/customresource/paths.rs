//! Field paths as the walks of this module build them, in Go's `field.Path` spelling: members
//! joined by `.`, no leading dot at the root (`""`).

/// `path` with the member `name` (`spec` + `replicas` is `spec.replicas`).
pub(crate) fn child(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}
