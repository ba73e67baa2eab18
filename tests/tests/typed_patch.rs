//! Typed patches built with their builders: the JSON each writes, exactly; what applying them
//! does; reading patches back with their errors; unions; apply configurations; k8s-openapi
//! values and derived types of this file.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::typed_patch::{KeyedList, ObjectDirective};
use smp_core::{ObjectPatch, Patch, PatchError, StrategicMerge, ValuePatch};
use smp_types::api::apps::v1::{Deployment, DeploymentPatch, DeploymentStrategyPatch};
use smp_types::api::core::v1::{ContainerPatch, ServiceSpecPatch};

fn deployment() -> Deployment {
    smp_core::from_str(
        r#"
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, tier: frontend}
  finalizers: [shop.example.com/drain]
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}
  template:
    spec:
      containers:
      - {name: app, image: "app:1", env: [{name: MODE, value: prod}]}
      - {name: log-shipper, image: "fluent:1"}
"#,
    )
    .expect("a Deployment")
}

/// The patch's JSON, and the Deployment it makes, which must be what its JSON makes.
fn check(patch: &DeploymentPatch, json: Value) -> Deployment {
    assert_eq!(patch.to_value().expect("writes"), json);
    let mut typed = deployment();
    typed.apply_patch(patch).expect("applies");
    let mut by_json = deployment();
    by_json
        .apply(&Patch::from_value(json).expect("a patch"))
        .expect("applies");
    assert_eq!(typed, by_json);
    typed
}

fn containers(
    f: impl FnOnce(KeyedList<ContainerPatch>) -> KeyedList<ContainerPatch>,
) -> DeploymentPatch {
    DeploymentPatch::new().spec_with(|s| s.template_with(|t| t.spec_with(|p| p.containers(f))))
}

#[test]
fn change_one_containers_image() {
    let patch = containers(|l| l.item("app", |c| c.image("app:2")));
    let d = check(
        &patch,
        json!({"spec": {"template": {"spec": {"containers": [{"image": "app:2", "name": "app"}]}}}}),
    );
    let spec = d.spec.unwrap().template.spec.unwrap();
    assert_eq!(spec.containers[0].image.as_deref(), Some("app:2"));
    assert_eq!(spec.containers.len(), 2);
}

#[test]
fn delete_a_container() {
    let patch = containers(|l| l.delete("log-shipper"));
    let d = check(
        &patch,
        json!({"spec": {"template": {"spec": {"containers": [{"$patch": "delete", "name": "log-shipper"}]}}}}),
    );
    assert_eq!(d.spec.unwrap().template.spec.unwrap().containers.len(), 1);
}

#[test]
fn add_an_environment_variable() {
    let patch = containers(|l| {
        l.item("app", |c| {
            c.env(|e| e.item("LOG_LEVEL", |v| v.value("debug")))
        })
    });
    let d = check(
        &patch,
        json!({"spec": {"template": {"spec": {"containers": [
            {"env": [{"name": "LOG_LEVEL", "value": "debug"}], "name": "app"}
        ]}}}}),
    );
    let env = &d.spec.unwrap().template.spec.unwrap().containers[0].env;
    assert_eq!(env.as_ref().map(Vec::len), Some(2));
}

