//! Structural defaulting (apiextensions-apiserver `pkg/apiserver/schema/defaulting`): a
//! property that is absent, or `null` where the schema does not allow null, takes its
//! schema's `default`, and the walk then goes on into every member, defaults included (so a
//! default object gains the defaults of its own properties). Before it, on decoding, `null`
//! members the schema neither allows nor defaults are dropped
//! ([`prune_non_nullable_nulls`]).

use serde_json::Value;

use super::structural::{MAX_DEPTH, Structural};

/// Whether `value` is a `null` the schema `s` does not allow.
fn non_nullable_null(value: &Value, s: Option<&Structural>) -> bool {
    value.is_null() && s.is_some_and(|s| !s.nullable)
}

/// Applies the defaults of `schema` to `value` (`Default`).
pub fn default(value: &mut Value, schema: &Structural) {
    default_at(value, schema, 0);
}

fn default_at(value: &mut Value, s: &Structural, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::Object(members) => {
            for (key, property) in &s.properties {
                let Some(default) = &property.default else {
                    continue;
                };
                let missing = match members.get(key) {
                    None => true,
                    Some(member) => non_nullable_null(member, Some(property)),
                };
                if missing {
                    members.insert(key.clone(), default.clone());
                }
            }
            let additional = s.additional_properties.as_ref().map(|a| a.schema());
            for (key, member) in members.iter_mut() {
                if let Some(property) = s.properties.get(key) {
                    default_at(member, property, depth + 1);
                } else if let Some(additional) = additional {
                    if non_nullable_null(member, additional) {
                        // The server writes the schema's default here, `null` when it has none.
                        *member = additional
                            .and_then(|a| a.default.clone())
                            .unwrap_or(Value::Null);
                    }
                    if let Some(inner) = additional {
                        default_at(member, inner, depth + 1);
                    }
                }
            }
        }
        Value::Array(items) => {
            let Some(inner) = s.items.as_deref() else {
                return;
            };
            for item in items.iter_mut() {
                if non_nullable_null(item, Some(inner)) {
                    *item = inner.default.clone().unwrap_or(Value::Null);
                }
                default_at(item, inner, depth + 1);
            }
        }
        _ => {}
    }
}

/// Whether [`default`] would change `value`: the check a read makes before it copies an
/// object to default it (the server defaults every object it reads from storage, which
/// matters for objects stored before their CRD gained a default).
pub fn would_default(value: &Value, schema: &Structural) -> bool {
    would_default_at(value, schema, 0)
}

fn would_default_at(value: &Value, s: &Structural, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match value {
        Value::Object(members) => {
            let missing = s.properties.iter().any(|(key, property)| {
                property.default.is_some()
                    && members
                        .get(key)
                        .is_none_or(|m| non_nullable_null(m, Some(property)))
            });
            if missing {
                return true;
            }
            let additional = s.additional_properties.as_ref().map(|a| a.schema());
            members.iter().any(|(key, member)| {
                if let Some(property) = s.properties.get(key) {
                    would_default_at(member, property, depth + 1)
                } else if let Some(additional) = additional {
                    let takes_default = non_nullable_null(member, additional)
                        && additional.is_some_and(|a| a.default.is_some());
                    takes_default
                        || additional
                            .is_some_and(|inner| would_default_at(member, inner, depth + 1))
                } else {
                    false
                }
            })
        }
        Value::Array(items) => {
            let Some(inner) = s.items.as_deref() else {
                return false;
            };
            items.iter().any(|item| {
                (non_nullable_null(item, Some(inner)) && inner.default.is_some())
                    || would_default_at(item, inner, depth + 1)
            })
        }
        _ => false,
    }
}

/// Whether any node of `schema` has a default.
pub fn has_defaults(schema: &Structural) -> bool {
    has_defaults_at(schema, 0)
}

fn has_defaults_at(s: &Structural, depth: usize) -> bool {
    depth <= MAX_DEPTH
        && (s.default.is_some()
            || s.properties.values().any(|p| has_defaults_at(p, depth + 1))
            || s.items
                .as_deref()
                .is_some_and(|i| has_defaults_at(i, depth + 1))
            || s.additional_properties
                .as_ref()
                .and_then(|a| a.schema())
                .is_some_and(|a| has_defaults_at(a, depth + 1)))
}

/// Drops every `null` member whose schema neither allows null nor has a default
/// (`PruneNonNullableNullsWithoutDefaults`); list items are not dropped.
pub fn prune_non_nullable_nulls(value: &mut Value, schema: &Structural) {
    prune_nulls_at(value, Some(schema), 0);
}

fn prune_nulls_at(value: &mut Value, s: Option<&Structural>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::Object(members) => {
            let field_schema = |key: &str| -> Option<&Structural> {
                let s = s?;
                match s.properties.get(key) {
                    Some(p) => Some(p),
                    None => s.additional_properties.as_ref().and_then(|a| a.schema()),
                }
            };
            members.retain(|key, member| {
                let schema = field_schema(key);
                if member.is_null() && schema.is_some_and(|s| !s.nullable && s.default.is_none()) {
                    return false;
                }
                prune_nulls_at(member, schema, depth + 1);
                true
            });
        }
        Value::Array(items) => {
            let inner = s.and_then(|s| s.items.as_deref());
            for item in items.iter_mut() {
                prune_nulls_at(item, inner, depth + 1);
            }
        }
        _ => {}
    }
}
