//! The rbac.authorization.k8s.io group's rows: bindings (Roles and ClusterRoles get the
//! default table).

use serde_json::{Value, json};

use super::Row;
use super::common::{age, name};
use crate::tables::duration::Now;
use crate::tables::format::{items, text};

/// A RoleBinding or ClusterRoleBinding: the role it grants and to whom.
pub(super) fn binding(object: &Value, now: Now) -> Row {
    let subjects = items(object, "/subjects");
    let of_kind = |kind: &str| {
        let names: Vec<String> = subjects
            .iter()
            .filter(|s| text(s, "/kind") == kind)
            .map(|s| match kind {
                "ServiceAccount" => format!("{}/{}", text(s, "/namespace"), text(s, "/name")),
                _ => text(s, "/name").to_owned(),
            })
            .collect();
        json!(names.join(", "))
    };
    let role = format!(
        "{}/{}",
        text(object, "/roleRef/kind"),
        text(object, "/roleRef/name")
    );
    vec![
        name(object),
        json!(role),
        age(object, now),
        of_kind("User"),
        of_kind("Group"),
        of_kind("ServiceAccount"),
    ]
    .into()
}

#[cfg(test)]
mod tests {
    use super::super::common::tests::now;
    use super::*;

    #[test]
    fn bindings_list_subjects_by_kind() {
        let rb = json!({"metadata": {"name": "admins", "namespace": "team-a", "creationTimestamp": "2026-11-28T06:00:00Z"},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "admin"},
            "subjects": [{"kind": "User", "name": "alice"}, {"kind": "Group", "name": "ops"},
                {"kind": "User", "name": "bob"}, {"kind": "ServiceAccount", "namespace": "ci", "name": "deployer"},
                {"kind": "Robot", "name": "r2"}]});
        assert_eq!(
            binding(&rb, now()).cells,
            vec![
                json!("admins"),
                json!("ClusterRole/admin"),
                json!("6h"),
                json!("alice, bob"),
                json!("ops"),
                json!("ci/deployer")
            ]
        );
        let crb = json!({"metadata": {"name": "cluster-admin"},
            "roleRef": {"kind": "ClusterRole", "name": "cluster-admin"},
            "subjects": [{"kind": "Group", "name": "system:masters"}]});
        assert_eq!(
            binding(&crb, now()).cells[1..],
            [
                json!("ClusterRole/cluster-admin"),
                json!("<unknown>"),
                json!(""),
                json!("system:masters"),
                json!("")
            ]
        );
    }
}
