//! Typed patches: a strategic merge patch of `T` as a Rust value, built with the compiler's help.
//!
//! `#[derive(StrategicMerge)]` on a struct `T` also generates `TPatch` (reachable as
//! `<T as StrategicMerge>::Patch`): one field per field of `T`, each able to hold what a
//! strategic merge patch may say of that field and, as far as the types allow, nothing else.
//! The [guide](crate::guide::typed_patches) shows it from a user's side; this module holds the
//! pieces the generated types are made of:
//!
//! | field of `T` | field of `TPatch` | a patch can |
//! |---|---|---|
//! | a scalar, or any field the patch replaces whole | `Option<Change<P>>` | set it, or delete it (`null`) |
//! | a struct | `Option<Change<SPatch>>` | merge into it, replace or delete it (`$patch`) |
//! | a struct with strategy `retainKeys` | `Option<Change<Retain<SPatch>>>` | also list `$retainKeys` |
//! | a map | `Option<Change<MapPatch<P>>>` | set, merge or delete entries; replace it whole |
//! | a list merged by key | `Option<Change<KeyedList<P>>>` | merge items by key, delete them, order them, replace the list, use `$patchMergeKey` |
//! | a list of scalars merged as a set | `Option<Change<SetList<P>>>` | add values, delete them (`$deleteFromPrimitiveList`), order them |
//!
//! `P` is the field type's own patch type ([`Patchable::Patch`]): the type itself for scalars,
//! `SPatch` for a struct `S`, a list of item patches for a list replaced whole. `None` leaves
//! the field out of the patch. A whole value is held as its patch type too (a struct replaced
//! whole is an `SPatch` whose members are all set), so a patch type needs nothing of `T`
//! beyond `StrategicMerge`: it is `Clone`, `Debug`, `PartialEq` and `Default` whatever `T` is.
//!
//! Every patch type converts to and from the patch's JSON ([`ValuePatch`]), and serializes as
//! it, so `kube::api::Patch::Strategic(&p)` sends it as it is. Reading checks what the types
//! cannot: a list item without its merge key, a directive where the field's strategy does not
//! allow it, a value of the wrong type, a member `T` does not declare under
//! `#[serde(deny_unknown_fields)]`; each is a [`PatchError`] naming the JSON path.

mod apply_config;
mod impls;
mod list;
mod map;
mod object;
mod plan;
mod retain;
mod untyped;

use std::fmt;

use serde_json::Value;

use crate::apply::Path;
use crate::error::PatchError;
use crate::patch::Patch;

pub use apply_config::{ApplyConfiguration, ObjectKind};
pub use impls::{EnumValue, read_serde, write_serde};
pub use list::{Identity, Key, KeyedList, SetList};
pub use map::MapPatch;
pub use object::{ObjectDirective, ObjectPatch, ObjectReader, ObjectWriter};
#[doc(hidden)]
pub use object::{
    debug_patch, deserialize_patch, discriminator_patch, read_object, serialize_patch, write_object,
};
pub(crate) use plan::plan_members;
#[doc(hidden)]
pub use plan::{ItemPlans, PatchMember, plan_struct_any, plan_struct_items, plan_struct_member};
pub use retain::{Retain, RetainKeys};
pub use untyped::UntypedPatch;

/// What a patch does with one member of an object it names: sets it (for an object or a list,
/// merges into it as `P` says), or deletes it (`null`). A member the patch leaves alone is
/// `None` around this.
#[derive(Clone, PartialEq, Eq)]
pub enum Change<P> {
    /// The member's patch: a value, or the patch of an object, map or list.
    Set(P),
    /// `null`: the member is deleted.
    Delete,
}

impl<P: fmt::Debug> fmt::Debug for Change<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Set(p) => p.fmt(f),
            Change::Delete => f.write_str("Delete"),
        }
    }
}

impl<P> Change<P> {
    /// The patch when it sets the member.
    pub fn as_set(&self) -> Option<&P> {
        match self {
            Change::Set(p) => Some(p),
            Change::Delete => None,
        }
    }
}

/// A type whose patch as a member of an object has a typed form: [`Patchable::Patch`].
/// Implemented for scalars, `serde_json::Value`, `Option`, `Box`, `Vec`, string maps, and every
/// type that derives `StrategicMerge`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no typed patch: it does not implement `smp_core::Patchable`",
    label = "a field of a `#[derive(StrategicMerge)]` type, whose patch type holds its patch",
    note = "derive `StrategicMerge` on `{Self}` as well: it implements `Patchable` too",
    note = "for a k8s-openapi type, mark the field `#[patch(k8s_openapi)]`; for any other type of another crate, `#[patch(opaque)]` (its patch is then its JSON)",
    note = "a type with a hand-written `PatchField` impl needs `impl Patchable for {Self} {{ type Patch = ... }}` too (`serde_json::Value` patches it as its JSON)"
)]
pub trait Patchable {
    /// The patch of a member of this type with the default patch strategy: the value itself
    /// for a scalar, the generated `TPatch` for a struct, [`MapPatch`] for a map, the item
    /// patches of a list replaced whole.
    type Patch: ValuePatch + Clone + PartialEq + fmt::Debug + Default;

