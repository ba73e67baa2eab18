//! The derive's model of an item: syn's tree with every attribute parsed and every JSON name
//! resolved, each node keeping the syntax it came from for spans.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data as SynData, DeriveInput, Fields, Ident, Type, parse_quote};

use crate::attr;
use crate::case::RenameRule;
use crate::ctxt::Errors;
use crate::serde::{self, Directed};
use crate::ty::TypeInfo;
use crate::union_attr;

/// A struct with named fields or an enum (whose variants must be units).
pub(crate) struct Container<'a> {
    pub input: &'a DeriveInput,
    /// The schema's name for the type: serde's (serialize) name.
    pub name: String,
    pub serde: serde::Container,
    pub data: Data<'a>,
    /// `#[union]` on the struct.
    pub union: Option<union_attr::ContainerAttr>,
    /// `#[patch(crate = "...")]`: the path of smp_core, when not `::smp_core`.
    pub krate: Option<syn::Path>,
    /// `#[patch(patch_type = "...")]`: the name of the generated patch type.
    pub patch_type: Option<Ident>,
    /// `#[patch(no_patch_type)]`: no generated patch type (the key, for errors).
    pub no_patch_type: Option<syn::Path>,
    /// `#[patch(schema_only)]`: only `PatchSchema`, the type's schema (the key, for errors).
    pub schema_only: Option<syn::Path>,
}

pub(crate) enum Data<'a> {
    Struct(Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
    /// `struct Name(T);`: the wrapped type.
    Newtype(&'a Type),
}

pub(crate) struct Field<'a> {
    pub member: &'a Ident,
    /// The JSON name.
    pub name: String,
    pub ty: &'a Type,
    pub info: TypeInfo<'a>,
    pub patch: attr::PatchField,
    pub serde: serde::Field,
    pub union: union_attr::FieldAttr,
}

pub(crate) struct Variant<'a> {
    pub ident: &'a Ident,
    /// The JSON string the variant serializes as.
    pub name: String,
    /// Skipped when serializing: it has no key form.
    pub skip: bool,
}

/// What an item is, when it is something the derive can describe at all.
pub(crate) enum Kind {
    Struct,
    Enum,
    Newtype,
}

