//! Service updates as kube-apiserver v1.34's Service registry answers them, through kube's real
//! `Client` on the in-memory server: what a client leaves out is kept, a type change takes what
//! the new type needs and gives back what it no longer uses. Each case names where upstream
//! (kubernetes/kubernetes) does it: `pkg/registry/core/service/storage/storage.go` (the
//! `beginUpdate` hook), `storage/alloc.go` (`allocateUpdate`) and `strategy.go`
//! (`PrepareForUpdate`).

use k8s_openapi::api::core::v1::Service;
use k8s_openapi::api::networking::v1::IPAddress;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use smp_apiserver::ApiServer;

fn client() -> kube::Client {
    kube::Client::new(ApiServer::default(), "default")
}

fn typed(value: Value) -> Service {
    serde_json::from_value(value).unwrap()
}

fn value(service: &Service) -> Value {
    serde_json::to_value(service).unwrap()
}

async fn create(api: &Api<Service>, name: &str, spec: Value) -> Value {
    let service = typed(json!({"metadata": {"name": name}, "spec": spec}));
    value(&api.create(&PostParams::default(), &service).await.unwrap())
}

async fn get(api: &Api<Service>, name: &str) -> Value {
    value(&api.get(name).await.unwrap())
}

/// A PUT of `service` (as read back, then changed).
async fn put(api: &Api<Service>, service: Value) -> Result<Value, kube::Error> {
    let name = service["metadata"]["name"].as_str().unwrap().to_owned();
    let stored = api
        .replace(&name, &PostParams::default(), &typed(service))
        .await?;
    Ok(value(&stored))
}

fn remove(service: &mut Value, fields: &[&str]) {
    let spec = service["spec"].as_object_mut().unwrap();
    for field in fields {
        spec.remove(*field);
    }
}

/// Each port's node port, by port name.
fn node_ports(service: &Value) -> Vec<(String, Option<i64>)> {
    service["spec"]["ports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let name = p["name"].as_str().unwrap_or("").to_owned();
            (name, p["nodePort"].as_i64())
        })
        .collect()
}

fn in_node_port_range(port: Option<i64>) -> bool {
    port.is_some_and(|p| (30000..=32767).contains(&p))
}

/// The `parentRef.name` of the IPAddress object of `ip`, if there is one.
async fn address_owner(client: &kube::Client, ip: &str) -> Option<String> {
    let addresses: Api<IPAddress> = Api::all(client.clone());
    let address = addresses.get_opt(ip).await.unwrap()?;
    Some(address.spec.unwrap().parent_ref.name)
}

/// The message of the API error of a refused request.
fn refusal(result: Result<Value, kube::Error>) -> (u16, String) {
    match result {
        Err(kube::Error::Api(status)) => (status.code, status.message),
        other => panic!("not refused: {other:?}"),
    }
}

/// A service read back and sent again without `clusterIP`, `clusterIPs`, `ipFamilies` and
/// `ipFamilyPolicy` (as controllers that build it afresh send it) keeps its addresses and
/// families: `patchAllocatedValues` and `normalizeClusterIPs` (storage.go), and
/// `initIPFamilyFields` (alloc.go) taking the stored policy.
#[tokio::test]
async fn a_put_without_the_cluster_ip_keeps_it() {
    let client = client();
    let api: Api<Service> = Api::default_namespaced(client.clone());
    let created = create(
        &api,
        "web",
        json!({"selector": {"app": "web"}, "ports": [{"port": 80}]}),
    )
    .await;
    let ip = created["spec"]["clusterIP"].as_str().unwrap().to_owned();

    let mut sent = get(&api, "web").await;
    remove(
        &mut sent,
        &["clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"],
    );
    sent["metadata"]["labels"] = json!({"tier": "front"});
    let updated = put(&api, sent).await.unwrap();
    assert_eq!(updated["spec"]["clusterIP"], json!(ip));
    assert_eq!(updated["spec"]["clusterIPs"], json!([ip]));
    assert_eq!(updated["spec"]["ipFamilies"], json!(["IPv4"]));
    assert_eq!(updated["spec"]["ipFamilyPolicy"], json!("SingleStack"));
    assert_eq!(updated["metadata"]["labels"], json!({"tier": "front"}));
    assert_eq!(address_owner(&client, &ip).await.as_deref(), Some("web"));

    // An old client's: `clusterIP` alone, as stored, gets `clusterIPs` back
    // (`normalizeClusterIPs`); nothing changed, nothing is written (the store's
    // `GuaranteedUpdate`), the resourceVersion stays.
    let mut sent = get(&api, "web").await;
    let version = sent["metadata"]["resourceVersion"].clone();
    remove(&mut sent, &["clusterIPs"]);
    let updated = put(&api, sent).await.unwrap();
    assert_eq!(updated["spec"]["clusterIPs"], json!([ip]));
    assert_eq!(updated["metadata"]["resourceVersion"], version);
}

