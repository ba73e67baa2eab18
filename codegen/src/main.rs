//! `cargo run -p smp-codegen` regenerates smp-types from the Kubernetes OpenAPI document and
//! `codegen/overlay.toml`; `cargo run -p smp-codegen -- --check` only says whether the committed
//! code is up to date (exit status 1 if not).
//!
//! The document is `../shared/openapi/swagger.json` beside the checkout unless `--spec FILE`
//! or the environment variable `SMP_CODEGEN_SPEC` names another, such as a cluster's own
//! (`kubectl get --raw /openapi/v2 > swagger.json`).

#![warn(missing_docs)]

use std::path::PathBuf;
use std::process::ExitCode;

use smp_codegen::{Paths, generate};

const USAGE: &str = "usage: smp-codegen [--check] [--spec FILE] | smp-codegen --ssa [--check] \
                     [--spec DIR] | smp-codegen --resources [--check] [--spec FILE] | \
                     smp-codegen --openapi [--check] [--spec DIR]";

fn main() -> ExitCode {
    let mut check = false;
    let mut ssa = false;
    let mut resources = false;
    let mut openapi = false;
    let mut spec = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--ssa" => ssa = true,
            "--resources" => resources = true,
            "--openapi" => openapi = true,
            "--spec" => match args.next() {
                Some(file) => spec = Some(PathBuf::from(file)),
                None => {
                    eprintln!("{USAGE}\n--spec needs a file");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!(
                    "{USAGE}\n\nRegenerates smp-types/src from an OpenAPI v2 document (default: \
                     $SMP_CODEGEN_SPEC, else ../shared/openapi/swagger.json beside the checkout) \
                     and codegen/overlay.toml.\n  --check       only compare with the committed \
                     code (exit status 1 if it differs)\n  --spec FILE   the document to read\n\n\
                     With --ssa: regenerates smp-ssa/src/builtin/kubernetes.json from the OpenAPI \
                     v3 documents (default: ../shared/openapi/v3 beside the checkout; --spec DIR).\n\n\
                     With --resources: regenerates smp-apiserver/src/discovery/resources.json (the \
                     resources the API serves) from the v2 document.\n\n\
                     With --openapi: regenerates smp-apiserver/src/openapi/schemas.json (the \
                     schemas the API publishes, without descriptions) from the v3 documents \
                     (default: ../shared/openapi/v3; --spec DIR)."
                );
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("{USAGE}\nunexpected argument: {other}");
                return ExitCode::from(2);
            }
        }
    }
    if ssa {
        return ssa_schema(spec, check);
    }
    if resources {
        return resource_table(spec, check);
    }
    if openapi {
        return schema_table(spec, check);
    }
    let paths = spec.map_or_else(Paths::default, Paths::with_spec);
    let output = match generate(&paths) {
        Ok(output) => output,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = if check {
        output.differences(&paths.out).map(|diffs| {
            for d in &diffs {
                eprintln!("{d}");
            }
            diffs.is_empty()
        })
    } else {
        output.write(&paths.out).map(|()| {
            println!(
                "wrote {} files under {}",
                output.files.len(),
                paths.out.display()
            );
            true
        })
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("smp-types is out of date: run `cargo run -p smp-codegen`");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Regenerates (or, with `check`, compares) smp-apiserver's resource table from the v2 document.
fn resource_table(spec: Option<PathBuf>, check: bool) -> ExitCode {
    let Some(spec) = spec.or_else(|| smp_testdata::file("openapi/swagger.json")) else {
        eprintln!("error: no OpenAPI v2 document: ../shared/openapi/swagger.json is missing");
        return ExitCode::FAILURE;
    };
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../smp-apiserver/src/discovery/resources.json");
    let text = std::fs::read(&spec)
        .map_err(|e| format!("{}: {e}", spec.display()))
        .and_then(|text| {
            serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", spec.display()))
        })
        .and_then(|doc| smp_codegen::resources::resource_table(&doc));
    let text = match text {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    write_or_check(&out, &text, check, "--resources")
}

/// Regenerates (or, with `check`, compares) smp-apiserver's schema table from the v3
/// documents.
fn schema_table(dir: Option<PathBuf>, check: bool) -> ExitCode {
    let Some(dir) = dir.or_else(|| smp_testdata::file("openapi/v3")) else {
        eprintln!(
            "error: no OpenAPI v3 documents: ../shared/openapi/v3 is missing (give --spec DIR)"
        );
        return ExitCode::FAILURE;
    };
    let out =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../smp-apiserver/src/openapi/schemas.json");
    match smp_codegen::openapi::schema_table(&dir) {
        Ok(text) => write_or_check(&out, &text, check, "--openapi"),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes `text` to `out`, or with `check` only says whether `out` holds it already.
fn write_or_check(out: &std::path::Path, text: &str, check: bool, flag: &str) -> ExitCode {
    if check {
        if std::fs::read_to_string(out).is_ok_and(|old| old == text) {
            return ExitCode::SUCCESS;
        }
        eprintln!(
            "{} is out of date: run `cargo run -p smp-codegen -- {flag}`",
            out.display()
        );
        return ExitCode::FAILURE;
    }
    match std::fs::write(out, text) {
        Ok(()) => {
            println!("wrote {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}

/// Regenerates (or, with `check`, compares) smp-ssa's built-in schema from the v3 documents.
fn ssa_schema(dir: Option<PathBuf>, check: bool) -> ExitCode {
    let Some(dir) = dir.or_else(|| smp_testdata::file("openapi/v3")) else {
        eprintln!(
            "error: no OpenAPI v3 documents: ../shared/openapi/v3 is missing (give --spec DIR)"
        );
        return ExitCode::FAILURE;
    };
    let out =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../smp-ssa/src/builtin/kubernetes.json");
    let text = match smp_codegen::ssa::compact_schema(&dir) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    write_or_check(&out, &text, check, "--ssa")
}
