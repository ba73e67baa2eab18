//! Typed twins of the corpus's test schemas (FORMAT.md §8): `mergeItem`,
//! `retainKeysMergeItem` and `precisionItem` as Rust types deriving `StrategicMerge`.
//!
//! Their derived schemas equal the ones loaded from the swagger files (checked in
//! `typed_twin.rs` with `smp_core::schema::compare`), with one documented exception:
//! `retainKeysMergeItem.simpleMap`, which the two swagger files declare inconsistently (see
//! [`RetainKeysMergeItem::simple_map`]).
//!
//! The corpus documents must survive `from_value` → `to_value` unchanged, so the twin holds
//! more than Go's structs do:
//! - `name`, `value` and `other` are [`Scalar`]s: the corpus writes `name: 1` (YAML integers);
//! - every field is optional and skipped when absent, so that absent stays absent and `[]`
//!   stays `[]`;
//! - `mergingIntList`, `value` and `other` are [`Nullable`]: one original holds
//!   `mergingIntList: null`, and modified documents set `value: null` / `other: null`;
//! - `mergeItemPtr` is declared as a single `mergeItem` but the data holds lists of them:
//!   [`ptr::Vec`] holds either;
//! - `replacingItem` is a `RawExtension`, which holds any object ([`RawExtension`]);
//! - fields the schema does not declare (`unknown-field.json`) are kept by a flattened
//!   [`Unknown`].
//!
//! The hand-written types implement `PatchSchema` and `PatchField` themselves (as the runtime does for its own
//! standard types); only `Unknown` also implements `StrategicMerge`, by hand, because
//! `#[serde(flatten)]` hands it the members its struct does not declare.
#![allow(dead_code)]

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use smp_core::__private::{AsKey, Commit, Edit, KeyRef, Member, Path, fallback, plan_scalar};
use smp_core::{
    FieldDef, Node, PatchError, PatchField, PatchSchema, StrategicMerge, Strategy, StructDef,
    TypeDef, TypeRef,
};

/// `mergeItem`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename = "mergeItem", rename_all = "camelCase")]
pub struct MergeItem {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Scalar>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Scalar>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub other: Nullable<Scalar>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[patch(strategy = "merge", merge_key = "name")]
    pub merging_list: Option<Vec<MergeItem>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_merging_list: Option<Vec<MergeItem>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    #[patch(strategy = "merge")]
    pub merging_int_list: Nullable<Vec<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_merging_int_list: Option<Vec<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[patch(strategy = "merge", merge_key = "name")]
    pub merge_item_ptr: Option<ptr::Vec<MergeItem>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simple_map: Option<BTreeMap<String, Scalar>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[patch(strategy = "replace")]
    pub replacing_item: Option<RawExtension>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[patch(strategy = "retainKeys")]
    pub retain_keys_map: Option<RetainKeysMergeItem>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[patch(strategy = "merge|retainKeys", merge_key = "name")]
    pub retain_keys_merging_list: Option<Vec<MergeItem>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub json_item: Option<Value>,
    #[serde(flatten)]
    pub unknown: Unknown,
}

/// `retainKeysMergeItem`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename = "retainKeysMergeItem", rename_all = "camelCase")]
pub struct RetainKeysMergeItem {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Scalar>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub value: Nullable<Scalar>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    pub other: Nullable<Scalar>,
    /// Go's `map[string]string` (FORMAT §8, struct variant), so a map of primitives.
    ///
    /// Neither swagger file says that. v2 writes `additionalProperties: "object"` (not a
    /// schema) next to `items`, which the loader reads as a map of opaque values; v3 has no
    /// `type` and only `items: {type: string}`, which the loader reads as a list of strings.
    /// No Rust type is a map and a list at once, so this field cannot equal both; it follows
    /// the Go struct, and the schema comparison in `typed_twin.rs` substitutes it (documented in known-gaps.txt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simple_map: Option<BTreeMap<String, Scalar>>,
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    #[patch(strategy = "merge")]
    pub merging_int_list: Nullable<Vec<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[patch(strategy = "merge", merge_key = "name")]
    pub merging_list: Option<Vec<MergeItem>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_merging_list: Option<Vec<MergeItem>>,
    #[serde(flatten)]
    pub unknown: Unknown,
}

/// `precisionItem` (`number-conversion.json`): Rust's own number types, so that the typed path
/// is checked to keep `int64` max exact.
///
/// `float32` is an `f64`, not an `f32`: the corpus writes `float32` max as
/// `3.4028234663852886e+38`, which serde_json's default (not correctly rounded) float parser
/// reads one ulp above `f32::MAX as f64`; an `f32` field would turn that back into the exact
/// value, so the document would not survive the twin unchanged.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename = "precisionItem")]
pub struct PrecisionItem {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int32: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int64: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float32: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float64: Option<f64>,
    #[serde(flatten)]
    pub unknown: Unknown,
}

