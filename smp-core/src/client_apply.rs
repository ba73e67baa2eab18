//! Client-side apply: what `kubectl apply` computes before it sends a patch, without the server
//! round trip.
//!
//! `kubectl apply -f desired.yaml` (client-side, the default before server-side apply):
//!
//! 1. reads the live object and, from its `kubectl.kubernetes.io/last-applied-configuration`
//!    annotation, the configuration applied last time (none: nothing to delete);
//! 2. makes the desired object carry the new annotation: the desired object without the
//!    annotation, as compact JSON with sorted keys and a final newline;
//! 3. sends the three-way patch from last-applied, annotated desired and live, with
//!    `--overwrite` (the default): the desired values win over changes others made;
//! 4. the server applies it to the live object.
//!
//! [`client_side_apply`] does all four and returns both the patch (to send, e.g. as kube's
//! `Patch::Strategic`) and the object the server will hold, so a controller can see what its
//! apply will do, or skip it when the patch is empty.

use serde_core::Serialize;
use serde_json::{Map, Value};

use crate::diff::{ThreeWayOptions, three_way};
use crate::error::{DocRole, PatchError};
use crate::patch::Patch;
use crate::schema::Node;

/// The annotation `kubectl apply` keeps the applied configuration in.
pub const LAST_APPLIED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// What a client-side apply sends and what it leads to; `T` is the object's type (JSON by
/// default).
#[derive(Debug, Clone, PartialEq)]
pub struct ClientApply<T = Value> {
    /// The three-way strategic merge patch for the live object, with the annotation update.
    pub patch: Patch,
    /// The live object with the patch applied: what the server will hold (before its own
    /// defaulting and admission).
    pub result: T,
}

/// `{"patch": ..., "result": ...}`, as a derive would write it (written by hand so that
/// smp-core does not need serde's derive, and with it syn, before serde can compile).
impl<T: Serialize> Serialize for ClientApply<T> {
    fn serialize<S: serde_core::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde_core::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("ClientApply", 2)?;
        s.serialize_field("patch", &self.patch)?;
        s.serialize_field("result", &self.result)?;
        s.end()
    }
}

impl<T> ClientApply<T> {
    /// Whether the patch changes nothing (an empty object): the apply can be skipped.
    pub fn is_noop(&self) -> bool {
        matches!(self.patch.as_value(), Value::Object(m) if m.is_empty())
    }
}

/// `kubectl apply` on the client side: the patch that makes `live` what `desired` asks for,
/// deleting what the last applied configuration had and `desired` dropped, and the resulting
/// object. `options` as for [`three_way`]; `kubectl apply` uses the default
/// ([`Conflicts::Overwrite`](crate::Conflicts::Overwrite)).
///
/// Errors: the annotation of `live` is not a JSON object (kubectl fails too), either object is
/// not an object, or the patch fails as in [`three_way`] and [`crate::apply()`].
pub fn client_side_apply<'s>(
    live: &Value,
    desired: &Value,
    schema: impl Into<Node<'s>>,
    options: &ThreeWayOptions,
) -> Result<ClientApply, PatchError> {
    let node = schema.into();
    let mut last = last_applied(live)?.unwrap_or_else(|| Value::Object(Map::new()));
    let modified = annotated(desired)?;
    // The last-applied text never contains itself, so upstream's conflict check sees the
    // annotation changed from "absent" to the live text, and `--overwrite=false` reports a
    // conflict on the annotation at every apply that changes the configuration. Giving the
    // original the live annotation keeps the check on the fields; the patch is the same
    // (the annotation is in `modified`, so it is never deleted).
    if let Some(text) = annotation(live) {
        set_annotation(&mut last, text.clone());
    }
    let patch = three_way(&last, &modified, live, node, options)?;
    let result = crate::apply(live, &patch, node)?;
    Ok(ClientApply {
        patch: Patch::from_value(patch)?,
        result,
    })
}

