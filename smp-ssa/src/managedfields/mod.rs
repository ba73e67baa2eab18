//! The API server's field manager, offline: every write of an object recorded in its
//! `metadata.managedFields`, applies merged with their conflicts found, as
//! `k8s.io/apimachinery`'s field manager does it over [`crate::merge`].
//!
//! ```
//! use serde_json::json;
//! use smp_ssa::managedfields::{ApplyOptions, Clock, FieldManager};
//! use smp_ssa::schema::from_openapi_v3;
//!
//! let doc = json!({"components": {"schemas": {"Widget": {
//!     "type": "object",
//!     "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Widget"}],
//!     "properties": {
//!         "apiVersion": {"type": "string"}, "kind": {"type": "string"},
//!         "metadata": {"type": "object", "properties": {"name": {"type": "string"}}},
//!         "spec": {"type": "object", "properties": {"size": {"type": "integer"}, "color": {"type": "string"}}}
//!     }
//! }}}});
//! let schema = from_openapi_v3([&doc])?;
//! let fm = FieldManager::new(&schema, "example.com/v1", "Widget")?
//!     .clock(Clock::fixed("2026-11-26T12:00:00Z").unwrap());
//! let widget = |spec| json!({"apiVersion": "example.com/v1", "kind": "Widget",
//!                            "metadata": {"name": "w"}, "spec": spec});
//! let live = fm.apply(None, &widget(json!({"size": 1})), "alice", ApplyOptions::default())?;
//! assert_eq!(live["metadata"]["managedFields"][0]["manager"], "alice");
//! // Bob may not change what Alice owns, unless he forces it.
//! let refused = fm.apply(Some(&live), &widget(json!({"size": 2})), "bob", ApplyOptions::default());
//! assert_eq!(
//!     refused.unwrap_err().to_string(),
//!     r#"Apply failed with 1 conflict: conflict with "alice": .spec.size"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod conflict;
mod entry;
mod manager;
mod time;
mod typed;

pub use conflict::{ApplyConflict, print_manager};
pub use entry::{
    Managed, ManagedFieldsEntry, ManagedFieldsError, Operation, decode, encode, manager_identifier,
    to_value,
};
pub use manager::{
    ApplyOptions, FieldManager, FieldManagerError, LAST_APPLIED, MAX_UPDATE_MANAGERS,
};
pub use time::{Clock, read_time, write_time};
pub use typed::TypedFieldManager;
