//! Custom resources patched strategically by their CRDs' markers (`smp_core::openapi::crd`), on
//! the real CRDs of Gateway API, cert-manager and Argo CD: every CRD loads, known list fields
//! map as the custom_resources guide's table says, and the instances with their patches (`tests/crds`) give the
//! reviewed snapshots in `tests/crds/expected`.
//!
//! The CRDs are the projects' files, so they are not in this repository: they are shared data
//! (`../shared/crds/<project>/crds`, provenance and licenses there), and every test here skips,
//! saying so, without them.
//!
//! `SMP_BLESS=1 cargo test -p smp-tests --test integration crds::` rewrites the snapshots;
//! review the diff.

#[path = "crd_support/instances.rs"]
mod instances;
use crate::types_support::patches;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use smp_core::openapi::crd::{CrdCatalog, from_crd};
use smp_core::{BaseStrategy, DocRole, Node, ThreeWayOptions};

use patches::Rng;

/// The projects whose CRDs are tested.
const PROJECTS: [&str; 3] = ["argo-cd", "cert-manager", "gateway-api"];

/// This repository's instances, patches and snapshots.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crds")
}

/// The shared CRD directories, one per project, or `None` (the test skips, saying so).
fn crd_dirs() -> Option<Vec<PathBuf>> {
    PROJECTS
        .iter()
        .map(|project| smp_testdata::file(&format!("crds/{project}/crds")))
        .collect()
}

/// Every shared CRD in one catalog, or `None` without them.
fn catalog() -> Option<CrdCatalog> {
    let mut catalog = CrdCatalog::new();
    for dir in crd_dirs()? {
        catalog.add_path(&dir).expect("every CRD loads");
    }
    Some(catalog)
}

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("readable");
    smp_core::parse_document(&text, DocRole::Original).expect("parses")
}

/// The node at a dotted path of field names (`spec.listeners`); `[]` steps into list items.
fn node_at<'s>(root: Node<'s>, path: &str) -> smp_core::FieldMeta<'s> {
    let mut node = root;
    let mut meta = None;
    for part in path.split('.') {
        let (name, items) = match part.strip_suffix("[]") {
            Some(name) => (name, true),
            None => (part, false),
        };
        let m = node.field(name);
        assert!(m.declared, "{path}: {name} is not declared");
        node = if items { m.node.items() } else { m.node };
        meta = Some(m);
    }
    meta.expect("a path")
}

#[test]
fn every_crd_loads_with_every_served_version() {
    let Some(catalog) = catalog() else { return };
    let kinds: Vec<(&str, &str)> = catalog.kinds().collect();
    for expected in [
        ("argoproj.io/v1alpha1", "Application"),
        ("argoproj.io/v1alpha1", "AppProject"),
        ("cert-manager.io/v1", "Certificate"),
        ("cert-manager.io/v1", "CertificateRequest"),
        ("cert-manager.io/v1", "ClusterIssuer"),
        ("cert-manager.io/v1", "Issuer"),
        ("gateway.networking.k8s.io/v1", "Gateway"),
        ("gateway.networking.k8s.io/v1", "GatewayClass"),
        ("gateway.networking.k8s.io/v1", "GRPCRoute"),
        ("gateway.networking.k8s.io/v1", "HTTPRoute"),
        ("gateway.networking.k8s.io/v1beta1", "HTTPRoute"),
        ("gateway.networking.k8s.io/v1beta1", "ReferenceGrant"),
    ] {
        assert!(
            kinds.contains(&expected),
            "{expected:?} missing from {kinds:?}"
        );
    }
    assert_eq!(kinds.len(), 15, "{kinds:?}");
}

/// Known fields of the real CRDs, each as the table says.
#[test]
fn known_fields_map_as_the_table_says() {
    let Some(catalog) = catalog() else { return };
    let schema = |v: &str, k: &str| catalog.lookup(v, k).expect("kind").root();
    let merged_by = |node: Node<'_>, path: &str, key: &str| {
        let m = node_at(node, path);
        assert_eq!(m.strategy.base, BaseStrategy::Merge, "{path}");
        assert_eq!(m.merge_key, Some(key), "{path}");
    };
    let replaced = |node: Node<'_>, path: &str| {
        let m = node_at(node, path);
        assert_eq!(m.strategy.base, BaseStrategy::Replace, "{path}");
    };
    let default = |node: Node<'_>, path: &str| {
        let m = node_at(node, path);
        assert_eq!(m.strategy.base, BaseStrategy::Default, "{path}");
        assert_eq!(m.merge_key, None, "{path}");
    };

    // list-type: map with one key.
    let gateway = schema("gateway.networking.k8s.io/v1", "Gateway");
    merged_by(gateway, "spec.listeners", "name");
    merged_by(gateway, "status.conditions", "type");
    merged_by(gateway, "status.listeners", "name");
    merged_by(gateway, "status.listeners[].conditions", "type");
    merged_by(gateway, "spec.tls.frontend.perPort", "port");
    merged_by(
        schema("cert-manager.io/v1", "Certificate"),
        "status.conditions",
        "type",
    );
    // list-type: atomic: replaced (lists without a marker too: Argo CD below).
    let route = schema("gateway.networking.k8s.io/v1", "HTTPRoute");
    replaced(route, "spec.rules");
    replaced(route, "spec.hostnames");
    replaced(gateway, "spec.addresses");
    // list-type: set of strings: merged as a set.
    let m = node_at(route, "spec.rules[].filters[].requestHeaderModifier.remove");
    assert_eq!(m.strategy.base, BaseStrategy::Merge);
    assert_eq!(m.merge_key, None);
    // map-type: atomic.
    replaced(
        gateway,
        "spec.listeners[].allowedRoutes.namespaces.selector",
    );
    // Argo CD declares no markers: everything has the default strategy.
    let app = schema("argoproj.io/v1alpha1", "Application");
    default(app, "spec.source.helm.parameters");
    default(app, "spec.syncPolicy.syncOptions");
    // ObjectMeta's metadata on every kind.
    let m = node_at(app, "metadata.finalizers");
    assert_eq!(m.strategy.base, BaseStrategy::Merge);
    merged_by(app, "metadata.ownerReferences", "uid");
}

