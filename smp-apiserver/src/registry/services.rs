//! What the Service registry allocates and settles (`pkg/registry/core/service/storage`: its
//! `storage.go` hooks, `alloc.go` with the IPAddress-based IP allocator and the node port
//! allocator, and the strategy's `PrepareForUpdate` in `pkg/registry/core/service/strategy.go`,
//! of v1.34).
//!
//! On create ([`allocate`]):
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
//! On update ([`prepare_update`], before the update is validated, as `beginUpdate` runs before
//! the strategy):
//! - what the client left out but the stored service was given is put back
//!   (`patchAllocatedValues`): the cluster IPs, each port's node port (matched by port name) and
//!   the health check node port, so that a client may send again what it first sent;
//! - `clusterIP` and `clusterIPs` are kept in step (`normalizeClusterIPs`), and the families
//!   settled as on create, the policy taken from the stored service when none is given;
//! - a type change takes what the new type needs (`allocateUpdate`): a cluster IP when leaving
//!   ExternalName, node ports for NodePort and LoadBalancer, a health check node port for a
//!   LoadBalancer turning `Local`;
//! - the fields the new type does not use are cleared where the client left them as they were
//!   (`dropTypeDependentFields`): cluster IPs, families and policy going to ExternalName, node
//!   ports leaving NodePort and LoadBalancer, the health check node port, the LoadBalancer-only
//!   `allocateLoadBalancerNodePorts` and `loadBalancerClass`, `externalTrafficPolicy` for a
//!   service no longer reachable from outside, and the load balancer status;
//! - an ExternalName service shows no `internalTrafficPolicy` (the registry's read decorator
//!   drops it), on create too.
//!
//! An address is held by its IPAddress object: recorded once the service is stored
//! ([`record`]), released when an update stores the service without it or the service is
//! deleted ([`release`], from the controllers' round). A node port is held by the stored
//! service that names it, so it is free again once none does.
//!
//! Not done: the refusals of dual-stack requests this single-stack server cannot meet
//! (`RequireDualStack`, an IPv6 family or address: "not configured on this cluster").

use std::collections::{HashMap, HashSet};
use std::net::Ipv4Addr;

use serde_json::{Map, Value, json};

use crate::state::State;
use crate::status::{ApiError, FieldError};
use crate::store::ObjectKey;

/// The service CIDR, as the server's `--service-cluster-ip-range` gives it.
const NETWORK: u32 = u32::from_be_bytes([10, 96, 0, 0]);
const PREFIX: u32 = 12;
const RANGE_TEXT: &str = "10.96.0.0/12";
/// The node port range (`--service-node-port-range`).
const NODE_PORTS: std::ops::RangeInclusive<i64> = 30000..=32767;

const IPADDRESSES: &str = "networking.k8s.io/ipaddresses";
const NONE: &str = "None";

type Spec = Map<String, Value>;

/// The addresses a write settled for a service, to record or release once it is stored (the
/// allocator's transaction, committed with the write).
#[derive(Debug, Default)]
pub(crate) struct Allocation {
    /// Taken: recorded as IPAddress objects naming the service.
    addresses: Vec<String>,
    /// No longer held by the service: their IPAddress objects go.
    released: Vec<String>,
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

/// The server's `NewInternalError`, which the allocators' failures to find a port become.
fn internal_error(message: &str) -> ApiError {
    ApiError {
        code: 500,
        reason: "InternalError",
        message: format!("Internal error occurred: {message}"),
        details: Some(json!({"causes": [{"message": message}]})),
        list_continue: None,
    }
}

// What a spec says. Go reads absent, null and zero values alike, so these do too.

fn text<'a>(spec: &'a Spec, key: &str) -> &'a str {
    spec.get(key).and_then(Value::as_str).unwrap_or("")
}

fn list<'a>(spec: &'a Spec, key: &str) -> &'a [Value] {
    spec.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A pointer field's value: `None` when absent or null.
fn present<'a>(spec: &'a Spec, key: &str) -> Option<&'a Value> {
    spec.get(key).filter(|v| !v.is_null())
}

