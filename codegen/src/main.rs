//! `cargo run -p smp-codegen` regenerates smp-types from `codegen/openapi/swagger.json` and
//! `codegen/overlay.toml`; `cargo run -p smp-codegen -- --check` only says whether the committed
//! code is up to date (exit status 1 if not).

#![warn(missing_docs)]

use std::process::ExitCode;

use smp_codegen::{Paths, generate};

fn main() -> ExitCode {
    let check = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--check") => true,
        Some(other) => {
            eprintln!("usage: smp-codegen [--check]\nunexpected argument: {other}");
            return ExitCode::from(2);
        }
    };
    let paths = Paths::default();
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
