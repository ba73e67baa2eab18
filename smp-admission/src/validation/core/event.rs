//! Event, as `v1` and as `events.k8s.io/v1` (`ValidateEventCreate`, `ValidateEventUpdate`).
//! Every request gets the legacy checks; only requests to `events.k8s.io/v1` get the strict
//! ones (metadata, series, eventTime, type, deprecated fields, immutability). Both wire forms
//! are read into the internal fields, and errors name the internal fields (`involvedObject`,
//! `message`, `count`...) whatever the request's version; a core request names the reporting
//! controller `reportingComponent` as its wire form does.

use serde_json::Value;

use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::{
    validate_immutable, validate_object_meta, validate_object_meta_update,
};
use crate::validation::names;
use crate::validation::read;

const LENGTH_LIMIT: usize = 128;
const NOTE_LENGTH_LIMIT: usize = 1024;

/// Which API the request came through.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Version {
    Core,
    EventsV1Beta1,
    EventsV1,
}

/// An event's fields under their internal names.
struct Event<'a> {
    version: Version,
    obj: &'a Value,
    involved: Option<&'a Value>,
    message: Option<&'a Value>,
    source: Option<&'a Value>,
    first: Option<&'a Value>,
    last: Option<&'a Value>,
    count: Option<&'a Value>,
    controller: Option<&'a Value>,
}

impl<'a> Event<'a> {
    fn of(obj: &'a Value) -> Event<'a> {
        let version = match read::text(obj, "apiVersion") {
            "events.k8s.io/v1beta1" => Version::EventsV1Beta1,
            v if v.starts_with("events.k8s.io/") => Version::EventsV1,
            _ => Version::Core,
        };
        let name = |core: &str, events: &str| {
            obj.get(if version == Version::Core {
                core
            } else {
                events
            })
            .filter(|v| !v.is_null())
        };
        Event {
            version,
            obj,
            involved: name("involvedObject", "regarding"),
            message: name("message", "note"),
            source: name("source", "deprecatedSource"),
            first: name("firstTimestamp", "deprecatedFirstTimestamp"),
            last: name("lastTimestamp", "deprecatedLastTimestamp"),
            count: name("count", "deprecatedCount"),
            controller: name("reportingComponent", "reportingController"),
        }
    }

    fn text(&self, member: &str) -> &'a str {
        read::text(self.obj, member)
    }

    fn namespace(&self) -> &'a str {
        self.obj
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    fn involved_namespace(&self) -> &'a str {
        self.involved.map_or("", |i| read::text(i, "namespace"))
    }

    fn event_time_set(&self) -> bool {
        is_time_set(self.obj.get("eventTime"))
    }

    fn strict(&self) -> bool {
        self.version == Version::EventsV1
    }
}

/// A timestamp member that is set (not absent, null or empty).
fn is_time_set(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str).is_some_and(|t| !t.is_empty())
}

pub(super) fn event(obj: &Value) -> ErrorList {
    let ev = Event::of(obj);
    let mut errs = legacy(&ev);
    if !ev.strict() {
        return errs;
    }
    errs.extend(validate_object_meta(
        obj.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    ));
    series(obj, &mut errs);
    if !ev.event_time_set() {
        errs.push(field::required(&Path::new("eventTime"), ""));
    }
    let kind = ev.text("type");
    if kind != "Normal" && kind != "Warning" {
        errs.push(field::invalid(
            &Path::new("type"),
            "",
            &format!("has invalid value: {kind}"),
        ));
    }
    let unset = "needs to be unset";
    if is_time_set(ev.first) {
        errs.push(field::invalid(&Path::new("firstTimestamp"), "", unset));
    }
    if is_time_set(ev.last) {
        errs.push(field::invalid(&Path::new("lastTimestamp"), "", unset));
    }
    if ev.count.and_then(Value::as_i64).unwrap_or(0) != 0 {
        errs.push(field::invalid(&Path::new("count"), "", unset));
    }
    let source_set = ev.source.is_some_and(|s| {
        !read::text(s, "component").is_empty() || !read::text(s, "host").is_empty()
    });
    if source_set {
        errs.push(field::invalid(&Path::new("source"), "", unset));
    }
    errs
}

