//! Feeds arbitrary original/patch text through the readers and the apply engine, with no schema
//! and with a small schema that has merge lists. Errors are fine; panics and crashes are not.
//!
//! Input layout: the first byte picks the schema; the rest is `original`, a NUL byte, `patch`
//! (no NUL: the whole rest is the patch and the original is empty).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use smp_core::input::parse_document;
use smp_core::{DocRole, Schema};

/// A recursive type with lists merged by key, a primitive merge list, a `retainKeys` list and a
/// map, enough to reach every list strategy of the engine.
fn typed_schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let doc = json!({
            "openapi": "3.0.0",
            "info": {"title": "fuzz", "version": "v1"},
            "paths": {},
            "components": {"schemas": {"item": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "value": {"type": "string"},
                    "items": {
                        "type": "array",
                        "items": {"$ref": "#/components/schemas/item"},
                        "x-kubernetes-patch-strategy": "merge",
                        "x-kubernetes-patch-merge-key": "name"
                    },
                    "retained": {
                        "type": "array",
                        "items": {"$ref": "#/components/schemas/item"},
                        "x-kubernetes-patch-strategy": "merge,retainKeys",
                        "x-kubernetes-patch-merge-key": "name"
                    },
                    "tags": {
                        "type": "array",
                        "items": {"type": "string"},
                        "x-kubernetes-patch-strategy": "merge"
                    },
                    "plain": {"type": "array", "items": {"$ref": "#/components/schemas/item"}},
                    "replaced": {
                        "allOf": [{"$ref": "#/components/schemas/item"}],
                        "x-kubernetes-patch-strategy": "replace"
                    },
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "child": {"$ref": "#/components/schemas/item"}
                }
            }}}
        });
        Schema::from_openapi(&doc, "item").expect("fuzz schema loads")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let (original, patch) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (&[][..], rest),
    };
    let (Ok(original), Ok(patch)) = (std::str::from_utf8(original), std::str::from_utf8(patch))
    else {
        return;
    };
    let (Ok(original), Ok(patch)) = (
        parse_document(original, DocRole::Original),
        parse_document(patch, DocRole::Patch),
    ) else {
        return;
    };
    let untyped = Schema::untyped();
    let schema = if choice & 1 == 0 {
        &untyped
    } else {
        typed_schema()
    };
    let _: Result<Value, _> = smp_core::apply(&original, &patch, schema);
});
