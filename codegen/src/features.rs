//! smp-types' group features: which API group's feature each group needs, from the types its
//! definitions name. smp-types' `Cargo.toml` lists the same by hand (cargo reads no generated
//! manifest); the `up_to_date` test holds the two together.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::Error;
use crate::model::{Api, Body, Ty};
use crate::names;

/// Each group's feature with the features of the other groups its types name. A definition
/// outside every group (apimachinery's, always compiled) may not name a group's type.
pub fn group_features(api: &Api) -> Result<BTreeMap<String, BTreeSet<String>>, Error> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for def in api.defs.values() {
        let group = names::group_feature(&def.path.module);
        if let Some(g) = &group {
            out.entry(g.clone()).or_default();
        }
        let Body::Struct(s) = &def.body else { continue };
        for field in &s.fields {
            let mut named = Vec::new();
            refs(&field.ty, &mut named);
            for name in named {
                let Some(target) = api.defs.get(name) else {
                    continue;
                };
                let needed = names::group_feature(&target.path.module);
                match (&group, needed) {
                    (Some(g), Some(n)) if *g != n => {
                        out.entry(g.clone()).or_default().insert(n);
                    }
                    (None, Some(n)) => {
                        return Err(Error::new(format!(
                            "{} is always compiled but names {name}, of group feature `{n}`",
                            def.name
                        )));
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(out)
}

/// The definitions a field type names.
fn refs<'a>(ty: &'a Ty, out: &mut Vec<&'a str>) {
    match ty {
        Ty::Ref(name) => out.push(name),
        Ty::List(item) | Ty::Map(item) => refs(item, out),
        Ty::String | Ty::I32 | Ty::I64 | Ty::Number | Ty::Bool | Ty::Value => {}
    }
}
