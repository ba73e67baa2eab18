//! The three shapes of KEP-1027 unions as derived types, inside a Deployment-like object:
//! - `Strategy`: a discriminated union (`DeploymentStrategy`);
//! - `VolumeSource`: a union without a discriminator, flattened into `Volume` next to `name`;
//! - `EnvVar`: an inline ("deprecated") union, `value` / `valueFrom`, beside the key `name`.
//!
//! Members are `Option`s skipped when `None` (Go's `omitempty` pointers), so a cleared member
//! is absent from the JSON form, as the `Value` engine leaves it.
#![allow(dead_code)]

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct Deployment {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[patch(strategy = "retainKeys")]
    pub strategy: Option<Strategy>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge|retainKeys", merge_key = "name")]
    pub volumes: Vec<Volume>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge", merge_key = "name")]
    pub containers: Vec<Container>,
    /// Unions in map values and in a list without a merge key (items are never paired).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub named_strategies: BTreeMap<String, Strategy>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub atomic_sources: Vec<VolumeSource>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
#[union]
pub struct Strategy {
    #[union(discriminator)]
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[union(discriminated_by = "Recreate")]
    pub recreate_params: Option<RecreateParams>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdate {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct RecreateParams {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct Volume {
    pub name: String,
    #[serde(flatten)]
    pub source: VolumeSource,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
#[union]
pub struct VolumeSource {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_path: Option<HostPath>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty_dir: Option<EmptyDir>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config_map: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
pub struct HostPath {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
pub struct EmptyDir {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub medium: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge", merge_key = "name")]
    pub env: Vec<EnvVar>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct EnvVar {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[union(member)]
    pub value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[union(member)]
    pub value_from: Option<EnvVarSource>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
pub struct EnvVarSource {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_path: Option<String>,
}

// ---- The KEP's Go examples, one to one ------------------------------------------------------

/// `TopLevelUnion`: one embedded union.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
pub struct TopLevelUnion {
    pub name: String,
    #[serde(flatten)]
    pub union: Union,
}

/// `Union` (`+union`): one union, two fields and a discriminator.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
#[union]
pub struct Union {
    #[union(discriminator)]
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub union_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_a: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_b: Option<i64>,
}

/// `Union2`: a discriminator and two `+unionDeprecated` fields, in a struct that is not a
/// union itself.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
pub struct Union2 {
    #[union(discriminator)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#type: Option<Union2Type>,
    #[union(member)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha: Option<i64>,
    #[union(member)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beta: Option<i64>,
}

/// A string-enum discriminator (with a "Nothing" value selecting no member).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, StrategicMerge)]
pub enum Union2Type {
    Alpha,
    Beta,
    Nothing,
}

/// `InlinedUnion`: three unions in one JSON object (its own inline members, `Union`, `Union2`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
pub struct InlinedUnion {
    pub name: String,
    #[union(member)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field1: Option<i64>,
    #[union(member)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field2: Option<i64>,
    #[serde(flatten)]
    pub union: Union,
    #[serde(flatten)]
    pub union2: Union2,
}

/// Two inline groups in one struct.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
pub struct TwoGroups {
    #[union(member = "a")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a1: Option<i64>,
    #[union(member = "a")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a2: Option<i64>,
    #[union(member = "b")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b1: Option<i64>,
    #[union(member = "b")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b2: Option<i64>,
}
