//! `Quantity` (k8s.io/apimachinery `resource.Quantity`): `500m`, `128Mi`, `1`.
//!
//! Kept as the text the user wrote, not parsed: patching never does arithmetic, and
//! normalizing (`1000m` to `1`) would change documents that are only being patched. A number
//! in the input (`cpu: 1`) reads as the string `"1"`, which is how Go's `Quantity` writes it
//! back too.

use std::fmt;

use serde_core::de::{self, Visitor};
use serde_core::{Deserialize, Deserializer, Serialize, Serializer};
use smp_core::typed::KeyRef;

/// A resource quantity in its textual form.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Quantity(pub String);

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Quantity {
    fn from(s: &str) -> Self {
        Quantity(s.to_owned())
    }
}

impl Serialize for Quantity {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Quantity {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Text;
        impl Visitor<'_> for Text {
            type Value = Quantity;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a quantity (string or number)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Quantity, E> {
                Ok(Quantity(v.to_owned()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Quantity, E> {
                Ok(Quantity(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Quantity, E> {
                Ok(Quantity(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Quantity, E> {
                Ok(Quantity(v.to_string()))
            }
        }
        deserializer.deserialize_any(Text)
    }
}

crate::macros::scalar_patch_field!(Quantity, |v| KeyRef::Str(&v.0));