/// Every shipped patch applied to its instance, against the reviewed snapshot.
#[test]
fn shipped_patches_give_the_reviewed_results() {
    let Some(catalog) = catalog() else { return };
    let bless = std::env::var_os("SMP_BLESS").is_some();
    let expected_dir = root().join("expected");
    let mut checked = 0;
    let mut stale = Vec::new();
    for project in PROJECTS {
        let dir = root().join(project);
        let mut patches: Vec<PathBuf> = std::fs::read_dir(dir.join("patches"))
            .expect("patches")
            .map(|e| e.expect("entry").path())
            .collect();
        patches.sort();
        for patch_path in patches {
            let stem = patch_path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("name");
            let instance_name = stem.split('.').next().expect("instance stem");
            let instance = read(&dir.join("instances").join(format!("{instance_name}.yaml")));
            let patch = read(&patch_path);
            let api_version = instance["apiVersion"].as_str().expect("apiVersion");
            let kind = instance["kind"].as_str().expect("kind");
            let schema = catalog
                .lookup(api_version, kind)
                .expect("a CRD for the instance");
            let result = match smp_core::apply(&instance, &patch, schema) {
                Ok(v) => v,
                Err(e) => serde_json::json!({"error": e.to_string()}),
            };
            let text = serde_json::to_string_pretty(&result).expect("prints") + "\n";
            let snapshot = expected_dir.join(project).join(format!("{stem}.json"));
            if bless {
                std::fs::create_dir_all(snapshot.parent().expect("dir")).expect("mkdir");
                std::fs::write(&snapshot, &text).expect("writes");
            } else if std::fs::read_to_string(&snapshot).ok().as_deref() != Some(text.as_str()) {
                stale.push(snapshot.display().to_string());
            }
            checked += 1;
        }
    }
    assert!(
        stale.is_empty(),
        "results differ from the snapshots: {stale:#?}"
    );
    assert_eq!(checked, 36);
}

/// Every shared CRD document, or `None` without them.
fn crd_documents() -> Option<Vec<Value>> {
    let mut out = Vec::new();
    for dir in crd_dirs()? {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("crds")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            out.extend(smp_core::parse_documents(&text, DocRole::Schema).expect("parses"));
        }
    }
    Some(out)
}

/// On random instances of every served version of every CRD: `diff(a, a)` is empty,
/// `apply(a, diff(a, b)) == b`, and three-way with original == current is the two-way patch.
/// `b` is another random instance half of the time, `a` with a random patch applied the
/// other half (closer pairs: merged lists with shared keys, directives).
#[test]
fn round_trips_on_generated_instances() {
    let Some(documents) = crd_documents() else {
        return;
    };
    let cases: usize = std::env::var("SMP_CRD_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let mut rng = Rng(0x00c0_ffee_0014);
    let mut checked = 0;
    for crd in documents {
        let group = crd["spec"]["group"].as_str().expect("group");
        let kind = crd["spec"]["names"]["kind"].as_str().expect("kind");
        for version in crd["spec"]["versions"].as_array().expect("versions") {
            if version["served"] == json!(false) {
                continue;
            }
            let name = version["name"].as_str().expect("name");
            let api_version = format!("{group}/{name}");
            // The patch generator walks `Node<'static>`s (a test: 15 schemas, kept).
            let schema: &'static smp_core::Schema =
                Box::leak(Box::new(from_crd(&crd, name).expect("loads")));
            let json_schema = &version["schema"]["openAPIV3Schema"];
            for case in 0..cases {
                let a = instances::instance(&mut rng, json_schema, &api_version, kind);
                let b = if case % 2 == 0 {
                    instances::instance(&mut rng, json_schema, &api_version, kind)
                } else {
                    let p = patches::patch(&mut rng, &a, schema.root());
                    match smp_core::apply(&a, &p, schema) {
                        Ok(b) if instances::valid(&b, json_schema) => b,
                        _ => continue,
                    }
                };
                let context = || format!("{api_version} {kind} case {case}\na = {a}\nb = {b}");
                let same =
                    smp_core::diff(&a, &a, schema).unwrap_or_else(|e| panic!("{e}: {}", context()));
                assert_eq!(same, json!({}), "{}", context());
                let patch =
                    smp_core::diff(&a, &b, schema).unwrap_or_else(|e| panic!("{e}: {}", context()));
                let applied = smp_core::apply(&a, &patch, schema)
                    .unwrap_or_else(|e| panic!("{e}: patch {patch}\n{}", context()));
                assert_eq!(applied, b, "patch {patch}\n{}", context());
                let three = smp_core::three_way(&a, &b, &a, schema, &ThreeWayOptions::default())
                    .unwrap_or_else(|e| panic!("{e}: {}", context()));
                assert_eq!(three, patch, "{}", context());
                checked += 1;
            }
        }
    }
    assert!(checked >= 15 * cases * 8 / 10, "only {checked} cases");
}
