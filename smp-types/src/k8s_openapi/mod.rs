//! Strategic merge patch for [k8s-openapi](https://docs.rs/k8s-openapi)'s types (cargo feature
//! `k8s-openapi`).
//!
//! Every k8s-openapi type with a definition here (646 of them: every resource and nested type,
//! but the generic `List<T>` and `WatchEvent<T>`) is a [`Counterpart`] of the smp-types type at
//! the same path, and gets the [`StrategicMergeExt`] methods:
//!
//! ```ignore
//! use k8s_openapi::api::core::v1::Pod;
//! use smp_types::k8s_openapi::StrategicMergeExt;
//!
//! let mut pod: Pod = serde_json::from_str(live)?;
//! pod.apply(&patch)?;                         // as `kubectl patch --local` does
//! let patch = old_pod.diff(&pod)?;            // the two-way patch, for `Patch::Strategic`
//! ```
//!
//! Each call goes through the JSON form ([`smp_core::json_form`]): the value is serialized, the
//! `Value` engine runs with the schema of the smp-types counterpart, and the result is
//! deserialized. So k8s-openapi's types are patched exactly as `smp patch` patches their
//! manifests, fields smp-types does not know (from a newer Kubernetes) included: the engine
//! merges them by the default rules, and k8s-openapi's type keeps them.
//!
//! Version features: smp-types enables none of k8s-openapi's `v1_*` features (a library must
//! not); the final binary picks one, as k8s-openapi asks. Types that exist in only some
//! Kubernetes versions are counterparts only under those versions' features (generated from
//! k8s-openapi's own source tree: `codegen/k8s-openapi.txt`).
//!
//! In a struct that derives `StrategicMerge`, a field of a k8s-openapi type (or an `Option`,
//! `Vec`, `Box` or string map of one) is marked `#[patch(k8s_openapi)]`: the generated code
//! views it as [`K8sOpenApi`], which patches it through the JSON form with its counterpart's
//! schema. Strategy attributes (`merge_key`, ...) apply as on any field.

use std::collections::BTreeMap;

use serde_core::de::DeserializeOwned;
use serde_core::{Deserialize, Deserializer, Serialize, Serializer};
use smp_core::union::Segment;
// The typed patches' methods, used only with smp's own types.
#[cfg(feature = "types")]
use smp_core::ValuePatch;
use smp_core::{
    ClientApply, DiffOptions, Node, Normalize, Patch, PatchError, PatchField, PatchSchema,
    Patchable, ThreeWayOptions, TypeDef, UnionError, UpdateError, json_form,
};

/// A type of another crate whose JSON form is that of an smp-types type: `Smp`'s patch
/// metadata describes it. Implemented for every k8s-openapi type with a definition here, and
/// for `Option`, `Vec`, `Box` and `BTreeMap<String, _>` of those.
pub trait Counterpart: Serialize + DeserializeOwned + 'static {
    /// The smp-types type of the same definition: a full type under the `types` feature, whose
    /// typed patch is the counterpart's too.
    #[cfg(feature = "types")]
    type Smp: PatchField + Normalize + Patchable;

    /// The smp-types type of the same definition. Without the `types` feature it only carries
    /// its schema (`#[patch(schema_only)]`), which is all the JSON form needs.
    #[cfg(not(feature = "types"))]
    type Smp: PatchSchema;

    /// The patch schema: that of [`Counterpart::Smp`].
    fn schema() -> Node<'static> {
        Node::of_static(<Self::Smp as PatchSchema>::DEF)
    }
}

impl<T: Counterpart> Counterpart for Option<T> {
    type Smp = Option<T::Smp>;
}

impl<T: Counterpart> Counterpart for Vec<T> {
    type Smp = Vec<T::Smp>;
}

impl<T: Counterpart> Counterpart for Box<T> {
    type Smp = Box<T::Smp>;
}

impl<T: Counterpart> Counterpart for BTreeMap<String, T> {
    type Smp = BTreeMap<String, T::Smp>;
}

/// Strategic merge patch on a k8s-openapi value, with its counterpart's metadata: the methods
/// of [`smp_core::StrategicMerge`] and [`smp_core::Normalize`], for types that cannot derive
/// them. Each converts through the JSON form (see the [module documentation](self)).
pub trait StrategicMergeExt: Counterpart {
    /// Applies a strategic merge patch, as `kubectl patch --local` does. On error `self` is
    /// unchanged.
    fn apply(&mut self, patch: &Patch) -> Result<(), PatchError> {
        json_form::apply(self, patch, Self::schema())
    }

    /// Applies a typed patch, the counterpart's (`DeploymentPatch` for k8s-openapi's
    /// `Deployment`): exactly [`apply`](StrategicMergeExt::apply) of its JSON. On error `self`
    /// is unchanged. (Feature `types`: the typed patches are smp-types' own types.)
    #[cfg(feature = "types")]
    fn apply_patch(&mut self, patch: &<Self::Smp as Patchable>::Patch) -> Result<(), PatchError> {
        json_form::apply(self, &patch.to_patch()?, Self::schema())
    }

    /// The two-way patch that turns `self` into `modified`, typed as the counterpart's patch.
    /// (Feature `types`.)
    #[cfg(feature = "types")]
    fn diff_patch(&self, modified: &Self) -> Result<<Self::Smp as Patchable>::Patch, PatchError> {
        let patch = self.diff(modified)?;
        <Self::Smp as Patchable>::Patch::from_value(patch.as_value().clone())
    }

    /// The two-way patch that turns `self` into `modified`.
    fn diff(&self, modified: &Self) -> Result<Patch, PatchError> {
        json_form::diff(self, modified, Self::schema(), &DiffOptions::default())
    }

