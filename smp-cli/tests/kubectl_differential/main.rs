//! Differential test: `smp patch` against `kubectl patch --local --type strategic -o json`.
//!
//! Random objects of the kinds in [`KINDS`] and random strategic patches using every directive
//! kubectl knows (`$patch: replace|delete|merge`, `$deleteFromPrimitiveList/`,
//! `$setElementOrder/`, `$retainKeys`, `null`) go through both tools; their standard output
//! must be byte for byte the same (which documents fail shows as which ones are printed).
//!
//! Kinds: an explicit list ([`KINDS`], cycled through batch by batch), every GA kind of the
//! Kubernetes v1.34 document that the pinned kubectl (v1.33) patches locally, but for the
//! request-only ones (reviews, `TokenRequest`, `Eviction`, `Binding`, `Scale`) and the status
//! and discovery types (`ComponentStatus`, `Status`, `APIGroup`, `APIVersions`). Left out
//! because kubectl 1.33's scheme lacks them, so that it refuses every strategic patch of them
//! (`strategic merge patch is not supported for resource.k8s.io/v1, Kind=DeviceClass
//! locally`): `resource.k8s.io/v1` (`DeviceClass`, `ResourceClaim`, `ResourceClaimTemplate`,
//! `ResourceSlice`; the group's v1 is new in 1.34), `storage.k8s.io/v1`
//! `VolumeAttributesClass` (GA in 1.34), `apiextensions.k8s.io/v1` `CustomResourceDefinition`
//! and `apiregistration.k8s.io/v1` `APIService` (kubectl registers neither group), and custom
//! resources (no Go struct at all).
//!
//! Schema: objects and patches are generated from the OpenAPI document smp-types is generated
//! from (`../shared/openapi/swagger.json`, shared data: the tests that need it skip, saying so,
//! without it), not from smp-types, so that a mistake of the generator is not copied into the
//! cases. The walk starts at the kind's definition and
//! follows `$ref`s; each primitive's JSON type comes from `type`/`format` (strings, int32 and
//! int64 integers, booleans, numbers, `format: byte` as base64, `IntOrString` as an integer or
//! a string, `Quantity` as a quantity string, `Time` as an RFC 3339 string, `MicroTime` with
//! microseconds); `type: object` with `additionalProperties` is a map; patch strategy and merge
//! key come from the property's `x-kubernetes-patch-strategy` and
//! `x-kubernetes-patch-merge-key`. Properties the document gives no structure (`FieldsV1`,
//! `RawExtension`, `JSON`: an object without properties, or no type) are not generated. Values
//! come from a small vocabulary so that patches hit existing list items and map keys; items of
//! a list merged by a key always carry it. Each kubectl call patches a multi-document file of
//! several objects of one kind; calls run on two threads.
//!
//! kubectl is found through `$SMP_KUBECTL`, then `~/.cache/smp/kubectl/kubectl` (where
//! `.ci/install-kubectl` puts it), then `PATH` (the first that runs). Its version
//! (`kubectl version --client -o json`) must be one the version-skew tables are checked for,
//! v1.32 or v1.33 ([`SUPPORTED_MINORS`]); without a kubectl, or with another version, the tests
//! say they skipped and why. The objects go to kubectl as YAML documents (smp's YAML writer),
//! which every kubectl reads; JSON documents between `---` lines are read by v1.33 only.
//! `SMP_DIFF_SEED` changes the seed (default fixed), `SMP_DIFF_CASES` the number of cases;
//! `SMP_DIFF_REPORT=FILE` writes every differing batch there (the failure shows the first).
//!
//! Case classes left out, each a known, documented difference (`smp_core::guide::differences`;
//! pinned in `tests/patch.rs`):
//! - added content: `$patch` in a part of the patch whose counterpart the object lacks
//!   (upstream drops the whole object carrying it; smp keeps a `$patch: replace` object's
//!   content and rejects invalid `$patch` values).
//! - unknown-field merges: an unknown field present as an object or list in both the object
//!   and the patch; kubectl fails ("unable to find api field"), smp merges it without metadata.
//! - kubectl panics: `$setElementOrder/<f>` for a list of objects without a merge key
//!   (`hash of unhashable type map[string]interface {}` in
//!   `partitionPrimitivesByPresentInList`); smp ignores the directive there.
//! - lists in maps of lists: a list at a key of a map whose values are lists
//!   (`CertificateSigningRequestSpec.extra`, `map[string][]string`) in both the object and the
//!   patch; kubectl fails (`merging an object in json but data type is not struct, instead is:
//!   map`: upstream looks up patch metadata for the map's values as if they were a struct), smp
//!   replaces the list, as every list without patch metadata.
//! - delete what the patch adds: one value both in `$deleteFromPrimitiveList/<f>` and in
//!   `<f>`. kubectl's result depends on Go's map iteration order (the same input gives
//!   `finalizers: []` or `["d"]` from one run to the next when the patch map has a few more
//!   keys); smp always deletes first, then adds. Not comparable.
//!
//! Directives at the root of a patch are not generated: a top-level `$patch: delete` leaves an
//! object without `kind`, which both tools refuse (with their own messages).
//!
//! Version skew: kubectl compiles in its own release's types (v1.33 for the pinned one), the
//! document is v1.34. Where v1.34 metadata differs from that release, the field is not
//! generated; each is listed in [`SKEW`] with the newest kubectl minor that lacks it and the
//! kubectl error it causes. Unknown to v1.33 and older:
//! - `Container.restartPolicyRules` and `EphemeralContainer.restartPolicyRules` (container
//!   restart rules, alpha in 1.34): `unable to find api field in struct Container for the json
//!   field "restartPolicyRules"` (`EphemeralContainer` likewise);
//! - `EnvVarSource.fileKeyRef` (environment variables from files, alpha in 1.34): `unable to
//!   find api field in struct EnvVarSource for the json field "fileKeyRef"`;
//! - `PodStatus.extendedResourceClaimStatus` (DRA extended resources, alpha in 1.34): `unable
//!   to find api field in struct PodStatus for the json field "extendedResourceClaimStatus"`.
//!
//! Unknown to v1.32 (new in 1.33):
//! - `NodeSystemInfo.swap` (node swap status): `unable to find api field in struct
//!   NodeSystemInfo for the json field "swap"`.
//!
//! Likewise, kinds a kubectl's scheme lacks are in [`KUBECTL_REFUSES`] with the newest minor
//! that lacks them: for v1.32 also `networking.k8s.io/v1` `IPAddress` and `ServiceCIDR` (GA in
//! 1.33), which are then left out of the cases.
//!
//! kubectl fails so wherever the object and the patch both hold an object or a list at such a
//! field, the class "unknown-field merges" above, which the generator cannot avoid for fields
//! it believes known. No list's patch strategy or merge key differs between these releases
//! (every merged list of these kinds was checked against kubectl: merged or replaced as the
//! document says, by the document's key). Both supported versions pass seeds 11 to 14, 21, 22
//! and 99 as well as the default.

