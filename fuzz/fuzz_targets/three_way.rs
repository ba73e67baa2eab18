//! Three-way patch creation (`smp_core::three_way`, the `kubectl apply` patch, upstream
//! `CreateThreeWayMergePatch`) on arbitrary documents, untyped and with the fuzz schema
//! (`common::typed`), overwriting and not.
//!
//! Checks: no panic, stack overflow or abort (errors, conflicts included, are fine), and two
//! properties that follow from the documented contract:
//!
//! * `overwrite` only decides whether conflicts are checked: when `overwrite = false` gives a
//!   patch, `overwrite = true` gives the same patch.
//! * With `current == original` (bit 0 of the first byte) nobody else changed anything, so the
//!   three-way patch is the two-way one, `diff(original, modified)`; asserted for
//!   `overwrite = true` where the two-way patch must reproduce `modified`
//!   (`common::diff_must_round_trip`), as smp's own property test `check_creation` does.
//!
//! Input layout: one flags byte, then `original`, NUL, `modified`, NUL, `current` (missing
//! documents are the leading ones, and empty: `{}`).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use smp_core::{DocRole, Node};

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let roles = [DocRole::Original, DocRole::Modified, DocRole::Current];
    let Some([original, modified, mut current]) = common::parse_all(common::split(rest), roles)
    else {
        return;
    };
    let same_current = flags & 1 == 1;
    if same_current {
        current = original.clone();
    }
    for (name, schema) in common::schemas() {
        let overwrite = smp_core::three_way(
            &original,
            &modified,
            &current,
            schema,
            &smp_core::ThreeWayOptions::default(),
        );
        let careful = smp_core::three_way(
            &original,
            &modified,
            &current,
            schema,
            &smp_core::ThreeWayOptions::refusing_conflicts(),
        );
        if let Ok(patch) = &careful {
            assert!(
                overwrite.as_ref() == Ok(patch),
                "{name}: overwrite=false gave {patch}, overwrite=true {overwrite:?}\n \
                 original: {original}\n modified: {modified}\n current: {current}"
            );
        }
        if same_current && common::diff_must_round_trip(&original, &modified, Node::from(schema)) {
            let two_way = smp_core::diff(&original, &modified, schema);
            if let Ok(two_way) = two_way {
                assert!(
                    overwrite.as_ref() == Ok(&two_way),
                    "{name}: three_way(a, b, a) != diff(a, b) = {two_way}: {overwrite:?}\n \
                     original: {original}\n modified: {modified}"
                );
            }
        }
    }
});
