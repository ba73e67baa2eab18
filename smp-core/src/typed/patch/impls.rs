//! [`Patchable`] and [`ValuePatch`] for the types the runtime knows: scalars are their own
//! patch; `Option` and `Box` patch as what they hold; a list the patch replaces whole is a list
//! of its items' patches; a string map is a [`MapPatch`].

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::BuildHasher;
use std::marker::PhantomData;

use serde_core::Serialize;
use serde_core::de::DeserializeOwned;
use serde_json::Value;

use super::plan::{member_through_json, plan_list_member};
use super::{Change, MapPatch, PatchMember, Patchable, ValuePatch, wrong_type};
use crate::apply::Path;
use crate::error::PatchError;
use crate::schema::{FieldDef, Node};
use crate::typed::{Edit, Opaque, PatchField};

/// A scalar's change: the new value (none when it is already there), or removed; `None` when
/// `member` is not the scalar's own patch.
#[inline]
fn scalar_edit<T: Clone + PartialEq + 'static>(
    current: Option<&T>,
    member: &dyn PatchMember,
) -> Option<Edit<T>> {
    Some(match member.as_any().downcast_ref::<Option<Change<T>>>()? {
        None => Edit::Keep,
        Some(Change::Set(v)) if current == Some(v) => Edit::Keep,
        Some(Change::Set(v)) => Edit::Set(v.clone()),
        Some(Change::Delete) => Edit::Remove,
    })
}

/// A scalar's patch is the scalar, read and written by serde.
macro_rules! scalar {
    ($($t:ty),* $(,)?) => {$(
        impl Patchable for $t {
            type Patch = $t;

            #[inline]
            fn plan_member(
                current: Option<&Self>,
                member: &dyn PatchMember,
                def: &'static FieldDef,
                parent: Node<'static>,
                path: &Path<'_>,
            ) -> Result<Edit<Self>, PatchError> {
                match scalar_edit(current, member) {
                    Some(edit) => Ok(edit),
                    None => member_through_json(current, member, def, parent, path),
                }
            }
        }

        impl ValuePatch for $t {
            fn write_value(&self, path: &Path<'_>) -> Result<Value, PatchError> {
                to_json_value(self, path)
            }

            fn read_value(value: Value, path: &Path<'_>) -> Result<Self, PatchError> {
                from_json_value(value, path)
            }
        }
    )*};
}

scalar!(
    bool, String, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64
);

/// A `serde_json::Number` member's patch is its JSON (a number; `Number` has no default value to
/// build a patch from).
impl Patchable for serde_json::Number {
    type Patch = Value;
}

impl Patchable for Value {
    type Patch = Value;
}

/// A `serde_json::Value` member holds any JSON; as a patch it is that JSON (its objects merge as
/// a JSON merge patch, its `null`s delete).
impl ValuePatch for Value {
    fn write_value(&self, path: &Path<'_>) -> Result<Value, PatchError> {
        path.check_depth()?;
        crate::deep::check_at(self, || path.to_json_path())?;
        Ok(self.clone())
    }

    fn read_value(value: Value, path: &Path<'_>) -> Result<Self, PatchError> {
        if let Err(e) = crate::deep::check_at(&value, || path.to_json_path()) {
            crate::deep::dispose(value);
            return Err(e);
        }
        Ok(value)
    }
}

/// An `Option`'s member is absent when `None`: its patch is its value's.
impl<T: Patchable + PatchField> Patchable for Option<T> {
    type Patch = T::Patch;

    #[inline]
    fn plan_member(
        current: Option<&Self>,
        member: &dyn PatchMember,
        def: &'static FieldDef,
        parent: Node<'static>,
        path: &Path<'_>,
    ) -> Result<Edit<Self>, PatchError> {
        match current {
            // Present as JSON `null`: what a patch does to a null is the engine's to say.
            Some(None) => member_through_json(current, member, def, parent, path),
            Some(Some(inner)) => {
                Ok(T::plan_member(Some(inner), member, def, parent, path)?.wrap_some())
            }
            None => Ok(T::plan_member(None, member, def, parent, path)?.wrap_some()),
        }
    }
}

impl<T: Patchable> Patchable for Box<T> {
    type Patch = Box<T::Patch>;
}

impl<P: ValuePatch> ValuePatch for Box<P> {
    fn write_value(&self, path: &Path<'_>) -> Result<Value, PatchError> {
        (**self).write_value(path)
    }

    fn read_value(value: Value, path: &Path<'_>) -> Result<Self, PatchError> {
        P::read_value(value, path).map(Box::new)
    }
}

