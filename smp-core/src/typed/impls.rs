//! [`PatchField`] for the standard types a Kubernetes-like struct is made of.

use std::collections::{BTreeMap, HashMap};

use serde_core::Serialize;
use serde_core::de::DeserializeOwned;
use serde_json::Value;

use crate::apply::Path;
use crate::deep::MAX_DEPTH;
use crate::error::PatchError;
use crate::json_text::same_bytes;
use crate::schema::{FieldDef, Node, Strategy, TypeDef, TypeRef};

use super::{
    Edit, KeyRef, Member, Out, PatchField, PatchSchema, diff_fallback, fallback, from_ref,
};

/// `T::DEF` as a function, for [`TypeRef::Static`].
pub fn type_def<T: PatchSchema>() -> &'static TypeDef {
    T::DEF
}

/// A field of type `T`, for schema tables written as code (smp-types' tables without its
/// `types` feature): one short call per field instead of a `FieldDef` spelled out.
pub const fn field_of<T: PatchSchema>(
    name: &'static str,
    strategy: Strategy,
    merge_key: Option<&'static str>,
) -> FieldDef {
    FieldDef::new(name, TypeRef::Static(type_def::<T>), strategy, merge_key)
}

/// A field of type `T` that a patch treats by its type alone (no strategy, no merge key): most
/// fields of a schema table.
pub const fn plain_field<T: PatchSchema>(name: &'static str) -> FieldDef {
    field_of::<T>(name, Strategy::DEFAULT, None)
}

/// Scalars: a scalar patch value is simply taken; anything else goes through the engine.
#[doc(hidden)]
pub fn plan_scalar<T: PatchField>(
    current: Option<&T>,
    member: &Member<'_>,
    parent: Node<'static>,
    path: &Path<'_>,
) -> Result<Edit<T>, PatchError> {
    match member.value {
        _ if member.directed => fallback(current, member, parent, path),
        None => Ok(Edit::Keep),
        Some(Value::Null) if current.is_some() => Ok(Edit::Remove),
        Some(Value::Null) => Ok(Edit::Keep),
        Some(v @ (Value::Bool(_) | Value::Number(_) | Value::String(_))) => {
            // Patches repeat values, merge keys always: an unchanged value needs no edit.
            if current
                .and_then(PatchField::key_value)
                .is_some_and(|k| k.matches(v))
            {
                return Ok(Edit::Keep);
            }
            Ok(Edit::Set(from_ref(v, &path.field(member.name))?))
        }
        Some(_) => fallback(current, member, parent, path),
    }
}

/// Diffs a scalar member that changed (the caller checked): the engine's patch for two
/// scalars is the new value. A value whose JSON form is `null` (a NaN float) goes to the engine,
/// which compares JSON forms.
#[doc(hidden)]
pub fn diff_scalar<T: PatchField>(
    original: Option<&T>,
    modified: Option<&T>,
    name: &str,
    parent: Node<'static>,
    out: &mut Out<'_>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    if let Some(value) = modified {
        // The JSON form of a key-like scalar (a string, an integer) is its key form: no
        // `Value` to build.
        if let Some(key) = value.key_value().filter(|k| *k != KeyRef::Null) {
            if out.changes() {
                out.insert_key(name, key);
            }
            return Ok(());
        }
        let value = super::to_value(value, &path.field(name))?;
        if !value.is_null() {
            if out.changes() {
                out.insert(name, value);
            }
            return Ok(());
        }
    }
    diff_fallback(original, modified, name, parent, out, path)
}

