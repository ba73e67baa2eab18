//! Code generation: parse → check → emit, or the errors plus a fallback impl.
//!
//! Generated code names everything by absolute path (`::core::…`, `::std::…`; the runtime as
//! `__smp_core::…`, an alias of `::smp_core` or of `#[patch(crate = "...")]`),
//! prefixes its locals with `__smp_`, and sits in `const _: () = { … };` so that it adds no
//! names to the user's module.

mod enums;
mod fallback;
mod newtype;
pub(crate) mod patch_type;
mod structs;
mod union;

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::ast::{Container, Kind};
use crate::check;
use crate::ctxt::Errors;

pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Errors::default();
    let model = Container::from_ast(&cx, input);
    if let Some(c) = &model {
        check::check(&cx, c);
        crate::union::check(&cx, c);
        patch_type::check(&cx, c);
    }
    // Every path to the runtime goes through this alias (`__smp_core::…`), so that
    // `#[patch(crate = "...")]` changes them all.
    let krate = match model.as_ref().and_then(|c| c.krate.as_ref()) {
        Some(path) => quote!(#path),
        None => runtime_path(),
    };
    // Items users name (the patch type) go beside the type; impls into the `const _` block.
    let mut beside = TokenStream::new();
    let body = match (cx.finish(), model) {
        (Ok(()), Some(c)) => match c.kind() {
            // Only the schema: the tables and `PatchSchema`, whatever the shape.
            _ if c.schema_only.is_some() => schema_only(&c),
            Kind::Struct => {
                let mut out = structs::expand(&c);
                out.extend(union::expand_struct(&c));
                let (definition, impls) = patch_type::expand(&c, &krate);
                beside = definition;
                out.extend(impls);
                out
            }
            Kind::Enum => {
                let mut out = enums::expand(&c);
                out.extend(union::expand_enum(&c));
                out
            }
            Kind::Newtype => newtype::expand(&c),
        },
        (Err(e), model) => {
            let mut out = e.to_compile_error();
            if let Some(c) = model {
                out.extend(fallback::expand(&c));
            }
            out
        }
        // `from_ast` gives no model only after recording an error.
        (Ok(()), None) => TokenStream::new(),
    };
    quote! {
        #beside

        const _: () = {
            use #krate as __smp_core;
            #body
        };
    }
}

/// `#[patch(schema_only)]`: the type's `PatchSchema` and nothing else, so that a crate that
/// describes many types (smp-types without its `types` feature) compiles neither serde nor the
/// typed apply and diff for them. A struct's unions are part of its schema.
fn schema_only(c: &Container<'_>) -> TokenStream {
    match c.kind() {
        Kind::Struct => {
            let mut out = structs::expand(c);
            out.extend(union::struct_tables(c));
            out
        }
        Kind::Enum => enums::schema(c),
        Kind::Newtype => newtype::schema(c),
    }
}

