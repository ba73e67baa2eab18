//! Changing a `FieldsV1` document held as a value in place: a manager that lost a few fields
//! keeps its entry, minus those fields, without the whole document being written again.

use serde_json::{Map, Value};

use super::super::set::{Node, Set, siblings};
use super::super::value::maps_are_sorted;

/// Takes the paths of `removed` out of `document`, a `FieldsV1` object in the server's form
/// holding at least them, leaving what [`super::to_value`] writes for the set without them.
/// `false` when a path is not found as written (a key in another form than the server writes
/// it): the document is then left part changed, to be written again whole.
pub(crate) fn remove(document: &mut Value, removed: &Set) -> bool {
    // Keys removed from a map that keeps insertion order would move the others.
    let Value::Object(object) = document else {
        return false;
    };
    if !maps_are_sorted() {
        return false;
    }
    level(object, removed.nodes(), &mut String::new())
}

fn level(object: &mut Map<String, Value>, nodes: &[Node], key: &mut String) -> bool {
    for (node, below) in siblings(nodes) {
        key.clear();
        node.element.write_key(key);
        let Some(Value::Object(inner)) = object.get_mut(key.as_str()) else {
            return false;
        };
        // A key names itself when it holds `"."` or nothing at all.
        let dot = inner.contains_key(".");
        let member = (inner.is_empty() || dot) && !node.member;
        if !below.is_empty() && !level(inner, below, key) {
            return false;
        }
        match (member, inner.len() - usize::from(dot)) {
            // Neither itself nor anything below: gone.
            (false, 0) => {
                key.clear();
                node.element.write_key(key);
                object.remove(key.as_str());
            }
            // Only what is below.
            (false, _) => {
                inner.remove(".");
            }
            // Only itself: `{}`.
            (true, 0) => inner.clear(),
            // Itself and what is below, as it was.
            (true, _) => {}
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fieldpath::{Path, PathElement};
    use serde_json::json;

    use crate::testing::Random;

    fn element(random: &mut Random) -> PathElement {
        match random.below(6) {
            0 => PathElement::key([("name", json!(["a", "b"][random.below(2)]))]),
            1 => PathElement::Value(json!(random.below(3))),
            2 => PathElement::Index(random.below(2) as i64),
            _ => PathElement::field(["a", "b", "c"][random.below(3)]),
        }
    }

    fn set(random: &mut Random, paths: usize) -> Set {
        Set::from_paths((0..paths).map(|_| {
            let mut path = Path::default();
            for _ in 0..=random.below(4) {
                path = path.child(element(random));
            }
            path
        }))
    }

    /// Taking paths out of a document in place leaves what writing the smaller set gives.
    #[test]
    fn removing_in_place_writes_what_the_smaller_set_writes() {
        let mut random = Random(0x2545_f491_4f6c_dd1d);
        for _ in 0..2000 {
            let (n, m) = (1 + random.below(12), random.below(12));
            let all = set(&mut random, n);
            let lost = all.intersection(&set(&mut random, m));
            let kept = all.difference(&lost);
            let mut document = super::super::to_value(&all);
            assert!(remove(&mut document, &lost), "{all:?} less {lost:?}");
            assert_eq!(
                document,
                super::super::to_value(&kept),
                "{all:?} less {lost:?}"
            );
        }
    }

    /// A path that is not in the document as written says so.
    #[test]
    fn a_path_not_found_is_refused() {
        let mut document = json!({"f:a": {}});
        let lost = Set::from_paths([Path::fields(["b"])]);
        assert!(!remove(&mut document, &lost));
    }
}
