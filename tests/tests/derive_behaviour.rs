//! `#[derive(StrategicMerge)]` at run time: the derived types of `typed_manual.rs` (whose
//! hand-written expansion is the macro's reference) plus flatten and string-enum keys, checked
//! against the reference semantics: a typed apply gives what the JSON round trip through the
//! Value engine gives, and a failed apply leaves the value unchanged.
#![deny(warnings, clippy::all)]

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use smp_core::{
    BaseStrategy, Patch, PatchError, PatchField, PatchSchema, StrategicMerge, Strategy, TypeDef,
    TypeRef,
};

/// Every supported attribute and field type; its `main` checks a patch end to end.
use crate::pod;

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
struct Spec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge", merge_key = "name")]
    containers: Vec<Container>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    replicas: Option<i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge")]
    finalizers: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
struct Container {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    image: Option<String>,
}

/// Flatten: `Meta`'s fields live in `Object`'s JSON object.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
struct Object {
    #[serde(flatten)]
    meta: Meta,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge", merge_key = "kind")]
    rules: Vec<Rule>,
    #[serde(default)]
    spec: Spec,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "camelCase")]
struct Meta {
    name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[patch(strategy = "merge")]
    owner_refs: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    generation: Option<u64>,
}

/// A list merged by a string enum key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
struct Rule {
    kind: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    value: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, StrategicMerge)]
#[serde(rename_all = "kebab-case")]
enum Kind {
    AllowAll,
    DenyAll,
    #[serde(rename = "custom")]
    Other,
}

/// The reference: JSON round trip through the Value engine with the derived schema.
fn round_trip<T: StrategicMerge>(x: &T, patch: &Value) -> Result<Value, PatchError> {
    let out = smp_core::apply(&serde_json::to_value(x).unwrap(), patch, T::schema())?;
    let typed: T = serde_json::from_value(out).map_err(|e| PatchError::Deserialize {
        path: smp_core::JsonPath::root(),
        detail: e.to_string(),
    })?;
    Ok(serde_json::to_value(typed).unwrap())
}

fn typed<T: StrategicMerge + Clone + PartialEq + Debug>(
    x: &T,
    patch: &Value,
) -> Result<Value, PatchError> {
    let mut y = x.clone();
    match y.apply(&Patch::from_value(patch.clone()).unwrap()) {
        Ok(()) => Ok(serde_json::to_value(y).unwrap()),
        Err(e) => {
            assert_eq!(&y, x, "a failed apply changed the object (patch {patch})");
            Err(e)
        }
    }
}

/// Same result; errors agree on failing (their wording differs: the engine path reports
/// serde's message).
fn assert_agree<T: StrategicMerge + Clone + PartialEq + Debug>(x: &T, patches: &[Value]) {
    for patch in patches {
        let (t, r) = (typed(x, patch), round_trip(x, patch));
        assert_eq!(
            t.as_ref().ok(),
            r.as_ref().ok(),
            "patch {patch}: {t:?} vs {r:?}"
        );
        assert!(t.is_ok(), "patch {patch} failed: {t:?}");
    }
}

fn assert_both_fail<T: StrategicMerge + Clone + PartialEq + Debug>(x: &T, patches: &[Value]) {
    for patch in patches {
        let (t, r) = (typed(x, patch), round_trip(x, patch));
        assert!(t.is_err(), "typed accepted {patch}: {t:?}");
        assert!(r.is_err(), "round trip accepted {patch}: {r:?}");
    }
}

fn from<T: DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).unwrap()
}

fn spec() -> Spec {
    from(json!({
        "containers": [{"name": "a", "image": "a:1"}, {"name": "b"}],
        "replicas": 1,
        "finalizers": ["x"]
    }))
}

fn object() -> Object {
    from(json!({
        "name": "o",
        "ownerRefs": ["r1"],
        "rules": [{"kind": "allow-all", "value": "1"}, {"kind": "custom"}],
        "spec": {"containers": [{"name": "a"}]}
    }))
}

#[test]
fn spec_typed_equals_round_trip() {
    assert_agree(
        &spec(),
        &[
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
        ],
    );
}

#[test]
fn spec_errors_leave_the_object_unchanged() {
    assert_both_fail(
        &spec(),
        &[
            json!({"replicas": "three"}),
            json!({"containers": [{"name": "a", "image": "ok"}, {"image": "no name"}]}),
            json!({"replicas": 2, "containers": [{"name": "a", "$patch": "bogus"}]}),
            json!({"containers": [{"name": "a", "name2": {"$patch": "merge"}}]}),
            json!({"containers": [{"name": "a"}], "$setElementOrder/containers": [{"name": "zz"}]}),
            json!({"containers": [{"name": null}]}),
            json!({"unknown": {"$patch": "bogus"}, "replicas": 5}),
        ],
    );
}

