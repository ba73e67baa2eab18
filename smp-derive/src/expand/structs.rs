//! Structs: the `static` schema table, `PatchField` (how the struct patches as a member or a
//! list item) and `StrategicMerge` (which patch member goes to which field).
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
use crate::ty::{self, Shape};

pub(super) fn expand(c: &Container<'_>) -> TokenStream {
    let Data::Struct(fields) = &c.data else {
        unreachable!("structs::expand on an enum")
    };
    let fields: Vec<&Field<'_>> = fields.iter().filter(|f| f.serde.skip.is_none()).collect();
    let (flat, own): (Vec<&Field<'_>>, Vec<&Field<'_>>) =
        fields.iter().partition(|f| f.serde.flatten.is_some());

    let ident = &c.input.ident;
    let name = &c.name;
    let field_defs = own.iter().map(|f| field_def(f));
    let assertions = own.iter().map(|f| assertions(f));
    let (inlined, struct_def) = if flat.is_empty() {
        (
            TokenStream::new(),
            quote!(::smp_core::StructDef::new(#name, __SMP_FIELDS)),
        )
    } else {
        let refs = flat.iter().map(|f| type_ref(f.ty));
        (
            quote!(const __SMP_INLINED: &[::smp_core::TypeRef] = &[#(#refs),*];),
            quote!(::smp_core::StructDef::with_inlined(#name, __SMP_FIELDS, __SMP_INLINED)),
        )
    };
    let struct_def = super::union::struct_def(c, !flat.is_empty(), struct_def);
    let key_field = key_field(&own, &flat);
    let plan_members = plan_members(c, &own, &flat);
    let same = same(&own, &flat);
    let diff_members = diff_members(&own, &flat);
    let deny = c.serde.deny_unknown_fields.then(|| {
        quote!(
            const DENY_UNKNOWN: bool = true;
        )
    });

    quote! {
        const __SMP_FIELDS: &[::smp_core::FieldDef] = &[#(#field_defs),*];
        #inlined
        #(#assertions)*

        #[automatically_derived]
        impl ::smp_core::PatchField for #ident {
            const DEF: &'static ::smp_core::TypeDef = &::smp_core::TypeDef::Struct(#struct_def);

            fn plan(
                __smp_current: ::core::option::Option<&Self>,
                __smp_member: &::smp_core::__private::Member<'_>,
                __smp_parent: ::smp_core::Node<'static>,
                __smp_path: &::smp_core::__private::Path<'_>,
            ) -> ::core::result::Result<::smp_core::__private::Edit<Self>, ::smp_core::PatchError> {
                match (__smp_current, __smp_member.value, __smp_member.directed) {
                    (
                        ::core::option::Option::Some(__smp_cur),
                        ::core::option::Option::Some(::smp_core::__private::Value::Object(__smp_map)),
                        false,
                    ) => ::smp_core::StrategicMerge::plan_object(
                        __smp_cur,
                        __smp_map,
                        &__smp_path.field(__smp_member.name),
                    ),
                    _ => ::smp_core::__private::fallback(
                        __smp_current,
                        __smp_member,
                        __smp_parent,
                        __smp_path,
                    ),
                }
            }

            fn plan_item(
                &self,
                __smp_patch: &::smp_core::__private::Map<::std::string::String, ::smp_core::__private::Value>,
                __smp_path: &::smp_core::__private::Path<'_>,
            ) -> ::core::option::Option<
                ::core::result::Result<::smp_core::__private::Edit<Self>, ::smp_core::PatchError>,
            > {
                ::core::option::Option::Some(::smp_core::StrategicMerge::plan_object(
                    self,
                    __smp_patch,
                    __smp_path,
                ))
            }

            fn diff_item(
                &self,
                __smp_modified: &Self,
                __smp_out: &mut ::smp_core::__private::Map<::std::string::String, ::smp_core::__private::Value>,
                __smp_path: &::smp_core::__private::Path<'_>,
            ) -> ::core::option::Option<::core::result::Result<(), ::smp_core::PatchError>> {
                ::core::option::Option::Some(::smp_core::StrategicMerge::diff_members(
                    self,
                    __smp_modified,
                    __smp_out,
                    __smp_path,
                ))
            }

            #key_field

            #same

            fn diff_member(
                __smp_original: ::core::option::Option<&Self>,
                __smp_modified: ::core::option::Option<&Self>,
                __smp_name: &str,
                __smp_parent: ::smp_core::Node<'static>,
                __smp_out: &mut ::smp_core::__private::Map<::std::string::String, ::smp_core::__private::Value>,
                __smp_path: &::smp_core::__private::Path<'_>,
            ) -> ::core::result::Result<(), ::smp_core::PatchError> {
                ::smp_core::__private::diff_struct(
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
        impl ::smp_core::StrategicMerge for #ident {
            #deny
            #plan_members
            #diff_members
        }
    }
}

/// `FieldDef::new("name", TypeRef::Static(type_def::<T>), strategy, merge_key)`.
fn field_def(f: &Field<'_>) -> TokenStream {
    let name = &f.name;
    let ty = type_ref(f.ty);
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
            quote!(::smp_core::FieldDef::with_recommended(
                #name, #ty, #strategy, #key,
                &[#(::std::borrow::Cow::Borrowed(#keys)),*],
            ))
        }
        None => quote!(::smp_core::FieldDef::new(#name, #ty, #strategy, #key)),
    }
}

/// A `TypeRef` to a field type's schema; a type without `PatchField` is reported at the field.
fn type_ref(ty: &Type) -> TokenStream {
    quote_spanned!(ty.span()=>
        ::smp_core::TypeRef::Static(::smp_core::__private::type_def::<#ty>)
    )
}

fn strategy(s: Strategy) -> TokenStream {
    match (s.base, s.retain_keys) {
        (Base::Default, false) => quote!(::smp_core::Strategy::DEFAULT),
        (Base::Merge, false) => quote!(::smp_core::Strategy::MERGE),
        (Base::Replace, false) => quote!(::smp_core::Strategy::REPLACE),
        (Base::Default, true) => quote!(::smp_core::Strategy::RETAIN_KEYS),
        (Base::Merge, true) => quote!(::smp_core::Strategy::MERGE_RETAIN_KEYS),
        (Base::Replace, true) => quote!(::smp_core::Strategy {
            base: ::smp_core::BaseStrategy::Replace,
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
    let def = |ty: &Type| quote!(<#ty as ::smp_core::PatchField>::DEF);
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
                    ::smp_core::__private::declares_field(#def, #key)
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
                ::smp_core::__private::declares_field(#def, #key)
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
                    !::core::matches!(#def, ::smp_core::TypeDef::Struct(_))
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
                ::core::matches!(#def, ::smp_core::TypeDef::Struct(_) | ::smp_core::TypeDef::List(_))
            }, &msg));
        }
        if s.value.retain_keys {
            let msg = format!(
                "strategy \"retainKeys\" applies to structs and lists of structs, but field `{member}` is a `{ty}`, which is neither"
            );
            out.extend(assert(span, quote! {
                ::core::matches!(#def, ::smp_core::TypeDef::Struct(_) | ::smp_core::TypeDef::Map(_))
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
                ::core::matches!(#def, ::smp_core::TypeDef::Struct(_))
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

/// `key_field`: the field's value as a list key. Only fields whose type certainly has a key
/// form (`String`, `bool`, integers, `Option` of one) answer; the others answer `None`, which
/// sends a list keyed by them through the engine (same result, slower).
fn key_field(own: &[&Field<'_>], flat: &[&Field<'_>]) -> TokenStream {
    let mut arms = Vec::new();
    let mut unkeyed = Vec::new();
    for f in own {
        let (name, member) = (&f.name, f.member);
        if !ty::has_key_form(f.ty) {
            unkeyed.push(name);
            continue;
        }
        if let Some(pred) = &f.serde.skip_serializing_if {
            arms.push(quote!(#name if #pred(&self.#member) => ::core::option::Option::None,));
        }
        arms.push(quote!(#name => ::smp_core::__private::AsKey::as_key(&self.#member),));
    }
    // Own fields shadow flattened ones: list them so they do not fall through.
    if !flat.is_empty() && !unkeyed.is_empty() {
        arms.push(quote!(#(#unkeyed)|* => ::core::option::Option::None,));
    }
    // Then each flattened struct in turn.
    let mut calls = flat.iter().map(|f| {
        let (ty, member) = (f.ty, f.member);
        quote!(<#ty as ::smp_core::PatchField>::key_field(&self.#member, __smp_name))
    });
    let rest = match calls.next() {
        Some(first) => calls.fold(first, |acc, call| quote!(#acc.or_else(|| #call))),
        None => quote!(::core::option::Option::None),
    };
    if arms.is_empty() && flat.is_empty() {
        return TokenStream::new();
    }
    let body = if arms.is_empty() {
        rest
    } else {
        quote!(match __smp_name { #(#arms)* _ => #rest, })
    };
    quote! {
        fn key_field(
            &self,
            __smp_name: &str,
        ) -> ::core::option::Option<::smp_core::__private::KeyRef<'_>> {
            #body
        }
    }
}

/// `plan_members`: own fields by JSON name, then what is left to each flattened struct.
fn plan_members(c: &Container<'_>, own: &[&Field<'_>], flat: &[&Field<'_>]) -> TokenStream {
    let own_part = (!own.is_empty()).then(|| {
        let arms = own.iter().map(|f| member_arm(c, f));
        quote! {
            let __smp_node = <Self as ::smp_core::StrategicMerge>::schema();
            // Claimed members are dropped in place; the rest keep their order.
            let mut __smp_kept = 0;
            for __smp_i in 0..__smp_members.len() {
                let __smp_m = __smp_members[__smp_i];
                let __smp_claimed = match __smp_m.name {
                    #(#arms)*
                    _ => false,
                };
                if !__smp_claimed {
                    __smp_members[__smp_kept] = __smp_m;
                    __smp_kept += 1;
                }
            }
            __smp_members.truncate(__smp_kept);
        }
    });
    let flat_part = flat.iter().map(|f| {
        let (ty, member) = (f.ty, f.member);
        quote! {
            {
                let mut __smp_inner = ::std::vec::Vec::new();
                <#ty as ::smp_core::StrategicMerge>::plan_members(
                    &self.#member,
                    __smp_members,
                    __smp_path,
                    &mut __smp_inner,
                )?;
                for __smp_c in __smp_inner {
                    __smp_edits.push(::std::boxed::Box::new(move |__smp_s: &mut Self| {
                        __smp_c(&mut __smp_s.#member)
                    }));
                }
            }
        }
    });
    quote! {
        fn plan_members(
            &self,
            __smp_members: &mut ::std::vec::Vec<::smp_core::__private::Member<'_>>,
            __smp_path: &::smp_core::__private::Path<'_>,
            __smp_edits: &mut ::std::vec::Vec<::smp_core::__private::Commit<Self>>,
        ) -> ::core::result::Result<(), ::smp_core::PatchError> {
            #own_part
            #(#flat_part)*
            ::core::result::Result::Ok(())
        }
    }
}

fn member_arm(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let (name, member, ty) = (&f.name, f.member, f.ty);
    let (present, current) = match &f.serde.skip_serializing_if {
        Some(pred) => (
            quote!(let __smp_present = !#pred(&self.#member);),
            quote!(__smp_present.then_some(&self.#member)),
        ),
        None => (
            TokenStream::new(),
            quote!(::core::option::Option::Some(&self.#member)),
        ),
    };
    let on_remove = on_remove(c, f);
    quote! {
        #name => {
            #present
            let __smp_edit = <#ty as ::smp_core::PatchField>::plan(
                #current,
                &__smp_m,
                __smp_node,
                __smp_path,
            )?;
            ::smp_core::__private::commit_field(
                __smp_edit,
                |__smp_s: &mut Self| &mut __smp_s.#member,
                #on_remove,
                __smp_m.name,
                __smp_path,
                __smp_edits,
            )?;
            true
        }
    }
}

/// What removing the member means, as deserializing a JSON object without it would decide.
fn on_remove(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let member = f.member;
    let default = quote!(::smp_core::__private::OnRemove::Default);
    match (&f.serde.default, &c.serde.default) {
        (DefaultAttr::Path(path), _) => quote!(#default(#path)),
        (DefaultAttr::Trait, _) => quote!(#default(::core::default::Default::default)),
        // serde fills the field from the container's default value.
        (DefaultAttr::None, DefaultAttr::Trait) => quote! {
            #default(|| <Self as ::core::default::Default>::default().#member)
        },
        (DefaultAttr::None, DefaultAttr::Path(path)) => quote!(#default(|| #path().#member)),
        // serde reads a missing `Option` as `None` (its default).
        (DefaultAttr::None, DefaultAttr::None) if f.info.optional => {
            quote!(#default(::core::default::Default::default))
        }
        (DefaultAttr::None, DefaultAttr::None) => {
            quote!(::smp_core::__private::OnRemove::Required)
        }
    }
}

/// `same`: JSON equality field by field, each field's presence (`skip_serializing_if`) first.
fn same(own: &[&Field<'_>], flat: &[&Field<'_>]) -> TokenStream {
    let own_checks = own.iter().map(|f| {
        let (member, ty) = (f.member, f.ty);
        let same =
            quote!(<#ty as ::smp_core::PatchField>::same(&self.#member, &__smp_other.#member));
        match &f.serde.skip_serializing_if {
            Some(pred) => quote! {
                {
                    let __smp_a = !#pred(&self.#member);
                    __smp_a == !#pred(&__smp_other.#member) && (!__smp_a || #same)
                }
            },
            None => same,
        }
    });
    let flat_checks = flat.iter().map(|f| {
        let (member, ty) = (f.member, f.ty);
        quote!(<#ty as ::smp_core::PatchField>::same(&self.#member, &__smp_other.#member))
    });
    let quiet_checks = own.iter().map(|f| {
        let (member, ty) = (f.member, f.ty);
        let s = f.patch.effective();
        let check = if matches!(s.base, Base::Replace) {
            quote!(<#ty as ::smp_core::PatchField>::replace_quiet(&self.#member))
        } else if matches!(s.base, Base::Merge) {
            let key = match &f.patch.merge_key {
                Some(k) => {
                    let k = &k.value;
                    quote!(::core::option::Option::Some(#k))
                }
                None => quote!(::core::option::Option::None),
            };
            quote!(<#ty as ::smp_core::PatchField>::merge_quiet(&self.#member, #key))
        } else {
            quote!(<#ty as ::smp_core::PatchField>::quiet(&self.#member))
        };
        match &f.serde.skip_serializing_if {
            Some(pred) => quote!((#pred(&self.#member) || #check)),
            None => check,
        }
    });
    let flat_quiet = flat.iter().map(|f| {
        let (member, ty) = (f.member, f.ty);
        quote!(<#ty as ::smp_core::PatchField>::quiet(&self.#member))
    });
    quote! {
        fn same(&self, __smp_other: &Self) -> bool {
            true #(&& #own_checks)* #(&& #flat_checks)*
        }

        fn quiet(&self) -> bool {
            true #(&& #quiet_checks)* #(&& #flat_quiet)*
        }
    }
}

/// `diff_members`: each own field by presence and equality, then each flattened struct into
/// the same patch object.
fn diff_members(own: &[&Field<'_>], flat: &[&Field<'_>]) -> TokenStream {
    let node = (!own.is_empty())
        .then(|| quote!(let __smp_node = <Self as ::smp_core::StrategicMerge>::schema();));
    let own_part = own.iter().map(|f| {
        let (name, member, ty) = (&f.name, f.member, f.ty);
        let side = |v: TokenStream| match &f.serde.skip_serializing_if {
            Some(pred) => quote!((!#pred(&#v.#member)).then_some(&#v.#member)),
            None => quote!(::core::option::Option::Some(&#v.#member)),
        };
        let (a, b) = (side(quote!(self)), side(quote!(__smp_modified)));
        let s = f.patch.effective();
        let force = matches!(s.base, Base::Replace) || s.retain_keys;
        let merge = if matches!(s.base, Base::Merge) {
            let key = match &f.patch.merge_key {
                Some(k) => {
                    let k = &k.value;
                    quote!(::core::option::Option::Some(#k))
                }
                None => quote!(::core::option::Option::None),
            };
            quote!(::core::option::Option::Some(#key))
        } else {
            quote!(::core::option::Option::None)
        };
        quote! {
            ::smp_core::__private::diff_field::<#ty>(
                #a,
                #b,
                #force,
                #merge,
                #name,
                __smp_node,
                __smp_out,
                __smp_path,
            )?;
        }
    });
    let flat_part = flat.iter().map(|f| {
        let (member, ty) = (f.member, f.ty);
        quote! {
            <#ty as ::smp_core::StrategicMerge>::diff_members(
                &self.#member,
                &__smp_modified.#member,
                __smp_out,
                __smp_path,
            )?;
        }
    });
    quote! {
        fn diff_members(
            &self,
            __smp_modified: &Self,
            __smp_out: &mut ::smp_core::__private::Map<::std::string::String, ::smp_core::__private::Value>,
            __smp_path: &::smp_core::__private::Path<'_>,
        ) -> ::core::result::Result<(), ::smp_core::PatchError> {
            #node
            #(#own_part)*
            #(#flat_part)*
            ::core::result::Result::Ok(())
        }
    }
}
