//! Syntactic classification of field types.
//!
//! A derive macro sees tokens, not types: `Vec<Container>` is recognised by its last path
//! segment, and a type alias or a re-export under another name is not. The classification is
//! therefore only used to reject what is certainly wrong (`strategy = "merge"` on a `String`)
//! and to pick cheap code paths; whatever depends on the real type (does the element type
//! declare the merge key? is this path a struct or a string enum?) is checked by `const`
//! assertions on `<T as PatchSchema>::DEF`, which the compiler evaluates with full knowledge.

use syn::{GenericArgument, PathArguments, Type};

/// What a type looks like, after looking through `Option<..>` and `Box<..>`.
#[derive(Clone, Copy)]
pub(crate) enum Shape<'a> {
    /// `String`, `bool`, integers, floats, `char`.
    Scalar,
    /// `serde_json::Value`: anything, no metadata below it.
    Opaque,
    /// `BTreeMap<..>`, `HashMap<..>`, `IndexMap<..>`.
    Map,
    /// `Vec<T>`, with `T` as written.
    List(&'a Type),
    /// Any other path: a struct or a string enum, only the compiler knows which.
    Named,
    /// Tuples, arrays, references, ...: nothing the runtime implements `PatchField` for.
    Unknown,
}

/// A field type classified.
#[derive(Clone, Copy)]
pub(crate) struct TypeInfo<'a> {
    /// Whether the type as written is `Option<..>` (serde reads a missing `Option` as `None`).
    pub optional: bool,
    /// The type inside every `Option<..>`/`Box<..>` wrapper.
    pub inner: &'a Type,
    pub shape: Shape<'a>,
}

impl<'a> TypeInfo<'a> {
    pub(crate) fn of(ty: &'a Type) -> TypeInfo<'a> {
        let optional = generic_arg(ty, "Option").is_some();
        let inner = unwrap(ty);
        TypeInfo {
            optional,
            inner,
            shape: shape(inner),
        }
    }

    /// The element type of a list, inside its own `Option`/`Box` wrappers.
    pub(crate) fn list_elem(&self) -> Option<TypeInfo<'a>> {
        match self.shape {
            Shape::List(elem) => Some(TypeInfo::of(elem)),
            _ => None,
        }
    }
}

/// Strips `Option<..>` wrappers (not `Box`: a boxed field's patch is boxed too, so that a
/// type that contains itself has a patch type of finite size).
pub(crate) fn strip_options(mut ty: &Type) -> &Type {
    while let Some(inner) = generic_arg(ty, "Option") {
        ty = inner;
    }
    ty
}

/// Strips `Option<..>` and `Box<..>` wrappers.
fn unwrap(mut ty: &Type) -> &Type {
    while let Some(inner) = generic_arg(ty, "Option").or_else(|| generic_arg(ty, "Box")) {
        ty = inner;
    }
    ty
}

fn shape(ty: &Type) -> Shape<'_> {
    let ty = ungroup(ty);
    let Type::Path(path) = ty else {
        return Shape::Unknown;
    };
    if path.qself.is_some() {
        return Shape::Unknown;
    }
    let Some(last) = path.path.segments.last() else {
        return Shape::Unknown;
    };
    let name = last.ident.to_string();
    match name.as_str() {
        "String" | "bool" | "i8" | "i16" | "i32" | "i64" | "isize" | "u8" | "u16" | "u32"
        | "u64" | "usize" | "f32" | "f64" | "char" | "i128" | "u128"
            if last.arguments.is_none() =>
        {
            Shape::Scalar
        }
        "Value" if last.arguments.is_none() => Shape::Opaque,
        "BTreeMap" | "HashMap" | "IndexMap" => Shape::Map,
        "Vec" => generic_arg(ty, "Vec").map_or(Shape::Unknown, Shape::List),
        _ => Shape::Named,
    }
}

/// `T` when `ty` is `Name<T>` (any path ending in `Name`).
fn generic_arg<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = ungroup(ty) else {
        return None;
    };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|a| match a {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    match (types.next(), types.next()) {
        (Some(t), None) => Some(t),
        _ => None,
    }
}

/// Looks through invisible groups (types passed through `macro_rules!`) and parentheses.
fn ungroup(mut ty: &Type) -> &Type {
    loop {
        match ty {
            Type::Group(g) => ty = &g.elem,
            Type::Paren(p) => ty = &p.elem,
            _ => return ty,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(src: &str) -> (bool, &'static str) {
        let ty: Type = syn::parse_str(src).unwrap();
        let ty: &'static Type = Box::leak(Box::new(ty));
        let i = TypeInfo::of(ty);
        let shape = match i.shape {
            Shape::Scalar => "scalar",
            Shape::Opaque => "opaque",
            Shape::Map => "map",
            Shape::List(_) => "list",
            Shape::Named => "named",
            Shape::Unknown => "unknown",
        };
        (i.optional, shape)
    }

    #[test]
    fn classifies() {
        assert_eq!(info("String"), (false, "scalar"));
        assert_eq!(info("Option<Box<i32>>"), (true, "scalar"));
        assert_eq!(info("Box<Option<f64>>"), (false, "scalar"));
        assert_eq!(
            info("std::collections::BTreeMap<String, u8>"),
            (false, "map")
        );
        assert_eq!(info("Option<Vec<Container>>"), (true, "list"));
        assert_eq!(info("serde_json::Value"), (false, "opaque"));
        assert_eq!(info("PodSpec"), (false, "named"));
        assert_eq!(info("(u8, u8)"), (false, "unknown"));
    }

    #[test]
    fn list_elements() {
        let ty: Type = syn::parse_str("Option<Vec<Box<Container>>>").unwrap();
        let i = TypeInfo::of(&ty);
        assert!(matches!(i.list_elem().unwrap().shape, Shape::Named));
    }
}
