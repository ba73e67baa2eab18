//! Conflicts: fields an apply would change that another manager owns.

use std::fmt;

use crate::fieldpath::Path;
use crate::fieldpath::value::go_quote;

/// A string quoted as Go's `%q` quotes it.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    go_quote(s, &mut out);
    out
}

/// A field an apply would change that `manager` owns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The manager that owns the field (its identifier as the managed fields hold it).
    pub manager: String,
    /// The field.
    pub path: Path,
}

/// The conflicts of an apply, by manager, each manager's fields in set order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct Conflicts(pub Vec<Conflict>);

/// One conflict reads `conflict with "M": .a.b`; several are listed by manager, managers in
/// order, each field on a line of its own.
impl fmt::Display for Conflicts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [only] = self.0.as_slice() {
            return write!(f, "conflict with {}: {}", quote(&only.manager), only.path);
        }
        let mut sorted: Vec<&Conflict> = self.0.iter().collect();
        sorted.sort_by(|a, b| a.manager.cmp(&b.manager));
        let mut lines = Vec::new();
        let mut last: Option<&str> = None;
        for c in sorted {
            if last != Some(c.manager.as_str()) {
                lines.push(format!("conflicts with {}:", quote(&c.manager)));
                last = Some(&c.manager);
            }
            lines.push(format!("- {}", c.path));
        }
        f.write_str(&lines.join("\n"))
    }
}
