//! Creating strategic merge patches: the client side of SMP.
//!
//! * [`diff`] / [`diff_with`]: the two-way patch that turns `original` into `modified`
//!   (upstream `CreateTwoWayMergePatch`);
//! * [`three_way`]: the `kubectl apply` patch from the last-applied configuration, the new
//!   configuration and the live object, with conflict detection (upstream
//!   `CreateThreeWayMergePatch`);
//! * [`merging_maps_have_conflicts`] and [`has_conflicts`]: the conflict predicates.
//!
//! Every created patch applies with [`crate::apply()`]. Inputs: `null` counts as `{}`; any other
//! non-object root is [`PatchError::InvalidDocument`].
//!
//! Schema lookups. The apply engine is lenient about fields its schema does not know; creation
//! is lenient too, with one exception that upstream's corpus requires: when an object or list
//! member that a *struct* does not declare differs between the two documents, there is no
//! metadata to diff it by and creation fails with [`PatchError::UnknownField`] (upstream
//! `unable to find api field`). Members of maps and of opaque (schema-less) values are never
//! errors: they diff with the default strategy. Unknown members with equal values, and unknown
//! scalars, are fine. The conflict predicate looks fields up leniently (default strategy).
//!
//! Deliberate differences from upstream's output (none is visible to the corpus):
//! * a `merge` list of primitives that did not change yields no `$setElementOrder` even when
//!   it is not in printed-form order (upstream sorts `original` in place before comparing,
//!   FORMAT §12), so `[2,1]` to `[2,1]` gives `{}`;
//! * `$deleteFromPrimitiveList` values are de-duplicated keeping their sorted order (upstream's
//!   de-duplication swaps elements);
//! * lists whose items mix JSON types are errors whatever the numbers' kinds (upstream also
//!   rejects mixing integers with floats).

mod composite;
mod conflicts;
mod lists;
mod printed;
pub(crate) mod three_way;
mod two_way;

pub(crate) use composite::Tagging;
pub(crate) use two_way::SET_ELEMENT_ORDER;

use serde_json::{Map, Value};

use crate::apply::Path;
use crate::error::{DocRole, JsonPath, PatchError, Segment, kind_of};
use crate::schema::{FieldMeta, Node};

pub use conflicts::{has_conflicts, merging_maps_have_conflicts};
pub use three_way::three_way;

/// What a two-way diff reports (upstream `DiffOptions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiffOptions {
    /// Leave additions and changes out of the patch (only deletions remain).
    pub ignore_changes_and_additions: bool,
    /// Leave deletions out of the patch.
    pub ignore_deletions: bool,
    /// Emit `$setElementOrder/<f>` lists for merged lists. Default `true`.
    pub set_element_order: bool,
    /// Whether lists with recommended merge keys are diffed by them, with `$patchMergeKey`.
    /// Default [`PatchMergeKey::Omit`].
    pub patch_merge_key: PatchMergeKey,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            ignore_changes_and_additions: false,
            ignore_deletions: false,
            set_element_order: true,
            patch_merge_key: PatchMergeKey::Omit,
        }
    }
}

/// Whether created patches use recommended (multi-field) merge keys, which takes the
/// `$patchMergeKey` directive of the proposal.
///
/// No Kubernetes API server implements the directive: a server merges by the merge key alone
/// and keeps `$patchMergeKey` as a literal field of the item (or, asked for strict field
/// validation, rejects it as unknown). So patches meant for a server are created without it,
/// by default; [`PatchMergeKey::Emit`] is for appliers that implement the proposal (smp's
/// own `apply`), where 53/TCP and 53/UDP stay two Service ports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PatchMergeKey {
    /// Lists merge by their merge key alone, and no item carries `$patchMergeKey`: the patch
    /// upstream creates, for any API server. The default.
    #[default]
    Omit,
    /// Items of lists with recommended keys are told apart by all of them and carry
    /// `$patchMergeKey` listing them (on `$setElementOrder` items too).
    Emit,
}

impl PatchMergeKey {
    /// The schema node patch creation walks with this setting.
    pub(crate) fn view(self, node: Node<'_>) -> Node<'_> {
        match self {
            PatchMergeKey::Omit => node.without_recommended_keys(),
            PatchMergeKey::Emit => node,
        }
    }
}

/// What a three-way patch does where others changed the live object too (`kubectl apply
/// --overwrite`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Conflicts {
    /// The patch sets what `modified` asks for, whatever others changed: what `kubectl apply`
    /// does by default. The default.
    #[default]
    Overwrite,
    /// The call fails with [`PatchError::Conflict`] where the patch would undo a change made by
    /// others (the diff from the last-applied configuration to the live object) with another
    /// value: `kubectl apply --overwrite=false`.
    Refuse,
}

