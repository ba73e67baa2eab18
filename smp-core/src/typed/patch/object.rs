//! Object patches: the generated `TPatch` types, and the writer and reader their generated code
//! calls, one line per field.

use serde_json::{Map, Value};

use super::apply_config::{self, ApplyConfiguration, ObjectKind};
use super::list::{KeyedList, ListWrite, SetList};
use super::{Change, ValuePatch, wrong_type};
use crate::apply::Path;
use crate::error::PatchError;

/// What a patch object says of the object itself (`$patch`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ObjectDirective {
    /// Merge the patch's members into the object: no directive.
    #[default]
    Merge,
    /// `$patch: replace`: the object becomes exactly the patch's members.
    Replace,
    /// `$patch: delete`: the object (the member holding it) is deleted.
    Delete,
}

impl ObjectDirective {
    /// Reads the value of `$patch` in the object at `path`. An explicit `merge` is refused, as
    /// the engine refuses it.
    pub(crate) fn read(value: &Value, path: &Path<'_>) -> Result<ObjectDirective, PatchError> {
        match value.as_str() {
            Some("replace") => Ok(ObjectDirective::Replace),
            Some("delete") => Ok(ObjectDirective::Delete),
            Some("merge") => Err(PatchError::ExplicitMerge {
                path: path.to_json_path(),
            }),
            _ => Err(PatchError::UnknownPatchType {
                path: path.field("$patch").to_json_path(),
                value: value.to_string(),
            }),
        }
    }
}

/// A generated `TPatch`: the patch of an object of type `T`. Its members are written and read
/// by generated code through [`ObjectWriter`] and [`ObjectReader`]; everything else is here.
pub trait ObjectPatch: Default + Sized {
    /// The type this is the patch of.
    type Object;

    /// Whether `T` has `#[serde(deny_unknown_fields)]`: reading a member it does not declare is
    /// then an error, as deserializing `T` would be.
    const DENY_UNKNOWN: bool = false;

    /// What the patch says of the object itself.
    fn directive(&self) -> ObjectDirective;

    /// Sets what the patch says of the object itself.
    fn set_directive(&mut self, directive: ObjectDirective);

    /// Writes the members the patch sets (and the directives of its lists). Generated.
    #[doc(hidden)]
    fn write_members(&self, out: &mut ObjectWriter<'_>) -> Result<(), PatchError>;

    /// Takes the members this type declares out of `reader`. Generated.
    #[doc(hidden)]
    fn read_members(&mut self, reader: &mut ObjectReader<'_>) -> Result<(), PatchError>;

    /// Whether [`member`](ObjectPatch::member) and [`flat_member`](ObjectPatch::flat_member)
    /// hand out the members, so that the patch is applied without its JSON. Generated (true)
    /// for a struct without type parameters.
    #[doc(hidden)]
    const MEMBERS: bool = false;

    /// The patch of the `index`th own field of the object (in declaration order, skipped
    /// fields left out), type-erased. Generated.
    #[doc(hidden)]
    fn member(&self, index: usize) -> Option<&dyn super::PatchMember> {
        let _ = index;
        None
    }

    /// The patch of the `index`th flattened struct of the object, as `Any`. Generated.
    #[doc(hidden)]
    fn flat_member(&self, index: usize) -> Option<&dyn std::any::Any> {
        let _ = index;
        None
    }

    /// The patch that replaces the object with this one's members (`$patch: replace`).
    fn replacing(mut self) -> Self {
        self.set_directive(ObjectDirective::Replace);
        self
    }

    /// The patch that deletes the object (`$patch: delete`).
    fn deleting() -> Self {
        let mut patch = Self::default();
        patch.set_directive(ObjectDirective::Delete);
        patch
    }

    /// The root of a server-side apply configuration of an object named `name`: `apiVersion`,
    /// `kind` and `metadata.name` set, nothing else. Build the rest with the field methods and
    /// convert it with [`to_apply_configuration`](ObjectPatch::to_apply_configuration).
    fn apply_configuration(name: &str) -> Result<Self, PatchError>
    where
        Self::Object: ObjectKind,
    {
        apply_config::root::<Self, Self::Object>(name)
    }

    /// The server-side apply body this patch says: its JSON, which must hold no deletion and no
    /// directive (an error names the first).
    fn to_apply_configuration(&self) -> Result<ApplyConfiguration, PatchError>
    where
        Self: ValuePatch,
    {
        ApplyConfiguration::from_patch(self)
    }

    /// Sets one member from its JSON, as reading a patch with that member would (the builders
    /// of apply configurations use it for `apiVersion`, `kind` and `metadata.name`).
    fn set_member(&mut self, name: &str, value: Value) -> Result<(), PatchError> {
        let mut map = Map::new();
        map.insert(name.to_owned(), value);
        let path = Path::root();
        let mut reader = ObjectReader::new(map, &path);
        self.read_members(&mut reader)?;
        reader.finish(true)
    }
}

/// The JSON of an object patch: its directive, then its members.
pub fn write_object<P: ObjectPatch>(patch: &P, path: &Path<'_>) -> Result<Value, PatchError> {
    path.check_depth()?;
    let mut out = ObjectWriter::new(path);
    match patch.directive() {
        ObjectDirective::Merge => {}
        ObjectDirective::Replace => out.directive("replace"),
        ObjectDirective::Delete => out.directive("delete"),
    }
    patch.write_members(&mut out)?;
    Ok(Value::Object(out.map))
}

/// Reads an object patch from its JSON.
pub fn read_object<P: ObjectPatch>(value: Value, path: &Path<'_>) -> Result<P, PatchError> {
    path.check_depth()?;
    let Value::Object(mut map) = value else {
        return Err(wrong_type(path, "object", &value));
    };
    let mut patch = P::default();
    if let Some(directive) = map.remove("$patch") {
        patch.set_directive(ObjectDirective::read(&directive, path)?);
    }
    let mut reader = ObjectReader::new(map, path);
    patch.read_members(&mut reader)?;
    reader.finish(P::DENY_UNKNOWN)?;
    Ok(patch)
}

/// Where generated code writes an object patch's members.
pub struct ObjectWriter<'a> {
    map: Map<String, Value>,
    path: &'a Path<'a>,
}

impl<'a> ObjectWriter<'a> {
    fn new(path: &'a Path<'a>) -> ObjectWriter<'a> {
        ObjectWriter {
            map: Map::new(),
            path,
        }
    }

