//! Feeds arbitrary original/patch text to [`smp_core::apply_json`], which reads the original
//! with its own scanner and copy loop, and checks it against the reference: parse both texts
//! with the strict reader, `apply_owned`, print with serde_json. The two must give the same
//! bytes or the same error, with no schema and with the fuzz schema (`common::typed`).
//!
//! Unlike the other targets, the texts are used as they are (not only when they parse), so
//! the scanner sees every malformed input the fuzzer makes: it must refuse exactly what the
//! reader refuses.
//!
//! Input layout: the first byte picks the schema (bit 0); the rest is `original`, a NUL byte,
//! `patch` (no NUL: the whole rest is the patch and the original is empty).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use smp_core::sparse::apply_json_routed;
use smp_core::{DocRole, PatchError, Schema};

/// The reference: both texts read strictly (the original first, as `apply_json` reports its
/// error first), patched, printed.
fn reference(original: &str, patch: &str, schema: &Schema) -> Result<String, PatchError> {
    let original = smp_core::input::parse_json(original, DocRole::Original)?;
    let patch = smp_core::input::parse_json(patch, DocRole::Patch)?;
    let out = smp_core::apply_owned(original, &patch, schema)?;
    Ok(serde_json::to_string(&out).expect("a Value prints"))
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let [original, patch] = common::split(rest);
    let (Ok(original), Ok(patch)) = (std::str::from_utf8(original), std::str::from_utf8(patch))
    else {
        return;
    };
    let schema = common::schema_of(choice);
    let (got, route) = apply_json_routed(original, patch, schema);
    let want = reference(original, patch, schema);
    match (&got, &want) {
        (Ok(got), Ok(want)) => assert_eq!(got, want, "route {route:?}"),
        (Err(got), Err(want)) => assert_eq!(got.to_string(), want.to_string(), "route {route:?}"),
        _ => panic!("apply_json {got:?} ({route:?}), reference {want:?}"),
    }
});
