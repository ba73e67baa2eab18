//! A custom resource declared in Rust with kube's `CustomResource` derive, its CEL rule and
//! schema constraints checked in a plain `cargo test`, with no cluster: what the README's
//! recipe shows.

use kube::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};
use smp_admission::customresource::{CustomResourceError, Definition};

#[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Widget", namespaced)]
#[x_kube(validation = Rule::new("self.replicas <= self.max").message("replicas must not exceed max"))]
pub struct WidgetSpec {
    #[schemars(range(min = 1))]
    replicas: i32,
    max: i32,
}

#[test]
fn a_crds_rule_refuses_an_object_as_the_server_would() {
    let definition = Definition::from_typed_crd(&Widget::crd()).unwrap();

    let mut ok = Widget::new(
        "w",
        WidgetSpec {
            replicas: 2,
            max: 3,
        },
    );
    ok.metadata.namespace = Some("default".into());
    let stored = definition.admit_typed(&ok).unwrap();
    assert_eq!(stored["spec"]["replicas"], 2);

    let mut bad = Widget::new(
        "w",
        WidgetSpec {
            replicas: 5,
            max: 3,
        },
    );
    bad.metadata.namespace = Some("default".into());
    let Err(CustomResourceError::Invalid(invalid)) = definition.admit_typed(&bad) else {
        panic!("refused");
    };
    assert_eq!(
        invalid.to_string(),
        r#"Widget.example.com "w" is invalid: spec: Invalid value: "object": replicas must not exceed max"#
    );

    let mut zero = Widget::new(
        "w",
        WidgetSpec {
            replicas: 0,
            max: 3,
        },
    );
    zero.metadata.namespace = Some("default".into());
    let Err(CustomResourceError::Invalid(invalid)) = definition.admit_typed(&zero) else {
        panic!("refused");
    };
    assert_eq!(
        invalid.lines(),
        [
            "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1"
        ]
    );
}
