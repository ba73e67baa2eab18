//! A StorageClass's `allowedTopologies` (`validateAllowedTopologies`, each term by the core
//! group's `ValidateTopologySelectorTerm`).
//!
//! Go finds repeated terms by comparing each term's key-to-values map with every map it has
//! kept, in a list that starts with one empty slot per term (it is made with a length, then
//! appended to). Its semantic equality holds an empty map equal to such a slot, so a term
//! without expressions is reported once per term of the list, on top of once per earlier
//! equal term. Here each kept map is counted by its contents in a hash map, so the same
//! reports cost one look-up per term.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::validate_label_name;
use crate::validation::read;

/// A term as Go keeps it for the comparison: each key with the set of its values (a later
/// expression of the same key replaces an earlier one).
type Shape<'a> = BTreeMap<&'a str, BTreeSet<&'a str>>;

/// The most repeated-term reports one list gets. Go's grow with the square of the number of
/// empty terms (millions for a few thousand, more than the server can build); past this
/// bound, far beyond any real StorageClass, the rest are left out.
const MAX_REPEAT_REPORTS: usize = 100_000;

/// `validateAllowedTopologies`.
pub(super) fn validate_allowed_topologies(terms: &[Value], path: &Path, errs: &mut ErrorList) {
    let mut kept: HashMap<Shape, usize> = HashMap::new();
    let mut reports = 0usize;
    for (i, term) in terms.iter().enumerate() {
        let at = path.index(i);
        let shape = validate_term(term, &at, errs);
        let empty_slots = if shape.is_empty() { terms.len() } else { 0 };
        let twins = empty_slots + kept.get(&shape).copied().unwrap_or(0);
        let repeats = twins.min(MAX_REPEAT_REPORTS - reports);
        if repeats > 0 {
            let expressions = at.child("matchLabelExpressions");
            errs.extend((0..repeats).map(|_| field::duplicate(&expressions, "")));
            reports += repeats;
        }
        *kept.entry(shape).or_insert(0) += 1;
    }
}

/// `ValidateTopologySelectorTerm`: each expression's values (required, no repeats) and key
/// (a label name, not repeated in the term).
fn validate_term<'a>(term: &'a Value, path: &Path, errs: &mut ErrorList) -> Shape<'a> {
    let mut shape = Shape::new();
    let expressions = path.child("matchLabelExpressions");
    for (j, requirement) in read::list(term, "matchLabelExpressions").iter().enumerate() {
        let at = expressions.index(j);
        let values_path = at.child("values");
        let values = read::list(requirement, "values");
        if values.is_empty() {
            errs.push(field::required(&values_path, ""));
        }
        let mut set = BTreeSet::new();
        for (k, value) in values.iter().enumerate() {
            let value = value.as_str().unwrap_or("");
            if !set.insert(value) {
                errs.push(field::duplicate(&values_path.index(k), value));
            }
        }
        let key = read::text(requirement, "key");
        let key_path = at.child("key");
        validate_label_name(key, &key_path, errs);
        if shape.insert(key, set).is_some() {
            errs.push(field::duplicate(&key_path, key));
        }
    }
    shape
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(terms: Value) -> Vec<String> {
        let mut errs = ErrorList::new();
        let terms = terms.as_array().cloned().unwrap_or_default();
        validate_allowed_topologies(&terms, &Path::new("allowedTopologies"), &mut errs);
        errs.iter()
            .map(|e| format!("{} {}", e.kind.reason(), e.field))
            .collect()
    }

    #[test]
    fn equal_terms_are_repeats_whatever_their_order() {
        let terms = json!([
            {"matchLabelExpressions": [{"key": "a", "values": ["1", "2"]}, {"key": "b", "values": ["x"]}]},
            {"matchLabelExpressions": [{"key": "b", "values": ["x"]}, {"key": "a", "values": ["2", "1"]}]},
            {"matchLabelExpressions": [{"key": "a", "values": ["1", "2"]}, {"key": "b", "values": ["x"]}]},
        ]);
        assert_eq!(
            fields(terms),
            [
                "FieldValueDuplicate allowedTopologies[1].matchLabelExpressions",
                "FieldValueDuplicate allowedTopologies[2].matchLabelExpressions",
                "FieldValueDuplicate allowedTopologies[2].matchLabelExpressions",
            ]
        );
    }

    #[test]
    fn empty_terms_match_every_slot() {
        assert_eq!(
            fields(json!([{}, {"matchLabelExpressions": [{"key": "a", "values": ["1"]}]}, {}])),
            [
                "FieldValueDuplicate allowedTopologies[0].matchLabelExpressions",
                "FieldValueDuplicate allowedTopologies[0].matchLabelExpressions",
                "FieldValueDuplicate allowedTopologies[0].matchLabelExpressions",
                "FieldValueDuplicate allowedTopologies[2].matchLabelExpressions",
                "FieldValueDuplicate allowedTopologies[2].matchLabelExpressions",
                "FieldValueDuplicate allowedTopologies[2].matchLabelExpressions",
                "FieldValueDuplicate allowedTopologies[2].matchLabelExpressions",
            ]
        );
    }

    #[test]
    fn many_empty_terms_are_bounded() {
        let terms = Value::Array(vec![json!({}); 2000]);
        assert_eq!(fields(terms).len(), MAX_REPEAT_REPORTS);
    }

    #[test]
    fn expressions_are_checked_in_order() {
        assert_eq!(
            fields(json!([{"matchLabelExpressions": [
                {"key": "/k", "values": []},
                {"key": "b", "values": ["1", "1"]},
                {"key": "b", "values": ["2"]},
            ]}])),
            [
                "FieldValueRequired allowedTopologies[0].matchLabelExpressions[0].values",
                "FieldValueInvalid allowedTopologies[0].matchLabelExpressions[0].key",
                "FieldValueDuplicate allowedTopologies[0].matchLabelExpressions[1].values[1]",
                "FieldValueDuplicate allowedTopologies[0].matchLabelExpressions[2].key",
            ]
        );
    }
}
