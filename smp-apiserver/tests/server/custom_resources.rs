//! Custom resources through kube: a CRD created through the API makes its kind served (in
//! discovery too), its objects get field management from the CRD's schema, strategic merge
//! patch and protobuf bodies are refused as the server refuses them, the status subresource writes the status alone,
//! and deleting the CRD takes its objects with it.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{
    Api, ApiResource, DeleteParams, DynamicObject, GroupVersionKind, Patch, PatchParams, PostParams,
};
use serde_json::{Value, json};
use smp_apiserver::ApiServer;

fn crd() -> CustomResourceDefinition {
    serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "shortNames": ["wd"]},
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "subresources": {"status": {}},
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": {
                        "size": {"type": "integer"},
                        "ports": {"type": "array", "x-kubernetes-list-type": "map",
                                  "x-kubernetes-list-map-keys": ["name"],
                                  // A map list's key must be required (or defaulted).
                                  "items": {"type": "object", "required": ["name"], "properties": {
                                      "name": {"type": "string"}, "port": {"type": "integer"}}}}
                    }},
                    "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}
                }}}
            }]
        }
    }))
    .unwrap()
}

fn widget(size: i64) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
           "spec": {"size": size, "ports": [{"name": "http", "port": 80}]}})
}

#[tokio::test]
async fn a_crd_serves_its_kind() {
    let client = kube::Client::new(ApiServer::default(), "default");
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    crds.create(&PostParams::default(), &crd()).await.unwrap();
    let established = crds.get("widgets.example.com").await.unwrap();
    let conditions = established.status.unwrap().conditions.unwrap();
    assert!(
        conditions
            .iter()
            .any(|c| c.type_ == "Established" && c.status == "True")
    );

    // Discovery shows the new group.
    let list: Value = client
        .request(
            http::Request::get("/apis/example.com/v1")
                .body(Vec::new())
                .unwrap(),
        )
        .await
        .unwrap();
    let names: Vec<&str> = list["resources"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(names, ["widgets", "widgets/status"]);

    let resource = ApiResource::from_gvk(&GroupVersionKind::gvk("example.com", "v1", "Widget"));
    let widgets: Api<DynamicObject> = Api::default_namespaced_with(client.clone(), &resource);
    let w: DynamicObject = serde_json::from_value(widget(1)).unwrap();
    widgets.create(&PostParams::default(), &w).await.unwrap();

    // Server-side apply by the CRD's schema: `ports` is a map list keyed by name.
    let applied = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
        "spec": {"ports": [{"name": "metrics", "port": 9090}]}});
    let after = widgets
        .patch("w", &PatchParams::apply("ops"), &Patch::Apply(&applied))
        .await
        .unwrap();
    assert_eq!(after.data["spec"]["ports"].as_array().unwrap().len(), 2);
    let theirs = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
        "spec": {"ports": [{"name": "metrics", "port": 9191}]}});
    let refused = widgets
        .patch("w", &PatchParams::apply("someone"), &Patch::Apply(&theirs))
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("not an API error")
    };
    assert_eq!(
        status.message,
        "Apply failed with 1 conflict: conflict with \"ops\": .spec.ports[name=\"metrics\"].port"
    );

    // Strategic merge patch is not for custom resources.
    let refused = widgets
        .patch(
            "w",
            &PatchParams::default(),
            &Patch::Strategic(json!({"spec": {"size": 2}})),
        )
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("not an API error")
    };
    assert_eq!(
        (status.code, status.reason.as_str()),
        (415, "UnsupportedMediaType")
    );

    // Nor is Kubernetes' protobuf encoding: custom resources have no protobuf form.
    let refused = client
        .request::<Value>(
            http::Request::post("/apis/example.com/v1/namespaces/default/widgets")
                .header("content-type", "application/vnd.kubernetes.protobuf")
                .body(b"k8s\0".to_vec())
                .unwrap(),
        )
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("not an API error")
    };
    assert_eq!(
        (status.code, status.message.as_str()),
        (
            415,
            "the body of the request was in an unknown format - accepted media types include: \
             application/json, application/yaml"
        )
    );

    // The status subresource writes the status and nothing else.
    let mut reported = widgets.get("w").await.unwrap();
    reported.data["status"] = json!({"ready": true});
    reported.data["spec"]["size"] = json!(99);
    widgets
        .replace_status("w", &PostParams::default(), &reported)
        .await
        .unwrap();
    let now = widgets.get("w").await.unwrap();
    assert_eq!(
        (
            now.data["status"]["ready"].clone(),
            now.data["spec"]["size"].clone()
        ),
        (json!(true), json!(1))
    );

    // The CRD goes, and its objects with it.
    crds.delete("widgets.example.com", &DeleteParams::default())
        .await
        .unwrap();
    let gone = widgets.get("w").await.unwrap_err();
    let kube::Error::Api(status) = gone else {
        panic!("not an API error")
    };
    assert_eq!(status.code, 404);
}

