//! Typed patches (`T::Patch`) of every kind of the shipped manifests, against the `Value`
//! engine, on random patches with every directive (the generator of `support/patches.rs`):
//!
//! - a patch read into its typed form writes the same patch back: `from_value(to_value(p)) == p`;
//! - applying the typed patch (`apply_patch`) gives what applying its JSON gives (`apply`), or
//!   fails where that fails, leaving the object unchanged;
//! - a patch the typed form refuses is one the format (or the Rust type) does not allow: a list
//!   item without its merge key, a required field deleted, `$retainKeys` where the field's
//!   strategy is not `retainKeys`, a directive in the wrong place; where the refusal is about the
//!   object (a required field, a key), applying the JSON fails too;
//! - the typed diff (`diff_patch`) is the diff's JSON, typed.

#![cfg(feature = "patch-types")]

#[allow(dead_code)] // each test binary uses a part of it
use std::collections::BTreeMap;

use serde_json::Value;
use smp_core::{Patch, PatchError, StrategicMerge, ValuePatch};

use crate::support::kinds::{self, Check};
use crate::support::patches::{self, Rng};

#[derive(Default)]
struct Stats {
    representable: usize,
    refused: BTreeMap<&'static str, usize>,
    diffs: usize,
}

struct Agrees<'a> {
    patch: Value,
    stats: &'a mut Stats,
}

/// Why a typed patch refused a JSON patch, as a category.
fn category(e: &PatchError) -> &'static str {
    let text = e.to_string();
    match e {
        PatchError::MissingMergeKey { .. } => "item without its merge key",
        PatchError::Deserialize { .. } if text.contains("a required field cannot be deleted") => {
            "required field deleted"
        }
        PatchError::BadDirective { directive, .. } if directive == "$retainKeys" => {
            "$retainKeys where the strategy is not retainKeys"
        }
        PatchError::BadDirective { .. } => "directive where the strategy does not allow it",
        PatchError::WrongType { .. } | PatchError::Deserialize { .. } => "value of the wrong type",
        PatchError::NotAnObjectItem { .. } => "list item that is not an object",
        PatchError::UnknownPatchType { .. } | PatchError::ExplicitMerge { .. } => {
            "a $patch value that is not replace or delete"
        }
        _ => "other",
    }
}

impl Check for Agrees<'_> {
    fn run<T: StrategicMerge + Clone + PartialEq + std::fmt::Debug>(&mut self, doc: &Value) {
        let original: T = serde_json::from_value(doc.clone()).expect("typed");
        let json_patch = Patch::from_value(self.patch.clone()).expect("a patch");
        let mut by_json = original.clone();
        let by_json_result = by_json.apply(&json_patch);
        let typed = match T::Patch::from_value(self.patch.clone()) {
            Ok(typed) => typed,
            Err(e) => {
                let why = category(&e);
                assert_ne!(why, "other", "refused: {e}\npatch: {}", self.patch);
                if matches!(why, "item without its merge key" | "required field deleted") {
                    assert!(
                        by_json_result.is_err(),
                        "the typed form refused ({e}), the JSON applied\npatch: {}",
                        self.patch
                    );
                }
                if std::env::var_os("SMP_SHOW_REFUSED").is_some() {
                    println!("refused ({why}): {e}\n  patch: {}", self.patch);
                }
                *self.stats.refused.entry(why).or_default() += 1;
                return;
            }
        };
        self.stats.representable += 1;
        // The typed form writes what it read.
        let written = typed.to_value().expect("writes");
        let again = T::Patch::from_value(written.clone()).expect("reads its own JSON");
        assert_eq!(again, typed, "patch: {}\nwritten: {written}", self.patch);
        assert_eq!(
            serde_json::to_value(&typed).expect("serializes"),
            written,
            "Serialize writes the patch"
        );
        // Applying it is applying its JSON.
        let mut by_type = original.clone();
        match (by_type.apply_patch(&typed), by_json_result) {
            (Ok(()), Ok(())) => assert_eq!(
                serde_json::to_value(&by_type).expect("serializes"),
                serde_json::to_value(&by_json).expect("serializes"),
                "patch: {}\ntyped: {written}",
                self.patch
            ),
            (Err(_), Err(_)) => assert_eq!(by_type, original, "a failed apply changed the value"),
            (a, b) => panic!(
                "typed patch {a:?}, JSON patch {b:?}\npatch: {}\ntyped: {written}",
                self.patch
            ),
        }
        // The typed diff is the diff's JSON, typed: applying it does what applying that does
        // (which is `by_type`, but where a list repeats a merge key: kubectl's diff collapses
        // such items, and smp's keeps upstream's patch).
        if by_type != original {
            let json = original.diff(&by_type).expect("diffs");
            let diff = original.diff_patch(&by_type).expect("diffs, typed");
            assert_eq!(&diff.to_value().expect("writes"), json.as_value());
            let (mut a, mut b) = (original.clone(), original.clone());
            // Both fail where the diff says what apply refuses (a `$patch` member inside an
            // opaque value: the diff deletes it with `"$patch": null`).
            let (ra, rb) = (a.apply_patch(&diff), b.apply(&json));
            assert_eq!(ra.is_ok(), rb.is_ok(), "diff {json}: {ra:?} {rb:?}");
            assert_eq!(a, b, "diff {json}");
            self.stats.diffs += 1;
        }
    }
}

#[test]
fn typed_patches_agree_with_their_json_on_random_patches() {
    let cases: usize = std::env::var("SMP_TYPES_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let mut rng = Rng(0x7a7c_0029);
    let mut stats = Stats::default();
    let mut total = 0;
    for (name, doc) in crate::support::manifests::all() {
        let kind = smp_types::lookup(
            doc["apiVersion"].as_str().unwrap_or_default(),
            doc["kind"].as_str().unwrap_or_default(),
        )
        .unwrap_or_else(|| panic!("{name}: unknown kind"));
        for _ in 0..cases {
            let patch = patches::patch(&mut rng, &doc, kind.schema());
            let mut check = Agrees {
                patch: patch.clone(),
                stats: &mut stats,
            };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                assert!(kinds::dispatch(&doc, &mut check));
            }));
            if let Err(e) = result {
                eprintln!("{name}: patch {patch}");
                std::panic::resume_unwind(e);
            }
            total += 1;
        }
    }
    println!(
        "{total} random patches: {} typed and agreeing ({} typed diffs back), refused: {:?}",
        stats.representable, stats.diffs, stats.refused
    );
    assert!(
        stats.representable * 2 >= total,
        "only {} of {total} random patches have a typed form: {:?}",
        stats.representable,
        stats.refused
    );
}
