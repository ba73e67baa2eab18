//! The pod subresources that are not the pod itself, as kube-apiserver's pod registry serves
//! them (`pkg/registry/core/pod/storage`, `pkg/registry/core/pod/rest`):
//!
//! - `binding` (and the `bindings` resource): a scheduler's decision, putting the pod on a
//!   node and marking it scheduled;
//! - `eviction`: a delete that a PodDisruptionBudget may refuse (429), reading the budget's
//!   status as the disruption controller keeps it (this server runs no such controller: a
//!   budget's status is what clients write to it);
//! - `log`, `exec`, `attach`, `portforward`: streams from the node's kubelet. There is no
//!   kubelet here: a pod on no node gets the server's answer for that, and a pod on a node
//!   the answer the server gives when the kubelet does not answer.

use http::StatusCode;
use serde_json::{Value, json};

use super::answer::Answer;
use super::call::{Call, RETRIES};

use super::{body, delete};
use crate::object::text_at;
use crate::selector::{self, Selector};
use crate::status::ApiError;
use crate::store::WriteError;

/// The answer of a subresource that acts rather than stores: `Success`, `201` (the create
/// handler's code, which it writes into a `Status` that has none).
fn success() -> (StatusCode, Value) {
    (
        StatusCode::CREATED,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
               "code": 201}),
    )
}

/// `pods/{name}/binding` and `bindings`: the pod named by the binding goes to its target
/// node, and is marked scheduled (`BindingREST`).
pub(super) fn bind(call: &Call<'_>, body: &[u8]) -> Result<(StatusCode, Value), ApiError> {
    let binding = body::read_object(call, body)?;
    let name = text_at(&binding, "/metadata/name").to_owned();
    if !call.info.name.is_empty() && call.info.name != name {
        return Err(ApiError::bad_request(
            "name in URL does not match name in Binding object",
        ));
    }
    let kind = text_at(&binding, "/target/kind");
    let node = text_at(&binding, "/target/name");
    // The validation errors come back as a plain error, which the server answers as a 500.
    let mut errors = Vec::new();
    if !kind.is_empty() && kind != "Node" {
        errors.push(format!(
            "target.kind: Unsupported value: {kind:?}: supported values: \"Node\", \"<empty>\""
        ));
    }
    if node.is_empty() {
        errors.push("target.name: Required value".to_owned());
    }
    match errors.as_slice() {
        [] => {}
        [one] => return Err(ApiError::internal(one.clone())),
        many => return Err(ApiError::internal(format!("[{}]", many.join(", ")))),
    }
    if call.dry_run() {
        return Ok(success());
    }
    // Through `bindings` too, the pod is what is written.
    let key = crate::store::ObjectKey {
        resource: "/pods".into(),
        namespace: call.info.namespace.clone(),
        name: name.clone(),
    };
    let annotations = binding
        .pointer("/metadata/annotations")
        .and_then(Value::as_object);
    let now = call.state.options.clock.now();
    for _ in 0..RETRIES {
        let current = call
            .state
            .store
            .get(&key)
            .ok_or_else(|| ApiError::not_found("", "pods", "pods", &name))?;
        let pod = &current.object;
        // What the update refuses is wrapped as a conflict on `pods/binding` (`assignPod`).
        let conflict = |why: String| {
            ApiError::conflict_with("pods/binding", &name, why).about("", "pods/binding", &name)
        };
        if pod
            .pointer("/metadata/deletionTimestamp")
            .is_some_and(|t| !t.is_null())
        {
            return Err(conflict(format!(
                "pod {name} is being deleted, cannot be assigned to a host"
            )));
        }
        let assigned = text_at(pod, "/spec/nodeName");
        if !assigned.is_empty() {
            return Err(conflict(format!(
                "pod {name} is already assigned to node {assigned:?}"
            )));
        }
        if pod
            .pointer("/spec/schedulingGates")
            .and_then(Value::as_array)
            .is_some_and(|g| !g.is_empty())
        {
            return Err(conflict(format!(
                "pod {name} has non-empty .spec.schedulingGates"
            )));
        }
        let mut pod = (**pod).clone();
        pod["spec"]["nodeName"] = json!(node);
        if let Some(annotations) = annotations {
            let meta = &mut pod["metadata"];
            if !meta.get("annotations").is_some_and(Value::is_object) {
                meta["annotations"] = json!({});
            }
            for (k, v) in annotations {
                meta["annotations"][k] = v.clone();
            }
        }
        scheduled(&mut pod, &now);
        // The binding writes to storage directly: no field manager, no generation.
        match call.state.store.replace(&key, current.revision, pod) {
            Ok(_) => return Ok(success()),
            Err(WriteError::Changed) => continue,
            Err(WriteError::Exists) => return Err(body::conflict(call)),
        }
    }
    Err(body::conflict(call))
}

