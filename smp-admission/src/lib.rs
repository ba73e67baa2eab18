//! Kubernetes objects as kube-apiserver v1.34 admits them, offline.
//!
//! **Its place.** It stands on no other smp crate (only on serde_json, and on `cel` and
//! `kube-cel` for CRD rules); smp-apiserver and smp-cli stand on it. Inside, the shared pieces
//! (field errors, names, quantities, values as Go reads them) stand at the bottom; above them
//! `defaulting`, `validation` (each API group's rules below the dispatch by kind), `warnings` and
//! `admission`; then `customresource`, `customresourcedefinition` (which compiles a CRD's
//! schemas with it), `validating_admission_policy` (which runs its CEL) and, at the top,
//! `strategy`, the registry strategies' steps over them all.
//!
//! An object sent to the API server is not stored as sent: decoding fills in the scheme's
//! defaults (a Deployment's `strategy`, `revisionHistoryLimit`, every container's
//! `imagePullPolicy`...), and only then do admission and validation run. Tools that compare
//! what they wrote with what a cluster holds (diff, GitOps, controllers' tests) need the same
//! defaults without a cluster. This crate applies them to a `serde_json::Value` by its
//! `apiVersion` and `kind`:
//!
//! ```
//! use serde_json::json;
//!
//! let mut deployment = json!({
//!     "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
//!     "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {
//!         "metadata": {"labels": {"app": "web"}},
//!         "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]}}}});
//! smp_admission::defaulting::default_object(&mut deployment)?;
//! assert_eq!(deployment["spec"]["strategy"]["rollingUpdate"]["maxSurge"], "25%");
//! assert_eq!(deployment["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"], "IfNotPresent");
//! # Ok::<(), smp_admission::defaulting::DefaultError>(())
//! ```
//!
//! The rules are the scheme's defaulting functions of Kubernetes v1.34 (`SetDefaults_*` in
//! `pkg/apis/<group>/<version>/defaults.go`, applied where the generated walkers of
//! `zz_generated.defaults.go` apply them), with the feature gates as v1.34 enables them by
//! default, written here as this crate's own code.
//!
//! The server's steps after decoding are each a module, to be run in this order (the test
//! server and `smp default`, `smp validate`, `smp apply-config --server-side` do):
//!
//! 1. [`defaulting`]: the scheme's defaults (and decoding's conversions, such as a Secret's
//!    `stringData` written into `data`); [`quantity`] reads and prints resource quantities as
//!    the server does;
//! 2. [`admission`]: the default mutating admission plugins (a Pod's service account token,
//!    priority and tolerations, LimitRanger's defaults, default storage and ingress classes),
//!    reading the cluster through a trait;
//! 3. [`strategy`]: what the registry strategies set on create (a Pod's status);
//! 4. [`validation`]: each kind's `Validate*` / `Validate*Update`, refusing with the server's
//!    422 word for word; then the validating admission plugins: LimitRanger's checks,
//!    [`admission::pod_security`] (a namespace's Pod Security Standards), claims' resizes,
//!    and the cluster's own policies ([`validating_admission_policy`]);
//! 5. [`printing`]: the object as the server encodes its Go structs back (empty structs held
//!    by value printed `{}`, by-value times `null`, every quantity canonical).
//!
//! Each module's docs list the kinds it covers. Custom resources take another path,
//! [`customresource`]: their CRD's structural schema prunes what it does not declare and
//! fills its defaults. A CRD itself is checked by [`customresourcedefinition`] (its schema
//! structural, its rules compiling), as the server's CRD strategy does.

#![warn(missing_docs)]

pub mod admission;
mod cel;
pub(crate) mod conversion;
pub mod customresource;
pub mod customresourcedefinition;
pub mod defaulting;
mod image;
pub mod printing;
pub mod quantity;
pub mod strategy;
pub mod validating_admission_policy;
pub mod validation;
mod value;
pub mod warnings;
