//! KEP-1027 unions: every rule and example of the KEP, through the `Value` engine and the
//! typed path, on the three shapes (discriminated `Strategy`, `VolumeSource` without a
//! discriminator, inline `EnvVar`).
//!
//! Every check runs both paths and requires the same answer: `union::normalize` on the JSON
//! form with `T::schema()`, and `Normalize::normalize` on the typed value.

use crate::union_types;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use smp_core::union;
use smp_core::{Normalize, Patch, StrategicMerge, ValidationError};
use union_types::*;

/// `new` normalized against `old` by both paths; returns the common result.
fn normalized<T>(new: Value, old: Option<Value>) -> Value
where
    T: StrategicMerge + Normalize + Serialize + DeserializeOwned,
{
    let mut by_value = new.clone();
    union::normalize(&mut by_value, old.as_ref(), T::schema());
    let mut typed: T = serde_json::from_value(new).unwrap();
    let old_typed: Option<T> = old.map(|o| serde_json::from_value(o).unwrap());
    typed.normalize(old_typed.as_ref());
    let typed = serde_json::to_value(&typed).unwrap();
    assert_eq!(
        by_value, typed,
        "the Value engine and the typed path disagree"
    );
    by_value
}

/// The validation messages of both paths (which must agree).
fn errors<T>(doc: Value) -> Vec<String>
where
    T: StrategicMerge + Normalize + Serialize + DeserializeOwned,
{
    let by_value = union::validate(&doc, T::schema())
        .err()
        .map(ValidationError::into_errors)
        .unwrap_or_default();
    let typed: T = serde_json::from_value(doc).unwrap();
    let typed = typed
        .validate()
        .err()
        .map(ValidationError::into_errors)
        .unwrap_or_default();
    assert_eq!(
        by_value, typed,
        "the Value engine and the typed path disagree"
    );
    by_value.iter().map(ToString::to_string).collect()
}

/// The API-server-like update by both paths: the result, or the error message.
fn update<T>(original: Value, patch: Value) -> Result<Value, String>
where
    T: StrategicMerge
        + Normalize
        + Serialize
        + DeserializeOwned
        + Clone
        + PartialEq
        + std::fmt::Debug,
{
    let by_value =
        union::apply_normalized(&original, &patch, T::schema()).map_err(|e| e.to_string());
    let mut typed: T = serde_json::from_value(original.clone()).unwrap();
    let before = typed.clone();
    let typed = match typed.apply_normalized(&Patch::from_value(patch).unwrap()) {
        Ok(()) => Ok(serde_json::to_value(&typed).unwrap()),
        Err(e) => {
            assert_eq!(typed, before, "a failed update leaves the object unchanged");
            Err(e.to_string())
        }
    };
    assert_eq!(
        by_value, typed,
        "the Value engine and the typed path disagree"
    );
    by_value
}

fn strategy(new: Value, old: Option<Value>) -> Value {
    normalized::<Strategy>(new, old)
}

// ---- "Normalizing on updates", rule by rule, on the discriminated union ---------------------

#[test]
fn changed_discriminator_clears_all_but_the_selected_member() {
    let old = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
    let new = json!({"type": "Recreate", "rollingUpdate": {"maxSurge": 1}, "recreateParams": {"timeoutSeconds": 5}});
    assert_eq!(
        strategy(new, Some(old)),
        json!({"type": "Recreate", "recreateParams": {"timeoutSeconds": 5}})
    );
}

#[test]
fn changed_discriminator_selecting_an_unset_member_clears_everything() {
    let old = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
    let new = json!({"type": "Recreate", "rollingUpdate": {"maxSurge": 1}});
    assert_eq!(strategy(new, Some(old)), json!({"type": "Recreate"}));
}

#[test]
fn unchanged_discriminator_and_exactly_one_member_sets_the_discriminator() {
    let old = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
    let new = json!({"type": "RollingUpdate", "recreateParams": {}});
    assert_eq!(
        strategy(new, Some(old)),
        json!({"type": "Recreate", "recreateParams": {}})
    );
    // No discriminator at all: it is set too.
    assert_eq!(
        strategy(json!({"rollingUpdate": {}}), None),
        json!({"type": "RollingUpdate", "rollingUpdate": {}})
    );
}

#[test]
fn exactly_one_member_added_wins_and_the_others_are_cleared() {
    let old = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
    let new =
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}, "recreateParams": {}});
    assert_eq!(
        strategy(new, Some(old)),
        json!({"type": "Recreate", "recreateParams": {}})
    );
}

