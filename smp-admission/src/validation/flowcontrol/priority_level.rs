//! PriorityLevelConfiguration (`ValidatePriorityLevelConfiguration`, as the strategy calls it
//! on create and on update, with no options: a limited level's shares may be 0).

use serde_json::{Value, json};

use super::{CATCH_ALL, EXEMPT, field, metadata, name_of, spec_of, validate_status};
use crate::validation::field::{BadValue, ErrorList, Path};
use crate::validation::read;

/// The annotation v1beta3 used to keep a zero share count through a round trip; an object
/// of the internal version never carries it.
const ROUNDTRIP_ANNOTATION: &str = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares";

const TYPES: [&str; 2] = ["Exempt", "Limited"];
const LIMIT_RESPONSE_TYPES: [&str; 2] = ["Queue", "Reject"];

/// The most queues a level may have: 10^7.
const MAX_QUEUES: i64 = 10_000_000;
/// The most bits of a hash that shuffle sharding may consume.
const MAX_HASH_BITS: i64 = 60;

const NON_NEGATIVE: &str = "must be a non-negative integer";
const PERCENT: &str = "must be between 0 and 100, inclusive";
const POSITIVE: &str = "must be positive";

/// Create: the object as the strategy leaves it, without status.
pub(super) fn priority_level(obj: &Value) -> ErrorList {
    validate(obj, None)
}

/// Update: the same checks of the new object, with the old status.
pub(super) fn priority_level_update(new: &Value, old: &Value) -> ErrorList {
    validate(new, old.get("status"))
}

fn validate(obj: &Value, status: Option<&Value>) -> ErrorList {
    let mut errs = metadata(obj);
    let annotations = obj
        .get("metadata")
        .and_then(|m| read::object(m, "annotations"));
    if annotations.is_some_and(|a| a.contains_key(ROUNDTRIP_ANNOTATION)) {
        errs.push(field::forbidden(
            &Path::names(&["metadata", "annotations"]),
            &format!("annotation '{ROUNDTRIP_ANNOTATION}' is forbidden"),
        ));
    }
    let name = name_of(obj);
    let spec = spec_of(obj);
    validate_spec(name, spec, &mut errs);
    validate_mandatory(name, spec, &mut errs);
    validate_status(status, &mut errs);
    errs
}

/// `ValidatePriorityLevelConfigurationSpec`: the type (`Exempt` for the level named `exempt`
/// and for no other), then the member it calls for.
fn validate_spec(name: &str, spec: &Value, errs: &mut ErrorList) {
    let path = Path::new("spec");
    let kind = read::text(spec, "type");
    if (name == EXEMPT) != (kind == "Exempt") {
        errs.push(field::invalid(
            &path.child("type"),
            BadValue::Json(Value::from(kind)),
            "must be 'Exempt' if and only if `name` is 'exempt'",
        ));
    }
    let limited = read::member(spec, "limited").set_object();
    let exempt = read::member(spec, "exempt").set_object();
    match kind {
        "Exempt" => {
            if limited.is_some() {
                errs.push(field::forbidden(
                    &path.child("limited"),
                    "must be nil if the type is not Limited",
                ));
            }
            if let Some(exempt) = exempt {
                validate_exempt(exempt, &path.child("exempt"), errs);
            }
        }
        "Limited" => {
            if exempt.is_some() {
                errs.push(field::forbidden(
                    &path.child("exempt"),
                    "must be nil if the type is Limited",
                ));
            }
            match limited {
                Some(limited) => validate_limited(limited, &path.child("limited"), errs),
                None => errs.push(field::required(
                    &path.child("limited"),
                    "must not be empty when type is Limited",
                )),
            }
        }
        other => errs.push(field::not_supported(
            &path.child("type"),
            BadValue::Json(Value::from(other)),
            &TYPES,
        )),
    }
}

