//! Creating patches: the typed diff (`#[derive(StrategicMerge)]`) against the Value engine's
//! `diff` on parsed documents and against the round trip (serialize both, then the engine), in
//! memory and bytes to bytes; and the three-way patch of `kubectl apply`. One run, so the
//! ratios compare like with like. The Go reference takes 1.6–2.2 ms in memory and 3.6 ms bytes
//! to bytes for the one-image diff, 6.3 ms for the three-way.
//!
//! Run with `cargo bench -p smp-core --bench diff`; `benches/report.py` prints the ratios.

mod common {
    pub mod pod;
}

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use smp_core::StrategicMerge;

use common::pod::Pod;

/// The same allocator as the `smp` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const POD50: &[u8] = include_bytes!("fixtures/pod50.json");
const IMAGE: &[u8] = include_bytes!("fixtures/pod50-image-modified.json");
const MANY: &[u8] = include_bytes!("fixtures/pod50-many-modified.json");
const CURRENT: &[u8] = include_bytes!("fixtures/pod50-current.json");

/// Bytes to a document as the `apply` benchmark reads them (UTF-8 validated once).
fn parse(bytes: &[u8]) -> Value {
    serde_json::from_str(std::str::from_utf8(bytes).expect("UTF-8")).expect("fixture is JSON")
}

fn typed(bytes: &[u8]) -> Pod {
    serde_json::from_str(std::str::from_utf8(bytes).expect("UTF-8")).expect("fixture fits Pod")
}

/// The Value path, bytes to bytes: parse both, diff, print the patch.
fn value_bytes(original: &[u8], modified: &[u8]) -> String {
    let patch = smp_core::diff(&parse(original), &parse(modified), Pod::schema()).expect("diff");
    serde_json::to_string(&patch).expect("prints")
}

/// The typed path, bytes to bytes: deserialize both, diff, print the patch.
fn typed_bytes(original: &[u8], modified: &[u8]) -> String {
    typed(original)
        .diff(&typed(modified))
        .expect("typed diff")
        .to_json()
}

fn bench_two_way(c: &mut Criterion) {
    let base = parse(POD50);
    let pod = typed(POD50);
    for (name, bytes) in [("image", IMAGE), ("many", MANY)] {
        let doc = parse(bytes);
        let modified = typed(bytes);
        // The contract: the engine's diff of the two values' JSON forms (the fixtures are not
        // exactly what the Pod type serializes, so the raw fixtures are not the reference).
        let want = smp_core::diff(
            &serde_json::to_value(&pod).expect("serializes"),
            &serde_json::to_value(&modified).expect("serializes"),
            Pod::schema(),
        )
        .expect("engine diff");
        let got = pod.diff(&modified).expect("typed diff");
        assert_eq!(got.as_value(), &want, "typed diff differs from the engine");
        assert!(!got.is_empty(), "the benchmark must diff something");

        let mut group = c.benchmark_group(format!("diff/pod50-{name}/in-memory"));
        group.bench_function("typed", |b| {
            b.iter(|| black_box(&pod).diff(black_box(&modified)))
        });
        group.bench_function("value", |b| {
            b.iter(|| smp_core::diff(black_box(&base), black_box(&doc), Pod::schema()))
        });
        group.bench_function("round-trip", |b| {
            b.iter(|| {
                let x = serde_json::to_value(black_box(&pod)).expect("serializes");
                let y = serde_json::to_value(black_box(&modified)).expect("serializes");
                smp_core::diff(&x, &y, Pod::schema())
            })
        });
        group.finish();

        let mut group = c.benchmark_group(format!("diff/pod50-{name}/bytes"));
        group.bench_function("typed", |b| {
            b.iter(|| typed_bytes(black_box(POD50), black_box(bytes)))
        });
        group.bench_function("value", |b| {
            b.iter(|| value_bytes(black_box(POD50), black_box(bytes)))
        });
        let (original, modified) = (text(POD50), text(bytes));
        assert_eq!(
            sparse_bytes(original, modified),
            value_bytes(POD50, bytes),
            "diff_json differs from the Value path"
        );
        group.bench_function("sparse", |b| {
            b.iter(|| sparse_bytes(black_box(original), black_box(modified)))
        });
        group.finish();
    }
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("UTF-8")
}

/// `diff_json`, text to text.
fn sparse_bytes(original: &str, modified: &str) -> String {
    smp_core::diff_json(original, modified, Pod::schema(), &Default::default()).expect("diff")
}

fn bench_three_way(c: &mut Criterion) {
    // `kubectl apply` overwrites; `--overwrite=false` also checks conflicts, the costlier work.
    let settings = [
        ("overwrite", smp_core::ThreeWayOptions::default()),
        ("refuse", smp_core::ThreeWayOptions::refusing_conflicts()),
    ];
    let (original, modified, current) = (parse(POD50), parse(IMAGE), parse(CURRENT));
    let (a, b, l) = (typed(POD50), typed(IMAGE), typed(CURRENT));
    let texts = (text(POD50), text(IMAGE), text(CURRENT));
    for (name, options) in &settings {
        let want = smp_core::three_way(
            &serde_json::to_value(&a).expect("serializes"),
            &serde_json::to_value(&b).expect("serializes"),
            &serde_json::to_value(&l).expect("serializes"),
            Pod::schema(),
            options,
        )
        .expect("engine three-way");
        let got = Pod::three_way(&a, &b, &l, options).expect("typed three-way");
        assert_eq!(
            got.as_value(),
            &want,
            "typed three-way differs from the engine"
        );

        let mut group = c.benchmark_group(format!("three-way-{name}/pod50-image/in-memory"));
        group.bench_function("typed", |bench| {
            bench.iter(|| Pod::three_way(black_box(&a), black_box(&b), black_box(&l), options))
        });
        group.bench_function("value", |bench| {
            bench.iter(|| {
                smp_core::three_way(
                    black_box(&original),
                    black_box(&modified),
                    black_box(&current),
                    Pod::schema(),
                    options,
                )
            })
        });
        group.finish();

        let value_bytes = || {
            let patch = smp_core::three_way(
                &parse(black_box(POD50)),
                &parse(black_box(IMAGE)),
                &parse(black_box(CURRENT)),
                Pod::schema(),
                options,
            )
            .expect("three-way");
            serde_json::to_string(&patch).expect("prints")
        };
        let sparse = || {
            smp_core::three_way_json(
                black_box(texts.0),
                black_box(texts.1),
                black_box(texts.2),
                Pod::schema(),
                options,
            )
            .expect("three-way")
        };
        assert_eq!(sparse(), value_bytes(), "three_way_json differs");
        let mut group = c.benchmark_group(format!("three-way-{name}/pod50-image/bytes"));
        group.bench_function("value", |bench| bench.iter(value_bytes));
        group.bench_function("sparse", |bench| bench.iter(sparse));
        group.finish();
    }
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(50)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
}

criterion_group! { name = benches; config = config(); targets = bench_two_way, bench_three_way }
criterion_main!(benches);
