//! Feeds arbitrary original/patch text through the readers and the apply engine, with no schema
//! and with a small schema that has every kind of merged list (`common::typed`). Errors are
//! fine; panics, stack overflows and aborts are findings.
//!
//! Input layout: the first byte picks the schema (bit 0); the rest is `original`, a NUL byte,
//! `patch` (no NUL: the whole rest is the patch and the original is empty).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use smp_core::DocRole;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let Some([original, patch]) =
        common::parse_all(common::split(rest), [DocRole::Original, DocRole::Patch])
    else {
        return;
    };
    let schema = common::schema_of(choice);
    let _ = smp_core::apply(&original, &patch, schema);
});