/// Node ports left out come back by port name, whatever the ports' order, and so does a
/// LoadBalancer's `healthCheckNodePort` while its traffic policy stays `Local`:
/// `patchAllocatedValues` (storage.go).
#[tokio::test]
async fn a_put_without_node_ports_keeps_them_by_port_name() {
    let client = client();
    let api: Api<Service> = Api::default_namespaced(client);
    let created = create(
        &api,
        "web",
        json!({"type": "NodePort", "selector": {"app": "web"}, "ports": [
            {"name": "http", "port": 80}, {"name": "metrics", "port": 9090}]}),
    )
    .await;
    let mut allocated = node_ports(&created);
    assert!(allocated.iter().all(|(_, p)| in_node_port_range(*p)));

    let mut sent = get(&api, "web").await;
    let ports = sent["spec"]["ports"].as_array_mut().unwrap();
    ports.reverse();
    for port in ports.iter_mut() {
        port.as_object_mut().unwrap().remove("nodePort");
    }
    let updated = put(&api, sent).await.unwrap();
    allocated.reverse();
    assert_eq!(node_ports(&updated), allocated);

    let balancer = create(
        &api,
        "balancer",
        json!({"type": "LoadBalancer", "externalTrafficPolicy": "Local",
            "selector": {"app": "web"}, "ports": [{"name": "http", "port": 80}]}),
    )
    .await;
    let check = balancer["spec"]["healthCheckNodePort"].as_i64();
    assert!(in_node_port_range(check), "{check:?}");
    let mut sent = get(&api, "balancer").await;
    remove(&mut sent, &["healthCheckNodePort"]);
    sent["spec"]["ports"][0]
        .as_object_mut()
        .unwrap()
        .remove("nodePort");
    let updated = put(&api, sent).await.unwrap();
    assert_eq!(updated["spec"]["healthCheckNodePort"].as_i64(), check);
    assert_eq!(node_ports(&updated), node_ports(&balancer));
}

/// ClusterIP to NodePort takes node ports (`txnUpdateNodePorts`, alloc.go), through a PUT, a
/// merge patch or an apply alike; a node port asked for that another service holds is refused
/// with the allocator's words. NodePort to ClusterIP clears the node ports and the external
/// traffic policy the client sent back unchanged (`dropTypeDependentFields`, strategy.go), and
/// the ports are free again.
#[tokio::test]
async fn a_type_change_takes_and_gives_back_node_ports() {
    let client = client();
    let api: Api<Service> = Api::default_namespaced(client);
    let spec = json!({"selector": {"app": "web"}, "ports": [{"name": "http", "port": 80}]});
    create(&api, "put", spec.clone()).await;
    create(&api, "patched", spec.clone()).await;

    let mut sent = get(&api, "put").await;
    sent["spec"]["type"] = json!("NodePort");
    let updated = put(&api, sent).await.unwrap();
    let [(_, port)] = node_ports(&updated)[..] else {
        panic!("one port")
    };
    assert!(in_node_port_range(port), "{port:?}");
    assert_eq!(updated["spec"]["externalTrafficPolicy"], json!("Cluster"));

    let patch = json!({"spec": {"type": "NodePort"}});
    let patched = api
        .patch("patched", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    let [(_, other)] = node_ports(&value(&patched))[..] else {
        panic!("one port")
    };
    assert!(in_node_port_range(other) && other != port, "{other:?}");

    let manifest = |kind: &str| {
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "applied"},
            "spec": {"type": kind, "selector": {"app": "web"}, "ports": [{"port": 80}]}})
    };
    let apply = PatchParams::apply("tests");
    api.patch("applied", &apply, &Patch::Apply(manifest("ClusterIP")))
        .await
        .unwrap();
    let applied = api
        .patch("applied", &apply, &Patch::Apply(manifest("NodePort")))
        .await
        .unwrap();
    assert!(in_node_port_range(node_ports(&value(&applied))[0].1));

    let taken = port.unwrap();
    let mut sent = get(&api, "applied").await;
    sent["spec"]["ports"][0]["nodePort"] = json!(taken);
    assert_eq!(
        refusal(put(&api, sent).await),
        (
            422,
            format!(
                "Service \"applied\" is invalid: spec.ports[0].nodePort: Invalid value: {taken}: \
                 provided port is already allocated"
            )
        )
    );

    let mut sent = get(&api, "put").await;
    sent["spec"]["type"] = json!("ClusterIP");
    let updated = put(&api, sent).await.unwrap();
    assert_eq!(node_ports(&updated), [("http".to_owned(), None)]);
    assert_eq!(updated["spec"].get("externalTrafficPolicy"), None);
    let again = create(
        &api,
        "again",
        json!({"type": "NodePort", "selector": {"app": "web"},
            "ports": [{"port": 80, "nodePort": taken}]}),
    )
    .await;
    assert_eq!(node_ports(&again)[0].1, Some(taken));
}

