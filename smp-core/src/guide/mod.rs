//! The manual: one guide per topic, each starting from a task.
//!
//! | guide | for the task |
//! |---|---|
//! | [`patching`] | apply a strategic merge patch to a document; what each directive does |
//! | [`derive`](mod@derive) | give your own types compile-time patch behaviour with `#[derive(StrategicMerge)]` |
//! | [`typed_patches`] | build patches as typed values (`DeploymentPatch`), checked by the compiler; apply configurations |
//! | [`merge_keys`] | keep list items that share a key apart (`$patchMergeKey`, multi-field keys) |
//! | [`unions`] | fields of which at most one is set, normalized as an API server does (KEP-1027) |
//! | [`creating`] | create patches (two-way, three-way) and do what `kubectl apply` does on the client |
//! | [`kubernetes_types`] | patch Kubernetes objects: smp-types, k8s-openapi's types, kube |
//! | [`custom_resources`] | patch custom resources by their CRDs, and declare typed ones |
//! | [`yaml_json`] | read and write JSON and YAML exactly as kubectl does |
//! | [`cli`] | the `smp` command: `patch`, `apply`, `merge`, `diff`, `three-way`, `normalize` |
//! | [`reliability`] | what hostile input can and cannot do: limits, errors, complexity |
//! | [`differences`] | every deliberate difference from upstream and from kubectl |
//! | [`testing`] | how the behaviour is checked: conformance, kubectl, fuzzing, shared data |
//! | [`figures`] | speed against the Go library and kubectl, build cost |
//!
//! Every example here is a doctest: `cargo test --doc -p smp-core` runs them.

#[doc = include_str!("patching.md")]
pub mod patching {}

#[doc = include_str!("derive.md")]
pub mod derive {}

#[doc = include_str!("typed_patches.md")]
pub mod typed_patches {}

#[doc = include_str!("merge_keys.md")]
pub mod merge_keys {}

#[doc = include_str!("unions.md")]
pub mod unions {}

#[doc = include_str!("creating.md")]
pub mod creating {}

#[doc = include_str!("kubernetes_types.md")]
pub mod kubernetes_types {}

#[doc = include_str!("custom_resources.md")]
pub mod custom_resources {}

#[doc = include_str!("yaml_json.md")]
pub mod yaml_json {}

#[doc = include_str!("cli.md")]
pub mod cli {}

#[doc = include_str!("reliability.md")]
pub mod reliability {}

#[doc = include_str!("differences.md")]
pub mod differences {}

#[doc = include_str!("testing.md")]
pub mod testing {}

#[doc = include_str!("figures.md")]
pub mod figures {}

#[doc = include_str!("recipes.md")]
pub mod recipes {}
