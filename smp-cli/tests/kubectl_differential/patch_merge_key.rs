//! What upstream (kubectl, which embeds the Go library) makes of patches created with and
//! without `$patchMergeKey` (`smp diff --patch-merge-key=omit|emit`), beside what `smp patch`
//! makes of them: the facts behind the default (README, "Multi-field merge keys").
//!
//! - Service ports 53/TCP + 53/UDP (merge key `port`, recommended `port,protocol`):
//!   - `omit` (the default) creates upstream's patch; kubectl and smp both collapse the two
//!     ports into one, upstream's known bug, kept as it is;
//!   - `emit`: kubectl keeps `$patchMergeKey` as a literal field of the item (a server asked
//!     for strict field validation rejects it) and still collapses the ports; smp keeps both.
//! - Tolerations (no merge key upstream; recommended `key`): the changed list is sent whole
//!   either way; `emit` adds the directive to its items when merging them would give the same
//!   list, and kubectl then keeps it as a literal field of every toleration.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

const SERVICE: &str = r#"{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "dns"},
  "spec": {"selector": {"app": "dns"}, "ports": [{"name": "dns-tcp", "port": 53, "protocol": "TCP"}]}}"#;

const POD: &str = r#"{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
  "spec": {"containers": [{"name": "app", "image": "app:1"}],
           "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"}]}}"#;

fn write(dir: &Path, name: &str, value: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, value.to_string()).expect("scratch file");
    path.to_string_lossy().into_owned()
}

fn run(program: &Path, args: &[&str]) -> Value {
    let out = Command::new(program).args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "{} {args:?}: {}",
        program.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

/// The patch `smp diff` creates with `setting`, and the results of applying it to `original`
/// with kubectl and with smp: `(patch, kubectl's, smp's)`, each result at `pointer`.
fn through_both(
    kubectl: &Path,
    dir: &Path,
    original: &Value,
    modified: &Value,
    setting: &str,
    pointer: &str,
) -> (Value, Value, Value) {
    let smp = Path::new(env!("CARGO_BIN_EXE_smp"));
    let a = write(dir, &format!("pmk-a-{setting}.json"), original);
    let b = write(dir, &format!("pmk-b-{setting}.json"), modified);
    let flag = format!("--patch-merge-key={setting}");
    let patch = run(smp, &["diff", &flag, &a, &b]);
    let p = write(dir, &format!("pmk-patch-{setting}.json"), &patch);
    let args = [
        "patch",
        "--local",
        "-f",
        &a,
        "--type",
        "strategic",
        "--patch-file",
        &p,
        "-o",
        "json",
    ];
    let by_kubectl = run(kubectl, &args);
    let by_smp = run(smp, &["patch", "-f", &a, "--patch-file", &p]);
    let at = |v: &Value| v.pointer(pointer).cloned().unwrap_or(Value::Null);
    (patch, at(&by_kubectl), at(&by_smp))
}

#[test]
fn created_patches_through_kubectl_with_and_without_the_directive() {
    let kubectl = match super::kubectl() {
        Ok(kubectl) => kubectl,
        Err(why) => {
            println!("SKIPPED: {why}");
            return;
        }
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("patch-merge-key");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let k = kubectl.path.as_path();

    // Service ports: 53/UDP added beside 53/TCP.
    let a: Value = serde_json::from_str(SERVICE).expect("service");
    let mut b = a.clone();
    b["spec"]["ports"]
        .as_array_mut()
        .expect("ports")
        .push(json!({"name": "dns-udp", "port": 53, "protocol": "UDP"}));
    let udp_only = json!([{"name": "dns-udp", "port": 53, "protocol": "UDP"}]);

    let (patch, by_kubectl, by_smp) = through_both(k, &dir, &a, &b, "omit", "/spec/ports");
    assert_eq!(
        patch,
        json!({"spec": {"$setElementOrder/ports": [{"port": 53}, {"port": 53}],
                        "ports": [{"name": "dns-udp", "port": 53, "protocol": "UDP"}]}})
    );
    assert_eq!(by_kubectl, udp_only, "upstream collapses the ports");
    assert_eq!(by_smp, by_kubectl);

    let (patch, by_kubectl, by_smp) = through_both(k, &dir, &a, &b, "emit", "/spec/ports");
    assert_eq!(
        patch["spec"]["ports"],
        json!([{"$patchMergeKey": ["port", "protocol"], "name": "dns-udp", "port": 53, "protocol": "UDP"}])
    );
    assert_eq!(
        by_kubectl,
        json!([{"$patchMergeKey": ["port", "protocol"], "name": "dns-udp", "port": 53, "protocol": "UDP"}]),
        "upstream keeps the directive as a field and collapses the ports"
    );
    assert_eq!(by_smp, b["spec"]["ports"], "smp keeps both ports");

    // Tolerations: one added.
    let a: Value = serde_json::from_str(POD).expect("pod");
    let mut b = a.clone();
    b["spec"]["tolerations"]
        .as_array_mut()
        .expect("tolerations")
        .push(json!({"key": "gpu", "operator": "Exists"}));
    let wanted = b["spec"]["tolerations"].clone();

    let (patch, by_kubectl, by_smp) = through_both(k, &dir, &a, &b, "omit", "/spec/tolerations");
    assert_eq!(patch, json!({"spec": {"tolerations": wanted}}));
    assert_eq!(by_kubectl, wanted);
    assert_eq!(by_smp, wanted);

    let (patch, by_kubectl, by_smp) = through_both(k, &dir, &a, &b, "emit", "/spec/tolerations");
    let mut marked = wanted.clone();
    for item in marked.as_array_mut().expect("list") {
        item["$patchMergeKey"] = json!(["key"]);
    }
    assert_eq!(patch, json!({"spec": {"tolerations": marked}}));
    assert_eq!(
        by_kubectl, marked,
        "upstream keeps the directive as a field"
    );
    assert_eq!(by_smp, wanted);
    println!(
        "checked against {} ({})",
        kubectl.path.display(),
        kubectl.version
    );
}