/// A list with the default strategy is replaced whole: its patch is the new list, each item
/// held as its patch type (a struct item as its `TPatch` with every member set).
impl<T: Patchable + 'static> Patchable for Vec<T> {
    type Patch = Vec<T::Patch>;

    #[inline]
    fn plan_member(
        current: Option<&Self>,
        member: &dyn PatchMember,
        def: &'static FieldDef,
        parent: Node<'static>,
        path: &Path<'_>,
    ) -> Result<Edit<Self>, PatchError>
    where
        Self: PatchField,
    {
        plan_list_member(current, member, def, parent, path)
    }
}

impl<P: ValuePatch> ValuePatch for Vec<P> {
    fn write_value(&self, path: &Path<'_>) -> Result<Value, PatchError> {
        path.check_depth()?;
        self.iter()
            .enumerate()
            .map(|(i, item)| item.write_value(&path.index(i)))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array)
    }

    fn read_value(value: Value, path: &Path<'_>) -> Result<Self, PatchError> {
        path.check_depth()?;
        let Value::Array(items) = value else {
            return Err(wrong_type(path, "list", &value));
        };
        items
            .into_iter()
            .enumerate()
            .map(|(i, item)| {
                let at = path.index(i);
                if item.is_null() {
                    // A list replaced whole holds its items as they are; `null` is no patch.
                    return Err(wrong_type(&at, "a list item", &item));
                }
                P::read_value(item, &at)
            })
            .collect()
    }
}

impl<T: Patchable> Patchable for BTreeMap<String, T> {
    type Patch = MapPatch<T::Patch>;
}

impl<T: Patchable, S: BuildHasher> Patchable for HashMap<String, T, S> {
    type Patch = MapPatch<T::Patch>;
}

/// An `#[patch(opaque)]` field is one JSON value, replaced whole: its patch is that JSON.
impl<T> Patchable for Opaque<T> {
    type Patch = Value;
}

/// The patch of a field whose type is an enum of unit variants: the string the variant is
/// written as. The derive converts each variant (`impl From<Phase> for EnumValue<Phase>`), so
/// a builder takes the enum itself.
pub struct EnumValue<E> {
    text: String,
    _enum: PhantomData<fn() -> E>,
}

impl<E> EnumValue<E> {
    /// The value a variant is written as. Generated code calls it with the variant's name.
    #[doc(hidden)]
    pub fn from_name(text: &str) -> EnumValue<E> {
        EnumValue {
            text: text.to_owned(),
            _enum: PhantomData,
        }
    }

    /// The JSON string.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// The empty string: no variant. Only a starting point for builders; set a variant before use.
impl<E> Default for EnumValue<E> {
    fn default() -> Self {
        EnumValue::from_name("")
    }
}

impl<E> Clone for EnumValue<E> {
    fn clone(&self) -> Self {
        EnumValue::from_name(&self.text)
    }
}

impl<E> PartialEq for EnumValue<E> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl<E> fmt::Debug for EnumValue<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.text, f)
    }
}

/// Read through the enum itself, so that only its variants' strings are accepted.
impl<E: Serialize + DeserializeOwned> ValuePatch for EnumValue<E> {
    fn write_value(&self, _path: &Path<'_>) -> Result<Value, PatchError> {
        Ok(Value::String(self.text.clone()))
    }

    fn read_value(value: Value, path: &Path<'_>) -> Result<Self, PatchError> {
        let variant: E = from_json_value(value.clone(), path)?;
        match to_json_value(&variant, path)? {
            Value::String(text) => Ok(EnumValue {
                text,
                _enum: PhantomData,
            }),
            other => Err(wrong_type(path, "a string", &other)),
        }
    }
}

/// [`ValuePatch::write_value`] of a scalar type whose patch is itself: its JSON, by serde. For
/// `ValuePatch` impls of hand-written scalar types (smp-types' `Quantity` uses it).
pub fn write_serde<T: Serialize + ?Sized>(value: &T, path: &Path<'_>) -> Result<Value, PatchError> {
    to_json_value(value, path)
}

/// [`ValuePatch::read_value`] of a scalar type whose patch is itself, by serde.
pub fn read_serde<T: DeserializeOwned>(value: Value, path: &Path<'_>) -> Result<T, PatchError> {
    from_json_value(value, path)
}

/// `serde_json::to_value`, its error naming where.
pub(crate) fn to_json_value<T: Serialize + ?Sized>(
    value: &T,
    path: &Path<'_>,
) -> Result<Value, PatchError> {
    serde_json::to_value(value).map_err(|e| PatchError::Deserialize {
        path: path.to_json_path(),
        detail: e.to_string(),
    })
}

/// `serde_json::from_value`, its error naming where.
pub(crate) fn from_json_value<T: DeserializeOwned>(
    value: Value,
    path: &Path<'_>,
) -> Result<T, PatchError> {
    serde_json::from_value(value).map_err(|e| PatchError::Deserialize {
        path: path.to_json_path(),
        detail: e.to_string(),
    })
}