#[test]
fn more_than_one_member_added_is_left_for_validation() {
    let old = json!({"type": "Other"});
    let new = json!({"type": "Other", "rollingUpdate": {}, "recreateParams": {}});
    let out = strategy(new.clone(), Some(old));
    assert_eq!(out, new, "left as it is");
    assert_eq!(
        errors::<Strategy>(out),
        ["at (root): more than one member of a union is set: `rollingUpdate`, `recreateParams`"]
    );
}

#[test]
fn several_members_set_and_none_new_is_left_for_validation() {
    let both = json!({"rollingUpdate": {}, "recreateParams": {}});
    assert_eq!(strategy(both.clone(), Some(both.clone())), both);
    assert_eq!(errors::<Strategy>(both).len(), 1);
}

#[test]
fn creation_counts_every_set_member_as_new() {
    // No old object: a discriminator is a change (from nothing), and members are all new.
    assert_eq!(
        strategy(json!({"type": "Recreate", "rollingUpdate": {}}), None),
        json!({"type": "Recreate"})
    );
    let two = json!({"rollingUpdate": {}, "recreateParams": {}});
    assert_eq!(strategy(two.clone(), None), two);
}

#[test]
fn a_removed_or_empty_discriminator_is_not_a_change() {
    // An old client drops the discriminator it does not know; the member it kept stays and
    // the discriminator is put back.
    let old = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
    assert_eq!(
        strategy(json!({"rollingUpdate": {"maxSurge": 2}}), Some(old.clone())),
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 2}})
    );
    assert_eq!(
        strategy(json!({"type": "", "rollingUpdate": {}}), Some(old)),
        json!({"type": "RollingUpdate", "rollingUpdate": {}})
    );
}

#[test]
fn no_member_set_is_valid_at_most_one_not_exactly_one() {
    let doc = json!({"type": "RollingUpdate"});
    assert_eq!(strategy(doc.clone(), None), doc);
    assert!(errors::<Strategy>(doc).is_empty());
}

// ---- "Clearing all the fields": a "Nothing" discriminator value ----------------------------

#[test]
fn nothing_value_clears_every_member() {
    let old = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
    let new = json!({"type": "Nothing", "rollingUpdate": {"maxSurge": 1}});
    assert_eq!(strategy(new, Some(old)), json!({"type": "Nothing"}));
    // With a string enum holding a `Nothing` variant.
    let old = json!({"type": "Alpha", "alpha": 1});
    assert_eq!(
        normalized::<Union2>(json!({"type": "Nothing", "alpha": 1}), Some(old)),
        json!({"type": "Nothing"})
    );
}

// ---- "Backward compatibilities properties": the three dumb clients --------------------------

/// 1. Doesn't know which fields belong to the union: sets a new one, the others get cleared.
#[test]
fn dumb_client_setting_a_new_field() {
    // Discriminated.
    let old = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
    let mut new = old.clone();
    new["recreateParams"] = json!({"timeoutSeconds": 3});
    assert_eq!(
        strategy(new, Some(old)),
        json!({"type": "Recreate", "recreateParams": {"timeoutSeconds": 3}})
    );
    // Without a discriminator.
    let old = json!({"name": "v", "hostPath": {"path": "/a"}});
    let new = json!({"name": "v", "hostPath": {"path": "/a"}, "emptyDir": {}});
    assert_eq!(
        normalized::<Volume>(new, Some(old)),
        json!({"name": "v", "emptyDir": {}})
    );
    // Inline.
    let old = json!({"name": "E", "value": "x"});
    let new = json!({"name": "E", "value": "x", "valueFrom": {"fieldPath": "metadata.name"}});
    assert_eq!(
        normalized::<EnvVar>(new, Some(old)),
        json!({"name": "E", "valueFrom": {"fieldPath": "metadata.name"}})
    );
}

/// 2. Doesn't know the discriminator: changes the field, leaves the discriminator as it is.
#[test]
fn dumb_client_ignoring_the_discriminator() {
    let old = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
    // Replaces the member (PUT without the old member).
    let new = json!({"type": "RollingUpdate", "recreateParams": {}});
    assert_eq!(
        strategy(new, Some(old.clone())),
        json!({"type": "Recreate", "recreateParams": {}})
    );
    // Adds a member (patch merging into the old one).
    let new =
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}, "recreateParams": {}});
    assert_eq!(
        strategy(new, Some(old)),
        json!({"type": "Recreate", "recreateParams": {}})
    );
}

