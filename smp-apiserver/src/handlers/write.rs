//! Creating, replacing and deleting objects, and what every write shares: the object read from
//! the body, the metadata the server owns kept, `generation` moved, managedFields recorded,
//! finalizers honoured, and the write committed against the revision it was based on.

use http::StatusCode;
use serde_json::{Value, json};
use smp_ssa::managedfields::{FieldManager, FieldManagerError};

use super::call::{Call, RETRIES};

use super::body::{conflict, read_object};
use super::{delete_options, namespaces, options};
use crate::conversion::Shape;
use crate::object::{self, meta, set_meta};
use crate::registry::generation;
use crate::status::{ApiError, FieldError};
use crate::store::{Stored, WriteError};

/// Who writes: the `fieldManager` of the query, else the client's name from its `User-Agent`:
/// what precedes the first `/`, printable characters only, at most 128 bytes (empty when the
/// client sends none), as the server derives it.
pub(super) fn manager_name(call: &Call<'_>) -> String {
    if let Some(m) = call.query("fieldManager").filter(|m| !m.is_empty()) {
        return m.to_owned();
    }
    const MAX: usize = 128;
    let agent = call
        .headers
        .get(http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let mut name = String::new();
    for c in agent.split('/').next().unwrap_or("").chars() {
        if c.is_control() {
            continue;
        }
        if name.len() + c.len_utf8() > MAX {
            break;
        }
        name.push(c);
    }
    name
}

/// Runs `f` with the field manager of the endpoint: the built-in types', or those of the
/// served CRDs (with the fields their status subresource resets); `None` for a kind neither
/// knows.
pub(super) fn with_field_manager<R>(
    call: &Call<'_>,
    f: impl FnOnce(&FieldManager<'_>) -> R,
) -> Option<R> {
    // The object written is the resource's, whatever a subresource takes (`Scale`).
    let (api_version, kind) = (call.resource.api_version(), call.resource.kind.clone());
    let sub = &call.info.subresource;
    let clock = call.state.options.clock.clone();
    if let Ok(fm) = FieldManager::builtin(&api_version, &kind) {
        return Some(f(&fm.subresource(sub).clock(clock)));
    }
    let schema = call.served.schema.as_ref()?;
    let mut fm = FieldManager::new(schema, &api_version, &kind)
        .ok()?
        .subresource(sub)
        .clock(clock);
    let crds = call.served.crds.iter();
    if let Some(resets) = smp_ssa::schema::crd_reset_fields(crds, &api_version, &kind, sub) {
        fm = fm.reset_fields(resets);
    }
    Some(f(&fm))
}

/// The field manager's refusals as the server answers them.
pub(super) fn manager_error(call: &Call<'_>, name: &str, e: FieldManagerError) -> ApiError {
    match e {
        FieldManagerError::Conflict(conflict) => ApiError::apply_conflict(&conflict),
        FieldManagerError::BadRequest(m) => ApiError::bad_request(m),
        other => ApiError::invalid(
            &call.resource.group,
            &call.resource.kind,
            name,
            other.to_string(),
        ),
    }
}

/// `new` (an update or a patch's result) made ready to store over `current`: the name checked,
/// the metadata the server owns kept, a subresource's write limited to it, `generation` moved
/// when more than metadata and status changed.
pub(super) fn prepare_update(
    call: &Call<'_>,
    current: &Value,
    mut new: Value,
) -> Result<Value, ApiError> {
    let name = &call.info.name;
    let given = meta(&new, "name");
    if !given.is_empty() && given != name.as_str() {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({given}) does not match the name on the URL ({name})"
        )));
    }
    if call.info.subresource == "status" {
        new = status_write(call, current, new);
    }
    for key in [
        "uid",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "generation",
    ] {
        match current.pointer(&format!("/metadata/{key}")) {
            Some(v) => {
                object::metadata_mut(&mut new).insert(key.to_owned(), v.clone());
            }
            None => {
                object::metadata_mut(&mut new).remove(key);
            }
        }
    }
    set_meta(&mut new, "name", name);
    if !call.info.namespace.is_empty() {
        set_meta(&mut new, "namespace", &call.info.namespace);
    }
    // Kinds validated here report this with their other metadata errors.
    if !call.validates() {
        no_new_finalizers_while_deleting(call, current, &new)?;
    }
    Ok(new)
}