// ---------------------------------------------------------------------------------------------
// Scalars

/// A JSON scalar as the corpus holds it in string fields: YAML made some of them integers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
}

impl PatchSchema for Scalar {
    const DEF: &'static TypeDef = TypeDef::PRIMITIVE;
}

impl PatchField for Scalar {
    fn plan(
        current: Option<&Self>,
        member: &Member<'_>,
        parent: Node<'static>,
        path: &Path<'_>,
    ) -> Result<Edit<Self>, PatchError> {
        plan_scalar(current, member, parent, path)
    }
}

impl AsKey for Scalar {
    fn as_key(&self) -> Option<KeyRef<'_>> {
        match self {
            Scalar::Bool(b) => Some(KeyRef::Bool(*b)),
            Scalar::Int(i) => Some(KeyRef::Int(*i)),
            Scalar::UInt(u) => Some(KeyRef::UInt(*u)),
            Scalar::Float(_) => None,
            Scalar::Str(s) => Some(KeyRef::Str(s)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Absent, null or a value

/// A member that is absent, JSON `null`, or a value. `Option` cannot tell the first two apart
/// (serde reads `null` as `None`, and `None` is skipped when serializing); use it with
/// `#[serde(default, skip_serializing_if = "Nullable::is_absent")]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Nullable<T> {
    #[default]
    Absent,
    Null,
    Value(T),
}

impl<T> Nullable<T> {
    pub fn is_absent(&self) -> bool {
        matches!(self, Nullable::Absent)
    }
}

impl<T: Serialize> Serialize for Nullable<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Nullable::Absent | Nullable::Null => s.serialize_none(),
            Nullable::Value(v) => v.serialize(s),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nullable<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Option::<T>::deserialize(d)?.map_or(Nullable::Null, Nullable::Value))
    }
}

impl<T: PatchSchema> PatchSchema for Nullable<T> {
    const DEF: &'static TypeDef = T::DEF;
}

impl<T: PatchField> PatchField for Nullable<T> {
    fn plan(
        current: Option<&Self>,
        member: &Member<'_>,
        parent: Node<'static>,
        path: &Path<'_>,
    ) -> Result<Edit<Self>, PatchError> {
        let inner = match current {
            // What a patch does to a `null` is the engine's business.
            Some(Nullable::Null) | Some(Nullable::Absent) => {
                return fallback(current, member, parent, path);
            }
            Some(Nullable::Value(v)) => T::plan(Some(v), member, parent, path)?,
            None => T::plan(None, member, parent, path)?,
        };
        Ok(match inner {
            Edit::Keep => Edit::Keep,
            Edit::Set(v) => Edit::Set(Nullable::Value(v)),
            Edit::Remove => Edit::Remove,
            Edit::Update(f) => Edit::Update(Box::new(move |n: &mut Nullable<T>| {
                if let Nullable::Value(v) = n {
                    f(v);
                }
            })),
        })
    }

    fn key_field(&self, name: &str) -> Option<KeyRef<'_>> {
        match self {
            Nullable::Value(v) => v.key_field(name),
            _ => None,
        }
    }
}

impl<T: AsKey> AsKey for Nullable<T> {
    fn as_key(&self) -> Option<KeyRef<'_>> {
        match self {
            Nullable::Absent => None,
            Nullable::Null => Some(KeyRef::Null),
            Nullable::Value(v) => v.as_key(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// mergeItemPtr

/// `mergeItemPtr`.
pub mod ptr {
    use serde::{Deserialize, Serialize};
    use smp_core::{PatchField, PatchSchema, TypeDef};

    /// One item or a list of items, for `mergeItemPtr`: declared as a single `mergeItem`
    /// (merged by key `name`), used by the data as a list of them. Its schema is the item's,
    /// exactly as declared; the engine reads a struct used as a list as a list of that struct,
    /// and this type's `plan` is the default (the engine, for this member).
    ///
    /// It is named `Vec` because `#[derive(StrategicMerge)]` decides syntactically, from the
    /// last path segment, whether a field is a list, and accepts `merge_key` only on lists: a
    /// field typed `OneOrMany<MergeItem>` could not carry the `merge_key = "name"` that the
    /// schema declares. Write it `ptr::Vec`, never import it.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(untagged)]
    pub enum Vec<T> {
        Many(std::vec::Vec<T>),
        One(Box<T>),
    }

    impl<T: PatchSchema> PatchSchema for Vec<T> {
        const DEF: &'static TypeDef = T::DEF;
    }

    impl<T: PatchField> PatchField for Vec<T> {}

    // The twin holds no unions (KEP-1027): nothing to normalize below it.
    impl<T> smp_core::Normalize for Vec<T> {}
}

// ---------------------------------------------------------------------------------------------
// RawExtension

/// `io.k8s.apimachinery.pkg.runtime.RawExtension`: the schema declares one field, `Raw`; the
/// data puts any members in it (`replacingItem` is replaced whole, so nothing looks inside).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RawExtension(pub Map<String, Value>);

const RAW_EXTENSION_FIELDS: &[FieldDef] = &[FieldDef::new(
    "Raw",
    TypeRef::Static(|| TypeDef::PRIMITIVE),
    Strategy::DEFAULT,
    None,
)];

impl PatchSchema for RawExtension {
    const DEF: &'static TypeDef = &TypeDef::Struct(StructDef::new(
        "io.k8s.apimachinery.pkg.runtime.RawExtension",
        RAW_EXTENSION_FIELDS,
    ));
}

impl PatchField for RawExtension {}

// ---------------------------------------------------------------------------------------------
// Undeclared members

/// The members of an object that its struct does not declare, kept as JSON
/// (`#[serde(flatten)]`). Its schema is a struct without fields: flattened, it adds no field to
/// the outer struct's schema, and the engine patches undeclared members without metadata.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Unknown(pub BTreeMap<String, Value>);

impl PatchSchema for Unknown {
    const DEF: &'static TypeDef = &TypeDef::Struct(StructDef::new("(undeclared members)", &[]));
}

impl PatchField for Unknown {}

impl StrategicMerge for Unknown {
    type Patch = UnknownPatch;

