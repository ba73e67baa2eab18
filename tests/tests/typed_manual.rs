//! The typed runtime with a hand-written expansion of `#[derive(StrategicMerge)]`.
//!
//! This is what the derive generates for the two types below (kept by hand so the runtime
//! contract is tested independently of the macro, and as the macro's reference output): a
//! static table of the fields' patch metadata, three walks over the fields, and trait methods
//! that hand the work to the visitors of `smp_core`.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::__private as p;
use smp_core::{Patch, PatchError, PatchField, PatchSchema, StrategicMerge};

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    containers: Vec<Container>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    replicas: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    finalizers: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
struct Container {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    image: Option<String>,
}

// ---- expansion for `Spec` (#[patch(strategy = "merge", merge_key = "name")] on containers,
// #[patch(strategy = "merge")] on finalizers)
const _: () = {
    static FIELDS: [smp_core::FieldDef; 3] = [
        smp_core::FieldDef::new(
            "containers",
            smp_core::TypeRef::Static(p::type_def::<Vec<Container>>),
            smp_core::Strategy::MERGE,
            Some("name"),
        ),
        smp_core::FieldDef::new(
            "replicas",
            smp_core::TypeRef::Static(p::type_def::<Option<i32>>),
            smp_core::Strategy::DEFAULT,
            None,
        ),
        smp_core::FieldDef::new(
            "finalizers",
            smp_core::TypeRef::Static(p::type_def::<Vec<String>>),
            smp_core::Strategy::MERGE,
            None,
        ),
    ];
    // merge_key check
    const _: () = assert!(
        p::declares_field(<Container as PatchSchema>::DEF, "name"),
        "merge_key `name` of field `containers` is not a field of `Container`"
    );

    impl PatchSchema for Spec {
        const DEF: &'static smp_core::TypeDef =
            &smp_core::TypeDef::Struct(smp_core::StructDef::new("Spec", &FIELDS));
    }

    impl PatchField for Spec {
        fn plan(
            current: Option<&Self>,
            member: &p::Member<'_>,
            parent: smp_core::Node<'static>,
            path: &p::Path<'_>,
        ) -> Result<p::Edit<Self>, PatchError> {
            p::plan_struct(current, member, parent, path)
        }

        fn plan_item(
            &self,
            patch: &p::Map<String, Value>,
            path: &p::Path<'_>,
        ) -> Option<Result<p::Edit<Self>, PatchError>> {
            Some(self.plan_object(patch, path))
        }

        fn diff_item(
            &self,
            modified: &Self,
            out: &mut p::Out<'_>,
            path: &p::Path<'_>,
        ) -> Option<Result<(), PatchError>> {
            Some(self.diff_members(modified, out, path))
        }

        fn key_field(&self, name: &str) -> Option<p::KeyRef<'_>> {
            p::key_field(self, name)
        }

        fn same(&self, other: &Self) -> bool {
            p::same_fields(self, other)
        }

        fn quiet(&self) -> bool {
            p::quiet_fields(self)
        }

        fn diff_member(
            original: Option<&Self>,
            modified: Option<&Self>,
            name: &str,
            parent: smp_core::Node<'static>,
            out: &mut p::Out<'_>,
            path: &p::Path<'_>,
        ) -> Result<(), PatchError> {
            p::diff_struct(original, modified, name, parent, out, path)
        }
    }

    // The generated patch types are left out of this reference (`typed_patch` has its own
    // tests); a placeholder stands for them.
    impl StrategicMerge for Spec {
        type Patch = smp_core::UntypedPatch<Self>;

        fn plan_members(
            &self,
            members: &mut Vec<p::Member<'_>>,
            path: &p::Path<'_>,
            edits: &mut Vec<p::Commit<Self>>,
        ) -> Result<(), PatchError> {
            p::plan_fields(self, members, path, edits)
        }

        fn diff_members(
            &self,
            modified: &Self,
            out: &mut p::Out<'_>,
            path: &p::Path<'_>,
        ) -> Result<(), PatchError> {
            p::diff_fields(self, modified, out, path)
        }

        // One call per field; `None` where `skip_serializing_if` leaves the field out.
        fn visit<'a, V: p::Visit<'a, Self>>(&'a self, v: &mut V) {
            v.field(
                &FIELDS[0],
                (!Vec::is_empty(&self.containers)).then_some(&self.containers),
                |s: &mut Self| &mut s.containers,
                p::OnRemove::Default(Default::default),
            );
            v.field(
                &FIELDS[1],
                (!Option::is_none(&self.replicas)).then_some(&self.replicas),
                |s: &mut Self| &mut s.replicas,
                p::OnRemove::Default(Default::default),
            );
            v.field(
                &FIELDS[2],
                (!Vec::is_empty(&self.finalizers)).then_some(&self.finalizers),
                |s: &mut Self| &mut s.finalizers,
                p::OnRemove::Default(Default::default),
            );
        }

        fn visit2<V: p::Visit2>(&self, o: &Self, v: &mut V) {
            v.field(
                &FIELDS[0],
                (!Vec::is_empty(&self.containers)).then_some(&self.containers),
                (!Vec::is_empty(&o.containers)).then_some(&o.containers),
            );
            v.field(
                &FIELDS[1],
                (!Option::is_none(&self.replicas)).then_some(&self.replicas),
                (!Option::is_none(&o.replicas)).then_some(&o.replicas),
            );
            v.field(
                &FIELDS[2],
                (!Vec::is_empty(&self.finalizers)).then_some(&self.finalizers),
                (!Vec::is_empty(&o.finalizers)).then_some(&o.finalizers),
            );
        }

        fn visit_mut<V: p::VisitMut>(&mut self, old: Option<&Self>, v: &mut V) {
            let present = !Vec::is_empty(&self.containers);
            v.field(
                &FIELDS[0],
                present.then_some(&mut self.containers),
                old.and_then(|o| (!Vec::is_empty(&o.containers)).then_some(&o.containers)),
            );
            let present = !Option::is_none(&self.replicas);
            v.field(
                &FIELDS[1],
                present.then_some(&mut self.replicas),
                old.and_then(|o| (!Option::is_none(&o.replicas)).then_some(&o.replicas)),
            );
            let present = !Vec::is_empty(&self.finalizers);
            v.field(
                &FIELDS[2],
                present.then_some(&mut self.finalizers),
                old.and_then(|o| (!Vec::is_empty(&o.finalizers)).then_some(&o.finalizers)),
            );
        }
    }

    impl smp_core::Normalize for Spec {
        fn normalize_member(&mut self, old: Option<&Self>, _: Option<&str>) {
            p::normalize_fields(self, old);
        }

        fn validate_member(
            &self,
            _: Option<&str>,
            path: &mut Vec<p::Segment>,
            out: &mut Vec<smp_core::UnionError>,
        ) {
            p::validate_fields(self, path, out);
        }

        fn key_of(&self, name: &str) -> Option<Value> {
            p::key_of_field(self, name)
        }
    }
};

