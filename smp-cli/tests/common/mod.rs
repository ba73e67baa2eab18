//! Helpers shared by the end-to-end tests of the `smp` binary.

// Each test binary uses a different subset of the helpers.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub const SCHEMA: &str = "examples/pod-schema.json#io.k8s.api.core.v1.Pod";

/// The workspace root, so `examples/...` paths work as they do in the README.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("smp-cli sits in the workspace")
        .to_path_buf()
}

/// Runs `smp` in the workspace root with `stdin` (if any) on standard input.
pub fn smp(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_smp"))
        .args(args)
        .current_dir(root())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn smp");
    // Write from another thread: large inputs must not block on a full pipe while smp writes.
    let writer = stdin.map(|text| {
        let mut pipe = child.stdin.take().expect("piped stdin");
        let text = text.to_owned();
        std::thread::spawn(move || {
            // smp may exit before reading everything (usage errors): ignore broken pipes.
            let _ = pipe.write_all(text.as_bytes());
        })
    });
    let out = child.wait_with_output().expect("wait for smp");
    if let Some(w) = writer {
        w.join().expect("stdin writer");
    }
    out
}

/// A file under the test's scratch directory holding `text`.
pub fn temp_file(name: &str, text: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("smp-cli-tests");
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write scratch file");
    path.to_str().expect("UTF-8 scratch path").to_owned()
}

pub fn stdout_json(out: &Output) -> Value {
    assert_success(out);
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "smp failed: {:?}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Status 1, nothing on stdout, one `error: ` line on stderr mentioning each of `needles`.
#[track_caller]
pub fn assert_error(out: &Output, needles: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(out.stdout.is_empty(), "stdout: {:?}", out.stdout);
    assert!(
        stderr.starts_with("error: ") && stderr.ends_with('\n') && stderr.lines().count() == 1,
        "not one error line: {stderr:?}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{needle:?} missing from {stderr:?}"
        );
    }
}

#[track_caller]
pub fn assert_usage_error(out: &Output) {
    assert_eq!(
        out.status.code(),
        Some(2),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
}

/// The example patch applied to the example Pod with the example OpenAPI schema.
pub fn pod_example() -> Output {
    smp(
        &[
            "merge",
            "--schema",
            SCHEMA,
            "examples/pod.yaml",
            "examples/patch.yaml",
        ],
        None,
    )
}

/// The README's first set-up command: the example patch applied to the example Deployment,
/// typed by its kind.
pub fn readme_example() -> Output {
    smp(
        &[
            "patch",
            "-f",
            "examples/deployment.yaml",
            "--patch-file",
            "examples/deployment-patch.yaml",
        ],
        None,
    )
}
