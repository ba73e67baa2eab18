//! `struct Name(T);`: serde writes a newtype as the value it wraps, so the newtype is patched
//! exactly as `T` is: its schema is `T`'s, and every operation is `T`'s on the field.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Container, Data};

/// `PatchSchema`: the wrapped type's schema.
pub(super) fn schema(c: &Container<'_>) -> TokenStream {
    let Data::Newtype(inner) = &c.data else {
        return TokenStream::new();
    };
    let ident = &c.input.ident;
    quote! {
        #[automatically_derived]
        impl __smp_core::PatchSchema for #ident {
            const DEF: &'static __smp_core::TypeDef = <#inner as __smp_core::PatchSchema>::DEF;
        }
    }
}

pub(super) fn expand(c: &Container<'_>) -> TokenStream {
    let Data::Newtype(inner) = &c.data else {
        return TokenStream::new();
    };
    let ident = &c.input.ident;
    let schema = schema(c);
    let field = quote!(<#inner as __smp_core::PatchField>);
    let norm = quote!(<#inner as __smp_core::Normalize>);
    let option = quote!(::core::option::Option);
    let result = quote!(::core::result::Result);
    let map =
        quote!(__smp_core::__private::Map<::std::string::String, __smp_core::__private::Value>);
    let out = quote!(__smp_core::__private::Out<'_>);
    quote! {
        #[automatically_derived]
        impl __smp_core::Patchable for #ident {
            type Patch = <#inner as __smp_core::Patchable>::Patch;
        }

        #schema

        #[automatically_derived]
        impl __smp_core::PatchField for #ident {
            #[inline]
            fn plan(
                __smp_current: #option<&Self>,
                __smp_member: &__smp_core::__private::Member<'_>,
                __smp_parent: __smp_core::Node<'static>,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> #result<__smp_core::__private::Edit<Self>, __smp_core::PatchError> {
                let __smp_edit = #field::plan(
                    __smp_current.map(|__smp_s| &__smp_s.0),
                    __smp_member,
                    __smp_parent,
                    __smp_path,
                )?;
                #result::Ok(__smp_core::__private::newtype_edit(
                    __smp_edit,
                    #ident,
                    |__smp_s: &mut Self| &mut __smp_s.0,
                ))
            }

            #[inline]
            fn same(&self, __smp_other: &Self) -> bool {
                #field::same(&self.0, &__smp_other.0)
            }

            #[inline]
            fn quiet(&self) -> bool {
                #field::quiet(&self.0)
            }

            #[inline]
            fn replace_quiet(&self) -> bool {
                #field::replace_quiet(&self.0)
            }

            #[inline]
            fn merge_quiet(&self, __smp_key: #option<&str>) -> bool {
                #field::merge_quiet(&self.0, __smp_key)
            }

            #[inline]
            fn diff_member(
                __smp_original: #option<&Self>,
                __smp_modified: #option<&Self>,
                __smp_name: &str,
                __smp_parent: __smp_core::Node<'static>,
                __smp_out: &mut #out,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> #result<(), __smp_core::PatchError> {
                #field::diff_member(
                    __smp_original.map(|__smp_s| &__smp_s.0),
                    __smp_modified.map(|__smp_s| &__smp_s.0),
                    __smp_name,
                    __smp_parent,
                    __smp_out,
                    __smp_path,
                )
            }

            #[inline]
            fn key_field(&self, __smp_name: &str) -> #option<__smp_core::__private::KeyRef<'_>> {
                #field::key_field(&self.0, __smp_name)
            }

            #[inline]
            fn key_value(&self) -> #option<__smp_core::__private::KeyRef<'_>> {
                #field::key_value(&self.0)
            }

            #[inline]
            fn diff_item(
                &self,
                __smp_modified: &Self,
                __smp_out: &mut #out,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> #option<#result<(), __smp_core::PatchError>> {
                #field::diff_item(&self.0, &__smp_modified.0, __smp_out, __smp_path)
            }

            #[inline]
            fn plan_item(
                &self,
                __smp_patch: &#map,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> #option<#result<__smp_core::__private::Edit<Self>, __smp_core::PatchError>> {
                #field::plan_item(&self.0, __smp_patch, __smp_path).map(|__smp_r| {
                    __smp_r.map(|__smp_edit| {
                        __smp_core::__private::newtype_edit(
                            __smp_edit,
                            #ident,
                            |__smp_s: &mut Self| &mut __smp_s.0,
                        )
                    })
                })
            }
        }

        #[automatically_derived]
        impl __smp_core::Normalize for #ident {
            #[inline]
            fn normalize_member(&mut self, __smp_old: #option<&Self>, __smp_key: #option<&str>) {
                #norm::normalize_member(&mut self.0, __smp_old.map(|__smp_o| &__smp_o.0), __smp_key)
            }

            #[inline]
            fn validate_member(
                &self,
                __smp_key: #option<&str>,
                __smp_path: &mut ::std::vec::Vec<__smp_core::__private::Segment>,
                __smp_out: &mut ::std::vec::Vec<__smp_core::UnionError>,
            ) {
                #norm::validate_member(&self.0, __smp_key, __smp_path, __smp_out)
            }

            #[inline]
            fn is_null(&self) -> bool {
                #norm::is_null(&self.0)
            }

            #[inline]
            fn key_of(&self, __smp_name: &str) -> #option<__smp_core::__private::Value> {
                #norm::key_of(&self.0, __smp_name)
            }
        }
    }
}
