//! The file path rules volumes use (`validatePathNoBacksteps`, `validateLocalDescendingPath`,
//! `ValidateLocalNonReservedPath`): where a projected file or a host directory may point.

use crate::validation::field::{self, ErrorList, Path};

/// Whether a path has a `..` element (`validatePathNoBacksteps`).
pub(crate) fn has_backsteps(target: &str) -> bool {
    target.split('/').any(|part| part == "..")
}

/// No element of the path (split on `/`) is `..`; one error however many there are.
pub(crate) fn no_backsteps(target: &str, path: &Path, errs: &mut ErrorList) {
    if has_backsteps(target) {
        errs.push(field::invalid(path, target, "must not contain '..'"));
    }
}

/// A relative path that stays below its base.
pub(crate) fn local_descending(target: &str, path: &Path, errs: &mut ErrorList) {
    if target.starts_with('/') {
        errs.push(field::invalid(path, target, "must be a relative path"));
    }
    no_backsteps(target, path, errs);
}

/// A relative path below its base whose first element does not start with `..` either (the
/// kubelet keeps its own `..data` links there).
pub(crate) fn local_non_reserved(target: &str, path: &Path, errs: &mut ErrorList) {
    local_descending(target, path, errs);
    if target.starts_with("..") && !target.starts_with("../") {
        errs.push(field::invalid(path, target, "must not start with '..'"));
    }
}

/// Whether `target` passes [`local_non_reserved`].
pub(crate) fn is_local_non_reserved(target: &str) -> bool {
    let mut errs = ErrorList::new();
    local_non_reserved(target, &Path::new(""), &mut errs);
    errs.is_empty()
}

/// The messages of a file mode out of `0..=0o777`.
pub(crate) const FILE_MODE: &str = "must be a number between 0 and 0777 (octal), both inclusive";

/// A `defaultMode`/`mode` member, when set, within `0..=0o777`.
pub(crate) fn file_mode(
    source: &serde_json::Value,
    member: &str,
    path: &Path,
    errs: &mut ErrorList,
) {
    if let Some(mode) = source.get(member).and_then(serde_json::Value::as_i64)
        && !(0..=0o777).contains(&mode)
    {
        errs.push(field::invalid(&path.child(member), mode, FILE_MODE));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn details(target: &str) -> Vec<String> {
        let mut errs = ErrorList::new();
        local_non_reserved(target, &Path::new("p"), &mut errs);
        errs.into_iter().map(|e| e.detail).collect()
    }

    #[test]
    fn dot_dot_rules_follow_upstream() {
        assert!(details("a/b").is_empty());
        assert!(details("..foo/bar").len() == 1);
        assert_eq!(
            details(".."),
            ["must not contain '..'", "must not start with '..'"]
        );
        assert_eq!(details("../x"), ["must not contain '..'"]);
        assert_eq!(details("/abs"), ["must be a relative path"]);
        assert!(details("a/..b").is_empty());
    }
}
