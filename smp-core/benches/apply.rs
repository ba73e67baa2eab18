//! Applying an image patch to a Pod with 3 and with 50 containers.
//!
//! Each pod gets two groups, so that ratios read off directly:
//! - `apply/podN/in-memory`: `smp` (`apply_owned` on an already-parsed original, the clone done
//!   outside the timing), `smp-cloning` (`apply`, which clones), and `rfc7386` (RFC 7386 JSON
//!   merge patch of the same patch with `json_patch::merge`, the floor for any merge);
//! - `apply/podN/bytes`: parse original and patch from bytes, patch, serialise back to bytes;
//!   `smp`, `rfc7386`, `smp-sparse` (`apply_json`) and `floor` (check both texts without
//!   building anything and copy the original out: what any bytes-to-bytes patch must do).
//!
//! The schema is loaded once, outside the timing, as a long-running process would.
//! `python3 smp-core/benches/report.py` summarises a run.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::Value;
use smp_core::{Schema, apply, apply_json, apply_owned};

/// The same allocator as the `smp` binary, for smp and the RFC 7386 floor alike.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SCHEMA: &str = include_str!("../../examples/pod-schema.json");
const POD: &str = "io.k8s.api.core.v1.Pod";

struct Case {
    name: &'static str,
    original: &'static [u8],
    patch: &'static [u8],
}

const CASES: [Case; 2] = [
    Case {
        name: "pod3",
        original: include_bytes!("fixtures/pod3.json"),
        patch: include_bytes!("fixtures/pod3-image-patch.json"),
    },
    Case {
        name: "pod50",
        original: include_bytes!("fixtures/pod50.json"),
        patch: include_bytes!("fixtures/pod50-image-patch.json"),
    },
];

/// Bytes to a document, as both sides of the bytes benchmark read them: UTF-8 is validated in
/// one pass first, which lets serde_json skip validating each string (about 10% faster than
/// `from_slice` on the Pod fixtures).
fn parse_bytes(bytes: &[u8]) -> Result<Value, Box<dyn std::error::Error>> {
    Ok(serde_json::from_str(std::str::from_utf8(bytes)?)?)
}

fn parse(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).expect("fixture is JSON")
}

/// Fails loudly if the engine does not do what the benchmark claims to measure: one container's
/// image changes, every other container and field stays.
fn check(case: &Case, schema: &Schema) {
    let original = parse(case.original);
    let patch = parse(case.patch);
    let out = apply(&original, &patch, schema).expect("fixture patch applies");
    let target = &patch["spec"]["containers"][0];
    let mut expected = original.clone();
    if let Some(containers) = expected["spec"]["containers"].as_array_mut() {
        for c in containers
            .iter_mut()
            .filter(|c| c["name"] == target["name"])
        {
            c["image"] = target["image"].clone();
        }
    }
    assert!(
        out == expected,
        "{}: unexpected result of the image patch",
        case.name
    );
}

fn bench_case(c: &mut Criterion, case: &Case, schema: &Schema) {
    let original = parse(case.original);
    let patch = parse(case.patch);

    let mut group = c.benchmark_group(format!("apply/{}/in-memory", case.name));
    group.bench_function("smp", |b| {
        b.iter_batched(
            || original.clone(),
            |doc| apply_owned(doc, black_box(&patch), schema),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("smp-cloning", |b| {
        b.iter(|| apply(black_box(&original), black_box(&patch), schema))
    });
    group.bench_function("rfc7386", |b| {
        b.iter_batched(
            || original.clone(),
            |mut doc| {
                json_patch::merge(&mut doc, black_box(&patch));
                doc
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();

    let mut group = c.benchmark_group(format!("apply/{}/bytes", case.name));
    group.bench_function("smp", |b| {
        b.iter(|| -> Result<Vec<u8>, Box<dyn std::error::Error>> {
            let doc = parse_bytes(black_box(case.original))?;
            let patch = parse_bytes(black_box(case.patch))?;
            let out = apply_owned(doc, &patch, schema)?;
            Ok(serde_json::to_vec(&out)?)
        })
    });
    group.bench_function("rfc7386", |b| {
        b.iter(|| -> Result<Vec<u8>, Box<dyn std::error::Error>> {
            let mut doc = parse_bytes(black_box(case.original))?;
            let patch = parse_bytes(black_box(case.patch))?;
            json_patch::merge(&mut doc, &patch);
            Ok(serde_json::to_vec(&doc)?)
        })
    });
    group.finish();
}

/// Fails loudly unless `apply_json` gives the reference's bytes: strict parse, apply, compact
/// serialisation.
fn check_sparse(case: &Case, schema: &Schema) {
    let text = |bytes| std::str::from_utf8(bytes).expect("fixture is UTF-8");
    let (original, patch) = (text(case.original), text(case.patch));
    let reference = {
        let o = smp_core::input::parse_json(original, smp_core::DocRole::Original);
        let p = smp_core::input::parse_json(patch, smp_core::DocRole::Patch);
        let out = apply_owned(
            o.expect("fixture parses"),
            &p.expect("patch parses"),
            schema,
        );
        serde_json::to_string(&out.expect("fixture patch applies")).expect("serialises")
    };
    let sparse = apply_json(original, patch, schema).expect("fixture patch applies");
    assert!(
        sparse == reference,
        "{}: apply_json differs from the reference",
        case.name
    );
}

/// `apply/podN/bytes/smp-sparse`: bytes in, text out with `apply_json`, which reads the
/// original once and builds `Value`s only where the patch looks. Beside it `floor`: what any
/// bytes-to-bytes patch must do at least, on the same input: check both texts are JSON without
/// building anything (`serde_json`'s `IgnoredAny`) and copy the original out.
fn bench_sparse(c: &mut Criterion, case: &Case, schema: &Schema) {
    let mut group = c.benchmark_group(format!("apply/{}/bytes", case.name));
    group.bench_function("smp-sparse", |b| {
        b.iter(|| -> Result<String, Box<dyn std::error::Error>> {
            let original = std::str::from_utf8(black_box(case.original))?;
            let patch = std::str::from_utf8(black_box(case.patch))?;
            Ok(apply_json(original, patch, schema)?)
        })
    });
    group.bench_function("floor", |b| {
        b.iter(|| -> Result<String, Box<dyn std::error::Error>> {
            let original = std::str::from_utf8(black_box(case.original))?;
            let patch = std::str::from_utf8(black_box(case.patch))?;
            serde_json::from_str::<serde::de::IgnoredAny>(original)?;
            serde_json::from_str::<serde::de::IgnoredAny>(patch)?;
            Ok(original.to_owned())
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let doc: Value = serde_json::from_str(SCHEMA).expect("examples/pod-schema.json is JSON");
    let schema = Schema::from_openapi(&doc, POD).expect("example schema loads");
    for case in &CASES {
        check(case, &schema);
        check_sparse(case, &schema);
        bench_case(c, case, &schema);
        bench_sparse(c, case, &schema);
    }
}

criterion_group! {
    name = apply_benches;
    config = Criterion::default()
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(apply_benches);
