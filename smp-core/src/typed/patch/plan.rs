//! Applying a typed patch to a typed value, without writing the patch's JSON where that is
//! cheap: a struct patch merges into its struct field by field, a scalar is set, and an item of
//! a list merged by key is found by its key and merged into. Everything else (a new list item,
//! a directive, a map, a list replaced whole, a field of another strategy) writes that one
//! member's JSON and goes the way a `Patch` goes ([`PatchField::plan`]), so the result is the
//! JSON patch's by construction; `smp-types/tests/types/typed_patches.rs` and
//! `tests/tests/typed_differential.rs` check it on random patches.
//!
//! The walk is generic code in this crate, not generated per struct: the derive gives each
//! patch type two small tables ([`ObjectPatch::member`], [`ObjectPatch::flat_member`]) that
//! hand out its members type-erased, and the struct's own field walk
//! ([`StrategicMerge::visit`]) pairs them with the fields, in the same order. A member is
//! recovered as its concrete type by `Any` where the field's type knows it (scalars, derived
//! structs, lists of them merged by key); any other goes through its JSON. So a patch type
//! costs the compiler two `match`es, and the planning code is built once per field type.

use std::any::Any;

use serde_json::{Map, Value};

use super::list::{KeyedList, SetList};
use super::object::{ObjectDirective, ObjectPatch, write_list};
use super::{Change, Patchable, ValuePatch};
use crate::apply::Path;
use crate::error::PatchError;
use crate::schema::{BaseStrategy, FieldDef, Node, TypeDef};
use crate::typed::unions::Normalize;
use crate::typed::{
    Commit, Edit, Member, OnRemove, PatchField, StrategicMerge, Visit, commit_field, fallback,
};

/// One member of a patch type, type-erased: what the planning walk needs of it.
#[doc(hidden)]
pub trait PatchMember {
    /// The member as its concrete type, for a field type that plans it natively.
    fn as_any(&self) -> &dyn Any;

    /// Whether the patch says nothing of the field.
    fn is_absent(&self) -> bool;

    /// Writes the member (and the list directives that go beside it) into the patch object
    /// of its level, as field `name`.
    fn write(
        &self,
        name: &str,
        patch: &mut Map<String, Value>,
        path: &Path<'_>,
    ) -> Result<(), PatchError>;
}

impl<P: ValuePatch + 'static> PatchMember for Option<Change<P>> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn is_absent(&self) -> bool {
        self.is_none()
    }

    fn write(
        &self,
        name: &str,
        patch: &mut Map<String, Value>,
        path: &Path<'_>,
    ) -> Result<(), PatchError> {
        if let Some(change) = self {
            let value = change.write_value(&path.field(name))?;
            patch.insert(name.to_owned(), value);
        }
        Ok(())
    }
}

/// A list field's change: its list writes itself with its directives.
macro_rules! list_member {
    ($($list:ident: $($bound:path),+;)*) => {$(
        impl<P: $($bound +)+ 'static> PatchMember for Option<Change<$list<P>>> {
            fn as_any(&self) -> &dyn Any {
                self
            }

            fn is_absent(&self) -> bool {
                self.is_none()
            }

            fn write(
                &self,
                name: &str,
                patch: &mut Map<String, Value>,
                path: &Path<'_>,
            ) -> Result<(), PatchError> {
                write_list(self, name, patch, path)
            }
        }
    )*};
}

list_member! {
    KeyedList: Default, ValuePatch;
    SetList: ValuePatch;
}

/// [`StrategicMerge::plan_patch_members`]: the patch's members planned against the fields,
/// natively when the patch type hands out its members, else through the patch's JSON.
pub(crate) fn plan_members<S: StrategicMerge>(
    this: &S,
    patch: &S::Patch,
    path: &Path<'_>,
    edits: &mut Vec<Commit<S>>,
) -> Result<(), PatchError> {
    if S::Patch::MEMBERS {
        let mut plan = PatchPlan {
            patch,
            node: S::schema(),
            path,
            edits: Vec::new(),
            own: 0,
            flat: 0,
            declined: false,
            error: None,
        };
        this.visit(&mut plan);
        if let Some(e) = plan.error {
            return Err(e);
        }
        if !plan.declined {
            edits.append(&mut plan.edits);
            return Ok(());
        }
    }
    members_through_json(this, patch, path, edits)
}

