//! The patch of a type that has no generated patch type: its JSON, held as it is.

use std::fmt;
use std::marker::PhantomData;

use serde_json::{Map, Value};

use super::ValuePatch;
use super::object::{
    ObjectDirective, ObjectPatch, ObjectReader, ObjectWriter, debug_patch, deserialize_patch,
    read_object, serialize_patch, write_object,
};
use crate::apply::Path;
use crate::error::PatchError;

/// A strategic merge patch of `T` held as JSON: what
/// [`StrategicMerge::Patch`](crate::StrategicMerge::Patch) is for a type without a generated
/// patch type (`#[patch(no_patch_type)]`, smp-types built without its `patch-types` feature,
/// or a hand-written `StrategicMerge`).
///
/// It keeps every member and directive it is given, writes them back unchanged, and is
/// checked against `T` when it is applied, as a [`Patch`](crate::Patch) is: nothing is typed,
/// nothing is lost.
///
/// ```
/// use smp_core::{ObjectPatch, UntypedPatch, ValuePatch};
/// use serde_json::json;
///
/// struct Widget;
/// let patch = UntypedPatch::<Widget>::from_value(json!({"size": 3, "$retainKeys": ["size"]}))?;
/// assert_eq!(patch.members()["size"], 3);
/// assert_eq!(patch.to_value()?, json!({"size": 3, "$retainKeys": ["size"]}));
/// # Ok::<(), smp_core::PatchError>(())
/// ```
pub struct UntypedPatch<T> {
    directive: ObjectDirective,
    members: Map<String, Value>,
    _type: PhantomData<fn() -> T>,
}

impl<T> UntypedPatch<T> {
    /// The patch with these members (and directives, `$patch` aside: see
    /// [`ObjectPatch::directive`]).
    pub fn new(members: Map<String, Value>) -> Self {
        UntypedPatch {
            directive: ObjectDirective::Merge,
            members,
            _type: PhantomData,
        }
    }

    /// The members and directives of the patch, `$patch` aside.
    pub fn members(&self) -> &Map<String, Value> {
        &self.members
    }

    /// The members, to change them.
    pub fn members_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.members
    }
}

impl<T> Default for UntypedPatch<T> {
    fn default() -> Self {
        UntypedPatch::new(Map::new())
    }
}

impl<T> Clone for UntypedPatch<T> {
    fn clone(&self) -> Self {
        UntypedPatch {
            directive: self.directive,
            members: self.members.clone(),
            _type: PhantomData,
        }
    }
}

impl<T> PartialEq for UntypedPatch<T> {
    fn eq(&self, other: &Self) -> bool {
        self.directive == other.directive && self.members == other.members
    }
}

impl<T> fmt::Debug for UntypedPatch<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_patch("UntypedPatch", self, f)
    }
}

impl<T> ObjectPatch for UntypedPatch<T> {
    type Object = T;

    fn directive(&self) -> ObjectDirective {
        self.directive
    }

    fn set_directive(&mut self, directive: ObjectDirective) {
        self.directive = directive;
    }

    fn write_members(&self, out: &mut ObjectWriter<'_>) -> Result<(), PatchError> {
        for (name, value) in &self.members {
            out.raw(name, value.clone());
        }
        Ok(())
    }

    fn read_members(&mut self, reader: &mut ObjectReader<'_>) -> Result<(), PatchError> {
        self.members.append(&mut reader.take_all());
        Ok(())
    }
}

impl<T> ValuePatch for UntypedPatch<T> {
    fn write_value(&self, path: &Path<'_>) -> Result<Value, PatchError> {
        write_object(self, path)
    }

    fn read_value(value: Value, path: &Path<'_>) -> Result<Self, PatchError> {
        read_object(value, path)
    }
}

impl<T> serde_core::Serialize for UntypedPatch<T> {
    fn serialize<S: serde_core::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_patch(self, serializer)
    }
}

impl<'de, T> serde_core::Deserialize<'de> for UntypedPatch<T> {
    fn deserialize<D: serde_core::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_patch(deserializer)
    }
}
