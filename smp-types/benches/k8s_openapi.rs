//! k8s-openapi's `Pod` patched through `smp_types::k8s_openapi` (a JSON round trip through the
//! `Value` engine with smp-types' schema) against smp-types' own typed `Pod` and the `Value`
//! engine on an already-parsed document, in one run, on the fixtures of smp-core's benchmarks:
//! apply of the one-image patch and two-way diff against the one-image modification, for the
//! 3- and 50-container Pods. Like for like: every row starts from and ends with a value in
//! memory (k8s-openapi struct, smp-types struct, `serde_json::Value`); none parses bytes.
//!
//! Run with `cargo bench -p smp-types --features k8s-openapi --bench k8s_openapi`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::Value;
use smp_core::{Patch, StrategicMerge, apply_owned};
use smp_types::k8s_openapi::StrategicMergeExt;

/// The same allocator as the `smp` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

type K8sPod = k8s_openapi::api::core::v1::Pod;
type SmpPod = smp_types::api::core::v1::Pod;

fn fixture(name: &str) -> Value {
    let path = format!(
        "{}/../smp-core/benches/fixtures/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_slice(&std::fs::read(&path).expect("fixture")).expect("fixture is JSON")
}

fn bench(c: &mut Criterion) {
    for pod in ["pod3", "pod50"] {
        let doc = fixture(pod);
        let patch_value = fixture(&format!("{pod}-image-patch"));
        let modified_doc = fixture(&format!("{pod}-image-modified"));
        let patch = Patch::from_value(patch_value.clone()).expect("patch");
        let schema = SmpPod::schema();
        let k8s: K8sPod = serde_json::from_value(doc.clone()).expect("fits k8s-openapi's Pod");
        let k8s_modified: K8sPod = serde_json::from_value(modified_doc.clone()).expect("fits");
        let smp: SmpPod = serde_json::from_value(doc.clone()).expect("fits smp-types' Pod");
        let smp_modified: SmpPod = serde_json::from_value(modified_doc.clone()).expect("fits");

        // The paths agree before they are timed.
        let mut a = k8s.clone();
        a.apply(&patch).expect("applies");
        let mut b = smp.clone();
        b.apply(&patch).expect("applies");
        assert_eq!(
            serde_json::to_value(&a).expect("json"),
            serde_json::to_value(&b).expect("json")
        );
        assert_eq!(
            k8s.diff(&k8s_modified).expect("diff"),
            smp.diff(&smp_modified).expect("diff")
        );

        let mut group = c.benchmark_group(format!("k8s-openapi/{pod}/apply"));
        group.bench_function("k8s-openapi", |b| {
            b.iter_batched_ref(
                || k8s.clone(),
                |p| p.apply(black_box(&patch)),
                BatchSize::SmallInput,
            )
        });
        group.bench_function("smp-types", |b| {
            b.iter_batched_ref(
                || smp.clone(),
                |p| p.apply(black_box(&patch)),
                BatchSize::SmallInput,
            )
        });
        group.bench_function("value", |b| {
            b.iter_batched(
                || doc.clone(),
                |d| apply_owned(d, black_box(&patch_value), schema),
                BatchSize::SmallInput,
            )
        });
        group.finish();

        let mut group = c.benchmark_group(format!("k8s-openapi/{pod}/diff"));
        group.bench_function("k8s-openapi", |b| {
            b.iter(|| black_box(&k8s).diff(black_box(&k8s_modified)))
        });
        group.bench_function("smp-types", |b| {
            b.iter(|| black_box(&smp).diff(black_box(&smp_modified)))
        });
        group.bench_function("value", |b| {
            b.iter(|| smp_core::diff(black_box(&doc), black_box(&modified_doc), schema))
        });
        group.finish();
    }
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(50)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
}

criterion_group! { name = benches; config = config(); targets = bench }
criterion_main!(benches);
