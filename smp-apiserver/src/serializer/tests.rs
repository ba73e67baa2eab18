use serde_json::json;

use super::*;

fn written(value: &Value) -> String {
    String::from_utf8(to_vec(value)).unwrap()
}

#[test]
fn built_in_objects_come_in_go_order() {
    let service = json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "web", "namespace": "default", "labels": {"b": "2", "a": "1"},
                     "uid": "u", "resourceVersion": "5", "creationTimestamp": "2026-11-28T12:00:00Z"},
        "spec": {"type": "ClusterIP", "ports": [{"protocol": "TCP", "port": 80, "name": "http",
                 "targetPort": 8080}], "selector": {"app": "web"}, "clusterIP": "10.96.0.10"},
        "status": {"loadBalancer": {}}
    });
    assert_eq!(
        written(&service),
        concat!(
            r#"{"kind":"Service","apiVersion":"v1","metadata":{"name":"web","namespace":"default","#,
            r#""uid":"u","resourceVersion":"5","creationTimestamp":"2026-11-28T12:00:00Z","#,
            r#""labels":{"a":"1","b":"2"}},"spec":{"ports":[{"name":"http","protocol":"TCP","#,
            r#""port":80,"targetPort":8080}],"selector":{"app":"web"},"clusterIP":"10.96.0.10","#,
            r#""type":"ClusterIP"},"status":{"loadBalancer":{}}}"#
        )
    );
}

#[test]
fn members_no_type_declares_come_last_sorted() {
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "zeta": 1, "alpha": 2,
                     "metadata": {"name": "p"}});
    assert_eq!(
        written(&pod),
        r#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"},"alpha":2,"zeta":1}"#
    );
}

#[test]
fn custom_resources_are_maps_and_come_sorted() {
    let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget",
                        "metadata": {"name": "w", "namespace": "n"}, "spec": {"b": 1, "a": 2}});
    assert_eq!(
        written(&widget),
        r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"n"},"spec":{"a":2,"b":1}}"#
    );
}

#[test]
fn lists_statuses_and_events_have_their_order() {
    let list = json!({"apiVersion": "v1", "kind": "ConfigMapList",
                      "metadata": {"resourceVersion": "7"},
                      "items": [{"apiVersion": "v1", "kind": "ConfigMap", "data": {"k": "v"},
                                 "metadata": {"name": "c"}}]});
    assert_eq!(
        written(&list),
        concat!(
            r#"{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"#,
            r#""items":[{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"},"data":{"k":"v"}}]}"#
        )
    );
    let status = json!({"apiVersion": "v1", "kind": "Status", "code": 404, "status": "Failure",
                        "message": "m", "reason": "NotFound", "metadata": {},
                        "details": {"name": "x", "kind": "pods"}});
    assert_eq!(
        written(&status),
        concat!(
            r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"m","#,
            r#""reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}"#
        )
    );
    let line = event_line(
        "ADDED",
        &json!({"apiVersion": "v1", "kind": "Namespace",
                                          "metadata": {"name": "n"}}),
    );
    assert_eq!(
        String::from_utf8(line).unwrap(),
        "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n\"}}}\n"
    );
}

#[test]
fn strings_are_escaped_as_go_escapes_them() {
    let value = json!("<none> & \"q\" \\ \n\u{1}\u{2028}é");
    let mut out = Vec::new();
    write(&value, Node::Sorted, &mut out, &mut Vec::new());
    assert_eq!(
        String::from_utf8(out).unwrap(),
        r#""\u003cnone\u003e \u0026 \"q\" \\ \n\u0001\u2028é""#
    );
    let parsed: Value = serde_json::from_slice(&to_vec(&json!({"s": "<a>"}))).unwrap();
    assert_eq!(parsed, json!({"s": "<a>"}));
}

#[test]
fn lists_of_custom_resources_come_sorted() {
    let items = [br#"{"a":1}"#.as_slice()];
    let built_in = list(
        "v1",
        "PodList",
        &json!({"resourceVersion": "1"}),
        items.into_iter(),
    );
    assert_eq!(
        String::from_utf8(built_in).unwrap(),
        r#"{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[{"a":1}]}"#
    );
    let custom = list(
        "example.com/v1",
        "WidgetList",
        &json!({"resourceVersion": "1"}),
        items.into_iter(),
    );
    assert_eq!(
        String::from_utf8(custom).unwrap(),
        r#"{"apiVersion":"example.com/v1","items":[{"a":1}],"kind":"WidgetList","metadata":{"resourceVersion":"1"}}"#
    );
}

#[test]
fn a_built_in_lists_items_carry_no_type() {
    // The server's typed list of pods holds `Pod`s with an empty TypeMeta; items of custom
    // resources are unstructured and keep theirs.
    let pod = br#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}}"#;
    let written = list(
        "v1",
        "PodList",
        &json!({"resourceVersion": "1"}),
        [pod.as_slice(), br#"{"metadata":{}}"#.as_slice()].into_iter(),
    );
    assert_eq!(
        String::from_utf8(written).unwrap(),
        r#"{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"p"}},{"metadata":{}}]}"#
    );
    let widget = br#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{}}"#;
    let custom = list(
        "example.com/v1",
        "WidgetList",
        &json!({}),
        [widget.as_slice()].into_iter(),
    );
    assert!(
        String::from_utf8(custom)
            .unwrap()
            .contains(r#""items":[{"apiVersion":"example.com/v1","kind":"Widget""#)
    );
}