/// 3. Knows the discriminator: changes it without knowing which fields to clear.
#[test]
fn dumb_client_changing_only_the_discriminator() {
    let old = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
    assert_eq!(
        update::<Strategy>(old, json!({"type": "Recreate"})),
        Ok(json!({"type": "Recreate"}))
    );
    let old = json!({"type": "Alpha", "alpha": 1});
    assert_eq!(
        update::<Union2>(old, json!({"type": "Beta", "beta": 2})),
        Ok(json!({"type": "Beta", "beta": 2}))
    );
}

// ---- "Future Work": a patch sending a discriminator and a field it does not select ----------

#[test]
fn patch_with_a_mismatched_discriminator_and_field() {
    let old = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
    // The discriminator changes: the field sent is cleared.
    assert_eq!(
        update::<Strategy>(
            old.clone(),
            json!({"type": "Recreate", "rollingUpdate": {"maxSurge": 2}})
        ),
        Ok(json!({"type": "Recreate"}))
    );
    // It does not change: the discriminator sent is changed.
    assert_eq!(
        update::<Strategy>(
            old,
            json!({"type": "RollingUpdate", "rollingUpdate": null, "recreateParams": {}})
        ),
        Ok(json!({"type": "Recreate", "recreateParams": {}}))
    );
}

// ---- Validation ------------------------------------------------------------------------------

#[test]
fn validation_names_the_path_and_the_members() {
    let doc = json!({
        "strategy": {"rollingUpdate": {}, "recreateParams": {}},
        "volumes": [{"name": "cache", "hostPath": {}, "emptyDir": {}, "configMap": "c"}],
        "containers": [{"name": "nginx", "env": [{"name": "A", "value": "1", "valueFrom": {}}]}],
        "namedStrategies": {"x y": {"type": "Recreate", "rollingUpdate": {}}},
        "atomicSources": [{}, {"emptyDir": {}, "configMap": "c"}]
    });
    assert_eq!(
        errors::<Deployment>(doc),
        [
            "at atomicSources[1]: more than one member of a union is set: `emptyDir`, `configMap`",
            "at containers[name=nginx].env[name=A]: more than one member of a union is set: `value`, `valueFrom`",
            "at namedStrategies[\"x y\"]: discriminator `type` is \"Recreate\" but member `rollingUpdate` is set",
            "at strategy: more than one member of a union is set: `rollingUpdate`, `recreateParams`",
            "at volumes[name=cache]: more than one member of a union is set: `hostPath`, `emptyDir`, `configMap`",
        ]
    );
}

/// Validation is one `std::error::Error` (so `?` works) whose message lists every violation.
#[test]
fn validation_is_one_error_that_lists_every_violation() {
    fn check(doc: &Deployment) -> Result<(), Box<dyn std::error::Error>> {
        doc.validate()?;
        Ok(())
    }
    let doc: Deployment = serde_json::from_value(json!({
        "strategy": {"rollingUpdate": {}, "recreateParams": {}},
        "atomicSources": [{"emptyDir": {}, "configMap": "c"}]
    }))
    .unwrap();
    let err = check(&doc).unwrap_err();
    assert_eq!(
        err.to_string(),
        "at atomicSources[0]: more than one member of a union is set: `emptyDir`, `configMap`; \
         at strategy: more than one member of a union is set: `rollingUpdate`, `recreateParams`"
    );
    let err = doc.validate().unwrap_err();
    assert_eq!(err.errors().len(), 2);
    assert_eq!((&err).into_iter().count(), 2);
    let source = std::error::Error::source(&err).map(ToString::to_string);
    assert_eq!(source, Some(err.errors()[0].to_string()));
    assert!(
        serde_json::from_value::<Deployment>(json!({}))
            .unwrap()
            .validate()
            .is_ok()
    );
}

#[test]
fn a_mismatched_discriminator_is_a_validation_error() {
    assert_eq!(
        errors::<Strategy>(json!({"type": "Recreate", "rollingUpdate": {}})),
        ["at (root): discriminator `type` is \"Recreate\" but member `rollingUpdate` is set"]
    );
    // Normalization repairs it (the discriminator is unchanged, so it follows the member).
    let doc = json!({"type": "Recreate", "rollingUpdate": {}});
    let fixed = strategy(doc.clone(), Some(doc));
    assert!(errors::<Strategy>(fixed).is_empty());
}

// ---- The walk: nested structs, map values, list items paired by merge key -------------------

