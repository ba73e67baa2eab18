//! Structs: the `static` schema table and `PatchSchema`, then (unless `schema_only`)
//! `PatchField` (how the struct patches as a member or a list item) and `StrategicMerge` (which
//! patch member goes to which field).
//!
//! The reference for the shape of this output is the hand-written expansion in
//! `tests/tests/typed_manual.rs`.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{LitStr, Type};

use crate::ast::{Container, Data, Field};
use crate::attr::{Base, Strategy};
use crate::serde::DefaultAttr;
use crate::ty::Shape;

/// How generated code names a struct's schema tables: `static`s beside the impls, or associated
/// constants of a generic struct.
pub(super) struct Tables {
    /// An expression of type `&'static [FieldDef]`.
    pub fields: TokenStream,
    /// An expression of type `&'static [TypeRef]` (the flattened structs).
    pub inlined: TokenStream,
}

impl Tables {
    pub(super) fn of(c: &Container<'_>) -> Tables {
        if c.is_generic() {
            Tables {
                fields: quote!(Self::__SMP_FIELDS),
                inlined: quote!(Self::__SMP_INLINED),
            }
        } else {
            Tables {
                fields: quote!(&__SMP_FIELDS),
                inlined: quote!(__SMP_INLINED),
            }
        }
    }
}

