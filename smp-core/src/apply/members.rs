//! Finding an object's member by name.
//!
//! `Map::get` compares the name with each key it passes in order, a `memcmp` call each. The
//! objects of a Kubernetes document mostly have a dozen members or fewer, and their names differ
//! in length more often than not: a scan that compares lengths first and short names in place
//! finds a member in less time than the search. Larger objects are searched.

use serde_json::{Map, Value};

use crate::json_text::same_bytes;

/// Objects with at most this many members are scanned; larger ones searched.
const SCAN_LIMIT: usize = 16;

/// The member called `name`.
pub(crate) fn get<'v>(map: &'v Map<String, Value>, name: &str) -> Option<&'v Value> {
    if map.len() > SCAN_LIMIT {
        return map.get(name);
    }
    map.iter()
        .find(|(k, _)| same_bytes(k.as_bytes(), name.as_bytes()))
        .map(|(_, v)| v)
}

/// The member called `name`, to change.
pub(crate) fn get_mut<'v>(map: &'v mut Map<String, Value>, name: &str) -> Option<&'v mut Value> {
    if map.len() > SCAN_LIMIT {
        return map.get_mut(name);
    }
    map.iter_mut()
        .find(|(k, _)| same_bytes(k.as_bytes(), name.as_bytes()))
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn scans_and_searches_find_the_same_members() {
        for n in [0, 3, SCAN_LIMIT, SCAN_LIMIT + 1, 40] {
            let mut object = Map::new();
            for i in 0..n {
                object.insert(format!("k{}", "x".repeat(i)), json!(i));
            }
            let mut object = Value::Object(object);
            let map = object.as_object_mut().unwrap();
            for i in 0..n + 2 {
                let name = format!("k{}", "x".repeat(i));
                assert_eq!(get(map, &name), map.get(&name).cloned().as_ref());
                assert_eq!(
                    get_mut(map, &name).map(|v| v.clone()),
                    map.get(&name).cloned()
                );
            }
        }
    }
}