/// `ValidateExemptPriorityLevelConfiguration`.
fn validate_exempt(exempt: &Value, path: &Path, errs: &mut ErrorList) {
    if let Some(shares) = read::opt_int(exempt, "nominalConcurrencyShares").filter(|s| *s < 0) {
        errs.push(field::invalid(
            &path.child("nominalConcurrencyShares"),
            shares,
            NON_NEGATIVE,
        ));
    }
    validate_lendable(exempt, path, errs);
}

/// `lendablePercent`, when set, is a percentage.
fn validate_lendable(holder: &Value, path: &Path, errs: &mut ErrorList) {
    if let Some(lendable) = read::opt_int(holder, "lendablePercent")
        && !(0..=100).contains(&lendable)
    {
        errs.push(field::invalid(
            &path.child("lendablePercent"),
            lendable,
            PERCENT,
        ));
    }
}

/// `ValidateLimitedPriorityLevelConfiguration`.
fn validate_limited(limited: &Value, path: &Path, errs: &mut ErrorList) {
    let shares = read::int(limited, "nominalConcurrencyShares");
    if shares < 0 {
        errs.push(field::invalid(
            &path.child("nominalConcurrencyShares"),
            shares,
            NON_NEGATIVE,
        ));
    }
    let response = limited.get("limitResponse").unwrap_or(&Value::Null);
    validate_limit_response(response, &path.child("limitResponse"), errs);
    validate_lendable(limited, path, errs);
    if let Some(borrowing) = read::opt_int(limited, "borrowingLimitPercent").filter(|b| *b < 0) {
        errs.push(field::invalid(
            &path.child("borrowingLimitPercent"),
            borrowing,
            "if specified, must be a non-negative integer",
        ));
    }
}

/// `ValidateLimitResponse`: queuing parameters exactly when requests queue.
fn validate_limit_response(response: &Value, path: &Path, errs: &mut ErrorList) {
    let queuing = read::member(response, "queuing").set_object();
    match read::text(response, "type") {
        "Reject" => {
            if queuing.is_some() {
                errs.push(field::forbidden(
                    &path.child("queuing"),
                    "must be nil if limited.limitResponse.type is not Limited",
                ));
            }
        }
        "Queue" => match queuing {
            Some(queuing) => validate_queuing(queuing, &path.child("queuing"), errs),
            None => errs.push(field::required(
                &path.child("queuing"),
                "must not be empty if limited.limitResponse.type is Limited",
            )),
        },
        other => errs.push(field::not_supported(
            &path.child("type"),
            BadValue::Json(Value::from(other)),
            &LIMIT_RESPONSE_TYPES,
        )),
    }
}

/// `ValidatePriorityLevelQueuingConfiguration`: positive sizes, and a hand that shuffle
/// sharding can deal from the deck of queues.
fn validate_queuing(queuing: &Value, path: &Path, errs: &mut ErrorList) {
    let length = read::int(queuing, "queueLengthLimit");
    if length <= 0 {
        errs.push(field::invalid(
            &path.child("queueLengthLimit"),
            length,
            POSITIVE,
        ));
    }
    let queues = read::int(queuing, "queues");
    if queues <= 0 {
        errs.push(field::invalid(&path.child("queues"), queues, POSITIVE));
    } else if queues > MAX_QUEUES {
        errs.push(field::invalid(
            &path.child("queues"),
            queues,
            &format!("must not be greater than {MAX_QUEUES}"),
        ));
    }
    let hand = read::int(queuing, "handSize");
    let at = path.child("handSize");
    if hand <= 0 {
        errs.push(field::invalid(&at, hand, POSITIVE));
    } else if hand > queues {
        errs.push(field::invalid(
            &at,
            hand,
            &format!("should not be greater than queues ({queues})"),
        ));
    } else if required_entropy_bits(queues, hand) > MAX_HASH_BITS {
        errs.push(field::invalid(
            &at,
            hand,
            &format!(
                "required entropy bits of deckSize {queues} and handSize {hand} should not be greater than {MAX_HASH_BITS}"
            ),
        ));
    }
}

