//! What each kind's registry strategy decides in kube-apiserver v1.34, as facts the handlers
//! consult: which fields a field selector may name and what they hold ([`fields`]), when
//! `metadata.generation` moves ([`generation`]), and how a deletion goes ([`deletion`]: the
//! default propagation, graceful deletion, what DELETE answers), what a Service is given
//! on create and update ([`services`]: its cluster IP, node ports and IP families), and the
//! time of a PersistentVolume's phase change ([`persistent_volumes`]).
//!
//! Upstream these live in `pkg/registry/<group>/<resource>/strategy.go` and the field label
//! conversions of `pkg/apis/<group>/<version>/conversion.go` (kubernetes/kubernetes), and for
//! custom resources in apiextensions-apiserver's `pkg/registry/customresource`.

pub(crate) mod deletion;
pub(crate) mod fields;
pub(crate) mod generation;
pub(crate) mod persistent_volumes;
pub(crate) mod services;