#[test]
fn list_items_pair_with_the_old_item_of_the_same_merge_key() {
    let old = json!({
        "volumes": [
            {"name": "a", "hostPath": {"path": "/a"}},
            {"name": "b", "emptyDir": {}}
        ],
        "containers": [{"name": "c", "env": [{"name": "X", "value": "1"}]}]
    });
    let new = json!({
        "volumes": [
            // Reordered: pairing is by name, not position.
            {"name": "b", "emptyDir": {}, "configMap": "cm"},
            {"name": "a", "hostPath": {"path": "/a"}, "emptyDir": {}},
            // No partner: both members are new, left for validation.
            {"name": "z", "hostPath": {}, "emptyDir": {}}
        ],
        "containers": [{"name": "c", "env": [{"name": "X", "value": "1", "valueFrom": {}}]}]
    });
    assert_eq!(
        normalized::<Deployment>(new, Some(old)),
        json!({
            "volumes": [
                {"name": "b", "configMap": "cm"},
                {"name": "a", "emptyDir": {}},
                {"name": "z", "hostPath": {}, "emptyDir": {}}
            ],
            "containers": [{"name": "c", "env": [{"name": "X", "valueFrom": {}}]}]
        })
    );
}

#[test]
fn map_values_and_unkeyed_lists() {
    let old = json!({
        "namedStrategies": {"s": {"rollingUpdate": {}}},
        "atomicSources": [{"hostPath": {}}]
    });
    let new = json!({
        "namedStrategies": {"s": {"rollingUpdate": {}, "recreateParams": {}}, "t": {"recreateParams": {}}},
        // Items of a list without a merge key have no old partner.
        "atomicSources": [{"hostPath": {}, "emptyDir": {}}]
    });
    assert_eq!(
        normalized::<Deployment>(new, Some(old)),
        json!({
            "namedStrategies": {
                "s": {"type": "Recreate", "recreateParams": {}},
                "t": {"type": "Recreate", "recreateParams": {}}
            },
            "atomicSources": [{"hostPath": {}, "emptyDir": {}}]
        })
    );
}

// ---- The KEP's Go examples -------------------------------------------------------------------

#[test]
fn kep_examples_declare_the_unions_the_kep_counts() {
    let unions = |node: smp_core::Node<'static>| node.unions().len();
    assert_eq!(unions(TopLevelUnion::schema()), 1, "one embedded union");
    assert_eq!(
        unions(Union::schema()),
        1,
        "one union, two fields and a discriminator"
    );
    assert_eq!(
        unions(Union2::schema()),
        1,
        "one union, two fields and a discriminator"
    );
    assert_eq!(unions(InlinedUnion::schema()), 3, "three embedded unions");
    assert_eq!(unions(TwoGroups::schema()), 2);
    let u = &Union::schema().unions()[0];
    assert_eq!(u.discriminator.as_deref(), Some("unionType"));
    let members: Vec<(&str, &str)> = u
        .members
        .iter()
        .map(|m| (&*m.field, &*m.discriminated_by))
        .collect();
    assert_eq!(members, [("fieldA", "FieldA"), ("fieldB", "FieldB")]);
}

#[test]
fn kep_inlined_union_normalizes_its_three_unions_independently() {
    let old = json!({"name": "n", "field1": 1, "unionType": "FieldA", "fieldA": 1, "type": "Alpha", "alpha": 1});
    let new = json!({
        "name": "n",
        "field1": 1, "field2": 2,
        "unionType": "FieldB", "fieldA": 1, "fieldB": 2,
        "type": "Alpha", "beta": 2
    });
    assert_eq!(
        normalized::<InlinedUnion>(new, Some(old)),
        json!({"name": "n", "field2": 2, "unionType": "FieldB", "fieldB": 2, "type": "Beta", "beta": 2})
    );
    // Through the struct that embeds `Union`, with a `String` discriminator.
    assert_eq!(
        normalized::<TopLevelUnion>(json!({"name": "t", "fieldB": 1}), None),
        json!({"name": "t", "unionType": "FieldB", "fieldB": 1})
    );
}

#[test]
fn inline_groups_are_separate_unions() {
    let old = json!({"a1": 1, "b1": 1});
    let new = json!({"a1": 1, "a2": 2, "b1": 1});
    assert_eq!(
        normalized::<TwoGroups>(new, Some(old)),
        json!({"a2": 2, "b1": 1})
    );
}