mod patch_merge_key;
mod patches;
mod rng;
mod schema;
mod strings;
mod values;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use patches::{compatible, patch_object};
use rng::Rng;
use schema::{Ty, st, struct_of};
use values::object;

const DEFAULT_SEED: u64 = 0x5eed_0007;
const DEFAULT_CASES: usize = 2400;
/// Objects per kubectl call: one patch, this many objects of one kind.
const PER_BATCH: usize = 6;

/// The kinds compared, as `(apiVersion, kind)`; batch `i` is of kind `i % KINDS.len()`.
const KINDS: &[(&str, &str)] = &[
    ("v1", "Pod"),
    ("v1", "Service"),
    ("v1", "Node"),
    ("v1", "ConfigMap"),
    ("v1", "Secret"),
    ("v1", "PersistentVolumeClaim"),
    ("v1", "PersistentVolume"),
    ("v1", "ServiceAccount"),
    ("v1", "Endpoints"),
    ("v1", "Namespace"),
    ("v1", "LimitRange"),
    ("v1", "ResourceQuota"),
    ("apps/v1", "Deployment"),
    ("apps/v1", "StatefulSet"),
    ("apps/v1", "DaemonSet"),
    ("apps/v1", "ReplicaSet"),
    ("batch/v1", "Job"),
    ("batch/v1", "CronJob"),
    ("networking.k8s.io/v1", "Ingress"),
    ("networking.k8s.io/v1", "NetworkPolicy"),
    ("networking.k8s.io/v1", "IngressClass"),
    ("rbac.authorization.k8s.io/v1", "Role"),
    ("rbac.authorization.k8s.io/v1", "RoleBinding"),
    ("rbac.authorization.k8s.io/v1", "ClusterRole"),
    ("autoscaling/v2", "HorizontalPodAutoscaler"),
    ("policy/v1", "PodDisruptionBudget"),
    ("discovery.k8s.io/v1", "EndpointSlice"),
    (
        "admissionregistration.k8s.io/v1",
        "MutatingWebhookConfiguration",
    ),
    (
        "admissionregistration.k8s.io/v1",
        "ValidatingWebhookConfiguration",
    ),
    ("coordination.k8s.io/v1", "Lease"),
    ("scheduling.k8s.io/v1", "PriorityClass"),
    ("storage.k8s.io/v1", "StorageClass"),
    ("storage.k8s.io/v1", "CSIDriver"),
    ("node.k8s.io/v1", "RuntimeClass"),
    ("v1", "ReplicationController"),
    ("v1", "PodTemplate"),
    ("v1", "Event"),
    ("apps/v1", "ControllerRevision"),
    ("autoscaling/v1", "HorizontalPodAutoscaler"),
    ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"),
    ("networking.k8s.io/v1", "IPAddress"),
    ("networking.k8s.io/v1", "ServiceCIDR"),
    ("events.k8s.io/v1", "Event"),
    ("certificates.k8s.io/v1", "CertificateSigningRequest"),
    ("flowcontrol.apiserver.k8s.io/v1", "FlowSchema"),
    (
        "flowcontrol.apiserver.k8s.io/v1",
        "PriorityLevelConfiguration",
    ),
    (
        "admissionregistration.k8s.io/v1",
        "ValidatingAdmissionPolicy",
    ),
    (
        "admissionregistration.k8s.io/v1",
        "ValidatingAdmissionPolicyBinding",
    ),
    ("storage.k8s.io/v1", "CSINode"),
    ("storage.k8s.io/v1", "VolumeAttachment"),
    ("storage.k8s.io/v1", "CSIStorageCapacity"),
];