/// Sets the pod's `PodScheduled` condition to `True` (its transition time now, when it was
/// not already true).
fn scheduled(pod: &mut Value, now: &str) {
    if !pod.get("status").is_some_and(Value::is_object) {
        pod["status"] = json!({});
    }
    let status = &mut pod["status"];
    if !status.get("conditions").is_some_and(Value::is_array) {
        status["conditions"] = json!([]);
    }
    let Some(conditions) = status["conditions"].as_array_mut() else {
        return;
    };
    let fresh = json!({"type": "PodScheduled", "status": "True", "lastProbeTime": null,
                       "lastTransitionTime": now});
    match conditions
        .iter_mut()
        .find(|c| c.get("type").and_then(Value::as_str) == Some("PodScheduled"))
    {
        Some(condition) if condition.get("status").and_then(Value::as_str) == Some("True") => {}
        Some(condition) => {
            condition["status"] = json!("True");
            condition["lastTransitionTime"] = json!(now);
        }
        None => conditions.push(fresh),
    }
}

/// The `Eviction` cause type of a refusal by a disruption budget.
const DISRUPTION_BUDGET: &str = "DisruptionBudget";
/// How the server words a refusal by a disruption budget.
const WOULD_VIOLATE: &str = "Cannot evict pod as it would violate the pod's disruption budget.";

/// 429 for an eviction a budget refuses, with the budget's words as the cause.
fn refused(cause: String, retry_after: u64) -> ApiError {
    let mut details = json!({"causes": [{"reason": DISRUPTION_BUDGET, "message": cause}]});
    if retry_after > 0 {
        details["retryAfterSeconds"] = json!(retry_after);
    }
    ApiError::too_many_requests(WOULD_VIOLATE, details)
}

/// `pods/{name}/eviction`: deletes the pod, unless the one PodDisruptionBudget that selects
/// it allows no disruption now (`EvictionREST`).
pub(super) fn evict(call: &Call<'_>, body: &[u8]) -> Result<(StatusCode, Value), ApiError> {
    let eviction = body::read_object(call, body)?;
    if eviction.pointer("/metadata/name").and_then(Value::as_str) != Some(&call.info.name) {
        return Err(ApiError::bad_request(
            "name in URL does not match name in Eviction object",
        ));
    }
    let options = eviction
        .get("deleteOptions")
        .filter(|o| o.is_object())
        .map(|o| serde_json::to_vec(o).unwrap_or_default())
        .unwrap_or_default();
    let pod_call = Call {
        state: call.state,
        served: call.served,
        info: crate::request::RequestInfo {
            verb: "delete",
            subresource: String::new(),
            ..call.info.clone()
        },
        resource: call.resource,
        endpoint: call.resource,
        headers: call.headers,
        warnings: Default::default(),
        fields: call.fields.clone(),
        shape: call.shape,
    };
    let pod = call.current()?;
    if !ignores_budgets(&pod.object) {
        let budgets = budgets_of(call, &pod.object);
        match budgets.as_slice() {
            [] => {}
            [_, _, ..] => {
                return Err(ApiError::too_many_requests(
                    "This pod has more than one PodDisruptionBudget, which the eviction \
                     subresource does not support.",
                    json!({}),
                ));
            }
            [budget] => spend(call, &pod.object, budget)?,
        }
    }
    delete::delete(&pod_call, &options)?;
    let warnings = pod_call.warnings.take();
    call.warnings.borrow_mut().extend(warnings);
    Ok(success())
}

/// A pod done or not yet running, or already going, disrupts nothing by going.
fn ignores_budgets(pod: &Value) -> bool {
    let phase = text_at(pod, "/status/phase");
    matches!(phase, "Succeeded" | "Failed" | "Pending")
        || pod
            .pointer("/metadata/deletionTimestamp")
            .is_some_and(|t| !t.is_null())
}

fn ready(pod: &Value) -> bool {
    pod.pointer("/status/conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Ready" && c["status"] == "True")
}

