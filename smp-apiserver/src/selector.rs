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

    /// Whether it selects everything.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
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
}

/// A field selector, in the syntax of apimachinery's `fields.ParseSelector`: terms joined by
/// commas, each `label=value`, `label==value` or `label!=value`, nothing trimmed, the value's
/// `\\`, `\,` and `\=` escaped. The empty selector selects everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldSelector(Vec<FieldTerm>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct FieldTerm {
    label: String,
    equal: bool,
    value: String,
}

impl FieldSelector {
    /// Reads a `fieldSelector`. Its terms are kept in the order the server checks them in
    /// (sorted as text).
    pub fn parse(text: &str) -> Result<FieldSelector, ApiError> {
        let mut terms = split_unescaped_commas(text);
        terms.sort_unstable();
        let mut out = Vec::new();
        for term in terms.into_iter().filter(|t| !t.is_empty()) {
            let Some((label, equal, value)) = split_term(term) else {
                return Err(ApiError::bad_request(format!(
                    "invalid selector: '{text}'; can't understand '{term}'"
                )));
            };
            out.push(FieldTerm {
                label: label.to_owned(),
                equal,
                value: unescape(value)?,
            });
        }
        Ok(FieldSelector(out))
    }

    /// The selector with each label as `convert` names it, or the first refusal (a 400 with
    /// its words).
    pub fn convert(
        mut self,
        convert: impl Fn(&str) -> Result<String, String>,
    ) -> Result<FieldSelector, ApiError> {
        for term in &mut self.0 {
            term.label = convert(&term.label).map_err(ApiError::bad_request)?;
        }
        Ok(self)
    }

    /// Whether it selects everything.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether an object whose field values `value` gives (by label) is selected.
    pub fn matches(&self, value: impl Fn(&str) -> String) -> bool {
        self.0
            .iter()
            .all(|t| (value(&t.label) == t.value) == t.equal)
    }
}

/// A field selector's terms: split at commas a backslash does not protect.
fn split_unescaped_commas(text: &str) -> Vec<&str> {
    let mut terms = Vec::new();
    let (mut start, mut escaped) = (0, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            ',' => {
                terms.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    terms.push(&text[start..]);
    terms
}

/// A term's label, whether it asks for equality, and its value: split at the first operator
/// (`!=`, `==` or `=`, tried in that order at each place).
fn split_term(term: &str) -> Option<(&str, bool, &str)> {
    for (i, _) in term.char_indices() {
        let rest = &term[i..];
        for (op, equal) in [("!=", false), ("==", true), ("=", true)] {
            if let Some(value) = rest.strip_prefix(op) {
                return Some((&term[..i], equal, value));
            }
        }
    }
    None
}

/// A value with its escapes read; an unknown escape or a bare `=` is refused as the server
/// refuses them.
fn unescape(value: &str) -> Result<String, ApiError> {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | ',' | '=')) => out.push(e),
                other => {
                    return Err(ApiError::bad_request(format!(
                        "invalid field selector: invalid escape sequence: \\{}",
                        other.map(String::from).unwrap_or_default()
                    )));
                }
            },
            '=' | ',' => {
                return Err(ApiError::bad_request(format!(
                    "invalid field selector: unescaped character in value: {}",
                    c as u32
                )));
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// A label selector object (`matchLabels`, `matchExpressions`) as the server prints it (in a
/// `Scale`, say): its requirements sorted by key,
/// `key=value`, `key in (a,b)`, `key notin (a,b)`, `key`, `!key`, joined by commas. A map of
/// labels (a ReplicationController's selector) is a selector of `key=value`s.
pub fn print(selector: &Value) -> String {
    let Some(map) = selector.as_object() else {
        return String::new();
    };
    let labels = if map.contains_key("matchLabels") || map.contains_key("matchExpressions") {
        map.get("matchLabels").and_then(Value::as_object)
    } else {
        Some(map)
    };
    let mut requirements: Vec<(String, String)> = labels
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), format!("{k}={v}"))))
        .collect();
    for expression in map
        .get("matchExpressions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let key = expression.get("key").and_then(Value::as_str).unwrap_or("");
        let mut values: Vec<&str> = expression
            .get("values")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        values.sort_unstable();
        values.dedup();
        let printed = match expression.get("operator").and_then(Value::as_str) {
            Some("In") => format!("{key} in ({})", values.join(",")),
            Some("NotIn") => format!("{key} notin ({})", values.join(",")),
            Some("Exists") => key.to_owned(),
            Some("DoesNotExist") => format!("!{key}"),
            _ => continue,
        };
        requirements.push((key.to_owned(), printed));
    }
    requirements.sort_by(|a, b| a.0.cmp(&b.0));
    let printed: Vec<String> = requirements.into_iter().map(|(_, p)| p).collect();
    printed.join(",")
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
        let s = FieldSelector::parse("metadata.name=web,metadata.namespace!=kube-system").unwrap();
        let get = |ns: &'static str| {
            move |label: &str| match label {
                "metadata.name" => "web".to_owned(),
                "metadata.namespace" => ns.to_owned(),
                _ => String::new(),
            }
        };
        assert!(s.matches(get("default")));
        assert!(!s.matches(get("kube-system")));
        let escaped = FieldSelector::parse(r"a==x\,y\=z\\,b!=").unwrap();
        assert!(escaped.matches(|l| if l == "a" {
            r"x,y=z\".into()
        } else {
            "v".into()
        }));
        assert_eq!(
            FieldSelector::parse("a=b,c").unwrap_err().message,
            "invalid selector: 'a=b,c'; can't understand 'c'"
        );
        assert_eq!(
            FieldSelector::parse(r"a=\x").unwrap_err().message,
            r"invalid field selector: invalid escape sequence: \x"
        );
        assert_eq!(
            FieldSelector::parse("a=b=c").unwrap_err().message,
            "invalid field selector: unescaped character in value: 61"
        );
        // Nothing is trimmed: the label has a space in it.
        let spaced = FieldSelector::parse("status.phase = Running").unwrap();
        assert!(
            spaced
                .convert(|l| Err(format!("field label not supported: {l}")))
                .is_err()
        );
    }
    #[test]
    fn selectors_print_as_the_server_prints_them() {
        let selector = json!({
            "matchLabels": {"tier": "web", "app": "shop"},
            "matchExpressions": [
                {"key": "env", "operator": "In", "values": ["prod", "dev"]},
                {"key": "zone", "operator": "DoesNotExist"},
                {"key": "gpu", "operator": "Exists"},
            ]
        });
        assert_eq!(
            print(&selector),
            "app=shop,env in (dev,prod),gpu,tier=web,!zone"
        );
        assert_eq!(print(&json!({"b": "2", "a": "1"})), "a=1,b=2");
    }
}
