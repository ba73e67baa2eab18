//! The PodSecurity plugin against the tests of `k8s.io/pod-security-admission` v0.34.1, as
//! data (`tests/data/pod_security/*.json`): every fixture pod of `test/testdata` under each
//! level and version it is expected to pass or fail, each check's unit-test cases with the
//! texts the server prints, the namespace labels' parsing, and the plugin's answers to Pod,
//! Deployment and Namespace writes.

use std::path::PathBuf;

use serde_json::{Value, json};
use smp_admission::admission::OfflineCluster;
use smp_admission::admission::pod_security::{
    self, Level, LevelVersion, Options, Policy, Refusal, Request, Version,
};

fn data(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pod_security")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn level_version(text: &str) -> LevelVersion {
    let (level, version) = text.split_once(':').expect("level:version");
    LevelVersion::new(
        Level::parse(level).expect("a level"),
        Version::parse(version).expect("a version"),
    )
}

fn policy(v: &Value) -> Policy {
    let mode = |m: &str| level_version(v[m].as_str().expect("a mode"));
    Policy {
        enforce: mode("enforce"),
        audit: mode("audit"),
        warn: mode("warn"),
    }
}

fn policy_text(p: &Policy) -> Value {
    json!({"enforce": p.enforce.to_string(), "audit": p.audit.to_string(), "warn": p.warn.to_string()})
}

/// `baseline:v1.3-v1.7` and `restricted:v1.34` as the level and each version of the range.
fn expand(range: &str) -> Vec<LevelVersion> {
    let (level, versions) = range.split_once(':').unwrap();
    let level = Level::parse(level).unwrap();
    let (from, to) = versions.split_once('-').unwrap_or((versions, versions));
    let minor = |v: &str| v.strip_prefix("v1.").unwrap().parse::<u32>().unwrap();
    (minor(from)..=minor(to))
        .map(|m| LevelVersion::new(level, Version::V1(m)))
        .collect()
}

/// Every fixture of `test/testdata` passes or fails as expected under each level and version
/// it is listed for; under `latest` as under v1.34. A fixture is a Pod as sent, and the
/// plugin reads it decoded, with the scheme's defaults (a volume with no source is an
/// `emptyDir`).
#[test]
fn upstream_fixtures() {
    let fixtures = data("fixtures.json");
    let options = Options::default();
    let (mut ran, mut failures) = (0, Vec::new());
    for case in fixtures["cases"].as_array().unwrap() {
        let mut pod = case["object"].clone();
        smp_admission::defaulting::default_object(&mut pod).unwrap();
        let (metadata, spec) = (&pod["metadata"], &pod["spec"]);
        for (outcome, should_pass) in [("pass", true), ("fail", false)] {
            for range in case[outcome].as_array().unwrap() {
                for lv in expand(range.as_str().unwrap()) {
                    let mut levels = vec![lv];
                    if lv.version == Version::V1(34) {
                        levels.push(LevelVersion::new(lv.level, Version::Latest));
                    }
                    for lv in levels {
                        ran += 1;
                        let violations = pod_security::evaluate(lv, metadata, spec, &options);
                        if violations.is_empty() != should_pass {
                            failures.push(format!(
                                "{} under {lv}: expected {outcome}, got {violations:?}",
                                case["names"]
                            ));
                        }
                    }
                }
            }
        }
    }
    all_agree("pod security fixtures", ran, 4001, &failures);
}