fn number(spec: &Spec, key: &str) -> i64 {
    spec.get(key).and_then(Value::as_i64).unwrap_or(0)
}

fn service_type(spec: &Spec) -> &str {
    match text(spec, "type") {
        "" => "ClusterIP",
        kind => kind,
    }
}

fn needs_cluster_ip(spec: &Spec) -> bool {
    service_type(spec) != "ExternalName"
}

fn needs_node_port(spec: &Spec) -> bool {
    matches!(service_type(spec), "NodePort" | "LoadBalancer")
}

fn needs_health_check_port(spec: &Spec) -> bool {
    service_type(spec) == "LoadBalancer" && text(spec, "externalTrafficPolicy") == "Local"
}

/// `ExternallyAccessible`: the services `externalTrafficPolicy` applies to.
fn externally_accessible(spec: &Spec) -> bool {
    needs_node_port(spec)
        || (service_type(spec) == "ClusterIP" && !list(spec, "externalIPs").is_empty())
}

/// Whether new ports get a node port: NodePort always, LoadBalancer unless it says not to.
fn allocates_node_ports(spec: &Spec) -> bool {
    match service_type(spec) {
        "NodePort" => true,
        "LoadBalancer" => present(spec, "allocateLoadBalancerNodePorts")
            .and_then(Value::as_bool)
            .unwrap_or(true),
        _ => false,
    }
}

fn ports(spec: &Spec) -> impl Iterator<Item = &Spec> {
    list(spec, "ports").iter().filter_map(Value::as_object)
}

