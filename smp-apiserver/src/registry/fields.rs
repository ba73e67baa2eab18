//! Field selectors: the labels each resource's field selectors may name (the scheme's field
//! label conversion functions, `pkg/apis/<group>/<version>/conversion.go`; without one, only
//! `metadata.name` and `metadata.namespace`), and the values an object holds for them (the
//! strategy's `GetAttrs`). A label a resource accepts but its objects do not hold reads as
//! the empty string.

use serde_json::Value;

/// How a resource's field selectors are read and matched.
#[derive(Debug, Clone)]
pub(crate) enum Fields {
    /// A built-in resource, with its group, version and plural name.
    Builtin {
        group: String,
        version: String,
        plural: String,
        namespaced: bool,
    },
    /// A custom resource: whether it is namespaced, and its served version's selectable fields
    /// (each label with the member names of its path).
    Custom {
        namespaced: bool,
        selectable: Vec<(String, Vec<String>)>,
    },
}

/// What a built-in kind with a conversion function of its own accepts and holds.
struct Kind {
    /// The accepted labels (as the client writes them) and their internal names.
    labels: &'static [(&'static str, &'static str)],
    refusal: Refusal,
    /// The value of an internal label other than the object's name and namespace.
    value: fn(&Value, &str) -> String,
}

#[derive(Clone, Copy)]
enum Refusal {
    /// `field label not supported: <label>`.
    NotSupported,
    /// `field label "<label>" not supported for batchv1.Job`.
    Job,
    /// `field label not supported for resource.k8s.io/<version>, Kind=ResourceSlice: <label>`.
    ResourceSlice,
}

const NAME: (&str, &str) = ("metadata.name", "metadata.name");
const NAMESPACE: (&str, &str) = ("metadata.namespace", "metadata.namespace");

fn builtin_kind(group: &str, version: &str, plural: &str) -> Option<Kind> {
    use Refusal::*;
    let kind = |labels, refusal, value| {
        Some(Kind {
            labels,
            refusal,
            value,
        })
    };
    match (group, version, plural) {
        ("", "v1", "pods") => kind(
            &[
                NAME,
                NAMESPACE,
                ("spec.nodeName", "spec.nodeName"),
                ("spec.host", "spec.nodeName"),
                ("spec.restartPolicy", "spec.restartPolicy"),
                ("spec.schedulerName", "spec.schedulerName"),
                ("spec.serviceAccountName", "spec.serviceAccountName"),
                ("spec.hostNetwork", "spec.hostNetwork"),
                ("status.phase", "status.phase"),
                ("status.podIP", "status.podIP"),
                ("status.podIPs", "status.podIPs"),
                ("status.nominatedNodeName", "status.nominatedNodeName"),
            ],
            NotSupported,
            pod,
        ),
        ("", "v1", "nodes") => kind(
            &[NAME, ("spec.unschedulable", "spec.unschedulable")],
            NotSupported,
            |o, label| match label {
                "spec.unschedulable" => boolean(o, "/spec/unschedulable"),
                _ => String::new(),
            },
        ),
        ("", "v1", "namespaces") => kind(
            &[NAME, ("status.phase", "status.phase")],
            NotSupported,
            |o, label| match label {
                "status.phase" => text(o, "/status/phase"),
                _ => String::new(),
            },
        ),
        ("", "v1", "events") => kind(&EVENT_LABELS, NotSupported, event),
        // Stored in core/v1's shape, whichever group wrote them (`conversion`).
        ("events.k8s.io", "v1", "events") => kind(&EVENTS_V1_LABELS, NotSupported, event),
        ("", "v1", "secrets") => kind(
            &[NAME, NAMESPACE, ("type", "type")],
            NotSupported,
            |o, l| match l {
                "type" => text(o, "/type"),
                _ => String::new(),
            },
        ),
        ("", "v1", "services") => kind(
            &[
                NAME,
                NAMESPACE,
                ("spec.clusterIP", "spec.clusterIP"),
                ("spec.type", "spec.type"),
            ],
            NotSupported,
            |o, label| match label {
                "spec.clusterIP" => text(o, "/spec/clusterIP"),
                "spec.type" => text(o, "/spec/type"),
                _ => String::new(),
            },
        ),
        ("", "v1", "replicationcontrollers") => kind(
            &[NAME, NAMESPACE, ("status.replicas", "status.replicas")],
            NotSupported,
            |o, label| match label {
                "status.replicas" => integer(o, "/status/replicas"),
                _ => String::new(),
            },
        ),
        ("batch", "v1", "jobs") => kind(
            &[NAME, NAMESPACE, ("status.successful", "status.successful")],
            Job,
            |o, label| match label {
                "status.successful" => integer(o, "/status/succeeded"),
                _ => String::new(),
            },
        ),
        ("certificates.k8s.io", _, "certificatesigningrequests" | "clustertrustbundles") => kind(
            &[NAME, ("spec.signerName", "spec.signerName")],
            NotSupported,
            spec_text,
        ),
        ("certificates.k8s.io", _, "podcertificaterequests") => kind(
            &[
                NAME,
                ("spec.signerName", "spec.signerName"),
                ("spec.podName", "spec.podName"),
                ("spec.nodeName", "spec.nodeName"),
            ],
            NotSupported,
            spec_text,
        ),
        ("resource.k8s.io", _, "resourceslices") => kind(
            &[
                NAME,
                ("spec.nodeName", "spec.nodeName"),
                ("spec.driver", "spec.driver"),
            ],
            ResourceSlice,
            spec_text,
        ),
        _ => None,
    }
}