    /// Plans the change `member` (this type's member of a patch type) makes to a field of
    /// this type: natively where the type can (a scalar is set, a struct merged into field by
    /// field), else through the member's JSON, as a `Patch` would be.
    #[doc(hidden)]
    #[inline]
    fn plan_member(
        current: Option<&Self>,
        member: &dyn PatchMember,
        def: &'static crate::schema::FieldDef,
        parent: crate::schema::Node<'static>,
        path: &Path<'_>,
    ) -> Result<crate::typed::Edit<Self>, PatchError>
    where
        Self: crate::typed::PatchField + Sized,
    {
        plan::member_through_json(current, member, def, parent, path)
    }

    /// Plans a patch of a list of this type merged by key against its items, natively. `None`
    /// when the type or the patch does not allow it (the list then goes through its JSON).
    #[doc(hidden)]
    #[inline]
    fn plan_items(
        items: &[Self],
        member: &dyn PatchMember,
        def: &'static crate::schema::FieldDef,
        path: &Path<'_>,
    ) -> Result<Option<ItemPlans<Self>>, PatchError>
    where
        Self: Sized,
    {
        let _ = (items, member, def, path);
        Ok(None)
    }
}

/// A typed patch's JSON: what it writes as the value of its member, and how it is read back.
pub trait ValuePatch: Sized {
    /// The JSON the patch writes as its member's value (an object patch: the object, with its
    /// directives). `path` is where the member is, for errors.
    fn write_value(&self, path: &Path<'_>) -> Result<Value, PatchError>;

    /// Reads a member's value. `null` never reaches here (it is [`Change::Delete`]).
    fn read_value(value: Value, path: &Path<'_>) -> Result<Self, PatchError>;

    /// The patch as JSON.
    fn to_value(&self) -> Result<Value, PatchError> {
        self.write_value(&Path::root())
    }

    /// Reads a patch from JSON.
    fn from_value(value: Value) -> Result<Self, PatchError> {
        Self::read_value(value, &Path::root())
    }

    /// The patch as a [`Patch`], for `apply`, for sending, or for printing (`to_json`).
    fn to_patch(&self) -> Result<Patch, PatchError> {
        Patch::from_value(self.to_value()?)
    }

    /// Reads a patch from its JSON text (strict JSON: duplicate keys are errors).
    fn from_json(text: &str) -> Result<Self, PatchError> {
        Self::from_value(crate::input::parse_json(
            text,
            crate::error::DocRole::Patch,
        )?)
    }

    /// The patch as compact JSON text, object keys sorted (as the typed diff writes patches).
    fn to_json(&self) -> Result<String, PatchError> {
        Ok(self.to_value()?.to_string())
    }
}

impl<P: ValuePatch> Change<P> {
    /// The member's JSON: `null`, or the patch's.
    pub fn write_value(&self, path: &Path<'_>) -> Result<Value, PatchError> {
        match self {
            Change::Set(p) => p.write_value(path),
            Change::Delete => Ok(Value::Null),
        }
    }

    /// Reads a member's JSON: `null` is [`Change::Delete`].
    pub fn read_value(value: Value, path: &Path<'_>) -> Result<Self, PatchError> {
        match value {
            Value::Null => Ok(Change::Delete),
            value => P::read_value(value, path).map(Change::Set),
        }
    }
}

/// The error of a member read as the wrong JSON type.
pub(crate) fn wrong_type(path: &Path<'_>, expected: &'static str, found: &Value) -> PatchError {
    PatchError::WrongType {
        path: path.to_json_path(),
        expected,
        found: crate::error::kind_of(found),
    }
}

/// Sets a patch field to `patch` (the generated `x(value)` builders).
#[doc(hidden)]
#[inline]
pub fn set_field<P>(field: &mut Option<Change<P>>, patch: P) {
    *field = Some(Change::Set(patch));
}

/// Builds a patch field in place: `f` gets its patch when it is set, else `empty()` (the
/// generated `x_with(f)` builders and those of merged lists).
#[doc(hidden)]
#[inline]
pub fn build_field<P>(
    field: &mut Option<Change<P>>,
    f: impl FnOnce(P) -> P,
    empty: impl FnOnce() -> P,
) {
    let current = match field.take() {
        Some(Change::Set(p)) => p,
        _ => empty(),
    };
    *field = Some(Change::Set(f(current)));
}