/// Fails unless at least `at_least` cases ran and none differed, listing those that did.
fn all_agree(what: &str, ran: usize, at_least: usize, failures: &[String]) {
    eprintln!("{what}: {ran} run");
    assert!(ran >= at_least, "{what}: {ran} run");
    assert!(
        failures.is_empty(),
        "{what}: {} of {ran} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

const RESTRICTED_CHECKS: [&str; 6] = [
    "allowPrivilegeEscalation",
    "capabilities_restricted",
    "restrictedVolumes",
    "runAsNonRoot",
    "runAsUser",
    "seccompProfile_restricted",
];

/// Each check's upstream unit tests: the check run at its level and version, its reason and
/// detail compared with the server's.
#[test]
fn upstream_check_cases() {
    let checks = data("checks.json");
    let (mut ran, mut failures) = (0, Vec::new());
    for case in checks["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let check = case["check"].as_str().unwrap();
        let level = if RESTRICTED_CHECKS.contains(&check) {
            Level::Restricted
        } else {
            Level::Baseline
        };
        let version = Version::parse(case["version"].as_str().unwrap()).unwrap();
        let mut options = Options::default();
        options.user_namespaces_pod_security_standards = case["relaxUserNamespaces"] == true;
        let violations = pod_security::evaluate(
            LevelVersion::new(level, version),
            &case["metadata"],
            &case["spec"],
            &options,
        );
        let found: Vec<_> = violations.iter().filter(|v| v.check == check).collect();
        ran += 1;
        let allowed = case["allowed"].as_bool().unwrap();
        match found.as_slice() {
            [] if allowed => {}
            [v] if !allowed => {
                for (what, got) in [("reason", v.reason), ("detail", v.detail.as_str())] {
                    if let Some(expected) = case[what].as_str()
                        && expected != got
                    {
                        failures.push(format!(
                            "{name}: {what}\n  expected {expected}\n  got      {got}"
                        ));
                    }
                }
            }
            other => failures.push(format!("{name}: expected allowed={allowed}, got {other:?}")),
        }
    }
    all_agree("pod security check cases", ran, 90, &failures);
}

/// The namespace labels' levels and versions, and the policy they make.
#[test]
fn upstream_label_cases() {
    let labels = data("labels.json");
    let mut ran = 0;
    for case in labels["policy"].as_array().unwrap() {
        let name = &case["name"];
        let (found, errors) =
            Policy::from_labels(case["labels"].as_object(), &policy(&case["defaults"]));
        assert_eq!(policy_text(&found), case["expect"], "{name}");
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(json!(errors), case["errors"], "{name}");
        ran += 1;
    }
    for case in labels["versions"].as_array().unwrap() {
        let parsed = Version::parse(case["text"].as_str().unwrap());
        assert_eq!(parsed.is_some(), case["ok"] == true, "{case}");
        if let Some(v) = parsed {
            assert_eq!(v.to_string(), case["version"].as_str().unwrap(), "{case}");
        }
        ran += 1;
    }
    for case in labels["levels"].as_array().unwrap() {
        assert_eq!(
            Level::parse(case["text"].as_str().unwrap()).is_some(),
            case["ok"] == true,
            "{case}"
        );
        ran += 1;
    }
    for case in labels["levelVersionEquivalent"].as_array().unwrap() {
        let (a, b) = (
            level_version(case["a"].as_str().unwrap()),
            level_version(case["b"].as_str().unwrap()),
        );
        assert_eq!(a.equivalent(&b), case["equivalent"] == true, "{case}");
        ran += 1;
    }
    for case in labels["policyEquivalent"].as_array().unwrap() {
        assert_eq!(
            policy(&case["a"]).equivalent(&policy(&case["b"])),
            case["equivalent"] == true,
            "{case}"
        );
        ran += 1;
    }
    for case in labels["fullyPrivileged"].as_array().unwrap() {
        assert_eq!(
            policy(&case["policy"]).fully_privileged(),
            case["fullyPrivileged"] == true,
            "{case}"
        );
        ran += 1;
    }
    eprintln!("pod security label cases: {ran}");
    assert!(ran >= 60, "{ran}");
}

/// The server's message for a refusal (apimachinery's `NewForbidden` and `NewInvalid`).
fn message(refusal: &Refusal, object: &Value) -> String {
    match refusal {
        Refusal::Forbidden(f) => f.to_string(),
        Refusal::Invalid(errors) => {
            let name = object["metadata"]["name"].as_str().unwrap_or("");
            let listed: Vec<String> = errors.iter().map(ToString::to_string).collect();
            let listed = match listed.as_slice() {
                [one] => one.clone(),
                many => format!("[{}]", many.join(", ")),
            };
            format!("Namespace {name:?} is invalid: {listed}")
        }
    }
}

/// The plugin's answers to the writes of the admission tests.
#[test]
fn upstream_admission_cases() {
    let admission = data("admission.json");
    let options = Options::default();
    let (mut ran, mut failures) = (0, Vec::new());
    for case in admission["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let object = &case["object"];
        let namespace = object["metadata"]["namespace"].as_str().unwrap_or("");
        let mut cluster = OfflineCluster::new();
        if !case["namespaceLabels"].is_null() {
            cluster.add(json!({"apiVersion": "v1", "kind": "Namespace",
                "metadata": {"name": namespace, "labels": case["namespaceLabels"]}}));
        }
        for pod in case["existingPods"].as_array().unwrap() {
            cluster.add(pod.clone());
        }
        let request = match case["operation"].as_str().unwrap() {
            "create" => Request::create(object, namespace),
            _ => Request::update(object, &case["old"], namespace),
        };
        let request = request.with_subresource(case["subresource"].as_str().unwrap());
        let decision = pod_security::validate(&request, &cluster, &options);
        ran += 1;
        let allowed = case["allowed"].as_bool().unwrap();
        if decision.refusal.is_none() != allowed {
            failures.push(format!(
                "{name}: expected allowed={allowed}, got {:?}",
                decision.refusal
            ));
            continue;
        }
        if let (Some(refusal), Some(expected)) = (&decision.refusal, case["message"].as_str()) {
            let got = message(refusal, object);
            if got != expected {
                failures.push(format!(
                    "{name}: message\n  expected {expected}\n  got      {got}"
                ));
            }
        }
        if let Some(expected) = case["warnings"].as_array()
            && json!(decision.warnings) != json!(expected)
        {
            failures.push(format!(
                "{name}: warnings\n  expected {expected:?}\n  got      {:?}",
                decision.warnings
            ));
        }
    }
    all_agree("pod security admission cases", ran, 30, &failures);
}

/// An update is checked again only when an image changes, a container is added or removed,
/// or an ephemeral container is added or changes (`isSignificantPodUpdate`).
#[test]
fn only_significant_pod_updates_are_checked() {
    let mut cluster = OfflineCluster::new();
    cluster.add(
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ns",
        "labels": {"pod-security.kubernetes.io/enforce": "baseline"}}}),
    );
    let old = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"},
        "spec": {"hostPID": true, "containers": [{"name": "a", "image": "a:1"}],
            "ephemeralContainers": [{"name": "debug", "image": "busybox"}]}});
    let options = Options::default();
    let refused = |new: &Value| {
        pod_security::validate(&Request::update(new, &old, "ns"), &cluster, &options)
            .refusal
            .is_some()
    };
    let mut labelled = old.clone();
    labelled["metadata"]["labels"] = json!({"x": "y"});
    assert!(!refused(&labelled));
    let mut image = old.clone();
    image["spec"]["containers"][0]["image"] = json!("a:2");
    assert!(refused(&image));
    let mut debug = old.clone();
    debug["spec"]["ephemeralContainers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "debug2", "image": "busybox"}));
    assert!(refused(&debug));
    // The status subresource is never checked.
    let status = Request::update(&image, &old, "ns").with_subresource("status");
    assert!(
        pod_security::validate(&status, &cluster, &options)
            .refusal
            .is_none()
    );
}

