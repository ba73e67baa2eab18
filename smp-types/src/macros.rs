//! Hand-written scalar types (`IntOrString`, `Quantity`): to the patch engine a primitive that a
//! patch value replaces whole; usable as a list merge key; no unions inside.

/// Implements `PatchField` and `Normalize` for a scalar type with `PartialEq`; `$key` turns a
/// `&Self` into its merge-key form.
macro_rules! scalar_patch_field {
    ($ty:ty, |$v:ident| $key:expr) => {
        impl ::smp_core::PatchField for $ty {
            const DEF: &'static ::smp_core::TypeDef = ::smp_core::TypeDef::PRIMITIVE;

            fn plan(
                current: Option<&Self>,
                member: &::smp_core::typed::Member<'_>,
                parent: ::smp_core::Node<'static>,
                path: &::smp_core::apply::Path<'_>,
            ) -> Result<::smp_core::typed::Edit<Self>, ::smp_core::PatchError> {
                ::smp_core::typed::plan_scalar(current, member, parent, path)
            }

            fn same(&self, other: &Self) -> bool {
                self == other
            }

            fn quiet(&self) -> bool {
                true
            }

            fn key_value(&self) -> Option<::smp_core::typed::KeyRef<'_>> {
                let $v = self;
                Some($key)
            }
        }

        impl ::smp_core::Normalize for $ty {}
    };
}

pub(crate) use scalar_patch_field;
