//! Which schema a document is handled with: one rule for every subcommand.
//!
//! `--schema FILE#DEFINITION` wins when given. Otherwise the document's own `apiVersion` and
//! `kind` pick a type of smp-types (`v1` `Pod`, `apps/v1` `Deployment`, ...), the way kubectl
//! picks the compiled-in struct, then a custom resource of a `--crd` CustomResourceDefinition.
//! A document without them, or of a kind neither knows, is untyped: objects merge, lists are
//! replaced. `smp patch --type strategic` refuses the latter instead, as kubectl does.

use std::fmt;

use serde_json::Value;
use smp_core::{KindSchemas, Node, Schema};
use smp_types::Kind;

use crate::io::Schemas;

/// The schema chosen for a document.
#[derive(Debug, Clone, Copy)]
pub enum Typing<'a> {
    /// From `--schema`.
    Given(&'a Schema),
    /// From the document's `apiVersion`/`kind`.
    Kind(&'static Kind),
    /// From a CRD of `--crd`, by the document's `apiVersion`/`kind`.
    Crd(&'a Schema),
    /// No metadata.
    Untyped,
}

impl Typing<'_> {
    /// The schema's root, for the engine. Embedded resources below it are typed by their
    /// own kinds as `kinds` knows them (built-in, then `--crd`).
    pub fn node<'b>(&'b self, kinds: &'b Schemas) -> Node<'b> {
        let root = match self {
            Typing::Given(schema) | Typing::Crd(schema) => schema.root(),
            Typing::Kind(kind) => kind.schema(),
            Typing::Untyped => Node::opaque(),
        };
        root.with_kinds(kinds)
    }
}

/// Built-in kinds first, then the custom resources of `--crd`, as for a whole document.
impl KindSchemas for Schemas {
    fn schema_of(&self, api_version: &str, kind: &str) -> Option<Node<'_>> {
        match smp_types::lookup(api_version, kind) {
            Some(built_in) => Some(built_in.schema()),
            None => self.crds.schema_of(api_version, kind),
        }
    }
}

/// `apiVersion` and `kind` of a document, when both are strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeMeta<'a> {
    pub api_version: &'a str,
    pub kind: &'a str,
}

impl<'a> TypeMeta<'a> {
    /// Reads them from an object; `None` when either is missing or not a string.
    pub fn of(doc: &'a Value) -> Option<TypeMeta<'a>> {
        Some(TypeMeta {
            api_version: doc.get("apiVersion")?.as_str()?,
            kind: doc.get("kind")?.as_str()?,
        })
    }

    /// The smp-types kind, if it is one.
    pub fn lookup(self) -> Option<&'static Kind> {
        smp_types::lookup(self.api_version, self.kind)
    }

    /// The built-in kind, else the `--crd` schema, of these `apiVersion` and `kind`.
    pub fn typing<'s>(self, schemas: &'s Schemas) -> Typing<'s> {
        if let Some(kind) = self.lookup() {
            return Typing::Kind(kind);
        }
        schemas
            .crds
            .lookup(self.api_version, self.kind)
            .map_or(Typing::Untyped, Typing::Crd)
    }
}

/// As kubectl prints a group-version-kind: `apps/v1, Kind=Deployment`.
impl fmt::Display for TypeMeta<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, Kind={}", self.api_version, self.kind)
    }
}

/// The schema for documents that belong together (the inputs of one diff): `--schema` if given,
/// else the kind of the first document that names one (built-in, then `--crd`), else untyped.
/// An unknown kind is untyped too.
pub fn resolve<'a>(schemas: &'a Schemas, docs: &[&Value]) -> Typing<'a> {
    if let Some(schema) = &schemas.given {
        return Typing::Given(schema);
    }
    docs.iter()
        .find_map(|doc| TypeMeta::of(doc))
        .map_or(Typing::Untyped, |meta| meta.typing(schemas))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn given_schema_wins_then_first_kind() {
        let pod = json!({"apiVersion": "v1", "kind": "Pod"});
        let deploy = json!({"apiVersion": "apps/v1", "kind": "Deployment"});
        let bare = json!({"metadata": {}});
        let given = Schemas {
            given: Some(Schema::untyped()),
            ..Schemas::default()
        };
        let none = Schemas::default();
        assert!(matches!(resolve(&given, &[&pod]), Typing::Given(_)));
        match resolve(&none, &[&bare, &deploy, &pod]) {
            Typing::Kind(k) => assert_eq!(k.kind(), "Deployment"),
            other => panic!("{other:?}"),
        }
        let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget"});
        assert!(matches!(resolve(&none, &[&widget, &pod]), Typing::Untyped));
        assert!(matches!(resolve(&none, &[&bare]), Typing::Untyped));
    }

    #[test]
    fn type_meta_prints_like_kubectl() {
        let doc = json!({"apiVersion": "example.com/v1", "kind": "Widget"});
        let meta = TypeMeta::of(&doc).expect("both present");
        assert_eq!(meta.to_string(), "example.com/v1, Kind=Widget");
        assert_eq!(TypeMeta::of(&json!({"kind": "Pod"})), None);
    }
}