/// The path of smp-core in the crate being compiled: the name its `Cargo.toml` gives the
/// dependency (`smp = { package = "smp-core", ... }` makes it `::smp`), so that a renamed
/// dependency works without `#[patch(crate = "...")]`. `::smp_core` when the manifest does not
/// say (smp-core's own tests and benchmarks, or a build without Cargo).
fn runtime_path() -> TokenStream {
    use proc_macro_crate::{FoundCrate, crate_name};
    match crate_name("smp-core") {
        Ok(FoundCrate::Name(name)) if name != "smp_core" => {
            let ident = syn::Ident::new(&name, proc_macro2::Span::call_site());
            quote!(::#ident)
        }
        _ => quote!(::smp_core),
    }
}

#[cfg(test)]
mod tests {
    use quote::{ToTokens, quote};
    use syn::parse_quote;

    /// The items inside `const _: () = { ... };` (after the patch type of a struct).
    fn items(input: syn::DeriveInput) -> Vec<syn::Item> {
        let file: syn::File = syn::parse2(super::derive(&input)).unwrap();
        let out = file
            .items
            .into_iter()
            .find_map(|i| match i {
                syn::Item::Const(c) => Some(c),
                _ => None,
            })
            .expect("the const block");
        let syn::Expr::Block(block) = *out.expr else {
            panic!("not a block")
        };
        let stmts = block.block.stmts.into_iter();
        stmts
            .map(|s| match s {
                syn::Stmt::Item(item) => item,
                other => panic!("not an item: {}", other.to_token_stream()),
            })
            .collect()
    }

    #[test]
    fn schema_table() {
        let items = items(parse_quote! {
            #[serde(rename_all = "camelCase")]
            struct Spec {
                #[patch(strategy = "merge", merge_key = "name")]
                init_containers: Vec<Container>,
                #[serde(skip)]
                cache: u8,
                #[patch(strategy = "retainKeys|replace")]
                r#type: Option<Kind>,
            }
        });
        let expected = quote! {
            static __SMP_FIELDS: [__smp_core::FieldDef; 2usize] = [
                __smp_core::FieldDef::new(
                    "initContainers",
                    __smp_core::TypeRef::Static(__smp_core::__private::type_def::<Vec<Container> >),
                    __smp_core::Strategy::MERGE,
                    ::core::option::Option::Some("name")
                ),
                __smp_core::FieldDef::new(
                    "type",
                    __smp_core::TypeRef::Static(__smp_core::__private::type_def::<Option<Kind> >),
                    __smp_core::Strategy {
                        base: __smp_core::BaseStrategy::Replace,
                        retain_keys: true,
                    },
                    ::core::option::Option::None
                )
            ];
        };
        // First the alias every path of the runtime goes through, then the table.
        let alias = quote!(
            use ::smp_core as __smp_core;
        );
        assert_eq!(items[0].to_token_stream().to_string(), alias.to_string());
        assert_eq!(items[1].to_token_stream().to_string(), expected.to_string());
        // Then the merge_key and retainKeys assertions, the four impls of the type
        // (`PatchSchema`, `PatchField`, `StrategicMerge`, `Normalize`), `Patchable`, and the
        // patch type's nine (`Default`, `Clone`, `PartialEq`, `Debug`, `ObjectPatch`,
        // `ValuePatch`, `Serialize`, `Deserialize`, its builders).
        let consts = items.iter().filter(|i| matches!(i, syn::Item::Const(_)));
        assert_eq!(consts.count(), 2);
        let impls = items.iter().filter(|i| matches!(i, syn::Item::Impl(_)));
        assert_eq!(impls.count(), 14);
    }

    #[test]
    fn errors_come_with_a_fallback_impl() {
        let out = super::derive(&parse_quote! {
            struct Spec {
                #[patch(strategy = "bogus")]
                a: Vec<String>,
            }
        })
        .to_string();
        assert!(out.contains("compile_error"), "{out}");
        assert!(out.contains("TypeDef :: OPAQUE"), "{out}");
    }

    /// `#[patch(crate = "...")]` changes the alias, and so every path to the runtime.
    #[test]
    fn crate_path() {
        let items = items(parse_quote! {
            #[patch(crate = "reexports::smp")]
            struct Spec {
                a: Option<String>,
            }
        });
        let alias = quote!(
            use reexports::smp as __smp_core;
        );
        assert_eq!(items[0].to_token_stream().to_string(), alias.to_string());
        let out = super::derive(&parse_quote! {
            #[patch(crate = "no path", strategy = "merge")]
            struct Spec {
                a: Option<String>,
            }
        })
        .to_string();
        assert!(
            out.contains("expected a path to the smp_core crate"),
            "{out}"
        );
        assert!(
            out.contains("unknown key `strategy` in #[patch(...)] on a type"),
            "{out}"
        );
    }
}

/// The size of what the derive writes, measured on smp-types' generated source (run by hand:
/// `SMP_EXPANSION_OUT=/tmp/expanded.rs cargo test -p smp-derive -- --ignored expansion`, then
/// `rustfmt` the file and count its lines). Not a check: a figure for the build-cost table.
#[cfg(test)]
mod expansion {
    use std::path::Path;

    fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a directory").flatten() {
            let path = entry.path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    #[test]
    #[ignore = "a measurement, run by hand"]
    fn expansion() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../smp-types/src");
        let mut files = Vec::new();
        rust_files(&root, &mut files);
        let (mut structs, mut tokens, mut text) = (0usize, 0usize, String::new());
        for file in files {
            let source = std::fs::read_to_string(&file).expect("readable");
            let Ok(parsed) = syn::parse_file(&source) else {
                continue;
            };
            for item in parsed.items {
                let syn::Item::Struct(s) = item else { continue };
                let derives = s.attrs.iter().any(|a| {
                    a.path().is_ident("derive")
                        && quote::ToTokens::to_token_stream(a)
                            .to_string()
                            .contains("StrategicMerge")
                });
                if !derives {
                    continue;
                }
                let input: syn::DeriveInput =
                    syn::parse2(quote::ToTokens::to_token_stream(&s)).expect("a derive input");
                let out = super::derive(&input);
                tokens += count(out.clone());
                text.push_str(&out.to_string());
                text.push('\n');
                structs += 1;
            }
        }
        println!(
            "{structs} structs, {tokens} tokens, {} tokens per struct",
            tokens / structs.max(1)
        );
        if let Some(path) = std::env::var_os("SMP_EXPANSION_OUT") {
            std::fs::write(path, text).expect("writes");
        }
    }

    fn count(tokens: proc_macro2::TokenStream) -> usize {
        tokens
            .into_iter()
            .map(|t| match t {
                proc_macro2::TokenTree::Group(g) => 2 + count(g.stream()),
                _ => 1,
            })
            .sum()
    }
}
