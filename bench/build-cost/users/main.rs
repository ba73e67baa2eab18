//! A kube user's one-file program: read a live Deployment, patch it, print it. The reference
//! crates build this file with different dependencies (see `../run`).

const LIVE: &str = r#"{"apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "web"},
  "spec": {"selector": {"matchLabels": {"app": "web"}},
    "template": {"metadata": {"labels": {"app": "web"}},
      "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}}"#;

#[cfg(feature = "smp")]
const PATCH: &str = r#"{"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.28"}]}}}}"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    #[allow(unused_mut)]
    let mut deployment: k8s_openapi::api::apps::v1::Deployment = serde_json::from_str(LIVE)?;
    #[cfg(feature = "smp")]
    {
        use smp_types::k8s_openapi::StrategicMergeExt;
        deployment.apply(&PATCH.parse::<smp_core::Patch>()?)?;
    }
    println!("{}", serde_json::to_string(&deployment)?);
    Ok(())
}
