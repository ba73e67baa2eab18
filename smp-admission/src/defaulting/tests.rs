//! What a v1.34 API server stores for objects sent without their defaults (the scheme's part
//! of it: `resources: {}` and the other members Go always prints are the printer's, not
//! defaults).

use serde_json::{Value, json};

use super::{DefaultError, default_object};

fn defaulted(mut object: Value) -> Value {
    default_object(&mut object).unwrap();
    let again = {
        let mut twice = object.clone();
        default_object(&mut twice).unwrap();
        twice
    };
    assert_eq!(object, again, "defaulting twice changes nothing more");
    object
}

fn container(image: &str, policy: &str) -> Value {
    json!({"name": "app", "image": image, "imagePullPolicy": policy,
        "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"})
}

/// A pod spec with the five members every PodSpec gets.
fn with_pod_spec_defaults(mut spec: Value) -> Value {
    for (key, value) in [
        ("dnsPolicy", json!("ClusterFirst")),
        ("restartPolicy", json!("Always")),
        ("schedulerName", json!("default-scheduler")),
        ("securityContext", json!({})),
        ("terminationGracePeriodSeconds", json!(30)),
    ] {
        spec[key] = value;
    }
    spec
}

#[test]
fn a_deployment_gets_what_the_server_adds() {
    let object = defaulted(json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web"},
        "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {
            "metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]}}}}));
    assert_eq!(
        object["spec"],
        json!({
            "replicas": 1,
            "revisionHistoryLimit": 10,
            "progressDeadlineSeconds": 600,
            "selector": {"matchLabels": {"app": "web"}},
            "strategy": {"type": "RollingUpdate",
                "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": with_pod_spec_defaults(json!({
                    "containers": [container("nginx:1.27", "IfNotPresent")]}))},
        })
    );
}

#[test]
fn a_recreate_deployment_gets_no_rolling_update() {
    let object = defaulted(json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "spec": {"strategy": {"type": "Recreate"}, "replicas": 0}}));
    assert_eq!(object["spec"]["strategy"], json!({"type": "Recreate"}));
    assert_eq!(object["spec"]["replicas"], 0, "a zero is a value, not nil");
}

#[test]
fn pull_policies_follow_the_tag() {
    for (image, policy) in [
        ("nginx", "Always"),
        ("nginx:latest", "Always"),
        ("nginx:1.27", "IfNotPresent"),
        ("registry.example.com:5000/nginx", "Always"),
        ("registry.example.com:5000/nginx:v1", "IfNotPresent"),
        (
            "nginx@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "IfNotPresent",
        ),
    ] {
        let pod = defaulted(json!({"apiVersion": "v1", "kind": "Pod",
            "spec": {"containers": [{"name": "c", "image": image}]}}));
        assert_eq!(
            pod["spec"]["containers"][0]["imagePullPolicy"], policy,
            "{image}"
        );
    }
}

