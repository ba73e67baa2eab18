//! `#[patch(crate = "smp")]`: types deriving `StrategicMerge` in a crate that depends on
//! smp-core as `smp`. The crate compiling is most of the proof; the test checks that the
//! metadata and the generated code work.

#![warn(missing_docs)]

use serde::{Deserialize, Serialize};
use smp::StrategicMerge;

/// A container, merged by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
#[patch(crate = "smp")]
pub struct Container {
    /// The merge key.
    pub name: String,
    /// The image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
}

/// A spec with a list merged by key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
#[patch(crate = "smp")]
pub struct Spec {
    /// Merged by `name`.
    #[patch(strategy = "merge", merge_key = "name")]
    pub containers: Vec<Container>,
}

/// A string enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, StrategicMerge)]
#[patch(crate = "smp")]
pub enum Phase {
    /// Not started.
    Pending,
    /// Started.
    Running,
}

/// A union (KEP-1027), which also derives `Normalize`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
#[patch(crate = "smp")]
#[serde(rename_all = "camelCase")]
#[union]
pub struct Source {
    /// One member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_map: Option<String>,
    /// The other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use smp::{Normalize, Patch, StrategicMerge};

    use super::*;

    #[test]
    fn derived_code_works_under_the_other_name() {
        let mut spec: Spec = serde_json::from_value(json!({"containers": [
            {"name": "app", "image": "app:1"}, {"name": "log"}
        ]}))
        .unwrap();
        let patch =
            Patch::from_json(r#"{"containers": [{"name": "app", "image": "app:2"}]}"#).unwrap();
        spec.apply(&patch).unwrap();
        assert_eq!(
            serde_json::to_value(&spec).unwrap(),
            json!({"containers": [{"name": "app", "image": "app:2"}, {"name": "log"}]})
        );
        // The schema the derive wrote is the one the engine follows.
        let original = json!({"containers": [{"name": "app", "image": "app:1"}, {"name": "log"}]});
        let by_engine = smp::apply(&original, patch.as_value(), Spec::schema()).unwrap();
        assert_eq!(by_engine, serde_json::to_value(&spec).unwrap());
        let both: Source =
            serde_json::from_value(json!({"configMap": "a", "secret": "b"})).unwrap();
        assert_eq!(both.validate().unwrap_err().errors().len(), 1);
        assert_eq!(
            serde_json::to_value(Phase::Running).unwrap(),
            json!("Running")
        );
    }
}

/// Without `#[patch(crate = "...")]`: the derive reads the dependency's name (`smp`) from this
/// crate's manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
pub struct Unmarked {
    /// Merged by `name`.
    #[patch(strategy = "merge", merge_key = "name")]
    pub containers: Vec<Container>,
}

#[cfg(test)]
mod unmarked {
    use serde_json::json;
    use smp::{Patch, StrategicMerge};

    use super::Unmarked;

    #[test]
    fn the_dependency_name_is_found_without_the_attribute() {
        let mut spec: Unmarked =
            serde_json::from_value(json!({"containers": [{"name": "a"}, {"name": "b"}]})).unwrap();
        let patch = Patch::from_json(r#"{"containers": [{"name": "a", "image": "x"}]}"#).unwrap();
        spec.apply(&patch).unwrap();
        assert_eq!(spec.containers[0].image.as_deref(), Some("x"));
        assert_eq!(spec.containers.len(), 2);
    }
}
