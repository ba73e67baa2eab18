//! `#[derive(StrategicMerge)]`: typed Kubernetes strategic merge patch.
//!
//! Use it through `smp_core`, which re-exports it; the generated code names smp-core by the name
//! the crate's manifest gives it (`::smp_core` unless renamed), or the path given by
//! `#[patch(crate = "...")]`. See
//! [`derive_strategic_merge`] for the attributes.
//!
//! **Its place.** It stands on no smp crate: it only writes code, which names smp-core's
//! runtime. Inside, as serde's derive is laid out: the attributes are parsed (`attr`,
//! `union_attr`) into a typed model of the input (`ast`), the model is checked with every
//! error kept (`check`, `union`), and only then is code written (`expand`).

#![warn(missing_docs)]

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod expand;
mod serde;
mod ty;
mod union;
mod union_attr;

use proc_macro::TokenStream;

/// Derives `smp_core::PatchField` and `smp_core::StrategicMerge` for a struct with named fields,
/// `PatchField` and a list-key form for an enum of unit variants (a string on the wire), or
/// `PatchField` for a newtype `struct Name(T);`, which serde writes as the `T` it wraps and
/// which is patched exactly as `T` (its field takes no attributes; `#[serde(transparent)]` is
/// allowed on it, as it changes nothing).
///
/// A struct with named fields may have type parameters (`struct Spec<T> { items: Vec<T> }`):
/// the generated impls bound each by `PatchField + Normalize` (`StrategicMerge + Normalize`
/// when it is flattened), and its schema tables are associated constants, one per
/// instantiation. The compile-time checks of attributes on fields whose type names a parameter
/// (does the item type declare the merge key?) are left out: the instantiation is not known
/// there. Lifetime parameters are refused (patched types own their data).
///
/// Field attributes, `#[patch(...)]`:
/// - `strategy = "merge" | "replace" | "retainKeys" | "merge|retainKeys"` (`,` also separates,
///   in any order): the Kubernetes `patchStrategy`;
/// - `merge_key = "name"`: the `patchMergeKey` of a merged list of structs (checked at compile
///   time against the element type's fields);
/// - `atomic`: the same as `strategy = "replace"`;
/// - `opaque`: the field is one JSON value, replaced whole, whatever its type: any
///   `Serialize + DeserializeOwned` type works (a type of another crate, a plain serde enum),
///   with no `PatchField` impl. The generated code views the field as `smp_core::Opaque<T>`;
///   its schema is opaque;
/// - `k8s_openapi`: the field is of a k8s-openapi type (or an `Option`, `Vec`, `Box` or
///   `BTreeMap<String, _>` of one) and is patched with the metadata of the smp-types type at
///   the same path, through its JSON form. Needs smp-types with its `k8s-openapi` feature; the
///   generated code views the field as `smp_types::k8s_openapi::K8sOpenApi<T>`. Strategy
///   attributes apply as on any field (`#[patch(k8s_openapi, strategy = "merge", merge_key = "name")]` on a
///   `Vec<Container>`);
/// - `recommended = "port,protocol"`: the recommended (multi-field) merge key of the
///   `$patchMergeKey` proposal, comma-separated. With `merge_key` its first field must be the
///   merge key (items are then told apart by every listed field: 53/TCP and 53/UDP stay two
///   ports); without a merge strategy it is a "moved" key (Taints, Tolerations: the list is
///   replaced unless a patch says otherwise). Each field is checked at compile time against
///   the element type.
///
/// Type attribute, `#[patch(crate = "path")]`: the path of the smp_core crate, as serde's
/// `#[serde(crate = "...")]`, e.g. when another crate re-exports it. Without it the generated
/// code names smp-core as the crate's `Cargo.toml` does (`smp = { package = "smp-core", ... }`
/// makes it `::smp`), and `::smp_core` when the manifest does not say.
///
/// The patch type: a struct `T` gets `TPatch` beside it (`<T as StrategicMerge>::Patch`), one
/// field per field of `T` typed by what a strategic merge patch may say of it, with builders
/// named after the fields (see `smp_core::guide::typed_patches`). `#[patch(patch_type =
/// "Name")]` names it otherwise; `#[patch(no_patch_type)]` leaves it out, for a type whose
/// patches are never built in Rust: its patch is then `smp_core::UntypedPatch<T>`, the patch as
/// JSON, and the build is lighter. Names the patch type would define twice (a field `spec` beside
/// a field `spec_with`, a field named `new` or `directive`) are compile errors.
///
/// Only the schema: `#[patch(schema_only)]` derives `smp_core::PatchSchema` (the static patch
/// metadata, unions included) and nothing else, for a type that describes the JSON form of
/// values held in other types (smp-types' kinds describe k8s-openapi's). The type then needs
/// no serde: `#[serde(...)]` attributes still name its fields and are read, and are inert
/// without serde's derive.
///
/// Unions (KEP-1027), which also derive `smp_core::Normalize`: `#[union]` on a struct (every
/// field but the discriminator is a member and must be an `Option`); on fields
/// `#[union(discriminator)]`, `#[union(member)]` / `#[union(member = "group")]` (inline unions
/// in an ordinary struct) and `#[union(discriminated_by = "Value")]`.
///
/// serde's attributes are the wire form and are followed: container `rename`, `rename_all`,
/// `deny_unknown_fields`, `default`; field `rename`, `flatten` (of a struct), `skip`, `default`,
/// `skip_serializing_if`; variant `rename`, `skip`. Attributes that make the JSON form differ from
/// what the fields say (`with`, `tag`, `untagged`, `transparent`, one-way skips or renames, ...)
/// are compile errors.
///
/// Typed list merging by key takes a fast path when the key field's type has a key form
/// (`String`, `bool`, integers, string enums, and `Option`s of them, or any type whose
/// `PatchField::key_value` answers); other key types are merged through the engine, with the
/// same result.
///
/// The generated code is small: a static table of the fields' patch metadata, three walks over
/// the fields (one call per field each), and one-line trait methods; every per-field operation
/// is written once in `smp_core` and reached through the walks. The patch type adds its struct,
/// its builders, one call per field to write and to read it, and a table that hands its members
/// to the walks (so that `apply_patch` plans without writing JSON). Its methods are `#[inline]`,
/// so their machine code is built in the crates that call them, for the types they use.
#[proc_macro_derive(StrategicMerge, attributes(patch, union, serde))]
pub fn derive_strategic_merge(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input).into()
}
