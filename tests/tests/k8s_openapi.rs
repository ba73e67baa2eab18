//! k8s-openapi's types patched with smp-types' metadata (`smp_types::k8s_openapi`): for every
//! kind of the shipped manifests, apply, diff and three-way through the k8s-openapi type give
//! what `smp patch` (the Value engine with the kind's schema) gives; a derived struct holding
//! k8s-openapi fields merges inside them.

use crate::types_support as support;

use k8s_openapi::api::core::v1::{Container, PodTemplateSpec};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::{Patch, StrategicMerge, ThreeWayOptions};
use smp_types::k8s_openapi::StrategicMergeExt;

use support::patches::{self, Rng};

fn manifests() -> Vec<(String, Value)> {
    support::manifests::all()
}

/// A check run with the k8s-openapi type of a document's kind.
trait Check {
    fn run<K: StrategicMergeExt>(&mut self, doc: &Value);
}

macro_rules! k8s_kinds {
    ($($api_version:literal $kind:literal => $($segment:ident)::+,)*) => {
        /// Runs `check` with the k8s-openapi type of `doc`'s kind; `false` if not in the table.
        fn dispatch<C: Check>(doc: &Value, check: &mut C) -> bool {
            match (doc["apiVersion"].as_str(), doc["kind"].as_str()) {
                $((Some($api_version), Some($kind)) => check.run::<k8s_openapi::$($segment)::+>(doc),)*
                _ => return false,
            }
            true
        }
    };
}

crate::with_kinds!(k8s_kinds);

/// `K`'s JSON form of `value`: what a k8s-openapi round trip keeps.
fn through<K: Serialize + DeserializeOwned>(value: Value) -> Result<Value, String> {
    let typed: K = serde_json::from_value(value).map_err(|e| e.to_string())?;
    Ok(serde_json::to_value(&typed).expect("serializes"))
}

/// Apply, diff and three-way through `K` against the Value engine with `smp patch`'s schema.
struct SameAsSmpPatch {
    patch: Value,
    modified: Value,
    cases: usize,
}

impl Check for SameAsSmpPatch {
    fn run<K: StrategicMergeExt>(&mut self, doc: &Value) {
        let schema = smp_types::lookup(
            doc["apiVersion"].as_str().unwrap_or_default(),
            doc["kind"].as_str().unwrap_or_default(),
        )
        .expect("known kind")
        .schema();
        // The counterpart's schema is the kind's.
        assert_eq!(K::schema().def().name(), schema.def().name());
        let original: K = serde_json::from_value(doc.clone()).expect("k8s-openapi reads it");
        let json = serde_json::to_value(&original).expect("serializes");

        // Apply: what `smp patch` makes of the k8s-openapi form, read back into `K`.
        let want = smp_core::apply(&json, &self.patch, schema)
            .map_err(|e| e.to_string())
            .and_then(through::<K>);
        let mut got = serde_json::from_value::<K>(json.clone()).expect("reads");
        let patch = Patch::from_value(self.patch.clone()).expect("patch");
        match (got.apply(&patch), want) {
            (Ok(()), Ok(want)) => assert_eq!(
                serde_json::to_value(&got).expect("serializes"),
                want,
                "patch {}",
                self.patch
            ),
            (Err(_), Err(_)) => assert_eq!(
                serde_json::to_value(&got).expect("serializes"),
                json,
                "a failed apply changed the value"
            ),
            (got, want) => panic!(
                "k8s-openapi apply {got:?}, smp patch {:?}; patch {}",
                want.map(|_| ()),
                self.patch
            ),
        }

        // Diff and three-way: the engine's patches on the JSON forms.
        let Ok(modified) = serde_json::from_value::<K>(self.modified.clone()) else {
            return;
        };
        let modified_json = serde_json::to_value(&modified).expect("serializes");
        let engine = smp_core::diff(&json, &modified_json, schema);
        match (original.diff(&modified), engine) {
            (Ok(p), Ok(e)) => assert_eq!(p.as_value(), &e),
            (Err(a), Err(b)) => assert_eq!(a, b),
            (a, b) => panic!("diff: k8s-openapi {a:?}, engine {b:?}"),
        }
        let options = ThreeWayOptions::default();
        let engine = smp_core::three_way(&json, &modified_json, &json, schema, &options);
        match (
            K::three_way(&original, &modified, &original, &options),
            engine,
        ) {
            (Ok(p), Ok(e)) => assert_eq!(p.as_value(), &e),
            (Err(a), Err(b)) => assert_eq!(a, b),
            (a, b) => panic!("three-way: k8s-openapi {a:?}, engine {b:?}"),
        }
        self.cases += 1;
    }
}