    fn directive(&mut self, value: &str) {
        self.map
            .insert("$patch".to_owned(), Value::String(value.to_owned()));
    }

    /// A member set to a value, merged into, or deleted; nothing when `None`.
    pub fn member<P: ValuePatch>(
        &mut self,
        name: &str,
        change: &Option<Change<P>>,
    ) -> Result<(), PatchError> {
        if let Some(change) = change {
            let value = change.write_value(&self.path.field(name))?;
            self.map.insert(name.to_owned(), value);
        }
        Ok(())
    }

    /// A list merged by key: the member, and its `$setElementOrder/<name>`.
    pub fn keyed_list<P: Default + ValuePatch>(
        &mut self,
        name: &str,
        change: &Option<Change<KeyedList<P>>>,
    ) -> Result<(), PatchError> {
        write_list(change, name, &mut self.map, self.path)
    }

    /// A list of scalars merged as a set: the member, its `$deleteFromPrimitiveList/<name>`
    /// and its `$setElementOrder/<name>`.
    pub fn set_list<P: ValuePatch>(
        &mut self,
        name: &str,
        change: &Option<Change<SetList<P>>>,
    ) -> Result<(), PatchError> {
        write_list(change, name, &mut self.map, self.path)
    }

    /// The members of a flattened struct's patch, in this same object.
    pub fn flat<P: ObjectPatch>(&mut self, patch: &P) -> Result<(), PatchError> {
        patch.write_members(self)
    }

    /// A member given as JSON, for hand-written patch types (a flattened map of the members
    /// other fields do not declare).
    pub fn raw(&mut self, name: &str, value: Value) {
        self.map.insert(name.to_owned(), value);
    }
}

/// Writes a list field's change into the patch object holding it: nothing, `null`, or the
/// list with its directives.
pub(crate) fn write_list<L: ListWrite>(
    change: &Option<Change<L>>,
    name: &str,
    patch: &mut Map<String, Value>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    match change {
        None => Ok(()),
        Some(Change::Delete) => {
            patch.insert(name.to_owned(), Value::Null);
            Ok(())
        }
        Some(Change::Set(list)) => list.write(name, patch, path),
    }
}

/// Where generated code reads an object patch's members from.
pub struct ObjectReader<'a> {
    map: Map<String, Value>,
    path: &'a Path<'a>,
}

