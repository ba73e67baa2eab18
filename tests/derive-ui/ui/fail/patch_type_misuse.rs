use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Container {
    name: String,
    image: Option<String>,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Strategy {
    r#type: Option<String>,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch(strategy = "merge", merge_key = "name")]
    containers: Vec<Container>,
    #[patch(strategy = "merge")]
    finalizers: Vec<String>,
    strategy: Option<Strategy>,
}

fn main() {
    // An item of a list merged by key is made with its key.
    let _ = SpecPatch::new().containers(|l| l.item(|c| c.image("x")));
    // `$deleteFromPrimitiveList` is for lists of scalars merged as sets, not keyed lists.
    let _ = SpecPatch::new().containers(|l| l.insert("x"));
    // `$retainKeys` only where the strategy is `retainKeys`.
    let _ = SpecPatch::new().strategy_retaining(|s| s.r#type("Recreate"));
    // A misspelled field is a missing method.
    let _ = SpecPatch::new().finalizers(|f| f.insert("a")).finalizer(|f| f);
}
