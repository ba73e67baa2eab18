use smp_core::StrategicMerge;

// `schema_only` derives no patch type, so there is nothing for `patch_type` to name.
#[derive(StrategicMerge)]
#[patch(schema_only, patch_type = "WidgetChange")]
struct Widget {
    size: Option<i64>,
}

// `schema_only` takes no value.
#[derive(StrategicMerge)]
#[patch(schema_only = "yes")]
struct Gadget {
    size: Option<i64>,
}

// A described type has no `PatchField`: it cannot be a field of a patchable type.
#[derive(StrategicMerge)]
#[patch(schema_only)]
struct Part {
    name: Option<String>,
}

#[derive(serde::Serialize, serde::Deserialize, StrategicMerge)]
struct Machine {
    part: Option<Part>,
}

fn main() {}
