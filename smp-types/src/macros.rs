//! `PatchSchema` and `PatchField` for the types that do not derive them: hand-written scalars (`IntOrString`,
//! `Quantity`, `Time`, `MicroTime`) and the generated newtypes over `serde_json::Value` for
//! definitions the document gives no structure (`RawExtension`, `FieldsV1`, `JSON`, ...).

/// Implements `PatchSchema`, `PatchField` and `Normalize` for a scalar type with `PartialEq`: to the patch
/// engine a primitive that a patch value replaces whole, usable as a list merge key (`$key`
/// turns a `&Self` into its key form), with no unions inside.
macro_rules! scalar_patch_field {
    ($ty:ty, |$v:ident| $key:expr) => {
        impl ::smp_core::PatchSchema for $ty {
            const DEF: &'static ::smp_core::TypeDef = ::smp_core::TypeDef::PRIMITIVE;
        }

        impl ::smp_core::PatchField for $ty {
            #[inline]
            fn plan(
                current: Option<&Self>,
                member: &::smp_core::typed::Member<'_>,
                parent: ::smp_core::Node<'static>,
                path: &::smp_core::apply::Path<'_>,
            ) -> Result<::smp_core::typed::Edit<Self>, ::smp_core::PatchError> {
                ::smp_core::typed::plan_scalar(current, member, parent, path)
            }

            #[inline]
            fn same(&self, other: &Self) -> bool {
                self == other
            }

            #[inline]
            fn quiet(&self) -> bool {
                true
            }

            #[inline]
            fn key_value(&self) -> Option<::smp_core::typed::KeyRef<'_>> {
                let $v = self;
                Some($key)
            }
        }

        impl ::smp_core::Normalize for $ty {}

        $crate::macros::self_patch!($ty);
    };
}

/// Implements `Patchable` and `ValuePatch` for a type whose patch is the value itself, read and
/// written by serde (a patch sets it whole).
macro_rules! self_patch {
    ($ty:ty) => {
        impl ::smp_core::Patchable for $ty {
            type Patch = $ty;
        }

        impl ::smp_core::ValuePatch for $ty {
            #[inline]
            fn write_value(
                &self,
                path: &::smp_core::apply::Path<'_>,
            ) -> Result<::serde_json::Value, ::smp_core::PatchError> {
                ::smp_core::typed_patch::write_serde(self, path)
            }

            #[inline]
            fn read_value(
                value: ::serde_json::Value,
                path: &::smp_core::apply::Path<'_>,
            ) -> Result<Self, ::smp_core::PatchError> {
                ::smp_core::typed_patch::read_serde(value, path)
            }
        }
    };
}

/// Implements `PatchSchema`, `PatchField` and `Normalize` for a newtype over `serde_json::Value`: opaque to
/// the patch engine (objects merge without metadata, lists are replaced), as the value it
/// wraps.
macro_rules! opaque_patch_field {
    ($ty:ident) => {
        impl ::smp_core::PatchSchema for $ty {
            const DEF: &'static ::smp_core::TypeDef = ::smp_core::TypeDef::OPAQUE;
        }

        impl ::smp_core::PatchField for $ty {
            #[inline]
            fn same(&self, other: &Self) -> bool {
                self.0 == other.0
            }

            #[inline]
            fn quiet(&self) -> bool {
                true
            }

            #[inline]
            fn replace_quiet(&self) -> bool {
                !self.0.is_object()
            }
        }

        impl ::smp_core::Normalize for $ty {
            #[inline]
            fn is_null(&self) -> bool {
                self.0.is_null()
            }
        }

        // What `#[serde(transparent)]` would derive, written out so that the crate needs no
        // serde derive (and so no syn before serde) unless its `types` feature asks for one.
        impl ::serde_core::Serialize for $ty {
            #[inline]
            fn serialize<S: ::serde_core::Serializer>(
                &self,
                serializer: S,
            ) -> Result<S::Ok, S::Error> {
                ::serde_core::Serialize::serialize(&self.0, serializer)
            }
        }

        impl<'de> ::serde_core::Deserialize<'de> for $ty {
            #[inline]
            fn deserialize<D: ::serde_core::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Self, D::Error> {
                <::serde_json::Value as ::serde_core::Deserialize<'de>>::deserialize(deserializer)
                    .map($ty)
            }
        }

        $crate::macros::self_patch!($ty);
    };
}

pub(crate) use {opaque_patch_field, scalar_patch_field, self_patch};
