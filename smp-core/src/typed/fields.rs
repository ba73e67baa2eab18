//! The fields of a derived struct, visited.
//!
//! `#[derive(StrategicMerge)]` writes three walks over a struct's fields (by shared
//! reference, in pairs, by mutable reference: [`StrategicMerge::visit`],
//! [`visit2`](StrategicMerge::visit2), [`visit_mut`](StrategicMerge::visit_mut)), each one
//! call per field; every per-field operation (plan, diff, compare, key lookup, union
//! normalization and validation) is a visitor written once, here. This keeps the generated
//! code small, which is what the compile time of a crate with hundreds of derived types (all of
//! Kubernetes' API) depends on, and keeps each rule in one place. The visitors are generic, so
//! after inlining they cost what the hand-unrolled code cost.
//!
//! A field is visited with its `FieldDef` (JSON name, strategy, merge key: the same static
//! table the schema holds) and its value, `None` when the field is absent from the JSON form
//! (`skip_serializing_if`). Flattened structs are visited as a whole after the struct's own
//! fields, whose names shadow theirs (as serde reads them).

use serde_json::Value;

use crate::apply::Path;
use crate::error::{PatchError, Segment};
use crate::schema::{BaseStrategy, FieldDef, Node, TypeDef};
use crate::typed::patch::Patchable;
use crate::typed::unions::Normalize;
use crate::union_rules::UnionError;

use super::{
    Commit, KeyRef, Member, OnRemove, Out, PatchField, StrategicMerge, commit_field, fallback,
};

/// A walk over a struct's fields by shared reference (`S` is the struct, borrowed for `'a`).
pub trait Visit<'a, S> {
    /// An own field: its definition, its value when present in the JSON form, how to reach it
    /// mutably later (a commit), and what removing it means.
    fn field<T: PatchField + Normalize + Patchable>(
        &mut self,
        def: &'static FieldDef,
        value: Option<&'a T>,
        get: fn(&mut S) -> &mut T,
        on_remove: OnRemove<T>,
    );

    /// A flattened struct.
    fn flat<T: StrategicMerge + Normalize>(&mut self, value: &'a T, get: fn(&mut S) -> &mut T);
}

/// A walk over the fields of two values of a struct, side by side: own fields in JSON-name
/// order (the order of the members the typed diff writes), then flattened structs.
pub trait Visit2 {
    /// An own field of both values (each `None` when absent from its JSON form).
    fn field<T: PatchField + Normalize>(
        &mut self,
        def: &'static FieldDef,
        a: Option<&T>,
        b: Option<&T>,
    );

    /// A flattened struct of both values.
    fn flat<T: StrategicMerge + Normalize>(&mut self, a: &T, b: &T);
}

/// A walk over a struct's fields by mutable reference, beside an older value of the struct.
pub trait VisitMut {
    /// An own field (`None` when absent from the JSON form) and the old value's field.
    fn field<T: PatchField + Normalize>(
        &mut self,
        def: &'static FieldDef,
        value: Option<&mut T>,
        old: Option<&T>,
    );

    /// A flattened struct and the old value's.
    fn flat<T: StrategicMerge + Normalize>(&mut self, value: &mut T, old: Option<&T>);
}

/// The merge key pairing list items of a field: only lists merged by a key have one.
fn pairing_key(def: &'static FieldDef) -> Option<&'static str> {
    def.merge_key
        .as_deref()
        .filter(|_| def.strategy.merges_lists())
}

// ---------------------------------------------------------------------------------------------
// Planning a patch.

struct Plan<'m, 'p, 'a, S> {
    members: &'m mut Vec<Member<'p>>,
    node: Node<'static>,
    path: &'a Path<'a>,
    edits: &'m mut Vec<Commit<S>>,
    error: Option<PatchError>,
}

