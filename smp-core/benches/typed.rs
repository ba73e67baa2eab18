//! Typed apply (`#[derive(StrategicMerge)]`) against the JSON round trip through the Value
//! engine and the Value engine alone, in one run. Go's in-memory apply of the one-image patch to
//! the 50-container Pod takes about 250 µs on this kind of machine.
//!
//! Run with `cargo bench -p smp-core --bench typed`; `benches/report.py` prints the ratios.

mod common {
    pub mod pod;
}

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use smp_core::{Patch, StrategicMerge, ValuePatch, apply_owned};

use common::pod::{Pod, PodPatch};

/// The same allocator as the `smp` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn fixture(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).expect("fixture is JSON")
}

/// A patch that changes the image of every container, naming them in live order.
fn every_container(pod: &Value) -> Value {
    let containers: Vec<Value> = pod["spec"]["containers"]
        .as_array()
        .expect("containers")
        .iter()
        .map(|c| json!({"name": c["name"], "image": "registry.example.com/team/app:9.9.9"}))
        .collect();
    json!({"spec": {"containers": containers}})
}

fn round_trip(pod: &Pod, patch: &Value) -> Pod {
    let value = serde_json::to_value(pod).expect("serializes");
    let out = apply_owned(value, patch, Pod::schema()).expect("applies");
    serde_json::from_value(out).expect("deserializes")
}

/// The three paths must agree before they are timed.
fn check(pod: &Pod, patch: &Value) {
    let mut typed = pod.clone();
    typed
        .apply(&Patch::from_value(patch.clone()).expect("patch"))
        .expect("typed apply");
    assert_eq!(
        typed,
        round_trip(pod, patch),
        "typed apply differs from the round trip"
    );
}

fn bench(c: &mut Criterion) {
    let cases = [
        (
            "pod3/image",
            fixture(include_bytes!("fixtures/pod3.json")),
            fixture(include_bytes!("fixtures/pod3-image-patch.json")),
        ),
        (
            "pod50/image",
            fixture(include_bytes!("fixtures/pod50.json")),
            fixture(include_bytes!("fixtures/pod50-image-patch.json")),
        ),
    ];
    let pod50 = fixture(include_bytes!("fixtures/pod50.json"));
    let every = every_container(&pod50);
    let cases = cases
        .into_iter()
        .chain([("pod50/every-container", pod50, every)]);

    for (name, doc, patch_value) in cases {
        let pod: Pod = serde_json::from_value(doc.clone()).expect("fixture fits the Pod type");
        check(&pod, &patch_value);
        let patch = Patch::from_value(patch_value.clone()).expect("patch");

        let mut group = c.benchmark_group(format!("typed/{name}"));
        group.bench_function("typed", |b| {
            b.iter_batched_ref(
                || pod.clone(),
                |p| p.apply(black_box(&patch)),
                BatchSize::SmallInput,
            )
        });
        group.bench_function("round-trip", |b| {
            b.iter(|| round_trip(black_box(&pod), black_box(&patch_value)))
        });
        group.bench_function("engine", |b| {
            b.iter_batched(
                || doc.clone(),
                |d| apply_owned(d, black_box(&patch_value), Pod::schema()),
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

/// The typed patch of `pod50-image-patch.json`: container `c25`'s image.
fn image_patch() -> PodPatch {
    PodPatch::new().spec_with(|s| {
        s.containers(|c| c.item("c25", |c| c.image("registry.example.com/team/app:2.0.0")))
    })
}

/// Typed patches (`PodPatch`): built and serialized (what a client sends), and applied
/// directly, beside the typed apply of the same patch as a `Patch`, in one run.
fn typed_patch(c: &mut Criterion) {
    let doc = fixture(include_bytes!("fixtures/pod50.json"));
    let json = fixture(include_bytes!("fixtures/pod50-image-patch.json"));
    let pod: Pod = serde_json::from_value(doc).expect("fixture fits the Pod type");
    let typed = image_patch();
    assert_eq!(typed.to_value().expect("writes"), json, "the same patch");
    let patch = Patch::from_value(json).expect("patch");
    let (mut a, mut b) = (pod.clone(), pod.clone());
    a.apply_patch(&typed).expect("applies");
    b.apply(&patch).expect("applies");
    assert_eq!(a, b);

    let mut group = c.benchmark_group("typed-patch/pod50/image");
    group.bench_function("build+serialize", |b| {
        b.iter(|| serde_json::to_vec(&black_box(image_patch())))
    });
    group.bench_function("apply_patch", |b| {
        b.iter_batched_ref(
            || pod.clone(),
            |p| p.apply_patch(black_box(&typed)),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("apply", |b| {
        b.iter_batched_ref(
            || pod.clone(),
            |p| p.apply(black_box(&patch)),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(50)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
}

criterion_group! { name = benches; config = config(); targets = bench, typed_patch }
criterion_main!(benches);
