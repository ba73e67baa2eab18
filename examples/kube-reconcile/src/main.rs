//! A kube controller's reconcile step that does what `kubectl apply -f` does, on the client
//! side, with smp: read the live Deployment, compute the three-way strategic merge patch from
//! its last-applied annotation, see what the object will become, and send the patch only when
//! it changes something.
//!
//! Offline (no cluster), on the shipped example files:
//!
//! ```text
//! cargo run -p smp-example-kube-reconcile -- \
//!     examples/apply-config/live.yaml examples/apply-config/desired.yaml
//! ```
//!
//! Against the cluster of the current kubeconfig context (creates or updates the Deployment of
//! the desired file): add `--cluster`.

use std::error::Error;

use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::{Client, ResourceExt};
use smp_core::{ClientApply, ThreeWayOptions};
use smp_types::k8s_openapi::StrategicMergeExt;

type Result<T> = std::result::Result<T, Box<dyn Error + Send + Sync>>;

/// What a reconcile did.
#[derive(Debug)]
enum Outcome {
    Created,
    Unchanged,
    Patched,
}

/// Makes the cluster's Deployment what `desired` says, as `kubectl apply` would: fields the
/// last applied configuration had and `desired` dropped are deleted, fields others set (an
/// autoscaler's replicas when `desired` has none, an injected sidecar) are kept.
async fn reconcile(api: &Api<Deployment>, desired: &Deployment) -> Result<Outcome> {
    let name = desired.name_any();
    let Some(live) = api.get_opt(&name).await? else {
        // First apply: create the object carrying the annotation (`kubectl apply` does too).
        let annotated = smp_core::client_apply::annotated(&serde_json::to_value(desired)?)?;
        api.create(&PostParams::default(), &serde_json::from_value(annotated)?)
            .await?;
        return Ok(Outcome::Created);
    };
    let plan = plan(&live, desired)?;
    if plan.is_noop() {
        return Ok(Outcome::Unchanged);
    }
    // `smp_core::Patch` is `Serialize`: kube sends it as
    // `application/strategic-merge-patch+json`.
    api.patch(
        &name,
        &PatchParams::default(),
        &Patch::Strategic(&plan.patch),
    )
    .await?;
    Ok(Outcome::Patched)
}

/// The patch and the object the server will hold: no server round trip.
fn plan(live: &Deployment, desired: &Deployment) -> Result<ClientApply<Deployment>> {
    Ok(Deployment::client_side_apply(
        live,
        desired,
        &ThreeWayOptions::default(),
    )?)
}

fn read(path: &str) -> Result<Deployment> {
    let text = std::fs::read_to_string(path)?;
    let value = smp_core::parse_document(&text, smp_core::DocRole::Original)?;
    Ok(serde_json::from_value(value)?)
}

#[tokio::main]
async fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [desired, "--cluster"] => {
            let desired = read(desired)?;
            let client = Client::try_default().await?;
            let namespace = desired.namespace().unwrap_or_else(|| "default".into());
            let api: Api<Deployment> = Api::namespaced(client, &namespace);
            let outcome = reconcile(&api, &desired).await?;
            println!("{}: {outcome:?}", desired.name_any());
            Ok(())
        }
        [live, desired] => {
            let plan = plan(&read(live)?, &read(desired)?)?;
            println!("patch: {}", serde_json::to_string_pretty(&plan.patch)?);
            let spec = plan
                .result
                .spec
                .as_ref()
                .and_then(|s| s.template.spec.as_ref());
            let containers: Vec<_> = spec
                .map(|s| s.containers.iter().map(|c| c.name.as_str()).collect())
                .unwrap_or_default();
            println!("containers after the apply: {containers:?}");
            Ok(())
        }
        _ => Err("usage: smp-example-kube-reconcile LIVE DESIRED | DESIRED --cluster".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(name: &str) -> Deployment {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../apply-config/");
        read(&format!("{path}{name}")).expect("example")
    }

    #[test]
    fn the_plan_of_the_example() {
        let plan = plan(&example("live.yaml"), &example("desired.yaml")).expect("plan");
        assert!(!plan.is_noop());
        let spec = plan.result.spec.as_ref().expect("spec");
        let pod = spec.template.spec.as_ref().expect("pod spec");
        let names: Vec<_> = pod.containers.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["app", "istio-proxy"]);
        assert_eq!(spec.replicas, Some(3));
        // The plan equals `smp apply-config` on the same files (the JSON engine).
        let json = |name: &str| {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../apply-config/");
            let text = std::fs::read_to_string(format!("{path}{name}")).expect("example");
            smp_core::parse_document(&text, smp_core::DocRole::Original).expect("parses")
        };
        let schema = smp_types::lookup("apps/v1", "Deployment")
            .expect("kind")
            .schema();
        let engine = smp_core::client_side_apply(
            &json("live.yaml"),
            &json("desired.yaml"),
            schema,
            &ThreeWayOptions::default(),
        )
        .expect("applies");
        assert_eq!(plan.patch, engine.patch);
    }
}
