//! An apply's conflicts as the API server reports them: each manager named by its name, its
//! subresource, and for an update the version it wrote.

use std::fmt;

use serde_json::Value;

use crate::merge::Conflict;
use crate::merge::conflict_quote as quote;

/// An apply refused because it would change fields other managers own (the server's 409).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ApplyConflict {
    /// Each field and the manager (its identifier) that owns it.
    pub conflicts: Vec<Conflict>,
}

impl ApplyConflict {
    pub(crate) fn new(conflicts: Vec<Conflict>) -> ApplyConflict {
        ApplyConflict { conflicts }
    }

    /// Each conflict as the server lists it in the status' causes: the message (`conflict
    /// with "hpa"`) and the field (`.spec.replicas`).
    pub fn causes(&self) -> Vec<(String, String)> {
        self.conflicts
            .iter()
            .map(|c| {
                (
                    format!("conflict with {}", print_manager(&c.manager)),
                    c.path.to_string(),
                )
            })
            .collect()
    }
}

/// A manager as the server names it: `"kubectl"`, `"ctrl" using apps/v1`,
/// `"kubelet" with subresource "status" using v1` (and ` at TIME` when the identifier has one).
pub fn print_manager(manager: &str) -> String {
    let Ok(entry) = serde_json::from_str::<Value>(manager) else {
        return quote(manager);
    };
    let text = |k: &str| entry.get(k).and_then(Value::as_str).unwrap_or("");
    let mut out = quote(text("manager"));
    if !text("subresource").is_empty() {
        out.push_str(&format!(" with subresource {}", quote(text("subresource"))));
    }
    if text("operation") == "Update" {
        out.push_str(&format!(" using {}", text("apiVersion")));
        // Identifiers the field manager builds carry no time; one given with a time says when.
        if let Some(seconds) = entry
            .get("time")
            .and_then(Value::as_str)
            .and_then(super::time::parse)
        {
            out.push_str(&format!(" at {}", super::time::format(seconds)));
        }
    }
    out
}

/// `Apply failed with 1 conflict: conflict with "hpa": .spec.replicas`; with several, each
/// manager (in order) and its fields on lines of their own.
impl fmt::Display for ApplyConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [only] = self.conflicts.as_slice() {
            return write!(
                f,
                "Apply failed with 1 conflict: conflict with {}: {}",
                print_manager(&only.manager),
                only.path
            );
        }
        let mut managers: Vec<&str> = self.conflicts.iter().map(|c| c.manager.as_str()).collect();
        managers.sort_unstable();
        managers.dedup();
        let mut lines = Vec::new();
        for manager in managers {
            lines.push(format!("conflicts with {}:", print_manager(manager)));
            for c in self.conflicts.iter().filter(|c| c.manager == manager) {
                lines.push(format!("- {}", c.path));
            }
        }
        write!(
            f,
            "Apply failed with {} conflicts: {}",
            self.conflicts.len(),
            lines.join("\n")
        )
    }
}
