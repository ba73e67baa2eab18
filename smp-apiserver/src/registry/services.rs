//! What the Service registry allocates on create (`pkg/registry/core/service/storage`, its
//! `alloc.go` and the IPAddress-based IP allocator, and the node port allocator of v1.34):
//!
//! - `ipFamilies` and `ipFamilyPolicy` settled (`initIPFamilyFields`): this server is IPv4
//!   single-stack, so a service gets `SingleStack` and `[IPv4]`, except a headless service
//!   without a selector, which gets `RequireDualStack` and `[IPv4, IPv6]` as the server gives
//!   it; an ExternalName service gets none;
//! - a cluster IP from the service CIDR (`10.96.0.0/12`), at random from the range's upper
//!   band as the allocator takes dynamic addresses, or the one asked for if it is free and in
//!   range; each recorded as an `IPAddress` object naming the service;
//! - a node port from 30000-32767 for each port of a NodePort or LoadBalancer service that has
//!   none (unless `allocateLoadBalancerNodePorts` is false), and a `healthCheckNodePort` for a
//!   LoadBalancer with `externalTrafficPolicy: Local`.
//!
//! Addresses are released when their service is deleted ([`release`], from the controllers'
//! round). Service updates allocate nothing here (a type change's new node ports are a known
//! gap).

use std::collections::HashSet;
use std::net::Ipv4Addr;

use serde_json::{Value, json};

use crate::server::State;
use crate::status::{ApiError, FieldError};
use crate::store::ObjectKey;

/// The service CIDR, as the server's `--service-cluster-ip-range` gives it.
const NETWORK: u32 = u32::from_be_bytes([10, 96, 0, 0]);
const PREFIX: u32 = 12;
const RANGE_TEXT: &str = "10.96.0.0/12";
/// The node port range (`--service-node-port-range`).
const NODE_PORTS: std::ops::RangeInclusive<i64> = 30000..=32767;

const IPADDRESSES: &str = "networking.k8s.io/ipaddresses";

/// Addresses settled for a service being created, to be recorded once it is stored.
#[derive(Debug, Default)]
pub(crate) struct Allocation {
    addresses: Vec<String>,
}

fn size() -> u32 {
    1 << (32 - PREFIX)
}

/// The first address of the upper band: the lower sixteenth of the range (at least 16, at
/// most 256 addresses) is left for addresses users ask for.
fn upper_band_start() -> u32 {
    (size() / 16).clamp(16, 256)
}

fn ip_key(ip: &str) -> ObjectKey {
    ObjectKey {
        resource: IPADDRESSES.into(),
        namespace: String::new(),
        name: ip.to_owned(),
    }
}

fn invalid(service: &Value, errors: &[FieldError]) -> ApiError {
    let name = service
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    ApiError::invalid_fields("", "Service", name, errors)
}

/// Settles a new service's families, cluster IP and node ports. Holds no lock: the caller
/// holds the state's allocator lock from here until [`record`].
pub(crate) fn allocate(state: &State, service: &mut Value) -> Result<Allocation, ApiError> {
    let Some(mut spec) = service.get("spec").and_then(Value::as_object).cloned() else {
        return Ok(Allocation::default());
    };
    let text = |spec: &serde_json::Map<String, Value>, k: &str| {
        spec.get(k).and_then(Value::as_str).unwrap_or("").to_owned()
    };
    let kind = match text(&spec, "type") {
        t if t.is_empty() => "ClusterIP".to_owned(),
        t => t,
    };
    if kind == "ExternalName" {
        return Ok(Allocation::default());
    }
    let mut allocation = Allocation::default();
    let asked = text(&spec, "clusterIP");
    let headless = asked == "None";
    let has_selector = spec
        .get("selector")
        .and_then(Value::as_object)
        .is_some_and(|s| !s.is_empty());
    if !spec.contains_key("ipFamilyPolicy") || spec["ipFamilyPolicy"].is_null() {
        let policy = if headless && !has_selector {
            "RequireDualStack"
        } else {
            "SingleStack"
        };
        spec.insert("ipFamilyPolicy".into(), policy.into());
    }
    let families_given = spec
        .get("ipFamilies")
        .and_then(Value::as_array)
        .is_some_and(|f| !f.is_empty());
    if !families_given {
        let families = if headless && !has_selector {
            json!(["IPv4", "IPv6"])
        } else {
            json!(["IPv4"])
        };
        spec.insert("ipFamilies".into(), families);
    }
    if headless {
        spec.insert("clusterIPs".into(), json!(["None"]));
    } else {
        let ip = if asked.is_empty() {
            free_address(state).ok_or_else(|| {
                invalid(
                    service,
                    &[FieldError::invalid(
                        "spec.clusterIPs",
                        &Value::Null,
                        "failed to allocate IP: range is full",
                    )],
                )
            })?
        } else {
            check_asked(state, service, &asked)?;
            asked
        };
        spec.insert("clusterIP".into(), ip.clone().into());
        spec.insert("clusterIPs".into(), json!([ip]));
        allocation.addresses.push(ip);
    }
    let load_balancer = kind == "LoadBalancer";
    let wants_node_ports = kind == "NodePort"
        || (load_balancer
            && spec
                .get("allocateLoadBalancerNodePorts")
                .and_then(Value::as_bool)
                .unwrap_or(true));
    let mut used = used_node_ports(state);
    if wants_node_ports {
        node_ports(service, &mut spec, &mut used)?;
    }
    let local = spec.get("externalTrafficPolicy").and_then(Value::as_str) == Some("Local");
    if load_balancer
        && local
        && spec
            .get("healthCheckNodePort")
            .and_then(Value::as_i64)
            .is_none()
    {
        if let Some(port) = pick_port(&used) {
            spec.insert("healthCheckNodePort".into(), port.into());
        }
    }
    service["spec"] = Value::Object(spec);
    Ok(allocation)
}