/// The bits of hash that dealing `hand` cards from `deck` consumes: `ceil(log2(deck) *
/// hand)`, with the logarithm taken as Go's `math.Log2` takes it (exact for powers of two).
fn required_entropy_bits(deck: i64, hand: i64) -> i64 {
    (go_log2(deck as f64) * hand as f64).ceil() as i64
}

/// Go's `math.Log2`: the mantissa's logarithm plus the exponent, so that a power of two
/// gives an exact integer.
fn go_log2(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return f64::NAN;
    }
    // x = frac * 2^exp with frac in [0.5, 1).
    let mut exp = x.log2().floor() as i32 + 1;
    let mut frac = x / 2f64.powi(exp);
    if frac >= 1.0 {
        frac /= 2.0;
        exp += 1;
    } else if frac < 0.5 {
        frac *= 2.0;
        exp -= 1;
    }
    if frac == 0.5 {
        return f64::from(exp - 1);
    }
    frac.ln() * std::f64::consts::LOG2_E + f64::from(exp)
}

/// The mandatory levels: `exempt` may change its `exempt` member only, `catch-all` nothing.
fn validate_mandatory(name: &str, spec: &Value, errs: &mut ErrorList) {
    let (fixed, detail) = match name {
        EXEMPT => (
            json!({"type": "Exempt", "exempt": {"nominalConcurrencyShares": 0, "lendablePercent": 0}}),
            "spec of 'exempt' except the 'spec.exempt' field must equal the fixed value",
        ),
        CATCH_ALL => (
            json!({"type": "Limited", "limited": {"nominalConcurrencyShares": 5,
                "lendablePercent": 0, "limitResponse": {"type": "Reject"}}}),
            "spec of 'catch-all' must equal the fixed value",
        ),
        _ => return,
    };
    let want = canonical(&fixed);
    let mut have = canonical(spec);
    if name == EXEMPT {
        have["exempt"] = want["exempt"].clone();
    }
    if have != want {
        errs.push(field::invalid(
            &Path::new("spec"),
            BadValue::Printed(super::go_print::priority_level_spec(spec)),
            detail,
        ));
    }
}

/// A spec as the internal struct holds it, every member explicit, so that two specs compare
/// as `Semantic.DeepEqual` compares them (pointers set or not, numbers as given).
fn canonical(spec: &Value) -> Value {
    let limited = read::member(spec, "limited").set_object().map(|l| {
        let response = l.get("limitResponse").unwrap_or(&Value::Null);
        let queuing = read::member(response, "queuing").set_object().map(|q| {
            json!([
                read::int(q, "queues"),
                read::int(q, "handSize"),
                read::int(q, "queueLengthLimit"),
            ])
        });
        json!([
            read::int(l, "nominalConcurrencyShares"),
            read::opt_int(l, "lendablePercent"),
            read::opt_int(l, "borrowingLimitPercent"),
            read::text(response, "type"),
            queuing,
        ])
    });
    let exempt = read::member(spec, "exempt").set_object().map(|e| {
        json!([
            read::opt_int(e, "nominalConcurrencyShares"),
            read::opt_int(e, "lendablePercent"),
        ])
    });
    json!({"type": read::text(spec, "type"), "limited": limited, "exempt": exempt})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entropy_is_counted_as_go_counts_it() {
        assert_eq!(go_log2(512.0), 9.0);
        assert_eq!(go_log2(1.0), 0.0);
        assert_eq!(required_entropy_bits(512, 8), 72);
        assert_eq!(required_entropy_bits(128, 10), 70);
        assert_eq!(required_entropy_bits(10_000_000, 2), 47);
        assert_eq!(required_entropy_bits(64, 8), 48);
        assert!((go_log2(10.0) - 10f64.log2()).abs() < 1e-12);
    }
}
