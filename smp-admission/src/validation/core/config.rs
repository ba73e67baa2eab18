//! ConfigMap and Secret: keys, sizes, a Secret's type-specific keys, and both frozen once
//! `immutable` is set (`ValidateConfigMap`, `ValidateSecret` and their updates).

use serde_json::Value;

use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::{self, validate_object_meta, validate_object_meta_update};
use crate::validation::names::{self, is_config_map_key};
use crate::validation::read;

/// The most a ConfigMap's or Secret's data may hold: 1 MiB.
const MAX_SIZE: usize = 1024 * 1024;

const FROZEN: &str = "field is immutable when `immutable` is set";

pub(super) fn config_map(cm: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        cm.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let data = Path::new("data");
    let binary = read::object_or_empty(cm, "binaryData");
    let mut total = 0usize;
    for (key, value) in read::object_or_empty(cm, "data") {
        for msg in is_config_map_key(key) {
            errs.push(field::invalid(&data.key(key), key.as_str(), &msg));
        }
        if binary.contains_key(key) {
            errs.push(field::invalid(
                &data.key(key),
                key.as_str(),
                "duplicate of key present in binaryData",
            ));
        }
        total += value.as_str().map_or(0, str::len);
    }
    let binary_path = Path::new("binaryData");
    for (key, value) in binary {
        for msg in is_config_map_key(key) {
            errs.push(field::invalid(&binary_path.key(key), key.as_str(), &msg));
        }
        total += decoded_len(value);
    }
    if total > MAX_SIZE {
        // The server reports the whole object under the path `[]`.
        errs.push(field::too_long(&Path::new(""), MAX_SIZE as i64));
    }
    errs
}

pub(super) fn config_map_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    if read::flag(old, "immutable") {
        frozen(new, old, &["data", "binaryData"], &mut errs);
    }
    errs.extend(config_map(new));
    errs
}

pub(super) fn secret(secret: &Value) -> ErrorList {
    // The server validates the converted object, whose `data` holds `stringData` too.
    let converted;
    let secret = if secret.get("stringData").is_some() {
        let mut copy = secret.clone();
        if let Some(root) = copy.as_object_mut() {
            crate::conversion::merge_string_data(root);
        }
        converted = copy;
        &converted
    } else {
        secret
    };
    let mut errs = validate_object_meta(
        secret.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let data_path = Path::new("data");
    let data = read::object_or_empty(secret, "data");
    let mut total = 0usize;
    for (key, value) in data {
        for msg in is_config_map_key(key) {
            errs.push(field::invalid(&data_path.key(key), key.as_str(), &msg));
        }
        total += decoded_len(value);
    }
    if total > MAX_SIZE {
        errs.push(field::too_long(&data_path, MAX_SIZE as i64));
    }
    let has = |key: &str| data.contains_key(key);
    let required = |key: &str, errs: &mut ErrorList| {
        errs.push(field::required(&data_path.key(key), ""));
    };
    match read::text(secret, "type") {
        "kubernetes.io/service-account-token" => {
            let annotation = "kubernetes.io/service-account.name";
            let named = secret
                .pointer("/metadata/annotations")
                .map(|a| read::text(a, annotation))
                .unwrap_or("");
            if named.is_empty() {
                let annotations = Path::new("metadata");
                let annotations = annotations.child("annotations");
                errs.push(field::required(&annotations.key(annotation), ""));
            }
        }
        "kubernetes.io/dockercfg" => docker_json(data, ".dockercfg", &data_path, &mut errs),
        "kubernetes.io/dockerconfigjson" => {
            docker_json(data, ".dockerconfigjson", &data_path, &mut errs)
        }
        // Either may be empty, but one of them must be there.
        "kubernetes.io/basic-auth" if !has("username") && !has("password") => {
            required("username", &mut errs);
            required("password", &mut errs);
        }
        "kubernetes.io/ssh-auth"
            if data
                .get("ssh-privatekey")
                .is_none_or(|v| decoded_len(v) == 0) =>
        {
            required("ssh-privatekey", &mut errs);
        }
        "kubernetes.io/tls" => {
            for key in ["tls.crt", "tls.key"] {
                if !has(key) {
                    required(key, &mut errs);
                }
            }
        }
        _ => {}
    }
    errs
}

pub(super) fn secret_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    meta::validate_immutable(
        new.get("type"),
        old.get("type"),
        &Path::new("type"),
        &mut errs,
    );
    if read::flag(old, "immutable") {
        frozen(new, old, &["data"], &mut errs);
    }
    errs.extend(secret(new));
    errs
}

