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
//! # Layers
//!
//! Among smp's crates, this one stands on smp-admission (defaults, admission, validation),
//! smp-ssa (field management) and smp-core (strategic merge patch); only smp-cli's `smp serve`
//! stands on it. Inside, each module imports only the ones below it, from the ground up:
//! - the pieces of a request and an answer: `object`, [`status`], [`request`], [`selector`],
//!   `negotiation`, `conversion`, [`discovery`], [`jsonpatch`], `protobuf`, `serializer`,
//!   [`validation`];
//! - [`store`] (objects and their one revision counter) and what reads it: `custom` (what the
//!   CRDs serve), `serviceaccount`, `identity`, and `state`, what every request works on;
//! - `tables`, `openapi` and `registry` (each kind's strategy), then [`watch`];
//! - `handlers`, the verbs (inside them, `call` and `answer` at the bottom, each verb above,
//!   the dispatch on top);
//! - `bootstrap` and `controllers`, the server's own components, which write as clients do
//!   through a door the state holds (`State::internal`), so that nothing below the handlers
//!   imports them;
//! - `server` ([`ApiServer`]) and [`serve`], the HTTP listener.
//!
//! # Writes and reads as kube-apiserver v1.34 makes them
//!
//! - **JSON patch and merge patch** are applied as the server's library applies them
//!   ([`jsonpatch`]): a `test` of a missing member against `null` passes (kube-runtime's
//!   `finalizer()` relies on it), indices may be negative, `copy` adds at most 3 MiB; a failed
//!   operation is the server's wordless 422.
//! - **A write that changes nothing writes nothing**: the same resourceVersion, no watch event
//!   (patches of every type, PUTs, repeated applies, status and scale writes).
//! - **Deletion** follows the generic registry: the propagation policy (`Foreground`, `Orphan`,
//!   each kind's default: Jobs and ReplicationControllers orphan) adds the garbage collector's
//!   finalizers and the object is answered marked; a pod bound to a node waits its grace
//!   period (30 seconds unless it says otherwise) until deleted with grace 0; an object held by
//!   finalizers takes no new one; a DELETE answers the deleted object for the registries that
//!   return it (pods, services, ...) and a `Status` elsewhere.
//! - **The garbage collector's work** is done after every write ([`Options::garbage_collection`],
//!   on by default): dependents whose owners are gone are deleted, an owner deleted in the
//!   foreground goes when its blocking dependents have, an orphaning one first takes its owner
//!   references off its dependents. So is the namespace controller's: a deleted namespace turns
//!   Terminating, its objects are deleted (those that finalizers hold are marked), and it goes
//!   when the last of them has.
//! - **Lists** are read at a revision: a `continue` page at the first page's, an exact list
//!   (`resourceVersionMatch=Exact`, or a `limit` with a `resourceVersion`) at the one asked, as
//!   long as the last 4,096 writes reach back to it (410 after that, with the server's token to
//!   go on); `remainingItemCount` without selectors; a resourceVersion not reached yet is waited
//!   for 3 seconds, then 504. Request options are refused as the server refuses them.
//! - **Field selectors** name the fields each kind's registry declares (pods' `status.phase`,
//!   `spec.nodeName`, ...; nodes' `spec.unschedulable`; events' `involvedObject.*`; a CRD's
//!   `selectableFields`), on lists and watches; a watcher whose selector stops matching an
//!   object gets it `DELETED`.
//! - **`generation`** moves as each kind's strategy moves it (a Deployment's on its spec or its
//!   annotations, most kinds' on their spec, a custom resource's on all but metadata and
//!   status; never on a status write); kinds without one keep what they were created with.
//!
//! # What clients find and ask for
//!
//! - **A new cluster's objects**: the system namespaces, `default/kubernetes` with its
//!   Endpoints and EndpointSlice, the RBAC bootstrap roles and bindings, the system
//!   PriorityClasses; every namespace's `default` ServiceAccount and `kube-root-ca.crt`, put
//!   back as their controllers put them back; ComponentStatuses computed on read.
//! - **Answers in the forms asked for** (`Accept`): a `Table` with each built-in kind's
//!   columns and cells as the server's printers give them, a CRD's printer columns, the
//!   default table otherwise; `PartialObjectMetadata` and its list on reads, watches and
//!   writes; 406 where the server refuses a form. Built-in objects are written in their Go
//!   types' field order, strings escaped as Go escapes them; a typed list's items carry no
//!   type of their own.
//! - **Events** of `core/v1` and `events.k8s.io/v1` are one resource, each group reading and
//!   watching what the other wrote, with the server's field conversions.
//! - **Subresources**: `serviceaccounts/token` signs a token (ES256) with the service
//!   token's claims, bound to a pod, node or secret if asked; `TokenReview` authenticates it
//!   while all it names exists; `SelfSubjectReview` names the requester; the authorization
//!   reviews allow everything; `pods/binding` sets the node; `pods/eviction` deletes the pod
//!   unless its PodDisruptionBudget's status allows no disruption (429); `pods/log`, `exec`,
//!   `attach` and `portforward` answer as the server does when no kubelet listens.
//!
//! # Where it is not kube-apiserver
//!
//! It is a test double, not a cluster. Measured against the real server's behaviour, these
//! differ:
//!
//! - no kubelets or scheduler (pods never run; a pod bound to a node stays Terminating until
//!   deleted with grace 0; a pod's log is empty on no node, and on a node the server's 500 for
//!   a kubelet that does not answer), and no controllers but the garbage collector, the
//!   namespace controller, the service account and root CA publishers and ClusterRole
//!   aggregation, whose work runs before the request is answered rather than a moment later
//!   (nothing writes a PodDisruptionBudget's status: evictions read what clients wrote);
//! - built-in objects get kube-apiserver's defaults, the default mutating admission plugins,
//!   the strategies' create-time steps (a Service's cluster IP and node ports, a signing
//!   request's requester), validation on every write, and the PodSecurity plugin with its
//!   default configuration (no exemptions, no audit log) ([`Options`] turns each off); custom
//!   resources their schemas' defaults (on read too), constraints, embedded resources' metadata
//!   and CEL rules, without the cost limits; a CRD is refused as the server refuses it, except
//!   for its rules' types and cost; ValidatingAdmissionPolicies run on every create, update and
//!   delete, untyped and without a cost budget; no webhooks, and no conversion
//!   between versions;
//! - every request is authorized; a bearer token this server issued authenticates its
//!   holder, any other request is `system:anonymous` (kubectl sends no token over plain HTTP);
//! - a write changes nothing when its object is the stored one as JSON (the server compares
//!   its encoding, in which `1.0` and `1` are the same number);
//! - the history kept is the last 4,096 writes, not five to ten minutes; a namespace's
//!   objects are removed at once, not deleted with background propagation (pods bound to a
//!   node do not wait their grace period there);
//! - a status subresource write changes only the status (the server's status strategies keep
//!   changes of the metadata); immutable metadata sent changed (a uid) is kept as stored
//!   rather than refused;
//! - a JSON patch whose values nest deeper than 256 levels is refused (Go reads 10,000), and
//!   the words of a malformed patch's 400 are smp's; repeated members are not warned of;
//! - watches do not check their options;
//! - answers are JSON: a request for YAML or protobuf alone is answered in JSON; Table column
//!   descriptions are in our own words.
//!
//! The OpenAPI documents (`/openapi/v3`, and `/openapi/v2` in JSON only, so that `kubectl
//! create -f` of a TokenReview needs `--validate=false`) describe the operations and the
//! schemas, the built-in ones without their descriptions.

#![warn(missing_docs)]

mod bootstrap;
mod controllers;
mod conversion;
mod custom;
pub mod discovery;
mod handlers;
mod identity;
pub mod jsonpatch;
mod negotiation;
pub mod object;
mod openapi;
mod protobuf;
mod registry;
pub mod request;
pub mod selector;
mod serializer;
#[cfg(feature = "http")]
pub mod serve;
mod server;
mod serviceaccount;
mod state;
pub mod status;
pub mod store;
mod tables;
pub mod validation;
pub mod watch;

pub use server::{ApiServer, Body, Options};
pub use status::ApiError;
