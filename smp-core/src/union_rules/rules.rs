//! The KEP-1027 rules for one union, shared by the `Value` engine and the generated typed
//! code: both only gather facts (which members are set, what the discriminator says) and let
//! these functions decide, so the two paths cannot drift apart.

use serde_core::Serialize;
use serde_json::Value;

use crate::error::{JsonPath, Segment};
use crate::schema::{UnionDef, str_eq};

use super::UnionError;

/// What normalization does to one union.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Decision {
    /// `Some(keep)`: clear every member but `keep` (`None`: clear them all).
    pub keep_only: Option<Option<usize>>,
    /// Set the discriminator to the value of this member.
    pub discriminator: Option<usize>,
}

impl Decision {
    /// Whether member `i` is to be cleared.
    pub fn clears(&self, i: usize) -> bool {
        matches!(self.keep_only, Some(keep) if keep != Some(i))
    }
}

/// Decides how to normalize a union, from the discriminator and the set members of the new
/// object and of the old one (`old_set` all false when there is no old object).
///
/// The KEP's process, in order:
/// 1. the discriminator changed to a non-empty value: keep only the member it selects (none
///    for a "Nothing" value);
/// 2. otherwise exactly one member is set: the discriminator follows it;
/// 3. otherwise exactly one member is newly set: it wins, the discriminator follows it, the
///    others are cleared;
/// 4. otherwise (several newly set, or several set and none new) nothing changes and
///    validation reports the union.
///
/// An empty or removed discriminator does not count as a change (as in structured-merge-diff):
/// an old client that drops a field it does not know must not lose every member.
pub fn decide(
    def: &UnionDef,
    new_discriminator: Option<&str>,
    old_discriminator: Option<&str>,
    new_set: &[bool],
    old_set: &[bool],
) -> Decision {
    let new_d = new_discriminator.filter(|d| !d.is_empty());
    let old_d = old_discriminator.filter(|d| !d.is_empty());
    let has_discriminator = def.discriminator.is_some();
    if let (true, Some(d)) = (has_discriminator, new_d) {
        if new_d != old_d {
            return Decision {
                keep_only: Some(def.selected(d)),
                discriminator: None,
            };
        }
    }
    let follow = |i: usize| has_discriminator.then_some(i);
    let mut set = (0..new_set.len()).filter(|&i| new_set[i]);
    let (first, second) = (set.next(), set.next());
    match (first, second) {
        (Some(only), None) => Decision {
            keep_only: None,
            discriminator: follow(only),
        },
        (Some(_), Some(_)) => {
            let mut added = (0..new_set.len())
                .filter(|&i| new_set[i] && !old_set.get(i).copied().unwrap_or(false));
            match (added.next(), added.next()) {
                (Some(winner), None) => Decision {
                    keep_only: Some(Some(winner)),
                    discriminator: follow(winner),
                },
                _ => Decision::default(),
            }
        }
        _ => Decision::default(),
    }
}

/// Validates one union: at most one member set, and a non-empty discriminator agreeing with
/// the member that is set. Errors go to `out` with the path of the object holding the union.
pub fn check_union(
    def: &UnionDef,
    discriminator: Option<&str>,
    set: &[bool],
    path: &[Segment],
    out: &mut Vec<UnionError>,
) {
    let names = |i: usize| def.members.get(i).map(|m| m.field.to_string());
    let set_members: Vec<usize> = (0..set.len()).filter(|&i| set[i]).collect();
    match set_members.as_slice() {
        [] => {}
        [only] => {
            let (Some(field), Some(value)) = (&def.discriminator, discriminator) else {
                return;
            };
            let Some(member) = def.members.get(*only) else {
                return;
            };
            if !value.is_empty() && member.discriminated_by != value {
                out.push(UnionError::Mismatch {
                    path: JsonPath(path.to_vec()),
                    discriminator: field.to_string(),
                    value: value.to_owned(),
                    member: member.field.to_string(),
                });
            }
        }
        several => out.push(UnionError::MultipleMembers {
            path: JsonPath(path.to_vec()),
            members: several.iter().filter_map(|&i| names(i)).collect(),
        }),
    }
}

/// The path step of a list item: `[key=value]` when the list is merged by a key the item has,
/// its position otherwise.
pub fn member_path(merge_key: Option<&str>, key_value: Option<&Value>, index: usize) -> Segment {
    match (merge_key, key_value) {
        (Some(key), Some(value)) if !value.is_null() => Segment::Keyed {
            key: key.to_owned(),
            value: match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            },
        },
        _ => Segment::Index(index),
    }
}

/// A field's JSON form, to pair list items by merge key.
pub fn key_of<T: Serialize + ?Sized>(value: &T) -> Option<Value> {
    serde_json::to_value(value).ok()
}

/// Whether a discriminator type can hold `value` (`values` is `None` for open string types).
/// A `const fn`, so the derive checks each member's discriminated value against a string enum
/// at compile time.
pub const fn discriminator_accepts(values: Option<&[&str]>, value: &str) -> bool {
    let Some(values) = values else {
        return true;
    };
    let mut i = 0;
    while i < values.len() {
        if str_eq(values[i], value) {
            return true;
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::UnionMember;

    static MEMBERS: [UnionMember; 2] = [UnionMember::new("a", "A"), UnionMember::new("b", "B")];
    static WITH: UnionDef = UnionDef::new(Some("type"), &MEMBERS);
    static WITHOUT: UnionDef = UnionDef::new(None, &MEMBERS);

    #[test]
    fn changed_discriminator_keeps_the_selected_member() {
        let d = decide(&WITH, Some("B"), Some("A"), &[true, true], &[true, false]);
        assert_eq!(d.keep_only, Some(Some(1)));
        assert!(d.clears(0) && !d.clears(1));
        let nothing = decide(
            &WITH,
            Some("None"),
            Some("A"),
            &[true, false],
            &[true, false],
        );
        assert_eq!(nothing.keep_only, Some(None));
    }

    #[test]
    fn removed_discriminator_is_not_a_change() {
        let d = decide(&WITH, None, Some("A"), &[true, false], &[true, false]);
        assert_eq!(
            d,
            Decision {
                keep_only: None,
                discriminator: Some(0)
            }
        );
        let empty = decide(&WITH, Some(""), Some("A"), &[false, true], &[true, false]);
        assert_eq!(empty.discriminator, Some(1));
    }

    #[test]
    fn one_new_member_wins_several_do_not() {
        let d = decide(&WITHOUT, None, None, &[true, true], &[true, false]);
        assert_eq!(
            d,
            Decision {
                keep_only: Some(Some(1)),
                discriminator: None
            }
        );
        assert_eq!(
            decide(&WITHOUT, None, None, &[true, true], &[false, false]),
            Decision::default()
        );
        assert_eq!(
            decide(&WITHOUT, None, None, &[true, true], &[true, true]),
            Decision::default()
        );
    }

    #[test]
    fn accepts() {
        assert!(discriminator_accepts(None, "x"));
        assert!(discriminator_accepts(Some(&["A", "B"]), "B"));
        assert!(!discriminator_accepts(Some(&["A", "B"]), "C"));
    }
}
