//! Rules across attributes and types, checked on the model. Each rule reports at the
//! narrowest token that breaks it and says what is expected.
//!
//! Rules that need the real types (does the element type declare the merge key? is a named
//! type a struct?) cannot be decided here; `expand` emits `const` assertions for them.

use std::collections::BTreeSet;

use crate::ast::{Container, Data, Field};
use crate::attr::Keyed;
use crate::ctxt::Errors;
use crate::ty::{Shape, TypeInfo};

pub(crate) fn check(cx: &Errors, c: &Container<'_>) {
    check_generics(cx, c);
    if let Data::Struct(fields) = &c.data {
        check_unique_names(cx, fields);
        for f in fields {
            check_field(cx, f);
        }
    }
}

// `struct Spec<T>` works: its impls bound each type parameter by what a field needs. Lifetimes
// cannot (the runtime's schemas are `'static`, and so is every `PatchField`), and generic enums
// and newtypes are not supported.
fn check_generics(cx: &Errors, c: &Container<'_>) {
    let g = &c.input.generics;
    if let Some(l) = g.lifetimes().next() {
        cx.at(
            l,
            "lifetime parameters are not supported by #[derive(StrategicMerge)]: patched types own their data (`PatchField: 'static`)",
        );
    }
    if !g.params.is_empty() && !matches!(c.data, Data::Struct(_)) {
        cx.at(
            g,
            "generic enums and newtypes are not supported by #[derive(StrategicMerge)]: only structs with named fields may have type parameters",
        );
    }
}

