//! Custom resources admitted by their CRD, on Gateway API's CEL-heavy `HTTPRoute` (the CRD and
//! the instance of `../shared/crds/gateway-api`): reading and compiling the CRD once, then per
//! object the decoding (pruning), the defaults, and validation with and without its rules run
//! (the target: admission under 50 µs). Needs the shared data; says so and measures
//! nothing without it.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use serde_json::Value;
use smp_admission::customresource::{Definition, Definitions};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn documents(relative: &str) -> Option<Vec<Value>> {
    let path = smp_testdata::file(relative)?;
    let text = std::fs::read_to_string(path).ok()?;
    smp_core::input::parse_documents(&text, smp_core::DocRole::Original).ok()
}

fn bench(c: &mut Criterion) {
    let (Some(crds), Some(routes)) = (
        documents("crds/gateway-api/crds/gateway.networking.k8s.io_httproutes.yaml"),
        documents("crds/gateway-api/instances/httproute-storefront.yaml"),
    ) else {
        eprintln!("skipped custom resource benchmarks: needs ../shared/crds/gateway-api");
        return;
    };
    let crd = &crds[0];
    let mut route = routes[0].clone();
    // As it is written, not as it is read back.
    if let Some(object) = route.as_object_mut() {
        object.remove("status");
    }
    let mut group = c.benchmark_group("customresource");
    group.bench_function("HTTPRoute CRD, read and compile its rules", |b| {
        b.iter(|| Definition::from_crd(black_box(crd)).unwrap())
    });
    let mut definitions = Definitions::new();
    definitions.add(crd).unwrap();
    let definition = definitions.definition_of(&route).unwrap().clone();
    let mut admitted = route.clone();
    definitions.admit(&mut admitted).unwrap();
    assert_eq!(
        definition.errors_on_create(&admitted).unwrap(),
        vec![],
        "the benchmark's object is valid"
    );
    group.bench_function("HTTPRoute, prune and default", |b| {
        b.iter_batched(
            || route.clone(),
            |mut object| {
                let unknown = definitions.admit(&mut object).unwrap();
                black_box((object, unknown))
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("HTTPRoute, validate (schema and CEL rules)", |b| {
        b.iter(|| definition.errors_on_create(black_box(&admitted)).unwrap())
    });
    group.bench_function("HTTPRoute, admit: prune, default and validate", |b| {
        b.iter_batched(
            || route.clone(),
            |mut object| {
                definitions.admit(&mut object).unwrap();
                let errors = definition.errors_on_create(&object).unwrap();
                black_box((object, errors))
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