pub(super) fn event_update(new: &Value, old: &Value) -> ErrorList {
    let (n, o) = (Event::of(new), Event::of(old));
    let mut errs = legacy(&n);
    if !n.strict() {
        return errs;
    }
    errs.extend(validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    ));
    if !read::semantic_eq(new.get("series"), old.get("series")) {
        series(new, &mut errs);
    }
    let members = [
        ("involvedObject", n.involved, o.involved),
        ("reason", new.get("reason"), old.get("reason")),
        ("message", n.message, o.message),
        ("source", n.source, o.source),
        ("firstTimestamp", n.first, o.first),
        ("lastTimestamp", n.last, o.last),
        ("count", n.count, o.count),
        // Upstream checks the reason twice.
        ("reason", new.get("reason"), old.get("reason")),
        ("type", new.get("type"), old.get("type")),
        ("eventTime", new.get("eventTime"), old.get("eventTime")),
        ("action", new.get("action"), old.get("action")),
        ("related", new.get("related"), old.get("related")),
        ("reportingController", n.controller, o.controller),
        (
            "reportingInstance",
            new.get("reportingInstance"),
            old.get("reportingInstance"),
        ),
    ];
    for (name, new_value, old_value) in members {
        validate_immutable(new_value, old_value, &Path::new(name), &mut errs);
    }
    errs
}

fn series(obj: &Value, errs: &mut ErrorList) {
    let Some(series) = obj.get("series").filter(|s| !s.is_null()) else {
        return;
    };
    if read::int(series, "count") < 2 {
        errs.push(field::invalid(
            &Path::new("series.count"),
            "",
            "should be at least 2",
        ));
    }
    if !is_time_set(series.get("lastObservedTime")) {
        errs.push(field::required(&Path::new("series.lastObservedTime"), ""));
    }
}

/// `legacyValidateEvent`.
fn legacy(ev: &Event) -> ErrorList {
    let mut errs = ErrorList::new();
    let involved_ns = Path::names(&["involvedObject", "namespace"]);
    let mismatch = "does not match event.namespace";
    let (ns, involved) = (ev.namespace(), ev.involved_namespace());
    if !ev.event_time_set() {
        let ok = if involved.is_empty() {
            ns.is_empty() || ns == "default"
        } else {
            ns == involved
        };
        if !ok {
            errs.push(field::invalid(&involved_ns, involved, mismatch));
        }
    } else {
        if involved.is_empty() && ns != "default" && ns != "kube-system" {
            errs.push(field::invalid(&involved_ns, involved, mismatch));
        }
        let controller_name = if ev.version == Version::Core {
            "reportingComponent"
        } else {
            "reportingController"
        };
        let controller_path = Path::new(controller_name);
        let controller = ev.controller.and_then(Value::as_str).unwrap_or("");
        if controller.is_empty() {
            errs.push(field::required(&controller_path, ""));
        }
        for msg in names::is_qualified_name(controller) {
            errs.push(field::invalid(&controller_path, controller, &msg));
        }
        let at_most = |n: usize| format!("can have at most {n} characters");
        for member in ["reportingInstance", "action", "reason"] {
            let value = ev.text(member);
            if value.is_empty() {
                errs.push(field::required(&Path::new(member), ""));
            }
            if value.len() > LENGTH_LIMIT {
                errs.push(field::invalid(
                    &Path::new(member),
                    "",
                    &at_most(LENGTH_LIMIT),
                ));
            }
        }
        let message = ev.message.and_then(Value::as_str).unwrap_or("");
        if message.len() > NOTE_LENGTH_LIMIT {
            errs.push(field::invalid(
                &Path::new("message"),
                "",
                &at_most(NOTE_LENGTH_LIMIT),
            ));
        }
    }
    for msg in names::is_dns1123_subdomain(ns) {
        errs.push(field::invalid(&Path::new("namespace"), ns, &msg));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn core_events_only_get_the_legacy_checks() {
        let e = json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "Bad_Name", "namespace": "default"},
            "involvedObject": {"namespace": "default"}, "type": "odd"});
        assert!(event(&e).is_empty());
    }

    #[test]
    fn events_v1_needs_an_event_time() {
        let e = json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e", "namespace": "default"},
            "regarding": {"namespace": "default"}, "type": "Normal"});
        let errs: Vec<String> = event(&e).iter().map(ToString::to_string).collect();
        assert_eq!(errs, vec!["eventTime: Required value"]);
    }
}
