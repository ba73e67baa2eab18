//! The typed side: [`Normalize`] (generated for every derived type, implemented here for the
//! standard containers) and [`Discriminator`] (the types a discriminator field may have).

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use crate::error::Segment;
use crate::hash::{HashedKey, KeyedState};
use crate::patch::Patch;
use crate::typed::StrategicMerge;

use crate::union_rules::finish;
use crate::union_rules::rules::member_path;
use crate::union_rules::{UnionError, UpdateError, ValidationError};

/// Union normalization and validation of a typed value, equal to the `Value` engine's on its
/// JSON form ([`normalize`](crate::union::normalize), [`validate`](crate::union::validate) with
/// `T::schema()`).
///
/// `#[derive(StrategicMerge)]` implements it for every type. A type with a hand-written
/// `PatchField` impl that is used as a field of a derived type needs an impl too; the empty
/// `impl Normalize for MyType {}` is right for anything that holds no unions.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be normalized as a field: it does not implement `smp_core::Normalize`",
    label = "a field of a `#[derive(StrategicMerge)]` type",
    note = "derive `StrategicMerge` on `{Self}` as well: it implements `Normalize` too",
    note = "or, for a type of another crate, mark the field `#[patch(opaque)]` (or `#[patch(k8s_openapi)]` for a k8s-openapi type)"
)]
pub trait Normalize {
    /// Normalizes every union in `self` and below (KEP-1027), against `old`, the object before
    /// the update (`None` on creation: every set member counts as newly set).
    fn normalize(&mut self, old: Option<&Self>) {
        self.normalize_member(old, None);
    }

    /// Checks every union in `self` and below: at most one member set, and a discriminator
    /// that agrees with it. All violations, sorted by path.
    fn validate(&self) -> Result<(), ValidationError> {
        let mut out = Vec::new();
        self.validate_member(None, &mut Vec::new(), &mut out);
        finish(out)
    }

    /// The API server's order of work: apply `patch`, normalize against the object before the
    /// patch, validate. On error `self` is unchanged. [`StrategicMerge::apply`] is the plain,
    /// client-side apply and does none of this.
    fn apply_normalized(&mut self, patch: &Patch) -> Result<(), UpdateError>
    where
        Self: StrategicMerge + Clone,
    {
        let mut new = self.clone();
        StrategicMerge::apply(&mut new, patch)?;
        new.normalize(Some(self));
        new.validate().map_err(UpdateError::Invalid)?;
        *self = new;
        Ok(())
    }

    /// [`Normalize::normalize`] as a field: `merge_key` is the key pairing list items with
    /// their old counterparts (lists merged by a key only).
    #[doc(hidden)]
    fn normalize_member(&mut self, old: Option<&Self>, merge_key: Option<&str>) {
        let _ = (old, merge_key);
    }

    /// [`Normalize::validate`] as a field at `path`.
    #[doc(hidden)]
    fn validate_member(
        &self,
        merge_key: Option<&str>,
        path: &mut Vec<Segment>,
        out: &mut Vec<UnionError>,
    ) {
        let _ = (merge_key, path, out);
    }

    /// Whether the JSON form is `null` (an unset member).
    #[doc(hidden)]
    fn is_null(&self) -> bool {
        false
    }

    /// The JSON form of field `name`, to pair list items by merge key.
    #[doc(hidden)]
    fn key_of(&self, name: &str) -> Option<Value> {
        let _ = name;
        None
    }
}

/// A type a union discriminator may have: a string, or a string enum.
pub trait Discriminator {
    /// The values the type can hold; `None` when any string can be held.
    const VALUES: Option<&'static [&'static str]> = None;

    /// The value as its JSON string; `None` when absent.
    fn discriminator(&self) -> Option<&str>;

    /// The value for a discriminator string; `None` when the type cannot hold it.
    fn from_discriminator(value: &str) -> Option<Self>
    where
        Self: Sized;
}

impl Discriminator for String {
    fn discriminator(&self) -> Option<&str> {
        Some(self)
    }

    fn from_discriminator(value: &str) -> Option<Self> {
        Some(value.to_owned())
    }
}

impl<T: Discriminator> Discriminator for Option<T> {
    const VALUES: Option<&'static [&'static str]> = T::VALUES;

    fn discriminator(&self) -> Option<&str> {
        self.as_ref()?.discriminator()
    }

    fn from_discriminator(value: &str) -> Option<Self> {
        T::from_discriminator(value).map(Some)
    }
}

