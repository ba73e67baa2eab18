//! `Time` and `MicroTime` (k8s.io/apimachinery `meta/v1`): RFC 3339 timestamps.
//!
//! Kept as the text the document holds, not parsed: patching compares and copies timestamps and
//! never reads them, and re-printing a parsed time could change its form (`+00:00` versus `Z`,
//! fractional digits), which a typed round trip must not do.

use std::fmt;

use serde_core::{Deserialize, Deserializer, Serialize, Serializer};
use smp_core::typed::KeyRef;

/// A timestamp with second precision, as RFC 3339 text (`2026-03-01T10:00:00Z`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Time(pub String);

/// A timestamp with microsecond precision, as RFC 3339 text (`2026-03-01T10:00:00.000001Z`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct MicroTime(pub String);

/// Serialized as the string it holds (what `#[serde(transparent)]` would derive, written out so
/// that smp-types needs no serde derive unless its `types` feature asks for one).
macro_rules! text_serde {
    ($ty:ident) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.0)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                String::deserialize(deserializer).map($ty)
            }
        }
    };
}

text_serde!(Time);
text_serde!(MicroTime);

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for MicroTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Time {
    fn from(s: &str) -> Self {
        Time(s.to_owned())
    }
}

impl From<&str> for MicroTime {
    fn from(s: &str) -> Self {
        MicroTime(s.to_owned())
    }
}

crate::macros::scalar_patch_field!(Time, |v| KeyRef::Str(&v.0));
crate::macros::scalar_patch_field!(MicroTime, |v| KeyRef::Str(&v.0));
