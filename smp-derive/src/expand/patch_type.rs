//! The patch type of a struct: `TPatch`, one field per field of `T`, each typed by what a
//! strategic merge patch may say of it (see `smp_core::typed_patch`), with builders named
//! after the fields.
//!
//! The struct itself is emitted outside the `const _` block (it is a name users use); its
//! impls inside, as every other generated impl.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Type};

use crate::ast::{Container, Data, Field};
use crate::attr::Base;
use crate::ctxt::Errors;
use crate::serde::{DefaultAttr, unraw};
use crate::ty::{Shape, strip_options};
use crate::union::groups;

/// The patch type: `UntypedPatch<T>` under `#[patch(no_patch_type)]`, else the generated one
/// with the type's parameters.
pub(super) fn of(c: &Container<'_>) -> TokenStream {
    if c.no_patch_type.is_some() {
        return quote!(__smp_core::UntypedPatch<Self>);
    }
    let name = name(c);
    let (_, ty_generics, _) = c.impl_parts();
    quote!(#name #ty_generics)
}

/// The name of the patch type: `#[patch(patch_type = "...")]`, or `T` + `Patch`.
pub(crate) fn name(c: &Container<'_>) -> Ident {
    c.patch_type
        .clone()
        .unwrap_or_else(|| format_ident!("{}Patch", c.input.ident))
}

/// How one field of `T` is held in the patch.
enum Kind {
    /// `Option<Change<P>>`, set from a value; `with`: also built in place (a struct, a map or
    /// a type the derive cannot see into).
    Value { with: bool },
    /// `Option<Change<KeyedList<P>>>`.
    Keyed {
        key: String,
        recommended: Vec<String>,
    },
    /// `Option<Change<SetList<P>>>`.
    Set,
    /// `Option<Change<Retain<P>>>`.
    Retain,
    /// A flattened struct's patch, its members in the same object.
    Flat,
}

struct Plan<'f, 'a> {
    field: &'f Field<'a>,
    kind: Kind,
    /// `P`: the field's (or, for merged lists, the item's) patch type.
    patch: TokenStream,
    /// Whether `null` may delete the field (an `Option`, or a serde default).
    deletable: bool,
}

/// `root`: how the runtime is named where the tokens go (`__smp_core` inside the generated
/// `const _` block, the crate's path outside it).
fn plan<'f, 'a>(c: &Container<'a>, f: &'f Field<'a>, root: &TokenStream) -> Plan<'f, 'a> {
    let view = if f.patch.opaque.is_some() {
        Some(quote!(#root::Opaque))
    } else if f.patch.k8s_openapi.is_some() {
        Some(quote!(::smp_types::k8s_openapi::K8sOpenApi))
    } else {
        None
    };
    // Spanned on the field's type, so that a type without a patch is reported there.
    let patchable = |ty: &Type| match &view {
        Some(view) => quote_spanned!(ty.span()=> <#view<#ty> as #root::Patchable>::Patch),
        None => quote_spanned!(ty.span()=> <#ty as #root::Patchable>::Patch),
    };
    let strategy = f.patch.effective();
    let deletable = f.info.optional
        || !matches!(f.serde.default, DefaultAttr::None)
        || !matches!(c.serde.default, DefaultAttr::None);
    let outer = strip_options(f.ty);
    let elem = match f.info.shape {
        Shape::List(elem) => Some(elem),
        _ => None,
    };
    if f.serde.flatten.is_some() {
        // The flattened struct's own patch type, an object patch (its members join this one).
        return Plan {
            field: f,
            kind: Kind::Flat,
            patch: quote_spanned!(outer.span()=> <#outer as #root::StrategicMerge>::Patch),
            deletable: false,
        };
    }
    let (kind, patch) = match (elem, strategy.base, &f.patch.merge_key) {
        (Some(elem), Base::Merge, Some(key)) => {
            let item = patchable(elem);
            let item = if strategy.retain_keys {
                quote!(#root::typed_patch::Retain<#item>)
            } else {
                item
            };
            let recommended = f
                .patch
                .recommended
                .as_ref()
                .map(|r| r.value.clone())
                .unwrap_or_default();
            (
                Kind::Keyed {
                    key: key.value.clone(),
                    recommended,
                },
                item,
            )
        }
        (Some(elem), Base::Merge, None) => (Kind::Set, patchable(elem)),
        (None, _, _) if strategy.retain_keys => (Kind::Retain, patchable(outer)),
        _ => {
            let with = matches!(f.info.shape, Shape::Named | Shape::Map) && view.is_none();
            (Kind::Value { with }, patchable(outer))
        }
    };
    Plan {
        field: f,
        kind,
        patch,
        deletable,
    }
}

/// The type of the patch struct's field (the runtime named `root`).
fn field_ty(p: &Plan<'_, '_>, root: &TokenStream) -> TokenStream {
    let patch = &p.patch;
    let change = quote!(#root::Change);
    match &p.kind {
        Kind::Value { .. } => quote!(::core::option::Option<#change<#patch>>),
        Kind::Keyed { .. } => {
            quote!(::core::option::Option<#change<#root::typed_patch::KeyedList<#patch>>>)
        }
        Kind::Set => {
            quote!(::core::option::Option<#change<#root::typed_patch::SetList<#patch>>>)
        }
        Kind::Retain => {
            quote!(::core::option::Option<#change<#root::typed_patch::Retain<#patch>>>)
        }
        Kind::Flat => patch.clone(),
    }
}

/// The base of a field's method names: its Rust name without `r#` or a trailing `_`
/// (`type_` gives `type_with`, `delete_type`).
fn base(member: &Ident) -> String {
    unraw(member).trim_end_matches('_').to_owned()
}

/// The names of the methods generated for a field (for the collision check).
fn method_names(p: &Plan<'_, '_>) -> Vec<String> {
    let member = unraw(p.field.member);
    let base = base(p.field.member);
    let mut names = vec![member];
    match p.kind {
        Kind::Value { with: true } | Kind::Flat => names.push(format!("{base}_with")),
        Kind::Retain => {
            names.push(format!("{base}_with"));
            names.push(format!("{base}_retaining"));
        }
        _ => {}
    }
    if p.deletable && !matches!(p.kind, Kind::Flat) {
        names.push(format!("delete_{base}"));
    }
    names
}

/// Reports the names the patch type would define twice: a field named like another field's
/// builder (`spec` and `spec_with`), or like the patch type's own members (`new`,
/// `directive`).
pub(crate) fn check(cx: &Errors, c: &Container<'_>) {
    if let Some(key) = &c.schema_only {
        // `no_patch_type` beside it says what `schema_only` implies: no contradiction.
        if c.patch_type.is_some() {
            cx.at(
                key,
                "`schema_only` derives no patch type: `patch_type = \"...\"` has nothing to name",
            );
        }
        return;
    }
    if let Some(key) = &c.no_patch_type {
        if !matches!(c.data, Data::Struct(_)) {
            cx.at(
                key,
                "`no_patch_type` is for structs with named fields: an enum's patch is its value, a newtype's its field's",
            );
        }
        if c.patch_type.is_some() {
            cx.at(
                key,
                "`no_patch_type` and `patch_type = \"...\"` contradict each other: keep one",
            );
        }
        return;
    }
    let Data::Struct(fields) = &c.data else {
        return;
    };
    let mut seen: Vec<(String, &Field<'_>)> = Vec::new();
    for f in fields.iter().filter(|f| f.serde.skip.is_none()) {
        let p = plan(c, f, &quote!(__smp_core));
        if unraw(f.member) == "directive" {
            cx.at(
                f.member,
                "a field named `directive` collides with the generated patch type's `directive` field (what the patch says of the object itself): rename the Rust field and keep its JSON name with #[serde(rename = \"directive\")]",
            );
        }
        for name in method_names(&p) {
            if name == "new" {
                cx.at(
                    f.member,
                    "a field named `new` collides with the generated patch type's constructor `new()`: rename the Rust field and keep its JSON name with #[serde(rename = \"new\")]",
                );
            }
            match seen.iter().find(|(n, _)| *n == name) {
                Some((_, other)) => cx.at(
                    f.member,
                    format_args!(
                        "the patch type's method `{name}` would be defined twice, for field `{}` and for field `{}`: rename one of the Rust fields (#[serde(rename = \"...\")] keeps the JSON name)",
                        unraw(other.member),
                        unraw(f.member)
                    ),
                ),
                None => seen.push((name, f)),
            }
        }
    }
}

/// The struct definition (outside the `const _` block) and its impls (inside).
pub(super) fn expand(c: &Container<'_>, krate: &TokenStream) -> (TokenStream, TokenStream) {
    let Data::Struct(fields) = &c.data else {
        return (TokenStream::new(), TokenStream::new());
    };
    let ident = &c.input.ident;
    if c.no_patch_type.is_some() {
        let (impl_generics, ty_generics, where_clause) = c.impl_parts();
        let impls = quote! {
            #[automatically_derived]
            impl #impl_generics __smp_core::Patchable for #ident #ty_generics #where_clause {
                type Patch = __smp_core::UntypedPatch<Self>;
            }
        };
        return (TokenStream::new(), impls);
    }
    let vis = &c.input.vis;
    let name = name(c);
    let inside = quote!(__smp_core);
    let plans: Vec<Plan<'_, '_>> = fields
        .iter()
        .filter(|f| f.serde.skip.is_none())
        .map(|f| plan(c, f, &inside))
        .collect();

    let generics = &c.input.generics;
    let params: Vec<&Ident> = generics.type_params().map(|p| &p.ident).collect();
    let (impl_generics, ty_generics, where_clause) = c.impl_parts();
    // The struct's own bounds: those of the type's impls, which its field types need.
    let struct_bounds = c.param_bounds(krate);
    let struct_where = if struct_bounds.is_empty() {
        quote!()
    } else {
        quote!(where #(#struct_bounds),*)
    };
    let struct_params = if params.is_empty() {
        quote!()
    } else {
        quote!(<#(#params),*>)
    };

    let doc = format!(
        "The strategic merge patch of [`{ident}`]: each field says what the patch does with the \
         field of the same name (`None`: nothing). Build it with the methods named after the \
         fields; it serializes as the patch's JSON."
    );
    let defs = fields.iter().filter(|f| f.serde.skip.is_none()).map(|f| {
        let p = plan(c, f, krate);
        let member = f.member;
        let ty = field_ty(&p, krate);
        let doc = format!("The patch of `{}`.", f.name);
        quote! {
            #[doc = #doc]
            pub #member: #ty,
        }
    });
    let definition = quote! {
        #[doc = #doc]
        #vis struct #name #struct_params #struct_where {
            #(#defs)*
            /// What the patch says of the object itself: merge (the default), replace or delete.
            pub directive: #krate::typed_patch::ObjectDirective,
        }
    };

    let members: Vec<&Ident> = plans.iter().map(|p| p.field.member).collect();
    let patch_ty = quote!(#name #ty_generics);
    let deny = c.serde.deny_unknown_fields;
    let writes = plans.iter().map(write);
    let reads = plans.iter().map(read);
    let builders = plans.iter().map(|p| builders(c, p, &plans));
    let label = name.to_string();
    let (plan_member, members_table) = native(c, &plans);

    let impls = quote! {
        #[automatically_derived]
        impl #impl_generics ::core::default::Default for #patch_ty #where_clause {
            #[inline]
            fn default() -> Self {
                Self {
                    #(#members: ::core::default::Default::default(),)*
                    directive: __smp_core::typed_patch::ObjectDirective::Merge,
                }
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::clone::Clone for #patch_ty #where_clause {
            #[inline]
            fn clone(&self) -> Self {
                Self {
                    #(#members: ::core::clone::Clone::clone(&self.#members),)*
                    directive: self.directive,
                }
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::cmp::PartialEq for #patch_ty #where_clause {
            #[inline]
            fn eq(&self, __smp_other: &Self) -> bool {
                true #(&& self.#members == __smp_other.#members)* && self.directive == __smp_other.directive
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::fmt::Debug for #patch_ty #where_clause {
            #[inline]
            fn fmt(&self, __smp_f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                __smp_core::__private::debug_patch(#label, self, __smp_f)
            }
        }

        #[automatically_derived]
        impl #impl_generics __smp_core::Patchable for #ident #ty_generics #where_clause {
            type Patch = #patch_ty;

            #plan_member
        }

        #[automatically_derived]
        impl #impl_generics __smp_core::ObjectPatch for #patch_ty #where_clause {
            type Object = #ident #ty_generics;
            const DENY_UNKNOWN: bool = #deny;

            #[inline]
            fn directive(&self) -> __smp_core::typed_patch::ObjectDirective {
                self.directive
            }

            #[inline]
            fn set_directive(&mut self, __smp_d: __smp_core::typed_patch::ObjectDirective) {
                self.directive = __smp_d;
            }

            #[inline]

            fn write_members(
                &self,
                __smp_out: &mut __smp_core::typed_patch::ObjectWriter<'_>,
            ) -> ::core::result::Result<(), __smp_core::PatchError> {
                #(#writes)*
                ::core::result::Result::Ok(())
            }

            #[inline]

            fn read_members(
                &mut self,
                __smp_in: &mut __smp_core::typed_patch::ObjectReader<'_>,
            ) -> ::core::result::Result<(), __smp_core::PatchError> {
                #(#reads)*
                ::core::result::Result::Ok(())
            }

            #members_table
        }

        #[automatically_derived]
        impl #impl_generics __smp_core::ValuePatch for #patch_ty #where_clause {
            #[inline]
            fn write_value(
                &self,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> ::core::result::Result<__smp_core::__private::Value, __smp_core::PatchError> {
                __smp_core::__private::write_object(self, __smp_path)
            }

            #[inline]

            fn read_value(
                __smp_value: __smp_core::__private::Value,
                __smp_path: &__smp_core::__private::Path<'_>,
            ) -> ::core::result::Result<Self, __smp_core::PatchError> {
                __smp_core::__private::read_object(__smp_value, __smp_path)
            }
        }

        #[automatically_derived]
        impl #impl_generics __smp_core::__private::serde::Serialize for #patch_ty #where_clause {
            #[inline]
            fn serialize<__S: __smp_core::__private::serde::Serializer>(
                &self,
                __smp_serializer: __S,
            ) -> ::core::result::Result<__S::Ok, __S::Error> {
                __smp_core::__private::serialize_patch(self, __smp_serializer)
            }
        }

        #[automatically_derived]
        impl<'__smp_de, #(#params,)*> __smp_core::__private::serde::Deserialize<'__smp_de> for #patch_ty #where_clause {
            #[inline]
            fn deserialize<__D: __smp_core::__private::serde::Deserializer<'__smp_de>>(
                __smp_deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                __smp_core::__private::deserialize_patch(__smp_deserializer)
            }
        }

        #[automatically_derived]
        impl #impl_generics #patch_ty #where_clause {
            /// An empty patch: it changes nothing.
            #[inline]
            pub fn new() -> Self {
                ::core::default::Default::default()
            }

            #(#builders)*
        }
    };
    (definition, impls)
}

/// What lets a typed patch be applied without its JSON (see `smp_core::typed_patch::plan`):
/// the type's planning of its own patch and of lists of it merged by key, and the patch's
/// tables of its members. Recovering a member by `Any` needs `'static` types, so a struct
/// with type parameters goes without (its patches go through their JSON).
fn native(c: &Container<'_>, plans: &[Plan<'_, '_>]) -> (TokenStream, TokenStream) {
    if c.is_generic() {
        return (TokenStream::new(), TokenStream::new());
    }
    let plan_member = quote! {
        #[inline]
        fn plan_member(
            __smp_current: ::core::option::Option<&Self>,
            __smp_member: &dyn __smp_core::typed_patch::PatchMember,
            __smp_def: &'static __smp_core::FieldDef,
            __smp_parent: __smp_core::Node<'static>,
            __smp_path: &__smp_core::__private::Path<'_>,
        ) -> ::core::result::Result<__smp_core::__private::Edit<Self>, __smp_core::PatchError> {
            __smp_core::typed_patch::plan_struct_member(
                __smp_current,
                __smp_member,
                __smp_def,
                __smp_parent,
                __smp_path,
            )
        }

        #[inline]

        fn plan_items(
            __smp_items: &[Self],
            __smp_member: &dyn __smp_core::typed_patch::PatchMember,
            __smp_def: &'static __smp_core::FieldDef,
            __smp_path: &__smp_core::__private::Path<'_>,
        ) -> ::core::result::Result<
            ::core::option::Option<__smp_core::typed_patch::ItemPlans<Self>>,
            __smp_core::PatchError,
        > {
            __smp_core::typed_patch::plan_struct_items(__smp_items, __smp_member, __smp_def, __smp_path)
        }
    };
    // Numbered as the struct's field walk numbers them: own fields, then flattened ones.
    let (flat, own): (Vec<&Plan<'_, '_>>, Vec<&Plan<'_, '_>>) =
        plans.iter().partition(|p| matches!(p.kind, Kind::Flat));
    let own_arms = own.iter().enumerate().map(|(i, p)| {
        let member = p.field.member;
        quote!(#i => ::core::option::Option::Some(&self.#member),)
    });
    let flat_arms = flat.iter().enumerate().map(|(i, p)| {
        let member = p.field.member;
        quote!(#i => ::core::option::Option::Some(&self.#member),)
    });
    let table = quote! {
        const MEMBERS: bool = true;

        #[inline]

        fn member(
            &self,
            __smp_i: usize,
        ) -> ::core::option::Option<&dyn __smp_core::typed_patch::PatchMember> {
            match __smp_i {
                #(#own_arms)*
                _ => ::core::option::Option::None,
            }
        }

        #[inline]

        fn flat_member(&self, __smp_i: usize) -> ::core::option::Option<&dyn ::core::any::Any> {
            match __smp_i {
                #(#flat_arms)*
                _ => ::core::option::Option::None,
            }
        }
    };
    (plan_member, table)
}

fn write(p: &Plan<'_, '_>) -> TokenStream {
    let member = p.field.member;
    let name = &p.field.name;
    match p.kind {
        Kind::Value { .. } | Kind::Retain => quote!(__smp_out.member(#name, &self.#member)?;),
        Kind::Keyed { .. } => quote!(__smp_out.keyed_list(#name, &self.#member)?;),
        Kind::Set => quote!(__smp_out.set_list(#name, &self.#member)?;),
        Kind::Flat => quote!(__smp_out.flat(&self.#member)?;),
    }
}

fn read(p: &Plan<'_, '_>) -> TokenStream {
    let member = p.field.member;
    let name = &p.field.name;
    let deletable = p.deletable;
    match &p.kind {
        Kind::Value { .. } | Kind::Retain => {
            quote!(__smp_in.member(&mut self.#member, #name, #deletable)?;)
        }
        Kind::Keyed { key, recommended } => quote! {
            __smp_in.keyed_list(&mut self.#member, #name, #key, &[#(#recommended),*], #deletable)?;
        },
        Kind::Set => quote!(__smp_in.set_list(&mut self.#member, #name, #deletable)?;),
        Kind::Flat => quote!(__smp_core::ObjectPatch::read_members(&mut self.#member, __smp_in)?;),
    }
}

/// The statements that set a discriminated union's discriminator along with member `p`.
fn discriminator_of(c: &Container<'_>, p: &Plan<'_, '_>, plans: &[Plan<'_, '_>]) -> TokenStream {
    for group in groups(c) {
        let Some(d) = group.discriminator else {
            continue;
        };
        let Some((_, value)) = group
            .members
            .iter()
            .find(|(m, _)| m.member == p.field.member)
        else {
            continue;
        };
        let Some(dp) = plans.iter().find(|q| q.field.member == d.member) else {
            continue;
        };
        if !matches!(dp.kind, Kind::Value { .. }) {
            continue;
        }
        let dm = d.member;
        let dty = &dp.patch;
        return quote! {
            if let ::core::option::Option::Some(__smp_d) =
                __smp_core::__private::discriminator_patch::<#dty>(#value)
            {
                self.#dm = ::core::option::Option::Some(__smp_core::Change::Set(__smp_d));
            }
        };
    }
    TokenStream::new()
}

fn builders(c: &Container<'_>, p: &Plan<'_, '_>, plans: &[Plan<'_, '_>]) -> TokenStream {
    let member = p.field.member;
    let json = &p.field.name;
    let base = base(member);
    let with = format_ident!("{}_with", base);
    let retaining = format_ident!("{}_retaining", base);
    let delete = format_ident!("delete_{}", base);
    let patch = &p.patch;
    let change = quote!(__smp_core::Change);
    let discriminator = discriminator_of(c, p, plans);
    let set = quote!(__smp_core::typed_patch::set_field);
    let build = quote!(__smp_core::typed_patch::build_field);
    let mut out = TokenStream::new();
    match &p.kind {
        Kind::Value { with: builds } => {
            let doc = format!("Sets `{json}` to `value`.");
            out.extend(quote! {
                #[doc = #doc]
                #[inline]
                pub fn #member(mut self, value: impl ::core::convert::Into<#patch>) -> Self {
                    #set(&mut self.#member, value.into());
                    #discriminator
                    self
                }
            });
            if *builds {
                let doc = format!(
                    "Builds the patch of `{json}` in place: `f` gets it (empty if unset) and returns it."
                );
                out.extend(quote! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #with(mut self, f: impl ::core::ops::FnOnce(#patch) -> #patch) -> Self {
                        #build(&mut self.#member, f, ::core::default::Default::default);
                        #discriminator
                        self
                    }
                });
            }
        }
        Kind::Keyed { key, recommended } => {
            let doc = format!(
                "Patches the list `{json}`, merged by `{key}`: `f` gets its patch (empty if unset) and adds items, deletions, an order."
            );
            let list = quote!(__smp_core::typed_patch::KeyedList<#patch>);
            out.extend(quote! {
                #[doc = #doc]
                #[inline]
                pub fn #member(mut self, f: impl ::core::ops::FnOnce(#list) -> #list) -> Self {
                    #build(&mut self.#member, f, || {
                        __smp_core::typed_patch::KeyedList::new(#key, &[#(#recommended),*])
                    });
                    #discriminator
                    self
                }
            });
        }
        Kind::Set => {
            let doc = format!(
                "Patches the list `{json}`, merged as a set: `f` gets its patch (empty if unset) and adds values, deletes them, orders them."
            );
            let list = quote!(__smp_core::typed_patch::SetList<#patch>);
            out.extend(quote! {
                #[doc = #doc]
                #[inline]
                pub fn #member(mut self, f: impl ::core::ops::FnOnce(#list) -> #list) -> Self {
                    #build(&mut self.#member, f, ::core::default::Default::default);
                    #discriminator
                    self
                }
            });
        }
        Kind::Retain => {
            let retain = quote!(__smp_core::typed_patch::Retain<#patch>);
            let doc = format!("Sets the patch of `{json}` (no `$retainKeys` unless it says so).");
            let doc_with = format!(
                "Builds the patch of `{json}` in place, `$retainKeys` included: `f` gets it (empty if unset) and returns it."
            );
            let doc_retaining = format!(
                "Merges `f(patch)` into `{json}` and retains exactly the keys it sets (`$retainKeys`): what the patch does not set is cleared."
            );
            out.extend(quote! {
                #[doc = #doc]
                #[inline]
                pub fn #member(mut self, value: impl ::core::convert::Into<#retain>) -> Self {
                    #set(&mut self.#member, value.into());
                    #discriminator
                    self
                }

                #[doc = #doc_with]
                #[inline]
                pub fn #with(mut self, f: impl ::core::ops::FnOnce(#retain) -> #retain) -> Self {
                    #build(&mut self.#member, f, ::core::default::Default::default);
                    #discriminator
                    self
                }

                #[doc = #doc_retaining]
                #[inline]
                pub fn #retaining(mut self, f: impl ::core::ops::FnOnce(#patch) -> #patch) -> Self {
                    #set(
                        &mut self.#member,
                        __smp_core::typed_patch::Retain::set_keys(f(::core::default::Default::default())),
                    );
                    #discriminator
                    self
                }
            });
        }
        Kind::Flat => {
            let doc = format!("Sets the patch of the flattened `{}`.", unraw(member));
            let doc_with = format!(
                "Builds the patch of the flattened `{}` in place.",
                unraw(member)
            );
            out.extend(quote! {
                #[doc = #doc]
                #[inline]
                pub fn #member(mut self, value: #patch) -> Self {
                    self.#member = value;
                    self
                }

                #[doc = #doc_with]
                #[inline]
                pub fn #with(mut self, f: impl ::core::ops::FnOnce(#patch) -> #patch) -> Self {
                    self.#member = f(::core::mem::take(&mut self.#member));
                    self
                }
            });
        }
    }
    if p.deletable && !matches!(p.kind, Kind::Flat) {
        let doc = format!("Deletes `{json}` (`null`).");
        out.extend(quote! {
            #[doc = #doc]
            #[inline]
            pub fn #delete(mut self) -> Self {
                self.#member = ::core::option::Option::Some(#change::Delete);
                self
            }
        });
    }
    out
}
