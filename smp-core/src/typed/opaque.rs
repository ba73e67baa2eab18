//! [`Opaque`]: a field patched as one JSON value, whatever its Rust type.

use std::fmt;

use serde_core::de::DeserializeOwned;
use serde_core::{Deserialize, Deserializer, Serialize, Serializer};

use super::{PatchField, PatchSchema};
use crate::schema::TypeDef;
use crate::typed::unions::Normalize;

/// A value patched as one opaque JSON value: replaced whole by a patch, compared and diffed
/// through its JSON form. Its type needs only `Serialize` and `DeserializeOwned`, so it is the
/// way to hold a type of another crate (`std::time::SystemTime`, `std::net::IpAddr`, a
/// k8s-openapi type) in a struct that derives `StrategicMerge`.
///
/// `#[patch(opaque)]` on a field does this without changing the field's type: the generated
/// code views the field as an `Opaque` of it. The wrapper itself serializes exactly as the
/// value it holds, and can be a field type too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Opaque<T>(pub T);

impl<T> Opaque<T> {
    /// Views a shared reference as one to an `Opaque`.
    pub fn from_ref(value: &T) -> &Opaque<T> {
        // SAFETY: `Opaque<T>` is `repr(transparent)` over `T`, so both have the same layout
        // and validity, and the returned reference borrows `value` for the same lifetime.
        unsafe { &*(value as *const T as *const Opaque<T>) }
    }

    /// Views a mutable reference as one to an `Opaque`.
    pub fn from_mut(value: &mut T) -> &mut Opaque<T> {
        // SAFETY: as in `from_ref`; the exclusive borrow is passed on unchanged.
        unsafe { &mut *(value as *mut T as *mut Opaque<T>) }
    }
}

impl<T: Serialize> Serialize for Opaque<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Opaque<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Opaque<T>, D::Error> {
        T::deserialize(deserializer).map(Opaque)
    }
}

impl<T: fmt::Display> fmt::Display for Opaque<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Every operation goes through the JSON form (the trait's defaults): planning and diffing
/// hand the member to the `Value` engine, and the schema says nothing about its inside.
impl<T: 'static> PatchSchema for Opaque<T> {
    const DEF: &'static TypeDef = TypeDef::OPAQUE;
}

impl<T: Serialize + DeserializeOwned + 'static> PatchField for Opaque<T> {}

/// An opaque value holds no unions.
impl<T> Normalize for Opaque<T> {}
