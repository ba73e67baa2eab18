//! The validating admission plugins as kube-apiserver v1.34 runs them after validation.
//! PodSecurity with its default configuration (`plugin/pkg/admission/security/podsecurity`,
//! `k8s.io/pod-security-admission` `admission/admission.go`): a namespace's `enforce` level
//! refuses Pods with a 403, its `warn` level (which follows `enforce`) warns about Pods and
//! workloads' templates, its labels are checked, and tightening it warns about the Pods
//! already there. LimitRanger (`plugin/pkg/admission/limitranger`): a Pod outside its
//! namespace's LimitRanges is refused with a 403, after the same plugin filled its defaults.
//! PersistentVolumeClaimResize: a claim grows only where its class allows expansion.

use bytes::Bytes;
use http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use smp_apiserver::{ApiServer, Options};

fn send(
    server: &ApiServer,
    method: &str,
    path: &str,
    content_type: &str,
    body: Value,
) -> http::Response<smp_apiserver::Body> {
    server.handle(
        Request::builder()
            .method(method)
            .uri(path)
            .header("content-type", content_type)
            .body(Bytes::from(serde_json::to_vec(&body).unwrap()))
            .unwrap(),
    )
}

fn post(server: &ApiServer, path: &str, body: Value) -> http::Response<smp_apiserver::Body> {
    send(server, "POST", path, "application/json", body)
}

async fn body(response: http::Response<smp_apiserver::Body>) -> Value {
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

fn warnings(response: &http::Response<smp_apiserver::Body>) -> Vec<String> {
    response
        .headers()
        .get_all("warning")
        .iter()
        .map(|w| w.to_str().unwrap().to_owned())
        .collect()
}

/// A warning as the `Warning` header carries it (`299 - "<text, quotes escaped>"`).
fn header(text: &str) -> String {
    format!("299 - \"{}\"", text.replace('"', "\\\""))
}

fn namespace(name: &str, labels: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": labels}})
}

fn pod(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec})
}

const RESTRICTED_APP: &str = r#"allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")"#;

#[tokio::test]
async fn an_enforced_level_refuses_pods_and_warns_about_templates() {
    let server = ApiServer::default();
    let created = post(
        &server,
        "/api/v1/namespaces",
        namespace(
            "secure",
            json!({"pod-security.kubernetes.io/enforce": "restricted"}),
        ),
    );
    assert_eq!(created.status(), StatusCode::CREATED);

    let pods = "/api/v1/namespaces/secure/pods";
    let refused = post(
        &server,
        pods,
        pod(
            "web",
            json!({"containers": [{"name": "app", "image": "app:1"}]}),
        ),
    );
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let status = body(refused).await;
    assert_eq!(
        status["message"],
        format!(
            r#"pods "web" is forbidden: violates PodSecurity "restricted:latest": {RESTRICTED_APP}"#
        )
    );
    assert_eq!(status["reason"], "Forbidden");
    assert_eq!(status["details"], json!({"name": "web", "kind": "pods"}));

    // What the restricted level asks for; the ServiceAccount plugin's projected token volume
    // is a volume type it allows.
    let hardened = json!({
        "securityContext": {"runAsNonRoot": true, "seccompProfile": {"type": "RuntimeDefault"}},
        "containers": [{"name": "app", "image": "app:1", "securityContext": {
            "allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}}}]});
    let taken = post(&server, pods, pod("web", hardened));
    assert_eq!(taken.status(), StatusCode::CREATED);
    assert!(warnings(&taken).is_empty(), "{:?}", warnings(&taken));

    // An update that changes no image is not checked again; one that does is.
    let patch = |image: &str| json!({"spec": {"containers": [{"name": "app", "image": image}]}});
    let merge = "application/strategic-merge-patch+json";
    let labelled = send(
        &server,
        "PATCH",
        &format!("{pods}/web"),
        merge,
        json!({"metadata": {"labels": {"tier": "web"}}}),
    );
    assert_eq!(labelled.status(), StatusCode::OK);
    let moved = send(
        &server,
        "PATCH",
        &format!("{pods}/web"),
        merge,
        patch("app:2"),
    );
    assert_eq!(moved.status(), StatusCode::OK, "{}", body(moved).await);

    // A workload is never refused; its template is warned about at the warn level, which
    // follows enforce when it is not set.
    let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "app", "image": "app:1"}]}}}});
    let warned = post(
        &server,
        "/apis/apps/v1/namespaces/secure/deployments",
        deployment,
    );
    assert_eq!(warned.status(), StatusCode::CREATED);
    assert_eq!(
        warnings(&warned),
        [header(&format!(
            r#"would violate PodSecurity "restricted:latest": {RESTRICTED_APP}"#
        ))]
    );

    // Without labels nothing is checked.
    let open = post(
        &server,
        "/api/v1/namespaces/default/pods",
        pod(
            "net",
            json!({
        "hostNetwork": true, "containers": [{"name": "app", "image": "app:1"}]}),
        ),
    );
    assert_eq!(open.status(), StatusCode::CREATED);
    assert!(warnings(&open).is_empty());
}

