//! A field path: the steps from an object's root to one of its fields.

use std::fmt;

use super::element::{FieldName, PathElement};

/// The steps from an object's root to one of its fields. Written as the API server writes it
/// in a conflict: `.spec.template.spec.containers[name="app"].image`.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Path(pub Vec<PathElement>);

impl Path {
    /// The root (no step).
    pub fn root() -> Path {
        Path(Vec::new())
    }

    /// The path from the root through these steps.
    pub fn new(elements: impl IntoIterator<Item = PathElement>) -> Path {
        Path(elements.into_iter().collect())
    }

    /// The path of the fields `names` nested in each other (`["spec", "replicas"]`).
    pub fn fields<S: Into<FieldName>>(names: impl IntoIterator<Item = S>) -> Path {
        Path(names.into_iter().map(PathElement::field).collect())
    }

    /// This path with `element` appended.
    pub fn child(&self, element: PathElement) -> Path {
        let mut elements = self.0.clone();
        elements.push(element);
        Path(elements)
    }

    /// The steps.
    pub fn elements(&self) -> &[PathElement] {
        &self.0
    }

    /// Whether this is the root.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<PathElement> for Path {
    fn from_iter<I: IntoIterator<Item = PathElement>>(iter: I) -> Path {
        Path(iter.into_iter().collect())
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for element in &self.0 {
            element.fmt(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn written_as_in_a_conflict() {
        let path = Path::fields(["spec", "template", "spec", "containers"])
            .child(PathElement::key([("name", json!("x"))]))
            .child(PathElement::field("image"));
        assert_eq!(
            path.to_string(),
            r#".spec.template.spec.containers[name="x"].image"#
        );
        let set_item =
            Path::fields(["metadata", "finalizers"]).child(PathElement::Value(json!("a")));
        assert_eq!(set_item.to_string(), r#".metadata.finalizers[="a"]"#);
        assert_eq!(Path::root().child(PathElement::Index(2)).to_string(), "[2]");
    }
}