/// Any JSON, a few levels deep, with the members the checks read.
fn shapes() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-2i64..70000).prop_map(Value::from),
        "ALL|Always|Localhost|Unconfined|windows|Default|Unmasked|[a-z]{0,4}".prop_map(Value::from),
    ];
    crate::common::json_tree(
        leaf.boxed(),
        "containers|initContainers|ephemeralContainers|securityContext|capabilities|add|drop|ports|hostPort|volumes|hostPath|seccompProfile|appArmorProfile|seLinuxOptions|type|sysctls|name|runAsUser|runAsNonRoot|privileged|procMount|hostNetwork|os|livenessProbe|httpGet|host|lifecycle|postStart|[a-z]{1,4}",
        5,
    )
}

proptest::proptest! {
    /// A pod of any shape is checked at every level and version without a panic, and
    /// `latest` checks as v1.34 does.
    #[test]
    fn pods_of_any_shape_are_checked(spec in shapes(), annotations in shapes()) {
        let metadata = json!({"annotations": annotations});
        let options = Options::default();
        for level in [Level::Privileged, Level::Baseline, Level::Restricted] {
            for minor in [0, 8, 19, 22, 25, 31, 34, 99] {
                let _ = pod_security::evaluate(LevelVersion::new(level, Version::V1(minor)), &metadata, &spec, &options);
            }
            proptest::prop_assert_eq!(
                pod_security::evaluate(LevelVersion::new(level, Version::Latest), &metadata, &spec, &options),
                pod_security::evaluate(LevelVersion::new(level, Version::V1(34)), &metadata, &spec, &options)
            );
        }
    }
}
