//! The official Python client against the server over HTTP: `python/client.py`, with the
//! Python of `$SMP_PYTHON`, else of the environment `.ci/install-python-client` makes
//! (`~/.cache/smp/python-client`). Without either it says so and does nothing.

use std::path::PathBuf;
use std::process::Command;

use smp_apiserver::ApiServer;
use smp_apiserver::serve::Background;

/// A Python that has the `kubernetes` client.
fn python() -> Option<PathBuf> {
    let from_env = std::env::var_os("SMP_PYTHON").map(PathBuf::from);
    let cached = std::env::var_os("HOME")
        .map(|h| PathBuf::from(h).join(".cache/smp/python-client/bin/python"));
    from_env.into_iter().chain(cached).find(|p| {
        p.is_file()
            && Command::new(p)
                .args(["-c", "import kubernetes"])
                .output()
                .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn the_official_python_client() {
    let Some(python) = python() else {
        eprintln!(
            "the Python kubernetes client not found (SMP_PYTHON, .ci/install-python-client): not run"
        );
        return;
    };
    let server = Background::start(ApiServer::default()).expect("the server starts");
    let dir = std::env::temp_dir().join(format!("smp-real-python-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("kubeconfig.yaml");
    std::fs::write(&config, server.kubeconfig()).unwrap();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/real_clients/python/client.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg(&config)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.ends_with("done\n"), "{stdout}");
}
