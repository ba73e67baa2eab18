//! `Normalize` for every derived type, the `static` unions of a struct, and `Discriminator`
//! for string enums.
//!
//! The generated code only gathers facts (which members are set, the discriminator's value)
//! and hands them to `smp_core::__private::decide`/`check_union`, the functions the `Value`
//! engine uses too, so both paths apply the same rules by construction.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::ast::{Container, Data, Field};
use crate::serde::unraw;
use crate::union::{Group, groups};

/// The constructor of a struct's `StructDef`: `plain` when it declares no union.
pub(super) fn struct_def(
    c: &Container<'_>,
    tables: &super::structs::Tables,
    inlined: bool,
    plain: TokenStream,
) -> TokenStream {
    if groups(c).is_empty() {
        return plain;
    }
    let name = &c.name;
    let fields = &tables.fields;
    let inlined = if inlined {
        tables.inlined.clone()
    } else {
        quote!(&[])
    };
    quote!(__smp_core::StructDef::with_unions(#name, #fields, #inlined, __SMP_UNIONS))
}

/// The part of a struct's unions that is schema: the `__SMP_UNIONS` table its `StructDef`
/// names, and the compile-time checks of discriminator values.
pub(super) fn struct_tables(c: &Container<'_>) -> TokenStream {
    if !matches!(c.data, Data::Struct(_)) {
        return TokenStream::new();
    }
    tables_of(&groups(c))
}

fn tables_of(groups: &[Group<'_, '_>]) -> TokenStream {
    let table = table(groups);
    let checks = groups.iter().flat_map(discriminator_checks);
    quote! {
        #table
        #(#checks)*
    }
}

/// The union table, its compile-time checks and `Normalize` for a struct.
pub(super) fn expand_struct(c: &Container<'_>) -> TokenStream {
    if !matches!(c.data, Data::Struct(_)) {
        return TokenStream::new();
    }
    let ident = &c.input.ident;
    let (impl_generics, ty_generics, where_clause) = c.impl_parts();
    let groups = groups(c);
    let tables = tables_of(&groups);
    let normalize_unions = groups
        .iter()
        .enumerate()
        .map(|(i, g)| normalize_union(i, g));
    let validate_unions = groups.iter().enumerate().map(|(i, g)| validate_union(i, g));
    quote! {
        #tables

        #[automatically_derived]
        impl #impl_generics __smp_core::Normalize for #ident #ty_generics #where_clause {
            #[inline]
            fn normalize_member(
                &mut self,
                __smp_old: ::core::option::Option<&Self>,
                _: ::core::option::Option<&str>,
            ) {
                #(#normalize_unions)*
                __smp_core::__private::normalize_fields(self, __smp_old);
            }

            #[inline]
            fn validate_member(
                &self,
                _: ::core::option::Option<&str>,
                __smp_path: &mut ::std::vec::Vec<__smp_core::__private::Segment>,
                __smp_out: &mut ::std::vec::Vec<__smp_core::UnionError>,
            ) {
                #(#validate_unions)*
                __smp_core::__private::validate_fields(self, __smp_path, __smp_out);
            }

            #[inline]
            fn key_of(&self, __smp_name: &str) -> ::core::option::Option<__smp_core::__private::Value> {
                __smp_core::__private::key_of_field(self, __smp_name)
            }
        }
    }
}

/// `__SMP_UNIONS`: one `UnionDef` per union the struct declares, members in field order.
fn table(groups: &[Group<'_, '_>]) -> TokenStream {
    if groups.is_empty() {
        return TokenStream::new();
    }
    // One `const` per member list: a `&[...]` nested in a call is not promoted to a static.
    let lists = groups.iter().enumerate().map(|(i, g)| {
        let list = format_ident!("__SMP_UNION_MEMBERS_{}", i);
        let members = g.members.iter().map(|(f, value)| {
            let name = &f.name;
            quote!(__smp_core::UnionMember::new(#name, #value))
        });
        quote!(const #list: &[__smp_core::UnionMember] = &[#(#members),*];)
    });
    let unions = groups.iter().enumerate().map(|(i, g)| {
        let list = format_ident!("__SMP_UNION_MEMBERS_{}", i);
        let discriminator = match g.discriminator {
            Some(f) => {
                let name = &f.name;
                quote!(::core::option::Option::Some(#name))
            }
            None => quote!(::core::option::Option::None),
        };
        quote!(__smp_core::UnionDef::new(#discriminator, #list))
    });
    quote! {
        #(#lists)*
        const __SMP_UNIONS: &[__smp_core::UnionDef] = &[#(#unions),*];
    }
}

/// A string-enum discriminator must be able to hold every member's value: checked by the
/// compiler against the enum's `Discriminator::VALUES`, spanned on the value's origin.
fn discriminator_checks(g: &Group<'_, '_>) -> Vec<TokenStream> {
    let Some(d) = g.discriminator else {
        return Vec::new();
    };
    let ty = d.ty;
    g.members
        .iter()
        .map(|(f, value)| {
            let span = match &f.union.discriminated_by {
                Some(lit) => lit.span(),
                None => f.member.span(),
            };
            let msg = format!(
                "discriminator `{}` cannot hold {value:?}, the value of union member `{}`: add the variant or set #[union(discriminated_by = \"...\")]",
                unraw(d.member),
                unraw(f.member)
            );
            quote_spanned! {span=>
                const _: () = ::core::assert!(
                    __smp_core::__private::discriminator_accepts(
                        <#ty as __smp_core::Discriminator>::VALUES,
                        #value,
                    ),
                    #msg,
                );
            }
        })
        .collect()
}

/// `Some(&v.field)` when the field is in `v`'s JSON form (`skip_serializing_if`).
fn present(f: &Field<'_>, v: TokenStream) -> TokenStream {
    let member = f.member;
    match &f.serde.skip_serializing_if {
        Some(pred) => quote!((!#pred(&#v.#member)).then_some(&#v.#member)),
        None => quote!(::core::option::Option::Some(&#v.#member)),
    }
}

/// Whether a member is set in `v`: in the JSON form and not `null`.
fn is_set(f: &Field<'_>, v: TokenStream) -> TokenStream {
    let ty = f.ty;
    let present = present(f, v);
    quote!(#present.is_some_and(|__smp_m| !<#ty as __smp_core::Normalize>::is_null(__smp_m)))
}

/// The discriminator's string in `v`, `None` when absent.
fn discriminator(g: &Group<'_, '_>, v: TokenStream) -> TokenStream {
    match g.discriminator {
        Some(d) => {
            let ty = d.ty;
            let present = present(d, v);
            quote!(#present.and_then(<#ty as __smp_core::Discriminator>::discriminator))
        }
        None => quote!(::core::option::Option::None),
    }
}

fn normalize_union(i: usize, g: &Group<'_, '_>) -> TokenStream {
    let new_set = g.members.iter().map(|(f, _)| is_set(f, quote!(self)));
    let old_set = g.members.iter().map(|(f, _)| is_set(f, quote!(__smp_o)));
    let n = g.members.len();
    let new_d = discriminator(g, quote!(self));
    let old_d = discriminator(g, quote!(__smp_o));
    let clears = g.members.iter().enumerate().map(|(j, (f, _))| {
        let member = f.member;
        quote!(if __smp_d.clears(#j) { self.#member = ::core::option::Option::None; })
    });
    let set_discriminator = g.discriminator.map(|d| {
        let (member, ty) = (d.member, d.ty);
        quote! {
            if let ::core::option::Option::Some(__smp_m) = __smp_d.discriminator {
                let __smp_v = &__smp_u.members[__smp_m].discriminated_by;
                if let ::core::option::Option::Some(__smp_v) =
                    <#ty as __smp_core::Discriminator>::from_discriminator(__smp_v)
                {
                    self.#member = __smp_v;
                }
            }
        }
    });
    quote! {
        {
            let __smp_u = &__SMP_UNIONS[#i];
            let __smp_new: [bool; #n] = [#(#new_set),*];
            let __smp_old_set: [bool; #n] = match __smp_old {
                ::core::option::Option::Some(__smp_o) => [#(#old_set),*],
                ::core::option::Option::None => [false; #n],
            };
            let __smp_d = __smp_core::__private::decide(
                __smp_u,
                #new_d,
                __smp_old.and_then(|__smp_o| #old_d),
                &__smp_new,
                &__smp_old_set,
            );
            #(#clears)*
            #set_discriminator
        }
    }
}

fn validate_union(i: usize, g: &Group<'_, '_>) -> TokenStream {
    let set = g.members.iter().map(|(f, _)| is_set(f, quote!(self)));
    let n = g.members.len();
    let d = discriminator(g, quote!(self));
    quote! {
        {
            let __smp_set: [bool; #n] = [#(#set),*];
            __smp_core::__private::check_union(&__SMP_UNIONS[#i], #d, &__smp_set, __smp_path, __smp_out);
        }
    }
}

/// `Normalize` (nothing to do) and `Discriminator` for a string enum.
pub(super) fn expand_enum(c: &Container<'_>) -> TokenStream {
    let Data::Enum(variants) = &c.data else {
        return TokenStream::new();
    };
    let ident = &c.input.ident;
    let shown: Vec<_> = variants.iter().filter(|v| !v.skip).collect();
    let names = shown.iter().map(|v| &v.name);
    let to_str = variants.iter().map(|v| {
        let variant = v.ident;
        if v.skip {
            quote!(Self::#variant => ::core::option::Option::None,)
        } else {
            let name = &v.name;
            quote!(Self::#variant => ::core::option::Option::Some(#name),)
        }
    });
    let from_str = shown.iter().map(|v| {
        let (variant, name) = (v.ident, &v.name);
        quote!(#name => ::core::option::Option::Some(Self::#variant),)
    });
    quote! {
        #[automatically_derived]
        impl __smp_core::Normalize for #ident {}

        #[automatically_derived]
        impl __smp_core::Discriminator for #ident {
            const VALUES: ::core::option::Option<&'static [&'static str]> =
                ::core::option::Option::Some(&[#(#names),*]);

            #[inline]
            fn discriminator(&self) -> ::core::option::Option<&str> {
                match *self {
                    #(#to_str)*
                }
            }

            #[inline]
            fn from_discriminator(__smp_v: &str) -> ::core::option::Option<Self> {
                match __smp_v {
                    #(#from_str)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    }
}