/// Options of [`three_way`] (and of the typed `StrategicMerge::three_way`). The default is
/// what `kubectl apply` does: overwrite, no preconditions.
///
/// ```
/// use smp_core::{Conflicts, Precondition, ThreeWayOptions};
///
/// let careful = ThreeWayOptions {
///     conflicts: Conflicts::Refuse,
///     preconditions: vec![Precondition::MetadataKeyUnchanged("name".into())],
///     ..ThreeWayOptions::default()
/// };
/// assert_eq!(ThreeWayOptions::default().conflicts, Conflicts::Overwrite);
/// # let _ = careful;
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ThreeWayOptions {
    /// What to do where others changed the live object.
    pub conflicts: Conflicts,
    /// Checks on the created patch (upstream `PreconditionFunc`s), run in order.
    pub preconditions: Vec<Precondition>,
    /// Whether lists with recommended merge keys are diffed by them, with `$patchMergeKey`.
    /// Default [`PatchMergeKey::Omit`] (no API server implements the directive).
    pub patch_merge_key: PatchMergeKey,
}

impl Conflicts {
    /// The value that kubectl's `--overwrite` flag (`true` by default) selects: for code that
    /// passes such a flag on.
    pub fn from_overwrite_flag(overwrite: bool) -> Conflicts {
        if overwrite {
            Conflicts::Overwrite
        } else {
            Conflicts::Refuse
        }
    }
}

impl ThreeWayOptions {
    /// No preconditions, and `conflicts` as given.
    pub fn with_conflicts(conflicts: Conflicts) -> ThreeWayOptions {
        ThreeWayOptions {
            conflicts,
            ..ThreeWayOptions::default()
        }
    }

    /// No preconditions, and conflicts refused (`kubectl apply --overwrite=false`).
    pub fn refusing_conflicts() -> ThreeWayOptions {
        ThreeWayOptions::with_conflicts(Conflicts::Refuse)
    }
}

/// A check on a created patch (upstream `PreconditionFunc`s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Precondition {
    /// The patch must not have this top-level member (upstream `RequireKeyUnchanged`).
    KeyUnchanged(String),
    /// The patch must not have this member inside a `metadata` object (upstream
    /// `RequireMetadataKeyUnchanged`).
    MetadataKeyUnchanged(String),
}

