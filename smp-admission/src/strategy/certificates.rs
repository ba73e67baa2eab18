//! A CertificateSigningRequest as its strategy creates it (`PrepareForCreate` of
//! `pkg/registry/certificates/certificates/strategy.go`): no status (requests cannot be
//! created approved), and no requester of the client's choosing. The server then writes the
//! requesting user's name, uid, groups and extra into the spec; that needs the request's
//! authentication, so here those members are only removed (the test server, which knows who
//! asks, writes them).

use serde_json::{Map, Value};

pub(super) fn prepare_csr(csr: &mut Map<String, Value>) {
    if let Some(spec) = csr.get_mut("spec").and_then(Value::as_object_mut) {
        for key in ["username", "uid", "groups", "extra"] {
            spec.remove(key);
        }
    }
    csr.insert("status".to_owned(), Value::Object(Map::new()));
}
