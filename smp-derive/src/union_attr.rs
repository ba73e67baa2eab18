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

use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr};

use crate::attr::skip_value;
use crate::ctxt::Errors;

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