    /// Takes every member left: each goes through the engine, which knows no metadata for it.
    fn plan_members(
        &self,
        members: &mut Vec<Member<'_>>,
        path: &Path<'_>,
        edits: &mut Vec<Commit<Self>>,
    ) -> Result<(), PatchError> {
        let node = <Self as StrategicMerge>::schema();
        for m in members.drain(..) {
            let current = self.0.get(m.name);
            let name = m.name.to_owned();
            match <Value as PatchField>::plan(current, &m, node, path)? {
                Edit::Keep => {}
                Edit::Set(v) => edits.push(Box::new(move |u: &mut Unknown| {
                    u.0.insert(name, v);
                })),
                Edit::Remove => edits.push(Box::new(move |u: &mut Unknown| {
                    u.0.remove(&name);
                })),
                Edit::Update(f) => edits.push(Box::new(move |u: &mut Unknown| {
                    if let Some(v) = u.0.get_mut(&name) {
                        f(v);
                    }
                })),
            }
        }
        Ok(())
    }
}

// Typed patches: the hand-written scalars are patched as their JSON; the undeclared members as
// the members themselves.
impl smp_core::Patchable for Scalar {
    type Patch = Value;
}
impl<T> smp_core::Patchable for Nullable<T> {
    type Patch = Value;
}
impl smp_core::Patchable for RawExtension {
    type Patch = Value;
}
impl smp_core::Patchable for Unknown {
    type Patch = UnknownPatch;
}
// One item or many, as its JSON (a typed patch of the field itself is its item patches, merged
// by key).
impl<T> smp_core::Patchable for ptr::Vec<T> {
    type Patch = Value;
}

/// The patch of [`Unknown`]: the members no other field declares, as JSON.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UnknownPatch {
    pub members: Map<String, Value>,
    pub directive: smp_core::typed_patch::ObjectDirective,
}

impl smp_core::ObjectPatch for UnknownPatch {
    type Object = Unknown;

    fn directive(&self) -> smp_core::typed_patch::ObjectDirective {
        self.directive
    }

    fn set_directive(&mut self, directive: smp_core::typed_patch::ObjectDirective) {
        self.directive = directive;
    }

    fn write_members(
        &self,
        out: &mut smp_core::typed_patch::ObjectWriter<'_>,
    ) -> Result<(), PatchError> {
        for (name, value) in &self.members {
            out.raw(name, value.clone());
        }
        Ok(())
    }

    fn read_members(
        &mut self,
        reader: &mut smp_core::typed_patch::ObjectReader<'_>,
    ) -> Result<(), PatchError> {
        self.members = reader.rest();
        Ok(())
    }
}

impl Serialize for UnknownPatch {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        smp_core::typed_patch::serialize_patch(self, s)
    }
}

impl<'de> Deserialize<'de> for UnknownPatch {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        smp_core::typed_patch::deserialize_patch(d)
    }
}

impl smp_core::ValuePatch for UnknownPatch {
    fn write_value(&self, path: &Path<'_>) -> Result<Value, PatchError> {
        smp_core::typed_patch::write_object(self, path)
    }

    fn read_value(value: Value, path: &Path<'_>) -> Result<Self, PatchError> {
        smp_core::typed_patch::read_object(value, path)
    }
}

// The hand-written types hold no unions (KEP-1027): nothing to normalize in them.
impl smp_core::Normalize for Scalar {}
impl<T> smp_core::Normalize for Nullable<T> {}
impl smp_core::Normalize for RawExtension {}
impl smp_core::Normalize for Unknown {}