impl Precondition {
    /// Checks `patch`; `Err` names the offending member.
    pub fn check(&self, patch: &Value) -> Result<(), PatchError> {
        match self {
            Precondition::KeyUnchanged(key) => {
                if patch.get(key).is_some() && patch.is_object() {
                    return Err(PatchError::PreconditionFailed {
                        path: JsonPath::root(),
                        key: key.clone(),
                    });
                }
            }
            Precondition::MetadataKeyUnchanged(key) => {
                if let Some(Value::Object(meta)) = patch.get("metadata") {
                    if meta.contains_key(key) {
                        return Err(PatchError::PreconditionFailed {
                            path: JsonPath(vec![Segment::Field("metadata".to_owned())]),
                            key: key.clone(),
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

/// The two-way patch that turns `original` into `modified` (upstream
/// `CreateTwoWayMergePatch`), with default options.
pub fn diff<'s>(
    original: &Value,
    modified: &Value,
    schema: impl Into<Node<'s>>,
) -> Result<Value, PatchError> {
    diff_with(original, modified, schema, &DiffOptions::default())
}

/// [`diff`] with explicit options.
pub fn diff_with<'s>(
    original: &Value,
    modified: &Value,
    schema: impl Into<Node<'s>>,
    options: &DiffOptions,
) -> Result<Value, PatchError> {
    // The walk checks the depth as it goes down, and checks what it copies or compares whole
    // (see `Path::check_nesting`): parts of the documents it never reaches are not walked.
    let original = object_root(original, DocRole::Original)?;
    let modified = object_root(modified, DocRole::Modified)?;
    let patch = diff_at(original, modified, schema.into(), options, &Path::root())?;
    Ok(Value::Object(patch))
}

/// [`diff`] of two objects found at `path` of larger documents (the typed diff hands the
/// engine one member at a time): errors name the full path. The caller guarantees the depth
/// (its values come from serializing typed values that are being diffed level by level).
pub(crate) fn diff_at(
    original: &Map<String, Value>,
    modified: &Map<String, Value>,
    node: Node<'_>,
    options: &DiffOptions,
    path: &Path<'_>,
) -> Result<Map<String, Value>, PatchError> {
    let node = options.patch_merge_key.view(node);
    let tagging = composite::Tagging::start();
    let patch = two_way::diff_maps(original, modified, node, options, false, path)?;
    let mut patch = Value::Object(patch);
    tagging.finish(&mut patch);
    match patch {
        Value::Object(map) => Ok(map),
        _ => Ok(Map::new()),
    }
}

static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();

/// The object at the root of an input (`null` is `{}`), after the depth check.
fn root(doc: &Value, role: DocRole) -> Result<&Map<String, Value>, PatchError> {
    let map = object_root(doc, role)?;
    crate::deep::check(doc)?;
    Ok(map)
}

/// The object at the root of an input (`null` is `{}`).
fn object_root(doc: &Value, role: DocRole) -> Result<&Map<String, Value>, PatchError> {
    match doc {
        Value::Null => Ok(EMPTY.get_or_init(Map::new)),
        Value::Object(map) => Ok(map),
        other => Err(PatchError::InvalidDocument {
            role,
            detail: format!("expected a JSON object, found {}", kind_of(other)),
        }),
    }
}

/// Metadata for member `key` whose two values are both objects or both lists. `None` when the
/// schema's struct does not declare it but the values are equal (nothing to diff); an error
/// when it does not declare it and they differ. See the module documentation.
fn lookup<'s>(
    node: Node<'s>,
    key: &str,
    a: &Value,
    b: &Value,
    path: &Path<'_>,
) -> Result<Option<FieldMeta<'s>>, PatchError> {
    let meta = node.field(key);
    if meta.declared || node.keeps_unknown_members() {
        return Ok(Some(meta));
    }
    two_way::whole(key, a, b, path)?;
    if a == b {
        return Ok(None);
    }
    Err(PatchError::UnknownField {
        path: path.field(key).to_json_path(),
        field: key.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn roots_preconditions_and_conflicts() {
        let node = Node::opaque();
        assert_eq!(
            diff(&Value::Null, &json!({"a": 1}), node),
            Ok(json!({"a": 1}))
        );
        assert!(matches!(
            diff(&json!([1]), &json!({}), node),
            Err(PatchError::InvalidDocument { .. })
        ));
        let options = ThreeWayOptions {
            preconditions: vec![Precondition::MetadataKeyUnchanged("name".into())],
            ..ThreeWayOptions::default()
        };
        let err = three_way(
            &json!({}),
            &json!({"metadata": {"name": "b"}}),
            &json!({"metadata": {"name": "a"}}),
            node,
            &options,
        )
        .unwrap_err();
        assert!(
            matches!(err, PatchError::PreconditionFailed { .. }),
            "{err}"
        );
        let err = three_way(
            &json!({"a": {"b": 1}}),
            &json!({"a": {"b": 2}}),
            &json!({"a": {"b": 3}}),
            node,
            &ThreeWayOptions::refusing_conflicts(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("conflict"), "{err}");
        assert_eq!(err.path().map(ToString::to_string).as_deref(), Some("a.b"));
        assert!(has_conflicts(&json!(0), &json!(0.0)));
        assert!(!has_conflicts(
            &json!({"a": [1]}),
            &json!({"a": [1], "b": 2})
        ));
    }

    /// A conflict inside a large merged list names the item and the field, and the message
    /// shows bounded excerpts of both sides, not the whole patches.
    #[test]
    fn conflicts_name_the_item_and_stay_short() {
        let doc = json!({"definitions": {"S": {"properties": {
            "containers": {"type": "array", "items": {"$ref": "#/definitions/C"},
                "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name"}}},
            "C": {"properties": {"name": {"type": "string"}, "image": {"type": "string"}}}}});
        let schema = crate::Schema::from_openapi(&doc, "S").unwrap();
        let list = |image: &dyn Fn(usize) -> String| {
            json!({"containers": (0..1000)
                .map(|i| json!({"name": format!("c{i}"), "image": image(i)}))
                .collect::<Vec<_>>()})
        };
        let original = list(&|_| "a".to_owned());
        let modified = list(&|i| {
            if i == 500 {
                "b".repeat(500)
            } else {
                "a".to_owned()
            }
        });
        let current = list(&|i| {
            if i == 500 {
                "c".to_owned()
            } else {
                "a".to_owned()
            }
        });
        let err = three_way(
            &original,
            &modified,
            &current,
            &schema,
            &ThreeWayOptions::refusing_conflicts(),
        )
        .unwrap_err();
        assert_eq!(
            err.path().map(ToString::to_string).as_deref(),
            Some("containers[name=c500].image")
        );
        let message = err.to_string();
        assert!(message.len() < 400, "{} bytes: {message}", message.len());
        assert!(message.contains("\"c\""), "{message}");
    }
}