/// What a write to the status endpoint keeps of `new`. A built-in kind's status strategy takes
/// the object written and puts back what its `PrepareForUpdate` resets: the spec, and for some
/// kinds labels, owner references or the whole metadata (the reset-field table of
/// `smp_ssa::builtin`, which is `GetResetFields` of the same strategies); so a status write may
/// change a Pod's labels and annotations, as on a cluster. Then its gated status fields and a
/// Pod's QoS class (`smp_admission::strategy::prepare_for_status_update`). A custom resource,
/// or a kind the table lacks, takes the status alone (apiextensions-apiserver's
/// `status_strategy.go`).
fn status_write(call: &Call<'_>, current: &Value, mut new: Value) -> Value {
    let api_version = call.resource.api_version();
    let resets = call
        .resource
        .names
        .is_none()
        .then(|| smp_ssa::builtin::reset_fields(&api_version, &call.resource.kind, "status"))
        .flatten();
    let Some(resets) = resets else {
        let status = new.get("status").cloned();
        let mut kept = current.clone();
        match status {
            Some(status) => kept["status"] = status,
            None => {
                if let Some(o) = kept.as_object_mut() {
                    o.remove("status");
                }
            }
        }
        return kept;
    };
    for path in resets.paths() {
        let mut names = Vec::with_capacity(path.0.len());
        for element in &path.0 {
            match element {
                smp_ssa::fieldpath::PathElement::Field(name) => names.push(name.as_str()),
                _ => break,
            }
        }
        if names.len() == path.0.len() {
            put_back(&mut new, current, &names);
        }
    }
    if call.state.options.defaulting {
        smp_admission::strategy::prepare_for_status_update(&mut new, current);
        let now = call.state.options.clock.now();
        crate::registry::persistent_volumes::stamp_on_status_update(&mut new, current, &now);
    }
    new
}

/// Sets `object`'s member at `names` to `current`'s (removing it where `current` has none).
/// The whole metadata put back keeps the written `resourceVersion`, the write's precondition.
fn put_back(object: &mut Value, current: &Value, names: &[&str]) {
    let Some((last, parents)) = names.split_last() else {
        return;
    };
    let mut kept = parents
        .iter()
        .try_fold(current, |v, n| v.get(*n))
        .and_then(|v| v.get(*last))
        .cloned();
    if names == ["metadata"] {
        let version = object.pointer("/metadata/resourceVersion").cloned();
        if let (Some(Value::Object(meta)), Some(version)) = (kept.as_mut(), version) {
            meta.insert("resourceVersion".to_owned(), version);
        }
    }
    let mut target = object;
    for name in parents {
        let Some(map) = target.as_object_mut() else {
            return;
        };
        target = map
            .entry((*name).to_owned())
            .or_insert_with(|| Value::Object(Default::default()));
    }
    let Some(map) = target.as_object_mut() else {
        return;
    };
    match kept {
        Some(v) => {
            map.insert((*last).to_owned(), v);
        }
        None => {
            map.remove(*last);
        }
    }
}

/// An object being deleted takes no new finalizers (apimachinery's
/// `ValidateObjectMetaUpdate`); it may lose some, or have them in another order.
fn no_new_finalizers_while_deleting(
    call: &Call<'_>,
    current: &Value,
    new: &Value,
) -> Result<(), ApiError> {
    if meta(current, "deletionTimestamp").is_empty() {
        return Ok(());
    }
    let old: std::collections::BTreeSet<String> =
        delete_options::finalizers(current).into_iter().collect();
    let added: std::collections::BTreeSet<String> = delete_options::finalizers(new)
        .into_iter()
        .filter(|f| !old.contains(f))
        .collect();
    if added.is_empty() {
        return Ok(());
    }
    let printed: Vec<String> = added.iter().map(|f| format!("{f:?}")).collect();
    Err(ApiError::invalid_fields(
        &call.resource.group,
        &call.resource.kind,
        &call.info.name,
        &[FieldError::forbidden(
            "metadata.finalizers",
            &format!(
                "no new finalizers can be added if the object is being deleted, found new \
                 finalizers []string{{{}}}",
                printed.join(", ")
            ),
        )],
    ))
}

/// Refuses an update the server's validation refuses. An unconditional update (no
/// resourceVersion given) is validated with the stored version, which the server's store puts
/// in before it validates.
pub(super) fn validate_update(
    call: &Call<'_>,
    current: &Stored,
    new: &Value,
) -> Result<(), ApiError> {
    if meta(new, "resourceVersion").is_empty() {
        let mut versioned = new.clone();
        set_meta(
            &mut versioned,
            "resourceVersion",
            &current.revision.to_string(),
        );
        return call.validate_update(&versioned, &current.object);
    }
    call.validate_update(new, &current.object)
}

/// Moves `new`'s generation on from `current`'s if its kind's strategy sees a change (the
/// status subresource never moves it).
pub(super) fn settle_generation(call: &Call<'_>, current: &Value, new: &mut Value) {
    let stored = current.pointer("/metadata/generation").cloned();
    let moved =
        call.info.subresource != "status" && generation::moves(call.generation().1, current, new);
    let value = match stored.as_ref().and_then(Value::as_i64) {
        Some(g) if moved && g > 0 => Some(json!(g + 1)),
        _ => stored,
    };
    let metadata = object::metadata_mut(new);
    match value {
        Some(v) => metadata.insert("generation".into(), v),
        None => metadata.remove("generation"),
    };
}