/// The members of a patch planned as its JSON object's members are.
#[inline(never)]
fn members_through_json<S: StrategicMerge>(
    this: &S,
    patch: &S::Patch,
    path: &Path<'_>,
    edits: &mut Vec<Commit<S>>,
) -> Result<(), PatchError> {
    let Value::Object(map) = patch.write_value(path)? else {
        return Ok(());
    };
    match this.plan_object(&map, path)? {
        Edit::Keep | Edit::Remove => {}
        Edit::Set(value) => edits.push(Box::new(move |this: &mut S| *this = value)),
        Edit::Update(update) => edits.push(update),
    }
    Ok(())
}

/// The walk over a struct's fields that plans the patch member of each.
struct PatchPlan<'p, 'a, S: StrategicMerge> {
    patch: &'p S::Patch,
    node: Node<'static>,
    path: &'a Path<'a>,
    edits: Vec<Commit<S>>,
    /// The index of the next own field and of the next flattened struct (the walk visits
    /// them in declaration order, as the patch type's tables number them).
    own: usize,
    flat: usize,
    /// A flattened struct whose patch could not be planned natively: the whole patch goes
    /// through its JSON instead.
    declined: bool,
    error: Option<PatchError>,
}

impl<S: StrategicMerge + 'static> Visit<'_, S> for PatchPlan<'_, '_, S> {
    #[inline]
    fn field<T: PatchField + Normalize + Patchable>(
        &mut self,
        def: &'static FieldDef,
        value: Option<&T>,
        get: fn(&mut S) -> &mut T,
        on_remove: OnRemove<T>,
    ) {
        let index = self.own;
        self.own += 1;
        if self.error.is_some() || self.declined {
            return;
        }
        let Some(member) = self.patch.member(index) else {
            return;
        };
        if member.is_absent() {
            return;
        }
        let result = T::plan_member(value, member, def, self.node, self.path).and_then(|edit| {
            commit_field(edit, get, on_remove, &def.name, self.path, &mut self.edits)
        });
        if let Err(e) = result {
            self.error = Some(e);
        }
    }

    #[inline]
    fn flat<T: StrategicMerge + Normalize>(&mut self, value: &T, get: fn(&mut S) -> &mut T) {
        let index = self.flat;
        self.flat += 1;
        if self.error.is_some() || self.declined {
            return;
        }
        let Some(patch) = self.patch.flat_member(index) else {
            self.declined = true;
            return;
        };
        let mut inner = Vec::new();
        match value.plan_patch_any(patch, self.path, &mut inner) {
            Ok(true) => {
                for commit in inner {
                    self.edits.push(Box::new(move |s: &mut S| commit(get(s))));
                }
            }
            Ok(false) => self.declined = true,
            Err(e) => self.error = Some(e),
        }
    }
}

/// The plan of one member from its typed form, through its JSON: the member written into a
/// one-member patch object (with the list directives it writes beside it), then planned as a
/// `Patch`'s member is.
#[inline(never)]
pub(crate) fn member_through_json<T: PatchField>(
    current: Option<&T>,
    member: &dyn PatchMember,
    def: &'static FieldDef,
    parent: Node<'static>,
    path: &Path<'_>,
) -> Result<Edit<T>, PatchError> {
    let mut patch = Map::new();
    member.write(&def.name, &mut patch, path)?;
    let name: &str = &def.name;
    let member = Member {
        name,
        value: patch.get(name),
        directed: patch.len() > usize::from(patch.contains_key(name)),
        patch: &patch,
    };
    // As a `Patch`'s member: a struct the field replaces is replaced through the engine.
    let replaced =
        def.strategy.base == BaseStrategy::Replace && matches!(T::DEF, TypeDef::Struct(_));
    if replaced {
        fallback(current, &member, parent, path)
    } else {
        T::plan(current, &member, parent, path)
    }
}