/// The names of the budgets in the pod's namespace whose selectors select it (a budget with
/// an empty selector selects nothing).
fn budgets_of(call: &Call<'_>, pod: &Value) -> Vec<String> {
    let (budgets, _) = call.state.store.list(
        "policy/poddisruptionbudgets",
        Some(call.info.namespace.as_str()),
        None,
    );
    let labels = pod.pointer("/metadata/labels").and_then(Value::as_object);
    budgets
        .into_iter()
        .filter(|(_, budget)| {
            let printed = budget
                .object
                .pointer("/spec/selector")
                .map(selector::print)
                .unwrap_or_default();
            match Selector::labels(&printed) {
                Ok(selector) => !selector.is_empty() && selector.matches_labels(labels),
                Err(_) => false,
            }
        })
        .map(|(key, _)| key.name)
        .collect()
}

/// Takes one disruption from budget `name` for the pod, as the eviction does: refused when
/// the budget's status is behind its spec or allows none; a pod that is not ready goes
/// without spending one when the budget is met anyway (or its policy lets unhealthy pods go).
fn spend(call: &Call<'_>, pod: &Value, name: &str) -> Result<(), ApiError> {
    let key = crate::store::ObjectKey {
        resource: "policy/poddisruptionbudgets".into(),
        namespace: call.info.namespace.clone(),
        name: name.to_owned(),
    };
    let pod_name = &call.info.name;
    for _ in 0..RETRIES {
        let Some(stored) = call.state.store.get(&key) else {
            return Ok(());
        };
        let budget = &stored.object;
        let number = |pointer: &str| budget.pointer(pointer).and_then(Value::as_i64).unwrap_or(0);
        let (current, desired) = (
            number("/status/currentHealthy"),
            number("/status/desiredHealthy"),
        );
        if !ready(pod) {
            let always =
                budget.pointer("/spec/unhealthyPodEvictionPolicy") == Some(&json!("AlwaysAllow"));
            if always || (current >= desired && desired > 0) {
                return Ok(());
            }
        }
        if number("/status/observedGeneration") < number("/metadata/generation") {
            return Err(refused(
                format!("The disruption budget {name} is still being processed by the server."),
                10,
            ));
        }
        let allowed = number("/status/disruptionsAllowed");
        if allowed < 0 {
            return Err(ApiError::forbidden_resource(
                "poddisruptionbudget.policy",
                name,
                "pdb disruptions allowed is negative",
            ));
        }
        if allowed == 0 {
            return Err(refused(
                format!(
                    "The disruption budget {name} needs {desired} healthy pods and has {current} currently"
                ),
                0,
            ));
        }
        if call.dry_run() {
            return Ok(());
        }
        let mut budget = (**budget).clone();
        let now = call.state.options.clock.now();
        budget["status"]["disruptionsAllowed"] = json!(allowed - 1);
        if !budget["status"]
            .get("disruptedPods")
            .is_some_and(Value::is_object)
        {
            budget["status"]["disruptedPods"] = json!({});
        }
        budget["status"]["disruptedPods"][pod_name.as_str()] = json!(now);
        if allowed == 1 {
            insufficient(&mut budget, &now);
        }
        match call.state.store.replace(&key, stored.revision, budget) {
            Ok(_) => return Ok(()),
            Err(_) => continue,
        }
    }
    Err(body::conflict(call))
}

/// The budget's `DisruptionAllowed` condition, now that it allows none.
fn insufficient(budget: &mut Value, now: &str) {
    let condition = json!({"type": "DisruptionAllowed", "status": "False",
        "reason": "InsufficientPods", "message": "",
        "observedGeneration": budget.pointer("/status/observedGeneration").cloned()
            .unwrap_or(json!(0)),
        "lastTransitionTime": now});
    let status = &mut budget["status"];
    if !status.get("conditions").is_some_and(Value::is_array) {
        status["conditions"] = json!([]);
    }
    if let Some(conditions) = status["conditions"].as_array_mut() {
        match conditions
            .iter_mut()
            .find(|c| c.get("type").and_then(Value::as_str) == Some("DisruptionAllowed"))
        {
            Some(existing) if existing["status"] == "False" => {}
            Some(existing) => *existing = condition,
            None => conditions.push(condition),
        }
    }
}

/// Which stream a request asks a kubelet for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stream {
    Log,
    Exec,
    Attach,
    PortForward,
}

impl Stream {
    pub(super) fn of(subresource: &str) -> Option<Stream> {
        Some(match subresource {
            "log" => Stream::Log,
            "exec" => Stream::Exec,
            "attach" => Stream::Attach,
            "portforward" => Stream::PortForward,
            _ => return None,
        })
    }
}