/// The kubectl releases this test is checked against, by minor version: the pinned v1.33
/// (`.ci/install-kubectl`) and v1.32 (what Debian-like systems ship). The version-skew tables
/// below are complete for these; with another kubectl the test says so and skips.
const SUPPORTED_MINORS: std::ops::RangeInclusive<u32> = 32..=33;

/// The minor version the tables assume when no kubectl is found (for the tests that do not
/// run it).
const PINNED_MINOR: u32 = 33;

/// Properties of the v1.34 document that older kubectl releases do not know, as `(newest minor
/// that lacks it, definition, property, the kubectl error)`: not generated for a kubectl of
/// that minor or older.
pub(crate) const SKEW: &[(u32, &str, &str, &str)] = &[
    (
        33,
        "io.k8s.api.core.v1.Container",
        "restartPolicyRules",
        r#"unable to find api field in struct Container for the json field "restartPolicyRules""#,
    ),
    (
        33,
        "io.k8s.api.core.v1.EphemeralContainer",
        "restartPolicyRules",
        r#"unable to find api field in struct EphemeralContainer for the json field "restartPolicyRules""#,
    ),
    (
        33,
        "io.k8s.api.core.v1.EnvVarSource",
        "fileKeyRef",
        r#"unable to find api field in struct EnvVarSource for the json field "fileKeyRef""#,
    ),
    (
        33,
        "io.k8s.api.core.v1.PodStatus",
        "extendedResourceClaimStatus",
        r#"unable to find api field in struct PodStatus for the json field "extendedResourceClaimStatus""#,
    ),
    (
        32,
        "io.k8s.api.core.v1.NodeSystemInfo",
        "swap",
        r#"unable to find api field in struct NodeSystemInfo for the json field "swap""#,
    ),
];

