//! The discovery.k8s.io group's rows: EndpointSlices.

use serde_json::{Value, json};

use super::Row;
use super::common::{age, name};
use crate::tables::duration::Now;
use crate::tables::format::{first_of, items, text};

/// An EndpointSlice: its address type, and the first few of its ports and addresses.
pub(super) fn endpoint_slice(object: &Value, now: Now) -> Row {
    let ports: Vec<String> = items(object, "/ports").iter().map(port).collect();
    let addresses: Vec<String> = items(object, "/endpoints")
        .iter()
        .flat_map(|e| items(e, "/addresses"))
        .map(|a| a.as_str().unwrap_or("").to_owned())
        .collect();
    let cut = |parts: &[String]| {
        if parts.is_empty() {
            "<unset>".to_owned()
        } else {
            first_of(parts, 3)
        }
    };
    vec![
        name(object),
        json!(text(object, "/addressType")),
        json!(cut(&ports)),
        json!(cut(&addresses)),
        age(object, now),
    ]
    .into()
}

/// A port's number, else its name, else `*`.
fn port(port: &Value) -> String {
    match (
        port.get("port").and_then(Value::as_i64),
        port.get("name").and_then(Value::as_str),
    ) {
        (Some(number), _) => number.to_string(),
        (None, Some(name)) => name.to_owned(),
        (None, None) => "*".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    #[test]
    fn endpoint_slices() {
        let slice = json!({"metadata": {"name": "web-x7k2p", "creationTimestamp": "2026-11-28T11:00:00Z"},
            "addressType": "IPv4",
            "ports": [{"name": "http", "port": 80, "protocol": "TCP"}, {"name": "metrics"}, {}, {"port": 9000}],
            "endpoints": [{"addresses": ["10.244.0.5"], "conditions": {"ready": true}},
                {"addresses": ["10.244.1.7", "10.244.1.8"], "conditions": {"ready": false}},
                {"addresses": ["10.244.2.9"]}]});
        assert_eq!(
            endpoint_slice(&slice, now()).cells,
            vec![
                json!("web-x7k2p"),
                json!("IPv4"),
                json!("80,metrics,* + 1 more..."),
                json!("10.244.0.5,10.244.1.7,10.244.1.8 + 1 more..."),
                json!("60m")
            ]
        );
        let empty = json!({"addressType": "FQDN", "endpoints": [{"addresses": []}]});
        assert_eq!(
            endpoint_slice(&empty, now()).cells[1..4],
            [json!("FQDN"), json!("<unset>"), json!("<unset>")]
        );
    }
}
