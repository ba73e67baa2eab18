//! The test server's integration tests, one module per subject, in one test binary: each
//! binary of its own linked the server, kube's client and tokio again, which cost the
//! workspace's test build more than the tests take to run (`real_clients` is a binary of its
//! own for the same reason).

mod certificates;
mod concurrency;
mod custom_resources;
mod gated_fields;
mod kube_client;
mod kubectl_protobuf;
mod openapi;
mod readme;
mod requests;
mod service_updates;
mod status_writes;
mod validating_admission;
mod watch;
