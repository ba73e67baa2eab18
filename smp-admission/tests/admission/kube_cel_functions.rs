//! kube-cel's own tests of Kubernetes' CEL libraries (strings, lists, sets, regex, URLs, IP
//! and CIDR, semver, quantity, format, named formats, math, encoders), written down as data in
//! `tests/data/customresource/kube_cel.json` (each case `expr` with the CEL of its expected
//! value, or `error`), run through smp's rule environment: the libraries as kube-cel supplies
//! them, with smp's own `size` and `matches` in place of the `cel` crate's. A case smp answers
//! otherwise than kube-cel's tests expect is listed, with its reason, in
//! `tests/data/customresource/kube_cel_gaps.txt`; the test fails when a listed case passes
//! and when an unlisted one fails.

use crate::common;

use std::path::Path;

use serde_json::Value;
use smp_admission::customresource::cel::evaluate_rule;

fn data_file(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/customresource")
        .join(name)
}

#[test]
fn kube_cel_library_cases() {
    let data: Value =
        serde_json::from_str(&std::fs::read_to_string(data_file("kube_cel.json")).unwrap())
            .unwrap();
    let gaps = common::gaps("customresource/kube_cel_gaps.txt");
    let (mut agree, mut total) = (0, 0);
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    for case in data["cases"].as_array().expect("cases") {
        let expr = case["expr"].as_str().expect("expr");
        total += 1;
        let outcome = match case.get("expect").and_then(Value::as_str) {
            Some(expect) => match evaluate_rule(&format!("({expr}) == ({expect})"), &Value::Null) {
                Ok(true) => Ok(()),
                other => Err(format!("{other:?}")),
            },
            None => match evaluate_rule(expr, &Value::Null) {
                Err(_) => Ok(()),
                Ok(b) => Err(format!("expected an error, got {b}")),
            },
        };
        match (outcome, gaps.contains_key(expr)) {
            (Ok(()), false) => agree += 1,
            (Ok(()), true) => fixed.push(expr.to_owned()),
            (Err(why), false) => unexpected.push(format!("{expr}: {why}")),
            (Err(_), true) => {}
        }
    }
    eprintln!("kube-cel library cases: {agree}/{total} agree");
    assert!(fixed.is_empty(), "listed as gaps but now agree: {fixed:#?}");
    assert!(
        unexpected.is_empty(),
        "disagree with kube-cel's tests: {unexpected:#?}"
    );
}
