//! A Kubernetes API server for tests: objects in memory, every patch type exact.
//!
//! [`ApiServer`] answers the API's requests as the real server does, for the built-in
//! resources of Kubernetes v1.34 and the custom resources of the CRDs it is given: discovery,
//! `get`, `list` (label and field selectors, paging), `watch` (from a resourceVersion, with
//! selections), `create`, `update`, `delete` (finalizers), `deletecollection`, and `patch` in
//! its four forms (JSON patch, JSON merge patch, strategic merge patch through smp-core for
//! built-in kinds, server-side apply through smp-ssa), the `status` subresource, `dryRun`, and
//! errors as `Status` objects with the server's reasons and codes. Every write records
//! `metadata.managedFields` as the server's field manager does.
//!
//! It is a `tower::Service`, so kube's own `Client` talks to it with no socket. A strategic
//! merge patch adds a container beside the first, and a second field manager's apply is
//! refused for taking the first one's field:
//!
//! ```rust
//! use k8s_openapi::api::apps::v1::Deployment;
//! use kube::api::{Api, Patch, PatchParams};
//! use serde_json::json;
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let client = kube::Client::new(smp_apiserver::ApiServer::default(), "default");
//!     let deployments: Api<Deployment> = Api::default_namespaced(client);
//!     let web = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
//!         "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {
//!             "metadata": {"labels": {"app": "web"}},
//!             "spec": {"containers": [{"name": "app", "image": "app:1"}]}}}});
//!     let apply = PatchParams::apply("deployer");
//!     deployments.patch("web", &apply, &Patch::Apply(&web)).await?;
//!
//!     let sidecar = json!({"spec": {"template": {"spec": {"containers": [
//!         {"name": "proxy", "image": "proxy:1"}]}}}});
//!     let web = deployments.patch("web", &PatchParams::default(), &Patch::Strategic(&sidecar)).await?;
//!     assert_eq!(web.spec.unwrap().template.spec.unwrap().containers.len(), 2);
//!
//!     let scale = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
//!         "spec": {"template": {"spec": {"containers": [{"name": "app", "image": "app:2"}]}}}});
//!     let refused = deployments.patch("web", &PatchParams::apply("other"), &Patch::Apply(&scale)).await;
//!     let Err(kube::Error::Api(status)) = refused else { panic!("not refused") };
//!     assert_eq!(status.code, 409);
//!     assert_eq!(
//!         status.message,
//!         r#"Apply failed with 1 conflict: conflict with "deployer": .spec.template.spec.containers[name="app"].image"#
//!     );
//!     Ok(())
//! }
//! ```
//!
//! Over HTTP, for kubectl and anything given a kubeconfig, it is `smp serve` (the [`serve`]
//! module), or, inside a test's own process, [`serve::Background`]: a loopback port served by
//! a thread of its own until the handle is dropped.
//!
//! `fieldValidation` is honoured (unknown fields refused, warned of in `Warning` headers, or
//! dropped). A watch asked for `sendInitialEvents` ends them with the server's bookmark; one
//! that allows bookmarks gets the latest revision every [`Options::bookmark_interval`]; one
//! with `timeoutSeconds` ends then. Custom resources refuse strategic merge patches, as on a
//! cluster, unless [`Options::custom_resource_strategic_merge`] is set. The `scale`
//! subresource (`kubectl scale`) reads and writes the replica count, of the built-in kinds and of
//! CRDs' kinds at the paths their CRDs name; it takes every patch type but apply.
//!
//! Objects to create or update come as JSON or YAML, or, for built-in kinds, in Kubernetes'
//! protobuf encoding (`application/vnd.kubernetes.protobuf`, what client-go's typed clients
//! send, and with them kubectl's generator commands such as `kubectl create deployment`). A
//! protobuf body is read by the layout of its type in Kubernetes v1.34 to the object the
//! server would hold, empty values as Go's JSON leaves them; custom resources have no protobuf
//! form and refuse it (415), as on a cluster.
//!
//! It is a test double, not a cluster: no nodes, scheduler, controllers, admission or
//! webhooks, no authentication; objects are stored as given (no defaulting, no conversion
//! between versions, no validation but the types'). What the namespace controller does is done
//! in the request: a deleted namespace turns Terminating, its objects are deleted at once
//! (those that finalizers hold are marked), and it goes when the last of them has gone. Answers
//! are JSON, whatever encoding the client would also take (quantities are kept as written, not
//! put in canonical form). The OpenAPI documents (`/openapi/v3`, and `/openapi/v2` in JSON
//! only) describe the operations and the schemas, the built-in ones without their descriptions.

#![warn(missing_docs)]

mod custom;
pub mod discovery;
mod garbagecollector;
mod handlers;
pub mod jsonpatch;
pub mod object;
mod openapi;
mod protobuf;
mod registry;
pub mod request;
pub mod selector;
#[cfg(feature = "http")]
pub mod serve;
mod server;
pub mod status;
pub mod store;
pub mod validation;
pub mod watch;

pub use server::{ApiServer, Body, Options};
pub use status::ApiError;
