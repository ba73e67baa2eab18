//! Formatting with `rustfmt`, so that the generated files are exactly what `cargo fmt` keeps
//! (CI checks the whole workspace with `cargo fmt --check`).
//!
//! The files are written to a scratch directory, formatted there in one `rustfmt` run with the
//! workspace's edition, and read back. `rustfmt` comes with the toolchain (`rustup component
//! add rustfmt`); without it generation fails and says so.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::Error;

/// The workspace's edition, which selects rustfmt's style edition as `cargo fmt` does.
const EDITION: &str = "2024";

/// Formats every file.
pub fn rustfmt(files: BTreeMap<PathBuf, String>) -> Result<BTreeMap<PathBuf, String>, Error> {
    let dir = Scratch::new()?;
    for (path, text) in &files {
        let full = dir.0.join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Error::new(format!("creating {}: {e}", parent.display())))?;
        }
        std::fs::write(&full, text)
            .map_err(|e| Error::new(format!("writing {}: {e}", full.display())))?;
    }
    // Formatting a `mod.rs` formats the files it declares too; formatting is idempotent.
    let mut command = Command::new(rustfmt_program());
    command.arg("--edition").arg(EDITION);
    for path in files.keys() {
        command.arg(dir.0.join(path));
    }
    let output = command
        .output()
        .map_err(|e| Error::new(format!("running rustfmt (is it installed?): {e}")))?;
    if !output.status.success() {
        return Err(Error::new(format!(
            "rustfmt failed on the generated code:\n{}",
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    let mut out = BTreeMap::new();
    for path in files.keys() {
        let full = dir.0.join(path);
        let text = std::fs::read_to_string(&full)
            .map_err(|e| Error::new(format!("reading {}: {e}", full.display())))?;
        out.insert(path.clone(), text);
    }
    Ok(out)
}

/// `$RUSTFMT`, else `rustfmt` from `PATH`.
fn rustfmt_program() -> String {
    std::env::var("RUSTFMT").unwrap_or_else(|_| "rustfmt".to_owned())
}

/// A directory removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, Error> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("smp-codegen-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| Error::new(format!("creating {}: {e}", dir.display())))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
