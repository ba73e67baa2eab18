//! `x-kubernetes-unions`: the unions of an object schema (KEP-1027).
//!
//! ```json
//! "x-kubernetes-unions": [
//!   {"discriminator": "type", "fields-to-discriminateBy": {"rollingUpdate": "RollingUpdate"}}
//! ]
//! ```
//!
//! Every name must be a property of the same object: a union cannot span objects, and a
//! misspelt member would otherwise be silently never normalized.

use serde_json::{Map, Value};

use std::borrow::Cow;

use crate::schema::{FieldDef, Str, TypeDef, UnionDef, UnionMember};

use super::SchemaError;

const KEY: &str = "x-kubernetes-unions";

/// `def` (the struct built from the object schema `s`) with the unions `s` declares.
///
/// Kept out of line: the loader recurses through `shape` once per nesting level, and this
/// code's locals would otherwise enlarge every one of those frames.
#[inline(never)]
pub(super) fn attach(
    mut def: TypeDef,
    s: &Map<String, Value>,
    at: &str,
) -> Result<TypeDef, SchemaError> {
    if let TypeDef::Struct(st) = &mut def {
        st.unions = Cow::Owned(read(s, &st.fields, at)?);
    }
    Ok(def)
}

/// The unions of the object schema `s` whose properties became `fields`.
fn read(
    s: &Map<String, Value>,
    fields: &[FieldDef],
    at: &str,
) -> Result<Vec<UnionDef>, SchemaError> {
    let list = match s.get(KEY) {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(bad(format!("{at}/{KEY}"), "a list of unions")),
    };
    let declared = |name: &str| fields.iter().any(|f| f.name == name);
    let mut out = Vec::with_capacity(list.len());
    for (i, union) in list.iter().enumerate() {
        let here = format!("{at}/{KEY}/{i}");
        let Value::Object(union) = union else {
            return Err(bad(here, "an object with `fields-to-discriminateBy`"));
        };
        let discriminator = match union.get("discriminator") {
            None | Some(Value::Null) => None,
            Some(Value::String(d)) if declared(d) => Some(Str::Owned(d.clone())),
            Some(_) => {
                return Err(bad(
                    format!("{here}/discriminator"),
                    "the name of a property of this object",
                ));
            }
        };
        let members_at = format!("{here}/fields-to-discriminateBy");
        let Some(Value::Object(members)) = union.get("fields-to-discriminateBy") else {
            return Err(bad(
                members_at,
                "an object mapping member fields to discriminator values",
            ));
        };
        let mut list = Vec::with_capacity(members.len());
        for (field, value) in members {
            let Value::String(value) = value else {
                return Err(bad(
                    format!("{members_at}/{}", super::escape_pointer(field)),
                    "a string (the discriminator value of this member)",
                ));
            };
            if !declared(field) {
                return Err(bad(
                    format!("{members_at}/{}", super::escape_pointer(field)),
                    "a member that is a property of this object",
                ));
            }
            list.push(UnionMember {
                field: Str::Owned(field.clone()),
                discriminated_by: Str::Owned(value.clone()),
            });
        }
        out.push(UnionDef {
            discriminator,
            members: list.into(),
        });
    }
    Ok(out)
}

fn bad(at: String, expected: &'static str) -> SchemaError {
    SchemaError::BadShape { at, expected }
}
