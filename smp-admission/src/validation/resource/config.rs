//! Driver configuration of a class or a claim (`validateDeviceConfiguration`): an opaque
//! configuration, which names its driver and holds parameters only the driver reads.

use serde_json::Value;

use super::driver_name;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::read;

/// The most bytes of an opaque configuration's parameters, when first written.
const OPAQUE_PARAMETERS_MAX_LENGTH: usize = 10 * 1024;

/// `validateDeviceConfiguration`: `opaque` is required. `stored` says the configuration was
/// accepted before, when the size limit did not apply yet.
pub(super) fn device_configuration(
    config: &Value,
    stored: bool,
    path: &Path,
    errs: &mut ErrorList,
) {
    let at = path.child("opaque");
    match config.get("opaque").filter(|o| o.is_object()) {
        None => errs.push(field::required(&at, "")),
        Some(opaque) => {
            driver_name(read::text(opaque, "driver"), &at.child("driver"), errs);
            raw_extension(
                opaque.get("parameters"),
                stored,
                OPAQUE_PARAMETERS_MAX_LENGTH,
                &at.child("parameters"),
                errs,
            );
        }
    }
}

/// `validateRawExtension`: present and not `null`, a JSON object, and (unless stored) at
/// most `max` bytes. The size is that of the compact JSON: the bytes the client sent are gone.
pub(super) fn raw_extension(
    raw: Option<&Value>,
    stored: bool,
    max: usize,
    path: &Path,
    errs: &mut ErrorList,
) {
    let Some(raw) = raw.filter(|r| !r.is_null()) else {
        errs.push(field::required(path, ""));
        return;
    };
    if !stored {
        let size = serde_json::to_string(raw).map_or(0, |s| s.len());
        if size > max {
            errs.push(field::too_long(path, max as i64));
            return;
        }
    }
    if !raw.is_object() {
        errs.push(field::invalid(
            path,
            BadValue::from("<value omitted>"),
            "must be a valid JSON object",
        ));
    }
}
