//! The decoder against what kubectl sends (bodies captured from kubectl v1.33 with the objects
//! it printed for them, in `tests/data/protobuf/`), against hand-written messages for what
//! kubectl never sends, and against hostile bytes.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::decode::{Decoder, MAX_NESTING};
use super::table::table;
use super::wire::Slice;
use super::{DecodeError, decode};

/// A message written field by field, for tests.
#[derive(Default, Clone)]
struct Msg(Vec<u8>);

fn varint_bytes(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

impl Msg {
    fn key(mut self, field: u32, wire: u8) -> Msg {
        varint_bytes(u64::from(field) << 3 | u64::from(wire), &mut self.0);
        self
    }
    fn varint(self, field: u32, v: u64) -> Msg {
        let mut m = self.key(field, 0);
        varint_bytes(v, &mut m.0);
        m
    }
    fn bytes(self, field: u32, b: &[u8]) -> Msg {
        let mut m = self.key(field, 2);
        varint_bytes(b.len() as u64, &mut m.0);
        m.0.extend_from_slice(b);
        m
    }
    fn string(self, field: u32, s: &str) -> Msg {
        self.bytes(field, s.as_bytes())
    }
    fn msg(self, field: u32, m: Msg) -> Msg {
        self.bytes(field, &m.0)
    }
    fn double(self, field: u32, v: f64) -> Msg {
        let mut m = self.key(field, 1);
        m.0.extend_from_slice(&v.to_bits().to_le_bytes());
        m
    }
    fn entry(self, field: u32, key: &str, value: Msg) -> Msg {
        self.msg(field, Msg::default().string(1, key).msg(2, value))
    }
}

/// A body: the prefix and the envelope around `object`.
fn body(api_version: &str, kind: &str, object: &Msg) -> Vec<u8> {
    let type_meta = Msg::default().string(1, api_version).string(2, kind);
    let envelope = Msg::default()
        .msg(1, type_meta)
        .bytes(2, &object.0)
        .string(3, "")
        .string(4, "");
    [b"k8s\0".as_slice(), &envelope.0].concat()
}

fn decoded(api_version: &str, kind: &str, object: &Msg) -> Value {
    decode(&body(api_version, kind, object), "", "").unwrap()
}

fn fixtures() -> Vec<(String, Vec<u8>, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/protobuf");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "pb") {
            let bytes = std::fs::read(&path).unwrap();
            let expected = std::fs::read(path.with_extension("json")).unwrap();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            out.push((name, bytes, serde_json::from_slice(&expected).unwrap()));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// kubectl v1.33 prints a zero `creationTimestamp` as `null`; v1.34's types leave it out
/// (`omitzero`), as this decoder does.
fn as_v1_34(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.get("creationTimestamp") == Some(&Value::Null) {
                map.remove("creationTimestamp");
            }
            map.values_mut().for_each(as_v1_34);
        }
        Value::Array(items) => items.iter_mut().for_each(as_v1_34),
        _ => {}
    }
}

#[test]
fn kubectls_bodies_decode_to_the_objects_it_printed() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 30, "{} fixtures", fixtures.len());
    for (name, bytes, mut expected) in fixtures {
        let object = decode(&bytes, "", "").unwrap_or_else(|e| panic!("{name}: {e}"));
        as_v1_34(&mut expected);
        assert_eq!(object, expected, "{name}");
    }
}

/// The offsets at which the envelope's object (field 2) starts and ends in `bytes`.
fn object_span(bytes: &[u8]) -> (usize, usize) {
    let mut at = 4;
    loop {
        let key = bytes[at];
        let mut len = 0usize;
        let mut shift = 0;
        let mut i = at + 1;
        loop {
            len |= usize::from(bytes[i] & 0x7f) << shift;
            shift += 7;
            i += 1;
            if bytes[i - 1] < 0x80 {
                break;
            }
        }
        if key == 0x12 {
            return (at, i + len);
        }
        at = i + len;
    }
}

/// Every prefix of every fixture: cut inside the object, an error; anywhere, no panic.
#[test]
fn truncated_bodies_are_errors() {
    for (name, bytes, _) in fixtures() {
        let (start, end) = object_span(&bytes);
        for cut in 0..bytes.len() {
            let result = decode(&bytes[..cut], "", "");
            if cut < 4 || (start < cut && cut < end) {
                assert!(result.is_err(), "{name} cut at {cut}");
            }
        }
    }
}