#[test]
fn flatten_and_enum_keys_typed_equals_round_trip() {
    assert_agree(
        &object(),
        &[
            json!({"name": "renamed"}),
            json!({"ownerRefs": ["r2"], "generation": 4}),
            json!({"$deleteFromPrimitiveList/ownerRefs": ["r1"]}),
            json!({"generation": null}),
            json!({"rules": [{"kind": "custom", "value": "2"}]}),
            json!({"rules": [{"kind": "allow-all", "value": null}, {"kind": "custom", "value": "c"}]}),
            json!({"rules": [{"kind": "deny-all"}]}),
            json!({"rules": [{"kind": "allow-all", "$patch": "delete"}]}),
            json!({"$setElementOrder/rules": [{"kind": "custom"}, {"kind": "allow-all"}]}),
            json!({"spec": {"containers": [{"name": "a", "image": "a:9"}]}, "name": "n"}),
            json!({"spec": null}),
            json!({"$retainKeys": ["name", "rules"], "name": "kept"}),
            json!({"$patch": "replace", "name": "only"}),
            json!({"other": 1}),
        ],
    );
    assert_both_fail(
        &object(),
        &[
            json!({"name": null}),
            json!({"name": 5}),
            json!({"rules": [{"kind": "nope"}]}),
            json!({"ownerRefs": [1], "name": "changed"}),
            json!({"rules": [{"value": "no kind"}]}),
        ],
    );
}

#[test]
fn pod_typed_equals_round_trip() {
    let p: pod::Pod = from(json!({
        "metadata": {"name": "web", "labels": {"app": "web"}, "finalizers": ["a"]},
        "spec": {
            "containers": [{"name": "app", "image": "app:1", "ports": [{"containerPort": 80}]}],
            "volumes": [{"name": "v", "hostPath": {"path": "/x"}}],
            "protocols": [{"protocol": "TCP", "allowed": true}],
            "tolerations": [{"key": "k"}],
            "nodeName": "n1"
        },
        "status": {"phase": "PENDING"}
    }));
    assert_agree(
        &p,
        &[
            json!({"spec": {"volumes": [{"name": "v", "emptyDir": {}, "$retainKeys": ["name", "emptyDir"]}]}}),
            json!({"spec": {"strategy": {"type": "Recreate", "$retainKeys": ["type"]}}}),
            json!({"spec": {"tolerations": [{"key": "other"}]}}),
            json!({"spec": {"containers": [{"name": "app", "ports": [{"containerPort": 80, "protocol": "UDP"}]}]}}),
            json!({"spec": {"protocols": [{"protocol": "SCTP"}, {"protocol": "TCP", "allowed": false}]}}),
            json!({"spec": {"terminationGracePeriodSeconds": null, "priority": 1.5}}),
            json!({"spec": {"schedulingGates": ["g"], "nodeName": null}}),
            json!({"spec": {"overhead": {"cpu": "1"}, "nodeSelector": {"zone": "b"}}}),
            json!({"metadata": {"generation": null, "annotations": {"a": "b"}}}),
            json!({"status": {"pod_ips": ["1.2.3.4"], "phase": "CRASH-LOOP-BACK-OFF"}}),
        ],
    );
    assert_both_fail(
        &p,
        &[
            // `PodStatus` denies unknown fields, as deserializing the round trip would.
            json!({"status": {"unknown": 1}}),
            json!({"status": {"podIps": ["1.2.3.4"]}}),
            json!({"spec": {"restartPolicy": "Sometimes"}}),
            json!({"spec": {"containers": null}}),
        ],
    );
}

#[test]
fn pod_main_runs() {
    pod::main();
}

fn struct_def(def: &TypeDef) -> &smp_core::StructDef {
    match def {
        TypeDef::Struct(s) => s,
        other => panic!("not a struct: {other:?}"),
    }
}

/// `(json name, strategy, merge key)` of each declared field.
fn fields(def: &TypeDef) -> Vec<(String, Strategy, Option<String>)> {
    struct_def(def)
        .fields
        .iter()
        .map(|f| {
            let key = f.merge_key.as_deref().map(str::to_owned);
            (f.name.to_string(), f.strategy, key)
        })
        .collect()
}