#[test]
fn a_pod_gets_service_links_requests_and_host_ports() {
    let pod = defaulted(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
        "spec": {"hostNetwork": true, "containers": [{"name": "c", "image": "app:1",
            "resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m"}},
            "ports": [{"containerPort": 8080}],
            "readinessProbe": {"httpGet": {"port": 8080}},
            "livenessProbe": {"grpc": {"port": 9000}}}],
            "volumes": [{"name": "scratch"}, {"name": "conf", "configMap": {"name": "conf"}},
                {"name": "token", "projected": {"sources": [{"serviceAccountToken": {"path": "t"}}]}}]}}),
    );
    let spec = &pod["spec"];
    assert_eq!(spec["enableServiceLinks"], true);
    let c = &spec["containers"][0];
    assert_eq!(
        c["resources"]["requests"],
        json!({"cpu": "500m", "memory": "1Gi"})
    );
    assert_eq!(
        c["ports"][0],
        json!({"containerPort": 8080, "hostPort": 8080, "protocol": "TCP"})
    );
    assert_eq!(
        c["readinessProbe"],
        json!({"httpGet": {"port": 8080, "path": "/", "scheme": "HTTP"}, "timeoutSeconds": 1,
            "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3})
    );
    assert_eq!(
        c["livenessProbe"]["grpc"],
        json!({"port": 9000, "service": ""})
    );
    assert_eq!(
        spec["volumes"][0],
        json!({"name": "scratch", "emptyDir": {}})
    );
    assert_eq!(spec["volumes"][1]["configMap"]["defaultMode"], 420);
    assert_eq!(spec["volumes"][2]["projected"]["defaultMode"], 420);
    assert_eq!(
        spec["volumes"][2]["projected"]["sources"][0]["serviceAccountToken"]["expirationSeconds"],
        3600
    );
}

#[test]
fn templates_do_not_get_the_pods_own_defaults() {
    let rs = defaulted(json!({"apiVersion": "apps/v1", "kind": "ReplicaSet",
        "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "a:1",
            "resources": {"limits": {"cpu": "1"}}}]}}}}));
    let spec = &rs["spec"]["template"]["spec"];
    assert!(spec.get("enableServiceLinks").is_none());
    assert!(spec["containers"][0]["resources"].get("requests").is_none());
}