#[test]
fn kep_openapi_extension_drives_the_value_engine() {
    // The KEP's `x-kubernetes-unions` for `Union`, loaded from OpenAPI: an untyped object
    // normalizes like the derived type.
    let doc = json!({"definitions": {"Union": {
        "type": "object",
        "properties": {
            "unionType": {"type": "string"},
            "fieldA": {"type": "integer"},
            "fieldB": {"type": "integer"}
        },
        "x-kubernetes-unions": [{
            "discriminator": "unionType",
            "fields-to-discriminateBy": {"fieldA": "FieldA", "fieldB": "FieldB"}
        }]
    }}});
    let schema = smp_core::Schema::from_openapi(&doc, "Union").unwrap();
    smp_core::schema::compare(schema.root(), Union::schema()).unwrap();
    let mut new = json!({"unionType": "FieldA", "fieldA": 1, "fieldB": 2});
    union::normalize(
        &mut new,
        Some(&json!({"unionType": "FieldA", "fieldA": 1})),
        &schema,
    );
    assert_eq!(new, json!({"unionType": "FieldB", "fieldB": 2}));
}

// ---- retainKeys (the seed's examples) and the API-server-like apply ----------------------------

#[test]
fn retain_keys_patches_clear_members_before_normalization() {
    // Example 2 (discriminated): the patch lists the keys to keep.
    let live = json!({"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}});
    let patch = json!({"strategy": {
        "$retainKeys": ["type", "recreateParams"],
        "type": "Recreate",
        "recreateParams": {"timeoutSeconds": 9}
    }});
    let want = json!({"strategy": {"type": "Recreate", "recreateParams": {"timeoutSeconds": 9}}});
    assert_eq!(update::<Deployment>(live.clone(), patch), Ok(want.clone()));
    // The same without `$retainKeys`: plain apply keeps both members, normalization clears.
    let patch = json!({"strategy": {"type": "Recreate", "recreateParams": {"timeoutSeconds": 9}}});
    let plain = smp_core::apply(&live, &patch, Deployment::schema()).unwrap();
    assert_eq!(plain["strategy"]["rollingUpdate"], json!({"maxSurge": 1}));
    assert_eq!(update::<Deployment>(live, patch), Ok(want));
    // Example 3 (inlined union in a merged list).
    let live = json!({"volumes": [{"name": "foo", "emptyDir": {"medium": "Memory"}}]});
    let patch = json!({"volumes": [{"$retainKeys": ["name", "hostPath"], "name": "foo", "hostPath": {"path": "/p"}}]});
    let want = json!({"volumes": [{"name": "foo", "hostPath": {"path": "/p"}}]});
    assert_eq!(update::<Deployment>(live.clone(), patch), Ok(want.clone()));
    let patch = json!({"volumes": [{"name": "foo", "hostPath": {"path": "/p"}}]});
    assert_eq!(update::<Deployment>(live, patch), Ok(want));
}

#[test]
fn plain_apply_does_not_normalize_and_the_server_like_apply_rejects_what_it_cannot_fix() {
    let live = json!({"volumes": [{"name": "v"}]});
    let patch = json!({"volumes": [{"name": "v", "hostPath": {}, "emptyDir": {}}]});
    let mut typed: Deployment = serde_json::from_value(live.clone()).unwrap();
    typed
        .apply(&Patch::from_value(patch.clone()).unwrap())
        .unwrap();
    assert_eq!(typed.volumes[0].source.host_path, Some(HostPath::default()));
    assert_eq!(typed.volumes[0].source.empty_dir, Some(EmptyDir::default()));
    assert_eq!(
        update::<Deployment>(live, patch),
        Err(
            "at volumes[name=v]: more than one member of a union is set: `hostPath`, `emptyDir`"
                .to_owned()
        )
    );
}

// ---- Bad input never panics --------------------------------------------------------------------

#[test]
fn wrong_json_types_are_passed_over() {
    let schema = Deployment::schema();
    let cases = [
        json!({"strategy": "Recreate"}),
        json!({"strategy": {"type": 7, "rollingUpdate": "x", "recreateParams": [1]}}),
        json!({"volumes": {"name": "v"}}),
        json!({"volumes": ["v", null, {"name": ["x"], "hostPath": 1, "emptyDir": 2}]}),
        json!({"containers": [{"name": "c", "env": "FOO=1"}]}),
        json!({"namedStrategies": [1, 2]}),
        json!([1, 2]),
        json!(null),
    ];
    for new in &cases {
        for old in &cases {
            let mut out = new.clone();
            union::normalize(&mut out, Some(old), schema);
            let _ = union::validate(&out, schema);
        }
    }
    // A non-string discriminator reads as absent: the one member set decides it.
    let mut doc = json!({"type": 7, "rollingUpdate": "x", "recreateParams": null});
    union::normalize(&mut doc, None, Strategy::schema());
    assert_eq!(
        doc,
        json!({"type": "RollingUpdate", "rollingUpdate": "x", "recreateParams": null})
    );
}
