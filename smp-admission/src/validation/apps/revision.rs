//! ControllerRevision (`ValidateControllerRevisionCreate`, `ValidateControllerRevisionUpdate`):
//! `data` must hold a JSON object on create and never changes.

use serde_json::Value;

use super::shared::non_negative;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::{
    validate_immutable, validate_object_meta, validate_object_meta_update,
};
use crate::validation::names;
use crate::validation::read;

/// The metadata and `revision` rules shared by create and update.
fn common(obj: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    non_negative(
        read::int(obj, "revision"),
        &Path::new("revision"),
        &mut errs,
    );
    errs
}

pub(super) fn controller_revision(obj: &Value) -> ErrorList {
    let mut errs = common(obj);
    let data = Path::new("data");
    // A JSON body always parses here; absent and null both leave the raw data empty.
    match obj.get("data") {
        None | Some(Value::Null) => errs.push(field::required(&data, "data is mandatory")),
        Some(Value::Object(_)) => {}
        Some(_) => errs.push(field::required(&data, "data must be a valid JSON object")),
    }
    errs
}

pub(super) fn controller_revision_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    errs.extend(common(new));
    validate_immutable(
        new.get("data"),
        old.get("data"),
        &Path::new("data"),
        &mut errs,
    );
    errs
}
