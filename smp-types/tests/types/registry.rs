//! The registry: `lookup`, `definition`, `KINDS` and `DEFINITIONS`.

use smp_types::{DEFINITIONS, KINDS, definition, lookup};

#[test]
#[cfg(all(feature = "apps", feature = "batch"))]
fn lookup_is_exact() {
    let d = lookup("apps/v1", "Deployment").expect("known");
    assert_eq!(d.type_name(), "smp_types::api::apps::v1::Deployment");
    assert_eq!(d.definition().name(), "io.k8s.api.apps.v1.Deployment");
    assert_eq!(d.schema().def().name(), "Deployment");
    assert!(lookup("v1", "Deployment").is_none());
    assert!(lookup("v1", "pod").is_none());
    assert!(lookup("example.com/v1", "Widget").is_none());
    assert!(lookup("apps/v1", "StatefulSet").is_some());
    assert!(lookup("batch/v1", "CronJob").is_some());
    assert!(lookup("apps/v1", "DeleteOptions").is_some());
}

#[test]
fn tables_are_sorted_for_binary_search() {
    assert!(
        KINDS
            .windows(2)
            .all(|w| (w[0].api_version(), w[0].kind()) < (w[1].api_version(), w[1].kind()))
    );
    assert!(DEFINITIONS.windows(2).all(|w| w[0].name() < w[1].name()));
    for k in KINDS {
        assert!(std::ptr::eq(lookup(k.api_version(), k.kind()).unwrap(), k));
    }
    for d in DEFINITIONS {
        assert!(std::ptr::eq(definition(d.name()).unwrap(), d));
    }
    // Every group's feature on (the workspace's tests turn them all on).
    if cfg!(feature = "all-groups") {
        assert_eq!(DEFINITIONS.len(), 730);
        assert_eq!(KINDS.len(), 305);
    }
}
