//! Resources served in more than one shape. core/v1 `events` and `events.k8s.io/v1` `events`
//! are one resource in kube-apiserver (both groups' storage is the core event store, under the
//! same keys), served in two shapes: an event written through one is read, listed and watched
//! through the other (`pkg/apis/events/v1/conversion.go`). The fields map one to one, renamed;
//! nothing is derived.
//!
//! Objects are stored in one canonical shape: core/v1's, without the members Go's types write
//! for zero values. Each answer is then written in the shape asked for, with those members as
//! Go writes them (`"eventTime": null`, `"source": {}`, `"reportingComponent": ""`, ...), so
//! that every reader sees what the real server sends whichever group wrote the event.

use std::borrow::Cow;

use serde_json::{Map, Value, json};

/// The shape a resource is read and written in, when it is not stored as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Stored as given.
    Plain,
    /// A core/v1 Event.
    CoreEvent,
    /// An events.k8s.io/v1 Event.
    EventsV1,
}

/// events.k8s.io/v1's names of core/v1's members.
const RENAMES: [(&str, &str); 6] = [
    ("involvedObject", "regarding"),
    ("message", "note"),
    ("source", "deprecatedSource"),
    ("firstTimestamp", "deprecatedFirstTimestamp"),
    ("lastTimestamp", "deprecatedLastTimestamp"),
    ("count", "deprecatedCount"),
];

/// core/v1's `reportingComponent` is events.k8s.io/v1's `reportingController`.
const REPORTING: (&str, &str) = ("reportingComponent", "reportingController");

impl Shape {
    /// The shape of a resource reached through `group`.
    pub(crate) fn of(group: &str, plural: &str) -> Shape {
        match (group, plural) {
            ("", "events") => Shape::CoreEvent,
            ("events.k8s.io", "events") => Shape::EventsV1,
            _ => Shape::Plain,
        }
    }

    /// The resource its objects are stored under (`group/plural`).
    pub(crate) fn storage_resource(self, group: &str, plural: &str) -> String {
        match self {
            Shape::CoreEvent | Shape::EventsV1 => "/events".into(),
            Shape::Plain => format!("{group}/{plural}"),
        }
    }

    /// A stored object as the resource serves it.
    pub(crate) fn render(self, stored: &Value) -> Cow<'_, Value> {
        Cow::Owned(match self {
            Shape::Plain => return Cow::Borrowed(stored),
            Shape::CoreEvent => {
                let mut event = stored.clone();
                if let Some(o) = event.as_object_mut() {
                    o.insert("apiVersion".into(), json!("v1"));
                    present(o, "involvedObject", json!({}));
                    present(o, "source", json!({}));
                    for key in ["firstTimestamp", "lastTimestamp", "eventTime"] {
                        present(o, key, Value::Null);
                    }
                    present(o, "reportingComponent", json!(""));
                    present(o, "reportingInstance", json!(""));
                }
                event
            }
            Shape::EventsV1 => {
                let Some(core) = stored.as_object() else {
                    return Cow::Borrowed(stored);
                };
                let mut event = Map::new();
                for (key, value) in core {
                    let key = rename(key, false);
                    event.insert(key.to_owned(), value.clone());
                }
                event.insert("apiVersion".into(), json!("events.k8s.io/v1"));
                // core/v1's zero values that events.k8s.io/v1 leaves out.
                if event.get("reportingController") == Some(&json!("")) {
                    event.remove("reportingController");
                }
                if event.get("reportingInstance") == Some(&json!("")) {
                    event.remove("reportingInstance");
                }
                present(&mut event, "eventTime", Value::Null);
                present(&mut event, "regarding", json!({}));
                present(&mut event, "deprecatedSource", json!({}));
                present(&mut event, "deprecatedFirstTimestamp", Value::Null);
                present(&mut event, "deprecatedLastTimestamp", Value::Null);
                Value::Object(event)
            }
        })
    }

    /// An object given in this shape, as stored: in core/v1's shape, without zero members.
    pub(crate) fn to_storage(self, given: Value) -> Value {
        if self == Shape::Plain {
            return given;
        }
        let Value::Object(given) = given else {
            return given;
        };
        let mut event = Map::new();
        for (key, value) in given {
            let key = if self == Shape::EventsV1 {
                rename(&key, true).to_owned()
            } else {
                key
            };
            let zero = match (key.as_str(), &value) {
                (_, Value::Null) => true,
                ("involvedObject" | "source", Value::Object(o)) => o.is_empty(),
                ("reportingComponent" | "reportingInstance", Value::String(s)) => s.is_empty(),
                ("count", Value::Number(n)) => n.as_i64() == Some(0),
                _ => false,
            };
            if !zero {
                event.insert(key, value);
            }
        }
        event.insert("apiVersion".into(), json!("v1"));
        Value::Object(event)
    }
}

/// A member's name in the other shape: `to_core` from events.k8s.io/v1's to core/v1's.
fn rename(key: &str, to_core: bool) -> &str {
    let pairs = RENAMES.iter().chain(std::iter::once(&REPORTING));
    for (core, events) in pairs {
        match to_core {
            true if key == *events => return core,
            false if key == *core => return events,
            _ => {}
        }
    }
    key
}

/// Sets `key` to `value` unless it is there.
fn present(object: &mut Map<String, Value>, key: &str, value: Value) {
    object.entry(key).or_insert(value);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_event_in_two_shapes() {
        let written = json!({"apiVersion": "events.k8s.io/v1", "kind": "Event",
            "metadata": {"name": "e", "namespace": "d"}, "eventTime": "2026-01-02T03:04:05.123456Z",
            "regarding": {"kind": "Pod", "name": "p"}, "note": "hi", "reason": "Started",
            "action": "Start", "type": "Normal", "reportingController": "ctl",
            "reportingInstance": "ctl-0", "deprecatedSource": {}, "deprecatedFirstTimestamp": null});
        let stored = Shape::EventsV1.to_storage(written.clone());
        assert_eq!(
            stored,
            json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e", "namespace": "d"},
                "eventTime": "2026-01-02T03:04:05.123456Z", "involvedObject": {"kind": "Pod", "name": "p"},
                "message": "hi", "reason": "Started", "action": "Start", "type": "Normal",
                "reportingComponent": "ctl", "reportingInstance": "ctl-0"})
        );
        let core = Shape::CoreEvent.render(&stored).into_owned();
        assert_eq!(core["source"], json!({}));
        assert_eq!(core["firstTimestamp"], Value::Null);
        assert_eq!(core["message"], "hi");
        let back = Shape::EventsV1.render(&stored).into_owned();
        assert_eq!(back["note"], "hi");
        assert_eq!(back["deprecatedLastTimestamp"], Value::Null);
        assert_eq!(Shape::EventsV1.to_storage(back), stored);
        assert_eq!(Shape::CoreEvent.to_storage(core), stored);
        let legacy = json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "l"},
            "involvedObject": {"name": "p"}, "message": "m", "count": 1, "source": {"component": "kubelet"}});
        let v1 = Shape::EventsV1
            .render(&Shape::CoreEvent.to_storage(legacy))
            .into_owned();
        assert_eq!(v1["deprecatedCount"], 1);
        assert_eq!(v1["deprecatedSource"], json!({"component": "kubelet"}));
        assert_eq!(v1["eventTime"], Value::Null);
        assert!(v1.get("reportingController").is_none());
    }
}