macro_rules! scalar {
    ($($t:ty => |$v:ident| $key:expr),* $(,)?) => {$(
        impl PatchSchema for $t {
            const DEF: &'static TypeDef = TypeDef::PRIMITIVE;
        }

        impl PatchField for $t {
            fn plan(
                current: Option<&Self>,
                member: &Member<'_>,
                parent: Node<'static>,
                path: &Path<'_>,
            ) -> Result<Edit<Self>, PatchError> {
                plan_scalar(current, member, parent, path)
            }

            fn key_field(&self, _name: &str) -> Option<KeyRef<'_>> {
                None
            }

            fn key_value(&self) -> Option<KeyRef<'_>> {
                AsKey::as_key(self)
            }

            #[inline]
            fn same(&self, other: &Self) -> bool {
                ScalarEq::scalar_eq(self, other)
            }

            fn quiet(&self) -> bool {
                true
            }

            fn diff_member(
                original: Option<&Self>,
                modified: Option<&Self>,
                name: &str,
                parent: Node<'static>,
                out: &mut Out<'_>,
                path: &Path<'_>,
            ) -> Result<(), PatchError> {
                diff_scalar(original, modified, name, parent, out, path)
            }
        }

        impl AsKey for $t {
            fn as_key(&self) -> Option<KeyRef<'_>> {
                let $v = self;
                $key
            }
        }
    )*};
}

/// Types usable as list merge keys.
#[doc(hidden)]
pub trait AsKey {
    /// The key, or `None` when the value cannot be compared without serializing it.
    fn as_key(&self) -> Option<KeyRef<'_>>;
}

/// `==` of scalars, strings compared with [`same_bytes`] (in place when short: names, images
/// and label values are compared on every diff).
trait ScalarEq {
    fn scalar_eq(&self, other: &Self) -> bool;
}

impl ScalarEq for String {
    #[inline]
    fn scalar_eq(&self, other: &Self) -> bool {
        same_bytes(self.as_bytes(), other.as_bytes())
    }
}