#[test]
fn every_kind_patches_as_smp_patch_does() {
    let mut rng = Rng(0x6b38_0029);
    let mut kinds = std::collections::BTreeSet::new();
    let mut cases = 0;
    for (name, doc) in manifests() {
        let kind = smp_types::lookup(
            doc["apiVersion"].as_str().unwrap_or_default(),
            doc["kind"].as_str().unwrap_or_default(),
        )
        .unwrap_or_else(|| panic!("{name}: unknown kind"));
        for _ in 0..20 {
            let patch = patches::patch(&mut rng, &doc, kind.schema());
            // A second object for the diffs: the manifest with a random patch applied.
            let other = patches::patch(&mut rng, &doc, kind.schema());
            let modified = smp_core::apply(&doc, &other, kind.schema()).unwrap_or(doc.clone());
            let mut check = SameAsSmpPatch {
                patch: patch.clone(),
                modified,
                cases: 0,
            };
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                assert!(dispatch(&doc, &mut check), "{name}: not in the kinds table")
            }));
            if let Err(e) = run {
                eprintln!("{name}: patch {patch}");
                std::panic::resume_unwind(e);
            }
            cases += check.cases;
        }
        kinds.insert((kind.api_version(), kind.kind()));
    }
    assert!(kinds.len() >= 52, "only {} kinds", kinds.len());
    // Every case checks apply; diff and three-way need the random second object to fit the
    // k8s-openapi type, which a mutated timestamp does not (818 of the 1,160 cases at this
    // seed).
    assert!(cases >= 10 * 52, "only {cases} full cases");
}

#[test]
fn a_pod_patched_through_k8s_openapi() {
    use k8s_openapi::api::core::v1::Pod;
    let mut pod: Pod = serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
        "spec": {"containers": [{"name": "app", "image": "app:1"}, {"name": "log", "image": "log:1"}],
                 "schedulingGates": [{"name": "a"}]}
    }))
    .expect("pod");
    let before = pod.clone();
    let patch: Patch = serde_json::from_value(json!({"spec": {
        "containers": [{"name": "app", "image": "app:2"}],
        "schedulingGates": [{"name": "b"}]
    }}))
    .expect("patch");
    pod.apply(&patch).expect("applies");
    let spec = pod.spec.as_ref().expect("spec");
    // Containers merge by name; scheduling gates merge by name too (both in v1.34's document).
    let images: Vec<_> = spec.containers.iter().map(|c| c.image.clone()).collect();
    assert_eq!(images, [Some("app:2".into()), Some("log:1".into())]);
    let gates: Vec<_> = spec
        .scheduling_gates
        .iter()
        .flatten()
        .map(|g| g.name.clone())
        .collect();
    assert_eq!(gates, ["b", "a"]);
    // The two-way patch takes it back.
    let back = pod.diff(&before).expect("diff");
    let mut again = pod.clone();
    again.apply(&back).expect("applies");
    assert_eq!(again, before);
    // A failed apply leaves the pod unchanged.
    let bad: Patch =
        serde_json::from_value(json!({"spec": {"containers": [{"image": "x"}]}})).expect("patch");
    let kept = pod.clone();
    assert!(pod.apply(&bad).is_err());
    assert_eq!(pod, kept);
    // A patch whose result k8s-openapi cannot hold is an error too, and changes nothing.
    let wrong: Patch =
        serde_json::from_value(json!({"spec": {"priority": "high"}})).expect("patch");
    let err = pod.apply(&wrong).expect_err("not an integer");
    assert!(err.to_string().contains("does not fit"), "{err}");
    assert_eq!(pod, kept);
}

