//! A Pod-like set of types using every supported attribute and field type, built under
//! `#![deny(warnings)]` (the derive's output must be lint-clean). `derive_behaviour.rs` also
//! includes this file, so it is linted by clippy and its `main` runs as a test.
#![deny(warnings)]

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::{Patch, StrategicMerge};

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct Pod {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<PodSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Box<PodStatus>>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "HashMap::is_empty")]
    pub annotations: HashMap<String, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge")]
    pub finalizers: Vec<String>,
    #[serde(default)]
    pub generation: i64,
    /// Not on the wire: not in the schema, never patched.
    #[serde(skip)]
    pub cache: u64,
}

fn default_grace() -> i64 {
    30
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    #[patch(strategy = "merge", merge_key = "name")]
    pub containers: Vec<Container>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[patch(strategy = "merge|retainKeys", merge_key = "name")]
    pub volumes: Option<Vec<Volume>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[patch(strategy = "retainKeys")]
    pub strategy: Option<UpdateStrategy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<RestartPolicy>,
    #[serde(default = "default_grace")]
    pub termination_grace_period_seconds: i64,
    pub active_deadline_seconds: Option<u32>,
    #[serde(default)]
    pub priority: f64,
    #[serde(default)]
    pub host_network: bool,
    #[serde(rename = "nodeSelector", default)]
    pub selector: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[patch(atomic)]
    pub tolerations: Option<Vec<Toleration>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overhead: Option<Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge", merge_key = "protocol")]
    pub protocols: Vec<ProtocolRule>,
    #[serde(flatten)]
    pub scheduling: Scheduling,
}

/// Flattened into `PodSpec`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct Scheduling {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_name: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge")]
    pub scheduling_gates: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(
        strategy = "merge",
        merge_key = "containerPort",
        recommended = "containerPort,protocol"
    )]
    pub ports: Vec<ContainerPort>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge", merge_key = "name")]
    pub env: Vec<EnvVar>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Resources>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct ContainerPort {
    pub container_port: u16,
    #[serde(default)]
    pub protocol: Protocol,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
pub struct EnvVar {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
pub struct Resources {
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub limits: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct Volume {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_path: Option<HostPath>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_dir: Option<EmptyDir>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
pub struct HostPath {
    pub path: String,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase", default)]
pub struct EmptyDir {
    pub medium: String,
    pub size_limit: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "kebab-case")]
pub struct UpdateStrategy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<Box<RollingUpdate>>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub struct RollingUpdate {
    pub max_surge: Option<i32>,
    pub max_unavailable: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct Toleration {
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(deny_unknown_fields)]
pub struct PodStatus {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<Phase>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pod_ips: Vec<String>,
}

/// A string enum, as a plain field.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, StrategicMerge)]
pub enum RestartPolicy {
    Always,
    OnFailure,
    Never,
}

/// A string enum with serde renames.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "UPPERCASE")]
pub enum Protocol {
    #[default]
    Tcp,
    Udp,
    #[serde(rename = "SCTP")]
    Sctp,
}

/// A string enum used as a list merge key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
pub struct ProtocolRule {
    pub protocol: Protocol,
    #[serde(default)]
    pub allowed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
pub enum Phase {
    Pending,
    CrashLoopBackOff,
}

pub fn main() {
    let mut pod: Pod = serde_json::from_value(json!({
        "metadata": {"name": "web", "labels": {"app": "web"}, "finalizers": ["a"]},
        "spec": {
            "containers": [{"name": "app", "image": "app:1", "ports": [{"containerPort": 80}]}],
            "nodeSelector": {"zone": "a"},
            "protocols": [{"protocol": "TCP", "allowed": true}],
            "nodeName": "n1",
            "strategy": {"type": "RollingUpdate", "rolling-update": {"MAX_SURGE": 1}}
        },
        "status": {"phase": "CRASH-LOOP-BACK-OFF"}
    }))
    .unwrap();
    pod.metadata.cache = 7;
    let patch = Patch::from_value(json!({
        "metadata": {"finalizers": ["b"], "annotations": {"x": "y"}},
        "spec": {
            "containers": [{"name": "app", "image": "app:2", "env": [{"name": "A", "value": "1"}]}],
            "protocols": [{"protocol": "UDP"}],
            "restartPolicy": "Never",
            "schedulingGates": ["g"]
        }
    }))
    .unwrap();
    pod.apply(&patch).unwrap();
    let spec = pod.spec.as_ref().unwrap();
    assert_eq!(spec.containers[0].image.as_deref(), Some("app:2"));
    assert_eq!(spec.containers[0].env.len(), 1);
    assert_eq!(spec.protocols.len(), 2);
    assert!(spec.protocols.iter().any(|r| r.protocol == Protocol::Udp));
    assert_eq!(spec.restart_policy, Some(RestartPolicy::Never));
    assert_eq!(spec.scheduling.scheduling_gates, ["g"]);
    assert_eq!(spec.scheduling.node_name.as_deref(), Some("n1"));
    assert_eq!(spec.termination_grace_period_seconds, 30);
    assert_eq!(pod.metadata.finalizers.len(), 2);
    assert_eq!(pod.metadata.cache, 7);
    assert_eq!(
        pod.status.as_ref().and_then(|s| s.phase),
        Some(Phase::CrashLoopBackOff)
    );
    assert!(Pod::schema().field("spec").declared);
}
