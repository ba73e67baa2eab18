//! `$retainKeys`, which only fields with patch strategy `retainKeys` (and the items of
//! `merge,retainKeys` lists) may carry: their patch type is [`Retain<P>`](Retain), and no other
//! patch type can hold the directive.

use serde_json::Value;

use super::{ValuePatch, wrong_type};
use crate::apply::Path;
use crate::error::PatchError;

/// Which keys `$retainKeys` lists.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum RetainKeys {
    /// No `$retainKeys`: a plain merge.
    #[default]
    None,
    /// The keys the patch sets to a value, computed when the patch is written: the object
    /// keeps exactly what the patch says (DeploymentStrategy `type: Recreate` drops
    /// `rollingUpdate`).
    Set,
    /// These keys.
    Listed(Vec<String>),
}

/// The patch of an object whose field has patch strategy `retainKeys`: the object's patch, and
/// the keys to retain (`$retainKeys`). Keys of the object that are not listed are cleared.
#[derive(Debug, Clone, Default)]
pub struct Retain<P> {
    /// The patch of the object.
    pub patch: P,
    /// What `$retainKeys` lists.
    pub keys: RetainKeys,
}

impl<P> Retain<P> {
    /// `patch`, retaining the keys it sets.
    pub fn set_keys(patch: P) -> Retain<P> {
        Retain {
            patch,
            keys: RetainKeys::Set,
        }
    }

    /// Edits the object's patch.
    pub fn merge(mut self, f: impl FnOnce(P) -> P) -> Self {
        self.patch = f(self.patch);
        self
    }

    /// Retains the keys the patch sets (computed when it is written).
    pub fn retain_set_keys(mut self) -> Self {
        self.keys = RetainKeys::Set;
        self
    }

    /// Retains these keys.
    pub fn retain_keys<K: Into<String>>(mut self, keys: impl IntoIterator<Item = K>) -> Self {
        self.keys = RetainKeys::Listed(keys.into_iter().map(Into::into).collect());
        self
    }
}

impl<P> From<P> for Retain<P> {
    /// A plain merge, without `$retainKeys`.
    fn from(patch: P) -> Retain<P> {
        Retain {
            patch,
            keys: RetainKeys::None,
        }
    }
}

impl<P: ValuePatch> Retain<P> {
    /// The keys `$retainKeys` will list, `None` without the directive.
    pub fn retained(&self) -> Result<Option<Vec<String>>, PatchError> {
        Ok(match &self.keys {
            RetainKeys::None => None,
            RetainKeys::Listed(keys) => Some(keys.clone()),
            RetainKeys::Set => Some(set_keys(&self.patch.write_value(&Path::root())?)),
        })
    }
}

/// The keys an object patch sets to a value (not `null`, not a directive), sorted.
fn set_keys(object: &Value) -> Vec<String> {
    object
        .as_object()
        .map(|map| {
            map.iter()
                .filter(|(k, v)| !k.starts_with('$') && !v.is_null())
                .map(|(k, _)| k.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// Two patches are equal when they write the same JSON: `Set` equals the list it stands for.
impl<P: ValuePatch + PartialEq> PartialEq for Retain<P> {
    fn eq(&self, other: &Self) -> bool {
        self.patch == other.patch
            && match (self.retained(), other.retained()) {
                (Ok(a), Ok(b)) => a == b,
                _ => self.keys == other.keys,
            }
    }
}

impl<P: ValuePatch> ValuePatch for Retain<P> {
    fn write_value(&self, path: &Path<'_>) -> Result<Value, PatchError> {
        let mut value = self.patch.write_value(path)?;
        let keys = match &self.keys {
            RetainKeys::None => return Ok(value),
            RetainKeys::Listed(keys) => keys.clone(),
            RetainKeys::Set => set_keys(&value),
        };
        match &mut value {
            Value::Object(map) => {
                map.insert(
                    "$retainKeys".to_owned(),
                    Value::Array(keys.into_iter().map(Value::String).collect()),
                );
                Ok(value)
            }
            other => Err(wrong_type(path, "object", other)),
        }
    }

    fn read_value(mut value: Value, path: &Path<'_>) -> Result<Self, PatchError> {
        let keys = match value.as_object_mut().and_then(|m| m.remove("$retainKeys")) {
            None => RetainKeys::None,
            Some(Value::Array(keys)) => RetainKeys::Listed(
                keys.into_iter()
                    .map(|k| match k {
                        Value::String(s) => Ok(s),
                        _ => Err(PatchError::BadDirective {
                            path: path.field("$retainKeys").to_json_path(),
                            directive: "$retainKeys".to_owned(),
                            expected: "a list of strings",
                        }),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            Some(_) => {
                return Err(PatchError::BadDirective {
                    path: path.field("$retainKeys").to_json_path(),
                    directive: "$retainKeys".to_owned(),
                    expected: "a list of strings",
                });
            }
        };
        Ok(Retain {
            patch: P::read_value(value, path)?,
            keys,
        })
    }
}
