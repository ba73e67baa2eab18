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
pub(super) fn struct_def(c: &Container<'_>, inlined: bool, plain: TokenStream) -> TokenStream {
    if groups(c).is_empty() {
        return plain;
    }
    let name = &c.name;
    let inlined = if inlined {
        quote!(__SMP_INLINED)
    } else {
        quote!(&[])
    };
    quote!(::smp_core::StructDef::with_unions(#name, __SMP_FIELDS, #inlined, __SMP_UNIONS))
}

/// The union table, its compile-time checks and `Normalize` for a struct.
pub(super) fn expand_struct(c: &Container<'_>) -> TokenStream {
    let Data::Struct(fields) = &c.data else {
        return TokenStream::new();
    };
    let ident = &c.input.ident;
    let groups = groups(c);
    let table = table(&groups);
    let checks = groups.iter().flat_map(discriminator_checks);
    let fields: Vec<&Field<'_>> = fields.iter().filter(|f| f.serde.skip.is_none()).collect();
    let (flat, own): (Vec<&Field<'_>>, Vec<&Field<'_>>) =
        fields.iter().partition(|f| f.serde.flatten.is_some());
    let normalize_unions = groups
        .iter()
        .enumerate()
        .map(|(i, g)| normalize_union(i, g));
    let validate_unions = groups.iter().enumerate().map(|(i, g)| validate_union(i, g));
    let normalize_fields = own.iter().map(|f| normalize_field(f));
    let normalize_flat = flat.iter().map(|f| {
        let (member, ty) = (f.member, f.ty);
        quote! {
            <#ty as ::smp_core::Normalize>::normalize_member(
                &mut self.#member,
                __smp_old.map(|__smp_o| &__smp_o.#member),
                ::core::option::Option::None,
            );
        }
    });
    let validate_fields = own.iter().map(|f| {
        let (name, member, ty, key) = (&f.name, f.member, f.ty, merge_key(f));
        let body = quote! {
            __smp_path.push(::smp_core::__private::Segment::Field(::std::string::String::from(#name)));
            <#ty as ::smp_core::Normalize>::validate_member(&self.#member, #key, __smp_path, __smp_out);
            __smp_path.pop();
        };
        match &f.serde.skip_serializing_if {
            Some(pred) => quote!(if !#pred(&self.#member) { #body }),
            None => body,
        }
    });
    let validate_flat = flat.iter().map(|f| {
        let (member, ty) = (f.member, f.ty);
        quote! {
            <#ty as ::smp_core::Normalize>::validate_member(
                &self.#member,
                ::core::option::Option::None,
                __smp_path,
                __smp_out,
            );
        }
    });
    let key_of = key_of(&own, &flat);
    quote! {
        #table
        #(#checks)*

        #[automatically_derived]
        impl ::smp_core::Normalize for #ident {
            fn normalize_member(
                &mut self,
                __smp_old: ::core::option::Option<&Self>,
                _: ::core::option::Option<&str>,
            ) {
                #(#normalize_unions)*
                #(#normalize_fields)*
                #(#normalize_flat)*
            }

            fn validate_member(
                &self,
                _: ::core::option::Option<&str>,
                __smp_path: &mut ::std::vec::Vec<::smp_core::__private::Segment>,
                __smp_out: &mut ::std::vec::Vec<::smp_core::UnionError>,
            ) {
                #(#validate_unions)*
                #(#validate_fields)*
                #(#validate_flat)*
            }

            #key_of
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
            quote!(::smp_core::UnionMember::new(#name, #value))
        });
        quote!(const #list: &[::smp_core::UnionMember] = &[#(#members),*];)
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
        quote!(::smp_core::UnionDef::new(#discriminator, #list))
    });
    quote! {
        #(#lists)*
        const __SMP_UNIONS: &[::smp_core::UnionDef] = &[#(#unions),*];
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
                    ::smp_core::__private::discriminator_accepts(
                        <#ty as ::smp_core::Discriminator>::VALUES,
                        #value,
                    ),
                    #msg,
                );
            }
        })
        .collect()
}

/// The merge key pairing list items of a field: only lists merged by a key have one.
fn merge_key(f: &Field<'_>) -> TokenStream {
    match &f.patch.merge_key {
        Some(k) if f.patch.effective().merges() => {
            let k = &k.value;
            quote!(::core::option::Option::Some(#k))
        }
        _ => quote!(::core::option::Option::None),
    }
}

/// `Some(&v.field)` when the field is in `v`'s JSON form (`skip_serializing_if`).
fn present(f: &Field<'_>, v: TokenStream) -> TokenStream {
    let member = f.member;
    match &f.serde.skip_serializing_if {
        Some(pred) => quote!((!#pred(&#v.#member)).then_some(&#v.#member)),
        None => quote!(::core::option::Option::Some(&#v.#member)),
    }
}

fn normalize_field(f: &Field<'_>) -> TokenStream {
    let (member, ty, key) = (f.member, f.ty, merge_key(f));
    let old = present(f, quote!(__smp_o));
    let visible = match &f.serde.skip_serializing_if {
        Some(pred) => quote!(!#pred(&self.#member)),
        None => quote!(true),
    };
    quote! {
        if #visible {
            let __smp_o = __smp_old.and_then(|__smp_o| #old);
            <#ty as ::smp_core::Normalize>::normalize_member(&mut self.#member, __smp_o, #key);
        }
    }
}

/// Whether a member is set in `v`: in the JSON form and not `null`.
fn is_set(f: &Field<'_>, v: TokenStream) -> TokenStream {
    let ty = f.ty;
    let present = present(f, v);
    quote!(#present.is_some_and(|__smp_m| !<#ty as ::smp_core::Normalize>::is_null(__smp_m)))
}

/// The discriminator's string in `v`, `None` when absent.
fn discriminator(g: &Group<'_, '_>, v: TokenStream) -> TokenStream {
    match g.discriminator {
        Some(d) => {
            let ty = d.ty;
            let present = present(d, v);
            quote!(#present.and_then(<#ty as ::smp_core::Discriminator>::discriminator))
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
                    <#ty as ::smp_core::Discriminator>::from_discriminator(__smp_v)
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
            let __smp_d = ::smp_core::__private::decide(
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
            ::smp_core::__private::check_union(&__SMP_UNIONS[#i], #d, &__smp_set, __smp_path, __smp_out);
        }
    }
}

/// `key_of`: a field's JSON form by name, own fields first, then each flattened struct.
fn key_of(own: &[&Field<'_>], flat: &[&Field<'_>]) -> TokenStream {
    let arms = own.iter().map(|f| {
        let name = &f.name;
        let present = present(f, quote!(self));
        quote!(#name => #present.and_then(::smp_core::__private::key_of),)
    });
    let mut calls = flat.iter().map(|f| {
        let (ty, member) = (f.ty, f.member);
        quote!(<#ty as ::smp_core::Normalize>::key_of(&self.#member, __smp_name))
    });
    let rest = match calls.next() {
        Some(first) => calls.fold(first, |acc, call| quote!(#acc.or_else(|| #call))),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        fn key_of(&self, __smp_name: &str) -> ::core::option::Option<::smp_core::__private::Value> {
            match __smp_name {
                #(#arms)*
                _ => #rest,
            }
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
        impl ::smp_core::Normalize for #ident {}

        #[automatically_derived]
        impl ::smp_core::Discriminator for #ident {
            const VALUES: ::core::option::Option<&'static [&'static str]> =
                ::core::option::Option::Some(&[#(#names),*]);

            fn discriminator(&self) -> ::core::option::Option<&str> {
                match *self {
                    #(#to_str)*
                }
            }

            fn from_discriminator(__smp_v: &str) -> ::core::option::Option<Self> {
                match __smp_v {
                    #(#from_str)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    }
}