impl<S: 'static> Visit<'_, S> for Plan<'_, '_, '_, S> {
    #[inline]
    fn field<T: PatchField + Normalize + Patchable>(
        &mut self,
        def: &'static FieldDef,
        value: Option<&T>,
        get: fn(&mut S) -> &mut T,
        on_remove: OnRemove<T>,
    ) {
        // Once every member is claimed (a patch names a few fields of many), the rest of the
        // fields cost one check each.
        if self.error.is_some() || self.members.is_empty() {
            return;
        }
        let Some(member) = claim(self.members, &def.name) else {
            return;
        };
        // A struct whose field says `replace` is replaced by the patch value, not merged into:
        // the engine does that (a struct's own `plan` merges, not knowing the parent's
        // strategy). Lists and maps read the strategy themselves.
        let replaced =
            def.strategy.base == BaseStrategy::Replace && matches!(T::DEF, TypeDef::Struct(_));
        let edit = if replaced {
            fallback(value, &member, self.node, self.path)
        } else {
            T::plan(value, &member, self.node, self.path)
        };
        let result = edit.and_then(|edit| {
            commit_field(edit, get, on_remove, member.name, self.path, self.edits)
        });
        if let Err(e) = result {
            self.error = Some(e);
        }
    }

    #[inline]
    fn flat<T: StrategicMerge + Normalize>(&mut self, value: &T, get: fn(&mut S) -> &mut T) {
        if self.error.is_some() {
            return;
        }
        let mut inner = Vec::new();
        if let Err(e) = value.plan_members(self.members, self.path, &mut inner) {
            self.error = Some(e);
            return;
        }
        for commit in inner {
            self.edits.push(Box::new(move |s: &mut S| commit(get(s))));
        }
    }
}

/// Takes the member called `name` out of the list, if there is one; the rest keep their order.
/// Not generic: the visitors are built once per field type, this once.
#[inline(never)]
fn claim<'p>(members: &mut Vec<Member<'p>>, name: &str) -> Option<Member<'p>> {
    let i = members.iter().position(|m| m.name == name)?;
    Some(members.remove(i))
}

/// [`StrategicMerge::plan_members`] of a derived struct.
#[inline]
pub fn plan_fields<S: StrategicMerge>(
    this: &S,
    members: &mut Vec<Member<'_>>,
    path: &Path<'_>,
    edits: &mut Vec<Commit<S>>,
) -> Result<(), PatchError> {
    let mut plan = Plan {
        members,
        node: S::schema(),
        path,
        edits,
        error: None,
    };
    this.visit(&mut plan);
    plan.error.map_or(Ok(()), Err)
}

/// [`PatchField::plan`] of a derived struct: an object patch merges into the struct natively,
/// anything else (no current value, `null`, a list directive) goes to the engine.
#[inline]
pub fn plan_struct<S: StrategicMerge>(
    current: Option<&S>,
    member: &Member<'_>,
    parent: Node<'static>,
    path: &Path<'_>,
) -> Result<super::Edit<S>, PatchError> {
    match (current, member.value, member.directed) {
        (Some(current), Some(Value::Object(map)), false) => {
            current.plan_object(map, &path.field(member.name))
        }
        _ => fallback(current, member, parent, path),
    }
}

// ---------------------------------------------------------------------------------------------
// Creating a patch.

struct Diff<'o, 'p, 'a> {
    node: Node<'static>,
    out: &'o mut Out<'p>,
    path: &'a Path<'a>,
    error: Option<PatchError>,
}

impl Visit2 for Diff<'_, '_, '_> {
    #[inline]
    fn field<T: PatchField + Normalize>(
        &mut self,
        def: &'static FieldDef,
        a: Option<&T>,
        b: Option<&T>,
    ) {
        if self.error.is_some() {
            return;
        }
        let strategy = def.strategy;
        let force = strategy.base == BaseStrategy::Replace || strategy.retain_keys;
        let merge = (strategy.base == BaseStrategy::Merge).then_some(def.merge_key.as_deref());
        let result = super::diff_field(
            a, b, force, merge, &def.name, self.node, self.out, self.path,
        );
        if let Err(e) = result {
            self.error = Some(e);
        }
    }

    #[inline]
    fn flat<T: StrategicMerge + Normalize>(&mut self, a: &T, b: &T) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = a.diff_members(b, self.out, self.path) {
            self.error = Some(e);
        }
    }
}

