//! smp-admission's integration tests, one module per subject, in one test binary (each binary
//! of its own linked the crate and its CEL stack again, which cost the workspace's test build
//! more than the tests take to run).

mod common;
mod customresource_properties;
mod customresourcedefinition;
mod kube_cel_functions;
mod pod_security;
mod properties;
mod quantities;
mod typed_custom_resource;
mod upstream_customresource;
mod upstream_customresourcedefinition;
mod upstream_defaults;
mod upstream_validation;
mod upstream_warnings;
mod validating_admission_policy;
mod validation_properties;
