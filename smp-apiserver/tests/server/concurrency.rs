//! Many writers on one object at once: each update lands or is refused as stale (409), and
//! the object ends up with every write that landed.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use serde_json::json;
use smp_apiserver::ApiServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hundred_writers_lose_no_write() {
    let client = kube::Client::new(ApiServer::default(), "default");
    let api: Api<ConfigMap> = Api::default_namespaced(client);
    let counter: ConfigMap =
        serde_json::from_value(json!({"metadata": {"name": "counter"}, "data": {"n": "0"}}))
            .unwrap();
    api.create(&PostParams::default(), &counter).await.unwrap();

    const WRITERS: usize = 100;
    let mut tasks = Vec::new();
    for writer in 0..WRITERS {
        let api = api.clone();
        tasks.push(tokio::spawn(async move {
            let mut refused = 0;
            loop {
                // Read, change, write back with the version read: stale writes are refused.
                let mut cm = api.get("counter").await.unwrap();
                let data = cm.data.get_or_insert_with(BTreeMap::new);
                let n: usize = data["n"].parse().unwrap();
                data.insert("n".into(), (n + 1).to_string());
                data.insert(format!("writer-{writer}"), n.to_string());
                match api.replace("counter", &PostParams::default(), &cm).await {
                    Ok(_) => return refused,
                    Err(kube::Error::Api(status)) if status.code == 409 => refused += 1,
                    Err(e) => panic!("writer {writer}: {e}"),
                }
            }
        }));
    }
    let mut refusals = 0;
    for task in tasks {
        refusals += task.await.unwrap();
    }
    let data = api.get("counter").await.unwrap().data.unwrap();
    // Every write landed once, on the value the one before it left.
    assert_eq!(data["n"], WRITERS.to_string());
    let mut seen: Vec<usize> = (0..WRITERS)
        .map(|w| data[&format!("writer-{w}")].parse().unwrap())
        .collect();
    seen.sort();
    assert_eq!(seen, (0..WRITERS).collect::<Vec<_>>());
    println!("{WRITERS} writers, {refusals} stale writes refused");
}
