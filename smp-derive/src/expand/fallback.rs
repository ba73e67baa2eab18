//! What to emit when the item has errors: the trait impls with placeholder bodies, so that code
//! using the type reports no follow-on "trait not implemented" errors (thiserror does the same).

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Container, Kind};

pub(super) fn expand(c: &Container<'_>) -> TokenStream {
    let input = c.input;
    // A generic item would need bounds the derive does not know; its uses will fail anyway.
    if !input.generics.params.is_empty() || input.generics.where_clause.is_some() {
        return TokenStream::new();
    }
    let ident = &input.ident;
    let schema = quote! {
        #[automatically_derived]
        impl __smp_core::PatchSchema for #ident {
            const DEF: &'static __smp_core::TypeDef = __smp_core::TypeDef::OPAQUE;
        }
    };
    // A described type promised only its schema (and may have no serde to satisfy the rest).
    if c.schema_only.is_some() {
        return schema;
    }
    let patch_field = quote! {
        #schema

        #[automatically_derived]
        impl __smp_core::PatchField for #ident {}

        #[automatically_derived]
        impl __smp_core::Normalize for #ident {}

        #[automatically_derived]
        impl __smp_core::Patchable for #ident {
            type Patch = __smp_core::UntypedPatch<Self>;
        }
    };
    let more = match c.kind() {
        Kind::Struct => quote! {
            #[automatically_derived]
            impl __smp_core::StrategicMerge for #ident {
                type Patch = __smp_core::UntypedPatch<Self>;

                #[inline]
                fn plan_members(
                    &self,
                    _: &mut ::std::vec::Vec<__smp_core::__private::Member<'_>>,
                    _: &__smp_core::__private::Path<'_>,
                    _: &mut ::std::vec::Vec<__smp_core::__private::Commit<Self>>,
                ) -> ::core::result::Result<(), __smp_core::PatchError> {
                    ::core::unreachable!("#[derive(StrategicMerge)] failed for this type")
                }
            }
        },
        Kind::Newtype => TokenStream::new(),
        Kind::Enum => quote! {
            #[automatically_derived]
            impl __smp_core::__private::AsKey for #ident {
                #[inline]
                fn as_key(&self) -> ::core::option::Option<__smp_core::__private::KeyRef<'_>> {
                    ::core::option::Option::None
                }
            }
        },
    };
    quote! {
        #patch_field
        #more
    }
}