/// With `custom_resource_strategic_merge`, a custom resource takes a strategic merge patch,
/// merged by its CRD's list types: a port added by name, the other kept (after the patch's
/// items, as strategic merge orders a list the patch does not order).
#[tokio::test]
async fn custom_resources_take_strategic_merge_when_asked() {
    let server = ApiServer::new(smp_apiserver::Options {
        custom_resource_strategic_merge: true,
        ..Default::default()
    });
    let client = kube::Client::new(server, "default");
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    crds.create(&PostParams::default(), &crd()).await.unwrap();
    let gvk = GroupVersionKind::gvk("example.com", "v1", "Widget");
    let widgets: Api<DynamicObject> =
        Api::namespaced_with(client, "default", &ApiResource::from_gvk(&gvk));
    let created: DynamicObject = serde_json::from_value(widget(1)).unwrap();
    widgets
        .create(&PostParams::default(), &created)
        .await
        .unwrap();
    let patch = json!({"spec": {"size": 2, "ports": [{"name": "metrics", "port": 9090}]}});
    let patched = widgets
        .patch("w", &PatchParams::default(), &Patch::Strategic(patch))
        .await
        .unwrap();
    assert_eq!(
        patched.data["spec"],
        json!({"size": 2, "ports": [{"name": "metrics", "port": 9090}, {"name": "http", "port": 80}]})
    );
}

/// A CRD's `scale` subresource reads and writes the paths it names.
#[tokio::test]
async fn a_crds_scale_subresource_uses_its_paths() {
    let client = kube::Client::new(ApiServer::default(), "default");
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let mut scalable = serde_json::to_value(crd()).unwrap();
    scalable["spec"]["versions"][0]["subresources"]["scale"] = json!({
        "specReplicasPath": ".spec.size",
        "statusReplicasPath": ".status.count",
        "labelSelectorPath": ".status.selector",
    });
    let props = &mut scalable["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"];
    props["status"]["properties"]["count"] = json!({"type": "integer"});
    props["status"]["properties"]["selector"] = json!({"type": "string"});
    props["spec"]["properties"]["size"]["maximum"] = json!(10);
    let scalable: CustomResourceDefinition = serde_json::from_value(scalable).unwrap();
    crds.create(&PostParams::default(), &scalable)
        .await
        .unwrap();
    let gvk = GroupVersionKind::gvk("example.com", "v1", "Widget");
    let resource = ApiResource::from_gvk_with_plural(&gvk, "widgets");
    let api: Api<DynamicObject> = Api::namespaced_with(client, "default", &resource);
    let w: DynamicObject = serde_json::from_value(widget(2)).unwrap();
    api.create(&PostParams::default(), &w).await.unwrap();
    let status = json!({"status": {"count": 1, "selector": "app=w"}});
    api.patch_status("w", &PatchParams::default(), &Patch::Merge(&status))
        .await
        .unwrap();

    let scale = api.get_scale("w").await.unwrap();
    assert_eq!(scale.spec.unwrap().replicas, Some(2));
    let st = scale.status.unwrap();
    assert_eq!((st.replicas, st.selector.as_deref()), (1, Some("app=w")));
    let patch = json!({"spec": {"replicas": 4}});
    api.patch_scale("w", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    assert_eq!(api.get("w").await.unwrap().data["spec"]["size"], 4);
    // A scale write stores through the custom resource's own strategy, so its schema applies
    // (apiextensions-apiserver `registry/customresource/etcd.go`, `ScaleREST.Update`).
    let too_many = json!({"spec": {"replicas": 11}});
    let refused = api
        .patch_scale("w", &PatchParams::default(), &Patch::Merge(&too_many))
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("{refused}")
    };
    assert_eq!(
        status.message,
        r#"Widget.example.com "w" is invalid: spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10"#
    );
    assert_eq!(api.get("w").await.unwrap().data["spec"]["size"], 4);
    // The replica counts where the scale subresource points are checked on every write
    // (apiextensions-apiserver `registry/customresource/validator.go`, `ValidateScaleSpec`).
    let negative = json!({"spec": {"size": -1}});
    let refused = api
        .patch("w", &PatchParams::default(), &Patch::Merge(&negative))
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("{refused}")
    };
    assert_eq!(
        status.message,
        r#"Widget.example.com "w" is invalid: .spec.size: Invalid value: -1: should be a non-negative integer"#
    );
}