macro_rules! scalar_eq {
    ($($t:ty),*) => {$(
        impl ScalarEq for $t {
            // Floats: `-0.0 == 0.0` as JSON numbers too; NaN (JSON `null`) is never `==`,
            // which only sends it to the engine.
            #[allow(clippy::float_cmp)]
            #[inline]
            fn scalar_eq(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}

scalar_eq!(
    bool,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    isize,
    usize,
    f32,
    f64,
    serde_json::Number
);

scalar! {
    bool => |v| Some(KeyRef::Bool(*v)),
    String => |v| Some(KeyRef::Str(v.as_str())),
    i8 => |v| Some(KeyRef::Int(i64::from(*v))),
    i16 => |v| Some(KeyRef::Int(i64::from(*v))),
    i32 => |v| Some(KeyRef::Int(i64::from(*v))),
    i64 => |v| Some(KeyRef::Int(*v)),
    u8 => |v| Some(KeyRef::Int(i64::from(*v))),
    u16 => |v| Some(KeyRef::Int(i64::from(*v))),
    u32 => |v| Some(KeyRef::Int(i64::from(*v))),
    u64 => |v| Some(i64::try_from(*v).map_or(KeyRef::UInt(*v), KeyRef::Int)),
    isize => |v| i64::try_from(*v).ok().map(KeyRef::Int),
    usize => |v| Some(i64::try_from(*v).map_or(KeyRef::UInt(*v as u64), KeyRef::Int)),
    // Floats compare by JSON number kind; keyed by floats is never sensible, so no fast path.
    f32 => |_v| None,
    f64 => |_v| None,
    // A JSON number as written (`1` stays `1`, `1.5` stays `1.5`): integers key as integers.
    serde_json::Number => |v| v
        .as_i64()
        .map(KeyRef::Int)
        .or_else(|| v.as_u64().map(KeyRef::UInt)),
}

impl<T: AsKey> AsKey for Option<T> {
    fn as_key(&self) -> Option<KeyRef<'_>> {
        match self {
            Some(v) => v.as_key(),
            None => Some(KeyRef::Null),
        }
    }
}

/// `serde_json::Value` fields are where typed data can nest without bound (a value built in
/// code): each operation that would recurse through the whole value checks its depth first
/// (iteratively), as the `Value` engine's entry points do.
impl PatchSchema for Value {
    const DEF: &'static TypeDef = TypeDef::OPAQUE;
}

impl PatchField for Value {
    fn plan(
        current: Option<&Self>,
        member: &Member<'_>,
        parent: Node<'static>,
        path: &Path<'_>,
    ) -> Result<Edit<Self>, PatchError> {
        if let Some(current) = current {
            too_deep(current, &path.field(member.name))?;
        }
        fallback(current, member, parent, path)
    }

    fn same(&self, other: &Self) -> bool {
        // A deep value is never "the same": the diff then reports it as too deep.
        crate::deep::equal_within(self, other, MAX_DEPTH)
    }

    fn diff_member(
        original: Option<&Self>,
        modified: Option<&Self>,
        name: &str,
        parent: Node<'static>,
        out: &mut Out<'_>,
        path: &Path<'_>,
    ) -> Result<(), PatchError> {
        for value in [original, modified].into_iter().flatten() {
            too_deep(value, &path.field(name))?;
        }
        diff_fallback(original, modified, name, parent, out, path)
    }

    fn quiet(&self) -> bool {
        true
    }

    fn replace_quiet(&self) -> bool {
        !self.is_object()
    }
}

fn too_deep(value: &Value, path: &Path<'_>) -> Result<(), PatchError> {
    crate::deep::check_at(value, || path.to_json_path())
}

impl<T: PatchSchema> PatchSchema for Option<T> {
    const DEF: &'static TypeDef = T::DEF;
}

impl<T: PatchField> PatchField for Option<T> {
    fn plan(
        current: Option<&Self>,
        member: &Member<'_>,
        parent: Node<'static>,
        path: &Path<'_>,
    ) -> Result<Edit<Self>, PatchError> {
        match current {
            // Present as JSON `null`: the engine knows what a patch does to a null.
            Some(None) => fallback(current, member, parent, path),
            Some(Some(inner)) => Ok(T::plan(Some(inner), member, parent, path)?.wrap_some()),
            None => Ok(T::plan(None, member, parent, path)?.wrap_some()),
        }
    }

    fn key_field(&self, name: &str) -> Option<KeyRef<'_>> {
        self.as_ref().and_then(|v| v.key_field(name))
    }

    // `None` is JSON `null` (when it is in the JSON form at all, which the owner decides).
    fn key_value(&self) -> Option<KeyRef<'_>> {
        match self {
            Some(v) => v.key_value(),
            None => Some(KeyRef::Null),
        }
    }

    fn same(&self, other: &Self) -> bool {
        match (self, other) {
            (Some(a), Some(b)) => a.same(b),
            (None, None) => true,
            _ => false,
        }
    }

    fn quiet(&self) -> bool {
        self.as_ref().is_none_or(PatchField::quiet)
    }

    fn merge_quiet(&self, key: Option<&str>) -> bool {
        self.as_ref().is_none_or(|v| v.merge_quiet(key))
    }

    fn replace_quiet(&self) -> bool {
        self.as_ref().is_none_or(PatchField::replace_quiet)
    }

    fn diff_member(
        original: Option<&Self>,
        modified: Option<&Self>,
        name: &str,
        parent: Node<'static>,
        out: &mut Out<'_>,
        path: &Path<'_>,
    ) -> Result<(), PatchError> {
        match (original, modified) {
            (Some(Some(a)), Some(Some(b))) => {
                T::diff_member(Some(a), Some(b), name, parent, out, path)
            }
            _ => diff_fallback(original, modified, name, parent, out, path),
        }
    }
}

impl<T: PatchSchema> PatchSchema for Box<T> {
    const DEF: &'static TypeDef = T::DEF;
}

impl<T: PatchField> PatchField for Box<T> {
    fn plan(
        current: Option<&Self>,
        member: &Member<'_>,
        parent: Node<'static>,
        path: &Path<'_>,
    ) -> Result<Edit<Self>, PatchError> {
        let edit = T::plan(current.map(|b| &**b), member, parent, path)?;
        Ok(edit.map(Box::new, |b: &mut Box<T>| &mut **b))
    }

    fn key_field(&self, name: &str) -> Option<KeyRef<'_>> {
        (**self).key_field(name)
    }

    fn key_value(&self) -> Option<KeyRef<'_>> {
        (**self).key_value()
    }

    fn same(&self, other: &Self) -> bool {
        (**self).same(&**other)
    }

    fn quiet(&self) -> bool {
        (**self).quiet()
    }

    fn merge_quiet(&self, key: Option<&str>) -> bool {
        (**self).merge_quiet(key)
    }

    fn replace_quiet(&self) -> bool {
        (**self).replace_quiet()
    }

    fn diff_item(
        &self,
        modified: &Self,
        out: &mut Out<'_>,
        path: &Path<'_>,
    ) -> Option<Result<(), PatchError>> {
        (**self).diff_item(&**modified, out, path)
    }

    fn diff_member(
        original: Option<&Self>,
        modified: Option<&Self>,
        name: &str,
        parent: Node<'static>,
        out: &mut Out<'_>,
        path: &Path<'_>,
    ) -> Result<(), PatchError> {
        T::diff_member(
            original.map(|b| &**b),
            modified.map(|b| &**b),
            name,
            parent,
            out,
            path,
        )
    }

    fn plan_item(
        &self,
        patch: &serde_json::Map<String, Value>,
        path: &Path<'_>,
    ) -> Option<Result<Edit<Self>, PatchError>> {
        (**self)
            .plan_item(patch, path)
            .map(|r| r.map(|e| e.map(Box::new, |b: &mut Box<T>| &mut **b)))
    }
}

