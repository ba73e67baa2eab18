//! The subset of `#[serde(...)]` that decides the wire form, which the patch schema must match.
//!
//! Every serde key falls in one of three buckets:
//! - *model*: `rename`, `rename_all`, `deny_unknown_fields`, `default`, `flatten`, `skip`,
//!   `skip_serializing_if`: they change what the JSON object holds, and the derive follows them;
//! - *reject*: keys after which the JSON form is no longer what the fields say (`with`, `tag`,
//!   `transparent`, one-directional skips or renames, ...): the typed apply could not agree
//!   with the round trip, so they are compile errors, each saying why;
//! - *ignore*: everything else (`alias`, `bound`, `expecting`, `borrow`, `crate`, ...). Its value
//!   is consumed so that the keys after it are still read.
//!
//! Syntax errors inside `#[serde]` are not reported here: serde_derive reports them already.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, ExprPath, LitStr};

use crate::attr::skip_value;
use crate::case::RenameRule;
use crate::ctxt::Errors;

/// A name given separately for each direction: `rename = ".."` sets both.
pub(crate) struct Directed<T> {
    pub ser: Option<T>,
    pub de: Option<T>,
    /// The key, for spans.
    pub key: Option<syn::Path>,
}

impl<T> std::default::Default for Directed<T> {
    fn default() -> Self {
        Directed {
            ser: None,
            de: None,
            key: None,
        }
    }
}

/// `default` or `default = "path"`.
pub(crate) enum DefaultAttr {
    None,
    Trait,
    Path(ExprPath),
}

/// Container attributes.
pub(crate) struct Container {
    pub rename: Directed<String>,
    pub rename_all: Directed<RenameRule>,
    pub deny_unknown_fields: bool,
    pub default: DefaultAttr,
}

/// Field attributes.
pub(crate) struct Field {
    pub rename: Directed<String>,
    pub flatten: Option<syn::Path>,
    pub skip: Option<syn::Path>,
    pub default: DefaultAttr,
    pub skip_serializing_if: Option<ExprPath>,
}

/// Variant attributes.
pub(crate) struct Variant {
    pub rename: Directed<String>,
    /// `skip` or `skip_serializing`: the variant does not serialize.
    pub skip: bool,
}

/// Why a rejected key cannot be supported.
const CUSTOM: &str = "a custom (de)serializer hides the wire form from the patch schema";
const TAGGING: &str =
    "only plain structs and enums of unit variants (serialized as strings) are supported";
const WHOLE: &str = "it changes the wire form of the whole type";
const ONE_WAY: &str = "a field skipped in one direction only does not survive the JSON round trip that defines a patch; use #[serde(skip)]";

fn reject(cx: &Errors, meta: &ParseNestedMeta<'_>, why: &str) -> syn::Result<()> {
    skip_value(meta)?;
    let key = &meta.path;
    cx.at(
        key,
        format_args!(
            "#[serde({})] is not supported by #[derive(StrategicMerge)]: {why}",
            quote::ToTokens::to_token_stream(key)
        ),
    );
    Ok(())
}

/// Runs `each` on every key of every `#[serde(...)]`; syntax errors are serde's to report.
fn each_key(attrs: &[Attribute], mut each: impl FnMut(&ParseNestedMeta<'_>) -> syn::Result<()>) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| each(&meta));
    }
}

/// `newtype`: the item is `struct Name(T);`, for which `transparent` is what serde does anyway.
pub(crate) fn container(cx: &Errors, attrs: &[Attribute], newtype: bool) -> Container {
    let mut out = Container {
        rename: Directed::default(),
        rename_all: Directed::default(),
        deny_unknown_fields: false,
        default: DefaultAttr::None,
    };
    each_key(attrs, |meta| {
        let p = &meta.path;
        if p.is_ident("rename") {
            directed(meta, &mut out.rename, |lit| Some(lit.value()))
        } else if p.is_ident("rename_all") {
            directed(meta, &mut out.rename_all, |lit| {
                RenameRule::from_str(&lit.value())
            })
        } else if p.is_ident("deny_unknown_fields") {
            out.deny_unknown_fields = true;
            Ok(())
        } else if p.is_ident("default") {
            out.default = default(meta)?;
            Ok(())
        } else if p.is_ident("tag") || p.is_ident("content") || p.is_ident("untagged") {
            reject(cx, meta, TAGGING)
        } else if newtype && p.is_ident("transparent") {
            Ok(())
        } else if ["transparent", "from", "try_from", "into", "remote"]
            .iter()
            .any(|k| p.is_ident(k))
        {
            reject(cx, meta, WHOLE)
        } else {
            skip_value(meta)
        }
    });
    out
}

