//! Which schema a document is merged by: a built-in kind of Kubernetes v1.34 by the document's
//! `apiVersion` and `kind` (as kubectl picks its compiled-in type), a custom resource of the
//! given CRDs, an OpenAPI definition given explicitly, or none (objects merge, lists are
//! replaced: a JSON merge patch).

use std::sync::{Arc, OnceLock};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde_json::Value;
use smp_core::openapi::crd::CrdCatalog;
use smp_core::{DocRole, KindSchemas, Node, Schema};

use crate::{convert, errors};

/// A schema read from an OpenAPI document (`Schema.from_openapi`).
#[pyclass(frozen, name = "Schema", module = "smp._native")]
pub struct PySchema {
    pub inner: Arc<Schema>,
}

#[pymethods]
impl PySchema {
    /// The definition `definition` of an OpenAPI v2 or v3 document (a dict, or JSON or YAML
    /// text), with its patch metadata (`x-kubernetes-patch-strategy`, `-patch-merge-key`, list
    /// types and map keys).
    #[staticmethod]
    fn from_openapi(document: &Bound<'_, PyAny>, definition: &str) -> PyResult<PySchema> {
        let doc = convert::object(document, DocRole::Schema)?;
        let schema = Schema::from_openapi(&doc, definition)
            .map_err(|e| errors::schema_error(format!("definition {definition}: {e}")))?;
        Ok(PySchema {
            inner: Arc::new(schema),
        })
    }

    fn __repr__(&self) -> String {
        "<smp.Schema>".to_owned()
    }
}

/// CustomResourceDefinitions: the schemas of their custom resources, for merges (every served
/// version) and for server-side apply.
#[pyclass(frozen, name = "Crds", module = "smp._native")]
pub struct PyCrds {
    pub catalog: Arc<CrdCatalog>,
    /// The structured types of server-side apply, made on first use.
    ssa: OnceLock<Result<Arc<smp_ssa::schema::Schema>, String>>,
}

#[pymethods]
impl PyCrds {
    /// CRDs from each source: a dict (a CRD or a `List` of them; other kinds are skipped), or a
    /// path (`str`) of a JSON or YAML file, or of a directory whose `.yaml`, `.yml` and `.json`
    /// files are read, subdirectories included.
    #[new]
    fn new(sources: Vec<Bound<'_, PyAny>>) -> PyResult<PyCrds> {
        let mut catalog = CrdCatalog::new();
        for (i, source) in sources.iter().enumerate() {
            let added = if let Ok(path) = source.cast::<PyString>() {
                let path = path.to_cow()?;
                catalog.add_path(std::path::Path::new(path.as_ref()))
            } else if source.cast::<PyDict>().is_ok() {
                let doc = convert::object(source, DocRole::Schema)?;
                catalog.add_document(&doc, &format!("CRD source {i}"))
            } else {
                return Err(errors::schema_error(format!(
                    "CRD source {i} is neither a dict nor a path"
                )));
            };
            added.map_err(|e| errors::schema_error(e.to_string()))?;
        }
        Ok(PyCrds {
            catalog: Arc::new(catalog),
            ssa: OnceLock::new(),
        })
    }

    /// The `(apiVersion, kind)` of every custom resource they define, sorted.
    fn kinds(&self) -> Vec<(String, String)> {
        self.catalog
            .kinds()
            .map(|(v, k)| (v.to_owned(), k.to_owned()))
            .collect()
    }

    fn __len__(&self) -> usize {
        self.catalog.kinds().count()
    }

    fn __repr__(&self) -> String {
        format!("<smp.Crds: {} kinds>", self.__len__())
    }
}

impl PyCrds {
    /// The structured types of server-side apply for these CRDs.
    pub fn ssa_schema(&self) -> PyResult<Arc<smp_ssa::schema::Schema>> {
        self.ssa
            .get_or_init(|| {
                smp_ssa::schema::from_crds(self.catalog.documents())
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(errors::schema_error)
    }
}

/// How a call types its documents, owned so that it can go where the interpreter is not.
#[derive(Clone, Default)]
pub struct Typing {
    /// `schema=`: wins.
    pub given: Option<Arc<Schema>>,
    /// `crds=`.
    pub crds: Option<Arc<CrdCatalog>>,
    /// `kind=`: `(apiVersion, kind)`, instead of the document's own.
    pub kind: Option<(String, String)>,
}

/// Built-in kinds first, then the CRDs: for resources embedded in a document.
struct Kinds<'a>(Option<&'a CrdCatalog>);

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
    /// From the keyword arguments of a call.
    pub fn new(
        schema: Option<&Bound<'_, PySchema>>,
        crds: Option<&Bound<'_, PyCrds>>,
        kind: Option<(String, String)>,
    ) -> Typing {
        Typing {
            given: schema.map(|s| Arc::clone(&s.get().inner)),
            crds: crds.map(|c| Arc::clone(&c.get().catalog)),
            kind,
        }
    }

    /// The same, with the kind fixed to the one the first of `docs` names (when no `kind=`
    /// was given): for a call that changes its document before it needs the schema.
    pub fn named_by(mut self, docs: &[&Value]) -> Typing {
        if self.kind.is_none() {
            self.kind = first_kind(docs).map(|(v, k)| (v.to_owned(), k.to_owned()));
        }
        self
    }

    /// Runs `f` with the schema of `doc` (the first document of the call that names its kind).
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
