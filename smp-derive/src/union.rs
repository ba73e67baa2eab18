//! The unions of a parsed struct (KEP-1027): its groups of members as the model resolves
//! them from the `#[union]` attributes (`union_attr`), and the checks they must pass.

use proc_macro2::Span;

use crate::ast::{Container, Data, Field};
use crate::case::go_name;
use crate::ctxt::Errors;
use crate::serde::unraw;
use crate::ty::Shape;

/// One union of a struct, as the model resolves it.
pub(crate) struct Group<'f, 'a> {
    /// `None`: the `#[union]` struct's union or the unnamed inline group.
    pub name: Option<String>,
    pub discriminator: Option<&'f Field<'a>>,
    /// Members and their discriminator values.
    pub members: Vec<(&'f Field<'a>, String)>,
}

/// The unions a struct declares itself (flattened structs declare their own).
pub(crate) fn groups<'f, 'a>(c: &'f Container<'a>) -> Vec<Group<'f, 'a>> {
    let Data::Struct(fields) = &c.data else {
        return Vec::new();
    };
    let mut out: Vec<Group<'f, 'a>> = Vec::new();
    fn group(out: &mut Vec<Group<'_, '_>>, name: Option<String>) -> usize {
        match out.iter().position(|g| g.name == name) {
            Some(i) => i,
            None => {
                out.push(Group {
                    name,
                    discriminator: None,
                    members: Vec::new(),
                });
                out.len() - 1
            }
        }
    }
    let is_union = c.union.is_some();
    if is_union {
        group(&mut out, None);
    }
    for f in fields.iter().filter(|f| f.serde.skip.is_none()) {
        let u = &f.union;
        if let Some(d) = &u.discriminator {
            let i = group(&mut out, if is_union { None } else { d.group.clone() });
            out[i].discriminator.get_or_insert(f);
            continue;
        }
        let name = match (&u.member, is_union) {
            // Reported by `check`: a union may not span structs.
            _ if f.serde.flatten.is_some() => continue,
            (Some(m), false) => m.group.clone(),
            (_, true) if f.serde.flatten.is_none() => None,
            _ => continue,
        };
        let value = match &u.discriminated_by {
            Some(lit) => lit.value(),
            None => go_name(&f.name),
        };
        let i = group(&mut out, name);
        out[i].members.push((f, value));
    }
    out
}

// Each rule reports at the narrowest token that breaks it.
pub(crate) fn check(cx: &Errors, c: &Container<'_>) {
    let Data::Struct(fields) = &c.data else {
        return;
    };
    let is_union = c.union.is_some();
    let mut first_discriminator: Option<&syn::Path> = None;
    for f in fields {
        let u = &f.union;
        let marked =
            u.discriminator.is_some() || u.member.is_some() || u.discriminated_by.is_some();
        // Not in the JSON object, or not this struct's: a union may not span structs.
        if let (true, Some(skip)) = (marked, &f.serde.skip) {
            cx.at(skip, "#[union] has no effect on a #[serde(skip)] field");
            continue;
        }
        if f.serde.flatten.is_some() && (marked || is_union) {
            let msg = "a union may not span structs: a flattened field cannot be a union member or discriminator; mark the members inside the flattened struct";
            match u.member.as_ref().or(u.discriminator.as_ref()) {
                Some(flag) => cx.at(&flag.key, msg),
                None => cx.at(f.member, msg),
            }
            continue;
        }
        if let Some(d) = &u.discriminator {
            if let Some(first) = first_discriminator {
                let mut e = syn::Error::new_spanned(
                    &d.key,
                    "a struct has at most one union discriminator (KEP-1027: one per structure)",
                );
                e.combine(syn::Error::new_spanned(
                    first,
                    "the first discriminator is here",
                ));
                cx.push(e);
            }
            first_discriminator.get_or_insert(&d.key);
            if let (true, Some(_)) = (is_union, &d.group) {
                cx.at(&d.key, "in a #[union] struct the discriminator belongs to its union: write #[union(discriminator)]");
            }
            if u.member.is_some() {
                cx.at(
                    &d.key,
                    "a field cannot be both the discriminator and a member of a union",
                );
            }
            if let Some(lit) = &u.discriminated_by {
                cx.at(
                    lit,
                    "`discriminated_by` applies to union members, not to the discriminator",
                );
            }
            check_discriminator_type(cx, f);
            continue;
        }
        if let (true, Some(m)) = (is_union, &u.member) {
            cx.at(
                &m.key,
                "every field of a #[union] struct is a member: `member` is implied here",
            );
        }
        let member = is_union || u.member.is_some();
        if !member {
            if let Some(lit) = &u.discriminated_by {
                cx.at(lit, "`discriminated_by` applies to union members: add `member` or #[union] on the struct");
            }
            continue;
        }
        if !f.info.optional {
            cx.at(
                f.ty,
                format_args!(
                    "union member `{}` must be an `Option`: at most one member of a union is set, the others are absent",
                    unraw(f.member)
                ),
            );
        }
    }
    for g in groups(c) {
        check_group(cx, c, &g);
    }
}

fn check_discriminator_type(cx: &Errors, f: &Field<'_>) {
    let wrong = match f.info.shape {
        Shape::Scalar => !last_ident_is(f.info.inner, "String"),
        Shape::Named => false,
        Shape::Opaque | Shape::Map | Shape::List(_) | Shape::Unknown => true,
    };
    if wrong {
        cx.at(
            f.ty,
            format_args!(
                "a union discriminator must be a `String`, an `Option<String>` or a string enum, but `{}` is not",
                unraw(f.member)
            ),
        );
    }
}

fn last_ident_is(ty: &syn::Type, name: &str) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == name))
}

fn check_group(cx: &Errors, c: &Container<'_>, g: &Group<'_, '_>) {
    if g.members.is_empty() {
        if let Some(d) = g.discriminator.and_then(|f| f.union.discriminator.as_ref()) {
            cx.at(
                &d.key,
                "discriminator outside a union: no field of this struct is a member of its union (a union may not span structs: put the discriminator in the struct that holds the members)",
            );
            return;
        }
    }
    // A discriminator gives a single member alternatives: values that select nothing
    // (DeploymentStrategy's `Recreate` beside `rollingUpdate`, which the KEP lists).
    let needed = if g.discriminator.is_some() { 1 } else { 2 };
    if g.members.len() < needed {
        let msg = if needed == 1 {
            "a union needs at least one member besides its discriminator, found 0".to_owned()
        } else {
            format!(
                "a union without a discriminator needs at least two members, found {}",
                g.members.len()
            )
        };
        match (&c.union, g.members.first()) {
            (Some(attr), _) if g.name.is_none() => cx.at(&attr.path, msg),
            (_, Some((f, _))) => match &f.union.member {
                Some(m) => cx.at(&m.key, msg),
                None => cx.at(f.member, msg),
            },
            _ => cx.span(Span::call_site(), msg),
        }
    }
    for (i, (f, value)) in g.members.iter().enumerate() {
        if let Some((other, _)) = g.members[..i].iter().find(|(_, v)| v == value) {
            let msg = format!(
                "union members `{}` and `{}` have the same discriminator value {value:?}",
                unraw(other.member),
                unraw(f.member)
            );
            match &f.union.discriminated_by {
                Some(lit) => cx.at(lit, msg),
                None => cx.at(f.member, msg),
            }
        }
    }
}