pub(super) fn expand(c: &Container<'_>) -> TokenStream {
    let Data::Struct(fields) = &c.data else {
        unreachable!("structs::expand on an enum")
    };
    let fields: Vec<&Field<'_>> = fields.iter().filter(|f| f.serde.skip.is_none()).collect();
    let (flat, own): (Vec<&Field<'_>>, Vec<&Field<'_>>) =
        fields.iter().partition(|f| f.serde.flatten.is_some());

    let ident = &c.input.ident;
    let (impl_generics, ty_generics, where_clause) = c.impl_parts();
    let name = &c.name;
    let count = own.len();
    let field_defs = own.iter().map(|f| field_def(f));
    // A generic struct's field types depend on its parameters: its assertions on them wait
    // for an instantiation, which free `const` items cannot express (left out).
    let assertions = own
        .iter()
        .filter(|f| !c.mentions_param(f.ty))
        .map(|f| assertions(f));
    let tables = Tables::of(c);
    let (fields_ref, inlined_ref) = (&tables.fields, &tables.inlined);
    let refs = flat.iter().map(|f| type_ref(f.ty));
    let inlined_items =
        quote!(const __SMP_INLINED: &'static [__smp_core::TypeRef] = &[#(#refs),*];);
    let struct_def = if flat.is_empty() {
        quote!(__smp_core::StructDef::new(#name, #fields_ref))
    } else {
        quote!(__smp_core::StructDef::with_inlined(#name, #fields_ref, #inlined_ref))
    };
    let table_items = if c.is_generic() {
        // Associated constants: evaluated per instantiation, and `&'static` all the same.
        let inlined = (!flat.is_empty()).then_some(&inlined_items);
        quote! {
            #[automatically_derived]
            impl #impl_generics #ident #ty_generics #where_clause {
                #[doc(hidden)]
                const __SMP_FIELDS: &'static [__smp_core::FieldDef] = &[#(#field_defs),*];
                #inlined
            }
        }
    } else {
        let inlined = (!flat.is_empty()).then_some(&inlined_items);
        quote! {
            // A `static`, so that the visits can hand out `&'static FieldDef`s of it.
            static __SMP_FIELDS: [__smp_core::FieldDef; #count] = [#(#field_defs),*];
            #inlined
        }
    };
    let struct_def = super::union::struct_def(c, &tables, !flat.is_empty(), struct_def);
    let schema = quote! {
        #table_items
        #(#assertions)*

        #[automatically_derived]
        impl #impl_generics __smp_core::PatchSchema for #ident #ty_generics #where_clause {
            const DEF: &'static __smp_core::TypeDef = &__smp_core::TypeDef::Struct(#struct_def);
        }
    };
    if c.schema_only.is_some() {
        return schema;
    }

    let visits = visits(c, &own, &flat);
    let key_field = key_field(&own, &flat);
    let patch_type = super::patch_type::of(c);
    // A flattened struct's patch reaches it as `Any` (see `patch_type::native`).
    let plan_patch_any = (!c.is_generic() && c.no_patch_type.is_none()).then(|| {
        quote! {
            #[inline]
            fn plan_patch_any(
                &self,
                __smp_patch: &dyn ::core::any::Any,
                __smp_path: &__smp_core::__private::Path<'_>,
                __smp_edits: &mut ::std::vec::Vec<__smp_core::__private::Commit<Self>>,
            ) -> ::core::result::Result<bool, __smp_core::PatchError> {
                __smp_core::typed_patch::plan_struct_any(self, __smp_patch, __smp_path, __smp_edits)
            }
        }
    });
    let deny = c.serde.deny_unknown_fields.then(|| {
        quote!(
            const DENY_UNKNOWN: bool = true;
        )
    });

    quote! {
        #schema

        #[automatically_derived]
        impl #impl_generics __smp_core::PatchField for #ident #ty_generics #where_clause {
            #[inline]
            fn plan(
                __smp_current: ::core::option::Option<&Self>,
                __smp_member: &__smp_core::__private::Member<'_>,
                __smp_parent: __smp_core::Node<'static>,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> ::core::result::Result<__smp_core::__private::Edit<Self>, __smp_core::PatchError> {
                __smp_core::__private::plan_struct(__smp_current, __smp_member, __smp_parent, __smp_path)
            }

            #[inline]
            fn plan_item(
                &self,
                __smp_patch: &__smp_core::__private::Map<::std::string::String, __smp_core::__private::Value>,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> ::core::option::Option<
                ::core::result::Result<__smp_core::__private::Edit<Self>, __smp_core::PatchError>,
            > {
                ::core::option::Option::Some(__smp_core::StrategicMerge::plan_object(self, __smp_patch, __smp_path))
            }

            #[inline]
            fn diff_item(
                &self,
                __smp_modified: &Self,
                __smp_out: &mut __smp_core::__private::Out<'_>,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> ::core::option::Option<::core::result::Result<(), __smp_core::PatchError>> {
                ::core::option::Option::Some(__smp_core::StrategicMerge::diff_members(
                    self,
                    __smp_modified,
                    __smp_out,
                    __smp_path,
                ))
            }

            #[inline]
            fn key_field(
                &self,
                __smp_name: &str,
            ) -> ::core::option::Option<__smp_core::__private::KeyRef<'_>> {
                #key_field
            }

            #[inline]
            fn same(&self, __smp_other: &Self) -> bool {
                __smp_core::__private::same_fields(self, __smp_other)
            }

            #[inline]
            fn quiet(&self) -> bool {
                __smp_core::__private::quiet_fields(self)
            }

            #[inline]
            fn diff_member(
                __smp_original: ::core::option::Option<&Self>,
                __smp_modified: ::core::option::Option<&Self>,
                __smp_name: &str,
                __smp_parent: __smp_core::Node<'static>,
                __smp_out: &mut __smp_core::__private::Out<'_>,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> ::core::result::Result<(), __smp_core::PatchError> {
                __smp_core::__private::diff_struct(
                    __smp_original,
                    __smp_modified,
                    __smp_name,
                    __smp_parent,
                    __smp_out,
                    __smp_path,
                )
            }
        }

        #[automatically_derived]
        impl #impl_generics __smp_core::StrategicMerge for #ident #ty_generics #where_clause {
            type Patch = #patch_type;

            #deny

            #[inline]
            fn plan_members(
                &self,
                __smp_members: &mut ::std::vec::Vec<__smp_core::__private::Member<'_>>,
                __smp_path: &__smp_core::__private::Path<'_>,
                __smp_edits: &mut ::std::vec::Vec<__smp_core::__private::Commit<Self>>,
            ) -> ::core::result::Result<(), __smp_core::PatchError> {
                __smp_core::__private::plan_fields(self, __smp_members, __smp_path, __smp_edits)
            }

            #[inline]
            fn diff_members(
                &self,
                __smp_modified: &Self,
                __smp_out: &mut __smp_core::__private::Out<'_>,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> ::core::result::Result<(), __smp_core::PatchError> {
                __smp_core::__private::diff_fields(self, __smp_modified, __smp_out, __smp_path)
            }

            #plan_patch_any
            #visits
        }
    }
}

/// `FieldDef::new("name", TypeRef::Static(type_def::<T>), strategy, merge_key)`.
fn field_def(f: &Field<'_>) -> TokenStream {
    let name = &f.name;
    let ty = match f.patch.view() {
        Some(view) => {
            let ty = f.ty;
            quote_spanned!(ty.span()=>
                __smp_core::TypeRef::Static(__smp_core::__private::type_def::<#view<#ty>>)
            )
        }
        None => type_ref(f.ty),
    };
    let strategy = strategy(f.patch.effective());
    let key = match &f.patch.merge_key {
        Some(k) => {
            let k = &k.value;
            quote!(::core::option::Option::Some(#k))
        }
        None => quote!(::core::option::Option::None),
    };
    match &f.patch.recommended {
        Some(r) => {
            let keys = r.value.iter();
            quote!(__smp_core::FieldDef::with_recommended(
                #name, #ty, #strategy, #key,
                &[#(::std::borrow::Cow::Borrowed(#keys)),*],
            ))
        }
        None => quote!(__smp_core::FieldDef::new(#name, #ty, #strategy, #key)),
    }
}

/// A `TypeRef` to a field type's schema; a type without `PatchField` is reported at the field.
fn type_ref(ty: &Type) -> TokenStream {
    quote_spanned!(ty.span()=>
        __smp_core::TypeRef::Static(__smp_core::__private::type_def::<#ty>)
    )
}

fn strategy(s: Strategy) -> TokenStream {
    match (s.base, s.retain_keys) {
        (Base::Default, false) => quote!(__smp_core::Strategy::DEFAULT),
        (Base::Merge, false) => quote!(__smp_core::Strategy::MERGE),
        (Base::Replace, false) => quote!(__smp_core::Strategy::REPLACE),
        (Base::Default, true) => quote!(__smp_core::Strategy::RETAIN_KEYS),
        (Base::Merge, true) => quote!(__smp_core::Strategy::MERGE_RETAIN_KEYS),
        (Base::Replace, true) => quote!(__smp_core::Strategy {
            base: __smp_core::BaseStrategy::Replace,
            retain_keys: true,
        }),
    }
}

/// The checks only the compiler can make, as `const` assertions on the schemas of the types
/// involved; each is spanned on the attribute value it checks.
fn assertions(f: &Field<'_>) -> TokenStream {
    let mut out = TokenStream::new();
    let member = f.member;
    let elem = f
        .info
        .list_elem()
        .filter(|e| matches!(e.shape, Shape::Named));
    // A viewed field's types are described by the view (`K8sOpenApi<Container>` is patched as
    // smp-types' `Container`).
    let view = f.patch.view();
    let def = |ty: &Type| match &view {
        Some(view) => quote!(<#view<#ty> as __smp_core::PatchSchema>::DEF),
        None => quote!(<#ty as __smp_core::PatchSchema>::DEF),
    };
    if let (Some(r), Some(elem)) = (&f.patch.recommended, elem) {
        let def = def(elem.inner);
        for key in &r.value {
            let msg = format!(
                "recommended key `{key}` of field `{member}` is not a field of `{}`",
                type_name(elem.inner)
            );
            out.extend(assert(
                r.value_span(),
                quote! {
                    __smp_core::__private::declares_field(#def, #key)
                },
                &msg,
            ));
        }
    }
    let Some(s) = &f.patch.strategy else {
        return out;
    };
    let span = s.value_span();
    if let (Some(k), Some(elem)) = (&f.patch.merge_key, elem) {
        let def = def(elem.inner);
        let key = &k.value;
        let msg = format!(
            "merge_key `{key}` of field `{member}` is not a field of `{}`",
            type_name(elem.inner)
        );
        out.extend(assert(
            k.value_span(),
            quote! {
                __smp_core::__private::declares_field(#def, #key)
            },
            &msg,
        ));
    }
    if s.value.merges() && f.patch.merge_key.is_none() {
        if let Some(elem) = elem {
            // Upstream fails at run time ("cannot merge lists without merge key").
            let def = def(elem.inner);
            let msg = format!(
                "field `{member}` merges a list of structs (`{}`) without a key: add #[patch(merge_key = \"...\")]",
                type_name(elem.inner)
            );
            out.extend(assert(
                span,
                quote! {
                    !::core::matches!(#def, __smp_core::TypeDef::Struct(_))
                },
                &msg,
            ));
        }
    }
    if matches!(f.info.shape, Shape::Named) {
        let def = def(f.info.inner);
        let ty = type_name(f.info.inner);
        if s.value.merges() {
            let msg = format!(
                "strategy \"merge\" applies to lists and structs, but field `{member}` is a `{ty}`, which is neither"
            );
            out.extend(assert(span, quote! {
                ::core::matches!(#def, __smp_core::TypeDef::Struct(_) | __smp_core::TypeDef::List(_))
            }, &msg));
        }
        if s.value.retain_keys {
            let msg = format!(
                "strategy \"retainKeys\" applies to structs and lists of structs, but field `{member}` is a `{ty}`, which is neither"
            );
            out.extend(assert(span, quote! {
                ::core::matches!(#def, __smp_core::TypeDef::Struct(_) | __smp_core::TypeDef::Map(_))
            }, &msg));
        }
    } else if let (true, Some(elem)) = (s.value.retain_keys, elem) {
        let def = def(elem.inner);
        let msg = format!(
            "strategy \"retainKeys\" applies to structs and lists of structs, but the items of field `{member}` (`{}`) are not structs",
            type_name(elem.inner)
        );
        out.extend(assert(
            span,
            quote! {
                ::core::matches!(#def, __smp_core::TypeDef::Struct(_))
            },
            &msg,
        ));
    }
    out
}

fn assert(span: Span, cond: TokenStream, msg: &str) -> TokenStream {
    let msg = LitStr::new(msg, span);
    quote_spanned!(span=> const _: () = ::core::assert!(#cond, #msg);)
}

/// A type as a user wrote it, without the spaces `to_string` puts around `::` and `<`.
fn type_name(ty: &Type) -> String {
    let s = quote!(#ty).to_string();
    s.replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" < ", "<")
        .replace(" <", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
}

/// What removing the member means, as deserializing a JSON object without it would decide.
fn on_remove(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let Some(default) = removed_default(c, f) else {
        return quote!(__smp_core::__private::OnRemove::Required);
    };
    match f.patch.view() {
        // The view's default wraps the field's.
        Some(view) => quote! {
            __smp_core::__private::OnRemove::Default(|| #view((#default)()))
        },
        None => quote!(__smp_core::__private::OnRemove::Default(#default)),
    }
}

/// What serde gives a field missing from JSON, as something callable; `None`: it is an error.
fn removed_default(c: &Container<'_>, f: &Field<'_>) -> Option<TokenStream> {
    let member = f.member;
    match (&f.serde.default, &c.serde.default) {
        (DefaultAttr::Path(path), _) => Some(quote!(#path)),
        (DefaultAttr::Trait, _) => Some(quote!(::core::default::Default::default)),
        // serde fills the field from the container's default value.
        (DefaultAttr::None, DefaultAttr::Trait) => Some(quote! {
            || <Self as ::core::default::Default>::default().#member
        }),
        (DefaultAttr::None, DefaultAttr::Path(path)) => Some(quote!(|| #path().#member)),
        // serde reads a missing `Option` as `None` (its default).
        (DefaultAttr::None, DefaultAttr::None) if f.info.optional => {
            Some(quote!(::core::default::Default::default))
        }
        (DefaultAttr::None, DefaultAttr::None) => None,
    }
}

/// The three field walks: one visitor call per own field, then one per flattened struct.
fn visits(c: &Container<'_>, own: &[&Field<'_>], flat: &[&Field<'_>]) -> TokenStream {
    let fields = Tables::of(c).fields;
    let visit = own.iter().enumerate().map(|(i, f)| {
        let member = f.member;
        let value = viewed(f, present(f, quote!(self)), quote!(from_ref));
        let on_remove = on_remove(c, f);
        let get = match f.patch.view() {
            Some(view) => quote!(|__smp_s: &mut Self| #view::from_mut(&mut __smp_s.#member)),
            None => quote!(|__smp_s: &mut Self| &mut __smp_s.#member),
        };
        quote! {
            __smp_v.field(&(#fields)[#i], #value, #get, #on_remove);
        }
    });
    // In JSON-name order: the typed diff writes members as it meets them, and an object whose
    // members come in key order is written once, not sorted when it closes.
    let mut by_name: Vec<(usize, &&Field<'_>)> = own.iter().enumerate().collect();
    by_name.sort_by(|(_, a), (_, b)| a.name.cmp(&b.name));
    let visit2 = by_name.into_iter().map(|(i, f)| {
        let a = viewed(f, present(f, quote!(self)), quote!(from_ref));
        let b = viewed(f, present(f, quote!(__smp_o)), quote!(from_ref));
        quote!(__smp_v.field(&(#fields)[#i], #a, #b);)
    });
    let visit_mut = own.iter().enumerate().map(|(i, f)| {
        let member = f.member;
        let value = match &f.serde.skip_serializing_if {
            Some(pred) => quote! {
                if #pred(&self.#member) {
                    ::core::option::Option::None
                } else {
                    ::core::option::Option::Some(&mut self.#member)
                }
            },
            None => quote!(::core::option::Option::Some(&mut self.#member)),
        };
        let value = viewed(f, value, quote!(from_mut));
        let old = viewed(f, present(f, quote!(__smp_o)), quote!(from_ref));
        quote! {
            __smp_v.field(
                &(#fields)[#i],
                #value,
                match __smp_old {
                    ::core::option::Option::Some(__smp_o) => #old,
                    ::core::option::Option::None => ::core::option::Option::None,
                },
            );
        }
    });
    let flat_visit = flat.iter().map(|f| {
        let member = f.member;
        quote!(__smp_v.flat(&self.#member, |__smp_s: &mut Self| &mut __smp_s.#member);)
    });
    let flat_visit2 = flat.iter().map(|f| {
        let member = f.member;
        quote!(__smp_v.flat(&self.#member, &__smp_o.#member);)
    });
    let flat_visit_mut = flat.iter().map(|f| {
        let member = f.member;
        quote! {
            __smp_v.flat(
                &mut self.#member,
                match __smp_old {
                    ::core::option::Option::Some(__smp_o) => ::core::option::Option::Some(&__smp_o.#member),
                    ::core::option::Option::None => ::core::option::Option::None,
                },
            );
        }
    });
    quote! {
        #[inline]
        fn visit<'__smp_a, __SmpV: __smp_core::__private::Visit<'__smp_a, Self>>(
            &'__smp_a self,
            __smp_v: &mut __SmpV,
        ) {
            #(#visit)*
            #(#flat_visit)*
        }

        #[inline]
        fn visit2<__SmpV: __smp_core::__private::Visit2>(&self, __smp_o: &Self, __smp_v: &mut __SmpV) {
            #(#visit2)*
            #(#flat_visit2)*
        }

        #[inline]
        fn visit_mut<__SmpV: __smp_core::__private::VisitMut>(
            &mut self,
            __smp_old: ::core::option::Option<&Self>,
            __smp_v: &mut __SmpV,
        ) {
            #(#visit_mut)*
            #(#flat_visit_mut)*
        }
    }
}

/// The body of `PatchField::key_field`: a `match` on the JSON name (list items are keyed once
/// each, so this is hot), then the flattened structs in order. The same answer as
/// `smp_core::__private::key_field`, which visits every field (JSON names are distinct: see
/// `check`).
fn key_field(own: &[&Field<'_>], flat: &[&Field<'_>]) -> TokenStream {
    let arms = own.iter().map(|f| {
        let name = &f.name;
        let value = viewed(f, present(f, quote!(self)), quote!(from_ref));
        quote! {
            #name => match #value {
                ::core::option::Option::Some(__smp_f) => __smp_core::PatchField::key_value(__smp_f),
                ::core::option::Option::None => ::core::option::Option::None,
            },
        }
    });
    let flats = flat.iter().map(|f| {
        let member = f.member;
        quote! {
            if let ::core::option::Option::Some(__smp_k) =
                __smp_core::PatchField::key_field(&self.#member, __smp_name)
            {
                return ::core::option::Option::Some(__smp_k);
            }
        }
    });
    quote! {
        match __smp_name {
            #(#arms)*
            _ => {
                #(#flats)*
                ::core::option::Option::None
            }
        }
    }
}

/// `value` (an `Option<&T>`) seen through the field's view type, if it has one: an `opaque`
/// field is `Opaque<T>`, a `k8s_openapi` one `K8sOpenApi<T>`.
fn viewed(f: &Field<'_>, value: TokenStream, conv: TokenStream) -> TokenStream {
    match f.patch.view() {
        Some(view) => quote!((#value).map(#view::#conv)),
        None => value,
    }
}

/// `Some(&v.field)` when the field is in `v`'s JSON form (`skip_serializing_if`).
pub(super) fn present(f: &Field<'_>, v: TokenStream) -> TokenStream {
    let member = f.member;
    match &f.serde.skip_serializing_if {
        Some(pred) => quote! {
            if #pred(&#v.#member) {
                ::core::option::Option::None
            } else {
                ::core::option::Option::Some(&#v.#member)
            }
        },
        None => quote!(::core::option::Option::Some(&#v.#member)),
    }
}
