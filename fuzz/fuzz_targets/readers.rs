//! The JSON/YAML readers (`smp_core::input::parse_documents` and `parse_document`) on arbitrary
//! text, and the YAML writer (`smp_core::yaml::to_yaml_string`) on what they read.
//!
//! Checks: no panic, stack overflow or abort (errors are fine), and
//!
//! * every error is `PatchError::InvalidDocument` naming the role it was given;
//! * `parse_document` agrees with `parse_documents` (one document: that one; none: `null`;
//!   several: an error);
//! * every document read prints as YAML that reads back as the same value, except that an
//!   integral float that fits i64 reads back as an integer (documented in `smp_core::yaml`'s
//!   resolver: Go prints the float `1.0` as `1`), and prints as JSON (`serde_json::to_string`)
//!   that the strict JSON reader (`smp_core::input::parse_json`) reads back exactly.
//!
//! The input is read as UTF-8 when it is, and always as lossy UTF-8 (invalid sequences become
//! U+FFFD). Input layout: the first byte picks the role (the rest of the input is the text).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use smp_core::input::{parse_document, parse_documents, parse_json};
use smp_core::{DocRole, PatchError};

const ROLES: [DocRole; 5] = [
    DocRole::Original,
    DocRole::Patch,
    DocRole::Modified,
    DocRole::Current,
    DocRole::Schema,
];

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let role = ROLES[usize::from(choice) % ROLES.len()];
    let lossy = String::from_utf8_lossy(rest);
    if let Ok(text) = std::str::from_utf8(rest) {
        check(text, role);
    }
    if matches!(lossy, std::borrow::Cow::Owned(_)) {
        check(&lossy, role);
    }
});

fn check(text: &str, role: DocRole) {
    let docs = parse_documents(text, role);
    let doc = parse_document(text, role);
    for err in [docs.as_ref().err(), doc.as_ref().err()]
        .into_iter()
        .flatten()
    {
        assert!(
            matches!(err, PatchError::InvalidDocument { role: r, .. } if *r == role),
            "{role}: unexpected error {err:?} for {text:?}"
        );
    }
    let Ok(docs) = docs else {
        assert!(
            doc.is_err(),
            "parse_document accepted what parse_documents refused: {text:?}"
        );
        return;
    };
    match docs.as_slice() {
        [] => assert_eq!(doc, Ok(Value::Null), "no document: {text:?}"),
        [one] => assert_eq!(doc.as_ref(), Ok(one), "one document: {text:?}"),
        _ => assert!(doc.is_err(), "several documents: {text:?}"),
    }
    for value in &docs {
        round_trips(value, role);
    }
}

fn round_trips(value: &Value, role: DocRole) {
    let yaml = smp_core::yaml::to_yaml_string(value);
    let back = parse_document(&yaml, role);
    assert!(
        back.as_ref() == Ok(&common::yaml_normalized(value)),
        "YAML round trip: {value}\nprinted as:\n{yaml}\nread back as {back:?}"
    );
    let json = serde_json::to_string(value).expect("a Value always serializes");
    let back = parse_json(&json, role);
    assert!(
        back.as_ref() == Ok(value),
        "JSON round trip: {value}\nprinted as {json}\nread back as {back:?}"
    );
}