#[tokio::test]
async fn labels_are_checked_and_a_tightened_level_warns_about_existing_pods() {
    let server = ApiServer::default();
    let bad = post(
        &server,
        "/api/v1/namespaces",
        namespace(
            "bad",
            json!({"pod-security.kubernetes.io/enforce": "strict"}),
        ),
    );
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let status = body(bad).await;
    assert_eq!(
        status["message"],
        r#"Namespace "bad" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted"#
    );
    assert_eq!(
        status["details"]["causes"][0]["field"],
        "metadata.labels[pod-security.kubernetes.io/enforce]"
    );

    assert_eq!(
        post(&server, "/api/v1/namespaces", namespace("team", json!({}))).status(),
        StatusCode::CREATED
    );
    for name in ["net-a", "net-b"] {
        let created = post(
            &server,
            "/api/v1/namespaces/team/pods",
            pod(
                name,
                json!({
            "hostNetwork": true, "containers": [{"name": "app", "image": "app:1"}]}),
            ),
        );
        assert_eq!(created.status(), StatusCode::CREATED);
    }
    let created = post(
        &server,
        "/api/v1/namespaces/team/pods",
        pod(
            "root",
            json!({
        "containers": [{"name": "app", "image": "app:1", "securityContext": {"privileged": true}}]}),
        ),
    );
    assert_eq!(created.status(), StatusCode::CREATED);

    let tightened = send(
        &server,
        "PATCH",
        "/api/v1/namespaces/team",
        "application/merge-patch+json",
        json!({"metadata": {"labels": {"pod-security.kubernetes.io/enforce": "baseline"}}}),
    );
    assert_eq!(tightened.status(), StatusCode::OK);
    assert_eq!(
        warnings(&tightened),
        [
            header(
                r#"existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:latest""#
            ),
            header("net-a (and 1 other pod): host namespaces"),
            header("root: privileged"),
        ]
    );
    // Relaxing it again says nothing.
    let relaxed = send(
        &server,
        "PATCH",
        "/api/v1/namespaces/team",
        "application/merge-patch+json",
        json!({"metadata": {"labels": {"pod-security.kubernetes.io/enforce": "privileged"}}}),
    );
    assert_eq!(relaxed.status(), StatusCode::OK);
    assert!(warnings(&relaxed).is_empty());
}