#[test]
fn schema_tables() {
    let s = |n: &str, st, k: Option<&str>| (n.to_owned(), st, k.map(str::to_owned));
    assert_eq!(
        struct_def(<Spec as smp_core::PatchSchema>::DEF).name,
        "Spec"
    );
    assert_eq!(
        fields(<Spec as smp_core::PatchSchema>::DEF),
        [
            s("containers", Strategy::MERGE, Some("name")),
            s("replicas", Strategy::DEFAULT, None),
            s("finalizers", Strategy::MERGE, None),
        ]
    );
    let TypeRef::Static(containers) = struct_def(Spec::DEF).fields[0].ty else {
        panic!("derived schemas are static")
    };
    assert!(matches!(containers(), TypeDef::List(_)));

    // Flattened fields are not declared; the flattened struct is inlined.
    let object = struct_def(Object::DEF);
    assert_eq!(
        fields(Object::DEF),
        [
            s("rules", Strategy::MERGE, Some("kind")),
            s("spec", Strategy::DEFAULT, None),
        ]
    );
    assert_eq!(object.inlined.len(), 1);
    assert!(Object::schema().field("ownerRefs").strategy.merges_lists());
    assert!(matches!(Kind::DEF, TypeDef::Primitive));

    let spec = fields(pod::PodSpec::DEF);
    let find = |n: &str| spec.iter().find(|f| f.0 == n).cloned().unwrap();
    assert_eq!(
        find("volumes"),
        s("volumes", Strategy::MERGE_RETAIN_KEYS, Some("name"))
    );
    assert_eq!(find("strategy").1, Strategy::RETAIN_KEYS);
    assert_eq!(find("tolerations").1.base, BaseStrategy::Replace);
    assert!(spec.iter().any(|f| f.0 == "nodeSelector"));
    assert!(!spec.iter().any(|f| f.0 == "nodeName"), "flattened");
    assert!(fields(pod::ObjectMeta::DEF).iter().all(|f| f.0 != "cache"));
    assert!(
        fields(pod::UpdateStrategy::DEF)
            .iter()
            .any(|f| f.0 == "type")
    );
    assert!(
        fields(pod::RollingUpdate::DEF)
            .iter()
            .any(|f| f.0 == "MAX_SURGE")
    );
}

#[test]
fn string_enums_are_keys_by_their_wire_name() {
    use smp_core::__private::{AsKey, KeyRef};
    assert_eq!(Kind::AllowAll.as_key(), Some(KeyRef::Str("allow-all")));
    assert_eq!(Kind::Other.as_key(), Some(KeyRef::Str("custom")));
    assert_eq!(pod::Protocol::Sctp.as_key(), Some(KeyRef::Str("SCTP")));
    assert_eq!(
        serde_json::to_value(Kind::DenyAll).unwrap(),
        json!(Kind::DenyAll.as_key().map(|_| "deny-all"))
    );
}

/// The generated code names everything by absolute path: local items named like std's do not
/// change it.
#[allow(dead_code, non_camel_case_types)]
mod hygiene {
    struct Option;
    struct Some;
    struct None;
    struct Result;
    struct Ok;
    struct Err;
    struct Vec;
    struct Box;
    struct String;
    struct Default;
    struct Self_;
    struct smp_core;
    struct core;
    struct std;
    const FIELDS: () = ();
    fn type_def() {}
    fn commit_field() {}

    #[derive(::serde::Serialize, ::serde::Deserialize, ::smp_core::StrategicMerge)]
    #[serde(rename_all = "camelCase")]
    pub struct Shadowed {
        #[patch(strategy = "merge", merge_key = "name")]
        items: ::std::vec::Vec<super::Container>,
        #[serde(default)]
        count: ::std::option::Option<i32>,
        #[serde(flatten)]
        meta: super::Meta,
    }

    #[derive(::serde::Serialize, ::serde::Deserialize, ::smp_core::StrategicMerge)]
    pub enum Tag {
        A,
    }
}

