//! Two-way patch creation (`smp_core::diff`, upstream `CreateTwoWayMergePatch`) on arbitrary
//! documents, untyped and with the fuzz schema (`common::typed`: lists merged by key, sets,
//! `retainKeys`, recommended keys).
//!
//! Checks: no panic, stack overflow or abort (errors are fine), and the defining property of a
//! two-way patch, for patches created with `PatchMergeKey::Emit`: when `diff(a, b)` succeeds, `apply(a, diff(a, b))` succeeds and equals `b`,
//! asserted only where it must hold (`common::diff_must_round_trip`: no nulls, no `$` member
//! names, distinct keys in merged lists). Each pair is tried both ways, `a` to `b` and `b` to
//! `a`.
//!
//! Input layout: `a`, a NUL byte, `b` (no NUL: `a` is empty, i.e. `{}`).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use smp_core::{DiffOptions, DocRole, Node, PatchMergeKey, Schema};

fuzz_target!(|data: &[u8]| {
    let Some([a, b]) =
        common::parse_all(common::split(data), [DocRole::Original, DocRole::Modified])
    else {
        return;
    };
    for (name, schema) in common::schemas() {
        check(&a, &b, name, schema);
        check(&b, &a, name, schema);
    }
});

fn check(a: &Value, b: &Value, name: &str, schema: &Schema) {
    // The default patch is kubectl's (lists merge by their merge key alone, and items that
    // share one collapse, as upstream's do): no panic is all it owes. The round trip is
    // asserted on patches that use the recommended keys, whose identities
    // `diff_must_round_trip` checks.
    if let Ok(patch) = smp_core::diff(a, b, schema) {
        let _ = smp_core::apply(a, &patch, schema);
    }
    let emit = DiffOptions {
        patch_merge_key: PatchMergeKey::Emit,
        ..DiffOptions::default()
    };
    let Ok(patch) = smp_core::diff_with(a, b, schema, &emit) else {
        return;
    };
    if !common::diff_must_round_trip(a, b, Node::from(schema)) {
        let _ = smp_core::apply(a, &patch, schema);
        return;
    }
    match smp_core::apply(a, &patch, schema) {
        Ok(applied) => assert!(
            applied == common::root(b),
            "{name}: apply(a, diff(a, b)) != b\n a: {a}\n b: {b}\n patch: {patch}\n got: {applied}"
        ),
        Err(e) => panic!(
            "{name}: the created patch does not apply: {e}\n a: {a}\n b: {b}\n patch: {patch}"
        ),
    }
}
