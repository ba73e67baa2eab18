//! The networking.k8s.io group's rows: Ingresses and their classes, NetworkPolicies, and the
//! Service IP ranges and addresses.

use serde_json::{Value, json};

use super::Row;
use super::common::{age, ingress_points, name, selector_cell};
use crate::tables::duration::Now;
use crate::tables::format::{items, or_none, text};

/// An Ingress: its class, the hosts it serves, where it is reached and on which ports.
pub(super) fn ingress(object: &Value, now: Now) -> Row {
    let ports = if items(object, "/spec/tls").is_empty() {
        "80"
    } else {
        "80, 443"
    };
    vec![
        name(object),
        json!(or_none(text(object, "/spec/ingressClassName"))),
        json!(ingress_hosts(object)),
        json!(ingress_points(object, "/status/loadBalancer/ingress").join(",")),
        json!(ports),
        age(object, now),
    ]
    .into()
}

/// The first three hosts the rules name, and how many rules are left after them.
fn ingress_hosts(ingress: &Value) -> String {
    let rules = items(ingress, "/spec/rules");
    let mut hosts = Vec::new();
    for (index, rule) in rules.iter().enumerate() {
        let host = text(rule, "/host");
        if host.is_empty() {
            continue;
        }
        hosts.push(host);
        if hosts.len() == 3 {
            if index + 1 < rules.len() {
                return format!("{} + {} more...", hosts.join(","), rules.len() - 3);
            }
            break;
        }
    }
    if hosts.is_empty() {
        "*".to_owned()
    } else {
        hosts.join(",")
    }
}

/// An IngressClass: its controller and the parameters it points to.
pub(super) fn ingress_class(object: &Value, now: Now) -> Row {
    let parameters = match object.pointer("/spec/parameters") {
        Some(p) if !p.is_null() => {
            let kind = match text(p, "/apiGroup") {
                "" => text(p, "/kind").to_owned(),
                group => format!("{}.{group}", text(p, "/kind")),
            };
            format!("{kind}/{}", text(p, "/name"))
        }
        _ => "<none>".to_owned(),
    };
    vec![
        name(object),
        json!(text(object, "/spec/controller")),
        json!(parameters),
        age(object, now),
    ]
    .into()
}

/// A NetworkPolicy: the pods it applies to.
pub(super) fn network_policy(object: &Value, now: Now) -> Row {
    vec![
        name(object),
        selector_cell(object.pointer("/spec/podSelector")),
        age(object, now),
    ]
    .into()
}

/// A ServiceCIDR: the ranges it hands Service IPs out of.
pub(super) fn service_cidr(object: &Value, now: Now) -> Row {
    let cidrs: Vec<&str> = items(object, "/spec/cidrs")
        .iter()
        .map(|c| c.as_str().unwrap_or(""))
        .collect();
    vec![name(object), json!(cidrs.join(",")), age(object, now)].into()
}