/// A small deterministic generator (xorshift), for mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Fixtures with bytes changed, inserted and removed at random: decoded or refused, never a
/// panic.
#[test]
fn mutated_bodies_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut refused = 0;
    let mut runs = 0;
    for (_, bytes, _) in fixtures() {
        for _ in 0..400 {
            let mut b = bytes.clone();
            for _ in 0..=rng.below(4) {
                let at = 4 + rng.below(b.len() - 4);
                match rng.below(4) {
                    0 => b[at] = rng.next() as u8,
                    1 => b[at] ^= 1 << rng.below(8),
                    2 => b.insert(at, [0x00, 0x7f, 0x80, 0xff][rng.below(4)]),
                    _ => {
                        b.remove(at);
                    }
                }
            }
            runs += 1;
            if decode(&b, "", "").is_err() {
                refused += 1;
            }
        }
    }
    assert!(refused > 0 && refused < runs, "{refused} of {runs}");
}

fn error(bytes: &[u8]) -> DecodeError {
    decode(bytes, "", "").unwrap_err()
}

#[test]
fn errors_name_the_offset_and_the_field() {
    // A container whose image (field 2) is a varint.
    let container = Msg::default().string(1, "app").varint(2, 7);
    let pod_spec = Msg::default().msg(2, container);
    let pod = Msg::default().msg(2, pod_spec);
    let e = error(&body("v1", "Pod", &pod));
    assert_eq!(e.path(), "spec.containers[0].image");
    assert!(
        e.message
            .contains("field 2 should be a length-delimited value"),
        "{e}"
    );
    let bytes = body("v1", "Pod", &pod);
    // The key of the image field: 0x10, after "app".
    assert_eq!(bytes[e.offset], 0x10);

    // A length past the end.
    let e = error(b"k8s\0\x12\xff\xff\xff\xff\x0f");
    assert!(e.message.contains("remain"), "{e}");
    assert!(error(b"k8s").message.contains("prefix"));
    assert!(error(b"{\"kind\": \"Pod\"}").message.contains("prefix"));

    let widget = body("example.com/v1", "Widget", &Msg::default());
    assert!(error(&widget).message.contains("no kind \"Widget\""));
    let gzip = Msg::default().string(3, "gzip");
    let gzip = [b"k8s\0".as_slice(), &gzip.0].concat();
    assert!(decode(&gzip, "v1", "Pod").is_err());
}

#[test]
fn unknown_fields_are_skipped() {
    let object = Msg::default()
        .msg(1, Msg::default().string(1, "cm").varint(999, 5))
        .bytes(77, b"anything")
        .entry(2, "a", Msg::default());
    let cm = decoded("v1", "ConfigMap", &object);
    assert_eq!(
        cm,
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"},
            "data": {"a": ""}})
    );
}

#[test]
fn the_envelope_type_falls_back_to_the_endpoints() {
    let object = Msg::default().msg(1, Msg::default().string(1, "x"));
    let envelope = Msg::default().msg(2, object);
    let bytes = [b"k8s\0".as_slice(), &envelope.0].concat();
    let sa = decode(&bytes, "v1", "ServiceAccount").unwrap();
    assert_eq!(sa["kind"], "ServiceAccount");
    assert_eq!(sa["metadata"]["name"], "x");
}

/// Empty values: pointers keep a written zero, non-pointers drop it under `omitempty`,
/// structs stay, lists and maps go when empty; without `omitempty`, what is not there is null
/// (the selector, a pointer; the containers, a list).
#[test]
fn empty_values_come_out_as_go_writes_them() {
    let spec = Msg::default()
        .varint(1, 0) // replicas: *int32, written zero
        .varint(5, 0) // minReadySeconds: int32, omitempty
        .varint(7, 0); // paused: bool, omitempty
    let deployment = Msg::default()
        .msg(1, Msg::default().string(1, "web"))
        .msg(2, spec);
    let d = decoded("apps/v1", "Deployment", &deployment);
    assert_eq!(
        d,
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
            "spec": {"replicas": 0, "selector": null, "template": {"metadata": {}, "spec": {"containers": null}},
                "strategy": {}},
            "status": {}})
    );

    // A service port's port (int32, not omitempty) is kept at 0; its targetPort (an
    // IntOrString struct) is written even unset.
    let port = Msg::default().string(1, "p");
    let spec = Msg::default().msg(1, port);
    let svc = decoded("v1", "Service", &Msg::default().msg(2, spec));
    assert_eq!(
        svc["spec"]["ports"],
        json!([{"name": "p", "port": 0, "targetPort": 0}])
    );
}