fn ports_mut(spec: &mut Spec) -> impl Iterator<Item = &mut Spec> {
    spec.get_mut("ports")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

/// The node ports a spec's ports name (zero is none).
fn node_ports_of(spec: &Spec) -> HashSet<i64> {
    ports(spec)
        .map(|p| number(p, "nodePort"))
        .filter(|p| *p != 0)
        .collect()
}

/// Settles a new service's families, cluster IP and node ports. Holds no lock: the caller
/// holds the state's allocator lock from here until [`record`].
pub(crate) fn allocate(state: &State, service: &mut Value) -> Result<Allocation, ApiError> {
    let Some(mut spec) = service.get("spec").and_then(Value::as_object).cloned() else {
        return Ok(Allocation::default());
    };
    let mut allocation = Allocation::default();
    if needs_cluster_ip(&spec) {
        // A client that names only `clusterIP` (an old one) means it for `clusterIPs` too.
        if !text(&spec, "clusterIP").is_empty() && list(&spec, "clusterIPs").is_empty() {
            let ip = spec["clusterIP"].clone();
            spec.insert("clusterIPs".into(), json!([ip]));
        }
        settle_families(&mut spec, None);
        allocation
            .addresses
            .extend(assign_cluster_ip(state, service, &mut spec)?);
    }
    if needs_node_port(&spec) {
        let mut used = used_node_ports(state);
        node_ports(service, &mut spec, &mut used)?;
        if needs_health_check_port(&spec) {
            health_check_port(&mut spec, &mut used)?;
        }
    }
    hide_unused_internal_policy(&mut spec);
    service["spec"] = Value::Object(spec);
    Ok(allocation)
}

/// Settles `new`, an update of the stored service `old`, before it is validated: what the
/// client left out put back, what a type change needs taken and what it no longer uses
/// cleared. Holds no lock: the caller holds the state's allocator lock from here until
/// [`record`], which releases what the service no longer holds once it is stored.
pub(crate) fn prepare_update(
    state: &State,
    new: &mut Value,
    old: &Value,
) -> Result<Allocation, ApiError> {
    let empty = Spec::new();
    let old = old.get("spec").and_then(Value::as_object).unwrap_or(&empty);
    let mut spec = new
        .get("spec")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    patch_allocated_values(&mut spec, old);
    normalize_cluster_ips(&mut spec, old);
    if needs_cluster_ip(&spec) {
        settle_families(&mut spec, Some(old));
    }
    let allocation = update_cluster_ips(state, new, &mut spec, old)?;
    update_node_ports(state, new, &mut spec, old)?;
    drop_type_dependent_fields(&mut spec, old);
    hide_unused_internal_policy(&mut spec);
    let Some(object) = new.as_object_mut() else {
        return Ok(allocation);
    };
    if service_type(&spec) != "LoadBalancer" {
        clear_load_balancer_status(object);
    }
    object.insert("spec".into(), Value::Object(spec));
    Ok(allocation)
}

/// `patchAllocatedValues`: a client that sends back the service it first sent, without what
/// the server allocated, keeps what it was given, so that re-applying a manifest works. Only
/// while the type still uses the value.
fn patch_allocated_values(spec: &mut Spec, old: &Spec) {
    if needs_cluster_ip(old) && needs_cluster_ip(spec) {
        if text(spec, "clusterIP").is_empty()
            && let Some(ip) = present(old, "clusterIP")
        {
            spec.insert("clusterIP".into(), ip.clone());
        }
        if list(spec, "clusterIPs").is_empty() && !list(old, "clusterIPs").is_empty() {
            spec.insert(
                "clusterIPs".into(),
                Value::Array(list(old, "clusterIPs").to_vec()),
            );
        }
    }
    if needs_node_port(old) && needs_node_port(spec) {
        patch_node_ports(spec, old);
    }
    if needs_health_check_port(old)
        && needs_health_check_port(spec)
        && number(spec, "healthCheckNodePort") == 0
        && let Some(port) = present(old, "healthCheckNodePort")
    {
        spec.insert("healthCheckNodePort".into(), port.clone());
    }
}

/// Gives each port without a node port the one the stored port of the same name had, unless
/// another port of the update already names it.
fn patch_node_ports(spec: &mut Spec, old: &Spec) {
    let held = node_ports_of(old);
    let kept: HashSet<i64> = node_ports_of(spec).intersection(&held).copied().collect();
    // Names are unique among valid ports; of repeated ones the last counts, as upstream's map.
    let by_name: HashMap<&str, i64> = ports(old)
        .map(|p| (text(p, "name"), number(p, "nodePort")))
        .collect();
    for port in ports_mut(spec) {
        if number(port, "nodePort") != 0 {
            continue;
        }
        let before = by_name.get(text(port, "name")).copied().unwrap_or(0);
        if before != 0 && !kept.contains(&before) {
            port.insert("nodePort".into(), before.into());
        }
    }
}

/// `normalizeClusterIPs` on update: a client that knows only `clusterIP` (an old one) gets
/// `clusterIPs` to match what it did with it: kept, cleared or replaced.
fn normalize_cluster_ips(spec: &mut Spec, old: &Spec) {
    let old_ip = text(old, "clusterIP");
    let old_ips = list(old, "clusterIPs");
    if !old_ips.is_empty()
        && list(spec, "clusterIPs").is_empty()
        && text(spec, "clusterIP") == old_ip
    {
        spec.insert("clusterIPs".into(), Value::Array(old_ips.to_vec()));
    }
    let new_ip = text(spec, "clusterIP").to_owned();
    // Only when `clusterIPs` is as it was does the client not know it; otherwise validation
    // judges what it sent.
    if new_ip == old_ip || list(spec, "clusterIPs") != old_ips {
        return;
    }
    if new_ip.is_empty() {
        spec.remove("clusterIPs");
    } else {
        spec.insert("clusterIPs".into(), json!([new_ip]));
    }
}

/// `initIPFamilyFields`, but for its refusals (see the module's documentation): the policy
/// (the stored one on update), families inferred from the cluster IPs, the default family, and
/// a headless service without a selector given both families unless single-stack.
fn settle_families(spec: &mut Spec, old: Option<&Spec>) {
    let dual_headless = text(spec, "clusterIP") == NONE && !has_selector(spec);
    if present(spec, "ipFamilyPolicy").is_none() {
        let policy = match old.and_then(|o| present(o, "ipFamilyPolicy")) {
            Some(stored) => stored.clone(),
            None if dual_headless => json!("RequireDualStack"),
            None => json!("SingleStack"),
        };
        spec.insert("ipFamilyPolicy".into(), policy);
    }
    let single = text(spec, "ipFamilyPolicy") == "SingleStack";
    if let (true, Some(old)) = (single, old) {
        // Turning single-stack with the lists left as they were asks to drop the secondary.
        for key in ["clusterIPs", "ipFamilies"] {
            if list(spec, key).len() > 1 && list(spec, key) == list(old, key) {
                spec.insert(key.into(), Value::Array(list(old, key)[..1].to_vec()));
            }
        }
    }
    let mut families = list(spec, "ipFamilies").to_vec();
    infer_families(list(spec, "clusterIPs"), &mut families);
    if families.is_empty() {
        families.push(json!("IPv4"));
    }
    if dual_headless && !single && families.len() < 2 {
        let other = match families[0].as_str() {
            Some("IPv6") => "IPv4",
            _ => "IPv6",
        };
        families.push(json!(other));
    }
    spec.insert("ipFamilies".into(), Value::Array(families));
}

fn has_selector(spec: &Spec) -> bool {
    spec.get("selector")
        .and_then(Value::as_object)
        .is_some_and(|s| !s.is_empty())
}

/// The family of each cluster IP that has none yet; an address not IPv4 is left to the
/// checks, as this server has no other family to give.
fn infer_families(ips: &[Value], families: &mut Vec<Value>) {
    for ip in ips.iter().skip(families.len()) {
        let ip = ip.as_str().unwrap_or("");
        if ip == NONE || ip.parse::<Ipv4Addr>().is_err() {
            return;
        }
        families.push(json!("IPv4"));
    }
}

/// `updateClusterIPs`: a service leaving ExternalName is given a cluster IP as on create; one
/// becoming ExternalName gives its addresses back once stored. A headless service holds none.
fn update_cluster_ips(
    state: &State,
    service: &Value,
    spec: &mut Spec,
    old: &Spec,
) -> Result<Allocation, ApiError> {
    let mut allocation = Allocation::default();
    match (needs_cluster_ip(old), needs_cluster_ip(spec)) {
        (false, true) => {
            allocation
                .addresses
                .extend(assign_cluster_ip(state, service, spec)?);
        }
        (true, false) => {
            allocation.released = list(old, "clusterIPs")
                .iter()
                .filter_map(Value::as_str)
                .filter(|ip| *ip != NONE && !ip.is_empty())
                .map(str::to_owned)
                .collect();
        }
        _ => {}
    }
    Ok(allocation)
}

/// The cluster IP a service asks for in `clusterIPs` (checked free and in range), or a free
/// one, written to `clusterIP` and `clusterIPs`; nothing for a headless service.
fn assign_cluster_ip(
    state: &State,
    service: &Value,
    spec: &mut Spec,
) -> Result<Option<String>, ApiError> {
    let asked = list(spec, "clusterIPs")
        .first()
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    if asked == NONE {
        return Ok(None);
    }
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
    match spec.get_mut("clusterIPs").and_then(Value::as_array_mut) {
        Some(ips) if !ips.is_empty() => ips[0] = ip.clone().into(),
        _ => {
            spec.insert("clusterIPs".into(), json!([ip]));
        }
    }
    Ok(Some(ip))
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
        let Some(spec) = stored.object.get("spec").and_then(Value::as_object) else {
            continue;
        };
        used.extend(node_ports_of(spec));
        if let Some(port) = spec.get("healthCheckNodePort").and_then(Value::as_i64) {
            used.insert(port);
        }
    }
    used
}

