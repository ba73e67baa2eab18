//! Properties of custom resource admission, on the real CRDs of the shared data (Gateway API,
//! cert-manager, Argo CD) and their instances: decoding (pruning) and defaulting are
//! idempotent; an admitted valid object is still valid when admitted again; an update that
//! changes nothing is never refused (its transition rules hold and ratcheting keeps what was
//! there); and generated objects of any shape are admitted and validated without a panic.
//! Needs the shared data; says so and checks nothing without it.

use proptest::prelude::*;
use serde_json::{Value, json};
use smp_admission::customresource::Definitions;

fn documents(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("readable");
    smp_core::input::parse_documents(&text, smp_core::DocRole::Original).expect("YAML")
}

/// Each project's CRDs, and its instances as written (status dropped).
fn projects() -> Option<Vec<(Definitions, Vec<Value>)>> {
    let root = smp_testdata::file("crds")?;
    let mut out = Vec::new();
    for project in ["gateway-api", "cert-manager", "argo-cd"] {
        let mut definitions = Definitions::new();
        let mut crds: Vec<_> = std::fs::read_dir(root.join(project).join("crds"))
            .expect("crds")
            .map(|e| e.expect("entry").path())
            .collect();
        crds.sort();
        for crd in crds {
            for doc in documents(&crd) {
                definitions.add(&doc).expect("a CRD smp reads");
            }
        }
        let mut instances = Vec::new();
        for entry in std::fs::read_dir(root.join(project).join("instances")).expect("instances") {
            for mut doc in documents(&entry.expect("entry").path()) {
                if let Some(o) = doc.as_object_mut() {
                    o.remove("status");
                }
                instances.push(doc);
            }
        }
        out.push((definitions, instances));
    }
    Some(out)
}

#[test]
fn admission_is_idempotent_and_unchanged_updates_pass() {
    let Some(projects) = projects() else {
        return;
    };
    for (definitions, instances) in &projects {
        for instance in instances {
            let definition = definitions.definition_of(instance).expect("its CRD");
            let mut once = instance.clone();
            definitions.admit(&mut once).unwrap();
            let mut twice = once.clone();
            let unknown = definitions.admit(&mut twice).unwrap();
            assert!(unknown.is_empty(), "nothing left to prune the second time");
            assert_eq!(once, twice, "admission is idempotent");
            assert_eq!(definition.errors_on_create(&once).unwrap(), vec![]);
            let mut stored = once.clone();
            stored["metadata"]["resourceVersion"] = json!("1");
            assert_eq!(
                definition.errors_on_update(&stored, &stored).unwrap(),
                vec![],
                "an update that changes nothing passes"
            );
        }
    }
}

/// JSON of any shape, with the member names these CRDs use most.
fn anything() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "[a-zA-Z0-9./-]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                "spec|rules|parentRefs|backendRefs|matches|filters|name|kind|group|port|\
                 hostnames|listeners|issuerRef|secretName|source|destination|[a-z]{1,5}",
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

thread_local! {
    /// Read and compiled once for all generated cases (they run on one thread).
    static PROJECTS: Option<Vec<(Definitions, Vec<Value>)>> = projects();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn any_object_is_admitted_and_validated_without_a_panic(spec in anything(), old_spec in anything()) {
        PROJECTS.with(|projects| check(projects.as_deref(), &spec, &old_spec))?;
    }
}

fn check(
    projects: Option<&[(Definitions, Vec<Value>)]>,
    spec: &Value,
    old_spec: &Value,
) -> Result<(), TestCaseError> {
    let Some(projects) = projects else {
        return Ok(());
    };
    for (definitions, instances) in projects {
        for instance in instances {
            let definition = definitions.definition_of(instance).expect("its CRD");
            let mut object = instance.clone();
            object["spec"] = spec.clone();
            definitions.admit(&mut object).unwrap();
            let mut again = object.clone();
            definitions.admit(&mut again).unwrap();
            prop_assert_eq!(&object, &again, "admission is idempotent");
            let _ = definition.errors_on_create(&object).unwrap();
            let mut old = instance.clone();
            old["spec"] = old_spec.clone();
            definitions.admit(&mut old).unwrap();
            let _ = definition.errors_on_update(&object, &old).unwrap();
        }
    }
    Ok(())
}