/// Once `immutable` was set it stays set, and the data members stay as they were.
fn frozen(new: &Value, old: &Value, members: &[&str], errs: &mut ErrorList) {
    if !read::flag(new, "immutable") {
        errs.push(field::forbidden(&Path::new("immutable"), FROZEN));
    }
    for member in members {
        if !read::semantic_eq(new.get(*member), old.get(*member)) {
            errs.push(field::forbidden(&Path::new(member), FROZEN));
        }
    }
}

/// A docker config key must be there and hold a JSON object.
fn docker_json(data: &read::Object, key: &str, data_path: &Path, errs: &mut ErrorList) {
    let Some(value) = data.get(key) else {
        errs.push(field::required(&data_path.key(key), ""));
        return;
    };
    let bytes = decode_base64(value.as_str().unwrap_or("")).unwrap_or_default();
    // Go decodes `null` into a map without complaint.
    if let Err(e) = serde_json::from_slice::<Option<serde_json::Map<String, Value>>>(&bytes) {
        errs.push(field::invalid(
            &data_path.key(key),
            "<secret contents redacted>",
            &go_json_error(&e, &bytes),
        ));
    }
}

/// Go's `encoding/json` message for the common failures (empty input, a bad first character,
/// JSON that is not an object); other syntax errors carry serde's text.
fn go_json_error(e: &serde_json::Error, bytes: &[u8]) -> String {
    let first = bytes.iter().find(|c| !c.is_ascii_whitespace());
    match (first, serde_json::from_slice::<Value>(bytes)) {
        (None, _) => "unexpected end of JSON input".to_owned(),
        (_, Ok(v)) => {
            let kind = match v {
                Value::String(_) => "string",
                Value::Number(_) => "number",
                Value::Array(_) => "array",
                Value::Bool(_) => "bool",
                _ => "object",
            };
            format!("json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}")
        }
        (Some(&c), Err(_))
            if !matches!(
                c,
                b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
            ) =>
        {
            format!(
                "invalid character '{}' looking for beginning of value",
                c as char
            )
        }
        (_, Err(_)) if e.is_eof() => "unexpected end of JSON input".to_owned(),
        (_, Err(_)) => e.to_string(),
    }
}

/// The length of base64 `data` once decoded (what the Go `[]byte` holds).
fn decoded_len(value: &Value) -> usize {
    let text = value.as_str().unwrap_or("");
    let padding = text.bytes().rev().take_while(|&c| c == b'=').count();
    (text.len() / 4) * 3 + [0, 0, 1, 2][text.len() % 4] - padding.min(2)
}

/// Standard base64 with padding, as the wire form of `[]byte`.
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut buf = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return None,
        };
        buf = (buf << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buf >> bits) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn texts(errs: ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn config_map_keys() {
        let cm = json!({"metadata": {"name": "c", "namespace": "d"}, "data": {"a/b": "x", "ok": "y"}, "binaryData": {"ok": ""}});
        let errs = texts(config_map(&cm));
        assert_eq!(errs.len(), 2);
        assert_eq!(
            errs[0],
            "data[a/b]: Invalid value: \"a/b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"
        );
        assert_eq!(
            errs[1],
            "data[ok]: Invalid value: \"ok\": duplicate of key present in binaryData"
        );
    }

    #[test]
    fn immutable_config_maps_stay_as_they_were() {
        let old = json!({"metadata": {"name": "c", "namespace": "d", "resourceVersion": "1"}, "immutable": true, "data": {"a": "1"}});
        let new = json!({"metadata": {"name": "c", "namespace": "d", "resourceVersion": "1"}, "data": {"a": "2"}});
        assert_eq!(
            texts(config_map_update(&new, &old)),
            vec![
                "immutable: Forbidden: field is immutable when `immutable` is set",
                "data: Forbidden: field is immutable when `immutable` is set"
            ]
        );
    }

    #[test]
    fn secrets_of_each_type_need_their_keys() {
        let s = json!({"metadata": {"name": "s", "namespace": "d"}, "type": "kubernetes.io/tls", "data": {"tls.crt": ""}});
        assert_eq!(texts(secret(&s)), vec!["data[tls.key]: Required value"]);
        let s = json!({"metadata": {"name": "s", "namespace": "d"}, "type": "kubernetes.io/dockerconfigjson", "data": {".dockerconfigjson": "W10="}});
        assert_eq!(
            texts(secret(&s)),
            vec![
                "data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": json: cannot unmarshal array into Go value of type map[string]interface {}"
            ]
        );
        assert_eq!(decoded_len(&json!("bm90IGpzb24=")), 8);
    }
}
