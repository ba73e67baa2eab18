//! The typed runtime with a hand-written expansion of `#[derive(StrategicMerge)]`.
//!
//! This is what the derive generates for the two types below (kept by hand so the runtime
//! contract is tested independently of the macro, and as the macro's reference output).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::__private as p;
use smp_core::{Patch, PatchError, PatchField, StrategicMerge};

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
    const FIELDS: &[smp_core::FieldDef] = &[
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
        p::declares_field(<Container as PatchField>::DEF, "name"),
        "merge_key `name` of field `containers` is not a field of `Container`"
    );

    impl PatchField for Spec {
        const DEF: &'static smp_core::TypeDef =
            &smp_core::TypeDef::Struct(smp_core::StructDef::new("Spec", FIELDS));

        fn plan(
            current: Option<&Self>,
            member: &p::Member<'_>,
            parent: smp_core::Node<'static>,
            path: &p::Path<'_>,
        ) -> Result<p::Edit<Self>, PatchError> {
            match (current, member.value, member.directed) {
                (Some(cur), Some(Value::Object(map)), false) => {
                    cur.plan_object(map, &path.field(member.name))
                }
                _ => p::fallback(current, member, parent, path),
            }
        }

        fn plan_item(
            &self,
            patch: &p::Map<String, Value>,
            path: &p::Path<'_>,
        ) -> Option<Result<p::Edit<Self>, PatchError>> {
            Some(self.plan_object(patch, path))
        }

        fn key_field(&self, name: &str) -> Option<p::KeyRef<'_>> {
            match name {
                "containers" | "finalizers" => None,
                "replicas" if Option::is_none(&self.replicas) => None,
                "replicas" => p::AsKey::as_key(&self.replicas),
                _ => None,
            }
        }
    }

    impl StrategicMerge for Spec {
        fn plan_members(
            &self,
            members: &mut Vec<p::Member<'_>>,
            path: &p::Path<'_>,
            edits: &mut Vec<p::Commit<Self>>,
        ) -> Result<(), PatchError> {
            let node = <Self as StrategicMerge>::schema();
            let mut rest = Vec::with_capacity(members.len());
            for m in members.drain(..) {
                match m.name {
                    "containers" => {
                        let present = !Vec::is_empty(&self.containers);
                        let edit = <Vec<Container> as PatchField>::plan(
                            present.then_some(&self.containers),
                            &m,
                            node,
                            path,
                        )?;
                        p::commit_field(
                            edit,
                            |s: &mut Self| &mut s.containers,
                            p::OnRemove::Default(Default::default),
                            m.name,
                            path,
                            edits,
                        )?;
                    }
                    "replicas" => {
                        let present = !Option::is_none(&self.replicas);
                        let edit = <Option<i32> as PatchField>::plan(
                            present.then_some(&self.replicas),
                            &m,
                            node,
                            path,
                        )?;
                        p::commit_field(
                            edit,
                            |s: &mut Self| &mut s.replicas,
                            p::OnRemove::Default(Default::default),
                            m.name,
                            path,
                            edits,
                        )?;
                    }
                    "finalizers" => {
                        let present = !Vec::is_empty(&self.finalizers);
                        let edit = <Vec<String> as PatchField>::plan(
                            present.then_some(&self.finalizers),
                            &m,
                            node,
                            path,
                        )?;
                        p::commit_field(
                            edit,
                            |s: &mut Self| &mut s.finalizers,
                            p::OnRemove::Default(Default::default),
                            m.name,
                            path,
                            edits,
                        )?;
                    }
                    _ => rest.push(m),
                }
            }
            *members = rest;
            Ok(())
        }
    }
};

// ---- expansion for `Container` (`name` is required: no serde default)
const _: () = {
    const FIELDS: &[smp_core::FieldDef] = &[
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

    impl PatchField for Container {
        const DEF: &'static smp_core::TypeDef =
            &smp_core::TypeDef::Struct(smp_core::StructDef::new("Container", FIELDS));

        fn plan(
            current: Option<&Self>,
            member: &p::Member<'_>,
            parent: smp_core::Node<'static>,
            path: &p::Path<'_>,
        ) -> Result<p::Edit<Self>, PatchError> {
            match (current, member.value, member.directed) {
                (Some(cur), Some(Value::Object(map)), false) => {
                    cur.plan_object(map, &path.field(member.name))
                }
                _ => p::fallback(current, member, parent, path),
            }
        }

        fn plan_item(
            &self,
            patch: &p::Map<String, Value>,
            path: &p::Path<'_>,
        ) -> Option<Result<p::Edit<Self>, PatchError>> {
            Some(self.plan_object(patch, path))
        }

        fn key_field(&self, name: &str) -> Option<p::KeyRef<'_>> {
            match name {
                "name" => p::AsKey::as_key(&self.name),
                "image" if Option::is_none(&self.image) => None,
                "image" => p::AsKey::as_key(&self.image),
                _ => None,
            }
        }
    }

    impl StrategicMerge for Container {
        fn plan_members(
            &self,
            members: &mut Vec<p::Member<'_>>,
            path: &p::Path<'_>,
            edits: &mut Vec<p::Commit<Self>>,
        ) -> Result<(), PatchError> {
            let node = <Self as StrategicMerge>::schema();
            let mut rest = Vec::with_capacity(members.len());
            for m in members.drain(..) {
                match m.name {
                    "name" => {
                        let edit = <String as PatchField>::plan(Some(&self.name), &m, node, path)?;
                        p::commit_field(
                            edit,
                            |s: &mut Self| &mut s.name,
                            p::OnRemove::Required,
                            m.name,
                            path,
                            edits,
                        )?;
                    }
                    "image" => {
                        let present = !Option::is_none(&self.image);
                        let edit = <Option<String> as PatchField>::plan(
                            present.then_some(&self.image),
                            &m,
                            node,
                            path,
                        )?;
                        p::commit_field(
                            edit,
                            |s: &mut Self| &mut s.image,
                            p::OnRemove::Default(Default::default),
                            m.name,
                            path,
                            edits,
                        )?;
                    }
                    _ => rest.push(m),
                }
            }
            *members = rest;
            Ok(())
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