/// A custom resource written through kube comes back with its schema's defaults, as the
/// custom resource handler's decoding gives them (apiextensions-apiserver
/// `customresource_handler.go`: pruning and the drop of non-nullable `null`s, then the
/// structural defaults, `pkg/apiserver/schema/defaulting`), on create and again after a merge
/// patch removes a defaulted member.
#[tokio::test]
async fn custom_resources_get_their_schemas_defaults() {
    let client = kube::Client::new(ApiServer::default(), "default");
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let mut with_defaults = serde_json::to_value(crd()).unwrap();
    let spec = &mut with_defaults["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]
        ["spec"]["properties"];
    spec["size"]["default"] = json!(3);
    spec["ports"]["items"]["properties"]["protocol"] = json!({"type": "string", "default": "TCP"});
    spec["mode"] = json!({"type": "string"});
    let with_defaults: CustomResourceDefinition = serde_json::from_value(with_defaults).unwrap();
    crds.create(&PostParams::default(), &with_defaults)
        .await
        .unwrap();

    let resource = ApiResource::from_gvk(&GroupVersionKind::gvk("example.com", "v1", "Widget"));
    let widgets: Api<DynamicObject> = Api::default_namespaced_with(client.clone(), &resource);
    let w: DynamicObject = serde_json::from_value(json!({"apiVersion": "example.com/v1",
        "kind": "Widget", "metadata": {"name": "w"},
        "spec": {"ports": [{"name": "http", "port": 80}]}}))
    .unwrap();
    let created = widgets.create(&PostParams::default(), &w).await.unwrap();
    assert_eq!(
        created.data["spec"],
        json!({"size": 3, "ports": [{"name": "http", "port": 80, "protocol": "TCP"}]})
    );

    let patch = json!({"spec": {"size": null, "mode": null}});
    let patched = widgets
        .patch("w", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    // A merge patch's `null` removes `size`, which the default then restores.
    assert_eq!(patched.data["spec"]["size"], 3);
    assert!(patched.data["spec"].get("mode").is_none());
}

/// A custom resource its schema refuses is refused with the server's 422, word for word
/// (kube-openapi's messages as apiextensions-apiserver `pkg/apiserver/validation` turns them
/// into field errors), and an update that leaves a field its tightened schema now refuses as it
/// was passes (`CRDValidationRatcheting`, on in v1.34).
#[tokio::test]
async fn custom_resources_are_validated_by_their_schemas() {
    let client = kube::Client::new(ApiServer::default(), "default");
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let mut strict = serde_json::to_value(crd()).unwrap();
    let spec =
        &mut strict["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    spec["properties"]["size"]["minimum"] = json!(1);
    spec["properties"]["colour"] = json!({"type": "string", "enum": ["red", "blue"]});
    let strict: CustomResourceDefinition = serde_json::from_value(strict).unwrap();
    crds.create(&PostParams::default(), &strict).await.unwrap();

    let resource = ApiResource::from_gvk(&GroupVersionKind::gvk("example.com", "v1", "Widget"));
    let widgets: Api<DynamicObject> = Api::default_namespaced_with(client.clone(), &resource);
    let mut bad = widget(0);
    bad["spec"]["colour"] = json!("green");
    bad["spec"]["ports"] = json!([{"name": "http", "port": 80}, {"name": "http", "port": 81}]);
    let bad: DynamicObject = serde_json::from_value(bad).unwrap();
    let err = widgets
        .create(&PostParams::default(), &bad)
        .await
        .unwrap_err();
    let kube::Error::Api(status) = err else {
        panic!("{err}")
    };
    assert_eq!(status.code, 422);
    assert_eq!(
        status.message,
        r#"Widget.example.com "w" is invalid: [spec.colour: Unsupported value: "green": supported values: "red", "blue", spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1, spec.ports[1]: Duplicate value: {"name":"http"}]"#
    );

    // Unknown fields under fieldValidation=Strict: the create is a 400 in the words of the
    // handlers' transformDecodeError (apiserver pkg/endpoints/handlers/rest.go).
    let mut extra = widget(1);
    extra["spec"]["extra"] = json!(true);
    let err = client
        .request::<Value>(
            http::Request::post(
                "/apis/example.com/v1/namespaces/default/widgets?fieldValidation=Strict",
            )
            .header("content-type", "application/json")
            .body(serde_json::to_vec(&extra).unwrap())
            .unwrap(),
        )
        .await
        .unwrap_err();
    let kube::Error::Api(status) = err else {
        panic!("{err}")
    };
    assert_eq!(status.code, 400);
    assert_eq!(
        status.message,
        r#"Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.extra""#
    );

    // The schema tightened after an object was stored: an update of another field passes
    // with the old size, a change of the size is held to the new minimum.
    let ok: DynamicObject = serde_json::from_value(widget(1)).unwrap();
    widgets.create(&PostParams::default(), &ok).await.unwrap();
    let mut tighter = crds.get("widgets.example.com").await.unwrap();
    let mut schema = serde_json::to_value(&tighter.spec.versions[0].schema).unwrap();
    schema["openAPIV3Schema"]["properties"]["spec"]["properties"]["size"]["minimum"] = json!(5);
    tighter.spec.versions[0].schema = serde_json::from_value(schema).unwrap();
    crds.replace("widgets.example.com", &PostParams::default(), &tighter)
        .await
        .unwrap();
    let other = json!({"spec": {"colour": "red"}});
    widgets
        .patch("w", &PatchParams::default(), &Patch::Merge(&other))
        .await
        .unwrap();
    let size = json!({"spec": {"size": 2}});
    let err = widgets
        .patch("w", &PatchParams::default(), &Patch::Merge(&size))
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains(
            "spec.size: Invalid value: 2: spec.size in body should be greater than or equal to 5"
        ),
        "{err}"
    );
}

/// A write to the status subresource is validated as the status strategy validates it: the
/// status alone against its schema, the message naming the member without `status.` and the
/// field with it (apiextensions-apiserver `pkg/registry/customresource/status_strategy.go`).
#[tokio::test]
async fn status_writes_are_validated_by_the_status_schema() {
    let client = kube::Client::new(ApiServer::default(), "default");
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    crds.create(&PostParams::default(), &crd()).await.unwrap();
    let resource = ApiResource::from_gvk(&GroupVersionKind::gvk("example.com", "v1", "Widget"));
    let widgets: Api<DynamicObject> = Api::default_namespaced_with(client.clone(), &resource);
    let w: DynamicObject = serde_json::from_value(widget(1)).unwrap();
    widgets.create(&PostParams::default(), &w).await.unwrap();

    let ok = json!({"status": {"ready": true}});
    widgets
        .patch_status("w", &PatchParams::default(), &Patch::Merge(&ok))
        .await
        .unwrap();
    let bad = json!({"status": {"ready": "yes"}});
    let err = widgets
        .patch_status("w", &PatchParams::default(), &Patch::Merge(&bad))
        .await
        .unwrap_err();
    let kube::Error::Api(status) = err else {
        panic!("{err}")
    };
    assert_eq!(status.code, 422);
    assert_eq!(
        status.message,
        r#"Widget.example.com "w" is invalid: status.ready: Invalid value: "string": ready in body must be of type boolean: "string""#
    );
}

/// The CRD strategy's checks (apiextensions-apiserver `validation.go`): a schema that is not
/// structural, or a rule that does not compile, is refused with the server's 422.
#[tokio::test]
async fn a_crd_the_server_would_refuse_is_refused() {
    let client = kube::Client::new(ApiServer::default(), "default");
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let mut untyped = serde_json::to_value(crd()).unwrap();
    untyped["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["colour"] = json!({"description": "no type"});
    untyped["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"] =
        json!([{"rule": "self.size >"}]);
    let refused = crds
        .create(
            &PostParams::default(),
            &serde_json::from_value(untyped).unwrap(),
        )
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("{refused}")
    };
    assert_eq!(status.code, 422);
    assert_eq!(
        status.message,
        "CustomResourceDefinition.apiextensions.k8s.io \"widgets.example.com\" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[colour].type: Required value: must not be empty for specified object fields"
    );
    // Nothing was stored, and the kind is not served.
    assert!(crds.get_opt("widgets.example.com").await.unwrap().is_none());
    // The same CRD with the type given, but a rule that does not parse.
    let mut unparsed = serde_json::to_value(crd()).unwrap();
    unparsed["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"] =
        json!([{"rule": "self.size >"}]);
    let refused = crds
        .create(
            &PostParams::default(),
            &serde_json::from_value(unparsed).unwrap(),
        )
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("{refused}")
    };
    let cause = &status.details.as_ref().unwrap().causes[0];
    assert_eq!(
        cause.field,
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"
    );
    assert!(
        cause.message.contains("compilation failed: "),
        "{}",
        cause.message
    );
}

/// An embedded resource (`x-kubernetes-embedded-resource`) decodes and validates as a
/// resource (apiextensions-apiserver `schema/objectmeta`): its metadata must decode as an
/// ObjectMeta (400 otherwise), and it needs its `apiVersion` and `kind` (422).
#[tokio::test]
async fn embedded_resources_are_checked_as_resources() {
    let client = kube::Client::new(ApiServer::default(), "default");
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let mut with_template = serde_json::to_value(crd()).unwrap();
    with_template["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["template"] = json!({"type": "object", "x-kubernetes-embedded-resource": true,
               "x-kubernetes-preserve-unknown-fields": true});
    crds.create(
        &PostParams::default(),
        &serde_json::from_value(with_template).unwrap(),
    )
    .await
    .unwrap();
    let resource = ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk("example.com", "v1", "Widget"),
        "widgets",
    );
    let widgets: Api<DynamicObject> = Api::namespaced_with(client, "default", &resource);
    let mut widget = widget(1);
    widget["spec"]["template"] = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"labels": {"a": 1}}});
    let refused = widgets
        .create(
            &PostParams::default(),
            &serde_json::from_value(widget.clone()).unwrap(),
        )
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("{refused}")
    };
    assert_eq!(status.code, 400);
    assert_eq!(
        status.message,
        r#"Widget in version "v1" cannot be handled as a Widget: spec.template.metadata: Invalid value: {"labels":{"a":1}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"#
    );
    widget["spec"]["template"] = json!({"metadata": {"name": "a/b"}});
    let refused = widgets
        .create(
            &PostParams::default(),
            &serde_json::from_value(widget).unwrap(),
        )
        .await
        .unwrap_err();
    let kube::Error::Api(status) = refused else {
        panic!("{refused}")
    };
    assert_eq!(status.code, 422);
    assert_eq!(
        status.message,
        r#"Widget.example.com "w" is invalid: [spec.template.apiVersion: Required value, spec.template.kind: Required value, spec.template.metadata.name: Invalid value: "a/b": may not contain '/']"#
    );
}