impl<'a> ObjectReader<'a> {
    /// A reader over the members of an object (its `$patch` already taken).
    pub(crate) fn new(map: Map<String, Value>, path: &'a Path<'a>) -> ObjectReader<'a> {
        ObjectReader { map, path }
    }

    /// Reads member `name` into `field`, when the object has it (a field the object does not
    /// name keeps what it holds: `set_member` reads one member into a patch that sets others).
    /// `deletable`: whether `null` may delete it (an `Option`, or a field with a serde
    /// default); for a required field `null` is an error, as the typed apply of such a patch
    /// would fail.
    pub fn member<P: ValuePatch>(
        &mut self,
        field: &mut Option<Change<P>>,
        name: &str,
        deletable: bool,
    ) -> Result<(), PatchError> {
        let Some(value) = self.map.remove(name) else {
            return Ok(());
        };
        let at = self.path.field(name);
        if value.is_null() && !deletable {
            return Err(required(&at));
        }
        *field = Some(Change::read_value(value, &at)?);
        Ok(())
    }

    /// Reads a list merged by `key` (and its `$setElementOrder/<name>`) into `field`;
    /// `recommended`: the field's recommended keys, which items may name in `$patchMergeKey`.
    pub fn keyed_list<P: Default + ValuePatch>(
        &mut self,
        field: &mut Option<Change<KeyedList<P>>>,
        name: &str,
        key: &'static str,
        recommended: &'static [&'static str],
        deletable: bool,
    ) -> Result<(), PatchError> {
        let value = self.map.remove(name);
        let order = self.map.remove(&format!("$setElementOrder/{name}"));
        let at = self.path.field(name);
        *field = match (value, order) {
            (None, None) => return Ok(()),
            (Some(Value::Null), None) if deletable => Some(Change::Delete),
            (Some(Value::Null), None) => return Err(required(&at)),
            (value, order) => Some(Change::Set(KeyedList::read(
                key,
                recommended,
                value,
                order,
                &at,
            )?)),
        };
        Ok(())
    }

    /// Reads a list of scalars merged as a set (and its `$deleteFromPrimitiveList/<name>` and
    /// `$setElementOrder/<name>`) into `field`.
    pub fn set_list<P: ValuePatch>(
        &mut self,
        field: &mut Option<Change<SetList<P>>>,
        name: &str,
        deletable: bool,
    ) -> Result<(), PatchError> {
        let value = self.map.remove(name);
        let delete = self.map.remove(&format!("$deleteFromPrimitiveList/{name}"));
        let order = self.map.remove(&format!("$setElementOrder/{name}"));
        let at = self.path.field(name);
        *field = match (value, delete, order) {
            (None, None, None) => return Ok(()),
            (Some(Value::Null), None, None) if deletable => Some(Change::Delete),
            (Some(Value::Null), None, None) => return Err(required(&at)),
            (value, delete, order) => Some(Change::Set(SetList::read(value, delete, order, &at)?)),
        };
        Ok(())
    }

    /// Takes every member left, directives included (an [`UntypedPatch`](super::UntypedPatch)
    /// holds them all).
    pub(crate) fn take_all(&mut self) -> Map<String, Value> {
        std::mem::take(&mut self.map)
    }

    /// Takes every member left but the directives, for hand-written patch types (a flattened
    /// map that keeps the members its neighbours do not declare).
    pub fn rest(&mut self) -> Map<String, Value> {
        let names: Vec<String> = self
            .map
            .keys()
            .filter(|k| !k.starts_with('$'))
            .cloned()
            .collect();
        names
            .into_iter()
            .filter_map(|k| self.map.remove(&k).map(|v| (k, v)))
            .collect()
    }

    /// Checks what is left: a directive no field took (`$retainKeys` where the strategy is not
    /// `retainKeys`, `$setElementOrder/` of a list that is not merged, ...) is an error; so is
    /// any other member when `deny_unknown`. Other members the type does not declare are
    /// dropped, as deserializing the type would drop them.
    pub fn finish(self, deny_unknown: bool) -> Result<(), PatchError> {
        for (name, _) in self.map {
            let at = self.path.field(&name);
            if name.starts_with('$') {
                return Err(PatchError::BadDirective {
                    path: at.to_json_path(),
                    directive: name.clone(),
                    expected: "nothing: the patch strategies of this object's fields do not allow it here",
                });
            }
            if deny_unknown {
                return Err(PatchError::Deserialize {
                    path: at.to_json_path(),
                    detail: format!("unknown field `{name}`"),
                });
            }
        }
        Ok(())
    }
}

fn required(path: &Path<'_>) -> PatchError {
    PatchError::Deserialize {
        path: path.to_json_path(),
        detail: "a required field cannot be deleted".to_owned(),
    }
}

/// `Serialize` of a generated patch type: its JSON.
#[doc(hidden)]
pub fn serialize_patch<P: ValuePatch, S: serde_core::Serializer>(
    patch: &P,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde_core::Serialize as _;
    use serde_core::ser::Error as _;
    patch
        .to_value()
        .map_err(S::Error::custom)?
        .serialize(serializer)
}

/// `Deserialize` of a generated patch type: any JSON value, read as the patch.
#[doc(hidden)]
pub fn deserialize_patch<'de, P: ValuePatch, D: serde_core::Deserializer<'de>>(
    deserializer: D,
) -> Result<P, D::Error> {
    use serde_core::Deserialize as _;
    use serde_core::de::Error as _;
    let value = Value::deserialize(deserializer)?;
    P::from_value(value).map_err(D::Error::custom)
}

/// The patch of a union's discriminator set to `value`, when its type takes that value.
#[doc(hidden)]
pub fn discriminator_patch<P: ValuePatch>(value: &str) -> Option<P> {
    P::read_value(Value::String(value.to_owned()), &Path::root()).ok()
}

/// `Debug` of a generated patch type: its name and the patch it writes (one generic function,
/// not a `debug_struct` per type, which kept smp-types' build within its memory budget).
#[doc(hidden)]
pub fn debug_patch<P: ValuePatch>(
    name: &str,
    patch: &P,
    f: &mut std::fmt::Formatter<'_>,
) -> std::fmt::Result {
    match patch.to_value() {
        Ok(value) => write!(f, "{name}({value})"),
        Err(e) => write!(f, "{name}(<{e}>)"),
    }
}