/// `Options::admission` turns the plugin off with the others.
#[tokio::test]
async fn the_plugin_can_be_turned_off() {
    let mut options = Options::default();
    options.admission.pod_security = false;
    let server = ApiServer::new(options);
    post(
        &server,
        "/api/v1/namespaces",
        namespace(
            "secure",
            json!({"pod-security.kubernetes.io/enforce": "restricted"}),
        ),
    );
    let taken = post(
        &server,
        "/api/v1/namespaces/secure/pods",
        pod(
            "web",
            json!({"containers": [{"name": "app", "image": "app:1"}]}),
        ),
    );
    assert_eq!(taken.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn limit_ranges_refuse_pods_outside_them() {
    let server = ApiServer::default();
    let range = json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "limits"},
        "spec": {"limits": [{"type": "Container", "max": {"cpu": "1"}, "default": {"cpu": "500m"}}]}});
    let created = post(&server, "/api/v1/namespaces/default/limitranges", range);
    assert_eq!(created.status(), StatusCode::CREATED);
    let pods = "/api/v1/namespaces/default/pods";
    // The range's default limit fits its maximum.
    let defaulted = post(
        &server,
        pods,
        pod(
            "small",
            json!({"containers": [{"name": "app", "image": "app:1"}]}),
        ),
    );
    assert_eq!(defaulted.status(), StatusCode::CREATED);
    assert_eq!(
        body(defaulted).await["spec"]["containers"][0]["resources"]["limits"]["cpu"],
        "500m"
    );
    let refused = post(
        &server,
        pods,
        pod(
            "big",
            json!({"containers": [{"name": "app", "image": "app:1",
        "resources": {"limits": {"cpu": "2"}}}]}),
        ),
    );
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        body(refused).await["message"],
        r#"pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2"#
    );
}

/// PersistentVolumeClaimResize (`plugin/pkg/admission/storage/persistentvolume/resize`): a
/// bound claim of a class without `allowVolumeExpansion` cannot grow; one of a class with it can.
#[tokio::test]
async fn claims_grow_only_where_their_class_allows_it() {
    let server = ApiServer::default();
    for (name, expands) in [("fixed", false), ("elastic", true)] {
        let class = json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
            "metadata": {"name": name}, "provisioner": "example.com/disk",
            "allowVolumeExpansion": expands});
        let created = post(&server, "/apis/storage.k8s.io/v1/storageclasses", class);
        assert_eq!(created.status(), StatusCode::CREATED);
        let claim = json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": name},
            "spec": {"storageClassName": name, "accessModes": ["ReadWriteOnce"],
                "resources": {"requests": {"storage": "1Gi"}}}});
        let path = "/api/v1/namespaces/default/persistentvolumeclaims";
        assert_eq!(post(&server, path, claim).status(), StatusCode::CREATED);
        let merge = "application/merge-patch+json";
        let bound = send(
            &server,
            "PATCH",
            &format!("{path}/{name}/status"),
            merge,
            json!({"status": {"phase": "Bound"}}),
        );
        assert_eq!(bound.status(), StatusCode::OK);
        let grown = send(
            &server,
            "PATCH",
            &format!("{path}/{name}"),
            merge,
            json!({"spec": {"resources": {"requests": {"storage": "2Gi"}}}}),
        );
        if expands {
            assert_eq!(grown.status(), StatusCode::OK, "{}", body(grown).await);
        } else {
            assert_eq!(grown.status(), StatusCode::FORBIDDEN);
            assert_eq!(
                body(grown).await["message"],
                r#"persistentvolumeclaims "fixed" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize"#
            );
        }
    }
}

