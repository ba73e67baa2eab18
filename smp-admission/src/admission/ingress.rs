//! DefaultIngressClass (`plugin/pkg/admission/network/defaultingressclass`): an Ingress that
//! names no class, by field or by the old `kubernetes.io/ingress.class` annotation, gets the
//! default IngressClass (the newest when several are marked).

use serde_json::Value;

use super::Cluster;

pub(super) fn default_class(ingress: &mut Value, cluster: &dyn Cluster) {
    let named = ingress
        .pointer("/spec/ingressClassName")
        .is_some_and(|n| !n.is_null())
        || ingress
            .pointer("/metadata/annotations/kubernetes.io~1ingress.class")
            .is_some();
    if named {
        return;
    }
    let classes = cluster.list("networking.k8s.io/ingressclasses", "");
    let Some(name) =
        super::storage::newest_default(&classes, &["ingressclass.kubernetes.io/is-default-class"])
    else {
        return;
    };
    let Some(root) = ingress.as_object_mut() else {
        return;
    };
    let spec = root
        .entry("spec")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    if let Some(spec) = spec.as_object_mut() {
        spec.insert("ingressClassName".into(), name.into());
    }
}