/// Whether the write is to the Services' main endpoint, whose registry allocates addresses and
/// node ports (a status write keeps the spec, so allocates nothing).
fn allocates_addresses(call: &Call<'_>) -> bool {
    call.resource.group.is_empty()
        && call.resource.plural() == "services"
        && call.resource.names.is_none()
        && call.info.subresource.is_empty()
}

/// The lock a Service write holds from picking its addresses to recording them. A writer that
/// panicked holding it recorded nothing, so the lock is taken all the same.
fn lock_allocator<'a>(call: &Call<'a>) -> std::sync::MutexGuard<'a, ()> {
    call.state
        .allocator
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// The end every update shares (a replace, a patch, an apply): a Service's addresses and node
/// ports settled (its registry's `beginUpdate`, which runs before the strategy and validation),
/// `generation` moved, the object validated and committed. The outer error refuses the update;
/// the inner one is the store's, the object having changed meanwhile. A Service holds the
/// allocator lock from its choice until its addresses are recorded, so no create or update
/// takes them meanwhile, and records them only if it is still stored.
pub(super) fn store_update(
    call: &Call<'_>,
    current: &Stored,
    mut new: Value,
) -> Result<Result<Value, WriteError>, ApiError> {
    let is_service = allocates_addresses(call);
    let _allocating = is_service.then(|| lock_allocator(call));
    let allocation = if is_service {
        crate::registry::services::prepare_update(call.state, &mut new, &current.object)?
    } else {
        Default::default()
    };
    call.prepare_for_update(&mut new, &current.object);
    settle_generation(call, &current.object, &mut new);
    validate_update(call, current, &new)?;
    call.validate_admission(&new, Some(&current.object))?;
    let written = commit(call, current, new);
    // An update that let a deleted object go stores nothing to record addresses for (the
    // deletion released what it held).
    let stored = || call.state.store.get(&call.key(&call.info.name)).is_some();
    if is_service && written.is_ok() && !call.dry_run() && stored() {
        let (namespace, name) = (&call.info.namespace, &call.info.name);
        crate::registry::services::record(call.state, namespace, name, &allocation);
    }
    Ok(written)
}

/// Stores `new` over `current` (or removes the object, when its deletion waited only for the
/// finalizers `new` no longer has, or keeps `current` when `new` is the same); an error when
/// the object changed meanwhile.
pub(super) fn commit(
    call: &Call<'_>,
    current: &Stored,
    mut new: Value,
) -> Result<Value, WriteError> {
    call.print_as_go(&mut new);
    if call.dry_run() {
        return Ok(new);
    }
    let key = call.key(&call.info.name);
    // An object marked for deletion with no grace period left goes when the last finalizer
    // does (the generic registry's `shouldDeleteDuringUpdate`), and the update answers what it
    // was given.
    let deleting = !meta(&current.object, "deletionTimestamp").is_empty();
    let grace = current
        .object
        .pointer("/metadata/deletionGracePeriodSeconds")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let held = if namespaces::is_namespaces(call) {
        namespaces::held(&new)
    } else {
        object::finalizers(&new) > 0
    };
    if deleting && grace <= 0 && !held {
        call.state.store.remove(&key, current.revision)?;
        namespaces::removed_from(call.state, &call.info.namespace);
        return Ok(new);
    }
    // A write that changes nothing writes nothing: the etcd3 store's `GuaranteedUpdate`
    // compares the new object's bytes (resourceVersion aside) with the stored ones and skips
    // the write, so the object keeps its resourceVersion and no watcher hears of it.
    let new = call.shape.to_storage(new);
    let unchanged = match call.shape {
        Shape::Plain => object::same_but_resource_version(&current.object, &new),
        shape => {
            object::same_but_resource_version(&shape.to_storage((*current.object).clone()), &new)
        }
    };
    if unchanged {
        return Ok((*current.object).clone());
    }
    let stored = call.state.store.replace(&key, current.revision, new)?;
    Ok((*call.served_shape(stored).object).clone())
}

pub(super) fn create(call: &Call<'_>, body: &[u8]) -> Result<(StatusCode, Value), ApiError> {
    options::write(call, "CreateOptions")?;
    let mut new = read_object(call, body)?;
    call.validate_fields(&mut new, super::call::ReadAs::Body)?;
    call.default_object(&mut new);
    create_object(call, new, true)
}

