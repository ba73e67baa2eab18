//! The real CRDs of the shared data (Gateway API, cert-manager, Argo CD) as the server admits
//! them on create: each is valid, and each, broken in the ways the server refuses, is refused
//! with the server's words. Needs the shared data; says so and checks nothing without it.

use serde_json::{Value, json};
use smp_admission::customresourcedefinition::{prepare_for_create, validate_create};

fn crds() -> Option<Vec<(String, Value)>> {
    let Some(root) = smp_testdata::file("crds") else {
        eprintln!("skipped: needs ../shared/crds");
        return None;
    };
    let mut out = Vec::new();
    for project in ["gateway-api", "cert-manager", "argo-cd"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(project).join("crds"))
            .expect("crds")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            for doc in
                smp_core::input::parse_documents(&text, smp_core::DocRole::Original).expect("YAML")
            {
                out.push((file.display().to_string(), doc));
            }
        }
    }
    Some(out)
}

/// The CRD as the server validates it on create: defaulted, then prepared.
fn admitted(crd: &Value) -> Value {
    let mut crd = crd.clone();
    smp_admission::defaulting::default_object(&mut crd).expect("defaults");
    prepare_for_create(&mut crd);
    crd
}

fn lines(crd: &Value) -> Vec<String> {
    validate_create(crd)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn every_shared_crd_is_admitted() {
    let Some(crds) = crds() else { return };
    assert!(crds.len() >= 11, "{} CRDs", crds.len());
    for (file, crd) in &crds {
        assert_eq!(lines(&admitted(crd)), Vec::<String>::new(), "{file}");
    }
}

#[test]
fn broken_shared_crds_are_refused() {
    let Some(crds) = crds() else { return };
    let (_, route) = crds
        .iter()
        .find(|(f, _)| f.ends_with("gateway.networking.k8s.io_httproutes.yaml"))
        .expect("HTTPRoute's CRD");
    // A rule that does not parse, in a version of its own schema.
    let mut crd = admitted(route);
    let schema = "/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations";
    let rules = crd.pointer_mut(schema);
    let rules = match rules {
        Some(Value::Array(rules)) => rules,
        _ => {
            let spec = crd
                .pointer_mut("/spec/versions/0/schema/openAPIV3Schema/properties/spec")
                .expect("spec");
            spec["x-kubernetes-validations"] = json!([]);
            spec["x-kubernetes-validations"].as_array_mut().unwrap()
        }
    };
    rules.push(json!({"rule": "self.rules.all(r, "}));
    let found = lines(&crd);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("x-kubernetes-validations["),
        "{}",
        found[0]
    );
    assert!(found[0].contains(": compilation failed: "), "{}", found[0]);
    // A field without a type.
    let mut crd = admitted(route);
    crd.pointer_mut("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties")
        .expect("spec's members")["extra"] = json!({"description": "untyped"});
    let found = lines(&crd);
    assert!(
        found.iter().any(|l| l.ends_with("properties[spec].properties[extra].type: Required value: must not be empty for specified object fields")),
        "{found:?}"
    );
    // A name that is not the plural and the group.
    let mut crd = admitted(route);
    crd["metadata"]["name"] = json!("routes.gateway.networking.k8s.io");
    assert_eq!(
        lines(&crd),
        [
            r#"metadata.name: Invalid value: "routes.gateway.networking.k8s.io": must be spec.names.plural+"."+spec.group"#
        ]
    );
}
