//! rbac.authorization.k8s.io/v1's defaults: the API group of role references and of user and
//! group subjects. Roles have none.

use serde_json::json;

use crate::value::{Object, child, default_string, is_empty_string, items, text};

const GROUP: &str = "rbac.authorization.k8s.io";

/// A RoleBinding or ClusterRoleBinding.
pub(super) fn binding(binding: &mut Object) {
    if let Some(role) = child(binding, "roleRef") {
        default_string(role, "apiGroup", GROUP);
    }
    for subject in items(binding, "subjects") {
        if is_empty_string(subject, "apiGroup") && matches!(text(subject, "kind"), "User" | "Group")
        {
            subject.insert("apiGroup".into(), json!(GROUP));
        }
    }
}
