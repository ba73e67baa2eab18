//! Facts from k8s.io/apimachinery v0.32.13, `pkg/util/managedfields/internal/conflict_test.go`,
//! checked against our `ApplyConflict`: how an apply's conflicts are reported, each cause
//! (`conflict with <manager>` and the field) and the message, with each manager named by its
//! name, its subresource, and for an update the version it wrote and, when the identifier
//! carries one, the time it wrote at; with several conflicts the message lists them by manager,
//! managers in the order of their identifiers.

use smp_ssa::fieldpath::{Path, PathElement};
use smp_ssa::managedfields::ApplyConflict;
use smp_ssa::merge::Conflict;

fn conflict(manager: &str, path: &[&str]) -> Conflict {
    Conflict {
        manager: manager.to_owned(),
        path: Path::new(path.iter().map(|f| PathElement::field(*f))),
    }
}

fn causes(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(m, f)| ((*m).to_owned(), (*f).to_owned()))
        .collect()
}

#[test]
fn new_conflict_error_one_update_manager_with_time() {
    let err = ApplyConflict {
        conflicts: vec![conflict(
            r#"{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}"#,
            &["spec", "replicas"],
        )],
    };
    assert_eq!(
        err.causes(),
        causes(&[(
            r#"conflict with "foo" using v1 at 2001-02-03T04:05:06Z"#,
            ".spec.replicas"
        )])
    );
    assert_eq!(
        err.to_string(),
        r#"Apply failed with 1 conflict: conflict with "foo" using v1 at 2001-02-03T04:05:06Z: .spec.replicas"#
    );
}

#[test]
fn new_conflict_error_two_managers() {
    let err = ApplyConflict {
        conflicts: vec![
            conflict(
                r#"{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}"#,
                &["spec", "replicas"],
            ),
            conflict(
                r#"{"manager":"bar","operation":"Apply"}"#,
                &["metadata", "labels", "app"],
            ),
        ],
    };
    assert_eq!(
        err.causes(),
        causes(&[
            (
                r#"conflict with "foo" using v1 at 2001-02-03T04:05:06Z"#,
                ".spec.replicas"
            ),
            (r#"conflict with "bar""#, ".metadata.labels.app"),
        ])
    );
    assert_eq!(
        err.to_string(),
        "Apply failed with 2 conflicts: conflicts with \"bar\":\n\
         - .metadata.labels.app\n\
         conflicts with \"foo\" using v1 at 2001-02-03T04:05:06Z:\n\
         - .spec.replicas"
    );
}

#[test]
fn new_conflict_error_subresource_update_manager_with_time() {
    let err = ApplyConflict {
        conflicts: vec![conflict(
            r#"{"manager":"foo","operation":"Update","subresource":"scale","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}"#,
            &["spec", "replicas"],
        )],
    };
    assert_eq!(
        err.causes(),
        causes(&[(
            r#"conflict with "foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z"#,
            ".spec.replicas"
        )])
    );
    assert_eq!(
        err.to_string(),
        r#"Apply failed with 1 conflict: conflict with "foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z: .spec.replicas"#
    );
}
