//! The merge of server-side apply: applying a configuration and recording an update, with each
//! manager's fields kept up to date, conflicts found, and fields a manager stopped applying
//! removed. This is the layer under the API server's field manager: it knows managers by their
//! identifiers and sets, not managedFields entries or objects' metadata.
//!
//! One version per object: every manager's set is read against the same schema, whatever API
//! version it was recorded at (the server would convert between versions; a kind served at
//! several versions with different shapes is not modelled).

mod conflict;

use std::collections::BTreeMap;

use serde_json::Value;

pub(crate) use conflict::quote as conflict_quote;
pub use conflict::{Conflict, Conflicts};

use crate::fieldpath::Set;
use crate::schema::{Schema, TypeRef};
use crate::typed::{
    Comparison, ReadOptions, ValidationErrors, Walking, compare_with, field_set_with, merge_with,
    named_fields_as_members, reconcile_with_schema, remove_items,
};

/// The fields one manager owns, the API version it wrote them at, and whether by an apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionedSet {
    /// The fields.
    pub set: Set,
    /// The API version (`apps/v1`).
    pub api_version: String,
    /// Whether the manager wrote them by an apply (rather than an update).
    pub applied: bool,
}

/// Every manager's fields, by manager identifier.
pub type ManagedFields = BTreeMap<String, VersionedSet>;

/// Why an apply or an update failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// The applied configuration, or an object, does not fit its type.
    #[error("{0}")]
    Invalid(#[from] ValidationErrors),
    /// The apply would change fields other managers own.
    #[error(transparent)]
    Conflicts(#[from] Conflicts),
}

/// Applies and updates objects of one type of a schema.
#[derive(Debug, Clone, Copy)]
pub struct Updater<'s> {
    schema: &'s Schema,
    ty: TypeRef,
    /// Fields no manager is given, taken or checked on (the parts of an object a subresource
    /// does not write).
    ignored: Option<&'s Set>,
    walking: Walking,
}

impl<'s> Updater<'s> {
    /// An updater of objects of type `ty`.
    pub fn new(schema: &'s Schema, ty: TypeRef) -> Updater<'s> {
        Updater {
            schema,
            ty,
            ignored: None,
            walking: Walking::default(),
        }
    }

    /// The same, for whole objects that may carry their `metadata.managedFields`: walks pass
    /// over them, and merged objects come without them.
    pub(crate) fn over_objects(self) -> Updater<'s> {
        Updater {
            walking: Walking {
                skip_managed_fields: true,
                ..self.walking
            },
            ..self
        }
    }

