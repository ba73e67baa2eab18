//! The table of `tests/data/jsonpatch/cases.json`: the library's own test cases and the edge
//! cases read off its code, each with the answer the library gives.

use serde_json::Value;

use super::{Limits, PatchError, apply_to, merge, node};

fn cases() -> Value {
    let text = include_str!("../../tests/data/jsonpatch/cases.json");
    serde_json::from_str(text).expect("the table is JSON")
}

fn text<'a>(case: &'a Value, key: &str) -> Option<&'a str> {
    case.get(key).and_then(Value::as_str)
}

#[test]
fn json_patch_table() {
    let table = cases();
    let cases = table["json_patch"].as_array().expect("json_patch cases");
    assert!(cases.len() > 100);
    for case in cases {
        let name = text(case, "name").unwrap_or("?");
        let doc = match (text(case, "doc"), case.get("stored")) {
            (Some(doc), _) => node::parse(doc).expect("the case's document is JSON"),
            (None, Some(stored)) => node::Node::from_value(stored),
            (None, None) => panic!("{name}: no document"),
        };
        let limits = Limits {
            max_copy_bytes: case
                .get("copy_limit")
                .and_then(Value::as_u64)
                .unwrap_or(Limits::default().max_copy_bytes),
            ..Limits::default()
        };
        let got = apply_to(doc, text(case, "patch").expect("a patch"), &limits);
        let expected = if let Some(result) = case.get("result") {
            Ok(result.clone())
        } else if let Some(message) = text(case, "error") {
            Err(PatchError::Failed(message.to_owned()))
        } else if let Some(message) = text(case, "malformed") {
            Err(PatchError::Malformed(message.to_owned()))
        } else {
            assert_eq!(case["crash"], true, "{name}: no expectation");
            Err(PatchError::Crash)
        };
        assert_eq!(got, expected, "{name}");
    }
}

#[test]
fn merge_patch_table() {
    let table = cases();
    let cases = table["merge_patch"].as_array().expect("merge_patch cases");
    assert!(cases.len() > 30);
    for case in cases {
        let name = text(case, "name").unwrap_or("?");
        let doc: Value =
            serde_json::from_str(text(case, "doc").expect("a document")).expect("JSON");
        let got = merge(&doc, text(case, "patch").expect("a patch"));
        let expected = match (case.get("result"), text(case, "error")) {
            (Some(result), _) => Ok(result.clone()),
            (None, Some(message)) => Err(PatchError::Malformed(message.to_owned())),
            (None, None) => panic!("{name}: no expectation"),
        };
        assert_eq!(got, expected, "{name}");
    }
}

#[test]
fn the_operation_limit() {
    let patch = format!(
        "[{}]",
        [r#"{"op":"test","path":"/a","value":1}"#; 3].join(",")
    );
    let limits = Limits {
        max_operations: 2,
        ..Limits::default()
    };
    let doc = serde_json::json!({"a": 1});
    assert_eq!(
        super::apply(&doc, &patch, &limits),
        Err(PatchError::TooManyOperations { limit: 2, count: 3 })
    );
    assert!(super::apply(&doc, &patch, &Limits::default()).is_ok());
}

#[test]
fn strict_reading() {
    use super::strict_problems;
    assert_eq!(
        strict_problems(r#"[{"op":"add","pathz":"/a","value":1}, null]"#),
        Ok(vec![r#"json patch unknown field "pathz""#.to_owned()])
    );
    assert_eq!(
        strict_problems(r#"[{"op":5}]"#),
        Err(
            "json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string"
                .into()
        )
    );
    assert_eq!(
        strict_problems(r#"{"op":"add"}"#),
        Err("json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp".into())
    );
}
