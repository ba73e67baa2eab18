//! `#[union]` (KEP-1027): attribute parsing, the unions of a struct, and their rules.
//!
//! Grammar:
//!
//! ```text
//! #[union]                                 on a struct: every field but the discriminator is
//!                                          a member of one union (Go `+union`)
//! #[union(discriminator)]                  on a field: the union's discriminator (Go
//!                                          `+unionDiscriminator`); `discriminator = "group"`
//!                                          for an inline group
//! #[union(member)]                         on a field of a non-union struct: an inline member
//! #[union(member = "group")]               (Go `+unionDeprecated`); groups form separate unions
//! #[union(discriminated_by = "Value")]     on a member: its discriminator value (default: the
//!                                          JSON name in Go-variable style, `rollingUpdate` →
//!                                          `RollingUpdate`)
//! ```
//!
//! A flattened `#[union]` struct brings its union along (its members sit in the same JSON
//! object); but a union never spans structs, so the outer struct cannot add members or a
//! discriminator to it.

use proc_macro2::Span;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr};

use crate::ast::{Container, Data, Field};
use crate::attr::skip_value;
use crate::case::go_name;
use crate::ctxt::Errors;
use crate::serde::unraw;
use crate::ty::Shape;

const FIELD_KEYS: &str = "`discriminator`, `member`, `discriminated_by`";

/// `#[union]` on a struct.
pub(crate) struct ContainerAttr {
    /// The attribute's path, for spans.
    pub path: syn::Path,
}

/// A key of `#[union(...)]` with its span and optional group name.
pub(crate) struct Flag {
    pub key: syn::Path,
    pub group: Option<String>,
}

/// What `#[union(...)]` says about a field.
#[derive(Default)]
pub(crate) struct FieldAttr {
    pub discriminator: Option<Flag>,
    pub member: Option<Flag>,
    pub discriminated_by: Option<LitStr>,
}

/// Parses `#[union]` on a container; on an enum it is an error.
pub(crate) fn container(
    cx: &Errors,
    attrs: &[Attribute],
    is_struct: bool,
) -> Option<ContainerAttr> {
    let mut out = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("union")) {
        if !is_struct {
            cx.at(
                attr.path(),
                "#[union] belongs on a struct (or on struct fields), not on an enum",
            );
            continue;
        }
        if !matches!(attr.meta, syn::Meta::Path(_)) {
            cx.at(
                &attr.meta,
                "#[union] on a struct takes no arguments: mark the discriminator field with #[union(discriminator)]",
            );
        }
        if out.is_some() {
            cx.at(attr.path(), "duplicate #[union] on this struct");
        }
        out = Some(ContainerAttr {
            path: attr.path().clone(),
        });
    }
    out
}

/// Reports `#[union]` on an enum variant.
pub(crate) fn reject_on_variant(cx: &Errors, attrs: &[Attribute]) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("union")) {
        cx.at(
            attr.path(),
            "#[union] is not expected on a variant: it belongs on structs and their fields",
        );
    }
}

/// Parses every `#[union(...)]` of a field.
pub(crate) fn field(cx: &Errors, attrs: &[Attribute]) -> FieldAttr {
    let mut out = FieldAttr::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("union")) {
        if matches!(attr.meta, syn::Meta::Path(_)) {
            cx.at(
                attr.path(),
                format_args!("#[union] on a field needs a key: one of {FIELD_KEYS}"),
            );
            continue;
        }
        if let Err(e) = attr.parse_nested_meta(|meta| field_key(cx, &mut out, meta)) {
            cx.push(e);
        }
    }
    out
}

fn field_key(cx: &Errors, out: &mut FieldAttr, meta: ParseNestedMeta<'_>) -> syn::Result<()> {
    let key = meta.path.clone();
    let duplicate = |cx: &Errors| {
        cx.at(
            &key,
            format_args!("duplicate key `{}` in #[union(...)]", key.to_token_stream()),
        );
    };
    if key.is_ident("discriminator") || key.is_ident("member") {
        let group = optional_string(cx, &meta)?.map(|lit| lit.value());
        let slot = if key.is_ident("member") {
            &mut out.member
        } else {
            &mut out.discriminator
        };
        if slot.is_some() {
            duplicate(cx);
        } else {
            *slot = Some(Flag { key, group });
        }
    } else if key.is_ident("discriminated_by") {
        if !meta.input.peek(syn::Token![=]) {
            skip_value(&meta)?;
            cx.at(
                &key,
                "expected a value: #[union(discriminated_by = \"...\")]",
            );
            return Ok(());
        }
        match optional_string(cx, &meta)? {
            Some(_) if out.discriminated_by.is_some() => duplicate(cx),
            Some(lit) => out.discriminated_by = Some(lit),
            None => {}
        }
    } else {
        skip_value(&meta)?;
        cx.at(
            &key,
            format_args!(
                "unknown key `{}` in #[union(...)], expected one of {FIELD_KEYS}",
                key.to_token_stream()
            ),
        );
    }
    Ok(())
}

/// The string of `key = "..."`, `None` for a bare `key`.
fn optional_string(cx: &Errors, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<LitStr>> {
    if !meta.input.peek(syn::Token![=]) {
        if meta.input.peek(syn::token::Paren) {
            skip_value(meta)?;
            cx.at(
                &meta.path,
                "expected `key` or `key = \"...\"` in #[union(...)]",
            );
        }
        return Ok(None);
    }
    let expr: syn::Expr = meta.value()?.parse()?;
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(lit),
            ..
        }) if !lit.value().is_empty() => Ok(Some(lit)),
        other => {
            cx.at(other, "expected a non-empty string literal");
            Ok(None)
        }
    }
}

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
