//! The schema table of a struct for builds of smp-types without `types`, written as code:
//! what `#[derive(StrategicMerge)]` would build from the field attributes, so that those builds
//! run no derive.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::error::Error;
use crate::model::{Struct, UnionRole};
use crate::names;

/// Without the `types` feature: the struct's patch schema as a `static` table and its
/// `PatchSchema`: the same table `#[derive(StrategicMerge)]` builds from the field attributes
/// (smp-types' `schemas` test holds the two builds to one golden listing).
pub(super) fn schema_table(
    out: &mut String,
    ident: &str,
    s: &Struct,
    types: &[String],
    whole_union: bool,
) -> Result<(), Error> {
    let mut table = String::new();
    // What the table names, so that it imports nothing else.
    let (mut plain, mut other, mut strategies) = (false, false, false);
    for (f, ty) in s.fields.iter().zip(types) {
        let strategy = match f.strategy.as_deref() {
            None => "DEFAULT",
            Some("merge") => "MERGE",
            Some("replace") => "REPLACE",
            Some("retainKeys") => "RETAIN_KEYS",
            Some("merge,retainKeys") => "MERGE_RETAIN_KEYS",
            Some(unknown) => {
                return Err(Error::new(format!(
                    "{ident}.{}: patch strategy {unknown:?} is not one Kubernetes defines",
                    f.json
                )));
            }
        };
        let key = match &f.merge_key {
            Some(k) => format!("Some({k:?})"),
            None => "None".to_owned(),
        };
        match &f.recommended {
            Some(keys) => {
                strategies = true;
                let keys: Vec<String> = keys
                    .split(',')
                    .map(|k| format!("std::borrow::Cow::Borrowed({:?})", k.trim()))
                    .collect();
                let _ = writeln!(
                    table,
                    "        FieldDef::with_recommended({:?}, smp_core::schema::TypeRef::Static(smp_core::__private::type_def::<{ty}>), Strategy::{strategy}, {key}, &[{}]),",
                    f.json,
                    keys.join(", ")
                );
            }
            None if strategy == "DEFAULT" && f.merge_key.is_none() => {
                plain = true;
                let _ = writeln!(table, "        plain_field::<{ty}>({:?}),", f.json);
            }
            None => {
                (other, strategies) = (true, true);
                let _ = writeln!(
                    table,
                    "        field_of::<{ty}>({:?}, Strategy::{strategy}, {key}),",
                    f.json
                );
            }
        }
    }
    let helpers: Vec<&str> = [(other, "field_of"), (plain, "plain_field")]
        .into_iter()
        .filter_map(|(used, name)| used.then_some(name))
        .collect();
    out.push_str("\n#[cfg(not(feature = \"types\"))]\nconst _: () = {\n");
    match helpers.as_slice() {
        [] => {}
        [one] => {
            let _ = writeln!(out, "    use smp_core::__private::{one};");
        }
        many => {
            let _ = writeln!(out, "    use smp_core::__private::{{{}}};", many.join(", "));
        }
    }
    let strategy = if strategies { "Strategy, " } else { "" };
    let _ = writeln!(
        out,
        "    use smp_core::schema::{{FieldDef, {strategy}StructDef, TypeDef}};\n"
    );
    let _ = writeln!(out, "    static FIELDS: [FieldDef; {}] = [", s.fields.len());
    out.push_str(&table);
    out.push_str("    ];\n");
    let groups = union_groups(s, whole_union);
    let def = if groups.is_empty() {
        format!("StructDef::new({ident:?}, &FIELDS)")
    } else {
        // One `const` per member list, as a nested `&[...]` in a call is not a `static`.
        for (i, (_, members)) in groups.iter().enumerate() {
            let members: Vec<String> = members
                .iter()
                .map(|(json, value)| {
                    format!("smp_core::schema::UnionMember::new({json:?}, {value:?})")
                })
                .collect();
            let _ = writeln!(
                out,
                "    const MEMBERS_{i}: &[smp_core::schema::UnionMember] = &[{}];",
                members.join(", ")
            );
        }
        let unions: Vec<String> = groups
            .iter()
            .enumerate()
            .map(|(i, (discriminator, _))| {
                let d = match discriminator {
                    Some(d) => format!("Some({d:?})"),
                    None => "None".to_owned(),
                };
                format!("smp_core::schema::UnionDef::new({d}, MEMBERS_{i})")
            })
            .collect();
        let _ = writeln!(
            out,
            "    const UNIONS: &[smp_core::schema::UnionDef] = &[{}];",
            unions.join(", ")
        );
        format!("StructDef::with_unions({ident:?}, &FIELDS, &[], UNIONS)")
    };
    let _ = writeln!(
        out,
        "\n    impl smp_core::PatchSchema for {ident} {{\n        \
         const DEF: &'static TypeDef = &TypeDef::Struct({def});\n    }}\n}};"
    );
    Ok(())
}

/// A union of a schema table: its discriminator's JSON name and its members (JSON name,
/// discriminator value).
type UnionGroup<'s> = (Option<&'s str>, Vec<(&'s str, String)>);

/// The struct's unions in the order the derive lists them: by the first field that takes part
/// in each, members in field order, a member's value the discriminator's (or, without a
/// discriminator, the Go name of the field, as the derive defaults it).
fn union_groups(s: &Struct, whole_union: bool) -> Vec<UnionGroup<'_>> {
    let mut order: Vec<usize> = Vec::new();
    let mut groups: BTreeMap<usize, UnionGroup<'_>> = BTreeMap::new();
    for f in &s.fields {
        let Some(role) = &f.union else { continue };
        let union = match role {
            UnionRole::Discriminator { union } | UnionRole::Member { union, .. } => *union,
        };
        // A whole-struct union is one group whatever its index says.
        let key = if whole_union { 0 } else { union };
        let group = groups.entry(key).or_insert_with(|| {
            order.push(key);
            (None, Vec::new())
        });
        match role {
            UnionRole::Discriminator { .. } => {
                group.0.get_or_insert(f.json.as_str());
            }
            UnionRole::Member { value, .. } => {
                let value = if s.unions[union].discriminator.is_some() {
                    value.clone()
                } else {
                    names::go_name(&f.json)
                };
                group.1.push((f.json.as_str(), value));
            }
        }
    }
    order
        .into_iter()
        .filter_map(|key| groups.remove(&key))
        .collect()
}