/// Defaults apply on read too (the storage decoder defaults what it reads): an object stored
/// before its CRD gained a default reads back with it, at the revision it was written.
#[tokio::test]
async fn a_default_added_later_is_read_back() {
    let client = kube::Client::new(ApiServer::default(), "default");
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    crds.create(&PostParams::default(), &crd()).await.unwrap();
    let resource = ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk("example.com", "v1", "Widget"),
        "widgets",
    );
    let widgets: Api<DynamicObject> = Api::namespaced_with(client, "default", &resource);
    let mut plain = widget(1);
    plain["spec"].as_object_mut().unwrap().remove("size");
    let written = widgets
        .create(
            &PostParams::default(),
            &serde_json::from_value(plain).unwrap(),
        )
        .await
        .unwrap();
    assert!(written.data["spec"].get("size").is_none());
    let revision = written.metadata.resource_version.clone();
    let mut defaulted = crds.get("widgets.example.com").await.unwrap();
    let mut value = serde_json::to_value(&defaulted).unwrap();
    value["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["size"]["default"] = json!(3);
    defaulted = serde_json::from_value(value).unwrap();
    crds.replace("widgets.example.com", &PostParams::default(), &defaulted)
        .await
        .unwrap();
    let read = widgets.get("w").await.unwrap();
    assert_eq!(read.data["spec"]["size"], json!(3));
    assert_eq!(
        read.metadata.resource_version, revision,
        "a read writes nothing"
    );
    let listed = widgets.list(&Default::default()).await.unwrap();
    assert_eq!(listed.items[0].data["spec"]["size"], json!(3));
}