const EVENT_LABELS: [(&str, &str); 13] = [
    NAME,
    NAMESPACE,
    ("involvedObject.kind", "involvedObject.kind"),
    ("involvedObject.namespace", "involvedObject.namespace"),
    ("involvedObject.name", "involvedObject.name"),
    ("involvedObject.uid", "involvedObject.uid"),
    ("involvedObject.apiVersion", "involvedObject.apiVersion"),
    (
        "involvedObject.resourceVersion",
        "involvedObject.resourceVersion",
    ),
    ("involvedObject.fieldPath", "involvedObject.fieldPath"),
    ("reason", "reason"),
    ("reportingComponent", "reportingComponent"),
    ("source", "source"),
    ("type", "type"),
];

/// events.k8s.io/v1 names the same fields after its own members (`pkg/apis/events/v1/
/// conversion.go`).
const EVENTS_V1_LABELS: [(&str, &str); 13] = [
    NAME,
    NAMESPACE,
    ("regarding.kind", "involvedObject.kind"),
    ("regarding.namespace", "involvedObject.namespace"),
    ("regarding.name", "involvedObject.name"),
    ("regarding.uid", "involvedObject.uid"),
    ("regarding.apiVersion", "involvedObject.apiVersion"),
    (
        "regarding.resourceVersion",
        "involvedObject.resourceVersion",
    ),
    ("regarding.fieldPath", "involvedObject.fieldPath"),
    ("reason", "reason"),
    ("reportingController", "reportingComponent"),
    ("source", "source"),
    ("type", "type"),
];

/// An event's field, from its stored (core/v1) members: the old source component stands
/// first for `source`, then the reporting component.
fn event(o: &Value, label: &str) -> String {
    match label {
        "reason" | "type" | "reportingComponent" => text(o, &format!("/{label}")),
        "source" => Some(text(o, "/source/component"))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| text(o, "/reportingComponent")),
        other if other.starts_with("involvedObject.") => member(o, other),
        _ => String::new(),
    }
}