#[test]
fn services_by_type() {
    let cluster_ip = defaulted(json!({"apiVersion": "v1", "kind": "Service",
        "spec": {"ports": [{"port": 80}, {"port": 443, "targetPort": "https"}],
            "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 5}}}}));
    assert_eq!(
        cluster_ip["spec"],
        json!({"type": "ClusterIP", "sessionAffinity": "None", "internalTrafficPolicy": "Cluster",
            "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80},
                {"port": 443, "protocol": "TCP", "targetPort": "https"}]})
    );
    let balancer = defaulted(json!({"apiVersion": "v1", "kind": "Service",
        "spec": {"type": "LoadBalancer", "sessionAffinity": "ClientIP"},
        "status": {"loadBalancer": {"ingress": [{"ip": "1.2.3.4"}, {"hostname": "lb"}]}}}));
    let spec = &balancer["spec"];
    assert_eq!(spec["externalTrafficPolicy"], "Cluster");
    assert_eq!(spec["allocateLoadBalancerNodePorts"], true);
    assert_eq!(
        spec["sessionAffinityConfig"]["clientIP"]["timeoutSeconds"],
        10800
    );
    assert_eq!(
        balancer["status"]["loadBalancer"]["ingress"],
        json!([{"ip": "1.2.3.4", "ipMode": "VIP"}, {"hostname": "lb"}])
    );
    let external = defaulted(json!({"apiVersion": "v1", "kind": "Service",
        "spec": {"type": "ExternalName", "externalName": "example.com"}}));
    assert!(external["spec"].get("internalTrafficPolicy").is_none());
}

#[test]
fn jobs_and_cron_jobs() {
    let job = defaulted(json!({"apiVersion": "batch/v1", "kind": "Job",
        "spec": {"template": {"metadata": {"labels": {"run": "x"}},
            "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "a:1"}]}}}}));
    assert_eq!(job["metadata"]["labels"], json!({"run": "x"}));
    for (key, value) in [
        ("completions", json!(1)),
        ("parallelism", json!(1)),
        ("backoffLimit", json!(6)),
        ("completionMode", json!("NonIndexed")),
        ("suspend", json!(false)),
        ("podReplacementPolicy", json!("TerminatingOrFailed")),
        ("manualSelector", json!(false)),
    ] {
        assert_eq!(job["spec"][key], value, "{key}");
    }
    assert_eq!(job["spec"]["template"]["spec"]["restartPolicy"], "Never");
    let parallel = defaulted(json!({"apiVersion": "batch/v1", "kind": "Job",
        "spec": {"parallelism": 3, "backoffLimitPerIndex": 1,
            "podFailurePolicy": {"rules": [{"action": "Ignore",
                "onPodConditions": [{"type": "DisruptionTarget"}]}]}}}));
    assert!(parallel["spec"].get("completions").is_none());
    assert_eq!(parallel["spec"]["backoffLimit"], 2147483647);
    assert_eq!(parallel["spec"]["podReplacementPolicy"], "Failed");
    assert_eq!(
        parallel["spec"]["podFailurePolicy"]["rules"][0]["onPodConditions"][0]["status"],
        "True"
    );
    let cron = defaulted(json!({"apiVersion": "batch/v1", "kind": "CronJob",
        "spec": {"schedule": "* * * * *", "jobTemplate": {"spec": {"template": {"spec": {}}}}}}));
    assert_eq!(cron["spec"]["concurrencyPolicy"], "Allow");
    assert!(
        cron["spec"]["jobTemplate"]["spec"]
            .get("backoffLimit")
            .is_none(),
        "a job template gets no Job defaults"
    );
    assert_eq!(cron["spec"]["successfulJobsHistoryLimit"], 3);
    assert_eq!(cron["spec"]["failedJobsHistoryLimit"], 1);
    assert_eq!(cron["spec"]["suspend"], false);
    assert_eq!(
        cron["spec"]["jobTemplate"]["spec"]["template"]["spec"]["dnsPolicy"],
        "ClusterFirst"
    );
}

#[test]
fn namespaces_secrets_volumes_and_limit_ranges() {
    let namespace = defaulted(json!({"apiVersion": "v1", "kind": "Namespace",
        "metadata": {"name": "team"}}));
    assert_eq!(
        namespace["metadata"]["labels"],
        json!({"kubernetes.io/metadata.name": "team"})
    );
    assert_eq!(namespace["status"]["phase"], "Active");
    let secret = defaulted(json!({"apiVersion": "v1", "kind": "Secret"}));
    assert_eq!(secret["type"], "Opaque");
    let volume = defaulted(json!({"apiVersion": "v1", "kind": "PersistentVolume",
        "spec": {"hostPath": {"path": "/d"}}}));
    assert_eq!(volume["spec"]["persistentVolumeReclaimPolicy"], "Retain");
    assert_eq!(volume["spec"]["volumeMode"], "Filesystem");
    assert_eq!(volume["spec"]["hostPath"]["type"], "");
    assert_eq!(volume["status"]["phase"], "Pending");
    let range = defaulted(json!({"apiVersion": "v1", "kind": "LimitRange",
        "spec": {"limits": [
            {"type": "Container", "max": {"cpu": "2"}, "min": {"memory": "1Mi"}},
            {"type": "Pod", "max": {"cpu": "4"}}]}}));
    assert_eq!(
        range["spec"]["limits"][0],
        json!({"type": "Container", "max": {"cpu": "2"}, "min": {"memory": "1Mi"},
            "default": {"cpu": "2"}, "defaultRequest": {"cpu": "2", "memory": "1Mi"}})
    );
    assert_eq!(
        range["spec"]["limits"][1],
        json!({"type": "Pod", "max": {"cpu": "4"}})
    );
}

#[test]
fn what_cannot_be_defaulted() {
    assert_eq!(
        default_object(&mut json!([])),
        Err(DefaultError::NotAnObject)
    );
    assert_eq!(
        default_object(&mut json!({"kind": "Pod"})),
        Err(DefaultError::MissingType("apiVersion"))
    );
    let mut role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role"});
    default_object(&mut role).unwrap();
    assert_eq!(
        role,
        json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role"})
    );
    // A member of the wrong type is left for validation.
    let mut odd = json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"strategy": 3}});
    default_object(&mut odd).unwrap();
    assert_eq!(odd["spec"]["strategy"], 3);
}

#[test]
fn resource_quantities_are_stored_canonical() {
    let pod = defaulted(json!({"apiVersion": "v1", "kind": "Pod",
        "spec": {"containers": [{"name": "c", "image": "a:1",
            "resources": {"limits": {"cpu": 1, "memory": "1000M"}, "requests": {"cpu": "0.0001"}}}],
            "volumes": [{"name": "v", "emptyDir": {"sizeLimit": "1024Mi"}}]}}));
    let resources = &pod["spec"]["containers"][0]["resources"];
    assert_eq!(resources["limits"], json!({"cpu": "1", "memory": "1G"}));
    assert_eq!(resources["requests"], json!({"cpu": "1m", "memory": "1G"}));
    assert_eq!(pod["spec"]["volumes"][0]["emptyDir"]["sizeLimit"], "1Gi");
    let quota = defaulted(json!({"apiVersion": "v1", "kind": "ResourceQuota",
        "spec": {"hard": {"pods": "10", "requests.memory": "2048Mi", "odd": "lots"}}}));
    assert_eq!(
        quota["spec"]["hard"],
        json!({"pods": "10", "requests.memory": "2Gi", "odd": "lots"}),
        "what is not a quantity is left for validation"
    );
}

#[test]
fn pod_level_resources_get_requests_and_hugepage_limits() {
    // PodLevelResources (beta, on in v1.34): a pod with limits of its own.
    let pod = defaulted(json!({"apiVersion": "v1", "kind": "Pod",
        "spec": {"resources": {"limits": {"cpu": "4", "memory": "4Gi"}},
            "initContainers": [
                {"name": "side", "image": "s:1", "restartPolicy": "Always",
                    "resources": {"requests": {"cpu": "500m"}}},
                {"name": "init", "image": "i:1", "resources": {"requests": {"cpu": "3"}}}],
            "containers": [
                {"name": "a", "image": "a:1", "resources": {"requests": {"cpu": "1", "memory": "1Gi"},
                    "limits": {"hugepages-2Mi": "100Mi"}}},
                {"name": "b", "image": "b:1", "resources": {"requests": {"cpu": "1"}}}]}}));
    let resources = &pod["spec"]["resources"];
    // cpu: containers and sidecar 2.5, the init container with the sidecar beside it 3.5.
    assert_eq!(
        resources["requests"],
        json!({"cpu": "3500m", "memory": "1Gi", "hugepages-2Mi": "100Mi"})
    );
    assert_eq!(
        resources["limits"],
        json!({"cpu": "4", "memory": "4Gi", "hugepages-2Mi": "100Mi"})
    );
    let without = defaulted(json!({"apiVersion": "v1", "kind": "Pod",
        "spec": {"containers": [{"name": "a", "image": "a:1",
            "resources": {"requests": {"cpu": "1"}}}]}}));
    assert!(without["spec"].get("resources").is_none());
}

#[test]
fn typed_values_of_smp_types_and_k8s_openapi() {
    use smp_types::api::apps::v1::Deployment;
    let web: Deployment = serde_json::from_value(json!({"metadata": {"name": "web"},
        "spec": {"selector": {}, "template": {"spec": {"containers": [{"name": "app", "image": "app:1"}]}}}}))
    .unwrap();
    let defaulted = super::default_typed(&web, "apps/v1", "Deployment").unwrap();
    let spec = defaulted.spec.unwrap();
    assert_eq!(spec.progress_deadline_seconds, Some(600));
    assert_eq!(defaulted.kind, None, "the type members stay as they were");
    let containers = spec.template.spec.unwrap().containers;
    assert_eq!(
        containers[0].image_pull_policy.as_deref(),
        Some("IfNotPresent")
    );

    let pod = k8s_openapi::api::core::v1::Pod::default();
    let pod = super::default_typed(&pod, "v1", "Pod").unwrap();
    assert_eq!(pod.spec.unwrap().enable_service_links, Some(true));
}
