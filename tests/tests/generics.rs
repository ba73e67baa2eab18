//! Generic structs derive `StrategicMerge`: each type parameter is bound by `PatchField +
//! Normalize`, the schema tables are associated constants evaluated per instantiation, and
//! typed apply and diff equal the `Value` engine with the instantiation's schema.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::{Patch, StrategicMerge};

/// A named value of any patchable type.
#[derive(StrategicMerge, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Named<T> {
    name: String,
    // serde reads a missing `Option` as `None`; `default` would make it ask `T: Default`.
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<T>,
}

/// A list of them merged by name, and a flattened struct of another parameter.
#[derive(StrategicMerge, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Spec<T, X> {
    #[patch(strategy = "merge", merge_key = "name")]
    items: Vec<Named<T>>,
    #[serde(flatten)]
    extra: X,
}

#[derive(StrategicMerge, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Extra {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    finalizers: Vec<String>,
    #[patch(strategy = "merge")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tags: Vec<String>,
}

/// The shape of a custom resource: a generic spec, as kube's `Object<P, U>` has it.
#[derive(StrategicMerge, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Resource<S> {
    #[serde(rename = "apiVersion")]
    api_version: String,
    kind: String,
    spec: S,
}

/// Typed apply and diff against the `Value` engine with `T::schema()`.
fn same_as_engine<T: StrategicMerge + Clone + PartialEq + std::fmt::Debug>(
    doc: Value,
    patch: Value,
) -> T {
    let original: T = serde_json::from_value(doc.clone()).expect("fits");
    let want = smp_core::apply(&doc, &patch, T::schema()).expect("engine applies");
    let mut typed = original.clone();
    typed
        .apply(&Patch::from_value(patch).expect("patch"))
        .expect("typed applies");
    assert_eq!(serde_json::to_value(&typed).expect("json"), want);
    let back = typed.diff(&original).expect("diff");
    let engine = smp_core::diff(&want, &doc, T::schema()).expect("engine diff");
    assert_eq!(back.as_value(), &engine);
    let mut again = typed.clone();
    again.apply(&back).expect("applies");
    assert_eq!(again, original);
    typed
}

#[test]
fn instantiations_patch_by_their_schema() {
    let doc = json!({"items": [{"name": "a", "value": 1}, {"name": "b", "value": 2}],
                     "finalizers": ["x"], "tags": ["t1"]});
    let patch = json!({"items": [{"name": "b", "value": 20}, {"name": "c"}], "tags": ["t2"],
                       "finalizers": ["y"]});
    let out: Spec<i64, Extra> = same_as_engine(doc, patch);
    assert_eq!(out.items.len(), 3);
    assert_eq!(out.items[1].value, Some(20));
    // `tags` merges as a set (upstream puts the patch's new values first), `finalizers` has
    // no strategy and is replaced.
    assert_eq!(out.extra.tags, ["t2", "t1"]);
    assert_eq!(out.extra.finalizers, ["y"]);

    // The same struct over another parameter: the items' values are now lists of named
    // strings, which merge by the inner struct's own metadata when nested.
    let doc = json!({"items": [{"name": "a", "value": {"name": "inner", "value": "v1"}}]});
    let patch = json!({"items": [{"name": "a", "value": {"value": "v2"}}]});
    let out: Spec<Named<String>, Extra> = same_as_engine(doc, patch);
    assert_eq!(
        out.items[0].value.as_ref().and_then(|v| v.value.as_deref()),
        Some("v2")
    );
}

#[test]
fn a_generic_resource_over_a_derived_spec() {
    let doc = json!({"apiVersion": "example.com/v1", "kind": "Widget",
                     "spec": {"items": [{"name": "a", "value": true}], "tags": ["x"]}});
    let patch = json!({"spec": {"items": [{"name": "a", "$patch": "delete"}], "tags": ["y"]}});
    let out: Resource<Spec<bool, Extra>> = same_as_engine(doc, patch);
    assert!(out.spec.items.is_empty());
    assert_eq!(out.spec.extra.tags, ["y", "x"]);
    // Each instantiation has its own schema.
    assert_eq!(
        Resource::<Spec<bool, Extra>>::schema()
            .field("spec")
            .node
            .def()
            .name(),
        Spec::<bool, Extra>::schema().def().name()
    );
}