/// [`client_side_apply`] on typed objects, through their JSON form: for
/// [`StrategicMerge`](crate::StrategicMerge) types (`T::client_side_apply`) and types patched
/// with a schema given at run time (k8s-openapi's, through smp-types).
pub fn client_side_apply_typed<'s, T>(
    live: &T,
    desired: &T,
    schema: impl Into<Node<'s>>,
    options: &ThreeWayOptions,
) -> Result<ClientApply<T>, PatchError>
where
    T: Serialize + serde_core::de::DeserializeOwned,
{
    let at = crate::apply::Path::root();
    let out = client_side_apply(
        &crate::convert::to_value(live, &at)?,
        &crate::convert::to_value(desired, &at)?,
        schema,
        options,
    )?;
    Ok(ClientApply {
        patch: out.patch,
        result: crate::convert::from_value(out.result, &at)?,
    })
}

/// The last-applied annotation of `object`, as it is.
fn annotation(object: &Value) -> Option<&Value> {
    object
        .get("metadata")?
        .get("annotations")?
        .get(LAST_APPLIED_ANNOTATION)
}

/// Sets the last-applied annotation of `object` (an object; its metadata is created as needed).
fn set_annotation(object: &mut Value, text: Value) {
    let Value::Object(root) = object else { return };
    let Value::Object(metadata) = root
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()))
    else {
        return;
    };
    let Value::Object(annotations) = metadata
        .entry("annotations")
        .or_insert_with(|| Value::Object(Map::new()))
    else {
        return;
    };
    annotations.insert(LAST_APPLIED_ANNOTATION.to_owned(), text);
}

/// The configuration last applied to `object`: its annotation, parsed. `None` when there is
/// none (the object was created some other way, or never applied).
pub fn last_applied(object: &Value) -> Result<Option<Value>, PatchError> {
    let Some(text) = annotation(object) else {
        return Ok(None);
    };
    let bad = |detail: String| PatchError::InvalidDocument {
        role: DocRole::Current,
        detail: format!("annotation {LAST_APPLIED_ANNOTATION}: {detail}"),
    };
    let Value::String(text) = text else {
        return Err(bad(format!("expected a string, found {text}")));
    };
    match crate::input::parse_document(text, DocRole::Original) {
        Ok(Value::Object(map)) => Ok(Some(Value::Object(map))),
        Ok(Value::Null) => Ok(None),
        Ok(other) => Err(bad(format!("expected a JSON object, found {other}"))),
        Err(e) => Err(bad(e.to_string())),
    }
}