/// [`StrategicMerge::diff_members`] of a derived struct.
#[inline]
pub fn diff_fields<S: StrategicMerge>(
    this: &S,
    modified: &S,
    out: &mut Out<'_>,
    path: &Path<'_>,
) -> Result<(), PatchError> {
    let mut diff = Diff {
        node: S::schema(),
        out,
        path,
        error: None,
    };
    this.visit2(modified, &mut diff);
    diff.error.map_or(Ok(()), Err)
}

// ---------------------------------------------------------------------------------------------
// Comparing.

struct Same(bool);

impl Visit2 for Same {
    #[inline]
    fn field<T: PatchField + Normalize>(
        &mut self,
        _: &'static FieldDef,
        a: Option<&T>,
        b: Option<&T>,
    ) {
        self.0 = self.0
            && match (a, b) {
                (Some(a), Some(b)) => a.same(b),
                (None, None) => true,
                _ => false,
            };
    }

    #[inline]
    fn flat<T: StrategicMerge + Normalize>(&mut self, a: &T, b: &T) {
        self.0 = self.0 && a.same(b);
    }
}

/// [`PatchField::same`] of a derived struct: field by field, each field's presence first.
#[inline]
pub fn same_fields<S: StrategicMerge>(a: &S, b: &S) -> bool {
    let mut same = Same(true);
    a.visit2(b, &mut same);
    same.0
}

struct Quiet(bool);

impl<S> Visit<'_, S> for Quiet {
    #[inline]
    fn field<T: PatchField + Normalize + Patchable>(
        &mut self,
        def: &'static FieldDef,
        value: Option<&T>,
        _: fn(&mut S) -> &mut T,
        _: OnRemove<T>,
    ) {
        let Some(value) = value else { return };
        self.0 = self.0
            && match def.strategy.base {
                BaseStrategy::Replace => value.replace_quiet(),
                BaseStrategy::Merge => value.merge_quiet(def.merge_key.as_deref()),
                BaseStrategy::Default => value.quiet(),
            };
    }

    #[inline]
    fn flat<T: StrategicMerge + Normalize>(&mut self, value: &T, _: fn(&mut S) -> &mut T) {
        self.0 = self.0 && value.quiet();
    }
}

/// [`PatchField::quiet`] of a derived struct.
#[inline]
pub fn quiet_fields<S: StrategicMerge>(this: &S) -> bool {
    let mut quiet = Quiet(true);
    this.visit(&mut quiet);
    quiet.0
}

// ---------------------------------------------------------------------------------------------
// Fields by name.

/// What is asked of the field found by name: its list key, or its JSON form.
trait Query<'v> {
    type Answer;

    /// The answer for an own field's value.
    fn own<T: PatchField + Normalize>(value: &'v T) -> Option<Self::Answer>;

    /// The answer for field `name` of a flattened struct, if it has one.
    fn flat<T: StrategicMerge + Normalize>(value: &'v T, name: &str) -> Option<Self::Answer>;
}

/// The list key ([`PatchField::key_value`]), borrowed from the struct.
struct Key;

impl<'v> Query<'v> for Key {
    type Answer = KeyRef<'v>;

    #[inline]
    fn own<T: PatchField + Normalize>(value: &'v T) -> Option<KeyRef<'v>> {
        value.key_value()
    }

    #[inline]
    fn flat<T: StrategicMerge + Normalize>(value: &'v T, name: &str) -> Option<KeyRef<'v>> {
        value.key_field(name)
    }
}

/// The JSON form, for pairing list items by key in normalization.
struct Json;

impl<'v> Query<'v> for Json {
    type Answer = Value;

    #[inline]
    fn own<T: PatchField + Normalize>(value: &'v T) -> Option<Value> {
        crate::union_rules::key_of(value)
    }

    #[inline]
    fn flat<T: StrategicMerge + Normalize>(value: &'v T, name: &str) -> Option<Value> {
        value.key_of(name)
    }
}

/// The first field called `name`, own fields before flattened ones; `found` stops the search
/// (an own field shadows a flattened one even when it has no answer).
struct ByName<'n, 'v, Q: Query<'v>> {
    name: &'n str,
    found: bool,
    answer: Option<Q::Answer>,
}

impl<'v, S, Q: Query<'v>> Visit<'v, S> for ByName<'_, 'v, Q> {
    #[inline]
    fn field<T: PatchField + Normalize + Patchable>(
        &mut self,
        def: &'static FieldDef,
        value: Option<&'v T>,
        _: fn(&mut S) -> &mut T,
        _: OnRemove<T>,
    ) {
        if self.found || !same_name(&def.name, self.name) {
            return;
        }
        self.found = true;
        self.answer = value.and_then(Q::own);
    }

    #[inline]
    fn flat<T: StrategicMerge + Normalize>(&mut self, value: &'v T, _: fn(&mut S) -> &mut T) {
        if self.found {
            return;
        }
        if let Some(answer) = Q::flat(value, self.name) {
            self.found = true;
            self.answer = Some(answer);
        }
    }
}

/// `a == b`, first by address: a merge key and the field it names are usually the same string
/// literal of the same crate (lists are keyed once per item, so this is a hot comparison).
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    (a.as_ptr() == b.as_ptr() && a.len() == b.len()) || a == b
}

