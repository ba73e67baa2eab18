//! The typed twins of the corpus's test schemas (`support/merge_item.rs`): their derived
//! schemas against the recorded swagger files (`tests/conformance/schemas`, proven equal to the
//! upstream files by `upstream_schemas.rs`), and their JSON forms.

use crate::support;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use smp_core::schema::compare;
use smp_core::{Patch, Schema, StrategicMerge};
use support::merge_item::{MergeItem, Nullable, PrecisionItem, Scalar, ptr};

/// Loads `definition` from a recorded swagger file, after `edit` changed the document.
fn load(file: &str, definition: &str, edit: impl FnOnce(&mut Value)) -> Schema {
    let mut doc = support::recorded_schema(file);
    edit(&mut doc);
    Schema::from_openapi(&doc, definition).unwrap()
}

/// The definitions object of a swagger document (v2 or v3).
fn definitions(doc: &mut Value) -> &mut Value {
    if doc.get("definitions").is_some() {
        &mut doc["definitions"]
    } else {
        &mut doc["components"]["schemas"]
    }
}

/// `retainKeysMergeItem.simpleMap` as Go declares it (`map[string]string`): the one property
/// the swagger files get wrong, each differently (see `RetainKeysMergeItem::simple_map`).
fn fix_retain_keys_simple_map(doc: &mut Value) {
    let property = &mut definitions(doc)["retainKeysMergeItem"]["properties"]["simpleMap"];
    assert!(property.is_object(), "the corpus file changed");
    *property = json!({"type": "object", "additionalProperties": {"type": "string"}});
}

#[test]
fn merge_item_twin_equals_swagger_v2_and_v3() {
    let files = [
        (
            "mergeItem.openapiV2.json",
            // v2: `additionalProperties: "object"` reads as a map of opaque values.
            "mergeItem.retainKeysMap.simpleMap{}: shape differs: primitive vs opaque",
        ),
        (
            "mergeItem.openapiV3.json",
            // v3: no type, `items: {type: string}` reads as a list of strings.
            "mergeItem.retainKeysMap.simpleMap: shape differs: map vs list",
        ),
    ];
    for (file, difference) in files {
        let as_published = load(file, "mergeItem", |_| {});
        assert_eq!(
            compare(MergeItem::schema(), as_published.root()),
            Err(difference.to_owned()),
            "{file}"
        );
        let fixed = load(file, "mergeItem", fix_retain_keys_simple_map);
        assert_eq!(compare(MergeItem::schema(), fixed.root()), Ok(()), "{file}");
        assert_eq!(compare(fixed.root(), MergeItem::schema()), Ok(()), "{file}");
    }
}

#[test]
fn precision_item_twin_equals_swagger_v2_and_v3() {
    for file in [
        "precisionItem.openapiV2.json",
        "precisionItem.openapiV3.json",
    ] {
        let schema = load(file, "precisionItem", |_| {});
        assert_eq!(
            compare(PrecisionItem::schema(), schema.root()),
            Ok(()),
            "{file}"
        );
    }
}

/// `from_value` then `to_value` gives the document back.
fn round_trips<T: Serialize + DeserializeOwned>(doc: Value) -> T {
    let typed: T = serde_json::from_value(doc.clone()).unwrap();
    let back = serde_json::to_value(&typed).unwrap();
    assert!(support::json_eq(&doc, &back), "{doc} came back as {back}");
    typed
}

#[test]
fn twin_holds_the_corpus_shapes() {
    let item: MergeItem = round_trips(json!({
        "name": 1, "value": "v", "other": true,
        "mergingList": [{"name": 2, "value": 1.5}, {"name": "x"}],
        "nonMergingList": [],
        "mergingIntList": null,
        "nonMergingIntList": [1, 2],
        "mergeItemPtr": [{"name": 1, "mergeItemPtr": {"name": 3}}],
        "simpleMap": {"a": "b", "c": 1},
        "replacingItem": {"Some": "thing", "Raw": [1]},
        "retainKeysMap": {"name": "r", "simpleMap": {"k": "v"}, "mergingIntList": [], "odd": null},
        "retainKeysMergingList": [{"name": "a"}],
        "jsonItem": {"nested": {"a": null}},
        "array": [1, 2, 3],
        "complex": {"nested": true},
        "thing": null
    }));
    assert_eq!(item.name, Some(Scalar::Int(1)));
    assert_eq!(item.merging_int_list, Nullable::Null);
    assert!(matches!(item.merge_item_ptr, Some(ptr::Vec::Many(_))));
    assert_eq!(item.unknown.0.get("thing"), Some(&Value::Null));
    let empty: MergeItem = round_trips(json!({}));
    assert_eq!(empty, MergeItem::default());
    round_trips::<MergeItem>(json!({"mergingIntList": [], "mergingList": []}));
    round_trips::<PrecisionItem>(
        serde_json::from_str(
            r#"{"int64": 9223372036854775807, "float32": 3.4028234663852886e+38,
                "float64": 1.7976931348623157e+308, "int32": -2147483648, "name": "n"}"#,
        )
        .unwrap(),
    );
    let big: Value = serde_json::from_str(r#"{"name": 18446744073709551615}"#).unwrap();
    assert_eq!(
        round_trips::<MergeItem>(big).name,
        Some(Scalar::UInt(u64::MAX))
    );
    assert!(serde_json::from_value::<MergeItem>(json!({"name": {"a": 1}})).is_err());
    assert!(serde_json::from_value::<MergeItem>(json!({"mergeItemPtr": 1})).is_err());
}

/// A few patches through the twin's hand-written parts, typed against the round trip.
#[test]
fn twin_typed_apply_equals_round_trip() {
    let item: MergeItem = serde_json::from_value(json!({
        "name": 1,
        "mergingIntList": null,
        "mergeItemPtr": [{"name": 1}],
        "replacingItem": {"a": 1},
        "thing": null,
        "complex": {"nested": true}
    }))
    .unwrap();
    let patches = [
        json!({"name": "one", "value": 2}),
        json!({"mergingIntList": [1, 2]}),
        json!({"$deleteFromPrimitiveList/mergingIntList": [3]}),
        json!({"mergingIntList": null}),
        json!({"mergeItemPtr": [{"name": 2}]}),
        json!({"mergeItemPtr": [{"name": 1, "$patch": "delete"}]}),
        json!({"replacingItem": {"b": 2}}),
        json!({"thing": 1, "complex": {"nested": null, "other": 1}}),
        json!({"complex": null, "new": [1]}),
        json!({"$setElementOrder/array": [1], "array": [1]}),
        json!({"name": {"a": 1}}),
        json!({"mergeItemPtr": 5}),
        json!({"complex": {"$patch": "bogus"}}),
    ];
    for patch in patches {
        let engine = smp_core::apply(
            &serde_json::to_value(&item).unwrap(),
            &patch,
            MergeItem::schema(),
        )
        .map_err(|e| e.to_string())
        .and_then(|v| serde_json::from_value::<MergeItem>(v).map_err(|e| e.to_string()))
        .map(|t| serde_json::to_value(t).unwrap());
        let mut typed = item.clone();
        let result = typed.apply(&Patch::from_value(patch.clone()).unwrap());
        match (&engine, result) {
            (Ok(want), Ok(())) => {
                assert_eq!(&serde_json::to_value(&typed).unwrap(), want, "{patch}")
            }
            (Err(_), Err(_)) => assert_eq!(typed, item, "{patch}: a failed apply changed it"),
            (_, got) => panic!("{patch}: round trip {engine:?}, typed {got:?}"),
        }
    }
}
