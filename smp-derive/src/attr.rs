//! `#[patch(...)]` and `#[union(...)]`: the derive's own attributes, parsed into typed values.
//!
//! Parsing never returns early: a bad key records an error and the next key is parsed, so a
//! user sees every mistake of an item in one build.
//!
//! Field grammar:
//!
//! ```text
//! #[patch(strategy = "merge" | "replace" | "retainKeys" | "merge|retainKeys" | ...)]
//! #[patch(merge_key = "name")]
//! #[patch(atomic)]                      same as strategy = "replace"
//! #[patch(recommended = "a,b")]         multi-field merge keys (`$patchMergeKey`), the
//!                                       merge key (if any) first
//! ```
//!
//! `#[union(...)]` has its own module, `crate::union`.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr};

use crate::ctxt::Errors;

/// The keys `#[patch(...)]` accepts, for "unknown key" messages.
const PATCH_KEYS: &str =
    "`strategy`, `merge_key`, `recommended`, `atomic`, `opaque`, `k8s_openapi`";

/// The strategy spellings, for "unknown strategy" messages.
const SPELLINGS: &str =
    "\"merge\", \"replace\", \"retainKeys\", \"merge|retainKeys\" (`,` also separates)";

/// A value with the key that gave it, for spans.
pub(crate) struct Keyed<T> {
    pub value: T,
    /// The key as written (`strategy`).
    pub key: syn::Path,
    /// The string literal, for keys that take one.
    pub lit: Option<LitStr>,
}

impl<T> Keyed<T> {
    /// The tokens of `key = "lit"`, to span an error over the whole pair.
    pub(crate) fn pair(&self) -> proc_macro2::TokenStream {
        let (key, lit) = (&self.key, &self.lit);
        quote!(#key = #lit)
    }

    /// The literal's span, or the key's for flags.
    pub(crate) fn value_span(&self) -> Span {
        match &self.lit {
            Some(lit) => lit.span(),
            None => syn::spanned::Spanned::span(&self.key),
        }
    }
}

/// The patch strategy of a field, as in `smp_core::Strategy`, parsed at compile time.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Strategy {
    pub base: Base,
    pub retain_keys: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Base {
    Default,
    Merge,
    Replace,
}

impl Strategy {
    pub(crate) const DEFAULT: Strategy = Strategy {
        base: Base::Default,
        retain_keys: false,
    };
    pub(crate) const REPLACE: Strategy = Strategy {
        base: Base::Replace,
        retain_keys: false,
    };

    /// The Kubernetes spelling, with the rules of `smp_core::Strategy::parse`: parts separated
    /// by `,` or `|`, at most one of `merge`/`replace`, at most one `retainKeys`.
    pub(crate) fn parse(text: &str) -> Option<Strategy> {
        let mut out = Strategy::DEFAULT;
        let mut base_seen = false;
        for part in text.split([',', '|']).map(str::trim) {
            match part {
                "retainKeys" if !out.retain_keys => out.retain_keys = true,
                "merge" | "replace" if !base_seen => {
                    base_seen = true;
                    out.base = if part == "merge" {
                        Base::Merge
                    } else {
                        Base::Replace
                    };
                }
                "" if text.trim().is_empty() => {}
                _ => return None,
            }
        }
        Some(out)
    }

    pub(crate) fn merges(self) -> bool {
        self.base == Base::Merge
    }
}

/// What `#[patch(...)]` says about a field.
#[derive(Default)]
pub(crate) struct PatchField {
    pub strategy: Option<Keyed<Strategy>>,
    pub merge_key: Option<Keyed<String>>,
    /// `recommended = "a,b"`: the keys, trimmed, in order.
    pub recommended: Option<Keyed<Vec<String>>>,
    pub atomic: Option<Keyed<()>>,
    /// `opaque`: replaced whole, through the JSON form, whatever the field's type (any
    /// `Serialize + DeserializeOwned` type; the generated code views it as `Opaque<T>`).
    pub opaque: Option<Keyed<()>>,
    /// `k8s_openapi`: a k8s-openapi type (or a container of one), patched through the JSON form
    /// with the schema of its smp-types counterpart; the generated code views it as
    /// `smp_types::k8s_openapi::K8sOpenApi<T>`.
    pub k8s_openapi: Option<Keyed<()>>,
    /// The first `#[patch]` attribute, for "not expected here" errors.
    pub first_attr: Option<Attribute>,
}

impl PatchField {
    /// The transparent wrapper the generated code views the field as, when it is not patched
    /// as its own type (`opaque`, `k8s_openapi`).
    pub(crate) fn view(&self) -> Option<TokenStream> {
        if self.opaque.is_some() {
            Some(quote!(__smp_core::Opaque))
        } else if self.k8s_openapi.is_some() {
            Some(quote!(::smp_types::k8s_openapi::K8sOpenApi))
        } else {
            None
        }
    }