/// An IPAddress: the object it is allocated to. The server sends an Age cell too, though
/// it declares no column for it.
pub(super) fn ip_address(object: &Value, now: Now) -> Row {
    let parent = match object.pointer("/spec/parentRef") {
        Some(p) if !p.is_null() => {
            let resource = match text(p, "/group") {
                "" => text(p, "/resource").to_owned(),
                group => format!("{}.{group}", text(p, "/resource")),
            };
            let namespace = match text(p, "/namespace") {
                "" => String::new(),
                namespace => format!("/{namespace}"),
            };
            format!(
                "{}{namespace}/{}",
                resource.to_lowercase(),
                text(p, "/name")
            )
        }
        _ => "<none>".to_owned(),
    };
    vec![name(object), json!(parent), age(object, now)].into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    #[test]
    fn ingresses() {
        let ing = json!({"metadata": {"name": "web", "creationTimestamp": "2026-11-28T11:00:00Z"},
            "spec": {"ingressClassName": "nginx", "tls": [{"hosts": ["a.example.com"]}],
                "rules": [{"host": "a.example.com"}, {"http": {}}, {"host": "b.example.com"}]},
            "status": {"loadBalancer": {"ingress": [{"ip": "192.0.2.5"}, {"hostname": "lb.example.net"}]}}});
        assert_eq!(
            ingress(&ing, now()).cells,
            vec![
                json!("web"),
                json!("nginx"),
                json!("a.example.com,b.example.com"),
                json!("192.0.2.5,lb.example.net"),
                json!("80, 443"),
                json!("60m")
            ]
        );
        let many = json!({"spec": {"rules": [{"host": "a"}, {}, {"host": "b"}, {"host": "c"}, {}, {"host": "d"}]}});
        assert_eq!(
            ingress(&many, now()).cells[1..5],
            [
                json!("<none>"),
                json!("a,b,c + 3 more..."),
                json!(""),
                json!("80")
            ]
        );
        let exactly_three =
            json!({"spec": {"rules": [{"host": "a"}, {"host": "b"}, {"host": "c"}]}});
        assert_eq!(ingress(&exactly_three, now()).cells[2], json!("a,b,c"));
        assert_eq!(
            ingress(&json!({"spec": {"rules": [{}]}}), now()).cells[2],
            json!("*")
        );
    }

    #[test]
    fn ingress_classes() {
        let class = json!({"metadata": {"name": "external-lb"}, "spec": {"controller": "example.com/ingress",
            "parameters": {"apiGroup": "k8s.example.com", "kind": "IngressParameters", "name": "external-lb",
                "scope": "Namespace", "namespace": "infra"}}});
        assert_eq!(
            ingress_class(&class, now()).cells,
            vec![
                json!("external-lb"),
                json!("example.com/ingress"),
                json!("IngressParameters.k8s.example.com/external-lb"),
                json!("<unknown>")
            ]
        );
        let core = json!({"spec": {"parameters": {"kind": "ConfigMap", "name": "p"}}});
        assert_eq!(ingress_class(&core, now()).cells[2], json!("ConfigMap/p"));
        assert_eq!(ingress_class(&json!({}), now()).cells[2], json!("<none>"));
    }

    #[test]
    fn network_policies() {
        let np = json!({"metadata": {"name": "deny"}, "spec": {"podSelector": {}}});
        assert_eq!(
            network_policy(&np, now()).cells,
            vec![json!("deny"), json!("<none>"), json!("<unknown>")]
        );
        let web = json!({"spec": {"podSelector": {"matchLabels": {"role": "db"}}}});
        assert_eq!(network_policy(&web, now()).cells[1], json!("role=db"));
    }

    #[test]
    fn service_cidrs_and_ip_addresses() {
        let cidr = json!({"metadata": {"name": "kubernetes", "creationTimestamp": "2026-11-28T11:59:50Z"},
            "spec": {"cidrs": ["10.96.0.0/28", "fd00:10:96::/112"]}});
        assert_eq!(
            service_cidr(&cidr, now()).cells,
            vec![
                json!("kubernetes"),
                json!("10.96.0.0/28,fd00:10:96::/112"),
                json!("10s")
            ]
        );
        let ip = json!({"metadata": {"name": "10.96.0.1", "creationTimestamp": "2026-11-28T11:59:50Z"},
            "spec": {"parentRef": {"group": "", "resource": "services", "namespace": "default", "name": "kubernetes"}}});
        assert_eq!(
            ip_address(&ip, now()).cells,
            vec![
                json!("10.96.0.1"),
                json!("services/default/kubernetes"),
                json!("10s")
            ]
        );
        let grouped = json!({"spec": {"parentRef": {"group": "Gateway.Networking.k8s.io", "resource": "Gateways",
            "name": "gw"}}});
        assert_eq!(
            ip_address(&grouped, now()).cells[1],
            json!("gateways.gateway.networking.k8s.io/gw")
        );
        assert_eq!(ip_address(&json!({}), now()).cells[1], json!("<none>"));
    }
}
