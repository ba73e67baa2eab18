//! Where in a document something is: the paths errors name, here and in smp-core.

use std::fmt;

use serde_json::Value;

/// One step of a [`JsonPath`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// An object member.
    Field(String),
    /// A list item identified by its merge key, e.g. `[name=nginx]`.
    Keyed {
        /// Merge key name.
        key: String,
        /// The key's value as printed JSON (strings unquoted).
        value: String,
    },
    /// A list item by position.
    Index(usize),
}

/// Where in a document something happened, e.g. `spec.containers[name=nginx].ports`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JsonPath(pub Vec<Segment>);

impl JsonPath {
    /// The document root.
    pub fn root() -> JsonPath {
        JsonPath(Vec::new())
    }
}

fn is_plain_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '$')
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(root)");
        }
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Segment::Field(name) if is_plain_name(name) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(name)?;
                }
                Segment::Field(name) => write!(f, "[{}]", Value::String(name.clone()))?,
                Segment::Keyed { key, value } => write!(f, "[{key}={value}]")?,
                Segment::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_display() {
        let p = JsonPath(vec![
            Segment::Field("spec".into()),
            Segment::Field("containers".into()),
            Segment::Keyed {
                key: "name".into(),
                value: "nginx".into(),
            },
            Segment::Field("ports".into()),
            Segment::Index(2),
        ]);
        assert_eq!(p.to_string(), "spec.containers[name=nginx].ports[2]");
        let q = JsonPath(vec![
            Segment::Field("labels".into()),
            Segment::Field("app.k8s.io/x".into()),
        ]);
        assert_eq!(q.to_string(), "labels[\"app.k8s.io/x\"]");
        assert_eq!(JsonPath::root().to_string(), "(root)");
    }
}
