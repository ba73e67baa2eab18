//! An EndpointSlice as its strategy creates it (`PrepareForCreate` of
//! `pkg/registry/discovery/endpointslice/strategy.go`, v1.34): generation 1, and every
//! endpoint's `deprecatedTopology` dropped, since v1 documents that field as read-only and the
//! strategy wipes what a v1 request writes there. Node hints stay: their gate,
//! `PreferSameTrafficDistribution`, is on in v1.34.

use serde_json::{Map, Value};

pub(super) fn prepare_endpoint_slice(slice: &mut Map<String, Value>) {
    if let Some(metadata) = slice.get_mut("metadata").and_then(Value::as_object_mut) {
        metadata.insert("generation".to_owned(), Value::from(1));
    }
    let Some(endpoints) = slice.get_mut("endpoints").and_then(Value::as_array_mut) else {
        return;
    };
    for endpoint in endpoints.iter_mut().filter_map(Value::as_object_mut) {
        endpoint.remove("deprecatedTopology");
    }
}
