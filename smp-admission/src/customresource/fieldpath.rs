//! A JSON path into a schema (`.spec.replicas`, `['x.y']`), as the server reads a rule's
//! `fieldPath` and a version's `selectableFields` (apiextensions-apiserver
//! `pkg/apiserver/schema/cel/validation.go`, `ValidFieldPath`).

use super::structural::Structural;

/// The tokens of a path: `.`, `[` and `]` alone, a single-quoted string whole, and the text
/// between delimiters.
fn tokens(path: &str) -> Vec<&str> {
    let bytes = path.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        if bytes[start] == b'\'' {
            // A quoted string ends at the next quote not after a backslash.
            let mut end = start + 1;
            while end < bytes.len() && !(bytes[end] == b'\'' && bytes[end - 1] != b'\\') {
                end += 1;
            }
            let end = (end + 1).min(bytes.len());
            out.push(&path[start..end]);
            start = end;
            continue;
        }
        if matches!(bytes[start], b'.' | b'[' | b']') {
            out.push(&path[start..start + 1]);
            start += 1;
            continue;
        }
        let mut end = start;
        while end < bytes.len() && !matches!(bytes[end], b'.' | b'[' | b']') {
            end += 1;
        }
        out.push(&path[start..end]);
        start = end;
    }
    out
}

/// A quoted string's text with its escapes read.
fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('a') => out.push('\u{7}'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('v') => out.push('\u{b}'),
            Some('\'') => out.push('\''),
            Some('\\') => out.push('\\'),
            Some(other) => return Err(format!("invalid escape char \\{other}")),
            None => out.push('\\'),
        }
    }
    Ok(out)
}

/// Where `path` leads in `schema`: the field path it names (as Go prints it: members joined
/// by `.`, map keys in brackets) and the schema there; or the server's reason it is not a
/// path of this schema. `allow_brackets` permits `['name']` steps.
pub fn resolve<'s>(
    path: &str,
    schema: &'s Structural,
    allow_brackets: bool,
) -> Result<(String, &'s Structural), String> {
    let tokens = tokens(path);
    let mut rendered = String::new();
    let mut at = schema;
    let mut i = 0;
    while i < tokens.len() {
        let name = match tokens[i] {
            "[" => {
                if !allow_brackets {
                    return Err("array notation is not allowed".to_owned());
                }
                let quoted = tokens.get(i + 1).ok_or("unexpected end of JSON path")?;
                if quoted.len() < 2 || !quoted.starts_with('\'') || !quoted.ends_with('\'') {
                    return Err(format!("expected single quoted string but got {quoted}"));
                }
                let name = unescape(&quoted[1..quoted.len() - 1])
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                match tokens.get(i + 2) {
                    None => return Err("unexpected end of JSON path".to_owned()),
                    Some(&"]") => {}
                    Some(other) => return Err(format!("expected ] but got {other}")),
                }
                i += 3;
                name
            }
            "." => {
                let name = tokens.get(i + 1).ok_or("unexpected end of JSON path")?;
                i += 2;
                (*name).to_owned()
            }
            other => return Err(format!("expected [ or . but got: {other}")),
        };
        if !at.properties.is_empty() {
            at = at
                .properties
                .get(&name)
                .ok_or("does not refer to a valid field")?;
            if !rendered.is_empty() {
                rendered.push('.');
            }
            rendered.push_str(&name);
        } else if let Some(additional) = at.additional_properties.as_ref() {
            at = additional
                .schema()
                .ok_or("does not refer to a valid field")?;
            rendered.push('[');
            rendered.push_str(&name);
            rendered.push(']');
        } else {
            return Err("does not refer to a valid field".to_owned());
        }
    }
    Ok((rendered, at))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_resolve_through_members_and_map_keys() {
        let schema = Structural::from_schema(&json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "a.b": {"type": "string"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}}))
        .unwrap();
        assert_eq!(
            resolve(".spec['a.b']", &schema, true).unwrap().0,
            "spec.a.b"
        );
        assert_eq!(
            resolve(".spec.labels['x']", &schema, true).unwrap().0,
            "spec.labels[x]"
        );
        assert_eq!(
            resolve(".spec.c", &schema, true).unwrap_err(),
            "does not refer to a valid field"
        );
        assert_eq!(
            resolve(".spec['a.b']", &schema, false).unwrap_err(),
            "array notation is not allowed"
        );
        assert_eq!(
            resolve("spec", &schema, true).unwrap_err(),
            "expected [ or . but got: spec"
        );
        assert_eq!(
            resolve(".spec[", &schema, true).unwrap_err(),
            "unexpected end of JSON path"
        );
    }
}
