//! The operations, on JSON values: each reads its documents as objects (a missing one, `null`
//! or `{}`, is the empty object), picks the schema, and calls the engine.

use serde_json::{Map, Value};
use smp_core::{Conflicts, DocRole, ThreeWayOptions};
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager, FieldManagerError};

use crate::{Crds, Error, Typing};

fn three_way_options(overwrite: bool) -> ThreeWayOptions {
    ThreeWayOptions {
        conflicts: if overwrite {
            Conflicts::Overwrite
        } else {
            Conflicts::Refuse
        },
        ..ThreeWayOptions::default()
    }
}

/// Applies the strategic merge patch `patch` to `original` (taken: the packages convert a
/// fresh copy of the caller's document, so nothing is copied again).
pub fn merge(original: Value, patch: &Value, typing: &Typing) -> Result<Value, Error> {
    let typing = typing.clone().named_by(&[&original]);
    typing
        .with_node(&[], |node| smp_core::apply_owned(original, patch, node))
        .map_err(Error::from)
}

/// The two-way patch from `original` to `modified`.
pub fn diff(original: &Value, modified: &Value, typing: &Typing) -> Result<Value, Error> {
    typing
        .with_node(&[modified, original], |node| {
            smp_core::diff(original, modified, node)
        })
        .map_err(Error::from)
}

/// The three-way patch `kubectl apply` sends; `overwrite: false` refuses to undo others'
/// changes (`kubectl apply --overwrite=false`).
pub fn three_way(
    original: &Value,
    modified: &Value,
    current: &Value,
    overwrite: bool,
    typing: &Typing,
) -> Result<Value, Error> {
    let options = three_way_options(overwrite);
    typing
        .with_node(&[modified, current, original], |node| {
            smp_core::three_way(original, modified, current, node, &options)
        })
        .map_err(Error::from)
}

/// Client-side apply (`kubectl apply`): the patch, and `live` with it applied.
pub fn apply(
    live: &Value,
    config: &Value,
    overwrite: bool,
    typing: &Typing,
) -> Result<(Value, Value), Error> {
    let options = three_way_options(overwrite);
    let applied = typing.with_node(&[config, live], |node| {
        smp_core::client_side_apply(live, config, node, &options)
    })?;
    Ok((applied.patch.into_value(), applied.result))
}

/// Union normalization (KEP-1027) of `new` given the object before, then the check that each
/// union has at most one member set.
pub fn normalize(mut new: Value, old: Option<&Value>, typing: &Typing) -> Result<Value, Error> {
    // The kind is read before `new` changes.
    let typing = typing.clone().named_by(&[&new]);
    typing.with_node(&[], |node| {
        smp_core::union::normalize(&mut new, old, node);
        smp_core::union::validate(&new, node)
    })?;
    Ok(new)
}

/// The options of server-side apply and of updates.
#[derive(Debug, Clone, Default)]
pub struct Ssa {
    /// The field manager.
    pub manager: String,
    /// The subresource written through (`status`), if any.
    pub subresource: Option<String>,
    /// A fixed time for managedFields, in seconds since the epoch ([`parse_time`]); `None`:
    /// the clock.
    pub now: Option<i64>,
}

/// An RFC 3339 time (`2026-11-26T12:00:00Z`) as seconds since the epoch.
pub fn parse_time(text: &str) -> Result<i64, Error> {
    match Clock::fixed(text) {
        Some(Clock::Fixed(seconds)) => Ok(seconds),
        _ => Err(Error::patch(
            format!("now: expected an RFC 3339 time such as 2026-11-26T12:00:00Z, got `{text}`"),
            None,
        )),
    }
}

/// An empty object counts as no object: the write creates it.
fn existing(live: &Value) -> Option<&Value> {
    live.as_object()
        .is_some_and(|m| !m.is_empty())
        .then_some(live)
}

/// The `apiVersion` and `kind` a write is typed by (both must be there).
fn type_of(object: &Value) -> Result<(String, String), Error> {
    let text = |key: &str| object.get(key).and_then(Value::as_str).unwrap_or("");
    let (version, kind) = (text("apiVersion"), text("kind"));
    if version.is_empty() || kind.is_empty() {
        return Err(Error::patch(
            "the object has no apiVersion and kind: server-side apply types it by them",
            None,
        ));
    }
    Ok((version.to_owned(), kind.to_owned()))
}

/// Runs `f` with the field manager of `version`/`kind`: a custom resource's from the CRDs, else
/// a built-in kind's.
fn with_field_manager<R>(
    (version, kind): (String, String),
    typing: &Typing,
    options: &Ssa,
    f: impl FnOnce(&FieldManager<'_>) -> Result<R, FieldManagerError>,
) -> Result<R, Error> {
    let gvk = smp_ssa::schema::Gvk::of(&version, &kind);
    let crds = typing
        .crds
        .as_deref()
        .filter(|c| c.lookup(&version, &kind).is_some());
    // Held here: the field manager borrows the types.
    let crd_types = crds.map(Crds::ssa_schema).transpose()?;
    let mut fm = match crds.zip(crd_types.as_deref().filter(|s| s.kind(&gvk).is_some())) {
        Some((crds, schema)) => {
            let mut fm = FieldManager::new(schema, &version, &kind)?;
            let subresource = options.subresource.as_deref().unwrap_or("");
            if let Some(resets) =
                smp_ssa::schema::crd_reset_fields(crds.documents(), &version, &kind, subresource)
            {
                fm = fm.reset_fields(resets);
            }
            fm
        }
        None => FieldManager::builtin(&version, &kind).map_err(|_| {
            Error::patch(
                format!(
                    "no type for {version}, Kind={kind}: not a Kubernetes v{} kind (give its CRD)",
                    smp_ssa::builtin::KUBERNETES_VERSION
                ),
                None,
            )
        })?,
    };
    if let Some(name) = &options.subresource {
        fm = fm.subresource(name);
    }
    if let Some(seconds) = options.now {
        fm = fm.clock(Clock::Fixed(seconds));
    }
    f(&fm).map_err(Error::from)
}

/// Server-side apply of `config` over `live` (`{}`: the object is created): the object the
/// API server stores, with its managedFields. `force` takes fields other managers own.
pub fn server_side_apply(
    live: &Value,
    config: &Value,
    force: bool,
    typing: &Typing,
    options: &Ssa,
) -> Result<Value, Error> {
    with_field_manager(type_of(config)?, typing, options, |fm| {
        fm.apply(
            existing(live),
            config,
            &options.manager,
            ApplyOptions { force },
        )
    })
}

/// A write of `new` that is not an apply (create, update, patch) over `live` (`{}`: a create):
/// `new` with the managedFields the API server records.
pub fn update(live: &Value, new: Value, typing: &Typing, options: &Ssa) -> Result<Value, Error> {
    with_field_manager(type_of(&new)?, typing, options, |fm| {
        fm.update(existing(live), new, &options.manager)
    })
}

/// A document read as an object: `null` (a missing document, empty text) is `{}`, anything
/// else but an object is an error naming the input (`role`).
pub fn object(doc: Value, role: DocRole) -> Result<Value, Error> {
    match doc {
        Value::Null => Ok(Value::Object(Map::new())),
        v @ Value::Object(_) => Ok(v),
        other => Err(Error::patch(
            format!(
                "the {role} must be an object, not {}",
                smp_core::error::kind_of(&other)
            ),
            None,
        )),
    }
}

/// A document given as JSON or YAML text, as an object (see [`object`]).
pub fn parse(text: &str, role: DocRole) -> Result<Value, Error> {
    object(smp_core::parse_document(text, role)?, role)
}