// Two fields renamed to one JSON name: the patch member could mean either.
fn check_unique_names(cx: &Errors, fields: &[Field<'_>]) {
    let mut seen = BTreeSet::new();
    for f in fields
        .iter()
        .filter(|f| f.serde.skip.is_none() && f.serde.flatten.is_none())
    {
        if !seen.insert(f.name.as_str()) {
            cx.at(
                f.member,
                format_args!(
                    "duplicate JSON field name {:?}: another field already serializes as it",
                    f.name
                ),
            );
        }
    }
}

fn check_field(cx: &Errors, f: &Field<'_>) {
    let p = &f.patch;
    // `#[serde(skip)]` and `flatten` fields are not members of the JSON object: patch
    // metadata on them would describe nothing.
    if let Some(attr) = &p.first_attr {
        if f.serde.skip.is_some() {
            cx.at(attr, "#[patch] has no effect on a #[serde(skip)] field");
        } else if f.serde.flatten.is_some() {
            cx.at(
                attr,
                "#[patch] has no effect on a #[serde(flatten)] field: put it on the fields of the flattened struct",
            );
        }
    }
    check_flatten(cx, f);
    // #[patch(atomic, strategy = "merge")]: two strategies.
    if let (Some(atomic), Some(_)) = (&p.atomic, &p.strategy) {
        cx.at(
            &atomic.key,
            "`atomic` and `strategy` cannot both be given: `atomic` means strategy = \"replace\"",
        );
    }
    // #[patch(opaque, k8s_openapi)]: two ways of seeing the field's type.
    if let (Some(_), Some(k8s)) = (&p.opaque, &p.k8s_openapi) {
        cx.at(
            &k8s.key,
            "`opaque` and `k8s_openapi` cannot both be given: `opaque` replaces the value whole, `k8s_openapi` patches it with its smp-types counterpart's schema",
        );
    }
    // #[patch(opaque)]: replaced whole through JSON, so nothing else describes its inside.
    if let Some(opaque) = &p.opaque {
        let others = [
            p.strategy.as_ref().map(|k| &k.key),
            p.merge_key.as_ref().map(|k| &k.key),
            p.recommended.as_ref().map(|k| &k.key),
            p.atomic.as_ref().map(|k| &k.key),
        ];
        for key in others.into_iter().flatten() {
            cx.at(
                key,
                format_args!(
                    "`opaque` fields are replaced whole: `{}` cannot be given with `opaque`",
                    quote::ToTokens::to_token_stream(key)
                ),
            );
        }
        if f.union.member.is_some() || f.union.discriminator.is_some() {
            cx.at(
                &opaque.key,
                "a union member cannot be `opaque`: union members are normalized by their type",
            );
        }
        return;
    }
    if let Some(s) = &p.strategy {
        if s.value.merges() {
            check_merge(cx, f, s);
        }
        if s.value.retain_keys {
            check_retain_keys(cx, f, s);
        }
    }
    if let Some(k) = &p.merge_key {
        check_merge_key(cx, f, k);
    }
    if let Some(r) = &p.recommended {
        check_recommended(cx, f, r);
    }
}

// Recommended keys identify items of a list of structs; old clients and servers keep using
// the merge key, so it must come first (the proposal's backward-compatibility rule).
fn check_recommended(cx: &Errors, f: &Field<'_>, r: &Keyed<Vec<String>>) {
    let list_of_structs = f
        .info
        .list_elem()
        .is_some_and(|elem| not_object(&elem).is_none());
    if !list_of_structs {
        cx.at(
            r.pair(),
            format_args!(
                "recommended merge keys apply to lists of structs, but field `{}` is not one",
                f.member
            ),
        );
        return;
    }
    for (i, key) in r.value.iter().enumerate() {
        if r.value[..i].contains(key) {
            cx.span(
                r.value_span(),
                format_args!("recommended key `{key}` is listed twice"),
            );
        }
    }
    if let (Some(k), Some(first)) = (&f.patch.merge_key, r.value.first()) {
        if *first != k.value {
            cx.span(
                r.value_span(),
                format_args!(
                    "the first recommended key must be the merge key `{}` (found `{first}`): servers that ignore `$patchMergeKey` identify items by it",
                    k.value
                ),
            );
        }
    }
}

// serde flattens maps too (catch-all fields), but the typed path plans flattened members
// through the inner type's `StrategicMerge` impl, which only structs have.
fn check_flatten(cx: &Errors, f: &Field<'_>) {
    if let Some(key) = &f.serde.flatten {
        let plain = matches!(f.info.shape, Shape::Named) && std::ptr::eq(f.info.inner, f.ty);
        if !plain {
            cx.at(
                key,
                "#[serde(flatten)] is supported on fields whose type is a struct deriving StrategicMerge (not Option, Box, maps or lists)",
            );
        }
    }
}

// strategy = "merge" decides how lists merge; objects merge anyway. On a primitive, a map or
// `serde_json::Value` it means nothing.
fn check_merge(cx: &Errors, f: &Field<'_>, s: &Keyed<crate::attr::Strategy>) {
    if let Some(found) = not_object(&f.info) {
        cx.span(
            s.value_span(),
            format_args!(
                "strategy \"merge\" applies to lists (`Vec`) and structs, but field `{}` is {}",
                f.member,
                found.one()
            ),
        );
    }
}

// retainKeys makes `$retainKeys` meaningful: it lists the keys of an object to keep. Maps are
// objects too (upstream's examples put it on one).
fn check_retain_keys(cx: &Errors, f: &Field<'_>, s: &Keyed<crate::attr::Strategy>) {
    let found = match f.info.list_elem() {
        Some(elem) => not_object(&elem).map(|found| format!("a list of {}", found.many())),
        None => not_object(&f.info)
            .filter(|_| !matches!(f.info.shape, Shape::Map))
            .map(|found| found.one().to_owned()),
    };
    if let Some(found) = found {
        cx.span(
            s.value_span(),
            format_args!(
                "strategy \"retainKeys\" applies to structs and lists of structs, but field `{}` is {found}",
                f.member
            ),
        );
    }
}

// merge_key names the field that identifies items of a merged list of objects. Lists of
// primitives merge as sets, with no key.
fn check_merge_key(cx: &Errors, f: &Field<'_>, k: &Keyed<String>) {
    let Some(elem) = f.info.list_elem() else {
        cx.at(
            k.pair(),
            format_args!(
                "merge_key applies to lists of structs, but field `{}` is not a list",
                f.member
            ),
        );
        return;
    };
    if let Some(found) = not_object(&elem) {
        cx.at(
            k.pair(),
            format_args!(
                "merge_key applies to lists of structs, but field `{}` is a list of {}: lists of primitives merge as sets, without a key",
                f.member,
                found.many()
            ),
        );
        return;
    }
    if !f.patch.effective().merges() {
        cx.at(
            k.pair(),
            "#[patch(merge_key = ...)] requires strategy = \"merge\": without it the list is replaced whole",
        );
    }
}

/// What a type certainly is when it is neither a struct nor a list; `None` when it may be
/// either (only the compiler knows what a named type is).
#[derive(Clone, Copy)]
enum Found {
    Primitive,
    Value,
    Map,
}

impl Found {
    fn one(self) -> &'static str {
        match self {
            Found::Primitive => "a primitive",
            Found::Value => "a `serde_json::Value`",
            Found::Map => "a map",
        }
    }

    fn many(self) -> &'static str {
        match self {
            Found::Primitive => "primitives",
            Found::Value => "`serde_json::Value`s",
            Found::Map => "maps",
        }
    }
}

fn not_object(info: &TypeInfo<'_>) -> Option<Found> {
    match info.shape {
        Shape::Scalar => Some(Found::Primitive),
        Shape::Opaque => Some(Found::Value),
        Shape::Map => Some(Found::Map),
        Shape::List(_) | Shape::Named | Shape::Unknown => None,
    }
}