/// A struct field with `strategy = "replace"` is replaced by an object patch, not merged into
/// (found by smp-types' random patches: `PodDisruptionBudgetSpec.selector`).
#[test]
fn replace_strategy_structs_are_replaced() {
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    #[serde(rename_all = "camelCase")]
    struct Budget {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[patch(strategy = "replace")]
        selector: Option<Selector>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[patch(atomic)]
        required: Option<Box<Selector>>,
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    #[serde(rename_all = "camelCase")]
    struct Selector {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        match_labels: Option<std::collections::BTreeMap<String, String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        match_expressions: Option<Vec<String>>,
    }

    let budget: Budget = from(json!({
        "selector": {"matchLabels": {"app": "a"}, "matchExpressions": ["x"]},
        "required": {"matchLabels": {"app": "a"}}
    }));
    let patches = [
        json!({"selector": {"matchExpressions": ["y"]}}),
        json!({"selector": {"matchLabels": {}}, "required": {"matchExpressions": []}}),
        json!({"selector": {"matchLabels": {"b": "c"}, "$patch": "replace"}}),
        json!({"required": {"$patch": "delete"}}),
    ];
    assert_agree(&budget, &patches);
    let mut replaced = budget.clone();
    replaced
        .apply(&Patch::from_value(patches[0].clone()).unwrap())
        .unwrap();
    assert_eq!(
        replaced.selector,
        Some(from(json!({"matchExpressions": ["y"]})))
    );
}

/// Removing a member gives what deserializing without it gives: the field's serde default,
/// the container's, `None` for an `Option`, or an error for a required field.
#[test]
fn removed_members_take_serde_defaults() {
    let x: edge::Defaults = from(json!({"replicas": 1, "name": "n", "labels": ["a"], "grace": 1}));
    let patches = [
        json!({"replicas": null}),
        json!({"name": null, "labels": null}),
        json!({"grace": null}),
    ];
    assert_agree(&x, &patches);
    let removed = typed(&x, &json!({"replicas": null, "grace": null, "name": null})).unwrap();
    assert_eq!(removed["replicas"], 3);
    assert_eq!(removed["grace"], 30);
    assert_eq!(removed["name"], "from-container");

    let y: edge::Edge = from(json!({"type": "t", "items": [{"name": "a"}], "name": "r"}));
    assert_agree(
        &y,
        &[
            json!({"type": null}),
            json!({"items": [{"name": "a", "image": "i"}]}),
            json!({"name": "flattened", "ownerRefs": ["o"]}),
            json!({"retained": {"name": "c", "$retainKeys": ["name"]}}),
        ],
    );
}

/// Shapes that take other code paths of the derive; built under `deny(warnings, clippy::all)`.
mod edge {
    use serde::{Deserialize, Serialize};
    use smp_core::{StrategicMerge, TypeDef};

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
    #[serde(default = "Defaults::new")]
    pub struct Defaults {
        pub replicas: i32,
        pub name: String,
        pub labels: Vec<String>,
        #[serde(default = "grace")]
        pub grace: u32,
    }

    impl Defaults {
        fn new() -> Self {
            Defaults {
                replicas: 3,
                name: "from-container".into(),
                labels: Vec::new(),
                grace: 0,
            }
        }
    }

    fn grace() -> u32 {
        30
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    #[serde(expecting = "an edge", bound = "", rename = "EdgeRenamed")]
    pub struct Edge {
        // Ignored serde keys are consumed whole, so the keys after them are still read.
        #[serde(
            alias = "kind",
            bound(serialize = "", deserialize = ""),
            default,
            rename(serialize = "type")
        )]
        #[serde(rename(deserialize = "type"))]
        pub r#type: Option<String>,
        #[serde(default)]
        #[patch(strategy = "retainKeys , merge", merge_key = "name")]
        pub items: Option<Vec<super::Container>>,
        #[serde(default)]
        #[patch(strategy = "replace|retainKeys")]
        pub retained: Option<super::Container>,
        #[serde(flatten)]
        pub rest: OnlyFlattened,
    }

    /// Only a flattened field: no own members to match.
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    pub struct OnlyFlattened {
        #[serde(flatten)]
        pub meta: super::Meta,
    }

    /// No key-form fields, and a flattened one.
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    pub struct Unkeyed {
        pub ratio: f64,
        pub value: Option<serde_json::Value>,
        #[serde(flatten)]
        pub meta: super::Meta,
    }

    /// Two flattened structs: members and keys are looked up in each, in order.
    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    pub struct TwoFlat {
        #[serde(flatten)]
        pub meta: super::Meta,
        #[serde(flatten)]
        pub extra: Extra,
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    pub struct Extra {
        pub tag: Option<String>,
    }

    #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, StrategicMerge)]
    pub struct Empty {}

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
    pub enum Never {}

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, StrategicMerge)]
    pub enum One {
        #[serde(alias = "only")]
        Only,
        #[serde(skip)]
        Hidden,
    }

    #[test]
    fn edge_types_work() {
        use smp_core::__private::AsKey;
        let mut e = Empty {};
        e.apply(&smp_core::Patch::from_value(serde_json::json!({"x": 1})).unwrap())
            .unwrap();
        assert_eq!(e, Empty {});
        let TypeDef::Struct(edge) = <Edge as smp_core::PatchSchema>::DEF else {
            panic!("a struct")
        };
        assert_eq!(edge.name, "EdgeRenamed");
        assert_eq!(edge.fields[0].name, "type");
        assert_eq!(
            One::Only.as_key(),
            Some(smp_core::__private::KeyRef::Str("Only"))
        );
        assert_eq!(One::Hidden.as_key(), None);
        assert!(matches!(
            <Never as smp_core::PatchSchema>::DEF,
            smp_core::TypeDef::Primitive
        ));
        let two: TwoFlat = super::from(serde_json::json!({"name": "n", "tag": "t"}));
        let key = |name| smp_core::PatchField::key_field(&two, name);
        assert_eq!(key("tag"), Some(smp_core::__private::KeyRef::Str("t")));
        assert_eq!(key("name"), Some(smp_core::__private::KeyRef::Str("n")));
        super::assert_agree(
            &two,
            &[serde_json::json!({"tag": null, "name": "m", "ownerRefs": ["x"]})],
        );
        let u = Unkeyed::default();
        assert!(
            smp_core::PatchField::key_field(&u, "ratio").is_none()
                && smp_core::PatchField::key_field(&u, "name")
                    == Some(smp_core::__private::KeyRef::Str(""))
        );
    }
}

