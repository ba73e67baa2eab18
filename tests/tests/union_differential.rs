//! Differential property test of typed union normalization against the `Value` engine.
//!
//! For random pairs of objects (old, new) of the union test types, `Normalize::normalize` on
//! the typed values and `union::normalize` on their JSON forms with `T::schema()` must give
//! the same JSON, and `validate` the same errors, before and after normalization. The
//! generators draw names from small sets so that list items often find an old partner by
//! merge key, and members from all combinations.

use crate::union_types;

use std::fmt::Debug;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use smp_core::union;
use smp_core::{Normalize, StrategicMerge};
use union_types::{Deployment, InlinedUnion, TwoGroups};

const DEPLOYMENT_CASES: u32 = 3_000;
const INLINED_CASES: u32 = 1_500;

fn agree<T>(new: &Value, old: Option<&Value>) -> Result<(), TestCaseError>
where
    T: StrategicMerge + Normalize + Serialize + DeserializeOwned + Debug,
{
    let mut typed: T = serde_json::from_value(new.clone()).unwrap();
    let old_typed: Option<T> = old.map(|o| serde_json::from_value(o.clone()).unwrap());
    // Compare on the JSON form of the typed value (what the engine sees).
    let new = serde_json::to_value(&typed).unwrap();
    let old = old_typed.as_ref().map(|o| serde_json::to_value(o).unwrap());
    prop_assert_eq!(
        union::validate(&new, T::schema()),
        typed.validate(),
        "validation before normalization"
    );
    let mut by_value = new.clone();
    union::normalize(&mut by_value, old.as_ref(), T::schema());
    typed.normalize(old_typed.as_ref());
    prop_assert_eq!(
        &serde_json::to_value(&typed).unwrap(),
        &by_value,
        "normalized"
    );
    prop_assert_eq!(
        union::validate(&by_value, T::schema()),
        typed.validate(),
        "validation after normalization"
    );
    Ok(())
}

/// An object with each of `members` present or not.
fn object(members: Vec<(&'static str, BoxedStrategy<Value>)>) -> BoxedStrategy<Value> {
    let parts: Vec<_> = members
        .into_iter()
        .map(|(name, value)| proptest::option::of(value).prop_map(move |v| (name, v)))
        .collect();
    parts
        .prop_map(|parts| {
            let map: Map<String, Value> = parts
                .into_iter()
                .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
                .collect();
            Value::Object(map)
        })
        .boxed()
}

fn one_of(values: &'static [&'static str]) -> BoxedStrategy<Value> {
    proptest::sample::select(values)
        .prop_map(|s| json!(s))
        .boxed()
}

fn small_int() -> BoxedStrategy<Value> {
    (0..3i64).prop_map(|i| json!(i)).boxed()
}

fn strategy() -> BoxedStrategy<Value> {
    object(vec![
        (
            "type",
            one_of(&["RollingUpdate", "Recreate", "Nothing", ""]),
        ),
        ("rollingUpdate", object(vec![("maxSurge", small_int())])),
        (
            "recreateParams",
            object(vec![("timeoutSeconds", small_int())]),
        ),
    ])
}

fn source_members() -> Vec<(&'static str, BoxedStrategy<Value>)> {
    vec![
        ("hostPath", object(vec![("path", one_of(&["/a", "/b"]))])),
        ("emptyDir", object(vec![])),
        ("configMap", one_of(&["x", "y"])),
    ]
}

fn volume() -> BoxedStrategy<Value> {
    (one_of(&["a", "b", "c"]), object(source_members()))
        .prop_map(|(name, mut v)| {
            v["name"] = name;
            v
        })
        .boxed()
}

fn env_var() -> BoxedStrategy<Value> {
    let members = object(vec![
        ("value", one_of(&["1", "2"])),
        ("valueFrom", object(vec![("fieldPath", one_of(&["p"]))])),
    ]);
    (one_of(&["X", "Y"]), members)
        .prop_map(|(name, mut v)| {
            v["name"] = name;
            v
        })
        .boxed()
}

fn container() -> BoxedStrategy<Value> {
    (
        one_of(&["c1", "c2"]),
        proptest::collection::vec(env_var(), 0..3),
    )
        .prop_map(|(name, env)| json!({"name": name, "env": env}))
        .boxed()
}

fn deployment() -> BoxedStrategy<Value> {
    let named = proptest::collection::btree_map(
        proptest::sample::select(&["s", "t"][..]).prop_map(str::to_owned),
        strategy(),
        0..3,
    )
    .prop_map(|m| json!(m))
    .boxed();
    object(vec![
        ("strategy", strategy()),
        (
            "volumes",
            proptest::collection::vec(volume(), 0..4)
                .prop_map(Value::Array)
                .boxed(),
        ),
        (
            "containers",
            proptest::collection::vec(container(), 0..3)
                .prop_map(Value::Array)
                .boxed(),
        ),
        ("namedStrategies", named),
        (
            "atomicSources",
            proptest::collection::vec(object(source_members()), 0..3)
                .prop_map(Value::Array)
                .boxed(),
        ),
    ])
}

fn inlined() -> BoxedStrategy<Value> {
    object(vec![
        ("field1", small_int()),
        ("field2", small_int()),
        ("unionType", one_of(&["FieldA", "FieldB", "Other", ""])),
        ("fieldA", small_int()),
        ("fieldB", small_int()),
        ("type", one_of(&["Alpha", "Beta", "Nothing"])),
        ("alpha", small_int()),
        ("beta", small_int()),
    ])
    .prop_map(|mut v| {
        v["name"] = json!("n");
        v
    })
    .boxed()
}

fn two_groups() -> BoxedStrategy<Value> {
    object(vec![
        ("a1", small_int()),
        ("a2", small_int()),
        ("b1", small_int()),
        ("b2", small_int()),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: DEPLOYMENT_CASES, ..ProptestConfig::default() })]

    #[test]
    fn deployment_typed_equals_value(new in deployment(), old in proptest::option::of(deployment())) {
        agree::<Deployment>(&new, old.as_ref())?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: INLINED_CASES, ..ProptestConfig::default() })]

    #[test]
    fn inlined_unions_typed_equal_value(new in inlined(), old in proptest::option::of(inlined())) {
        agree::<InlinedUnion>(&new, old.as_ref())?;
    }

    #[test]
    fn inline_groups_typed_equal_value(new in two_groups(), old in proptest::option::of(two_groups())) {
        agree::<TwoGroups>(&new, old.as_ref())?;
    }
}