/// A custom resource's spec holding k8s-openapi types.
#[derive(StrategicMerge, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct WorkerSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    replicas: Option<i32>,
    #[patch(k8s_openapi)]
    template: PodTemplateSpec,
    #[patch(k8s_openapi, strategy = "merge", merge_key = "name")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sidecars: Vec<Container>,
    #[patch(k8s_openapi)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fallback: Option<Container>,
}

#[test]
fn a_derived_struct_merges_inside_k8s_openapi_fields() {
    let spec: WorkerSpec = serde_json::from_value(json!({
        "replicas": 2,
        "template": {"metadata": {"labels": {"app": "w"}},
                     "spec": {"containers": [{"name": "main", "image": "w:1"}, {"name": "proxy", "image": "p:1"}]}},
        "sidecars": [{"name": "a", "image": "a:1"}, {"name": "b", "image": "b:1"}]
    }))
    .expect("spec");
    let patch = json!({
        "template": {"spec": {"containers": [{"name": "main", "image": "w:2"}]}},
        "sidecars": [{"name": "b", "image": "b:2"}],
        "fallback": {"name": "f", "image": "f:1"}
    });
    let mut typed = spec.clone();
    typed
        .apply(&Patch::from_value(patch.clone()).expect("patch"))
        .expect("applies");
    // The template's containers merged by name, as the PodSpec metadata says; the sidecars by
    // the field's merge key.
    let images = |cs: &[Container]| {
        cs.iter()
            .map(|c| c.image.clone().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    let template = typed.template.spec.as_ref().expect("pod spec");
    assert_eq!(images(&template.containers), ["w:2", "p:1"]);
    assert_eq!(images(&typed.sidecars), ["a:1", "b:2"]);
    assert_eq!(
        typed.fallback.as_ref().and_then(|c| c.image.as_deref()),
        Some("f:1")
    );
    // And equals the Value engine with the struct's schema.
    let want = smp_core::apply(
        &serde_json::to_value(&spec).expect("json"),
        &patch,
        WorkerSpec::schema(),
    )
    .expect("applies");
    assert_eq!(serde_json::to_value(&typed).expect("json"), want);
    // Diff back, through the typed walk.
    let back = typed.diff(&spec).expect("diff");
    let engine = smp_core::diff(
        &serde_json::to_value(&typed).expect("json"),
        &serde_json::to_value(&spec).expect("json"),
        WorkerSpec::schema(),
    )
    .expect("diff");
    assert_eq!(back.as_value(), &engine);
    let mut again = typed.clone();
    again.apply(&back).expect("applies");
    assert_eq!(again, spec);
}

#[test]
fn unions_of_k8s_openapi_fields_are_normalized() {
    use k8s_openapi::api::core::v1::Volume;
    use smp_core::Normalize;

    #[derive(StrategicMerge, Serialize, Deserialize, Clone, Debug, PartialEq)]
    struct Storage {
        #[patch(k8s_openapi, strategy = "merge", merge_key = "name")]
        volumes: Vec<Volume>,
    }
    let old: Storage = serde_json::from_value(json!({
        "volumes": [{"name": "data", "emptyDir": {}}]
    }))
    .expect("old");
    // A patch that sets a second member of VolumeSource's union: normalization clears the
    // old one, as an API server does for KEP-1027 unions.
    let mut new = old.clone();
    new.apply(
        &Patch::from_value(json!({"volumes": [{"name": "data", "hostPath": {"path": "/d"}}]}))
            .expect("patch"),
    )
    .expect("applies");
    assert!(
        new.validate().is_err(),
        "two members set before normalizing"
    );
    new.normalize(Some(&old));
    assert!(new.volumes[0].empty_dir.is_none());
    assert!(new.volumes[0].host_path.is_some());
    new.validate().expect("valid");
}