    /// The same, with the fields of `ignored` (and all below them) left out of every change.
    pub fn ignoring(self, ignored: &'s Set) -> Updater<'s> {
        Updater {
            ignored: Some(ignored),
            ..self
        }
    }

    fn filter(&self, set: Set) -> Set {
        match self.ignored {
            Some(ignored) => set.recursive_difference(ignored),
            None => set,
        }
    }

    /// Each manager's set made to fit the schema: fields that became atomic owned whole.
    fn reconcile(&self, managers: &mut ManagedFields) {
        for owned in managers.values_mut() {
            if let Some(set) = reconcile_with_schema(self.schema, self.ty, &owned.set) {
                owned.set = set;
            }
        }
    }

    fn fields(&self, value: &Value) -> Result<Set, ValidationErrors> {
        field_set_with(
            self.schema,
            self.ty,
            value,
            ReadOptions {
                allow_duplicates: true,
            },
            self.walking,
        )
    }

    /// Records a write of `new` over `live` by `manager` (not an apply): the manager takes the
    /// fields it added or changed, and every manager loses those it removed or (forced) those
    /// it changed.
    pub fn update(
        &self,
        live: &Value,
        new: &Value,
        version: &str,
        mut managers: ManagedFields,
        manager: &str,
    ) -> Result<ManagedFields, MergeError> {
        self.reconcile(&mut managers);
        let comparison = self.update_managers(live, new, &mut managers, manager, true)?;
        let own = managers.remove(manager).map(|s| s.set).unwrap_or_default();
        let set = own
            .difference(&comparison.removed)
            .union(&comparison.modified)
            .union(&comparison.added);
        let set = self.filter(set);
        if !set.is_empty() {
            managers.insert(
                manager.to_owned(),
                VersionedSet {
                    set,
                    api_version: version.to_owned(),
                    applied: false,
                },
            );
        }
        Ok(managers)
    }

    /// Applies `config` over `live` for `manager`: the merged object, fields the manager no
    /// longer applies pruned (unless another manager owns them), and the managers' fields
    /// after it; or the conflicts with other managers, unless `force` takes their fields.
    pub fn apply(
        &self,
        live: &Value,
        config: &Value,
        version: &str,
        mut managers: ManagedFields,
        manager: &str,
        force: bool,
    ) -> Result<(Value, ManagedFields), MergeError> {
        self.reconcile(&mut managers);
        // The configuration may not name an item twice (the live object may): reading its
        // fields checks it.
        let set = field_set_with(
            self.schema,
            self.ty,
            config,
            ReadOptions::default(),
            self.walking,
        )?;
        // The configuration was checked by reading its fields.
        let walking = Walking {
            checked_rhs: true,
            ..self.walking
        };
        let merged = merge_with(self.schema, self.ty, live, config, walking)?;
        let last = managers.remove(manager);
        managers.insert(
            manager.to_owned(),
            VersionedSet {
                set: self.filter(set),
                api_version: version.to_owned(),
                applied: true,
            },
        );
        let new = match last {
            Some(last) if self.prunes(&last.set, &managers) => {
                self.prune(&merged, &managers, &last.set)?
            }
            _ => merged,
        };
        if managers.keys().any(|m| m != manager) {
            self.update_managers(live, &new, &mut managers, manager, force)?;
        } else {
            // No other manager to check or take fields from: the comparison would change
            // nothing.
            managers.retain(|_, owned| !owned.set.is_empty());
        }
        Ok((new, managers))
    }

    /// Takes from `managers` (all but `manager`) the fields `new` removed from `live`, and
    /// those it changed (an error instead when not `force`d).
    fn update_managers(
        &self,
        live: &Value,
        new: &Value,
        managers: &mut ManagedFields,
        manager: &str,
        force: bool,
    ) -> Result<Comparison, MergeError> {
        let c = compare_with(self.schema, self.ty, live, new, self.walking)?;
        let c = Comparison {
            removed: self.filter(c.removed),
            modified: self.filter(c.modified),
            added: self.filter(c.added),
        };
        let changed = c.modified.union(&c.added);
        let mut conflicts: Vec<(String, Set)> = Vec::new();
        for (name, owned) in managers.iter() {
            if name == manager {
                continue;
            }
            let conflict = owned.set.intersection(&changed);
            if !conflict.is_empty() {
                conflicts.push((name.clone(), conflict));
            }
        }
        if !force && !conflicts.is_empty() {
            return Err(Conflicts(
                conflicts
                    .into_iter()
                    .flat_map(|(manager, set)| {
                        set.paths().into_iter().map(move |path| Conflict {
                            manager: manager.clone(),
                            path,
                        })
                    })
                    .collect(),
            )
            .into());
        }
        for (name, conflict) in conflicts {
            if let Some(owned) = managers.get_mut(&name) {
                owned.set = owned.set.difference(&conflict);
            }
        }
        if !c.removed.is_empty() {
            for (name, owned) in managers.iter_mut() {
                if name != manager {
                    owned.set = owned.set.difference(&c.removed);
                }
            }
        }
        managers.retain(|_, owned| !owned.set.is_empty());
        Ok(c)
    }

    /// Whether pruning can take anything out: only fields of the last apply that no manager
    /// owns now go (pruning keeps every owned field and what is above it), so when every one
    /// is owned the merged object stands as it is.
    fn prunes(&self, last: &Set, managers: &ManagedFields) -> bool {
        let mut rest = last.clone();
        for owned in managers.values() {
            if rest.is_empty() {
                break;
            }
            rest = rest.difference(&owned.set);
        }
        !rest.is_empty()
    }

    /// `merged` without the fields the applying manager applied last time (`last`) and not
    /// now, unless another manager (or the applier again) owns them.
    fn prune(
        &self,
        merged: &Value,
        managers: &ManagedFields,
        last: &Set,
    ) -> Result<Value, MergeError> {
        let named = |set: &Set| named_fields_as_members(self.schema, self.ty, set);
        let pruned = remove_items(self.schema, self.ty, merged, &named(last));
        // Back what any manager owns.
        let merged_set = named(&self.fields(merged)?);
        let owned = managers
            .values()
            .fold(Set::new(), |all, owned| all.union(&owned.set));
        let kept = named(&self.fields(&pruned)?).union(&named(&owned));
        let pruned = remove_items(self.schema, self.ty, merged, &merged_set.difference(&kept));
        // Back what the last apply did not hold: only its own fields go.
        let pruned_set = named(&self.fields(&pruned)?);
        let gone = merged_set
            .difference(&pruned_set)
            .intersection(&named(last));
        Ok(remove_items(self.schema, self.ty, merged, &gone))
    }
}
