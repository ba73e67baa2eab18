//! The field manager on the fixture: Deployment `web` (apps/v1, replicas 3, selector
//! and labels `app: web`) whose pod template spec is the spec of `../shared/bench/pod3.json` or
//! `pod50.json`; the live object is what the API server holds after "kubectl" applied it,
//! "hpa" applied `spec.replicas: 3` with force, "ctrl" updated the last container's image and
//! "kubectl" applied again with that image. Measured, each beside the floor of smp-core's
//! `apply/<pod>/bytes/floor` in the same run (both texts of the pod's image patch checked as JSON
//! without building anything, the original copied out), so that ratios in floors compare like
//! with like:
//! - `apply create`: kubectl's apply creating the object;
//! - `apply no change`: kubectl applying its configuration again over the live object;
//! - `apply image`: kubectl applying with the first container's image changed;
//! - `update image`: "ctrl" writing the object with the second container's image changed;
//! - `fields_v1 decode+encode`: kubectl's managedFields entry read and written again.
//!
//! Inputs are built outside the timing; each call gets its own copy, made just before it (as
//! the Go figures were taken: timer stopped, input copied, timer started, call). Copies made
//! by the batch ahead of the calls measured the copying's effect on the caches too: with
//! them, pod50's update moved between 560 and 750 µs from run to run.
//! The types are smp-ssa's built-in ones. Needs the shared data (the pods); says so and
//! measures nothing without it.

use std::hint::black_box;
use std::time::Duration;

use criterion::BatchSize;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use smp_ssa::fieldpath::{Set, fields_v1};
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager};
use smp_ssa::schema::Gvk;
use smp_ssa::typed::{ReadOptions, field_set};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn read(relative: &str) -> Option<Vec<u8>> {
    let path = smp_testdata::file(relative)?;
    Some(std::fs::read(path).expect("readable"))
}

/// The Deployment of the fixture, around a pod's spec.
fn deployment(pod: &Value) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "labels": {"app": "web"}},
        "spec": {
            "replicas": 3,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": pod["spec"].clone()}
        }
    })
}

/// The applied configuration's fields without those the server never tracks.
fn entry(set: &Set) -> Set {
    let untracked = Set::from_paths([
        smp_ssa::fieldpath::Path::fields(["apiVersion"]),
        smp_ssa::fieldpath::Path::fields(["kind"]),
        smp_ssa::fieldpath::Path::fields(["metadata", "name"]),
    ]);
    set.difference(&untracked)
}

/// The configuration with container `i`'s image replaced.
fn with_image(config: &Value, i: usize, image: &str) -> Value {
    let mut c = config.clone();
    c["spec"]["template"]["spec"]["containers"][i]["image"] = json!(image);
    c
}

fn bench(c: &mut Criterion) {
    let schema = smp_ssa::builtin::schema();
    let ty = schema
        .kind(&Gvk::of("apps/v1", "Deployment"))
        .expect("Deployment");
    let fm = FieldManager::new(schema, "apps/v1", "Deployment")
        .expect("Deployment")
        .clock(Clock::fixed("2026-11-26T12:00:00Z").expect("a time"));
    let (force, no_force) = (ApplyOptions { force: true }, ApplyOptions::default());
    for pod in ["pod3", "pod50"] {
        let (Some(original), Some(patch)) = (
            read(&format!("bench/{pod}.json")),
            read(&format!("bench/{pod}-image-patch.json")),
        ) else {
            return;
        };
        let config = deployment(&serde_json::from_slice(&original).expect("JSON"));
        let last = config["spec"]["template"]["spec"]["containers"]
            .as_array()
            .map_or(0, |c| c.len() - 1);
        // The live object of the fixture.
        let live = fm
            .apply(None, &config, "kubectl", no_force)
            .expect("create");
        let hpa = json!({"apiVersion": "apps/v1", "kind": "Deployment",
                         "metadata": {"name": "web"}, "spec": {"replicas": 3}});
        let live = fm.apply(Some(&live), &hpa, "hpa", force).expect("hpa");
        let ctrl = with_image(&live, last, "registry.example.com/ctrl:1");
        let live = fm.update(Some(&live), ctrl.clone(), "ctrl").expect("ctrl");
        let config = with_image(&config, last, "registry.example.com/ctrl:1");
        let live = fm
            .apply(Some(&live), &config, "kubectl", no_force)
            .expect("kubectl again");
        let changed = with_image(&config, 0, "registry.example.com/new:2");
        let updated = with_image(&live, 1.min(last), "registry.example.com/ctrl:2");

        let set = field_set(schema, ty, &config, ReadOptions::default()).expect("fits");
        let text = fields_v1::to_string(&entry(&set));
        assert_eq!(
            fields_v1::to_string(&fields_v1::from_str(&text).unwrap()),
            text
        );

        let mut group = c.benchmark_group(format!("ssa/{pod}"));
        group.bench_function("apply create", |b| {
            b.iter_batched(
                || config.clone(),
                |config| {
                    fm.apply(None, black_box(&config), "kubectl", no_force)
                        .unwrap()
                },
                BatchSize::PerIteration,
            )
        });
        group.bench_function("apply no change", |b| {
            b.iter_batched(
                || (live.clone(), config.clone()),
                |(live, config)| {
                    fm.apply(Some(&live), black_box(&config), "kubectl", no_force)
                        .unwrap()
                },
                BatchSize::PerIteration,
            )
        });
        group.bench_function("apply image", |b| {
            b.iter_batched(
                || (live.clone(), changed.clone()),
                |(live, config)| {
                    fm.apply(Some(&live), black_box(&config), "kubectl", no_force)
                        .unwrap()
                },
                BatchSize::PerIteration,
            )
        });
        group.bench_function("update image", |b| {
            b.iter_batched(
                || (live.clone(), updated.clone()),
                |(live, new)| fm.update(Some(&live), black_box(new), "ctrl").unwrap(),
                BatchSize::PerIteration,
            )
        });
        group.bench_function("fields_v1 decode+encode", |b| {
            b.iter(|| fields_v1::to_string(&fields_v1::from_str(black_box(&text)).unwrap()))
        });
        group.bench_function("floor", |b| {
            b.iter(|| -> Result<String, Box<dyn std::error::Error>> {
                let original = std::str::from_utf8(black_box(&original))?;
                let patch = std::str::from_utf8(black_box(&patch))?;
                serde_json::from_str::<serde::de::IgnoredAny>(original)?;
                serde_json::from_str::<serde::de::IgnoredAny>(patch)?;
                Ok(original.to_owned())
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