/// A `serde_json::Value` field built in code far deeper than any reader lets through: typed
/// apply and diff report it as too deep instead of overflowing the stack (a review found the
/// diff aborting at 10^4 levels on a 2 MiB stack).
#[test]
fn deep_value_fields_are_errors_not_overflows() {
    #[derive(Debug, Clone, Default, Serialize, Deserialize, StrategicMerge)]
    struct Holder {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        v: Option<Value>,
    }

    /// `levels` arrays deep, built without recursion.
    fn nested(levels: usize) -> Value {
        let mut v = json!(1);
        for _ in 0..levels {
            v = Value::Array(vec![v]);
        }
        v
    }

    /// A deep value's own drop recurses: the test takes it apart iteratively.
    fn dispose(v: Value) {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            if let Value::Array(items) = v {
                stack.extend(items);
            }
        }
    }

    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let a = Holder {
                v: Some(nested(100_000)),
            };
            let b = Holder {
                v: Some(nested(100_001)),
            };
            let err = a.diff(&b).unwrap_err();
            assert!(matches!(err, PatchError::TooDeep { .. }), "{err}");
            let mut c = a.clone_shallow();
            let err = c
                .apply(&Patch::from_value(json!({"v": [2]})).unwrap())
                .unwrap_err();
            assert!(matches!(err, PatchError::TooDeep { .. }), "{err}");
            for h in [a, b, c] {
                dispose(h.v.unwrap_or_default());
            }
        })
        .expect("thread")
        .join()
        .expect("no stack overflow");

    trait CloneShallow {
        fn clone_shallow(&self) -> Self;
    }
    impl CloneShallow for Holder {
        /// `Clone` would recurse; a second deep value is built instead.
        fn clone_shallow(&self) -> Holder {
            Holder {
                v: Some(nested(100_000)),
            }
        }
    }
}

/// The derived `key_field` (a `match` on the JSON name, then the flattened structs) answers
/// as the visit of every field does (`smp_core::__private::key_field`, the reference): own
/// fields by their renamed name, absent ones (`skip_serializing_if`) as `None`, flattened
/// ones through the inner struct, unknown names as `None`.
#[test]
fn derived_key_field_equals_the_visiting_reference() {
    use smp_core::__private::key_field;
    let mut full = object();
    full.meta.generation = Some(3);
    let mut bare = object();
    bare.meta.generation = None;
    bare.meta.owner_refs.clear();
    bare.rules.clear();
    let rule = Rule {
        kind: Kind::Other,
        value: None,
    };
    for name in [
        "name",
        "ownerRefs",
        "owner_refs",
        "generation",
        "rules",
        "spec",
        "meta",
        "",
        "missing",
    ] {
        for x in [&full, &bare] {
            assert_eq!(x.key_field(name), key_field(x, name), "Object {name:?}");
        }
        assert_eq!(
            rule.key_field(name),
            key_field(&rule, name),
            "Rule {name:?}"
        );
    }
    for name in ["kind", "value"] {
        assert_eq!(
            rule.key_field(name),
            key_field(&rule, name),
            "Rule {name:?}"
        );
    }
    assert_eq!(
        full.key_field("generation"),
        Some(smp_core::__private::KeyRef::Int(3))
    );
}