impl<T: PatchSchema> PatchSchema for Vec<T> {
    const DEF: &'static TypeDef = &TypeDef::List(TypeRef::Static(type_def::<T>));
}

impl<T: PatchField> PatchField for Vec<T> {
    fn plan(
        current: Option<&Self>,
        member: &Member<'_>,
        parent: Node<'static>,
        path: &Path<'_>,
    ) -> Result<Edit<Self>, PatchError> {
        super::list::plan(current, member, parent, path)
    }

    fn same(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a.same(b))
    }

    // Equal lists that are not merged are only compared.
    fn quiet(&self) -> bool {
        true
    }

    fn merge_quiet(&self, key: Option<&str>) -> bool {
        super::merge_list_quiet(self, key)
    }

    // A replaced list is compared, never sent unchanged.
    fn replace_quiet(&self) -> bool {
        true
    }

    fn diff_member(
        original: Option<&Self>,
        modified: Option<&Self>,
        name: &str,
        parent: Node<'static>,
        out: &mut Out<'_>,
        path: &Path<'_>,
    ) -> Result<(), PatchError> {
        if let (Some(a), Some(b)) = (original, modified) {
            if let Some(done) = super::list_diff::diff(a, b, name, parent, out, path) {
                return done;
            }
        }
        diff_fallback(original, modified, name, parent, out, path)
    }
}

impl<T: PatchSchema> PatchSchema for BTreeMap<String, T> {
    const DEF: &'static TypeDef = &TypeDef::Map(TypeRef::Static(type_def::<T>));
}

impl<T: PatchField> PatchField for BTreeMap<String, T> {
    // Labels and annotations are compared on every diff; keep the walk in one piece.
    #[inline]
    fn same(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .zip(other)
                .all(|((ka, a), (kb, b))| same_bytes(ka.as_bytes(), kb.as_bytes()) && a.same(b))
    }

    fn quiet(&self) -> bool {
        self.values().all(PatchField::quiet)
    }
}

impl<T: PatchSchema, S: 'static> PatchSchema for HashMap<String, T, S> {
    const DEF: &'static TypeDef = &TypeDef::Map(TypeRef::Static(type_def::<T>));
}

impl<T: PatchField, S> PatchField for HashMap<String, T, S>
where
    S: std::hash::BuildHasher + Default + 'static,
    HashMap<String, T, S>: Serialize + DeserializeOwned,
{
    fn same(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(k, a)| other.get(k).is_some_and(|b| a.same(b)))
    }

    fn quiet(&self) -> bool {
        self.values().all(PatchField::quiet)
    }
}