    /// The strategy in effect: `atomic` and `opaque` are `replace`.
    pub(crate) fn effective(&self) -> Strategy {
        match (
            &self.strategy,
            self.atomic.is_some() || self.opaque.is_some(),
        ) {
            (Some(s), _) => s.value,
            (None, true) => Strategy::REPLACE,
            (None, false) => Strategy::DEFAULT,
        }
    }
}

/// Parses every `#[patch]` of a field.
pub(crate) fn field(cx: &Errors, attrs: &[Attribute]) -> PatchField {
    let mut out = PatchField::default();
    for attr in attrs {
        if !attr.path().is_ident("patch") {
            continue;
        }
        if out.first_attr.is_none() {
            out.first_attr = Some(attr.clone());
        }
        if let Err(e) = attr.parse_nested_meta(|meta| field_key(cx, &mut out, meta)) {
            cx.push(e);
        }
    }
    out
}

fn field_key(cx: &Errors, out: &mut PatchField, meta: ParseNestedMeta<'_>) -> syn::Result<()> {
    let key = meta.path.clone();
    if key.is_ident("strategy") {
        let lit = string(cx, &meta, "strategy")?;
        if let Some(lit) = lit {
            match Strategy::parse(&lit.value()) {
                Some(value) => set(cx, &mut out.strategy, key, value, Some(lit)),
                None => cx.at(
                    &lit,
                    format_args!(
                        "unknown patch strategy {:?}, expected one of {SPELLINGS}",
                        lit.value()
                    ),
                ),
            }
        }
    } else if key.is_ident("merge_key") {
        if let Some(lit) = string(cx, &meta, "merge_key")? {
            if lit.value().is_empty() {
                cx.at(&lit, "expected a field name: merge_key must not be empty");
            } else {
                set(cx, &mut out.merge_key, key, lit.value(), Some(lit));
            }
        }
    } else if key.is_ident("atomic") {
        if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
            skip_value(&meta)?;
            cx.at(&key, "`atomic` takes no value: write #[patch(atomic)]");
        }
        set(cx, &mut out.atomic, key, (), None);
    } else if key.is_ident("opaque") {
        if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
            skip_value(&meta)?;
            cx.at(&key, "`opaque` takes no value: write #[patch(opaque)]");
        }
        set(cx, &mut out.opaque, key, (), None);
    } else if key.is_ident("k8s_openapi") {
        if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
            skip_value(&meta)?;
            cx.at(
                &key,
                "`k8s_openapi` takes no value: write #[patch(k8s_openapi)]",
            );
        }
        set(cx, &mut out.k8s_openapi, key, (), None);
    } else if key.is_ident("recommended") {
        if let Some(lit) = string(cx, &meta, "recommended")? {
            let text = lit.value();
            let keys: Vec<String> = text.split(',').map(|k| k.trim().to_owned()).collect();
            if keys.iter().any(String::is_empty) {
                cx.at(
                    &lit,
                    "expected comma-separated field names: #[patch(recommended = \"port,protocol\")]",
                );
            } else {
                set(cx, &mut out.recommended, key, keys, Some(lit));
            }
        }
    } else {
        skip_value(&meta)?;
        cx.at(
            &key,
            format_args!(
                "unknown key `{}` in #[patch(...)], expected one of {PATCH_KEYS}",
                key.to_token_stream()
            ),
        );
    }
    Ok(())
}

/// Records a key's value, or reports it as given twice.
fn set<T>(cx: &Errors, slot: &mut Option<Keyed<T>>, key: syn::Path, value: T, lit: Option<LitStr>) {
    if let Some(first) = slot {
        let name = key.to_token_stream();
        let mut e = syn::Error::new_spanned(
            &key,
            format_args!("duplicate key `{name}` in #[patch(...)]"),
        );
        e.combine(syn::Error::new_spanned(
            &first.key,
            format_args!("`{name}` first given here"),
        ));
        cx.push(e);
        return;
    }
    *slot = Some(Keyed { value, key, lit });
}

/// The string literal of `key = "..."`; a missing or non-string value is reported.
fn string(cx: &Errors, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Option<LitStr>> {
    if !meta.input.peek(syn::Token![=]) {
        skip_value(meta)?;
        cx.at(
            &meta.path,
            format_args!("expected a value: #[patch({key} = \"...\")]"),
        );
        return Ok(None);
    }
    let expr: syn::Expr = meta.value()?.parse()?;
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(lit),
            ..
        }) => Ok(Some(lit)),
        other => {
            cx.at(
                other,
                format_args!("expected a string literal: #[patch({key} = \"...\")]"),
            );
            Ok(None)
        }
    }
}