/// [`Patchable::plan_member`] of a derived struct: merged field by field when the struct is
/// there and the patch merges into it, else through its JSON.
#[inline(never)]
pub fn plan_struct_member<S>(
    current: Option<&S>,
    member: &dyn PatchMember,
    def: &'static FieldDef,
    parent: Node<'static>,
    path: &Path<'_>,
) -> Result<Edit<S>, PatchError>
where
    S: StrategicMerge + 'static,
{
    let merges = def.strategy.base != BaseStrategy::Replace && !def.strategy.retain_keys;
    let change = member
        .as_any()
        .downcast_ref::<Option<Change<<S as StrategicMerge>::Patch>>>();
    match (current, change) {
        (Some(current), Some(Some(Change::Set(patch))))
            if merges && patch.directive() == ObjectDirective::Merge =>
        {
            current.plan_patch_object(patch, &path.field(&def.name))
        }
        _ => member_through_json(current, member, def, parent, path),
    }
}

/// The planned changes of some items of a list, by position.
pub type ItemPlans<I> = Vec<(usize, Commit<I>)>;

/// [`Patchable::plan_items`] of a derived struct: when the list patch only merges into items
/// that are there, by the merge key, each named once and in live order, in a list whose keys
/// are all there and distinct (the conditions under which nothing moves: see `typed::list`),
/// each item is merged into natively. `None` when that does not hold: an item to add, a
/// deletion, an order, a replacement, `$patchMergeKey`; the list then goes through its JSON.
#[inline(never)]
pub fn plan_struct_items<I>(
    items: &[I],
    member: &dyn PatchMember,
    def: &'static FieldDef,
    path: &Path<'_>,
) -> Result<Option<ItemPlans<I>>, PatchError>
where
    I: StrategicMerge + 'static,
{
    let Some(Some(Change::Set(list))) = member
        .as_any()
        .downcast_ref::<Option<Change<KeyedList<<I as StrategicMerge>::Patch>>>>()
    else {
        return Ok(None);
    };
    let Some(merges) = list.plain_merges() else {
        return Ok(None);
    };
    if merges.is_empty() {
        return Ok(None);
    }
    let key = list.key();
    // Repeated live keys make the engine reorder the list.
    let Some(live_keys) = crate::typed::list::distinct_keys(items, key) else {
        return Ok(None);
    };
    let list_path = path.field(&def.name);
    let mut plans = Vec::with_capacity(merges.len());
    let mut next = 0;
    for (value, patch) in merges {
        // In live order, each item named once: look only after the previous match, so the
        // whole search is one pass over the list.
        let Some(offset) = live_keys[next..].iter().position(|k| k.matches(value)) else {
            return Ok(None); // an addition, or a reorder: the engine says where items go
        };
        let i = next + offset;
        next = i + 1;
        let item_path = list_path.typed_item(key, live_keys[i]);
        match items[i].plan_patch_object(patch, &item_path)? {
            Edit::Keep => {}
            Edit::Update(commit) => plans.push((i, commit)),
            // A merge into a struct that is there never replaces or removes it; if it did, the
            // engine would say what follows.
            Edit::Set(_) | Edit::Remove => return Ok(None),
        }
    }
    Ok(Some(plans))
}

/// [`Patchable::plan_member`] of a list: items merged by key natively where the item type
/// can ([`Patchable::plan_items`]), else through the member's JSON.
pub(crate) fn plan_list_member<I: Patchable + 'static>(
    current: Option<&Vec<I>>,
    member: &dyn PatchMember,
    def: &'static FieldDef,
    parent: Node<'static>,
    path: &Path<'_>,
) -> Result<Edit<Vec<I>>, PatchError>
where
    Vec<I>: PatchField,
{
    if let Some(items) = current {
        if let Some(plans) = I::plan_items(items, member, def, path)? {
            if plans.is_empty() {
                return Ok(Edit::Keep);
            }
            return Ok(Edit::Update(Box::new(move |items: &mut Vec<I>| {
                for (i, commit) in plans {
                    if let Some(item) = items.get_mut(i) {
                        commit(item);
                    }
                }
            })));
        }
    }
    member_through_json(current, member, def, parent, path)
}

/// [`StrategicMerge::plan_patch_any`] of a derived struct: its own patch, found by `Any`.
#[inline(never)]
pub fn plan_struct_any<S: StrategicMerge + 'static>(
    this: &S,
    patch: &dyn Any,
    path: &Path<'_>,
    edits: &mut Vec<Commit<S>>,
) -> Result<bool, PatchError> {
    match patch.downcast_ref::<<S as StrategicMerge>::Patch>() {
        Some(patch) => this.plan_patch_members(patch, path, edits).map(|()| true),
        None => Ok(false),
    }
}
