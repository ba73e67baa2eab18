//! Field sets against the plainest model of them (a sorted set of paths), and their `FieldsV1`
//! form read back, on random sets of paths with elements of every kind.

use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::json;
use smp_ssa::fieldpath::{Path, PathElement, Set, fields_v1};

fn element() -> impl Strategy<Value = PathElement> {
    prop_oneof![
        4 => prop::sample::select(vec!["a", "b", "spec", "a<b", "x\"y", ""])
            .prop_map(PathElement::field),
        1 => (prop::sample::select(vec!["one", "two"]), 0i64..3).prop_map(|(name, port)| {
            PathElement::key([("name", json!(name)), ("port", json!(port))])
        }),
        1 => prop_oneof![
            (0i64..3).prop_map(|n| json!(n)),
            Just(json!(2.5)),
            prop::sample::select(vec!["s", "t&u"]).prop_map(|s| json!(s)),
            any::<bool>().prop_map(|b| json!(b)),
        ]
        .prop_map(PathElement::Value),
        1 => (0i64..4).prop_map(PathElement::Index),
    ]
}

fn path() -> impl Strategy<Value = Vec<PathElement>> {
    prop::collection::vec(element(), 1..5)
}

fn paths() -> impl Strategy<Value = BTreeSet<Vec<PathElement>>> {
    prop::collection::btree_set(path(), 0..25)
}

fn set_of(paths: &BTreeSet<Vec<PathElement>>) -> Set {
    Set::from_paths(paths.iter().cloned().map(Path))
}

fn model(set: &Set) -> BTreeSet<Vec<PathElement>> {
    set.paths().into_iter().map(|p| p.0).collect()
}

/// Whether `prefix` is `path` or a path above it.
fn covers(prefix: &[PathElement], path: &[PathElement]) -> bool {
    path.len() >= prefix.len() && path[..prefix.len()] == *prefix
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn operations_are_those_of_sets_of_paths(a in paths(), b in paths()) {
        let (sa, sb) = (set_of(&a), set_of(&b));
        prop_assert_eq!(model(&sa), a.clone());
        prop_assert_eq!(sa.len(), a.len());
        prop_assert_eq!(model(&sa.union(&sb)), a.union(&b).cloned().collect());
        prop_assert_eq!(model(&sa.intersection(&sb)), a.intersection(&b).cloned().collect());
        prop_assert_eq!(model(&sa.difference(&sb)), a.difference(&b).cloned().collect());
        let recursive: BTreeSet<_> = a
            .iter()
            .filter(|p| !b.iter().any(|q| covers(q, p)))
            .cloned()
            .collect();
        prop_assert_eq!(model(&sa.recursive_difference(&sb)), recursive);
        let leaves: BTreeSet<_> = a
            .iter()
            .filter(|p| !a.iter().any(|q| q.len() > p.len() && covers(p, q)))
            .cloned()
            .collect();
        prop_assert_eq!(model(&sa.leaves()), leaves);
        for p in &a {
            prop_assert!(sa.has(&Path(p.clone())));
        }
        let mut inserted = Set::new();
        for p in a.iter().rev() {
            inserted.insert(&Path(p.clone()));
        }
        prop_assert_eq!(inserted, sa);
    }

    #[test]
    fn fields_v1_reads_back_what_it_writes(a in paths()) {
        let set = set_of(&a);
        let text = fields_v1::to_string(&set);
        let read = fields_v1::from_str(&text).unwrap();
        prop_assert_eq!(&read, &set);
        prop_assert_eq!(fields_v1::to_string(&read), text.clone());
        let value = serde_json::to_value(&set).unwrap();
        prop_assert_eq!(fields_v1::from_value(&value).unwrap(), set);
        prop_assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), value);
    }
}
