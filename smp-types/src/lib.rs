//! Kubernetes API types with their patch metadata. Empty until the types issue lands.