    /// The two-way patch, with options.
    fn diff_with(&self, modified: &Self, options: &DiffOptions) -> Result<Patch, PatchError> {
        json_form::diff(self, modified, Self::schema(), options)
    }

    /// The three-way patch `kubectl apply` sends (see
    /// [`smp_core::StrategicMerge::three_way`]).
    fn three_way(
        last_applied: &Self,
        desired: &Self,
        live: &Self,
        options: &ThreeWayOptions,
    ) -> Result<Patch, PatchError> {
        json_form::three_way(last_applied, desired, live, Self::schema(), options)
    }

    /// `kubectl apply` on the client side (see [`smp_core::client_apply`]): the patch to send
    /// and the object the server will hold.
    fn client_side_apply(
        live: &Self,
        desired: &Self,
        options: &ThreeWayOptions,
    ) -> Result<ClientApply<Self>, PatchError> {
        smp_core::client_apply::client_side_apply_typed(live, desired, Self::schema(), options)
    }

    /// Normalizes every union (KEP-1027) against `old`, the object before the update.
    fn normalize(&mut self, old: Option<&Self>) -> Result<(), PatchError> {
        json_form::normalize(self, old, Self::schema())
    }

    /// Checks every union: at most one member set, a discriminator that agrees.
    fn validate(&self) -> Result<(), UpdateError> {
        json_form::validate(self, Self::schema())
    }

    /// What an API server does with a patch: apply, normalize, validate. On error `self` is
    /// unchanged.
    fn apply_normalized(&mut self, patch: &Patch) -> Result<(), UpdateError> {
        json_form::apply_normalized(self, patch, Self::schema())
    }
}

/// Implements [`Counterpart`] and [`StrategicMergeExt`] for k8s-openapi types, each with the
/// smp-types type at the same path. Used by the generated `counterparts.rs`.
macro_rules! impl_counterparts {
    ($($(#[$gate:meta])* $($segment:ident)::+,)*) => {
        $(
            $(#[$gate])*
            impl $crate::k8s_openapi::Counterpart for ::k8s_openapi::$($segment)::+ {
                type Smp = $crate::$($segment)::+;
            }
            $(#[$gate])*
            impl $crate::k8s_openapi::StrategicMergeExt for ::k8s_openapi::$($segment)::+ {}
        )*
    };
}

// After the macro: `macro_rules!` names are in scope from their definition on.
mod counterparts;

/// A field of a k8s-openapi type, viewed as patchable: what `#[patch(k8s_openapi)]` makes the
/// generated code see. Patched, diffed and normalized through the JSON form with the schema of
/// `T`'s counterpart; serialized exactly as `T`.
#[derive(Debug, Clone, PartialEq, Default)]
#[repr(transparent)]
pub struct K8sOpenApi<T>(pub T);

impl<T> K8sOpenApi<T> {
    /// Views a shared reference as one to a `K8sOpenApi`.
    pub fn from_ref(value: &T) -> &K8sOpenApi<T> {
        // SAFETY: `K8sOpenApi<T>` is `repr(transparent)` over `T`: same layout and validity,
        // and the reference keeps the lifetime of `value`.
        unsafe { &*(value as *const T as *const K8sOpenApi<T>) }
    }

    /// Views a mutable reference as one to a `K8sOpenApi`.
    pub fn from_mut(value: &mut T) -> &mut K8sOpenApi<T> {
        // SAFETY: as in `from_ref`; the exclusive borrow is passed on unchanged.
        unsafe { &mut *(value as *mut T as *mut K8sOpenApi<T>) }
    }
}

impl<T: Serialize> Serialize for K8sOpenApi<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for K8sOpenApi<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<K8sOpenApi<T>, D::Error> {
        T::deserialize(deserializer).map(K8sOpenApi)
    }
}

/// A k8s-openapi field's patch is its counterpart's (a `Container` field takes a
/// `ContainerPatch`).
#[cfg(feature = "types")]
impl<T: Counterpart> Patchable for K8sOpenApi<T> {
    type Patch = <T::Smp as Patchable>::Patch;
}

/// Without the `types` feature there are no counterpart patch types: a k8s-openapi field's
/// patch is its JSON, as an opaque field's is (the engine still merges it by the schema).
#[cfg(not(feature = "types"))]
impl<T: Counterpart> Patchable for K8sOpenApi<T> {
    type Patch = serde_json::Value;
}

/// Every operation is the trait's default, through the JSON form, with the counterpart's
/// schema.
impl<T: Counterpart> PatchSchema for K8sOpenApi<T> {
    const DEF: &'static TypeDef = <T::Smp as PatchSchema>::DEF;
}

impl<T: Counterpart> PatchField for K8sOpenApi<T> {}

impl<T: Counterpart> Normalize for K8sOpenApi<T> {
    fn normalize_member(&mut self, old: Option<&Self>, merge_key: Option<&str>) {
        let node = Node::of_static(Self::DEF);
        json_form::normalize_member(&mut self.0, old.map(|o| &o.0), node, merge_key);
    }

    fn validate_member(
        &self,
        merge_key: Option<&str>,
        path: &mut Vec<Segment>,
        out: &mut Vec<UnionError>,
    ) {
        json_form::validate_member(&self.0, Node::of_static(Self::DEF), merge_key, path, out);
    }

    fn is_null(&self) -> bool {
        json_form::is_null(&self.0)
    }

    fn key_of(&self, name: &str) -> Option<serde_json::Value> {
        json_form::key_of(&self.0, name)
    }
}
