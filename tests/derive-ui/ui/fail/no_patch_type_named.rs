use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

#[derive(Serialize, Deserialize, StrategicMerge)]
#[patch(no_patch_type)]
struct Spec {
    a: Option<String>,
}

fn main() {
    // Without a patch type there is no `SpecPatch`: the patch is `UntypedPatch<Spec>`.
    let _ = SpecPatch::new();
}
