use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

// `Spec` has an error; code using it (as a field, through the traits) reports nothing more.
#[derive(Serialize, Deserialize, StrategicMerge)]
struct Spec {
    #[patch(stratgy = "merge")]
    items: Vec<String>,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Pod {
    spec: Spec,
}

#[derive(Serialize, Deserialize, StrategicMerge)]
enum Phase {
    Pending(u8),
}

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Status {
    phase: Phase,
}

fn uses(pod: &mut Pod, status: &mut Status, patch: &smp_core::Patch) {
    let _ = pod.apply(patch);
    let _ = status.apply(patch);
    let _ = Spec::schema();
}

fn main() {
    let _ = uses;
}
