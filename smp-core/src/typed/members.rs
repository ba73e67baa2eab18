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
    // Where each member is in `out`, once a lookup is needed in a long list. Plain keys of a
    // JSON object are distinct, so only directives, and keys after a directive, look up.
    let mut index: Option<HashMap<&'p str, usize, KeyedState>> = None;
    let mut after_directive = false;
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
        after_directive |= directed;
        let found = if after_directive {
            position(&out, &mut index, name)
        } else {
            None
        };
        match found {
            Some(i) => {
                let m = &mut out[i];
                m.directed |= directed;
                m.value = m.value.or(value);
            }
            None => {
                if let Some(index) = &mut index {
                    index.insert(name, out.len());
                }
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

/// Lists at most this long are searched linearly: most patch objects name a few members, and a
/// hash map would cost more than it saves.
const LINEAR_LIMIT: usize = 16;

/// The position of member `name` in `out`, building `index` once `out` is long.
fn position<'p>(
    out: &[Member<'p>],
    index: &mut Option<HashMap<&'p str, usize, KeyedState>>,
    name: &str,
) -> Option<usize> {
    if index.is_none() && out.len() > LINEAR_LIMIT {
        let mut map = HashMap::with_capacity_and_hasher(out.len() * 2, KeyedState::default());
        for (i, m) in out.iter().enumerate() {
            map.insert(m.name, i);
        }
        *index = Some(map);
    }
    match index {
        Some(index) => index.get(name).copied(),
        None => out.iter().position(|m| m.name == name),
    }
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

    /// Past the linear limit the lookup goes through the index; the grouping is the same.
    #[test]
    fn long_patches_group_alike() {
        for n in [3, LINEAR_LIMIT, LINEAR_LIMIT + 1, 100] {
            let mut map = Map::new();
            for i in 0..n {
                map.insert(format!("f{i:03}"), json!([i]));
                if i % 3 == 0 {
                    map.insert(format!("$setElementOrder/f{i:03}"), json!([i]));
                }
                if i % 5 == 0 {
                    map.insert(format!("$deleteFromPrimitiveList/g{i:03}"), json!([i]));
                }
            }
            let ms = members(&map, &Path::root()).unwrap();
            let names: std::collections::BTreeSet<&str> = ms.iter().map(|m| m.name).collect();
            assert_eq!(names.len(), ms.len(), "each member once, n = {n}");
            for m in &ms {
                let i: usize = m.name[1..].parse().unwrap();
                let plain = m.name.starts_with('f');
                assert_eq!(m.value.is_some(), plain, "{}", m.name);
                assert_eq!(m.directed, !plain || i % 3 == 0, "{}", m.name);
            }
            assert_eq!(ms.len(), n + n.div_ceil(5));
        }
    }
}
