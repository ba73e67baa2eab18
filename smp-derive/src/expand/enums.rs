//! Enums of unit variants: strings on the wire. They patch as primitives (a patch value
//! replaces them) and serve as list merge keys by their serialized name.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Container, Data};

/// `PatchSchema`: an enum of unit variants is a string to the engine, a primitive.
pub(super) fn schema(c: &Container<'_>) -> TokenStream {
    let ident = &c.input.ident;
    quote! {
        #[automatically_derived]
        impl __smp_core::PatchSchema for #ident {
            const DEF: &'static __smp_core::TypeDef = __smp_core::TypeDef::PRIMITIVE;
        }
    }
}

pub(super) fn expand(c: &Container<'_>) -> TokenStream {
    let Data::Enum(variants) = &c.data else {
        unreachable!("enums::expand on a struct")
    };
    let ident = &c.input.ident;
    let schema = schema(c);
    let arms = variants.iter().map(|v| {
        let variant = v.ident;
        let key = if v.skip {
            // Serializing it fails: no key form, the engine path reports the error.
            quote!(::core::option::Option::None)
        } else {
            let name = &v.name;
            quote!(::core::option::Option::Some(__smp_core::__private::KeyRef::Str(#name)))
        };
        quote!(Self::#variant => #key,)
    });
    let names = variants.iter().map(|v| {
        let variant = v.ident;
        let name = &v.name;
        quote!(#ident::#variant => #name,)
    });
    // An enum without variants has no value to convert.
    let from_body = if variants.is_empty() {
        quote!(match __smp_v {})
    } else {
        quote!(__smp_core::typed_patch::EnumValue::from_name(match __smp_v { #(#names)* }))
    };
    quote! {
        #schema

        #[automatically_derived]
        impl __smp_core::PatchField for #ident {
            #[inline]
            fn plan(
                __smp_current: ::core::option::Option<&Self>,
                __smp_member: &__smp_core::__private::Member<'_>,
                __smp_parent: __smp_core::Node<'static>,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> ::core::result::Result<__smp_core::__private::Edit<Self>, __smp_core::PatchError> {
                __smp_core::__private::plan_scalar(__smp_current, __smp_member, __smp_parent, __smp_path)
            }

            #[inline]
            fn same(&self, __smp_other: &Self) -> bool {
                match (
                    __smp_core::__private::AsKey::as_key(self),
                    __smp_core::__private::AsKey::as_key(__smp_other),
                ) {
                    (::core::option::Option::Some(__smp_a), ::core::option::Option::Some(__smp_b)) => {
                        __smp_a == __smp_b
                    }
                    _ => __smp_core::__private::same_json(self, __smp_other),
                }
            }

            #[inline]
            fn quiet(&self) -> bool {
                true
            }

            #[inline]
            fn key_value(&self) -> ::core::option::Option<__smp_core::__private::KeyRef<'_>> {
                __smp_core::__private::AsKey::as_key(self)
            }
        }

        #[automatically_derived]
        impl __smp_core::Patchable for #ident {
            type Patch = __smp_core::typed_patch::EnumValue<#ident>;
        }

        #[automatically_derived]
        impl ::core::convert::From<#ident> for __smp_core::typed_patch::EnumValue<#ident> {
            #[inline]
            fn from(__smp_v: #ident) -> Self {
                #from_body
            }
        }

        #[automatically_derived]
        impl __smp_core::__private::AsKey for #ident {
            #[inline]
            fn as_key(&self) -> ::core::option::Option<__smp_core::__private::KeyRef<'_>> {
                match *self {
                    #(#arms)*
                }
            }
        }
    }
}