// ---------------------------------------------------------------------------------------
// Running both tools.

/// The kubectl the tests compare with.
struct Kubectl {
    path: PathBuf,
    /// `gitVersion`, e.g. `v1.33.9`.
    version: String,
    minor: u32,
}

/// The kubectl found through `$SMP_KUBECTL`, then `~/.cache/smp/kubectl/kubectl`, then `PATH`
/// (the first that runs), if its version is supported; otherwise why the tests skip.
fn kubectl() -> Result<&'static Kubectl, &'static str> {
    static FOUND: OnceLock<Result<Kubectl, String>> = OnceLock::new();
    FOUND
        .get_or_init(find_kubectl)
        .as_ref()
        .map_err(String::as_str)
}

fn find_kubectl() -> Result<Kubectl, String> {
    let Some((path, version)) = smp_testdata::kubectl_candidates()
        .filter(|p| p.is_file())
        .find_map(|p| client_version(&p).map(|v| (p, v)))
    else {
        return Err(
            "kubectl not found (set SMP_KUBECTL, run .ci/install-kubectl, or put it on PATH)"
                .to_owned(),
        );
    };
    let number = |key: &str| -> Option<u32> {
        let text = version[key].as_str()?;
        text.trim_end_matches(|c: char| !c.is_ascii_digit())
            .parse()
            .ok()
    };
    let git_version = version["gitVersion"].as_str().unwrap_or("?").to_owned();
    match (number("major"), number("minor")) {
        (Some(1), Some(minor)) if SUPPORTED_MINORS.contains(&minor) => Ok(Kubectl {
            path,
            version: git_version,
            minor,
        }),
        _ => Err(format!(
            "{} is kubectl {git_version}; this test supports v1.{} to v1.{} only (its \
             version-skew tables are checked for those): set SMP_KUBECTL to one of them, e.g. \
             the one .ci/install-kubectl installs",
            path.display(),
            SUPPORTED_MINORS.start(),
            SUPPORTED_MINORS.end()
        )),
    }
}

/// `clientVersion` of `kubectl version --client -o json`, if the program runs.
fn client_version(program: &Path) -> Option<Value> {
    let out = Command::new(program)
        .args(["version", "--client", "-o", "json"])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let doc: Value = serde_json::from_slice(&out.stdout).ok()?;
    Some(doc.get("clientVersion")?.clone())
}

/// The minor version the version-skew tables are applied for.
pub(crate) fn skew_minor() -> u32 {
    kubectl().map_or(PINNED_MINOR, |k| k.minor)
}

/// The kinds compared with a kubectl of `minor`: [`KINDS`] but for those it refuses.
fn compared_kinds(minor: u32) -> Vec<(&'static str, &'static str)> {
    KINDS
        .iter()
        .copied()
        .filter(|&(v, k)| !refuses(minor, v, k))
        .collect()
}

/// Whether a kubectl of `minor` refuses to patch the kind (see [`KUBECTL_REFUSES`]).
fn refuses(minor: u32, api_version: &str, kind: &str) -> bool {
    KUBECTL_REFUSES
        .iter()
        .any(|&(newest, v, k, _)| minor <= newest && v == api_version && k == kind)
}

fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    let text = text.trim();
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

struct Batch {
    index: usize,
    kind: &'static smp_types::Kind,
    objects: Vec<Value>,
    patch: Value,
}

