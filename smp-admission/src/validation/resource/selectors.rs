//! Device selectors (`validateSelector`): a CEL expression a device must satisfy, compiled
//! by the server when the object is written.

use serde_json::Value;

use super::{DEVICE_SELECTORS_MAX, each_item};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::read;

/// The longest selector expression.
const CEL_EXPRESSION_MAX_LENGTH: usize = 10 * 1024;

/// `validateSelectorSlice`: at most 32 selectors, each with a `cel` expression.
pub(super) fn selectors(list: &[Value], path: &Path, errs: &mut ErrorList) {
    each_item(
        list,
        DEVICE_SELECTORS_MAX,
        path,
        errs,
        |selector, at, errs| {
            selector_one(selector, at, errs);
        },
    );
}

/// `validateSelector`: `cel` is required, its expression at most 10 KiB and one that
/// compiles. The expression is parsed here; what cel-go's type check and cost estimate add
/// (unknown names, a result that is not a bool, the cost limit) is not checked.
pub(super) fn selector_one(selector: &Value, path: &Path, errs: &mut ErrorList) {
    let at = path.child("cel");
    let Some(cel) = selector.get("cel").filter(|c| c.is_object()) else {
        errs.push(field::required(&at, ""));
        return;
    };
    let expression = read::text(cel, "expression");
    let expression_path = at.child("expression");
    if expression.len() > CEL_EXPRESSION_MAX_LENGTH {
        errs.push(field::too_long(
            &expression_path,
            CEL_EXPRESSION_MAX_LENGTH as i64,
        ));
        return;
    }
    if let Err(e) = crate::cel::compile(expression) {
        errs.push(field::invalid(
            &expression_path,
            expression,
            &format!("compilation failed: {e}"),
        ));
    }
}