// ---- expansion for `Container` (`name` is required: no serde default)
const _: () = {
    static FIELDS: [smp_core::FieldDef; 2] = [
        smp_core::FieldDef::new(
            "name",
            smp_core::TypeRef::Static(p::type_def::<String>),
            smp_core::Strategy::DEFAULT,
            None,
        ),
        smp_core::FieldDef::new(
            "image",
            smp_core::TypeRef::Static(p::type_def::<Option<String>>),
            smp_core::Strategy::DEFAULT,
            None,
        ),
    ];

    impl PatchSchema for Container {
        const DEF: &'static smp_core::TypeDef =
            &smp_core::TypeDef::Struct(smp_core::StructDef::new("Container", &FIELDS));
    }

    impl PatchField for Container {
        fn plan(
            current: Option<&Self>,
            member: &p::Member<'_>,
            parent: smp_core::Node<'static>,
            path: &p::Path<'_>,
        ) -> Result<p::Edit<Self>, PatchError> {
            p::plan_struct(current, member, parent, path)
        }

        fn plan_item(
            &self,
            patch: &p::Map<String, Value>,
            path: &p::Path<'_>,
        ) -> Option<Result<p::Edit<Self>, PatchError>> {
            Some(self.plan_object(patch, path))
        }

        fn diff_item(
            &self,
            modified: &Self,
            out: &mut p::Out<'_>,
            path: &p::Path<'_>,
        ) -> Option<Result<(), PatchError>> {
            Some(self.diff_members(modified, out, path))
        }

        fn key_field(&self, name: &str) -> Option<p::KeyRef<'_>> {
            p::key_field(self, name)
        }

        fn same(&self, other: &Self) -> bool {
            p::same_fields(self, other)
        }

        fn quiet(&self) -> bool {
            p::quiet_fields(self)
        }

        fn diff_member(
            original: Option<&Self>,
            modified: Option<&Self>,
            name: &str,
            parent: smp_core::Node<'static>,
            out: &mut p::Out<'_>,
            path: &p::Path<'_>,
        ) -> Result<(), PatchError> {
            p::diff_struct(original, modified, name, parent, out, path)
        }
    }

    // A field type of a hand-written walk has a patch too: here its JSON, held whole.
    impl smp_core::Patchable for Container {
        type Patch = smp_core::UntypedPatch<Self>;
    }

    impl StrategicMerge for Container {
        type Patch = smp_core::UntypedPatch<Self>;

        fn plan_members(
            &self,
            members: &mut Vec<p::Member<'_>>,
            path: &p::Path<'_>,
            edits: &mut Vec<p::Commit<Self>>,
        ) -> Result<(), PatchError> {
            p::plan_fields(self, members, path, edits)
        }

        fn diff_members(
            &self,
            modified: &Self,
            out: &mut p::Out<'_>,
            path: &p::Path<'_>,
        ) -> Result<(), PatchError> {
            p::diff_fields(self, modified, out, path)
        }

        fn visit<'a, V: p::Visit<'a, Self>>(&'a self, v: &mut V) {
            v.field(
                &FIELDS[0],
                Some(&self.name),
                |s: &mut Self| &mut s.name,
                p::OnRemove::Required,
            );
            v.field(
                &FIELDS[1],
                (!Option::is_none(&self.image)).then_some(&self.image),
                |s: &mut Self| &mut s.image,
                p::OnRemove::Default(Default::default),
            );
        }

        fn visit2<V: p::Visit2>(&self, o: &Self, v: &mut V) {
            v.field(&FIELDS[0], Some(&self.name), Some(&o.name));
            v.field(
                &FIELDS[1],
                (!Option::is_none(&self.image)).then_some(&self.image),
                (!Option::is_none(&o.image)).then_some(&o.image),
            );
        }

        fn visit_mut<V: p::VisitMut>(&mut self, old: Option<&Self>, v: &mut V) {
            v.field(&FIELDS[0], Some(&mut self.name), old.map(|o| &o.name));
            let present = !Option::is_none(&self.image);
            v.field(
                &FIELDS[1],
                present.then_some(&mut self.image),
                old.and_then(|o| (!Option::is_none(&o.image)).then_some(&o.image)),
            );
        }
    }

    impl smp_core::Normalize for Container {
        fn normalize_member(&mut self, old: Option<&Self>, _: Option<&str>) {
            p::normalize_fields(self, old);
        }

        fn validate_member(
            &self,
            _: Option<&str>,
            path: &mut Vec<p::Segment>,
            out: &mut Vec<smp_core::UnionError>,
        ) {
            p::validate_fields(self, path, out);
        }

        fn key_of(&self, name: &str) -> Option<Value> {
            p::key_of_field(self, name)
        }
    }
};