/// A rule added after an object was stored, which the object breaks, does not refuse an
/// update that leaves the broken part as it was: the failure comes back as a warning
/// (ratcheting, apiextensions-apiserver `schema/cel/validation.go`).
#[tokio::test]
async fn a_ratcheted_rule_failure_is_a_warning() {
    let server = ApiServer::default();
    let client = kube::Client::new(server.clone(), "default");
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    crds.create(&PostParams::default(), &crd()).await.unwrap();
    let resource = ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk("example.com", "v1", "Widget"),
        "widgets",
    );
    let widgets: Api<DynamicObject> = Api::namespaced_with(client, "default", &resource);
    widgets
        .create(
            &PostParams::default(),
            &serde_json::from_value(widget(1)).unwrap(),
        )
        .await
        .unwrap();
    let mut ruled = serde_json::to_value(crds.get("widgets.example.com").await.unwrap()).unwrap();
    ruled["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["size"]["x-kubernetes-validations"] =
        json!([{"rule": "self > 1", "message": "must be more than one"}]);
    crds.replace(
        "widgets.example.com",
        &PostParams::default(),
        &serde_json::from_value(ruled).unwrap(),
    )
    .await
    .unwrap();
    let patch = http::Request::patch("/apis/example.com/v1/namespaces/default/widgets/w")
        .header("content-type", "application/merge-patch+json")
        .body(bytes::Bytes::from_static(
            br#"{"metadata":{"labels":{"a":"b"}}}"#,
        ))
        .unwrap();
    let answer = server.handle(patch);
    assert_eq!(answer.status(), http::StatusCode::OK);
    assert_eq!(
        answer.headers()["warning"],
        r#"299 - "spec.size: Invalid value: \"integer\": must be more than one""#
    );
}
