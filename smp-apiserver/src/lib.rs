//! A Kubernetes API server for tests: objects in memory, every patch type exact.
//!
//! [`ApiServer`] answers the API's requests as the real server does, for the built-in
//! resources of Kubernetes v1.34: discovery, `get`, `list` (label and field selectors, paging),
//! `create`, `update`, `delete` (finalizers), `deletecollection`, and `patch` in its four forms
//! (JSON patch, JSON merge patch, strategic merge patch through smp-core, server-side apply
//! through smp-ssa), the `status` subresource, `dryRun`, and errors as `Status` objects with
//! the server's reasons and codes. Every write records `metadata.managedFields` as the server's
//! field manager does.
//!
//! It is a `tower::Service`, so a kube client talks to it with no socket:
//!
//! ```no_run
//! # async fn example() {
//! let client = kube::Client::new(smp_apiserver::ApiServer::default(), "default");
//! # }
//! ```
//!
//! It is a test double, not a cluster: no nodes, scheduler, controllers, admission or
//! webhooks; objects are stored as given (no defaulting, no conversion between versions).

#![warn(missing_docs)]

mod custom;
pub mod discovery;
mod handlers;
pub mod object;
pub mod request;
pub mod selector;
#[cfg(feature = "http")]
pub mod serve;
mod server;
pub mod status;
pub mod store;
pub mod watch;

pub use server::{ApiServer, Body, Options};
pub use status::ApiError;
