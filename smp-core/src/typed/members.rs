//! Grouping a patch object by the member each key concerns.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::apply::Path;
use crate::apply::directive::{
    self, DELETE_FROM_PRIMITIVE_LIST, PATCH, RETAIN_KEYS, SET_ELEMENT_ORDER,
};
use crate::error::PatchError;
use crate::hash::KeyedState;

/// What a patch object says about one member: its value, and whether list directives of the
/// parent (`$setElementOrder/<name>`, `$deleteFromPrimitiveList/<name>`) target it.
#[derive(Clone, Copy)]
pub struct Member<'p> {
    /// The member's JSON name.
    pub name: &'p str,
    /// The member's value in the patch, if the patch has one.
    pub value: Option<&'p Value>,
    /// Whether a list directive of the parent targets this member.
    pub directed: bool,
    /// The whole parent patch object (the engine fallback reads the directives from it).
    pub patch: &'p Map<String, Value>,
}

/// The members a patch object concerns, each once. Whole-object directives (`$patch`,
/// `$retainKeys`) are not members; callers check for them first.
pub fn members<'p>(
    patch: &'p Map<String, Value>,
    path: &Path<'_>,
) -> Result<Vec<Member<'p>>, PatchError> {
    let mut out: Vec<Member<'p>> = Vec::with_capacity(patch.len());
    // Where each member is in `out`: a patch may hold many members and their directives.
    let mut at: HashMap<&'p str, usize, KeyedState> =
        HashMap::with_capacity_and_hasher(patch.len(), KeyedState::default());
    for (key, value) in patch {
        let (name, value, directed) = if key == PATCH || key == RETAIN_KEYS {
            continue;
        } else if key.starts_with(SET_ELEMENT_ORDER) {
            (
                directive::target_field(key, SET_ELEMENT_ORDER, path)?,
                None,
                true,
            )
        } else if key.starts_with(DELETE_FROM_PRIMITIVE_LIST) {
            (
                directive::target_field(key, DELETE_FROM_PRIMITIVE_LIST, path)?,
                None,
                true,
            )
        } else {
            (key.as_str(), Some(value), false)
        };
        match at.get(name) {
            Some(&i) => {
                let m = &mut out[i];
                m.directed |= directed;
                m.value = m.value.or(value);
            }
            None => {
                at.insert(name, out.len());
                out.push(Member {
                    name,
                    value,
                    directed,
                    patch,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn groups_directives_with_their_member() {
        let patch = json!({
            "$setElementOrder/ports": [1], "ports": [1], "$deleteFromPrimitiveList/tags": ["a"],
            "image": "x", "$retainKeys": ["image"]
        });
        let map = patch.as_object().unwrap();
        let ms = members(map, &Path::root()).unwrap();
        let find = |n: &str| ms.iter().find(|m| m.name == n).copied().unwrap();
        assert!(find("ports").directed && find("ports").value.is_some());
        assert!(find("tags").directed && find("tags").value.is_none());
        assert!(!find("image").directed);
        assert_eq!(ms.len(), 3);
        let bad = json!({"$setElementOrder": []});
        assert!(members(bad.as_object().unwrap(), &Path::root()).is_err());
    }
}