fn pod(o: &Value, label: &str) -> String {
    match label {
        // The deprecated `serviceAccount` stands in for an empty `serviceAccountName`, as the
        // conversion to the internal type reads it.
        "spec.serviceAccountName" => Some(text(o, "/spec/serviceAccountName"))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| text(o, "/spec/serviceAccount")),
        "spec.hostNetwork" => boolean(o, "/spec/hostNetwork"),
        // The primary IP: `podIP`, else the first of `podIPs`.
        "status.podIP" => Some(text(o, "/status/podIP"))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| text(o, "/status/podIPs/0/ip")),
        // Accepted, but not among the pod's fields.
        "status.podIPs" => String::new(),
        other => member(o, other),
    }
}

/// A string member named by its label (`spec.signerName`).
fn spec_text(o: &Value, label: &str) -> String {
    member(o, label)
}

/// The string at the member path a label spells (`spec.nodeName`: `spec`, then `nodeName`).
fn member(o: &Value, label: &str) -> String {
    label
        .split('.')
        .try_fold(o, |at, key| at.get(key))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

fn text(o: &Value, path: &str) -> String {
    o.pointer(path)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

fn boolean(o: &Value, path: &str) -> String {
    o.pointer(path)
        .and_then(Value::as_bool)
        .unwrap_or(false)
        .to_string()
}

fn integer(o: &Value, path: &str) -> String {
    o.pointer(path)
        .and_then(Value::as_i64)
        .unwrap_or(0)
        .to_string()
}

impl Fields {
    /// The internal name of a label a field selector names, or the server's refusal.
    pub(crate) fn convert(&self, label: &str) -> Result<String, String> {
        match self {
            Fields::Builtin {
                group,
                version,
                plural,
                ..
            } => {
                let Some(kind) = builtin_kind(group, version, plural) else {
                    return match label {
                        "metadata.name" | "metadata.namespace" => Ok(label.to_owned()),
                        _ => Err(format!(
                            "{label:?} is not a known field selector: only \"metadata.name\", \
                             \"metadata.namespace\""
                        )),
                    };
                };
                if let Some((_, internal)) = kind.labels.iter().find(|(l, _)| *l == label) {
                    return Ok((*internal).to_owned());
                }
                Err(match kind.refusal {
                    Refusal::NotSupported => format!("field label not supported: {label}"),
                    Refusal::Job => format!("field label {label:?} not supported for batchv1.Job"),
                    Refusal::ResourceSlice => format!(
                        "field label not supported for resource.k8s.io/{version}, \
                         Kind=ResourceSlice: {label}"
                    ),
                })
            }
            Fields::Custom {
                namespaced,
                selectable,
            } => match label {
                "metadata.name" => Ok(label.to_owned()),
                "metadata.namespace" if *namespaced => Ok(label.to_owned()),
                _ if selectable.iter().any(|(l, _)| l == label) => Ok(label.to_owned()),
                _ => Err(format!("field label not supported: {label}")),
            },
        }
    }

    /// The value `object` holds for an internal label (`""` for none).
    pub(crate) fn value(&self, object: &Value, label: &str) -> String {
        let namespaced = match self {
            Fields::Builtin { namespaced, .. } | Fields::Custom { namespaced, .. } => *namespaced,
        };
        match label {
            "metadata.name" => return text(object, "/metadata/name"),
            "metadata.namespace" if namespaced => return text(object, "/metadata/namespace"),
            "metadata.namespace" => return String::new(),
            _ => {}
        }
        match self {
            Fields::Builtin {
                group,
                version,
                plural,
                ..
            } => builtin_kind(group, version, plural)
                .map(|kind| (kind.value)(object, label))
                .unwrap_or_default(),
            Fields::Custom { selectable, .. } => {
                let path = selectable.iter().find(|(l, _)| l == label).map(|(_, p)| p);
                let value = path.and_then(|p| p.iter().try_fold(object, |at, key| at.get(key)));
                match value {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Number(n)) => n.to_string(),
                    Some(Value::Bool(b)) => b.to_string(),
                    _ => String::new(),
                }
            }
        }
    }

    /// The field selection of a custom resource's served `version`, from its CRD.
    pub(crate) fn of_crd(crd: &Value, version: &str) -> Fields {
        let namespaced = crd.pointer("/spec/scope").and_then(Value::as_str) != Some("Cluster");
        let selectable = crd
            .pointer("/spec/versions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|v| v.get("name").and_then(Value::as_str) == Some(version))
            .filter_map(|v| v.get("selectableFields").and_then(Value::as_array))
            .flatten()
            .filter_map(|f| f.get("jsonPath").and_then(Value::as_str))
            .map(|path| {
                let label = path.strip_prefix('.').unwrap_or(path).to_owned();
                let members = label.split('.').map(str::to_owned).collect();
                (label, members)
            })
            .collect();
        Fields::Custom {
            namespaced,
            selectable,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn builtin(group: &str, version: &str, plural: &str, namespaced: bool) -> Fields {
        Fields::Builtin {
            group: group.into(),
            version: version.into(),
            plural: plural.into(),
            namespaced,
        }
    }

    #[test]
    fn labels_as_each_kind_converts_them() {
        let pods = builtin("", "v1", "pods", true);
        assert_eq!(pods.convert("spec.host").unwrap(), "spec.nodeName");
        assert_eq!(
            pods.convert("spec.containers").unwrap_err(),
            "field label not supported: spec.containers"
        );
        let maps = builtin("", "v1", "configmaps", true);
        assert_eq!(
            maps.convert("data.x").unwrap_err(),
            r#""data.x" is not a known field selector: only "metadata.name", "metadata.namespace""#
        );
        let jobs = builtin("batch", "v1", "jobs", true);
        assert_eq!(
            jobs.convert("status.active").unwrap_err(),
            r#"field label "status.active" not supported for batchv1.Job"#
        );
        let nodes = builtin("", "v1", "nodes", false);
        assert!(nodes.convert("metadata.namespace").is_err());
        let events = builtin("events.k8s.io", "v1", "events", true);
        assert_eq!(
            events.convert("regarding.name").unwrap(),
            "involvedObject.name"
        );
        assert!(events.convert("involvedObject.name").is_err());
    }

    #[test]
    fn values_as_each_kind_holds_them() {
        let pods = builtin("", "v1", "pods", true);
        let pod = json!({"metadata": {"name": "p", "namespace": "d"},
            "spec": {"serviceAccount": "old", "nodeName": "n1"},
            "status": {"podIPs": [{"ip": "10.0.0.1"}]}});
        assert_eq!(pods.value(&pod, "spec.serviceAccountName"), "old");
        assert_eq!(pods.value(&pod, "spec.hostNetwork"), "false");
        assert_eq!(pods.value(&pod, "status.podIP"), "10.0.0.1");
        assert_eq!(pods.value(&pod, "spec.nodeName"), "n1");
        assert_eq!(pods.value(&pod, "status.phase"), "");
        let nodes = builtin("", "v1", "nodes", false);
        assert_eq!(
            nodes.value(
                &json!({"spec": {"unschedulable": true}}),
                "spec.unschedulable"
            ),
            "true"
        );
        let events = builtin("events.k8s.io", "v1", "events", true);
        let event = json!({"involvedObject": {"name": "web"}, "reportingComponent": "ctl"});
        assert_eq!(events.value(&event, "involvedObject.name"), "web");
        assert_eq!(events.value(&event, "source"), "ctl");
        let crd = json!({"spec": {"scope": "Namespaced", "versions": [{"name": "v1",
            "selectableFields": [{"jsonPath": ".spec.color"}, {"jsonPath": ".spec.size"}]}]}});
        let widgets = Fields::of_crd(&crd, "v1");
        assert_eq!(widgets.convert("spec.color").unwrap(), "spec.color");
        assert!(widgets.convert("spec.shape").is_err());
        let widget = json!({"spec": {"color": "red", "size": 3}});
        assert_eq!(widgets.value(&widget, "spec.size"), "3");
        assert_eq!(widgets.value(&json!({}), "spec.color"), "");
    }
}
