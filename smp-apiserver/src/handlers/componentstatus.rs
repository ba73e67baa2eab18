//! ComponentStatuses (deprecated since v1.19, still served): computed on every read, as the
//! registry of `pkg/registry/core/componentstatus` computes them, by asking the scheduler
//! (`127.0.0.1:10259`) and the controller manager (`127.0.0.1:10257`) for their health; the
//! storage (`etcd-0`, here the server's own memory) is healthy. A test machine runs neither, so
//! both are unhealthy, each with the error a refused connection gives.

use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use http::StatusCode;
use serde_json::{Value, json};

use super::call::Call;
use crate::status::ApiError;
use crate::validation::warning_header;

/// The components asked, and their health endpoints' ports.
const PROBED: [(&str, u16); 2] = [("controller-manager", 10257), ("scheduler", 10259)];

/// `get` and `list` of ComponentStatuses.
pub(super) fn handle(call: &Call<'_>) -> Result<(StatusCode, Value), ApiError> {
    call.warnings
        .borrow_mut()
        .push(warning_header("v1 ComponentStatus is deprecated in v1.19+"));
    let mut all: Vec<Value> = PROBED
        .iter()
        .map(|(name, port)| status(name, probe(*port)))
        .collect();
    all.push(status("etcd-0", Ok(())));
    match call.info.verb {
        "get" => all
            .into_iter()
            .find(|c| c["metadata"]["name"] == call.info.name.as_str())
            .map(|c| (StatusCode::OK, c))
            .ok_or_else(|| ApiError::internal(format!("Component not found: {}", call.info.name))),
        "list" => Ok((
            StatusCode::OK,
            json!({"kind": "ComponentStatusList", "apiVersion": "v1", "metadata": {}, "items": all}),
        )),
        other => Err(ApiError::method_not_allowed(other, "componentstatuses")),
    }
}

/// Whether something answers on the port (a health check over TLS is not made: an answer counts
/// as healthy), or Go's words for why not.
fn probe(port: u16) -> Result<(), String> {
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    let url = format!("https://127.0.0.1:{port}/healthz");
    match TcpStream::connect_timeout(&address, Duration::from_secs(1)) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => Err(format!(
            "Get \"{url}\": dial tcp 127.0.0.1:{port}: connect: connection refused"
        )),
        Err(e) => Err(format!("Get \"{url}\": dial tcp 127.0.0.1:{port}: {e}")),
    }
}

fn status(name: &str, health: Result<(), String>) -> Value {
    let condition = match health {
        Ok(()) => json!({"type": "Healthy", "status": "True", "message": "ok"}),
        Err(message) => json!({"type": "Healthy", "status": "False", "message": message}),
    };
    json!({"kind": "ComponentStatus", "apiVersion": "v1",
        "metadata": {"name": name, "creationTimestamp": null}, "conditions": [condition]})
}
