//! `#[derive(StrategicMerge)]`.
//!
//! For now the derive only reserves the name and the `#[patch]` / `#[union]` helper
//! attributes so that downstream code can already be annotated; the typed code it will
//! generate is specified in the derive issue.

use proc_macro::TokenStream;

/// Reserved: generates nothing yet (see the crate documentation).
#[proc_macro_derive(StrategicMerge, attributes(patch, union))]
pub fn derive_strategic_merge(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}
