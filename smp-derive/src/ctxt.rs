//! The error collector.
//!
//! Parsing and checking never stop at the first mistake: every bad attribute of an item is
//! recorded with its span and reported in one build, so a user fixes them all at once.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// Errors found while deriving for one item.
#[derive(Default)]
pub(crate) struct Errors(RefCell<Vec<syn::Error>>);

impl Errors {
    /// An error spanning `tokens` (the first to the last token, where the compiler can join them).
    pub(crate) fn at(&self, tokens: impl ToTokens, msg: impl Display) {
        self.push(syn::Error::new_spanned(tokens, msg));
    }

    /// An error at one span.
    pub(crate) fn span(&self, span: Span, msg: impl Display) {
        self.push(syn::Error::new(span, msg));
    }

    pub(crate) fn push(&self, e: syn::Error) {
        self.0.borrow_mut().push(e);
    }

    /// All errors folded into one (compile_error! per error), or `Ok` when there were none.
    pub(crate) fn finish(self) -> syn::Result<()> {
        let all = self.0.into_inner().into_iter();
        all.reduce(|mut a, b| {
            a.combine(b);
            a
        })
        .map_or(Ok(()), Err)
    }
}