/// Stores a new object: namespace and name settled, the metadata the server sets on create
/// written; its managedFields recorded as an update when `record` (an apply records them
/// itself).
pub(super) fn create_object(
    call: &Call<'_>,
    mut new: Value,
    record: bool,
) -> Result<(StatusCode, Value), ApiError> {
    let dry_run = call.dry_run();
    let namespace = meta(&new, "namespace").to_owned();
    if !namespace.is_empty() && namespace != call.info.namespace {
        return Err(ApiError::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        ));
    }
    if !meta(&new, "resourceVersion").is_empty() {
        return Err(ApiError::bad_request(
            "resourceVersion should not be set on objects to be created",
        ));
    }
    let mut name = meta(&new, "name").to_owned();
    if name.is_empty() {
        let prefix = meta(&new, "generateName");
        if prefix.is_empty() {
            return Err(ApiError::invalid(
                &call.resource.group,
                &call.resource.kind,
                "",
                "metadata.name: Required value: name or generateName is required",
            ));
        }
        name = format!("{prefix}{}", object::name_suffix());
    }
    if call.resource.namespaced {
        namespaces::check_open(call, &name)?;
        set_meta(&mut new, "namespace", &call.info.namespace);
    }
    set_meta(&mut new, "name", &name);
    set_meta(&mut new, "uid", &object::new_uid());
    set_meta(
        &mut new,
        "creationTimestamp",
        &call.state.options.clock.now(),
    );
    let metadata = object::metadata_mut(&mut new);
    metadata.remove("deletionTimestamp");
    metadata.remove("deletionGracePeriodSeconds");
    // The kinds whose strategy counts generations start at 1; the others keep what they were
    // given.
    if call.generation().0 == generation::OnCreate::One {
        metadata.insert("generation".into(), json!(1));
    }
    if record {
        let manager = manager_name(call);
        let recorded = with_field_manager(call, |fm| fm.update(None, new.clone(), &manager));
        if let Some(recorded) = recorded {
            new = recorded.map_err(|e| manager_error(call, &name, e))?;
        }
    }
    // The admission plugins and the strategy's own steps come after the field manager: what
    // they set is no manager's.
    call.admit_create(&mut new)?;
    // A Service's addresses are picked and recorded under one lock, so two writes never
    // take the same one.
    let is_service = allocates_addresses(call);
    let _allocating = is_service.then(|| lock_allocator(call));
    let allocation = if is_service {
        crate::registry::services::allocate(call.state, &mut new)?
    } else {
        Default::default()
    };
    call.prepare_for_create(&mut new);
    if namespaces::is_namespaces(call) {
        namespaces::prepare_create(&mut new);
    }
    call.validate_create(&new)?;
    call.validate_admission(&new, None)?;
    call.print_as_go(&mut new);
    if dry_run {
        return Ok((StatusCode::CREATED, new));
    }
    let new = call.shape.to_storage(new);
    match call.state.store.create(call.key(&name), new) {
        Ok(stored) => {
            crate::registry::services::record(call.state, &call.info.namespace, &name, &allocation);
            Ok((
                StatusCode::CREATED,
                (*call.served_shape(stored).object).clone(),
            ))
        }
        Err(_) => Err(ApiError::already_exists(
            &call.resource.group,
            &call.resource.qualified(),
            &call.resource.resource,
            &name,
        )),
    }
}

pub(super) fn update(call: &Call<'_>, body: &[u8]) -> Result<(StatusCode, Value), ApiError> {
    options::write(call, "UpdateOptions")?;
    let mut given = read_object(call, body)?;
    call.validate_fields(&mut given, super::call::ReadAs::Body)?;
    call.default_object(&mut given);
    let expected = meta(&given, "resourceVersion").to_owned();
    for _ in 0..RETRIES {
        let current = call.current()?;
        if !expected.is_empty() && expected != current.revision.to_string() {
            return Err(conflict(call));
        }
        let new = prepare_update(call, &current.object, given.clone())?;
        let new = record_update(call, &current.object, new)?;
        match store_update(call, &current, new)? {
            Ok(object) => return Ok((StatusCode::OK, object)),
            Err(_) if expected.is_empty() => continue,
            Err(_) => return Err(conflict(call)),
        }
    }
    Err(conflict(call))
}

/// `new`, written over `live` by a non-apply write, with its managedFields.
pub(super) fn record_update(call: &Call<'_>, live: &Value, new: Value) -> Result<Value, ApiError> {
    let manager = manager_name(call);
    // The field manager takes the object; it is copied only for kinds it knows.
    let mut new = Some(new);
    let recorded = with_field_manager(call, |fm| {
        fm.update(Some(live), new.take().unwrap_or_default(), &manager)
    });
    match (recorded, new) {
        (Some(recorded), _) => recorded.map_err(|e| manager_error(call, &call.info.name, e)),
        (None, Some(new)) => Ok(new),
        (None, None) => Err(ApiError::bad_request("the object was lost")),
    }
}