fn spec() -> Spec {
    Spec {
        containers: vec![
            Container {
                name: "a".into(),
                image: Some("a:1".into()),
            },
            Container {
                name: "b".into(),
                image: None,
            },
        ],
        replicas: Some(1),
        finalizers: vec!["x".into()],
    }
}

/// The reference: JSON round trip through the Value engine.
fn round_trip(x: &Spec, patch: &Value) -> Result<Value, PatchError> {
    let out = smp_core::apply(&serde_json::to_value(x).unwrap(), patch, Spec::schema())?;
    let typed: Spec = serde_json::from_value(out).map_err(|e| PatchError::Deserialize {
        path: smp_core::JsonPath::root(),
        detail: e.to_string(),
    })?;
    Ok(serde_json::to_value(typed).unwrap())
}

fn typed(x: &Spec, patch: &Value) -> Result<Value, PatchError> {
    let mut y = x.clone();
    let r = y.apply(&Patch::from_value(patch.clone()).unwrap());
    match r {
        Ok(()) => Ok(serde_json::to_value(y).unwrap()),
        Err(e) => {
            assert_eq!(&y, x, "a failed apply changed the object");
            Err(e)
        }
    }
}

#[test]
fn typed_equals_round_trip_on_examples() {
    let patches = [
        json!({}),
        json!({"replicas": 3}),
        json!({"replicas": null}),
        json!({"containers": [{"name": "b", "image": "b:2"}]}),
        json!({"containers": [{"name": "a", "image": null}, {"name": "b", "image": "b:2"}]}),
        json!({"containers": [{"name": "b", "image": "b:2"}, {"name": "a", "image": "a:2"}]}),
        json!({"containers": [{"name": "c", "image": "c:1"}]}),
        json!({"containers": [{"name": "a", "$patch": "delete"}]}),
        json!({"containers": [{"name": "a"}, {"$patch": "replace"}]}),
        json!({"$setElementOrder/containers": [{"name": "b"}, {"name": "a"}]}),
        json!({"finalizers": ["y"], "$deleteFromPrimitiveList/finalizers": ["x"]}),
        json!({"$patch": "replace", "replicas": 2}),
        json!({"$retainKeys": ["replicas"], "replicas": 2}),
        json!({"unknown": {"a": 1}, "replicas": 5}),
        json!({"containers": null}),
    ];
    for patch in patches {
        assert_eq!(
            typed(&spec(), &patch),
            round_trip(&spec(), &patch),
            "patch {patch}"
        );
    }
}

