//! Every command of the README and of the guides (`smp-core/src/guide`) runs as written and
//! succeeds. The `smp ...` lines of each ```` ```bash ```` block run as one bash script, with the `smp` under test first on `PATH`, in a
//! scratch directory where `examples/` is the repository's; `cargo run ... smp-cli -- ARGS` runs
//! the binary with ARGS from the repository root. The other commands are the set-up and install
//! lines, which CI itself runs, and the tools run by hand (benchmarks, fuzzing, the timed
//! scaling suite), listed below so that a new one is not left unchecked by mistake.

mod common;

use std::path::Path;
use std::process::Command;

use common::{assert_success, root, smp};

/// The lines besides `smp` and `cargo run` that the documents may hold: CI's own commands,
/// and tools run by hand.
const RUN_ELSEWHERE: [&str; 8] = [
    "cargo test --workspace",
    "cargo install --path smp-cli",
    "cargo bench -p smp-core",
    "python3 smp-core/benches/report.py",
    "cargo test --release -p smp-tests --test scaling -- --ignored --nocapture",
    "cargo install cargo-fuzz",
    "python3 fuzz/seed_corpus.py",
    "cargo +nightly fuzz run diff -- -max_total_time=600",
];

/// The prefix of a README line that runs smp through cargo.
const CARGO_RUN: [&str; 2] = [
    "cargo run --release -p smp-cli -- ",
    "cargo run -q -p smp-cli -- ",
];

fn bash_blocks(readme: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut rest = readme;
    while let Some(start) = rest.find("```bash\n") {
        let body = &rest[start + "```bash\n".len()..];
        let end = body.find("```").expect("closing fence");
        blocks.push(body[..end].to_owned());
        rest = &body[end..];
    }
    blocks
}

/// The README and every guide.
fn documents() -> Vec<(String, String)> {
    let mut files = vec![root().join("README.md")];
    let guides = root().join("smp-core/src/guide");
    let mut mds: Vec<_> = std::fs::read_dir(&guides)
        .expect("guides")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    mds.sort();
    files.extend(mds);
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).expect("readable");
            (f.display().to_string(), text)
        })
        .collect()
}

#[test]
fn every_documented_command_runs() {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme-commands");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    std::os::unix::fs::symlink(root().join("examples"), scratch.join("examples")).expect("link");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_smp"))
        .parent()
        .expect("bin dir");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (mut scripts, mut cargo_runs) = (0, 0);
    for (file, text) in documents() {
        for block in bash_blocks(&text) {
            let mut script = String::from("set -euo pipefail\n");
            for line in block.lines().map(str::trim).filter(|l| !l.is_empty()) {
                if let Some(args) = CARGO_RUN.iter().find_map(|p| line.strip_prefix(p)) {
                    let args: Vec<&str> = args.split_whitespace().collect();
                    assert_success(&smp(&args, None));
                    cargo_runs += 1;
                } else if !line.starts_with("smp ") {
                    assert!(
                        RUN_ELSEWHERE.contains(&line),
                        "{file}: a command nothing runs: {line}"
                    );
                } else {
                    script.push_str(line);
                    script.push('\n');
                }
            }
            if script.lines().count() > 1 {
                let out = Command::new("bash")
                    .arg("-c")
                    .arg(&script)
                    .current_dir(&scratch)
                    .env("PATH", &path)
                    .output()
                    .expect("bash runs");
                assert!(
                    out.status.success(),
                    "{file}: commands failed:\n{script}\nstderr: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                scripts += 1;
            }
        }
    }
    assert!(
        cargo_runs >= 1 && scripts >= 4,
        "{cargo_runs} cargo runs, {scripts} scripts"
    );
}
