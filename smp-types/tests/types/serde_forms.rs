//! The hand-written serde forms of `IntOrString`, `Time` and `MicroTime`.

use serde_json::json;
use smp_types::apimachinery::pkg::apis::meta::v1::{MicroTime, Time};
use smp_types::apimachinery::pkg::util::intstr::IntOrString;
/// Each form reads back as the variant it was written as, and writes out as it was.
#[test]
fn reads_and_writes_either_form() {
    for (text, value) in [
        (json!(8080), IntOrString::Int(8080)),
        (json!(-1), IntOrString::Int(-1)),
        (json!("25%"), IntOrString::String("25%".into())),
        (json!("8080"), IntOrString::String("8080".into())),
    ] {
        let read: IntOrString = serde_json::from_value(text.clone()).expect("reads");
        assert_eq!(read, value);
        assert_eq!(serde_json::to_value(&read).expect("writes"), text);
    }
}

/// What fits neither form is an error that says what was expected.
#[test]
fn refuses_what_fits_neither() {
    for text in [
        json!(4_294_967_296_u64),
        json!(-2_147_483_649_i64),
        json!(1.5),
        json!(true),
        json!(null),
        json!([1]),
    ] {
        let err = serde_json::from_value::<IntOrString>(text.clone()).expect_err("refused");
        assert!(
            err.to_string().contains("a 32-bit integer or a string"),
            "{text}: {err}"
        );
    }
}

/// Timestamps are their text, both ways, and nothing else reads as one.
#[test]
fn timestamps_are_their_text() {
    let t: Time = serde_json::from_value(json!("2026-03-01T10:00:00Z")).expect("reads");
    assert_eq!(t, Time::from("2026-03-01T10:00:00Z"));
    assert_eq!(
        serde_json::to_value(&t).expect("writes"),
        json!("2026-03-01T10:00:00Z")
    );
    let m: MicroTime = serde_json::from_value(json!("2026-03-01T10:00:00.000001Z")).expect("reads");
    assert_eq!(
        serde_json::to_value(&m).expect("writes"),
        json!("2026-03-01T10:00:00.000001Z")
    );
    assert!(serde_json::from_value::<Time>(json!(1)).is_err());
}
