//! Properties of server-side apply on random Deployments (the built-in v1.34 types): applying
//! the same configuration twice changes nothing; every field of an object built by applies is
//! owned by an applier; a manager applying an empty configuration takes away exactly the fields
//! no other manager owns; extracting what a manager applied and applying it back changes nothing.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use smp_ssa::fieldpath::{Path, Set};
use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager, decode, encode, to_value};
use smp_ssa::schema::Gvk;
use smp_ssa::typed::{ReadOptions, field_set};

const FORCE: ApplyOptions = ApplyOptions { force: true };

fn manager() -> FieldManager<'static> {
    manager_at(0)
}

/// The field manager with its clock at `minute` past noon.
fn manager_at(minute: usize) -> FieldManager<'static> {
    FieldManager::new(smp_ssa::builtin::schema(), "apps/v1", "Deployment")
        .unwrap()
        .clock(Clock::fixed(&format!("2026-11-26T12:{:02}:00Z", minute % 60)).unwrap())
}

/// A configuration: some labels, finalizers (a set), replicas, containers (a list map by name)
/// with images and ports (a list map by port and protocol), and no empty object.
fn config() -> impl Strategy<Value = Value> {
    let labels = prop::collection::btree_map(
        prop::sample::select(vec!["a", "b", "c"]),
        prop::sample::select(vec!["1", "2"]),
        0..3,
    );
    let finalizers = prop::collection::btree_set(prop::sample::select(vec!["f1", "f2"]), 0..3);
    let container = (
        prop::sample::select(vec!["i1", "i2"]),
        prop::collection::btree_set(prop::sample::select(vec![80, 81]), 0..3),
    );
    let containers =
        prop::collection::btree_map(prop::sample::select(vec!["x", "y", "z"]), container, 0..3);
    (labels, finalizers, prop::option::of(0..4i64), containers).prop_map(
        |(labels, finalizers, replicas, containers)| {
            let mut metadata = Map::new();
            metadata.insert("name".into(), json!("web"));
            if !labels.is_empty() {
                metadata.insert("labels".into(), json!(labels));
            }
            if !finalizers.is_empty() {
                metadata.insert("finalizers".into(), json!(finalizers));
            }
            let mut spec = Map::new();
            if let Some(r) = replicas {
                spec.insert("replicas".into(), json!(r));
            }
            if !containers.is_empty() {
                let list: Vec<Value> = containers
                    .iter()
                    .map(|(name, (image, ports))| {
                        let mut c = json!({"name": name, "image": image});
                        if !ports.is_empty() {
                            let ports: Vec<Value> =
                                ports.iter().map(|p| json!({"containerPort": p})).collect();
                            c["ports"] = json!(ports);
                        }
                        c
                    })
                    .collect();
                spec.insert("template".into(), json!({"spec": {"containers": list}}));
            }
            let mut config =
                json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": metadata});
            // No empty object: extracting one gives `null` (structured-merge-diff v4.4.2 takes
            // an empty object out whole), so it would not come back as it was.
            if !spec.is_empty() {
                config["spec"] = Value::Object(spec);
            }
            config
        },
    )
}

fn empty() -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}})
}

/// The leaves of the object's fields, without those nobody owns.
fn fields(object: &Value) -> Set {
    let schema = smp_ssa::builtin::schema();
    let ty = schema.kind(&Gvk::of("apps/v1", "Deployment")).unwrap();
    let mut bare = object.clone();
    if let Some(m) = bare.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    let set = field_set(
        schema,
        ty,
        &bare,
        ReadOptions {
            allow_duplicates: true,
        },
    )
    .unwrap();
    let untracked = Set::from_paths([
        Path::fields(["apiVersion"]),
        Path::fields(["kind"]),
        Path::fields(["metadata", "name"]),
    ]);
    set.leaves().difference(&untracked)
}

