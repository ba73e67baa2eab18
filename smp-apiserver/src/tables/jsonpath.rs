//! Kubernetes' JSONPath, as CRDs' `additionalPrinterColumns` write it (`.spec.replicas`,
//! `.status.conditions[?(@.type=="Ready")].status`, `.metadata.labels.app\.kubernetes\.io/name`),
//! read into an RFC 9535 query and evaluated by `jsonpath-rust`.
//!
//! The two dialects differ in how members are named: Kubernetes needs no `$`, takes any
//! character but `.` and `[` in a dotted name (so `/` and `-`), and escapes a dot in a name as
//! `\.`. So dotted names are rewritten as bracketed ones (`['app.kubernetes.io/name']`);
//! brackets (indices, slices, unions, filters) are the same in both and kept as written.

use jsonpath_rust::parser::model::JpQuery;
use jsonpath_rust::query::js_path_process;
use serde_json::Value;

/// A parsed path.
#[derive(Debug, Clone)]
pub(crate) struct Path(JpQuery);

impl Path {
    /// Reads a Kubernetes JSONPath; `None` if it does not parse.
    pub(crate) fn parse(path: &str) -> Option<Path> {
        let query = rewrite(path.trim())?;
        jsonpath_rust::parser::parse_json_path(&query)
            .ok()
            .map(Path)
    }

    /// The first value the path finds in `object`, as the server's printers take it.
    pub(crate) fn first<'v>(&self, object: &'v Value) -> Option<&'v Value> {
        js_path_process(&self.0, object)
            .ok()?
            .into_iter()
            .next()
            .map(|found| found.val())
    }
}

/// A Kubernetes path as an RFC 9535 query; `None` when a bracket is not closed.
fn rewrite(path: &str) -> Option<String> {
    let mut out = String::from("$");
    let chars: Vec<char> = path.chars().collect();
    let mut i = 0;
    // A leading `$` or `@` names the root, which the query starts from anyway.
    if matches!(chars.first(), Some('$' | '@')) {
        i = 1;
    }
    let mut first = true;
    while i < chars.len() {
        match chars[i] {
            '[' => {
                let end = bracket_end(&chars, i)?;
                out.extend(&chars[i..=end]);
                i = end + 1;
            }
            '.' if chars.get(i + 1) == Some(&'.') => {
                out.push_str("..");
                i += 2;
                if chars.get(i).is_some_and(|c| *c != '[') {
                    i = name(&chars, i, &mut out);
                }
            }
            '.' => {
                out.push('.');
                i = name(&chars, i + 1, &mut out);
            }
            _ if first => {
                out.push('.');
                i = name(&chars, i, &mut out);
            }
            _ => return None,
        }
        first = false;
    }
    Some(out)
}

/// Writes the dotted name starting at `start` as a selector (after a `.` or `..` already
/// written) and returns where it ends.
fn name(chars: &[char], start: usize, out: &mut String) -> usize {
    let mut name = String::new();
    let mut i = start;
    while i < chars.len() {
        match chars[i] {
            '\\' if chars.get(i + 1) == Some(&'.') => {
                name.push('.');
                i += 2;
            }
            '.' | '[' => break,
            c => {
                name.push(c);
                i += 1;
            }
        }
    }
    if name == "*" {
        out.push('*');
        return i;
    }
    // A name after `..` is bracketed as it is (`..['x']`); after one `.`, the bracket
    // takes the dot's place (`['x']`).
    if !out.ends_with("..") {
        out.pop();
    }
    out.push_str("['");
    for c in name.chars() {
        if matches!(c, '\\' | '\'') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push_str("']");
    i
}

/// Where the bracket opened at `open` closes (quotes and nested brackets skipped).
fn bracket_end(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut i = open;
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some(_) if c == '\\' => i += 1,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kubernetes_paths_read_as_queries() {
        for (path, query) in [
            (".spec.replicas", "$['spec']['replicas']"),
            ("spec.replicas", "$['spec']['replicas']"),
            (
                ".metadata.labels.app\\.kubernetes\\.io/name",
                "$['metadata']['labels']['app.kubernetes.io/name']",
            ),
            (
                ".status.conditions[?(@.type==\"Ready\")].status",
                "$['status']['conditions'][?(@.type==\"Ready\")]['status']",
            ),
            (".items[*].name", "$['items'][*]['name']"),
            ("..name", "$..['name']"),
            (".spec.*", "$['spec'].*"),
        ] {
            assert_eq!(rewrite(path).as_deref(), Some(query), "{path}");
        }
        assert!(rewrite(".a[0").is_none());
    }

    #[test]
    fn the_first_match_is_taken() {
        let object = json!({
            "metadata": {"labels": {"app.kubernetes.io/name": "web"}},
            "status": {"conditions": [
                {"type": "Synced", "status": "False"},
                {"type": "Ready", "status": "True"}
            ]},
            "spec": {"ports": [{"port": 80}, {"port": 443}]}
        });
        let first = |p: &str| Path::parse(p).unwrap().first(&object).cloned();
        assert_eq!(
            first(".metadata.labels.app\\.kubernetes\\.io/name"),
            Some(json!("web"))
        );
        assert_eq!(
            first(".status.conditions[?(@.type==\"Ready\")].status"),
            Some(json!("True"))
        );
        assert_eq!(first(".spec.ports[*].port"), Some(json!(80)));
        assert_eq!(first(".spec.missing"), None);
    }
}