/// A free address of the range's upper band, from a random place in it.
fn free_address(state: &State) -> Option<String> {
    let start = upper_band_start();
    // The last address is the range's broadcast address, never given.
    let span = size() - start - 1;
    let offset = random_below(span);
    (0..span).find_map(|i| {
        let ip = Ipv4Addr::from(NETWORK + start + (offset + i) % span).to_string();
        state.store.get(&ip_key(&ip)).is_none().then_some(ip)
    })
}

fn check_asked(state: &State, service: &Value, asked: &str) -> Result<(), ApiError> {
    let refuse = |why: String| {
        invalid(
            service,
            &[FieldError::invalid(
                "spec.clusterIPs",
                &json!([asked]),
                &format!("failed to allocate IP {asked}: {why}"),
            )],
        )
    };
    let in_range = asked.parse::<Ipv4Addr>().is_ok_and(|ip| {
        let n = u32::from(ip);
        n >> (32 - PREFIX) == NETWORK >> (32 - PREFIX) && n != NETWORK && n != NETWORK + size() - 1
    });
    if !in_range {
        // A malformed address is left to validation, which words it.
        if asked.parse::<Ipv4Addr>().is_err() {
            return Ok(());
        }
        return Err(refuse(format!(
            "the provided IP ({asked}) is not in the valid range. The range of valid IPs is {RANGE_TEXT}"
        )));
    }
    if state.store.get(&ip_key(asked)).is_some() {
        return Err(refuse("provided IP is already allocated".into()));
    }
    Ok(())
}

/// The node ports every stored service holds.
fn used_node_ports(state: &State) -> HashSet<i64> {
    let (services, _) = state.store.list("/services", None, None);
    let mut used = HashSet::new();
    for (_, stored) in services {
        let spec = stored.object.get("spec");
        let ports = spec
            .and_then(|s| s.get("ports"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        used.extend(ports.filter_map(|p| p.get("nodePort").and_then(Value::as_i64)));
        if let Some(port) = spec
            .and_then(|s| s.get("healthCheckNodePort"))
            .and_then(Value::as_i64)
        {
            used.insert(port);
        }
    }
    used
}

fn node_ports(
    service: &Value,
    spec: &mut serde_json::Map<String, Value>,
    used: &mut HashSet<i64>,
) -> Result<(), ApiError> {
    let Some(ports) = spec.get_mut("ports").and_then(Value::as_array_mut) else {
        return Ok(());
    };
    let mut errors = Vec::new();
    for (i, port) in ports.iter_mut().enumerate() {
        let Some(port) = port.as_object_mut() else {
            continue;
        };
        match port
            .get("nodePort")
            .and_then(Value::as_i64)
            .filter(|p| *p != 0)
        {
            Some(asked) => {
                let why = if !NODE_PORTS.contains(&asked) {
                    Some(format!(
                        "provided port is not in the valid range. The range of valid ports is {}-{}",
                        NODE_PORTS.start(),
                        NODE_PORTS.end()
                    ))
                } else if !used.insert(asked) {
                    Some("provided port is already allocated".to_owned())
                } else {
                    None
                };
                if let Some(why) = why {
                    errors.push(FieldError::invalid(
                        &format!("spec.ports[{i}].nodePort"),
                        &json!(asked),
                        &why,
                    ));
                }
            }
            None => {
                if let Some(picked) = pick_port(used) {
                    used.insert(picked);
                    port.insert("nodePort".into(), picked.into());
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(invalid(service, &errors))
    }
}

/// A free node port, from a random place in the range.
fn pick_port(used: &HashSet<i64>) -> Option<i64> {
    let span = (NODE_PORTS.end() - NODE_PORTS.start() + 1) as u32;
    let offset = random_below(span);
    (0..span)
        .map(|i| NODE_PORTS.start() + i64::from((offset + i) % span))
        .find(|p| !used.contains(p))
}

fn random_below(n: u32) -> u32 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(n);
    (h.finish() % u64::from(n.max(1))) as u32
}

/// Records a stored service's addresses as IPAddress objects naming it.
pub(crate) fn record(state: &State, namespace: &str, name: &str, allocation: &Allocation) {
    for ip in &allocation.addresses {
        let address = json!({"apiVersion": "networking.k8s.io/v1", "kind": "IPAddress",
            "metadata": {"name": ip, "labels": {
                "ipaddress.kubernetes.io/ip-family": "IPv4",
                "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io"}},
            "spec": {"parentRef": {"resource": "services", "namespace": namespace, "name": name}}});
        let _ = crate::handlers::internal(
            state,
            crate::handlers::Internal {
                verb: "create",
                api_version: "networking.k8s.io/v1",
                plural: "ipaddresses",
                namespace: "",
                name: "",
                content_type: "application/json",
                body: address.to_string().as_bytes(),
                user_agent: "kube-apiserver",
                query: &[],
            },
        );
    }
}

/// Releases the addresses of a deleted service: its IPAddress objects that name it.
pub(crate) fn release(state: &State, service: &Value, namespace: &str, name: &str) {
    let ips = service
        .pointer("/spec/clusterIPs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    for ip in ips {
        let key = ip_key(ip);
        let Some(stored) = state.store.get(&key) else {
            continue;
        };
        let parent = stored.object.pointer("/spec/parentRef");
        let owned = parent.is_some_and(|p| {
            p.get("namespace").and_then(Value::as_str) == Some(namespace)
                && p.get("name").and_then(Value::as_str) == Some(name)
        });
        if owned {
            let _ = state.store.remove(&key, stored.revision);
        }
    }
}
