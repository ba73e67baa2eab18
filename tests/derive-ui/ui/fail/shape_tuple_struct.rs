use serde::{Deserialize, Serialize};
use smp_core::StrategicMerge;

// A tuple struct of two fields is a JSON array: not patchable.
#[derive(Serialize, Deserialize, StrategicMerge)]
struct Pair(String, String);

// A newtype is patched as the value it wraps: its field takes no attributes.
#[derive(Serialize, Deserialize, StrategicMerge)]
struct Quantity(#[serde(rename = "q")] String);

#[derive(Serialize, Deserialize, StrategicMerge)]
struct Items(#[patch(strategy = "merge")] Vec<String>);

#[derive(Serialize, Deserialize, StrategicMerge)]
#[union]
struct Source(Option<String>);

fn main() {}
