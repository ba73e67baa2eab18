//! Label and field selectors, in the syntax of the API's `labelSelector` and `fieldSelector`.

use serde_json::{Map, Value};

use crate::status::ApiError;

/// One requirement of a selector.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Requirement {
    Exists(String),
    NotExists(String),
    Equals(String, String),
    NotEquals(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
}

impl Requirement {
    fn matches(&self, get: impl Fn(&str) -> Option<String>) -> bool {
        match self {
            Requirement::Exists(k) => get(k).is_some(),
            Requirement::NotExists(k) => get(k).is_none(),
            Requirement::Equals(k, v) => get(k).as_deref() == Some(v),
            // A missing label is not equal to anything.
            Requirement::NotEquals(k, v) => get(k).as_deref() != Some(v),
            Requirement::In(k, vs) => get(k).is_some_and(|x| vs.contains(&x)),
            Requirement::NotIn(k, vs) => get(k).is_none_or(|x| !vs.contains(&x)),
        }
    }
}

/// A selector: every requirement must hold. The empty selector selects everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selector(Vec<Requirement>);

impl Selector {
    /// A `labelSelector`: `app=web,tier!=db`, `env in (a,b)`, `!canary`, `team`.
    pub fn labels(text: &str) -> Result<Selector, ApiError> {
        let mut out = Vec::new();
        for part in split_top(text) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            out.push(requirement(part).ok_or_else(|| {
                ApiError::bad_request(format!("unable to parse requirement: {part:?}"))
            })?);
        }
        Ok(Selector(out))
    }

    /// A `fieldSelector` on `metadata.name` and `metadata.namespace`: `metadata.name=web`,
    /// `metadata.namespace!=kube-system`.
    pub fn fields(text: &str) -> Result<Selector, ApiError> {
        let mut out = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let r = requirement(part)
                .filter(|r| matches!(r, Requirement::Equals(..) | Requirement::NotEquals(..)))
                .ok_or_else(|| {
                    ApiError::bad_request(format!("invalid field selector: {part:?}"))
                })?;
            let field = match &r {
                Requirement::Equals(k, _) | Requirement::NotEquals(k, _) => k.as_str(),
                _ => "",
            };
            if !matches!(field, "metadata.name" | "metadata.namespace") {
                return Err(ApiError::bad_request(format!(
                    "field label not supported: {field}"
                )));
            }
            out.push(r);
        }
        Ok(Selector(out))
    }

    /// Whether an object's labels match.
    pub fn matches_labels(&self, labels: Option<&Map<String, Value>>) -> bool {
        self.0.iter().all(|r| {
            r.matches(|k| {
                labels
                    .and_then(|l| l.get(k))
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
        })
    }

    /// Whether an object's name and namespace match.
    pub fn matches_fields(&self, name: &str, namespace: &str) -> bool {
        self.0.iter().all(|r| {
            r.matches(|k| match k {
                "metadata.name" => Some(name.to_owned()),
                "metadata.namespace" => Some(namespace.to_owned()),
                _ => None,
            })
        })
    }
}

/// The selector's requirements: split at commas outside parentheses.
fn split_top(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

fn requirement(part: &str) -> Option<Requirement> {
    if let Some(key) = part.strip_prefix('!') {
        return valid(key.trim()).map(|k| Requirement::NotExists(k.to_owned()));
    }
    for (op, make) in [
        (
            "!=",
            Requirement::NotEquals as fn(String, String) -> Requirement,
        ),
        ("==", Requirement::Equals),
        ("=", Requirement::Equals),
    ] {
        if let Some((k, v)) = part.split_once(op) {
            return Some(make(valid(k.trim())?.to_owned(), v.trim().to_owned()));
        }
    }
    let words: Vec<&str> = part.splitn(2, char::is_whitespace).collect();
    if let [key, rest] = words.as_slice() {
        let rest = rest.trim();
        let (op, set) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let set = set.trim().strip_prefix('(')?.strip_suffix(')')?;
        let values: Vec<String> = set.split(',').map(|v| v.trim().to_owned()).collect();
        let key = valid(key)?.to_owned();
        return match op {
            "in" => Some(Requirement::In(key, values)),
            "notin" => Some(Requirement::NotIn(key, values)),
            _ => None,
        };
    }
    valid(part).map(|k| Requirement::Exists(k.to_owned()))
}

/// A key: non-empty, without spaces or operators.
fn valid(key: &str) -> Option<&str> {
    (!key.is_empty() && !key.contains(|c: char| c.is_whitespace() || "=!(),".contains(c)))
        .then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn label_selectors() {
        let labels = json!({"app": "web", "tier": "front"});
        let labels = labels.as_object();
        let yes = |s: &str| Selector::labels(s).unwrap().matches_labels(labels);
        assert!(yes(""));
        assert!(yes("app=web"));
        assert!(yes("app==web,tier!=db"));
        assert!(yes("tier in (front, back)"));
        assert!(!yes("tier notin (front)"));
        assert!(yes("app"));
        assert!(!yes("!app"));
        assert!(yes("!canary"));
        assert!(!yes("app=db"));
        assert!(Selector::labels("a in b").is_err());
    }

    #[test]
    fn field_selectors() {
        let s = Selector::fields("metadata.name=web,metadata.namespace!=kube-system").unwrap();
        assert!(s.matches_fields("web", "default"));
        assert!(!s.matches_fields("web", "kube-system"));
        assert!(Selector::fields("spec.nodeName=x").is_err());
    }
}
