//! What decoding a v1 object into the server's internal types does beyond defaulting: a
//! Secret's `stringData` is written into `data` (its values base64-encoded, a key in both
//! taking the `stringData` value) and is gone from the stored object. Defaulting applies it to
//! the objects it fills; validation reads a Secret through it, as the server validates the
//! converted object.

use serde_json::Value;

/// Moves a Secret's `stringData` into `data`, as the v1 conversion does.
pub(crate) fn merge_string_data(root: &mut serde_json::Map<String, Value>) {
    let Some(Value::Object(strings)) = root.remove("stringData") else {
        return;
    };
    let data = root
        .entry("data")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    if !data.is_object() {
        *data = Value::Object(serde_json::Map::new());
    }
    if let Some(data) = data.as_object_mut() {
        for (key, value) in strings {
            let text = value.as_str().unwrap_or("");
            data.insert(key, encode_base64(text.as_bytes()).into());
        }
    }
}

/// Standard base64 with padding: the JSON form of a Go `[]byte`.
pub(crate) fn encode_base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn string_data_becomes_data() {
        let mut s = json!({"kind": "Secret", "data": {"a": "eA==", "b": "eQ=="}, "stringData": {"b": "hello", "c": ""}});
        merge_string_data(s.as_object_mut().unwrap());
        assert_eq!(
            s,
            json!({"kind": "Secret", "data": {"a": "eA==", "b": "aGVsbG8=", "c": ""}})
        );
        assert_eq!(encode_base64(b"ab"), "YWI=");
        assert_eq!(encode_base64(b"abc"), "YWJj");
    }
}
