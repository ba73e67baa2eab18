use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

// A generic struct: each parameter is bound by `PatchField + Normalize` in the generated impls.
#[derive(Serialize, Deserialize, StrategicMerge)]
struct List<T> {
    #[patch(strategy = "merge")]
    items: Vec<T>,
}

pub fn main() {
    let mut list = List { items: vec![1, 2] };
    let patch = smp_core::Patch::from_value(serde_json::json!({"items": [3]})).unwrap();
    list.apply(&patch).unwrap();
    assert_eq!(list.items, [3, 1, 2]);
}
