//! Where the data this repository does not hold is found, and what a test does without it.
//!
//! Some inputs of the tests and of `smp-codegen` are other projects' files: the Kubernetes
//! OpenAPI documents, the CRDs of Gateway API, cert-manager and Argo CD, the upstream test
//! schemas. They are not committed here; they are provided beside the checkout, in the
//! directory `../shared` (`openapi/`, `crds/`, `conformance/`), or wherever the environment
//! variable [`SHARED_DIR_VAR`] points.
//!
//! A test that needs one asks [`file()`] for it. When it is there, the test runs. When it is not,
//! [`file()`] writes one line naming the test and the missing path to standard error (past the
//! test harness's capture, so it shows in every run) and the test returns early: it neither
//! fails nor passes silently. Under [`REQUIRE_VAR`] (CI sets it, because CI has `../shared`)
//! a missing file fails the test instead.
//!
//! ```no_run
//! let Some(document) = smp_testdata::file("openapi/swagger.json") else {
//!     return; // skipped, and said so
//! };
//! let text = std::fs::read_to_string(document).unwrap();
//! ```

#![warn(missing_docs)]

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The environment variable naming the shared data directory (default: `../shared` beside the
/// checkout).
pub const SHARED_DIR_VAR: &str = "SMP_SHARED_DIR";

/// The environment variable that turns a missing shared file into a test failure (any value
/// but empty or `0`). `.ci/run` sets it.
pub const REQUIRE_VAR: &str = "SMP_REQUIRE_SHARED";

/// The shared data directory: `$SMP_SHARED_DIR` if set, else `shared` beside the workspace
/// (the directory holding this repository's checkout). It may not exist.
pub fn dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(SHARED_DIR_VAR).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    // This crate sits at `<workspace>/testdata`; the shared directory beside the workspace.
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = here.parent().unwrap_or(here);
    workspace.parent().unwrap_or(workspace).join("shared")
}

/// Whether missing shared data must fail the test ([`REQUIRE_VAR`] is set).
pub fn required() -> bool {
    std::env::var(REQUIRE_VAR).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The path of `relative` (a file or a directory) under the shared data directory, if it is
/// there. If not: panics under [`REQUIRE_VAR`], otherwise writes one line saying which test
/// skips for want of what, and returns `None`.
pub fn file(relative: &str) -> Option<PathBuf> {
    let path = dir().join(relative);
    if path.exists() {
        return Some(path);
    }
    let test = std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .map_or_else(|| "a test".to_owned(), str::to_owned);
    let need = format!(
        "needs {} (shared data, not in this repository: put the shared directory beside the \
         checkout, or name it in {SHARED_DIR_VAR})",
        path.display()
    );
    if required() {
        panic!("{test} {need}; {REQUIRE_VAR} is set, so it may not skip");
    }
    // Straight to the process's standard error: the test harness captures `eprintln!`, and a
    // skip must show in every run.
    let _ = writeln!(std::io::stderr().lock(), "skipped {test}: {need}");
    None
}

/// Where a test looks for kubectl, in order: `$SMP_KUBECTL`, the copy `.ci/install-kubectl`
/// caches (`~/.cache/smp/kubectl/kubectl`), then each directory of `PATH`. Each test decides
/// which candidate it takes (the first file, or the first of a version it supports) and says
/// so when there is none.
pub fn kubectl_candidates() -> impl Iterator<Item = PathBuf> {
    let from_env = std::env::var_os("SMP_KUBECTL").map(PathBuf::from);
    let cached =
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/smp/kubectl/kubectl"));
    let on_path: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join("kubectl"))
                .collect()
        })
        .unwrap_or_default();
    from_env.into_iter().chain(cached).chain(on_path)
}