/// Consumes whatever value a key has (`= expr` or `(...)`), so parsing can go on.
pub(crate) fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

/// What `#[patch(...)]` says on a type.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    /// `crate = "path"`: the path of the smp_core crate, for code that depends on it under
    /// another name (serde's `#[serde(crate = "...")]`). `None`: `::smp_core`.
    pub krate: Option<syn::Path>,
    /// `patch_type = "Name"`: the name of the generated patch type (default `TPatch`).
    pub patch_type: Option<syn::Ident>,
    /// `no_patch_type`: no patch type; the type's patch is `UntypedPatch<T>` (its JSON).
    pub no_patch_type: Option<Keyed<()>>,
    /// `schema_only`: only the schema (`PatchSchema`), not the patching itself.
    pub schema_only: Option<Keyed<()>>,
}

/// Parses `#[patch(crate = "path", patch_type = "Name", no_patch_type, schema_only)]` on a
/// type.
pub(crate) fn container(cx: &Errors, attrs: &[Attribute]) -> ContainerAttrs {
    let mut krate: Option<Keyed<syn::Path>> = None;
    let mut patch_type: Option<Keyed<syn::Ident>> = None;
    let mut no_patch_type: Option<Keyed<()>> = None;
    let mut schema_only: Option<Keyed<()>> = None;
    for attr in attrs {
        if !attr.path().is_ident("patch") {
            continue;
        }
        let parsed = attr.parse_nested_meta(|meta| {
            let key = meta.path.clone();
            if key.is_ident("crate") {
                let Some(lit) = string(cx, &meta, "crate")? else {
                    return Ok(());
                };
                match lit.parse::<syn::Path>() {
                    Ok(path) => set(cx, &mut krate, key, path, Some(lit)),
                    Err(_) => cx.at(
                        &lit,
                        "expected a path to the smp_core crate: #[patch(crate = \"smp\")]",
                    ),
                }
            } else if key.is_ident("patch_type") {
                let Some(lit) = string(cx, &meta, "patch_type")? else {
                    return Ok(());
                };
                match lit.parse::<syn::Ident>() {
                    Ok(ident) => set(cx, &mut patch_type, key, ident, Some(lit)),
                    Err(_) => cx.at(
                        &lit,
                        "expected the name of the patch type: #[patch(patch_type = \"WidgetChange\")]",
                    ),
                }
            } else if key.is_ident("no_patch_type") {
                if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
                    skip_value(&meta)?;
                    cx.at(&key, "`no_patch_type` takes no value: write #[patch(no_patch_type)]");
                }
                set(cx, &mut no_patch_type, key, (), None);
            } else if key.is_ident("schema_only") {
                if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
                    skip_value(&meta)?;
                    cx.at(&key, "`schema_only` takes no value: write #[patch(schema_only)]");
                }
                set(cx, &mut schema_only, key, (), None);
            } else {
                skip_value(&meta)?;
                cx.at(
                    &key,
                    format_args!(
                        "unknown key `{}` in #[patch(...)] on a type, expected `crate = \"...\"`, \
                         `patch_type = \"...\"`, `no_patch_type` or `schema_only` (the other keys belong on struct fields)",
                        key.to_token_stream()
                    ),
                );
            }
            Ok(())
        });
        if let Err(e) = parsed {
            cx.push(e);
        }
    }
    ContainerAttrs {
        krate: krate.map(|k| k.value),
        patch_type: patch_type.map(|k| k.value),
        no_patch_type,
        schema_only,
    }
}

/// Reports `#[patch]` where no key is defined (variants). `#[union]` is parsed by
/// `crate::union`.
pub(crate) fn reject_here(cx: &Errors, attrs: &[Attribute], what: &str) {
    for attr in attrs {
        if attr.path().is_ident("patch") {
            cx.at(
                attr,
                format_args!("#[patch] is not expected on {what}: it belongs on struct fields"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategy_spellings() {
        let s = |t| Strategy::parse(t);
        let merge_retain = Strategy {
            base: Base::Merge,
            retain_keys: true,
        };
        assert_eq!(s("merge|retainKeys"), Some(merge_retain));
        assert_eq!(s("retainKeys, merge"), Some(merge_retain));
        assert_eq!(s("replace"), Some(Strategy::REPLACE));
        assert_eq!(s(""), Some(Strategy::DEFAULT));
        assert_eq!(s("merge,replace"), None);
        assert_eq!(s("retainKeys|retainKeys"), None);
        assert_eq!(s("merge,"), None);
        assert_eq!(s("Merge"), None);
    }
}