#[test]
fn times_quantities_and_numbers_or_strings() {
    // A core/v1 Event: firstTimestamp (Time, not a pointer) unset is null; lastTimestamp
    // set; eventTime a MicroTime.
    let event = Msg::default()
        .msg(1, Msg::default().string(1, "e"))
        .msg(7, Msg::default().varint(1, 1_704_164_645).varint(2, 999))
        .msg(
            10,
            Msg::default()
                .varint(1, 1_704_164_645)
                .varint(2, 123_456_789),
        );
    let e = decoded("v1", "Event", &event);
    assert_eq!(e["firstTimestamp"], Value::Null);
    assert_eq!(e["lastTimestamp"], "2024-01-02T03:04:05Z");
    assert_eq!(e["eventTime"], "2024-01-02T03:04:05.123456Z");
    assert_eq!(e["involvedObject"], json!({}));

    // Go's zero time, written, is null; a time past year 9999 is refused.
    let zero = Msg::default().msg(7, Msg::default().varint(1, (-62_135_596_800i64) as u64));
    assert_eq!(decoded("v1", "Event", &zero)["lastTimestamp"], Value::Null);
    let far = Msg::default().msg(7, Msg::default().varint(1, 1 << 40));
    assert!(decode(&body("v1", "Event", &far), "", "").is_err());

    // Quantities in a map; an IntOrString of each kind; a bad IntOrString type.
    let quota = Msg::default().msg(
        2,
        Msg::default()
            .entry(1, "cpu", Msg::default().string(1, "500m"))
            .entry(1, "pods", Msg::default()),
    );
    let q = decoded("v1", "ResourceQuota", &quota);
    assert_eq!(q["spec"]["hard"], json!({"cpu": "500m", "pods": "0"}));
    let port = |ios: Msg| {
        let spec = Msg::default().msg(1, Msg::default().varint(3, 80).msg(4, ios));
        body("v1", "Service", &Msg::default().msg(2, spec))
    };
    let named = decode(&port(Msg::default().varint(1, 1).string(3, "http")), "", "").unwrap();
    assert_eq!(named["spec"]["ports"][0]["targetPort"], "http");
    let number = decode(&port(Msg::default().varint(2, 8080)), "", "").unwrap();
    assert_eq!(number["spec"]["ports"][0]["targetPort"], 8080);
    assert!(decode(&port(Msg::default().varint(1, 2)), "", "").is_err());
}

#[test]
fn micro_times_and_pointers_in_a_lease() {
    let spec = Msg::default()
        .string(1, "me")
        .varint(2, 15)
        .msg(3, Msg::default().varint(1, 0).varint(2, 1_500))
        .varint(5, 0);
    let lease = decoded(
        "coordination.k8s.io/v1",
        "Lease",
        &Msg::default().msg(2, spec),
    );
    assert_eq!(
        lease["spec"],
        json!({"holderIdentity": "me", "leaseDurationSeconds": 15,
            "acquireTime": "1970-01-01T00:00:00.000001Z", "leaseTransitions": 0})
    );
}

#[test]
fn durations() {
    let table = table().unwrap();
    let ty = table
        .types
        .iter()
        .position(|t| t.name == "io.k8s.apimachinery.pkg.apis.meta.v1.Duration")
        .unwrap();
    let decoder = Decoder { table };
    let m = Msg::default().varint(1, 90_000_000_000);
    let slice = Slice {
        bytes: &m.0,
        offset: 0,
    };
    assert_eq!(decoder.message(ty, &[slice], 0).unwrap(), "1m30s");
    assert_eq!(decoder.message(ty, &[], 0).unwrap(), "0s");
}

/// Secret data: bytes in base64; a binary string field: bytes that are not UTF-8 become
/// U+FFFD, as Go's JSON encoding writes them.
#[test]
fn bytes_and_strings() {
    let secret = Msg::default()
        .entry(2, "k", Msg::default())
        .msg(
            2,
            Msg::default().string(1, "bin").bytes(2, &[0, 0xff, 0x10]),
        )
        .bytes(3, b"a\xffb");
    let s = decoded("v1", "Secret", &secret);
    assert_eq!(s["data"], json!({"bin": "AP8Q", "k": ""}));
    assert_eq!(s["type"], "a\u{fffd}b");
}

