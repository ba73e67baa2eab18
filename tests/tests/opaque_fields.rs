//! `#[patch(opaque)]`: fields of any `Serialize + DeserializeOwned` type (here std's
//! `SystemTime` and `IpAddr`, and a plain serde struct), patched as one JSON value. Typed apply
//! and diff must equal the `Value` engine on the JSON form, as for every derived type.

use std::net::IpAddr;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::{Normalize, Opaque, Patch, PatchError, StrategicMerge};

/// A type of "another crate": serde only.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
struct Foreign {
    a: Vec<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    b: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
struct Lease {
    name: String,
    /// Required: removing it is an error, as deserializing the JSON form would be.
    #[patch(opaque)]
    renewed: SystemTime,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[patch(opaque)]
    address: Option<IpAddr>,
    #[serde(default)]
    #[patch(opaque)]
    extra: Foreign,
    /// The wrapper as a field type works too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<Opaque<Foreign>>,
}

fn lease() -> Lease {
    Lease {
        name: "a".into(),
        renewed: SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000),
        address: Some("10.0.0.1".parse().unwrap()),
        extra: Foreign {
            a: vec![1, 2],
            b: Some("x".into()),
        },
        note: None,
    }
}

/// Typed apply and the engine on the JSON form: the same result or both an error.
fn check(patch: Value) -> Result<Value, PatchError> {
    let doc = serde_json::to_value(lease()).unwrap();
    // The round trip: apply to the JSON form, read the result back as a `Lease`.
    let by_value = smp_core::apply(&doc, &patch, Lease::schema()).and_then(|v| {
        let back: Lease = serde_json::from_value(v).map_err(|e| PatchError::InvalidDocument {
            role: smp_core::DocRole::Original,
            detail: e.to_string(),
        })?;
        Ok(serde_json::to_value(back).unwrap())
    });
    let mut typed = lease();
    let result = typed.apply(&Patch::from_value(patch.clone()).unwrap());
    match (&by_value, result) {
        (Ok(v), Ok(())) => assert_eq!(&serde_json::to_value(&typed).unwrap(), v, "{patch}"),
        (Err(_), Err(_)) => assert_eq!(typed, lease(), "a failed apply changes nothing"),
        (v, t) => panic!("{patch}: engine {v:?}, typed {t:?}"),
    }
    by_value
}

#[test]
fn opaque_fields_are_replaced_whole() {
    // An object-valued opaque field is replaced, not merged: `b` goes.
    let out = check(json!({"extra": {"a": [3]}})).unwrap();
    assert_eq!(out["extra"], json!({"a": [3]}));
    let out = check(
        json!({"address": "::1", "renewed": {"secs_since_epoch": 5, "nanos_since_epoch": 0}}),
    )
    .unwrap();
    assert_eq!(out["address"], json!("::1"));
    // Removing an optional one gives `None`, a defaulted one its default.
    let out = check(json!({"address": null, "extra": null})).unwrap();
    assert!(out.get("address").is_none());
    assert_eq!(out["extra"], json!({"a": []}));
    let out = check(json!({"note": {"a": [7]}})).unwrap();
    assert_eq!(out["note"], json!({"a": [7]}));
    // Removing a required one, or a value the type cannot hold, is an error.
    assert!(check(json!({"renewed": null})).is_err());
    assert!(check(json!({"address": "not an address"})).is_err());
}

#[test]
fn opaque_fields_diff_and_normalize_like_the_engine() {
    let a = lease();
    let mut b = lease();
    b.extra.b = None;
    b.address = None;
    let typed = a.diff(&b).unwrap();
    let by_value = smp_core::diff(
        &serde_json::to_value(&a).unwrap(),
        &serde_json::to_value(&b).unwrap(),
        Lease::schema(),
    )
    .unwrap();
    assert_eq!(typed.as_value(), &by_value);
    // As for any replaced object (upstream sends those even when unchanged), an opaque field
    // whose JSON form is an object is in every patch: here `renewed` too.
    let renewed = serde_json::to_value(a.renewed).unwrap();
    assert_eq!(
        by_value,
        json!({"address": null, "extra": {"a": [1, 2]}, "renewed": renewed})
    );
    let same = a.diff(&a).unwrap();
    assert_eq!(
        same.as_value(),
        &json!({"extra": {"a": [1, 2], "b": "x"}, "renewed": renewed})
    );
    let mut n = b.clone();
    n.normalize(Some(&a));
    assert_eq!(n, b);
    assert!(b.validate().is_ok());
}