/// Batch `index`: of kind `index % kinds.len()`.
fn make_batch(seed: u64, index: usize, kinds: &[(&str, &str)]) -> Batch {
    let mut rng = Rng(seed ^ (index as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let (api_version, kind) = kinds[index % kinds.len()];
    let kind = smp_types::lookup(api_version, kind).expect("a kind of smp-types");
    let i = struct_of(kind.definition().name());
    let (s, ty) = (st(i), Ty::Struct(i));
    let objects: Vec<Value> = (0..PER_BATCH)
        .map(|i| {
            let mut o = object(&mut rng, s, None, 0);
            o["apiVersion"] = json!(kind.api_version());
            o["kind"] = json!(kind.kind());
            if !o["metadata"].is_object() {
                o["metadata"] = json!({});
            }
            o["metadata"]["name"] = json!(format!("obj-{i}"));
            o
        })
        .collect();
    // The patch is made against the first object; the others get it too, unless that would
    // put them in an excluded case class.
    let mut patch = patch_object(&mut rng, s, Some(&objects[0]), 0);
    if let Some(Value::Object(meta)) = patch.get_mut("metadata") {
        // The names tell the objects of a batch apart in the output.
        meta.remove("name");
    }
    let objects = objects
        .into_iter()
        .filter(|o| compatible(&patch, Some(o), &ty))
        .collect();
    Batch {
        index,
        kind,
        objects,
        patch,
    }
}

struct Outcome {
    stdout: String,
    stderr: String,
    ok: bool,
}

fn run(program: &Path, args: &[&str]) -> Outcome {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    Outcome {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        ok: out.status.success(),
    }
}

fn by_name(stdout: &str) -> Vec<(String, Value)> {
    serde_json::Deserializer::from_str(stdout)
        .into_iter::<Value>()
        .map_while(Result::ok)
        .map(|v| (v["metadata"]["name"].as_str().unwrap_or("?").to_owned(), v))
        .collect()
}

/// Runs one batch through both tools; `Err` describes the first difference.
fn check(batch: &Batch, kubectl: &Path, dir: &Path, seed: u64) -> Result<(), String> {
    let file = dir.join(format!("objects-{}.yaml", batch.index));
    let patch_file = dir.join(format!("patch-{}.json", batch.index));
    // YAML documents, which every kubectl reads: JSON documents between `---` lines are read
    // by kubectl 1.33 (its reader falls back to YAML at the separator) but not by 1.32 (`json:
    // offset 608: invalid character '-' in numeric literal`). smp's YAML reads back as the same
    // JSON in both tools (integral floats become integers, which both print alike).
    let text: Vec<String> = batch
        .objects
        .iter()
        .map(smp_core::yaml::to_yaml_string)
        .collect();
    std::fs::write(&file, text.join("---\n")).expect("write objects");
    std::fs::write(&patch_file, batch.patch.to_string()).expect("write patch");
    let (file, patch_file) = (
        file.to_str().expect("UTF-8"),
        patch_file.to_str().expect("UTF-8"),
    );

    let k = run(
        kubectl,
        &[
            "patch",
            "--local",
            "-f",
            file,
            "--type",
            "strategic",
            "--patch-file",
            patch_file,
            "-o",
            "json",
        ],
    );
    let s = run(
        Path::new(env!("CARGO_BIN_EXE_smp")),
        &[
            "patch",
            "-f",
            file,
            "--patch-file",
            patch_file,
            "-o",
            "json",
        ],
    );
    if k.stdout == s.stdout && k.ok == s.ok {
        // The same objects as one JSON List take smp's fast way (text in, text out).
        let list = json_list(batch, dir);
        let fast = smp_json_list(&list, patch_file);
        if fast.stdout == k.stdout && fast.ok == k.ok {
            return Ok(());
        }
        return Err(format!(
            "smp patch of a JSON List differs from kubectl: seed {seed:#x} (SMP_DIFF_SEED), batch {} ({})\npatch: {}\n--- kubectl\n{}\n--- smp\n{}\nsmp stderr: {}",
            batch.index,
            batch.kind.type_name(),
            batch.patch,
            k.stdout,
            fast.stdout,
            fast.stderr
        ));
    }
    // Name the first object whose result differs.
    let (kv, sv) = (by_name(&k.stdout), by_name(&s.stdout));
    let mut detail = String::new();
    for object in &batch.objects {
        let name = object["metadata"]["name"].as_str().unwrap_or("?");
        let find =
            |v: &[(String, Value)]| v.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone());
        let (kr, sr) = (find(&kv), find(&sv));
        if kr != sr {
            detail = format!(
                "object:  {object}\nkubectl: {}\nsmp:     {}",
                kr.map_or("(error)".to_owned(), |v| v.to_string()),
                sr.map_or("(error)".to_owned(), |v| v.to_string()),
            );
            break;
        }
    }
    if detail.is_empty() {
        detail = format!(
            "same values, different text or status (kubectl ok={}, smp ok={})\n--- kubectl\n{}\n--- smp\n{}",
            k.ok, s.ok, k.stdout, s.stdout
        );
    }
    Err(format!(
        "smp patch differs from kubectl: seed {seed:#x} (SMP_DIFF_SEED), batch {} ({})\npatch:   {}\n{detail}\nkubectl stderr: {}smp stderr: {}",
        batch.index,
        batch.kind.type_name(),
        batch.patch,
        k.stderr,
        s.stderr,
    ))
}

/// The batch's objects as one JSON `List` in `dir`; returns its path.
fn json_list(batch: &Batch, dir: &Path) -> String {
    let file = dir.join(format!("objects-{}.json", batch.index));
    let list = json!({"apiVersion": "v1", "kind": "List", "items": batch.objects});
    std::fs::write(&file, serde_json::to_string_pretty(&list).expect("JSON")).expect("write");
    file.to_str().expect("UTF-8").to_owned()
}

fn smp_json_list(list: &str, patch_file: &str) -> Outcome {
    run(
        Path::new(env!("CARGO_BIN_EXE_smp")),
        &[
            "patch",
            "-f",
            list,
            "--patch-file",
            patch_file,
            "-o",
            "json",
        ],
    )
}

/// Without kubectl: the JSON List of each batch (smp's fast way, text in and text out) prints
/// what the same objects as YAML documents (the general way) print.
#[test]
fn json_lists_print_what_documents_print() {
    if !schema::document_present() {
        return;
    }
    let seed = env_number("SMP_DIFF_SEED").unwrap_or(DEFAULT_SEED);
    let kinds: Vec<(&str, &str)> = smp_types::KINDS
        .iter()
        .filter(|k| compared_kinds(33).contains(&(k.api_version(), k.kind())))
        .map(|k| (k.api_version(), k.kind()))
        .collect();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("json-lists");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let mut compared = 0;
    for index in 0..60 {
        let batch = make_batch(seed, index, &kinds);
        if batch.objects.is_empty() {
            continue;
        }
        let docs = dir.join(format!("objects-{index}.yaml"));
        let text: Vec<String> = batch
            .objects
            .iter()
            .map(smp_core::yaml::to_yaml_string)
            .collect();
        std::fs::write(&docs, text.join("---\n")).expect("write objects");
        let patch_file = dir.join(format!("patch-{index}.json"));
        std::fs::write(&patch_file, batch.patch.to_string()).expect("write patch");
        let patch_file = patch_file.to_str().expect("UTF-8");
        let general = run(
            Path::new(env!("CARGO_BIN_EXE_smp")),
            &[
                "patch",
                "-f",
                docs.to_str().expect("UTF-8"),
                "--patch-file",
                patch_file,
            ],
        );
        let fast = smp_json_list(&json_list(&batch, &dir), patch_file);
        assert_eq!(
            (fast.ok, &fast.stdout),
            (general.ok, &general.stdout),
            "batch {index} ({}), patch {}\nfast stderr: {}\ngeneral stderr: {}",
            batch.kind.type_name(),
            batch.patch,
            fast.stderr,
            general.stderr
        );
        compared += batch.objects.len();
    }
    println!("{compared} objects printed alike from JSON Lists and YAML documents");
    assert!(compared > 200, "only {compared} objects compared");
}

#[test]
fn smp_patch_matches_kubectl() {
    let kubectl = match kubectl() {
        Ok(kubectl) => kubectl,
        Err(why) => {
            println!("SKIPPED: {why}");
            return;
        }
    };
    if !schema::document_present() {
        return;
    }
    let kinds = compared_kinds(kubectl.minor);
    let seed = env_number("SMP_DIFF_SEED").unwrap_or(DEFAULT_SEED);
    let cases = env_number("SMP_DIFF_CASES").map_or(DEFAULT_CASES, |n| n as usize);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kubectl-differential");
    std::fs::create_dir_all(&dir).expect("scratch dir");

    // Batches are taken in index order by two workers until enough objects were compared
    // (a batch drops objects that would fall in an excluded class).
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let start = std::time::Instant::now();
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                let (kubectl, dir, next, done, kinds) = (&kubectl.path, &dir, &next, &done, &kinds);
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    while done.load(Ordering::Relaxed) < cases {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let batch = make_batch(seed, index, kinds);
                        if batch.objects.is_empty() {
                            continue;
                        }
                        done.fetch_add(batch.objects.len(), Ordering::Relaxed);
                        if let Err(e) = check(&batch, kubectl, dir, seed) {
                            failures.push((batch.index, e));
                        }
                    }
                    failures
                })
            })
            .collect();
        let mut all: Vec<(usize, String)> = workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker"))
            .collect();
        all.sort();
        all.into_iter().map(|(_, e)| e).collect()
    });
    let batches = next.load(Ordering::Relaxed);
    println!(
        "{} cases ({batches} kubectl calls, seed {seed:#x}) against {} ({}) in {:.1?}",
        done.load(Ordering::Relaxed),
        kubectl.path.display(),
        kubectl.version,
        start.elapsed()
    );
    if let Some(path) = std::env::var_os("SMP_DIFF_REPORT") {
        std::fs::write(path, failures.join("\n\n")).expect("write the report");
    }
    if let Some(first) = failures.first() {
        panic!(
            "{} of {batches} batches differ; the first:\n{first}",
            failures.len()
        );
    }
}