/// What a stream request is answered with: the empty log of a pod on no node, or an error.
pub(super) fn stream(call: &Call<'_>, stream: Stream) -> Result<Answer, ApiError> {
    let pod = call.current()?;
    let pod = &pod.object;
    let name = &call.info.name;
    let container = if stream == Stream::PortForward {
        String::new()
    } else {
        container(pod, name, call.query("container").unwrap_or(""))?
    };
    let node = text_at(pod, "/spec/nodeName");
    if node.is_empty() {
        return match stream {
            // The log of a pod on no node is empty (`LogLocation` gives no location).
            Stream::Log => Ok(Answer::Text(StatusCode::OK, Vec::new())),
            _ => Err(ApiError::bad_request(format!(
                "pod {name} does not have a host assigned"
            ))),
        };
    }
    let (host, port) = kubelet(call, node)?;
    let at = if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    };
    let refused = format!("dial tcp {at}: connect: connection refused");
    Err(ApiError::internal(match stream {
        Stream::Log => format!(
            "Get \"https://{at}/containerLogs/{}/{name}/{container}{}\": {refused}",
            call.info.namespace,
            log_query(call)
        ),
        _ => format!("error dialing backend: {refused}"),
    }))
}

/// The container a log, exec or attach is for: the one named, or the pod's only one.
fn container(pod: &Value, name: &str, asked: &str) -> Result<String, ApiError> {
    let all: Vec<&str> = ["initContainers", "containers", "ephemeralContainers"]
        .iter()
        .flat_map(|list| {
            pod.pointer(&format!("/spec/{list}"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        })
        .filter_map(|c| c.get("name").and_then(Value::as_str))
        .collect();
    if !asked.is_empty() {
        return if all.contains(&asked) {
            Ok(asked.to_owned())
        } else {
            Err(ApiError::bad_request(format!(
                "container {asked} is not valid for pod {name}"
            )))
        };
    }
    let main: Vec<&str> = pod
        .pointer("/spec/containers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("name").and_then(Value::as_str))
        .collect();
    match main.as_slice() {
        [one] => Ok((*one).to_owned()),
        [] => Err(ApiError::bad_request(format!(
            "a container name must be specified for pod {name}"
        ))),
        _ => Err(ApiError::bad_request(format!(
            "a container name must be specified for pod {name}, choose one of: [{}]",
            all.join(" ")
        ))),
    }
}

/// Where the node's kubelet listens: its preferred address (host name, then internal DNS
/// and IP, then external), and its port (10250 unless the node says otherwise).
fn kubelet(call: &Call<'_>, node: &str) -> Result<(String, i64), ApiError> {
    let key = crate::store::ObjectKey {
        resource: "/nodes".into(),
        namespace: String::new(),
        name: node.to_owned(),
    };
    let stored = call
        .state
        .store
        .get(&key)
        .ok_or_else(|| ApiError::not_found("", "nodes", "nodes", node))?;
    let object = &stored.object;
    let addresses = object
        .pointer("/status/addresses")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let host = [
        "Hostname",
        "InternalDNS",
        "InternalIP",
        "ExternalDNS",
        "ExternalIP",
    ]
    .iter()
    .find_map(|ty| {
        addresses
            .iter()
            .find(|a| a["type"] == *ty)
            .and_then(|a| a.get("address").and_then(Value::as_str))
    });
    let Some(host) = host else {
        let known: Vec<String> = addresses
            .iter()
            .map(|a| {
                format!(
                    "{{{} {}}}",
                    a["type"].as_str().unwrap_or(""),
                    a["address"].as_str().unwrap_or("")
                )
            })
            .collect();
        return Err(ApiError::internal(format!(
            "no preferred addresses found; known addresses: [{}]",
            known.join(" ")
        )));
    };
    let port = object
        .pointer("/status/daemonEndpoints/kubeletEndpoint/Port")
        .and_then(Value::as_i64)
        .filter(|p| *p > 0)
        .unwrap_or(10250);
    Ok((host.to_owned(), port))
}

/// The options a log request passes on to the kubelet, as a query (keys sorted).
fn log_query(call: &Call<'_>) -> String {
    let mut pairs = Vec::new();
    for key in [
        "follow",
        "limitBytes",
        "previous",
        "sinceSeconds",
        "sinceTime",
        "tailLines",
        "timestamps",
    ] {
        match (key, call.query(key)) {
            (_, None | Some("") | Some("false")) => {}
            ("follow" | "previous" | "timestamps", Some(_)) => pairs.push(format!("{key}=true")),
            (_, Some(value)) => pairs.push(format!("{key}={value}")),
        }
    }
    if pairs.is_empty() {
        String::new()
    } else {
        format!("?{}", pairs.join("&"))
    }
}
