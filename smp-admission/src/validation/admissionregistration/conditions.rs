//! Match conditions (`validateMatchConditions`) and the CEL checks the server makes of an
//! expression when the object is written.
//!
//! The server compiles each expression: it parses it, type-checks it against the variables
//! its place declares (`object`, `oldObject`, `request`, `params`, `authorizer`...) and
//! estimates its cost. Only the parse is done here (the `cel` crate's parser, generated from
//! the same grammar as cel-go's): an expression that parses is taken as valid, so a type
//! error (an undeclared name, a condition that is not a `bool`) or a cost over the limit is
//! not found.

use std::collections::HashSet;

use serde_json::Value;

use crate::validation::field::{self, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

/// The most match conditions a webhook or policy may have.
const MAX_MATCH_CONDITIONS: usize = 64;

/// Why `expression` does not parse, worded as the server words it (`compilation failed:
/// ERROR: <input>:1:19: Syntax error: ...`), or `None`. The server's environment has CEL's
/// optional types, so the optional syntax (`a.?b`, `[?x]`, `{?k: v}`) parses.
pub(super) fn compile_error(expression: &str) -> Option<String> {
    // Parsed where the parser's recursion fits, the tree dropped there (`crate::cel`).
    let parsed = crate::cel::parsing(expression, || {
        kube_cel::cel::parser::Parser::default()
            .enable_optional_syntax(true)
            .parse(expression)
            .err()
            .map(|e| e.to_string())
    });
    match parsed {
        Ok(None) => None,
        // The parser is generated from cel-go's grammar; only the margin of the source lines
        // it quotes differs.
        Ok(Some(e)) | Err(e) => Some(format!(
            "compilation failed: {}",
            e.replace("\n| ", "\n | ")
        )),
    }
}

/// Go's `strings.TrimSpace`: Unicode white space at both ends.
pub(super) fn trim(text: &str) -> &str {
    text.trim_matches(char::is_whitespace)
}

/// `validateMatchConditions`: at most 64, each with an expression that compiles and a
/// qualified name, no name twice.
pub(super) fn validate_match_conditions(conditions: &[Value], path: &Path, errs: &mut ErrorList) {
    if conditions.len() > MAX_MATCH_CONDITIONS {
        errs.push(field::too_many(
            path,
            conditions.len() as i64,
            MAX_MATCH_CONDITIONS as i64,
        ));
    }
    let mut names_seen: HashSet<&str> = HashSet::new();
    for (i, condition) in conditions.iter().enumerate() {
        let at = path.index(i);
        let expression = trim(read::text(condition, "expression"));
        if expression.is_empty() {
            errs.push(field::required(&at.child("expression"), ""));
        } else if let Some(why) = compile_error(expression) {
            errs.push(field::invalid(&at.child("expression"), expression, &why));
        }
        let name = read::text(condition, "name");
        if name.is_empty() {
            errs.push(field::required(&at.child("name"), ""));
        } else {
            for msg in names::is_qualified_name(name) {
                errs.push(field::invalid(&at.child("name"), name, &msg));
            }
            if !names_seen.insert(name) {
                errs.push(field::duplicate(&at.child("name"), name));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_parse_with_the_optional_syntax() {
        assert_eq!(
            compile_error("object.metadata.?labels['team'].orValue('x') != ''"),
            None
        );
        assert_eq!(compile_error("[?object.?a, 1]"), None);
        assert_eq!(
            compile_error("object.x in [1, 2,").as_deref(),
            Some(
                "compilation failed: ERROR: <input>:1:19: Syntax error: missing ']' at '<EOF>'\n | object.x in [1, 2,\n | ..................^"
            )
        );
    }
}
