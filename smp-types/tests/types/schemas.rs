//! Every definition's patch schema, listed as text and held to `data/schemas.txt`.
//!
//! smp-types builds each struct's schema two ways: with `types`, `#[derive(StrategicMerge)]`
//! reads the field attributes; without it, the table smp-codegen writes beside the struct is
//! compiled and no derive runs. CI runs this test both ways (the workspace turns `types` on;
//! `cargo test -p smp-types --features k8s-openapi,k8s-openapi/v1_34` leaves it off), so the two
//! tables cannot drift apart. Only a build with every group compiles the whole listing.
//!
//! `SMP_BLESS=1 cargo test -p smp-types --test types schemas::` rewrites the listing.
#![cfg(feature = "all-groups")]

use std::fmt::Write as _;

use smp_core::schema::{TypeDef, TypeRef};

/// A field's or an item's type: a struct by name, containers by what they hold.
fn ty(r: &TypeRef, depth: usize) -> String {
    let TypeRef::Static(get) = r else {
        return format!("{r:?}");
    };
    shape(get(), depth)
}

fn shape(def: &TypeDef, depth: usize) -> String {
    // A static schema's containers nest a few levels at most; the bound only keeps a broken
    // table from looping.
    if depth > 8 {
        return "...".to_owned();
    }
    match def {
        TypeDef::Struct(s) => s.name.to_string(),
        TypeDef::Map(v) => format!("map<{}>", ty(v, depth + 1)),
        TypeDef::List(v) => format!("list<{}>", ty(v, depth + 1)),
        TypeDef::Embedded(v) => format!("embedded<{}>", ty(v, depth + 1)),
        TypeDef::Primitive => "primitive".to_owned(),
        TypeDef::Opaque => "any".to_owned(),
    }
}

fn listing() -> String {
    let mut out = String::new();
    for d in smp_types::DEFINITIONS {
        let def = d.schema().def();
        let _ = write!(out, "{} ({}): ", d.name(), d.type_name());
        let TypeDef::Struct(s) = def else {
            let _ = writeln!(out, "{}", shape(def, 0));
            continue;
        };
        let _ = writeln!(
            out,
            "struct {}{}",
            s.name,
            if s.open { " open" } else { "" }
        );
        for f in s.fields.iter() {
            let _ = writeln!(
                out,
                "  {}: {} strategy={:?} key={:?} recommended={:?} composite={} omit_unchanged={}",
                f.name,
                ty(&f.ty, 0),
                f.strategy,
                f.merge_key,
                f.recommended,
                f.composite,
                f.omit_unchanged
            );
        }
        for r in s.inlined.iter() {
            let _ = writeln!(out, "  inlined {}", ty(r, 0));
        }
        for u in s.unions.iter() {
            let members: Vec<String> = u
                .members
                .iter()
                .map(|m| format!("{}={}", m.field, m.discriminated_by))
                .collect();
            let _ = writeln!(
                out,
                "  union discriminator={:?} members=[{}]",
                u.discriminator,
                members.join(", ")
            );
        }
    }
    out
}

#[test]
fn every_schema_matches_the_listing() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/schemas.txt");
    let got = listing();
    if std::env::var_os("SMP_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap_or(&path)).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&path, &got).unwrap_or_else(|e| panic!("{e}"));
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (SMP_BLESS=1 writes it)", path.display()));
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(g, w)| g != w)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "the schemas differ from {} at line {}:\n  got:  {:?}\n  want: {:?}\n(types feature: {})",
            path.display(),
            line + 1,
            got.lines().nth(line),
            want.lines().nth(line),
            cfg!(feature = "types")
        );
    }
}