/// Takes `asked` for this service, or says why not in the port allocator's words.
fn take_port(asked: i64, used: &mut HashSet<i64>) -> Result<(), String> {
    if !NODE_PORTS.contains(&asked) {
        return Err(format!(
            "provided port is not in the valid range. The range of valid ports is {}-{}",
            NODE_PORTS.start(),
            NODE_PORTS.end()
        ));
    }
    if !used.insert(asked) {
        return Err("provided port is already allocated".to_owned());
    }
    Ok(())
}

/// A new service's node ports: those asked for taken, the others picked (`initNodePorts`).
fn node_ports(service: &Value, spec: &mut Spec, used: &mut HashSet<i64>) -> Result<(), ApiError> {
    let pick = allocates_node_ports(spec);
    let mut errors = Vec::new();
    for (i, port) in ports_mut(spec).enumerate() {
        match number(port, "nodePort") {
            0 if !pick => {}
            0 => {
                if let Some(picked) = pick_port(used) {
                    used.insert(picked);
                    port.insert("nodePort".into(), picked.into());
                }
            }
            asked => {
                if let Err(why) = take_port(asked, used) {
                    errors.push(FieldError::invalid(
                        &format!("spec.ports[{i}].nodePort"),
                        &json!(asked),
                        &why,
                    ));
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

/// `txnUpdateNodePorts`: the node ports of a service that is (still or now) NodePort or
/// LoadBalancer, and a health check node port when it turns `Local`. What the update drops
/// needs no release: a port is held by the stored service that names it.
fn update_node_ports(
    state: &State,
    service: &Value,
    spec: &mut Spec,
    old: &Spec,
) -> Result<(), ApiError> {
    let needs_ports = needs_node_port(spec);
    let needs_check = !needs_health_check_port(old) && needs_health_check_port(spec);
    if !needs_ports && !needs_check {
        return Ok(());
    }
    let mut used = used_node_ports(state);
    if needs_ports {
        keep_or_take_node_ports(service, spec, &node_ports_of(old), &mut used)?;
    }
    if needs_check {
        health_check_port(spec, &mut used)?;
    }
    Ok(())
}

/// `updateNodePorts`: a port keeps a node port the stored service held, takes one newly asked
/// for if free, or is given one; a node port may serve one port per protocol.
fn keep_or_take_node_ports(
    service: &Value,
    spec: &mut Spec,
    held: &HashSet<i64>,
    used: &mut HashSet<i64>,
) -> Result<(), ApiError> {
    let pick = allocates_node_ports(spec);
    let mut taken = HashSet::new();
    let mut served = HashSet::new();
    for (i, port) in ports_mut(spec).enumerate() {
        let node_port = match number(port, "nodePort") {
            0 if !pick => continue,
            0 => {
                let picked = pick_port(used).ok_or_else(|| {
                    internal_error("failed to allocate a nodePort: range is full")
                })?;
                used.insert(picked);
                port.insert("nodePort".into(), picked.into());
                picked
            }
            asked => {
                if !held.contains(&asked) && taken.insert(asked) {
                    take_port(asked, used).map_err(|why| {
                        let at = format!("spec.ports[{i}].nodePort");
                        invalid(service, &[FieldError::invalid(&at, &json!(asked), &why)])
                    })?;
                }
                asked
            }
        };
        let protocol = match text(port, "protocol") {
            "" => "TCP",
            protocol => protocol,
        };
        if !served.insert((protocol.to_owned(), node_port)) {
            // Upstream's plain error, which the server answers as a 500 without a reason.
            return Err(ApiError::internal(format!(
                "duplicate nodePort: {{{protocol} {node_port}}}"
            )));
        }
    }
    Ok(())
}

/// `allocHealthCheckNodePort`: the port asked for if free, else one picked.
fn health_check_port(spec: &mut Spec, used: &mut HashSet<i64>) -> Result<(), ApiError> {
    match number(spec, "healthCheckNodePort") {
        0 => {
            let picked = pick_port(used).ok_or_else(|| {
                internal_error("failed to allocate a HealthCheck NodePort 0: range is full")
            })?;
            used.insert(picked);
            spec.insert("healthCheckNodePort".into(), picked.into());
            Ok(())
        }
        asked => take_port(asked, used).map_err(|why| {
            internal_error(&format!(
                "failed to allocate requested HealthCheck NodePort {asked}: {why}"
            ))
        }),
    }
}

/// `dropTypeDependentFields`: a type change clears the fields the new type does not use, but
/// only those the client left as they were (a value it changed is its own, for validation to
/// judge). What it cleared is released once stored.
fn drop_type_dependent_fields(spec: &mut Spec, old: &Spec) {
    if needs_cluster_ip(old) && !needs_cluster_ip(spec) {
        if text(spec, "clusterIP") == text(old, "clusterIP")
            && list(spec, "clusterIPs") == list(old, "clusterIPs")
        {
            spec.remove("clusterIP");
            spec.remove("clusterIPs");
        }
        if list(spec, "ipFamilies") == list(old, "ipFamilies") {
            spec.remove("ipFamilies");
        }
        if present(spec, "ipFamilyPolicy") == present(old, "ipFamilyPolicy") {
            spec.remove("ipFamilyPolicy");
        }
    }
    if needs_node_port(old)
        && !needs_node_port(spec)
        && node_ports_of(spec).is_subset(&node_ports_of(old))
    {
        for port in ports_mut(spec) {
            port.remove("nodePort");
        }
    }
    if needs_health_check_port(old)
        && !needs_health_check_port(spec)
        && number(spec, "healthCheckNodePort") == number(old, "healthCheckNodePort")
    {
        spec.remove("healthCheckNodePort");
    }
    drop_load_balancer_fields(spec, old);
    if externally_accessible(old)
        && !externally_accessible(spec)
        && text(spec, "externalTrafficPolicy") == text(old, "externalTrafficPolicy")
    {
        spec.remove("externalTrafficPolicy");
    }
}

/// What only a LoadBalancer uses, cleared when a service stops being one.
fn drop_load_balancer_fields(spec: &mut Spec, old: &Spec) {
    if service_type(old) != "LoadBalancer" || service_type(spec) == "LoadBalancer" {
        return;
    }
    let allocate = "allocateLoadBalancerNodePorts";
    // Cleared only when both name it: the field is defaulted for a LoadBalancer alone.
    if present(spec, allocate).is_some() && present(spec, allocate) == present(old, allocate) {
        spec.remove(allocate);
    }
    if present(spec, "loadBalancerClass") == present(old, "loadBalancerClass") {
        spec.remove("loadBalancerClass");
    }
}

/// An ExternalName service reads without `internalTrafficPolicy`: the registry's decorator
/// drops it on every read, which a client cannot tell from its not being stored.
fn hide_unused_internal_policy(spec: &mut Spec) {
    if !needs_cluster_ip(spec) {
        spec.remove("internalTrafficPolicy");
    }
}

/// A service no longer a LoadBalancer has no load balancer (the strategy does not make the
/// client wait for the provider to tear it down).
fn clear_load_balancer_status(service: &mut Map<String, Value>) {
    let balancer = service
        .get_mut("status")
        .and_then(Value::as_object_mut)
        .and_then(|s| s.get_mut("loadBalancer"));
    if let Some(balancer) = balancer
        && balancer.as_object().is_none_or(|b| !b.is_empty())
    {
        *balancer = json!({});
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

/// Commits a stored service's allocation: its new addresses recorded as IPAddress objects
/// naming it, those it gave up released.
pub(crate) fn record(state: &State, namespace: &str, name: &str, allocation: &Allocation) {
    for ip in &allocation.addresses {
        let address = json!({"apiVersion": "networking.k8s.io/v1", "kind": "IPAddress",
            "metadata": {"name": ip, "labels": {
                "ipaddress.kubernetes.io/ip-family": "IPv4",
                "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io"}},
            "spec": {"parentRef": {"resource": "services", "namespace": namespace, "name": name}}});
        let _ = state.internal(crate::state::Internal {
            verb: "create",
            api_version: "networking.k8s.io/v1",
            plural: "ipaddresses",
            namespace: "",
            name: "",
            content_type: "application/json",
            body: address.to_string().as_bytes(),
            user_agent: "kube-apiserver",
            query: &[],
        });
    }
    for ip in &allocation.released {
        release_address(state, ip, namespace, name);
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
        release_address(state, ip, namespace, name);
    }
}

/// Removes the IPAddress object of `ip` if it names the service (another's is left alone).
fn release_address(state: &State, ip: &str, namespace: &str, name: &str) {
    let key = ip_key(ip);
    let Some(stored) = state.store.get(&key) else {
        return;
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
