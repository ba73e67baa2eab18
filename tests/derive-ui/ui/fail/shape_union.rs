use smp_core::StrategicMerge;

#[derive(StrategicMerge)]
union Bits {
    a: u32,
    b: f32,
}

fn main() {}