impl<T: Discriminator> Discriminator for Box<T> {
    const VALUES: Option<&'static [&'static str]> = T::VALUES;

    fn discriminator(&self) -> Option<&str> {
        (**self).discriminator()
    }

    fn from_discriminator(value: &str) -> Option<Self> {
        T::from_discriminator(value).map(Box::new)
    }
}

macro_rules! leaf {
    ($($t:ty),* $(,)?) => {$(
        impl Normalize for $t {}
    )*};
}

leaf!(
    String,
    bool,
    char,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
    serde_json::Number,
);

impl Normalize for Value {
    fn is_null(&self) -> bool {
        self.is_null()
    }
}

impl<T: Normalize> Normalize for Option<T> {
    fn normalize_member(&mut self, old: Option<&Self>, merge_key: Option<&str>) {
        if let Some(v) = self {
            v.normalize_member(old.and_then(Option::as_ref), merge_key);
        }
    }

    fn validate_member(
        &self,
        merge_key: Option<&str>,
        path: &mut Vec<Segment>,
        out: &mut Vec<UnionError>,
    ) {
        if let Some(v) = self {
            v.validate_member(merge_key, path, out);
        }
    }

    fn is_null(&self) -> bool {
        self.as_ref().is_none_or(Normalize::is_null)
    }

    fn key_of(&self, name: &str) -> Option<Value> {
        self.as_ref()?.key_of(name)
    }
}

impl<T: Normalize> Normalize for Box<T> {
    fn normalize_member(&mut self, old: Option<&Self>, merge_key: Option<&str>) {
        (**self).normalize_member(old.map(|o| &**o), merge_key);
    }

    fn validate_member(
        &self,
        merge_key: Option<&str>,
        path: &mut Vec<Segment>,
        out: &mut Vec<UnionError>,
    ) {
        (**self).validate_member(merge_key, path, out);
    }

    fn is_null(&self) -> bool {
        (**self).is_null()
    }

    fn key_of(&self, name: &str) -> Option<Value> {
        (**self).key_of(name)
    }
}

impl<T: Normalize> Normalize for Vec<T> {
    fn normalize_member(&mut self, old: Option<&Self>, merge_key: Option<&str>) {
        // Each item's partner: the first old item with the same key (indexed, not searched).
        let (old_keys, old): (Vec<Option<Value>>, &[T]) = match (merge_key, old) {
            (Some(key), Some(old)) => (old.iter().map(|o| o.key_of(key)).collect(), old),
            _ => (Vec::new(), &[]),
        };
        let mut first: HashMap<HashedKey<'_>, usize, KeyedState> = HashMap::default();
        for (i, k) in old_keys.iter().enumerate() {
            if let Some(k) = k {
                first.entry(HashedKey(k)).or_insert(i);
            }
        }
        for item in self.iter_mut() {
            let partner = merge_key.and_then(|key| {
                let value = item.key_of(key).filter(|v| !v.is_null())?;
                first.get(&HashedKey(&value)).map(|&i| &old[i])
            });
            item.normalize_member(partner, None);
        }
    }

    fn validate_member(
        &self,
        merge_key: Option<&str>,
        path: &mut Vec<Segment>,
        out: &mut Vec<UnionError>,
    ) {
        for (i, item) in self.iter().enumerate() {
            let key_value = merge_key.and_then(|k| item.key_of(k));
            path.push(member_path(merge_key, key_value.as_ref(), i));
            item.validate_member(None, path, out);
            path.pop();
        }
    }
}

/// String-keyed maps: each value against the old value under the same key.
macro_rules! map_impl {
    ($($map:ident $(, $s:ident: $bound:path)?);*) => {$(
        impl<T: Normalize $(, $s: $bound)?> Normalize for $map<String, T $(, $s)?> {
            fn normalize_member(&mut self, old: Option<&Self>, _merge_key: Option<&str>) {
                for (k, v) in self.iter_mut() {
                    v.normalize_member(old.and_then(|o| o.get(k)), None);
                }
            }

            fn validate_member(
                &self,
                _merge_key: Option<&str>,
                path: &mut Vec<Segment>,
                out: &mut Vec<UnionError>,
            ) {
                for (k, v) in self {
                    path.push(Segment::Field(k.clone()));
                    v.validate_member(None, path, out);
                    path.pop();
                }
            }
        }
    )*};
}

map_impl!(BTreeMap; HashMap, S: std::hash::BuildHasher);