/// Kinds of v1.34 that older kubectl releases do not have in their scheme, as `(newest minor
/// that lacks it, apiVersion, kind, why)`: a kubectl of that minor or older refuses them
/// (`strategic merge patch is not supported for <gv>, Kind=<K> locally`), so there is nothing
/// to compare; they are left out of the random cases, and `examples_print_like_kubectl` checks
/// that kubectl does refuse each manifest of them in `examples/manifests/`.
const KUBECTL_REFUSES: &[(u32, &str, &str, &str)] = &[
    (
        33,
        "resource.k8s.io/v1",
        "DeviceClass",
        "resource.k8s.io/v1 is new in 1.34",
    ),
    (
        33,
        "resource.k8s.io/v1",
        "ResourceClaim",
        "resource.k8s.io/v1 is new in 1.34",
    ),
    (
        33,
        "resource.k8s.io/v1",
        "ResourceClaimTemplate",
        "resource.k8s.io/v1 is new in 1.34",
    ),
    (
        33,
        "resource.k8s.io/v1",
        "ResourceSlice",
        "resource.k8s.io/v1 is new in 1.34",
    ),
    (
        33,
        "storage.k8s.io/v1",
        "VolumeAttributesClass",
        "GA (storage.k8s.io/v1) in 1.34",
    ),
    (
        32,
        "networking.k8s.io/v1",
        "IPAddress",
        "GA (networking.k8s.io/v1) in 1.33",
    ),
    (
        32,
        "networking.k8s.io/v1",
        "ServiceCIDR",
        "GA (networking.k8s.io/v1) in 1.33",
    ),
    (
        u32::MAX,
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
        "kubectl's scheme does not register apiextensions.k8s.io",
    ),
    (
        u32::MAX,
        "apiregistration.k8s.io/v1",
        "APIService",
        "kubectl's scheme does not register apiregistration.k8s.io",
    ),
];

