//! `IntOrString` (k8s.io/apimachinery `intstr`): a port number or a port name, a count or a
//! percentage. JSON keeps whichever form was written, so the type does too.

use std::fmt;

use serde::{Deserialize, Serialize};
use smp_core::typed::KeyRef;

/// An integer or a string, serialized as whichever it holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IntOrString {
    /// `8080`, `3`.
    Int(i32),
    /// `"http"`, `"25%"`.
    String(String),
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
