//! The field manager on Rust types: smp-types' kinds, k8s-openapi's, and a custom resource's
//! own `#[derive(StrategicMerge)]` struct. Objects go through their JSON form, so a typed write
//! is exactly the same write on `serde_json::Value`s.

use std::any::TypeId;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::{Mutex, OnceLock};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use smp_core::StrategicMerge;
use smp_core::typed_patch::ObjectKind;

use super::manager::{ApplyOptions, FieldManager, FieldManagerError};
use crate::schema::{Gvk, Schema, from_patch_metadata};

/// The field manager for objects of type `T`.
///
/// ```
/// use smp_core::ObjectPatch;
/// use smp_ssa::managedfields::{ApplyOptions, TypedFieldManager};
/// use smp_types::api::apps::v1::{Deployment, DeploymentPatch};
///
/// let fm = TypedFieldManager::<Deployment>::builtin()?;
/// let live: Deployment = smp_core::from_str(
///     "{apiVersion: apps/v1, kind: Deployment, metadata: {name: web},
///       spec: {selector: {matchLabels: {app: web}}, template: {spec: {containers: [{name: app}]}}}}",
/// )?;
/// let config = DeploymentPatch::apply_configuration("web")?.spec_with(|s| s.replicas(3));
/// let live = fm.apply(Some(&live), &config.to_apply_configuration()?, "ctrl", ApplyOptions::default())?;
/// assert_eq!(live.spec.as_ref().and_then(|s| s.replicas), Some(3));
/// // What "ctrl" owns, as the patch type: the configuration it applied.
/// let owned: DeploymentPatch = fm.extract_patch(&live, "ctrl")?;
/// assert_eq!(owned, config);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TypedFieldManager<'s, T> {
    fm: FieldManager<'s>,
    object: PhantomData<fn() -> T>,
}

impl<T: ObjectKind + Serialize + DeserializeOwned> TypedFieldManager<'static, T> {
    /// For a built-in kind (`T::API_VERSION`, `T::KIND`), with the built-in types and reset
    /// fields ([`FieldManager::builtin`]).
    pub fn builtin() -> Result<Self, FieldManagerError> {
        Ok(TypedFieldManager::new(FieldManager::builtin(
            T::API_VERSION,
            T::KIND,
        )?))
    }
}

impl<T: Serialize + DeserializeOwned> TypedFieldManager<'static, T> {
    /// For objects of a built-in kind, with the built-in types: any type of that kind
    /// (k8s-openapi's `Deployment`: `for_kind(Deployment::API_VERSION, Deployment::KIND)`).
    pub fn for_kind(api_version: &str, kind: &str) -> Result<Self, FieldManagerError> {
        Ok(TypedFieldManager::new(FieldManager::builtin(
            api_version,
            kind,
        )?))
    }

    /// For objects typed by the strategic-merge-patch metadata of `S` ([`from_patch_metadata`])
    /// as objects of `api_version` and `kind`: a custom resource whose Rust type is another
    /// (kube's generated `Widget`, with `S` = `smp_types::custom_resource::Object<WidgetSpec>`).
    /// The types are built once per `S`, kind and version and kept for the life of the process.
    pub fn derived_from<S: StrategicMerge>(
        api_version: &str,
        kind: &str,
    ) -> Result<Self, FieldManagerError> {
        let schema = derived_schema::<S>(api_version, kind);
        let fm = FieldManager::new(schema, api_version, kind)?;
        Ok(TypedFieldManager::new(fm))
    }
}

impl<T: StrategicMerge> TypedFieldManager<'static, T> {
    /// For a type of its own (a custom resource's struct deriving `StrategicMerge`), typed by
    /// its strategic-merge-patch metadata as objects of `api_version` and `kind`.
    pub fn derived(api_version: &str, kind: &str) -> Result<Self, FieldManagerError> {
        TypedFieldManager::derived_from::<T>(api_version, kind)
    }
}

/// The types of `T`, built once.
fn derived_schema<T: StrategicMerge>(api_version: &str, kind: &str) -> &'static Schema {
    type Cache = Mutex<HashMap<(TypeId, String, String), &'static Schema>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (TypeId::of::<T>(), api_version.to_owned(), kind.to_owned());
    let cache = CACHE.get_or_init(Cache::default);
    let mut cache = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    cache.entry(key).or_insert_with(|| {
        // One per Rust type, kind and version: bounded by the program, not by its input.
        Box::leak(Box::new(from_patch_metadata(
            T::DEF,
            Gvk::of(api_version, kind),
        )))
    })
}

impl<'s, T: Serialize + DeserializeOwned> TypedFieldManager<'s, T> {
    /// The typed face of `fm`.
    pub fn new(fm: FieldManager<'s>) -> Self {
        TypedFieldManager {
            fm,
            object: PhantomData,
        }
    }

    /// The field manager on JSON values underneath.
    pub fn field_manager(&self) -> &FieldManager<'s> {
        &self.fm
    }

    /// Changes the field manager underneath (its clock, subresource, reset fields).
    pub fn map(self, f: impl FnOnce(FieldManager<'s>) -> FieldManager<'s>) -> Self {
        TypedFieldManager::new(f(self.fm))
    }

    /// Applies `configuration` (a typed patch's apply configuration, a partial object, any
    /// serializable value) for `manager` over `live` (`None`: creates the object).
    pub fn apply<C: Serialize + ?Sized>(
        &self,
        live: Option<&T>,
        configuration: &C,
        manager: &str,
        options: ApplyOptions,
    ) -> Result<T, FieldManagerError> {
        let live = live.map(to_value).transpose()?;
        let configuration = to_value(configuration)?;
        let object = self
            .fm
            .apply(live.as_ref(), &configuration, manager, options)?;
        from_value(object)
    }

    /// Records a write of `new` (not an apply) by `manager` over `live`.
    pub fn update(&self, live: Option<&T>, new: &T, manager: &str) -> Result<T, FieldManagerError> {
        let live = live.map(to_value).transpose()?;
        let object = self.fm.update(live.as_ref(), to_value(new)?, manager)?;
        from_value(object)
    }

    /// What `manager` applied to `object`, as a partial object
    /// ([`FieldManager::extract`]).
    pub fn extract(&self, object: &T, manager: &str) -> Result<Value, FieldManagerError> {
        self.fm.extract(&to_value(object)?, manager)
    }
}

impl<T: StrategicMerge> TypedFieldManager<'_, T> {
    /// What `manager` applied to `object`, as `T`'s patch type: the apply configuration it
    /// would send again (client-go's `ExtractDeployment`).
    pub fn extract_patch(&self, object: &T, manager: &str) -> Result<T::Patch, FieldManagerError> {
        from_value(self.extract(object, manager)?)
    }
}

fn to_value<V: Serialize + ?Sized>(value: &V) -> Result<Value, FieldManagerError> {
    serde_json::to_value(value).map_err(|e| FieldManagerError::Json(e.to_string()))
}

fn from_value<V: DeserializeOwned>(value: Value) -> Result<V, FieldManagerError> {
    serde_json::from_value(value).map_err(|e| FieldManagerError::Json(e.to_string()))
}