/// `desired` carrying the annotation `kubectl apply` writes: the text of `desired` without the
/// annotation, as Go's encoder writes it ([`smp_yaml::gojson::to_string`]: compact, keys sorted,
/// `<`, `>` and `&` escaped, floats in Go's form, a final newline). As kubectl does, `metadata.annotations` is present in that text, `{}` when
/// `desired` had none.
pub fn annotated(desired: &Value) -> Result<Value, PatchError> {
    let Value::Object(root) = desired else {
        return Err(PatchError::InvalidDocument {
            role: DocRole::Modified,
            detail: "the desired configuration must be an object".into(),
        });
    };
    let mut plain = root.clone();
    let metadata = plain
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(metadata) = metadata else {
        return Err(PatchError::InvalidDocument {
            role: DocRole::Modified,
            detail: "metadata must be an object".into(),
        });
    };
    let annotations = metadata
        .entry("annotations")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(annotations) = annotations else {
        return Err(PatchError::InvalidDocument {
            role: DocRole::Modified,
            detail: "metadata.annotations must be an object".into(),
        });
    };
    annotations.remove(LAST_APPLIED_ANNOTATION);
    let mut plain = Value::Object(plain);
    let text = smp_yaml::gojson::to_string(&plain);
    set_annotation(&mut plain, Value::String(text));
    Ok(plain)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::schema::TypeDef;

    fn schema() -> Node<'static> {
        Node::of_static(TypeDef::OPAQUE)
    }

    /// The hand-written `Serialize` writes what `#[derive(Serialize)]` would: the two fields by
    /// their names.
    #[test]
    fn serializes_as_its_two_fields() {
        let apply = ClientApply {
            patch: Patch::from_value(json!({"data": {"k": "v"}})).expect("patch"),
            result: json!({"data": {"k": "v"}}),
        };
        assert_eq!(
            serde_json::to_value(&apply).expect("serializes"),
            json!({"patch": {"data": {"k": "v"}}, "result": {"data": {"k": "v"}}})
        );
    }

    #[test]
    fn the_annotation_is_what_kubectl_writes() {
        let desired = json!({"kind": "ConfigMap", "apiVersion": "v1",
                             "metadata": {"name": "a"}, "data": {"k": "<a&b>"}});
        let out = annotated(&desired).expect("annotates");
        assert_eq!(
            out["metadata"]["annotations"][LAST_APPLIED_ANNOTATION],
            json!(
                "{\"apiVersion\":\"v1\",\"data\":{\"k\":\"\\u003ca\\u0026b\\u003e\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"a\"}}\n"
            )
        );
        // An old annotation in the desired object is not nested into the new one.
        let again = annotated(&out).expect("annotates");
        assert_eq!(again, out);
    }

    #[test]
    fn first_apply_then_a_dropped_field_is_deleted() {
        let desired = json!({"metadata": {"name": "a"}, "data": {"k": "1", "old": "x"}});
        // No annotation yet: nothing is deleted, the annotation is added.
        let live = json!({"metadata": {"name": "a", "uid": "u"}, "data": {"k": "0", "other": "y"}});
        let first = client_side_apply(&live, &desired, schema(), &ThreeWayOptions::default())
            .expect("applies");
        assert_eq!(
            first.result["data"],
            json!({"k": "1", "old": "x", "other": "y"})
        );
        assert_eq!(first.result["metadata"]["uid"], json!("u"));
        assert!(first.result["metadata"]["annotations"][LAST_APPLIED_ANNOTATION].is_string());
        // Second apply without `old`: deleted, because the last applied configuration had it;
        // `other`, set by someone else, stays.
        let desired2 = json!({"metadata": {"name": "a"}, "data": {"k": "1"}});
        let second = client_side_apply(
            &first.result,
            &desired2,
            schema(),
            &ThreeWayOptions::default(),
        )
        .expect("applies");
        assert_eq!(second.result["data"], json!({"k": "1", "other": "y"}));
        // Applying the same configuration again changes nothing.
        let third = client_side_apply(
            &second.result,
            &desired2,
            schema(),
            &ThreeWayOptions::default(),
        )
        .expect("applies");
        assert!(third.is_noop(), "{:?}", third.patch);
        assert_eq!(third.result, second.result);
    }

    #[test]
    fn the_annotation_is_not_a_conflict() {
        // Deliberately unlike upstream's check on kubectl's inputs (guide::differences): there, the
        // annotation changed from absent (in the last-applied text) to the live text, and the
        // patch changes it again.
        let refuse = ThreeWayOptions::refusing_conflicts();
        let v1 = json!({"metadata": {"name": "a"}, "data": {"k": "1"}});
        let live = client_side_apply(&json!({}), &v1, schema(), &refuse)
            .expect("first apply")
            .result;
        let v2 = json!({"metadata": {"name": "a"}, "data": {"k": "2"}});
        let last = last_applied(&live).expect("parses").expect("present");
        let upstream = three_way(
            &last,
            &annotated(&v2).expect("annotates"),
            &live,
            schema(),
            &refuse,
        );
        assert!(
            matches!(upstream, Err(PatchError::Conflict { .. })),
            "{upstream:?}"
        );
        let ours = client_side_apply(&live, &v2, schema(), &refuse).expect("no conflict");
        assert_eq!(ours.result["data"], json!({"k": "2"}));
        // And the patch is the one upstream sends with overwrite.
        let overwrite = three_way(
            &last,
            &annotated(&v2).expect("annotates"),
            &live,
            schema(),
            &ThreeWayOptions::default(),
        )
        .expect("patch");
        assert_eq!(ours.patch.as_value(), &overwrite);
    }

    #[test]
    fn a_bad_annotation_is_an_error() {
        let live = json!({"metadata": {"annotations": {LAST_APPLIED_ANNOTATION: "{not json"}}});
        let err = client_side_apply(&live, &json!({}), schema(), &ThreeWayOptions::default())
            .expect_err("bad annotation");
        assert!(err.to_string().contains(LAST_APPLIED_ANNOTATION), "{err}");
        let live = json!({"metadata": {"annotations": {LAST_APPLIED_ANNOTATION: "[1]"}}});
        assert!(last_applied(&live).is_err());
        assert_eq!(last_applied(&json!({"metadata": {}})).expect("none"), None);
    }
}