#[test]
fn typed_errors_leave_the_object_unchanged() {
    let bad = [
        json!({"replicas": "three"}),
        json!({"containers": [{"name": "a", "image": "ok"}, {"image": "no name"}]}),
        json!({"replicas": 2, "containers": [{"name": "a", "$patch": "bogus"}]}),
        json!({"containers": [{"name": "a", "name2": {"$patch": "merge"}}]}),
        json!({"containers": [{"name": "a"}], "$setElementOrder/containers": [{"name": "zz"}]}),
        json!({"containers": [{"name": null}]}),
        json!({"unknown": {"$patch": "bogus"}, "replicas": 5}),
    ];
    for patch in bad {
        let t = typed(&spec(), &patch);
        let r = round_trip(&spec(), &patch);
        assert!(t.is_err(), "typed accepted {patch}: {t:?}");
        assert!(r.is_err(), "round trip accepted {patch}: {r:?}");
    }
}

#[test]
fn typed_diff_and_normalize_go_through_the_visits() {
    let a = spec();
    let mut b = spec();
    b.replicas = Some(4);
    b.containers[0].image = None;
    b.finalizers.push("y".into());
    let engine = smp_core::diff(
        &serde_json::to_value(&a).unwrap(),
        &serde_json::to_value(&b).unwrap(),
        Spec::schema(),
    )
    .unwrap();
    assert_eq!(a.diff(&b).unwrap().as_value(), &engine);
    assert!(a.same(&spec()) && !a.same(&b));
    assert_eq!(a.containers[0].key_field("name"), Some(p::KeyRef::Str("a")));
    assert_eq!(a.containers[1].key_field("image"), None, "absent");
    let mut n = b.clone();
    smp_core::Normalize::normalize(&mut n, Some(&a));
    assert_eq!(n, b, "no unions: nothing to normalize");
    assert!(smp_core::Normalize::validate(&b).is_ok());
}