pub(crate) fn field(cx: &Errors, attrs: &[Attribute]) -> Field {
    let mut out = Field {
        rename: Directed::default(),
        flatten: None,
        skip: None,
        default: DefaultAttr::None,
        skip_serializing_if: None,
    };
    let (mut skip_ser, mut skip_de) = (None, None);
    each_key(attrs, |meta| {
        let p = &meta.path;
        if p.is_ident("rename") {
            directed(meta, &mut out.rename, |lit| Some(lit.value()))
        } else if p.is_ident("flatten") {
            out.flatten = Some(p.clone());
            Ok(())
        } else if p.is_ident("skip") {
            out.skip = Some(p.clone());
            Ok(())
        } else if p.is_ident("skip_serializing") {
            skip_ser = Some(p.clone());
            Ok(())
        } else if p.is_ident("skip_deserializing") {
            skip_de = Some(p.clone());
            Ok(())
        } else if p.is_ident("default") {
            out.default = default(meta)?;
            Ok(())
        } else if p.is_ident("skip_serializing_if") {
            out.skip_serializing_if = Some(path_value(meta)?);
            Ok(())
        } else if ["with", "serialize_with", "deserialize_with"]
            .iter()
            .any(|k| p.is_ident(k))
        {
            reject(cx, meta, CUSTOM)
        } else {
            skip_value(meta)
        }
    });
    match (skip_ser, skip_de) {
        (Some(s), Some(_)) => out.skip = out.skip.take().or(Some(s)),
        (Some(one), None) | (None, Some(one)) if out.skip.is_none() => {
            let name = quote::ToTokens::to_token_stream(&one);
            cx.at(
                &one,
                format_args!(
                    "#[serde({name})] is not supported by #[derive(StrategicMerge)]: {ONE_WAY}"
                ),
            );
        }
        _ => {}
    }
    out
}

pub(crate) fn variant(cx: &Errors, attrs: &[Attribute]) -> Variant {
    let mut out = Variant {
        rename: Directed::default(),
        skip: false,
    };
    each_key(attrs, |meta| {
        let p = &meta.path;
        if p.is_ident("rename") {
            directed(meta, &mut out.rename, |lit| Some(lit.value()))
        } else if p.is_ident("skip") || p.is_ident("skip_serializing") {
            out.skip = true;
            Ok(())
        } else if ["with", "serialize_with", "deserialize_with"]
            .iter()
            .any(|k| p.is_ident(k))
        {
            reject(cx, meta, CUSTOM)
        } else if p.is_ident("untagged") {
            reject(cx, meta, TAGGING)
        } else {
            skip_value(meta)
        }
    });
    out
}

/// `key = "v"` sets both directions, `key(serialize = "a", deserialize = "b")` each one.
/// Values `parse` refuses (an unknown `rename_all` rule) are serde's to report.
fn directed<T>(
    meta: &ParseNestedMeta<'_>,
    slot: &mut Directed<T>,
    parse: impl Fn(&LitStr) -> Option<T>,
) -> syn::Result<()> {
    slot.key.get_or_insert_with(|| meta.path.clone());
    if meta.input.peek(syn::Token![=]) {
        let lit: LitStr = meta.value()?.parse()?;
        slot.ser = parse(&lit);
        slot.de = parse(&lit);
        return Ok(());
    }
    meta.parse_nested_meta(|inner| {
        let lit: LitStr = inner.value()?.parse()?;
        if inner.path.is_ident("serialize") {
            slot.ser = parse(&lit);
        } else if inner.path.is_ident("deserialize") {
            slot.de = parse(&lit);
        }
        Ok(())
    })
}

fn default(meta: &ParseNestedMeta<'_>) -> syn::Result<DefaultAttr> {
    if meta.input.peek(syn::Token![=]) {
        Ok(DefaultAttr::Path(path_value(meta)?))
    } else {
        Ok(DefaultAttr::Trait)
    }
}

/// `key = "some::path"`, with the path's spans on the string literal.
fn path_value(meta: &ParseNestedMeta<'_>) -> syn::Result<ExprPath> {
    let lit: LitStr = meta.value()?.parse()?;
    lit.parse()
}

/// The Rust name with `r#` removed, as serde writes it.
pub(crate) fn unraw(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#")
        .map_or_else(|| s.clone(), str::to_owned)
}