#[test]
fn switch_the_strategy_to_recreate() {
    let patch = DeploymentPatch::new().spec_with(|s| s.strategy_retaining(|s| s.type_("Recreate")));
    let d = check(
        &patch,
        json!({"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}}),
    );
    let strategy = d.spec.unwrap().strategy.unwrap();
    assert_eq!(strategy.type_.as_deref(), Some("Recreate"));
    assert_eq!(strategy.rolling_update, None, "$retainKeys dropped it");
}

#[test]
fn remove_a_finalizer_and_a_label_and_scale() {
    let patch = DeploymentPatch::new()
        .metadata_with(|m| {
            m.finalizers(|f| f.delete("shop.example.com/drain"))
                .labels_with(|l| l.delete("tier"))
        })
        .spec_with(|s| s.replicas(3));
    let d = check(
        &patch,
        json!({
            "metadata": {
                "$deleteFromPrimitiveList/finalizers": ["shop.example.com/drain"],
                "labels": {"tier": null}
            },
            "spec": {"replicas": 3}
        }),
    );
    let metadata = d.metadata.unwrap();
    assert_eq!(metadata.finalizers, Some(vec![]));
    assert_eq!(metadata.labels.unwrap().len(), 1);
    assert_eq!(d.spec.unwrap().replicas, Some(3));
}

#[test]
fn orders_replacements_and_object_directives() {
    let patch = containers(|l| l.order(["log-shipper", "app"]));
    check(
        &patch,
        json!({"spec": {"template": {"spec": {"$setElementOrder/containers": [{"name": "log-shipper"}, {"name": "app"}]}}}}),
    );
    let patch = containers(|l| l.replacing().item("only", |c| c.image("only:1")));
    let d = check(
        &patch,
        json!({"spec": {"template": {"spec": {"containers": [{"$patch": "replace"}, {"image": "only:1", "name": "only"}]}}}}),
    );
    assert_eq!(d.spec.unwrap().template.spec.unwrap().containers.len(), 1);
    // `$patch: delete` on an object, and `null`.
    let patch =
        DeploymentPatch::new().spec_with(|s| s.strategy(DeploymentStrategyPatch::deleting()));
    check(&patch, json!({"spec": {"strategy": {"$patch": "delete"}}}));
    let patch = DeploymentPatch::new().spec_with(|s| s.delete_strategy());
    check(&patch, json!({"spec": {"strategy": null}}));
}

#[test]
fn a_union_member_sets_its_discriminator() {
    let patch = DeploymentPatch::new()
        .spec_with(|s| s.strategy_with(|r| r.merge(|s| s.rolling_update_with(|u| u.max_surge(3)))));
    assert_eq!(
        patch.to_value().expect("writes"),
        json!({"spec": {"strategy": {"rollingUpdate": {"maxSurge": 3}, "type": "RollingUpdate"}}})
    );
}

#[test]
fn recommended_keys_with_patch_merge_key() {
    let patch = ServiceSpecPatch::new()
        .ports(|l| l.item_by([53.into(), "UDP".into()], |p| p.name("dns-udp")));
    assert_eq!(
        patch.to_value().expect("writes"),
        json!({"ports": [{"$patchMergeKey": ["port", "protocol"], "name": "dns-udp", "port": 53, "protocol": "UDP"}]})
    );
    let back = ServiceSpecPatch::from_value(patch.to_value().unwrap()).expect("reads");
    assert_eq!(back, patch);
}

#[test]
fn reading_names_what_is_wrong_and_where() {
    let err = |json: Value| DeploymentPatch::from_value(json).unwrap_err().to_string();
    assert_eq!(
        err(json!({"spec": {"template": {"spec": {"containers": [{"image": "x"}]}}}})),
        "at spec.template.spec.containers[0]: map does not contain declared merge key: name"
    );
    assert_eq!(
        err(json!({"spec": {"replicas": "three"}})),
        "at spec.replicas: invalid type: string \"three\", expected i32"
    );
    let e = err(json!({"spec": {"template": {"$retainKeys": ["spec"]}}}));
    assert!(
        e.starts_with("at spec.template.$retainKeys: invalid patch format of $retainKeys"),
        "{e}"
    );
    let e = err(json!({"metadata": {"$deleteFromPrimitiveList/labels": ["a"]}}));
    assert!(
        e.starts_with("at metadata[\"$deleteFromPrimitiveList/labels\"]: invalid patch format"),
        "{e}"
    );
    assert_eq!(
        err(json!({"spec": {"selector": null}})),
        "at spec.selector: a required field cannot be deleted"
    );
    assert_eq!(
        err(json!({"spec": {"$patch": "merge"}})),
        "at spec: `$patch: merge` cannot be specified in a patch; merging is the default"
    );
}

/// A type of this file, with `deny_unknown_fields`: reading a member it does not declare fails.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
#[serde(deny_unknown_fields)]
struct Strict {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

#[test]
fn unknown_fields_under_deny_unknown_fields_are_errors() {
    assert_eq!(
        StrictPatch::from_value(json!({"nmae": "x"}))
            .unwrap_err()
            .to_string(),
        "at nmae: unknown field `nmae`"
    );
    // Without it they are dropped, as deserializing the type drops them.
    assert_eq!(
        DeploymentPatch::from_value(json!({"spec": {"replicas": 1, "imagee": "x"}}))
            .unwrap()
            .to_value()
            .unwrap(),
        json!({"spec": {"replicas": 1}})
    );
}

#[test]
fn serde_and_json_round_trips() {
    let patch = containers(|l| l.item("app", |c| c.image("app:2")).delete("log-shipper"))
        .metadata_with(|m| m.labels_with(|l| l.set("a", "b").delete("c")));
    let text = serde_json::to_string(&patch).expect("serializes");
    assert_eq!(text, patch.to_json().expect("writes"));
    let back: DeploymentPatch = serde_json::from_str(&text).expect("deserializes");
    assert_eq!(back, patch);
    assert_eq!(DeploymentPatch::from_json(&text).expect("reads"), patch);
    // The typed diff is the diff's JSON, typed.
    let a = deployment();
    let mut b = a.clone();
    b.apply_patch(&patch).expect("applies");
    let diff = a.diff_patch(&b).expect("diffs");
    assert_eq!(&diff.to_value().unwrap(), a.diff(&b).unwrap().as_value());
}

#[test]
fn a_failed_apply_leaves_the_object_unchanged() {
    // A container added without an image is fine; one whose port is a string is not.
    let patch = containers(|l| {
        l.item("app", |c| c.image("app:3"))
            .item("bad", |c| c.ports(|p| p.item("http", |p| p.name("x"))))
    });
    let before = deployment();
    let mut d = before.clone();
    assert!(d.apply_patch(&patch).is_err());
    assert_eq!(d, before);
}

#[test]
fn apply_configurations_hold_only_what_they_set() {
    let config = DeploymentPatch::apply_configuration("web")
        .expect("a root")
        .spec_with(|s| s.replicas(3));
    let body = config
        .to_apply_configuration()
        .expect("an apply configuration");
    assert_eq!(
        body.to_json(),
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3}}"#
    );
    let with_delete = config.clone().spec_with(|s| s.delete_strategy());
    let err = with_delete.to_apply_configuration().unwrap_err();
    assert!(
        matches!(err, PatchError::NotApplyConfiguration { .. })
            && err
                .to_string()
                .starts_with("at spec.strategy: not an apply configuration: a deletion"),
        "{err}"
    );
    let with_directive = config
        .clone()
        .spec_with(|s| s.strategy_retaining(|s| s.type_("Recreate")));
    assert!(
        with_directive
            .to_apply_configuration()
            .unwrap_err()
            .to_string()
            .starts_with("at spec.strategy.$retainKeys: not an apply configuration"),
    );
    let mut deleting = DeploymentPatch::new();
    deleting.set_directive(ObjectDirective::Delete);
    assert!(deleting.to_apply_configuration().is_err());
}

#[test]
fn k8s_openapi_values_take_their_counterparts_patches() {
    use smp_types::k8s_openapi::StrategicMergeExt;
    let mut d: k8s_openapi::api::apps::v1::Deployment =
        serde_json::from_value(serde_json::to_value(deployment()).unwrap()).unwrap();
    let patch = containers(|l| l.item("app", |c| c.image("app:2")));
    d.apply_patch(&patch).expect("applies");
    let containers = &d
        .spec
        .as_ref()
        .unwrap()
        .template
        .spec
        .as_ref()
        .unwrap()
        .containers;
    assert_eq!(containers[0].image.as_deref(), Some("app:2"));
    assert_eq!(containers.len(), 2);
    let before: k8s_openapi::api::apps::v1::Deployment =
        serde_json::from_value(serde_json::to_value(deployment()).unwrap()).unwrap();
    assert_eq!(
        before.diff_patch(&d).unwrap(),
        deployment()
            .diff_patch(&{
                let mut t = deployment();
                t.apply_patch(&patch).unwrap();
                t
            })
            .unwrap()
    );
}

/// `#[patch(no_patch_type)]`: the type's patch is its JSON (`UntypedPatch`), kept whole and
/// applied as that JSON is; a struct holding it types everything down to it.
#[test]
fn a_type_without_patch_type_is_patched_as_json() {
    use smp_core::UntypedPatch;

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    #[patch(no_patch_type)]
    struct Knobs {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[patch(strategy = "merge", merge_key = "name")]
        dials: Vec<Dial>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        label: Option<String>,
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    struct Dial {
        name: String,
        #[serde(default)]
        value: i64,
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    struct Panel {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        knobs: Option<Knobs>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    }

    let knobs: Knobs = serde_json::from_value(
        json!({"dials": [{"name": "a", "value": 1}, {"name": "b", "value": 2}], "label": "x"}),
    )
    .unwrap();
    let json = json!({
        "$setElementOrder/dials": [{"name": "b"}, {"name": "a"}],
        "dials": [{"name": "a", "value": 5}],
        "label": null
    });
    let patch = <Knobs as StrategicMerge>::Patch::from_value(json.clone()).unwrap();
    let _: &UntypedPatch<Knobs> = &patch;
    assert_eq!(
        patch.to_value().unwrap(),
        json,
        "every member and directive kept"
    );
    let mut typed = knobs.clone();
    typed.apply_patch(&patch).unwrap();
    let mut by_json = knobs.clone();
    by_json
        .apply(&Patch::from_value(json.clone()).unwrap())
        .unwrap();
    assert_eq!(typed, by_json);
    assert_eq!(typed.dials[0].name, "b");
    assert_eq!(typed.label, None);

    // Checked when applied, as a `Patch` is.
    let bad =
        <Knobs as StrategicMerge>::Patch::from_value(json!({"dials": [{"value": 1}]})).unwrap();
    assert!(matches!(
        knobs.clone().apply_patch(&bad),
        Err(PatchError::MissingMergeKey { .. })
    ));

    // The struct holding it has a typed patch whose member is the JSON.
    let inner = UntypedPatch::new(json.as_object().unwrap().clone());
    let panel_patch = PanelPatch::new().title("t").knobs(inner);
    let written = json!({"knobs": json, "title": "t"});
    assert_eq!(panel_patch.to_value().unwrap(), written);
    let panel = Panel {
        knobs: Some(knobs),
        title: None,
    };
    let mut typed = panel.clone();
    typed.apply_patch(&panel_patch).unwrap();
    let mut by_json = panel;
    by_json.apply(&Patch::from_value(written).unwrap()).unwrap();
    assert_eq!(typed, by_json);
}