/// A CustomResourceDefinition's schema: doubles, raw JSON, and the three either-or forms.
#[test]
fn crd_schemas() {
    let leaf = Msg::default()
        .string(5, "number")
        .double(9, 10.0)
        .double(11, -1.5)
        .msg(8, Msg::default().bytes(1, b"{\"a\": [1, 2]}"))
        .msg(20, Msg::default().bytes(1, b"\"x\""))
        .varint(38, 0);
    let schema = Msg::default()
        .string(5, "object")
        .entry(29, "size", leaf.clone())
        .msg(24, Msg::default().msg(1, leaf.clone()))
        .msg(30, Msg::default().varint(1, 0))
        .msg(
            33,
            Msg::default().msg(2, Msg::default().string(5, "string")),
        )
        .entry(
            32,
            "size",
            Msg::default().string(2, "other").string(2, "more"),
        );
    let version = Msg::default()
        .string(1, "v1")
        .varint(2, 1)
        .varint(3, 1)
        .msg(4, Msg::default().msg(1, schema));
    let spec = Msg::default()
        .string(1, "example.com")
        .msg(3, Msg::default().string(1, "widgets").string(4, "Widget"))
        .string(4, "Namespaced")
        .msg(7, version);
    let crd = Msg::default()
        .msg(1, Msg::default().string(1, "widgets.example.com"))
        .msg(2, spec);
    let crd = decoded("apiextensions.k8s.io/v1", "CustomResourceDefinition", &crd);
    let leaf_json = json!({"type": "number", "maximum": 10, "minimum": -1.5,
        "default": {"a": [1, 2]}, "enum": ["x"], "x-kubernetes-preserve-unknown-fields": false});
    assert_eq!(
        crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"],
        json!({"type": "object", "properties": {"size": leaf_json}, "items": leaf_json,
            "additionalProperties": false, "additionalItems": {"type": "string"},
            "dependencies": {"size": ["other", "more"]}})
    );
    assert_eq!(
        crd["spec"]["names"],
        json!({"plural": "widgets", "kind": "Widget"})
    );

    let bad = Msg::default().msg(8, Msg::default().bytes(1, b"{not json"));
    let spec = Msg::default().msg(7, Msg::default().msg(4, Msg::default().msg(1, bad)));
    let e = error(&body(
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
        &Msg::default().msg(2, spec),
    ));
    assert_eq!(
        e.path(),
        "spec.versions[0].schema.openAPIV3Schema.default",
        "{e}"
    );
}

/// A schema nested through `not` far deeper than the limit: refused, on a small stack.
#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    let mut schema = Msg::default().string(5, "string");
    for _ in 0..2000 {
        schema = Msg::default().msg(28, schema);
    }
    let spec = Msg::default().msg(7, Msg::default().msg(4, Msg::default().msg(1, schema)));
    let bytes = body(
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
        &Msg::default().msg(2, spec),
    );
    let e = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || error(&bytes))
        .unwrap()
        .join()
        .unwrap();
    assert!(
        e.message.contains(&format!("deeper than {MAX_NESTING}")),
        "{e}"
    );

    // Within the message limit but past the JSON one (each level is two: the schema and its
    // properties).
    let mut schema = Msg::default().string(5, "string");
    for _ in 0..80 {
        schema = Msg::default().entry(29, "p", schema);
    }
    let spec = Msg::default().msg(7, Msg::default().msg(4, Msg::default().msg(1, schema)));
    let e = error(&body(
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
        &Msg::default().msg(2, spec),
    ));
    assert!(e.message.contains("nests deeper"), "{e}");
}

/// Packed and unpacked lists of numbers read alike; a message written twice is merged.
#[test]
fn packed_lists_and_merged_messages() {
    let mut packed = Vec::new();
    for v in [1u64, 2, 300] {
        varint_bytes(v, &mut packed);
    }
    let context = Msg::default().bytes(4, &packed).varint(4, 4);
    let spec = Msg::default()
        .msg(14, context)
        .msg(14, Msg::default().varint(2, 1000));
    let pod = decoded("v1", "Pod", &Msg::default().msg(2, spec));
    assert_eq!(
        pod["spec"]["securityContext"],
        json!({"supplementalGroups": [1, 2, 300, 4], "runAsUser": 1000})
    );
}
