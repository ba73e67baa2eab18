//! Which schema a document is merged by: a built-in kind of Kubernetes v1.34 by the document's
//! `apiVersion` and `kind` (as kubectl picks its compiled-in type), a custom resource of the
//! given CRDs, an OpenAPI definition given explicitly, or none (objects merge, lists are
//! replaced: a JSON merge patch).

use std::path::Path;
use std::sync::{Arc, OnceLock};

use serde_json::Value;
use smp_core::openapi::crd::CrdCatalog;
use smp_core::{KindSchemas, Node, Schema};

use crate::Error;

/// The definition `definition` of an OpenAPI v2 or v3 document, with its patch metadata.
pub fn load_schema(document: &Value, definition: &str) -> Result<Schema, Error> {
    Schema::from_openapi(document, definition).map_err(|e| Error::Schema {
        message: format!("definition {definition}: {e}"),
    })
}

/// CustomResourceDefinitions: their custom resources' schemas for merges (every served
/// version) and, made on first use, their structured types for server-side apply.
#[derive(Default)]
pub struct Crds {
    catalog: CrdCatalog,
    ssa: OnceLock<Result<Arc<smp_ssa::schema::Schema>, String>>,
}

impl Crds {
    /// No CRDs.
    pub fn new() -> Crds {
        Crds::default()
    }

    /// Adds the CRDs of a document: a CRD, or a `List` of them (other kinds are skipped).
    /// `origin` names it in errors.
    pub fn add_document(&mut self, doc: &Value, origin: &str) -> Result<(), Error> {
        self.ssa = OnceLock::new();
        self.catalog
            .add_document(doc, origin)
            .map(drop)
            .map_err(schema_error)
    }

    /// Adds the CRDs of a JSON or YAML file, or of a directory's `.yaml`, `.yml` and `.json`
    /// files (subdirectories included).
    pub fn add_path(&mut self, path: &Path) -> Result<(), Error> {
        self.ssa = OnceLock::new();
        self.catalog.add_path(path).map(drop).map_err(schema_error)
    }

    /// The `(apiVersion, kind)` of every custom resource they define, sorted.
    pub fn kinds(&self) -> Vec<(String, String)> {
        self.catalog
            .kinds()
            .map(|(v, k)| (v.to_owned(), k.to_owned()))
            .collect()
    }

    /// The schema of a custom resource of this `apiVersion` and `kind`.
    pub fn lookup(&self, api_version: &str, kind: &str) -> Option<&Schema> {
        self.catalog.lookup(api_version, kind)
    }

    /// The CRD documents, as read.
    pub fn documents(&self) -> &[Value] {
        self.catalog.documents()
    }

    /// The structured types of server-side apply for these CRDs.
    pub fn ssa_schema(&self) -> Result<Arc<smp_ssa::schema::Schema>, Error> {
        self.ssa
            .get_or_init(|| {
                smp_ssa::schema::from_crds(self.catalog.documents())
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(|message| Error::Schema { message })
    }
}

fn schema_error(e: impl std::fmt::Display) -> Error {
    Error::Schema {
        message: e.to_string(),
    }
}

/// How a call types its documents: owned (shared schemas behind `Arc`s), so that a package
/// can compute where its interpreter is not.
#[derive(Clone, Default)]
pub struct Typing {
    /// An explicit schema: wins.
    pub given: Option<Arc<Schema>>,
    /// Custom resources.
    pub crds: Option<Arc<Crds>>,
    /// `(apiVersion, kind)`, instead of the document's own.
    pub kind: Option<(String, String)>,
}

/// Built-in kinds first, then the CRDs: for resources embedded in a document.
struct Kinds<'a>(Option<&'a Crds>);

impl KindSchemas for Kinds<'_> {
    fn schema_of(&self, api_version: &str, kind: &str) -> Option<Node<'_>> {
        match smp_types::lookup(api_version, kind) {
            Some(built_in) => Some(built_in.schema()),
            None => self
                .0
                .and_then(|c| c.lookup(api_version, kind).map(Schema::root)),
        }
    }
}

impl Typing {
    /// The same, with the kind fixed to the one the first of `docs` names (when none was
    /// given): for a call that changes its document before it needs the schema.
    pub fn named_by(mut self, docs: &[&Value]) -> Typing {
        if self.kind.is_none() {
            self.kind = first_kind(docs).map(|(v, k)| (v.to_owned(), k.to_owned()));
        }
        self
    }

    /// Runs `f` with the schema of the first of `docs` that names its kind.
    pub fn with_node<R>(&self, docs: &[&Value], f: impl FnOnce(Node<'_>) -> R) -> R {
        let kinds = Kinds(self.crds.as_deref());
        let root = self.root(docs);
        f(root.with_kinds(&kinds))
    }

    fn root(&self, docs: &[&Value]) -> Node<'_> {
        if let Some(given) = &self.given {
            return given.root();
        }
        let named = self
            .kind
            .as_ref()
            .map(|(v, k)| (v.as_str(), k.as_str()))
            .or_else(|| first_kind(docs));
        let Some((api_version, kind)) = named else {
            return Node::opaque();
        };
        if let Some(built_in) = smp_types::lookup(api_version, kind) {
            return built_in.schema();
        }
        self.crds
            .as_deref()
            .and_then(|c| c.lookup(api_version, kind))
            .map_or_else(|| Node::opaque(), Schema::root)
    }
}

/// `apiVersion` and `kind` of the first document that names both.
fn first_kind<'a>(docs: &[&'a Value]) -> Option<(&'a str, &'a str)> {
    docs.iter()
        .find_map(|doc| Some((doc.get("apiVersion")?.as_str()?, doc.get("kind")?.as_str()?)))
}