/// ValidatingAdmissionPolicy (apiserver `pkg/admission/plugin/policy/validating`): a policy
/// and its binding, written through the API, refuse a Deployment with the status the
/// validation's reason names (422 by default) and the server's message, and a `Warn` binding
/// sends a warning instead.
#[tokio::test]
async fn admission_policies_refuse_or_warn() {
    let server = ApiServer::default();
    let policies = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";
    let bindings = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
    let created = post(
        &server,
        policies,
        json!({"apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicy", "metadata": {"name": "replicas"},
        "spec": {"matchConstraints": {"resourceRules": [{"apiGroups": ["apps"], "apiVersions": ["v1"],
            "operations": ["CREATE", "UPDATE"], "resources": ["deployments"]}]},
            "validations": [{"expression": "object.spec.replicas <= 5"}]}}),
    );
    assert_eq!(
        created.status(),
        StatusCode::CREATED,
        "{}",
        body(created).await
    );
    let created = post(
        &server,
        bindings,
        json!({"apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicyBinding", "metadata": {"name": "replicas-default"},
        "spec": {"policyName": "replicas", "validationActions": ["Deny"],
            "matchResources": {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "default"}}}}}),
    );
    assert_eq!(
        created.status(),
        StatusCode::CREATED,
        "{}",
        body(created).await
    );
    let deployment = |name: &str, replicas: i64| {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name},
        "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "app", "image": "app:1"}]}}}})
    };
    let path = "/apis/apps/v1/namespaces/default/deployments";
    let refused = post(&server, path, deployment("big", 9));
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let status = body(refused).await;
    let why = "ValidatingAdmissionPolicy 'replicas' with binding 'replicas-default' denied request: failed expression: object.spec.replicas <= 5";
    assert_eq!(
        status["message"],
        format!(r#"deployments.apps "big" is forbidden: {why}"#)
    );
    assert_eq!(status["reason"], "Invalid");
    assert_eq!(
        status["details"],
        json!({"name": "big", "group": "apps", "kind": "deployments", "causes": [{"message": why}]})
    );
    assert_eq!(
        post(&server, path, deployment("small", 2)).status(),
        StatusCode::CREATED
    );
    // Scaling it past the limit through an update is refused too.
    let grown = send(
        &server,
        "PATCH",
        &format!("{path}/small"),
        "application/merge-patch+json",
        json!({"spec": {"replicas": 8}}),
    );
    assert_eq!(grown.status(), StatusCode::UNPROCESSABLE_ENTITY);

    // A `Warn` binding for another namespace warns.
    assert_eq!(
        post(
            &server,
            "/api/v1/namespaces",
            namespace("staging", json!({}))
        )
        .status(),
        StatusCode::CREATED
    );
    post(
        &server,
        bindings,
        json!({"apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicyBinding", "metadata": {"name": "replicas-staging"},
        "spec": {"policyName": "replicas", "validationActions": ["Warn"],
            "matchResources": {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "staging"}}}}}),
    );
    let warned = post(
        &server,
        "/apis/apps/v1/namespaces/staging/deployments",
        deployment("big", 9),
    );
    assert_eq!(warned.status(), StatusCode::CREATED);
    assert_eq!(
        warnings(&warned),
        [header(
            "Validation failed for ValidatingAdmissionPolicy 'replicas' with binding 'replicas-staging': failed expression: object.spec.replicas <= 5"
        )]
    );
}

/// A policy on deletes sees the stored object as `oldObject` and a null `object`, and refuses
/// the delete before anything is deleted (the store's `deleteValidation`).
#[tokio::test]
async fn admission_policies_guard_deletes() {
    let server = ApiServer::default();
    post(
        &server,
        "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
        json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
        "metadata": {"name": "keep-protected"},
        "spec": {"matchConstraints": {"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"],
            "operations": ["DELETE"], "resources": ["configmaps"]}]},
            "validations": [{"expression": "object == null && oldObject.metadata.?labels[?'protected'].orValue('') != 'true'",
                "message": "protected", "reason": "Forbidden"}]}}),
    );
    post(
        &server,
        "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
        json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicyBinding",
        "metadata": {"name": "keep-protected"},
        "spec": {"policyName": "keep-protected", "validationActions": ["Deny"]}}),
    );
    let configmaps = "/api/v1/namespaces/default/configmaps";
    for (name, labels) in [("kept", json!({"protected": "true"})), ("free", json!({}))] {
        let created = post(
            &server,
            configmaps,
            json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name, "labels": labels}}),
        );
        assert_eq!(created.status(), StatusCode::CREATED);
    }
    let refused = send(
        &server,
        "DELETE",
        &format!("{configmaps}/kept"),
        "application/json",
        json!({}),
    );
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        body(refused).await["message"],
        "configmaps \"kept\" is forbidden: ValidatingAdmissionPolicy 'keep-protected' with binding 'keep-protected' denied request: protected"
    );
    let got = server.handle(
        Request::get(format!("{configmaps}/kept"))
            .body(Bytes::new())
            .unwrap(),
    );
    assert_eq!(got.status(), StatusCode::OK);
    let deleted = send(
        &server,
        "DELETE",
        &format!("{configmaps}/free"),
        "application/json",
        json!({}),
    );
    assert_eq!(deleted.status(), StatusCode::OK);
}