/// `apiVersion` and `kind` of a one-document YAML manifest (its top-level lines).
fn type_meta(text: &str) -> (String, String) {
    let top = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .map(|v| v.trim().trim_matches('"').to_owned())
            .unwrap_or_default()
    };
    (top("apiVersion:"), top("kind:"))
}

/// The shipped manifests (the files directly under `examples/`, one per kind under
/// `examples/manifests/`), and the README's Deployment patch, print exactly as kubectl prints
/// them, in JSON and in YAML (one document per file, so kubectl's missing YAML separator does
/// not matter).
#[test]
fn examples_print_like_kubectl() {
    let (kubectl, minor) = match kubectl() {
        Ok(k) => (&k.path, k.minor),
        Err(why) => {
            println!("SKIPPED: {why}");
            return;
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut runs = vec![(
        "examples/deployment.yaml".to_owned(),
        root.join("examples/deployment-patch.yaml")
            .display()
            .to_string(),
    )];
    let empty = Path::new(env!("CARGO_TARGET_TMPDIR")).join("empty-patch.json");
    std::fs::write(&empty, "{}").expect("write");
    let empty = empty.display().to_string();
    let mut refused = Vec::new();
    for dir in ["examples", "examples/manifests"] {
        let mut names: Vec<String> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}/: {e}"))
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|name| name.ends_with(".yaml") && !name.contains("patch"))
            .collect();
        names.sort();
        for name in names {
            let file = format!("{dir}/{name}");
            let text = std::fs::read_to_string(root.join(&file)).expect("read");
            let (api_version, kind) = type_meta(&text);
            if refuses(minor, &api_version, &kind) {
                refused.push((file, api_version, kind));
            } else {
                runs.push((file, empty.clone()));
            }
        }
    }
    assert!(runs.len() > 40, "{} manifests", runs.len());
    // The kinds left out are in `examples/manifests/`, and kubectl does refuse them.
    for (newest, api_version, kind, why) in KUBECTL_REFUSES {
        if minor > *newest {
            continue;
        }
        let Some((file, ..)) = refused
            .iter()
            .find(|(_, v, k)| v == api_version && k == kind)
        else {
            panic!("no manifest of {api_version} {kind} ({why})");
        };
        let k = run(
            kubectl,
            &[
                "patch",
                "--local",
                "-f",
                &root.join(file).display().to_string(),
                "--patch-file",
                &empty,
                "-o",
                "json",
            ],
        );
        assert!(
            !k.ok,
            "kubectl patches {file} ({api_version} {kind}): drop it from KUBECTL_REFUSES"
        );
    }
    for (file, patch) in &runs {
        let file = root.join(file).display().to_string();
        for format in ["json", "yaml"] {
            let k = run(
                kubectl,
                &[
                    "patch",
                    "--local",
                    "-f",
                    &file,
                    "--patch-file",
                    patch,
                    "-o",
                    format,
                ],
            );
            let s = run(
                Path::new(env!("CARGO_BIN_EXE_smp")),
                &["patch", "-f", &file, "--patch-file", patch, "-o", format],
            );
            assert!(
                k.ok && s.ok,
                "{file}: kubectl {}, smp {}",
                k.stderr,
                s.stderr
            );
            assert_eq!(s.stdout, k.stdout, "{file} -o {format}");
        }
    }
}

/// The kinds compared are many, and all of smp-types; the version-skew table names properties
/// of the document.
#[test]
fn kinds_are_known() {
    if !schema::document_present() {
        return;
    }
    assert!(KINDS.len() >= 20, "{} kinds", KINDS.len());
    for (i, &(api_version, kind)) in KINDS.iter().enumerate() {
        let k = smp_types::lookup(api_version, kind)
            .unwrap_or_else(|| panic!("{api_version} {kind}: not in smp_types::lookup"));
        assert!(
            !KINDS[..i].contains(&(api_version, kind)),
            "{api_version} {kind} twice"
        );
        struct_of(k.definition().name());
        assert!(
            !refuses(PINNED_MINOR, api_version, kind),
            "{api_version} {kind}: the pinned kubectl refuses it"
        );
    }
    // Each version-skew entry names a property of the document (checked when it is loaded), and
    // a minor the test supports, or it could never apply.
    for &(newest, definition, property, _) in SKEW {
        assert!(
            SUPPORTED_MINORS.contains(&newest),
            "{definition}.{property}: v1.{newest} is not a supported kubectl"
        );
    }
    for minor in SUPPORTED_MINORS {
        assert!(compared_kinds(minor).len() >= 20, "v1.{minor}");
    }
}
