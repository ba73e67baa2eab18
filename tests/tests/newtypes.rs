//! Newtype structs (`struct Name(T);`) derive `StrategicMerge` and are patched exactly as the
//! value they wrap: as merge keys, maps, nested structs and list items. Typed apply and diff
//! must equal the `Value` engine on the JSON form.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::{Normalize, Patch, StrategicMerge};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, StrategicMerge)]
struct Name(String);

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(transparent)]
struct Labels(BTreeMap<String, String>);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
struct Container {
    name: Name,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    image: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge")]
    args: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
struct Item(Container);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch(strategy = "merge", merge_key = "name")]
    containers: Vec<Container>,
    #[serde(default)]
    labels: Labels,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    main: Option<Item>,
}

fn spec() -> Spec {
    serde_json::from_value(json!({
        "containers": [{"name": "app", "image": "app:1", "args": ["-v"]}, {"name": "log"}],
        "labels": {"tier": "web"},
        "main": {"name": "main", "image": "main:1"}
    }))
    .unwrap()
}

fn check(patch: Value) -> Value {
    let doc = serde_json::to_value(spec()).unwrap();
    let by_value = smp_core::apply(&doc, &patch, Spec::schema()).expect("engine");
    let by_value = serde_json::to_value(serde_json::from_value::<Spec>(by_value).unwrap()).unwrap();
    let mut typed = spec();
    typed
        .apply(&Patch::from_value(patch.clone()).unwrap())
        .expect("typed");
    assert_eq!(serde_json::to_value(&typed).unwrap(), by_value, "{patch}");
    by_value
}

#[test]
fn newtypes_patch_as_what_they_wrap() {
    // A newtype merge key finds its item; a newtype map merges; a newtype struct merges.
    let out = check(json!({
        "containers": [{"name": "app", "image": "app:2", "args": ["-q"]}],
        "labels": {"tier": null, "team": "a"},
        "main": {"image": "main:2"}
    }));
    assert_eq!(
        out,
        json!({
            "containers": [
                // Merged primitive lists put the patch's items first, as upstream does.
                {"name": "app", "image": "app:2", "args": ["-q", "-v"]},
                {"name": "log"}
            ],
            "labels": {"team": "a"},
            "main": {"name": "main", "image": "main:2"}
        })
    );
    check(json!({"containers": [{"name": "new"}], "main": null}));
    check(json!({"containers": [{"name": "log", "$patch": "delete"}], "labels": null}));
}

#[test]
fn newtypes_diff_and_normalize_like_the_engine() {
    let a = spec();
    let mut b = spec();
    b.containers[1].image = Some("log:1".into());
    b.labels.0.insert("team".into(), "a".into());
    b.main = Some(Item(Container {
        name: Name("main".into()),
        image: None,
        args: vec!["x".into()],
    }));
    let typed = a.diff(&b).unwrap();
    let by_value = smp_core::diff(
        &serde_json::to_value(&a).unwrap(),
        &serde_json::to_value(&b).unwrap(),
        Spec::schema(),
    )
    .unwrap();
    assert_eq!(typed.as_value(), &by_value);
    let mut applied = a.clone();
    applied.apply(&typed).unwrap();
    assert_eq!(applied, b);
    assert!(a.diff(&a).unwrap().is_empty());
    let mut n = b.clone();
    n.normalize(Some(&a));
    assert_eq!(n, b);
    assert!(b.validate().is_ok());
    // The schema is the wrapped type's: a newtype adds nothing to the JSON form.
    assert_eq!(
        format!("{:?}", <Name as smp_core::PatchSchema>::DEF),
        format!("{:?}", <String as smp_core::PatchSchema>::DEF)
    );
}