/// Each manager's fields, by name.
fn owned(object: &Value) -> Vec<(String, Set)> {
    let managed = decode(object.pointer("/metadata/managedFields")).unwrap();
    managed
        .fields
        .iter()
        .map(|(id, s)| {
            let name = serde_json::from_str::<Value>(id).unwrap()["manager"]
                .as_str()
                .unwrap()
                .to_owned();
            (name, s.set.clone())
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn applying_twice_changes_nothing(c in config(), d in config()) {
        let fm = manager();
        let once = fm.apply(None, &c, "a", FORCE).unwrap();
        let once = fm.apply(Some(&once), &d, "b", FORCE).unwrap();
        let twice = fm.apply(Some(&once), &d, "b", FORCE).unwrap();
        prop_assert_eq!(twice, once);
    }

    #[test]
    fn every_field_is_owned_by_an_applier(
        steps in prop::collection::vec((prop::sample::select(vec!["a", "b", "c"]), config()), 1..5)
    ) {
        let fm = manager();
        let mut live: Option<Value> = None;
        for (m, c) in &steps {
            live = Some(fm.apply(live.as_ref(), c, m, FORCE).unwrap());
        }
        let object = live.unwrap();
        let all = owned(&object).into_iter().fold(Set::new(), |all, (_, s)| all.union(&s));
        let unowned = fields(&object).difference(&all);
        prop_assert!(unowned.is_empty(), "unowned {:?} in {}", unowned, object);
    }

    #[test]
    fn withdrawing_a_configuration_takes_away_exactly_the_unshared_fields(
        ca in config(), cb in config()
    ) {
        let fm = manager();
        let live = fm.apply(None, &ca, "a", FORCE).unwrap();
        let live = fm.apply(Some(&live), &cb, "b", FORCE).unwrap();
        let after = fm.apply(Some(&live), &empty(), "a", FORCE).unwrap();
        let b = owned(&after)
            .into_iter()
            .find(|(m, _)| m == "b")
            .map(|(_, s)| s.leaves())
            .unwrap_or_default();
        prop_assert!(owned(&after).iter().all(|(m, _)| m == "b"));
        prop_assert_eq!(fields(&after), b);
    }

    /// The entries are written as the server writes them, however each was made: passed on as
    /// read, given a new time, changed in place, or written anew.
    #[test]
    fn managed_fields_read_back_write_the_same(
        steps in prop::collection::vec(
            (any::<bool>(), prop::sample::select(vec!["a", "b", "c"]), config()),
            1..6,
        )
    ) {
        let mut live: Option<Value> = None;
        for (i, (apply, m, c)) in steps.iter().enumerate() {
            let fm = manager_at(i);
            let next = if *apply {
                fm.apply(live.as_ref(), c, m, FORCE).unwrap()
            } else {
                // An update writes the configuration over the live object as it is.
                let mut new = c.clone();
                if let (Some(live), Some(metadata)) = (&live, new.get_mut("metadata")) {
                    if let Some(entries) = live.pointer("/metadata/managedFields") {
                        metadata["managedFields"] = entries.clone();
                    }
                }
                fm.update(live.as_ref(), new, m).unwrap()
            };
            let written = next.pointer("/metadata/managedFields").cloned().unwrap_or(Value::Null);
            let fresh = encode(&decode(Some(&written)).unwrap())
                .map_or(Value::Null, |entries| to_value(&entries));
            prop_assert_eq!(&written, &fresh, "step {}", i);
            live = Some(next);
        }
    }

    #[test]
    fn extracting_and_applying_back_changes_nothing(
        steps in prop::collection::vec((prop::sample::select(vec!["a", "b"]), config()), 1..4)
    ) {
        let fm = manager();
        let mut live: Option<Value> = None;
        for (m, c) in &steps {
            live = Some(fm.apply(live.as_ref(), c, m, FORCE).unwrap());
        }
        let object = live.unwrap();
        for m in ["a", "b"] {
            let extracted = fm.extract(&object, m).unwrap();
            let back = fm.apply(Some(&object), &extracted, m, ApplyOptions::default()).unwrap();
            prop_assert_eq!(&back, &object, "manager {} extracted {}", m, extracted);
        }
    }
}