/// LoadBalancer (`Local`) to ClusterIP also clears the health check node port,
/// `allocateLoadBalancerNodePorts` and the load balancer class (`dropTypeDependentFields`,
/// strategy.go), and the health check port is free again (`updateHealthCheckNodePort`,
/// alloc.go); turning a LoadBalancer `Local` takes one.
#[tokio::test]
async fn leaving_load_balancer_clears_what_only_it_uses() {
    let client = client();
    let api: Api<Service> = Api::default_namespaced(client);
    let created = create(
        &api,
        "balancer",
        json!({"type": "LoadBalancer", "externalTrafficPolicy": "Local",
            "loadBalancerClass": "example.com/lb", "selector": {"app": "web"},
            "ports": [{"port": 80}]}),
    )
    .await;
    let check = created["spec"]["healthCheckNodePort"].as_i64().unwrap();
    assert_eq!(
        created["spec"]["allocateLoadBalancerNodePorts"],
        json!(true)
    );

    let mut sent = get(&api, "balancer").await;
    sent["spec"]["type"] = json!("ClusterIP");
    let updated = put(&api, sent).await.unwrap();
    let spec = updated["spec"].as_object().unwrap();
    for gone in [
        "healthCheckNodePort",
        "allocateLoadBalancerNodePorts",
        "loadBalancerClass",
        "externalTrafficPolicy",
    ] {
        assert!(!spec.contains_key(gone), "{gone} was kept: {spec:?}");
    }
    assert_eq!(node_ports(&updated)[0].1, None);

    let mut sent = get(&api, "balancer").await;
    sent["spec"]["type"] = json!("LoadBalancer");
    sent["spec"]["externalTrafficPolicy"] = json!("Local");
    sent["spec"]["healthCheckNodePort"] = json!(check);
    let updated = put(&api, sent).await.unwrap();
    assert_eq!(updated["spec"]["healthCheckNodePort"], json!(check));
    assert!(in_node_port_range(node_ports(&updated)[0].1));
}

/// ClusterIP to ExternalName clears the cluster IPs, families and policy sent back unchanged
/// (`dropTypeDependentFields`, strategy.go) and releases the address once stored, not on a dry
/// run (`txnUpdateClusterIPs`, alloc.go); the ExternalName service shows no
/// `internalTrafficPolicy` (`defaultOnReadInternalTrafficPolicy`, storage.go). ExternalName to
/// ClusterIP allocates a cluster IP as a create does (`updateClusterIPs`, alloc.go).
#[tokio::test]
async fn external_name_gives_back_and_takes_a_cluster_ip() {
    let client = client();
    let api: Api<Service> = Api::default_namespaced(client.clone());
    let created = create(
        &api,
        "web",
        json!({"selector": {"app": "web"}, "ports": [{"port": 80}]}),
    )
    .await;
    let ip = created["spec"]["clusterIP"].as_str().unwrap().to_owned();
    assert_eq!(created["spec"]["internalTrafficPolicy"], json!("Cluster"));

    let mut sent = get(&api, "web").await;
    sent["spec"]["type"] = json!("ExternalName");
    sent["spec"]["externalName"] = json!("web.example.com");
    let dry_run = PostParams {
        dry_run: true,
        ..Default::default()
    };
    let tried = api.replace("web", &dry_run, &typed(sent.clone())).await;
    assert_eq!(value(&tried.unwrap())["spec"].get("clusterIP"), None);
    assert_eq!(address_owner(&client, &ip).await.as_deref(), Some("web"));

    let updated = put(&api, sent).await.unwrap();
    let spec = updated["spec"].as_object().unwrap();
    for gone in [
        "clusterIP",
        "clusterIPs",
        "ipFamilies",
        "ipFamilyPolicy",
        "internalTrafficPolicy",
    ] {
        assert!(!spec.contains_key(gone), "{gone} was kept: {spec:?}");
    }
    assert_eq!(address_owner(&client, &ip).await, None, "{ip} was kept");

    let mut sent = get(&api, "web").await;
    sent["spec"]["type"] = json!("ClusterIP");
    remove(&mut sent, &["externalName"]);
    let updated = put(&api, sent).await.unwrap();
    let new_ip = updated["spec"]["clusterIP"].as_str().unwrap().to_owned();
    assert!(new_ip.starts_with("10."), "{new_ip}");
    assert_eq!(updated["spec"]["clusterIPs"], json!([new_ip]));
    assert_eq!(updated["spec"]["ipFamilies"], json!(["IPv4"]));
    assert_eq!(updated["spec"]["ipFamilyPolicy"], json!("SingleStack"));
    assert_eq!(
        address_owner(&client, &new_ip).await.as_deref(),
        Some("web")
    );
}