#[inline]
fn by_name<'v, S: StrategicMerge, Q: Query<'v>>(this: &'v S, name: &str) -> Option<Q::Answer> {
    let mut visitor = ByName::<'_, 'v, Q> {
        name,
        found: false,
        answer: None,
    };
    this.visit(&mut visitor);
    visitor.answer
}

/// [`PatchField::key_field`] of a derived struct: the field's value as a list key, `None` when
/// it is absent, has no cheap key form, or there is no such field.
#[inline]
pub fn key_field<'v, S: StrategicMerge>(this: &'v S, name: &str) -> Option<KeyRef<'v>> {
    by_name::<S, Key>(this, name)
}

/// [`Normalize::key_of`] of a derived struct: the JSON form of field `name`.
#[inline]
pub fn key_of_field<S: StrategicMerge>(this: &S, name: &str) -> Option<Value> {
    by_name::<S, Json>(this, name)
}

// ---------------------------------------------------------------------------------------------
// Unions below the struct.

struct Validate<'p, 'o> {
    path: &'p mut Vec<Segment>,
    out: &'o mut Vec<UnionError>,
}

impl<S> Visit<'_, S> for Validate<'_, '_> {
    #[inline]
    fn field<T: PatchField + Normalize + Patchable>(
        &mut self,
        def: &'static FieldDef,
        value: Option<&T>,
        _: fn(&mut S) -> &mut T,
        _: OnRemove<T>,
    ) {
        let Some(value) = value else { return };
        self.path.push(Segment::Field(def.name.to_string()));
        value.validate_member(pairing_key(def), self.path, self.out);
        self.path.pop();
    }

    #[inline]
    fn flat<T: StrategicMerge + Normalize>(&mut self, value: &T, _: fn(&mut S) -> &mut T) {
        value.validate_member(None, self.path, self.out);
    }
}

/// The field part of [`Normalize::validate_member`] of a derived struct (its own unions are
/// checked by generated code first).
#[inline]
pub fn validate_fields<S: StrategicMerge>(
    this: &S,
    path: &mut Vec<Segment>,
    out: &mut Vec<UnionError>,
) {
    this.visit(&mut Validate { path, out });
}

struct NormalizeFields;

impl VisitMut for NormalizeFields {
    #[inline]
    fn field<T: PatchField + Normalize>(
        &mut self,
        def: &'static FieldDef,
        value: Option<&mut T>,
        old: Option<&T>,
    ) {
        if let Some(value) = value {
            value.normalize_member(old, pairing_key(def));
        }
    }

    #[inline]
    fn flat<T: StrategicMerge + Normalize>(&mut self, value: &mut T, old: Option<&T>) {
        value.normalize_member(old, None);
    }
}

/// The field part of [`Normalize::normalize_member`] of a derived struct (its own unions are
/// normalized by generated code first).
#[inline]
pub fn normalize_fields<S: StrategicMerge>(this: &mut S, old: Option<&S>) {
    this.visit_mut(old, &mut NormalizeFields);
}
