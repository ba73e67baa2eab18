//! `IntOrString` (k8s.io/apimachinery `intstr`): a port number or a port name, a count or a
//! percentage. JSON keeps whichever form was written, so the type does too.

use std::fmt;

use serde_core::de::{self, Visitor};
use serde_core::{Deserialize, Deserializer, Serialize, Serializer};
use smp_core::typed::KeyRef;

/// An integer or a string, serialized as whichever it holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IntOrString {
    /// `8080`, `3`.
    Int(i32),
    /// `"http"`, `"25%"`.
    String(String),
}

// The serde impls are written by hand (what `#[serde(untagged)]` would do, with a clearer
// error), so that smp-types needs no serde derive unless its `types` feature asks for one.

impl Serialize for IntOrString {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            IntOrString::Int(i) => serializer.serialize_i32(*i),
            IntOrString::String(s) => serializer.serialize_str(s),
        }
    }
}

impl<'de> Deserialize<'de> for IntOrString {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either;
        impl Visitor<'_> for Either {
            type Value = IntOrString;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a 32-bit integer or a string")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<IntOrString, E> {
                i32::try_from(v)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<IntOrString, E> {
                i32::try_from(v)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<IntOrString, E> {
                Ok(IntOrString::String(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<IntOrString, E> {
                Ok(IntOrString::String(v))
            }
        }
        deserializer.deserialize_any(Either)
    }
}

impl fmt::Display for IntOrString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntOrString::Int(i) => write!(f, "{i}"),
            IntOrString::String(s) => f.write_str(s),
        }
    }
}

/// `0`, what Go's zero `IntOrString` is.
impl Default for IntOrString {
    fn default() -> Self {
        IntOrString::Int(0)
    }
}

impl From<i32> for IntOrString {
    fn from(i: i32) -> Self {
        IntOrString::Int(i)
    }
}

impl From<&str> for IntOrString {
    fn from(s: &str) -> Self {
        IntOrString::String(s.to_owned())
    }
}

crate::macros::scalar_patch_field!(IntOrString, |v| match v {
    IntOrString::Int(i) => KeyRef::Int(i64::from(*i)),
    IntOrString::String(s) => KeyRef::Str(s),
});