impl Container<'_> {
    /// Whether the item has type parameters (its schema tables are then associated constants,
    /// evaluated per instantiation, instead of `static`s).
    pub(crate) fn is_generic(&self) -> bool {
        self.input.generics.type_params().next().is_some()
    }

    /// `impl<...>`, `Name<...>` and the `where` clause of every generated impl: each type
    /// parameter is bound by what the generated code asks of a field type (`PatchField`, which
    /// implies `Serialize + DeserializeOwned + 'static`, and `Normalize`).
    pub(crate) fn impl_parts(&self) -> (TokenStream, TokenStream, TokenStream) {
        let mut generics = self.input.generics.clone();
        let clause = generics.make_where_clause();
        for bound in self.param_bounds(&quote!(__smp_core)) {
            clause.predicates.push(parse_quote!(#bound));
        }
        let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
        (
            quote!(#impl_generics),
            quote!(#ty_generics),
            quote!(#where_clause),
        )
    }

    /// The bound of each type parameter (`T: PatchField + Normalize + Patchable`, or
    /// `StrategicMerge + ...` when it is walked as a flattened struct), naming the runtime
    /// `root`.
    pub(crate) fn param_bounds(&self, root: &TokenStream) -> Vec<TokenStream> {
        let params: Vec<Ident> = self
            .input
            .generics
            .type_params()
            .map(|p| p.ident.clone())
            .collect();
        // A parameter that is (part of) a flattened field's type is walked as a struct.
        let flattened: Vec<&Type> = match &self.data {
            Data::Struct(fields) => fields
                .iter()
                .filter(|f| f.serde.flatten.is_some() && f.serde.skip.is_none())
                .map(|f| f.ty)
                .collect(),
            _ => Vec::new(),
        };
        params
            .into_iter()
            .map(|p| {
                let name = p.to_string();
                if flattened
                    .iter()
                    .any(|ty| mentions(ty, std::slice::from_ref(&name)))
                {
                    quote!(#p: #root::StrategicMerge + #root::Normalize + #root::Patchable)
                } else {
                    quote!(#p: #root::PatchField + #root::Normalize + #root::Patchable)
                }
            })
            .collect()
    }

    /// Whether `ty` names one of the item's type parameters (its `const` assertions cannot be
    /// checked outside the impls, where the parameter is unknown).
    pub(crate) fn mentions_param(&self, ty: &Type) -> bool {
        let params: Vec<String> = self
            .input
            .generics
            .type_params()
            .map(|p| p.ident.to_string())
            .collect();
        mentions(ty, &params)
    }
}

/// Whether the tokens of `ty` name one of `params`.
fn mentions(ty: &Type, params: &[String]) -> bool {
    fn walk(tokens: TokenStream, params: &[String]) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => params.iter().any(|p| i == p),
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), params),
            _ => false,
        })
    }
    !params.is_empty() && walk(quote!(#ty), params)
}

impl<'a> Container<'a> {
    /// The model, or `None` for items with no struct or enum to describe (unions). Shape
    /// errors are recorded in `cx`; attribute errors are collected all the same.
    pub(crate) fn from_ast(cx: &Errors, input: &'a DeriveInput) -> Option<Container<'a>> {
        let attr::ContainerAttrs {
            krate,
            patch_type,
            no_patch_type,
            schema_only,
        } = attr::container(cx, &input.attrs);
        let no_patch_type = no_patch_type.map(|k| k.key);
        let schema_only = schema_only.map(|k| k.key);
        let union =
            union_attr::container(cx, &input.attrs, matches!(input.data, SynData::Struct(_)));
        let is_newtype = matches!(
            &input.data,
            SynData::Struct(s) if matches!(&s.fields, Fields::Unnamed(f) if f.unnamed.len() == 1)
        );
        let serde = serde::container(cx, &input.attrs, is_newtype);
        let name = serde
            .rename
            .ser
            .clone()
            .unwrap_or_else(|| serde::unraw(&input.ident));
        let data = match &input.data {
            SynData::Struct(s) => {
                match &s.fields {
                    Fields::Named(_) => {}
                    Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                        return Some(Container {
                            input,
                            name,
                            data: newtype(cx, &f.unnamed[0], &union),
                            serde,
                            union,
                            krate,
                            patch_type,
                            no_patch_type,
                            schema_only,
                        });
                    }
                    Fields::Unnamed(f) => cx.at(f, NOT_NAMED),
                    Fields::Unit => cx.at(&input.ident, NOT_NAMED),
                }
                let fields = s.fields.iter().filter_map(|f| {
                    let member = f.ident.as_ref()?;
                    Some(field(cx, &serde.rename_all, f, member))
                });
                Data::Struct(fields.collect())
            }
            SynData::Enum(e) => {
                let variants = e.variants.iter().map(|v| {
                    if !matches!(v.fields, Fields::Unit) {
                        cx.at(
                            &v.fields,
                            "#[derive(StrategicMerge)] supports enums of unit variants only (serialized as strings)",
                        );
                    }
                    variant(cx, &serde.rename_all, v)
                });
                Data::Enum(variants.collect())
            }
            SynData::Union(u) => {
                cx.at(
                    u.union_token,
                    "#[derive(StrategicMerge)] does not support unions: expected a struct with named fields or an enum of unit variants",
                );
                return None;
            }
        };
        Some(Container {
            input,
            name,
            serde,
            data,
            union,
            krate,
            patch_type,
            no_patch_type,
            schema_only,
        })
    }

    pub(crate) fn kind(&self) -> Kind {
        match self.data {
            Data::Struct(_) => Kind::Struct,
            Data::Enum(_) => Kind::Enum,
            Data::Newtype(_) => Kind::Newtype,
        }
    }
}

const NOT_NAMED: &str = "#[derive(StrategicMerge)] needs named fields (a patch is a JSON object whose members are the fields), or exactly one unnamed field (a newtype, patched as the value it wraps)";

/// A newtype's one field: serde writes the newtype as the value it wraps, so the field may
/// carry no attribute that could change that or describe a member.
fn newtype<'a>(
    cx: &Errors,
    field: &'a syn::Field,
    union: &Option<union_attr::ContainerAttr>,
) -> Data<'a> {
    if let Some(u) = union {
        cx.at(
            &u.path,
            "#[union] belongs on a struct with named fields, not on a newtype",
        );
    }
    for attr in &field.attrs {
        if attr.path().is_ident("serde")
            || attr.path().is_ident("patch")
            || attr.path().is_ident("union")
        {
            cx.at(
                attr,
                "a newtype's field takes no #[serde], #[patch] or #[union] attribute: the newtype is patched as the value it wraps",
            );
        }
    }
    Data::Newtype(&field.ty)
}

fn field<'a>(
    cx: &Errors,
    rename_all: &Directed<RenameRule>,
    original: &'a syn::Field,
    member: &'a Ident,
) -> Field<'a> {
    let serde = serde::field(cx, &original.attrs);
    let name = json_name(
        cx,
        &serde.rename,
        rename_all,
        &serde::unraw(member),
        RenameRule::apply_to_field,
    );
    Field {
        member,
        name,
        ty: &original.ty,
        info: TypeInfo::of(&original.ty),
        patch: attr::field(cx, &original.attrs),
        serde,
        union: union_attr::field(cx, &original.attrs),
    }
}

fn variant<'a>(
    cx: &Errors,
    rename_all: &Directed<RenameRule>,
    original: &'a syn::Variant,
) -> Variant<'a> {
    attr::reject_here(cx, &original.attrs, "a variant");
    union_attr::reject_on_variant(cx, &original.attrs);
    let serde = serde::variant(cx, &original.attrs);
    let name = json_name(
        cx,
        &serde.rename,
        rename_all,
        &serde::unraw(&original.ident),
        RenameRule::apply_to_variant,
    );
    Variant {
        ident: &original.ident,
        name,
        skip: serde.skip,
    }
}

/// The name serde writes and reads. The two must agree: a patch names one JSON member, and the
/// round trip it is defined by writes one name and reads it back.
fn json_name(
    cx: &Errors,
    rename: &Directed<String>,
    rename_all: &Directed<RenameRule>,
    rust: &str,
    rule: fn(RenameRule, &str) -> String,
) -> String {
    let by_rule = |r: Option<RenameRule>| r.map_or_else(|| rust.to_owned(), |r| rule(r, rust));
    let ser = rename
        .ser
        .clone()
        .unwrap_or_else(|| by_rule(rename_all.ser));
    let de = rename.de.clone().unwrap_or_else(|| by_rule(rename_all.de));
    if ser != de {
        let key = rename.key.as_ref().or(rename_all.key.as_ref());
        let msg = format!(
            "different serialize and deserialize names ({ser:?} and {de:?}) are not supported by #[derive(StrategicMerge)]: a patch member names one JSON field"
        );
        match key {
            Some(key) => cx.at(key, msg),
            None => cx.span(proc_macro2::Span::call_site(), msg),
        }
    }
    ser
}
