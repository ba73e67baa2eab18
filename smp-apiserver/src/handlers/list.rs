//! LIST as kube-apiserver v1.34 serves it: from the latest state, or at a resourceVersion
//! (`resourceVersionMatch=Exact`, or a `limit` with a `resourceVersion`, the legacy rule), in
//! pages whose `continue` tokens carry the first page's revision, so that every page shows the
//! store as it was then (an object created between pages does not appear), until the window
//! of past writes no longer reaches back to it (410 with a token to go on inconsistently).
//!
//! The rules are the watch cache's and the etcd3 store's (k8s.io/apiserver
//! `pkg/storage/cacher`, `pkg/storage/etcd3/store.go`, `pkg/storage/continue.go`).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use super::call::Call;

use super::options;
use crate::selector::Selector;
use crate::status::ApiError;
use crate::store::{ObjectKey, Stored};

/// The messages of an expired list (`pkg/storage/etcd3/errors.go`).
const EXPIRED: &str = "The resourceVersion for the provided list is too old.";
const INCONSISTENT_CONTINUE: &str = "The provided continue parameter is too old to display a \
    consistent list result. You can start a new list without the continue parameter, or use the \
    continue token in this response to retrieve the remainder of the results. Continuing with \
    the provided token results in an inconsistent list - objects that were created, modified, \
    or deleted between the time the first chunk was returned and now may show up in the list.";

/// Where a page starts and at which revision it is read.
struct Read {
    /// The revision to read at (`None`: the latest).
    at: Option<u64>,
    /// The revision the list says it was read at when it is an exact read.
    exact: Option<u64>,
    /// The last key of the previous page.
    after: Option<ObjectKey>,
    /// How many items a page holds at most (`None`: all).
    limit: Option<usize>,
    /// The token's revision was negative: read the latest from its key on.
    latest_from_token: bool,
}

/// A list's answer: its objects as the store holds them, written out without being copied.
pub(crate) struct ObjectList {
    kind: String,
    api_version: String,
    pub(crate) metadata: Value,
    pub(crate) items: Vec<Stored>,
}

impl ObjectList {
    /// The list as JSON text.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        crate::serializer::list(
            &self.api_version,
            &self.kind,
            &self.metadata,
            self.items.iter().map(Stored::json),
        )
    }

    /// The list as a value.
    pub(crate) fn into_value(self) -> Value {
        crate::object::object_of([
            ("kind", json!(self.kind)),
            ("apiVersion", json!(self.api_version)),
            ("metadata", self.metadata),
            (
                "items",
                Value::Array(self.items.iter().map(|i| (*i.object).clone()).collect()),
            ),
        ])
    }
}

/// A list: the objects of the resource (in the namespace, if one is named) that the selectors
/// select, at most `limit` of them, with a `continue` token for the rest.
pub(super) fn list(call: &Call<'_>) -> Result<ObjectList, ApiError> {
    options::list(call)?;
    let labels = Selector::labels(call.query("labelSelector").unwrap_or(""))?;
    let fields = super::call::field_selector(call)?;
    let read = plan(call)?;
    let resource = call.key("").resource;
    let namespace = (!call.info.namespace.is_empty()).then_some(call.info.namespace.as_str());
    let snapshot = match call.state.store.snapshot(read.at) {
        Ok(snapshot) => snapshot,
        Err(_) if read.after.is_some() => {
            // The revision of a token is gone: go on from its key at the latest revision, if
            // the client wants to, with a token that says so (revision -1).
            let after = read.after.as_ref().map(|k| start_of(call, k));
            let mut error = ApiError::gone(INCONSISTENT_CONTINUE);
            error.list_continue = after.map(|start| encode_token(-1, &start));
            return Err(error);
        }
        Err(_) => return Err(ApiError::gone(EXPIRED)),
    };
    let revision = read.exact.unwrap_or(snapshot.revision());
    let everything = labels.is_empty() && fields.is_empty();
    let selected = |object: &Value| {
        let labelled = || {
            labels.matches_labels(
                object
                    .get("metadata")
                    .and_then(|m| m.get("labels"))
                    .and_then(Value::as_object),
            )
        };
        everything
            || (labels.is_empty() || labelled())
                && fields.matches(|label| call.fields.value(object, label))
    };
    let mut items = Vec::new();
    let mut last = None;
    let mut rest = snapshot.range(&resource, namespace, read.after.as_ref());
    let mut more = false;
    for (key, stored) in rest.by_ref() {
        if !selected(&stored.object) {
            continue;
        }
        if read.limit == Some(items.len()) {
            more = true;
            break;
        }
        items.push(call.served_shape(stored.clone()));
        last = Some(key.clone());
    }
    let mut metadata = json!({"resourceVersion": revision.to_string()});
    if let (true, Some(last)) = (more, last) {
        let token_revision = if read.latest_from_token || read.at.is_none() {
            snapshot.revision()
        } else {
            revision
        };
        metadata["continue"] = json!(encode_token(
            i64::try_from(token_revision).unwrap_or(i64::MAX),
            &start_of(call, &last)
        ));
        // Counted only when no selector left objects out: the one held back, and the rest.
        if everything {
            metadata["remainingItemCount"] = json!(1 + rest.count());
        }
    }
    Ok(ObjectList {
        kind: format!("{}List", call.resource.kind),
        api_version: call.resource.api_version(),
        metadata,
        items,
    })
}

/// Which revision a list reads and from where, as the query asks.
fn plan(call: &Call<'_>) -> Result<Read, ApiError> {
    let limit = match call.query("limit") {
        None | Some("") => None,
        Some(n) => match n.parse::<i64>() {
            Ok(n) if n > 0 => Some(usize::try_from(n).unwrap_or(usize::MAX)),
            Ok(_) => None,
            Err(_) => {
                return Err(ApiError::bad_request(format!(
                    "strconv.ParseInt: parsing {n:?}: invalid syntax"
                )));
            }
        },
    };
    let version = call.query("resourceVersion").unwrap_or("");
    let asked = match version {
        "" => None,
        v => Some(v.parse::<u64>().map_err(|_| {
            ApiError::bad_request(format!(
                "invalid resource version: resourceVersion: Invalid value: {v:?}: \
                 strconv.ParseUint: parsing {v:?}: invalid syntax"
            ))
        })?),
    };
    let current = call.state.store.revision();
    let too_large = |asked: u64| ApiError::too_large_resource_version(asked, current);
    if let Some(token) = call.query("continue").filter(|t| !t.is_empty()) {
        let (revision, start) = decode_token(token)?;
        if !matches!(version, "" | "0") {
            return Err(ApiError::bad_request(
                "specifying resource version is not allowed when using continue",
            ));
        }
        let after = key_of(call, &start);
        // `resourceVersion=0` with a token is read from the cache, which pages no further.
        let limit = if version == "0" { None } else { limit };
        return Ok(match u64::try_from(revision) {
            Ok(revision) => Read {
                at: Some(revision),
                exact: Some(revision),
                after: Some(after),
                limit,
                latest_from_token: false,
            },
            Err(_) => Read {
                at: None,
                exact: None,
                after: Some(after),
                limit,
                latest_from_token: true,
            },
        });
    }
    let matching = call.query("resourceVersionMatch").unwrap_or("");
    let read = |at: Option<u64>, limit: Option<usize>| Read {
        at,
        exact: at,
        after: None,
        limit,
        latest_from_token: false,
    };
    Ok(match asked {
        // The latest state.
        None => read(None, limit),
        // Any state the cache has: the latest, all of it (the cache does not page).
        Some(0) => read(None, None),
        // Exactly at that revision.
        Some(n) if matching == "Exact" || (matching.is_empty() && limit.is_some()) => {
            if n > current {
                return Err(too_large(n));
            }
            read(Some(n), limit)
        }
        // Not older than it: the latest.
        Some(n) => {
            if n > current {
                return Err(too_large(n));
            }
            read(None, limit)
        }
    })
}

/// A token's `start`: the key after which the next page begins, below the list's prefix (the
/// namespace of a list across namespaces, then the name), as the watch cache writes it.
fn start_of(call: &Call<'_>, key: &ObjectKey) -> String {
    if call.info.namespace.is_empty() && !key.namespace.is_empty() {
        format!("/{}/{}\u{0}", key.namespace, key.name)
    } else {
        format!("/{}\u{0}", key.name)
    }
}

/// The key a token's `start` names, in the list's resource and namespace.
fn key_of(call: &Call<'_>, start: &str) -> ObjectKey {
    let start = start.trim_start_matches('/').trim_end_matches('\u{0}');
    let (namespace, name) = match (call.info.namespace.is_empty(), start.split_once('/')) {
        (true, Some((namespace, name))) => (namespace.to_owned(), name.to_owned()),
        (true, None) => (String::new(), start.to_owned()),
        (false, _) => (call.info.namespace.clone(), start.to_owned()),
    };
    ObjectKey {
        resource: call.key("").resource,
        namespace,
        name,
    }
}

/// A `continue` token as the API server writes it: `{"v":"meta.k8s.io/v1","rv":...,
/// "start":...}` in URL-safe base64 without padding.
fn encode_token(revision: i64, start: &str) -> String {
    let token = json!({"v": "meta.k8s.io/v1", "rv": revision, "start": start});
    URL_SAFE_NO_PAD.encode(token.to_string())
}

/// A token's revision and start, or the server's 400.
fn decode_token(token: &str) -> Result<(i64, String), ApiError> {
    let refuse = |why: String| {
        ApiError::bad_request(format!(
            "invalid continue token: continue key is not valid: {why}"
        ))
    };
    let bytes = URL_SAFE_NO_PAD.decode(token).map_err(|e| {
        let at = match e {
            base64::DecodeError::InvalidByte(at, _)
            | base64::DecodeError::InvalidLastSymbol(at, _) => at,
            _ => token.len(),
        };
        refuse(format!("illegal base64 data at input byte {at}"))
    })?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| refuse(e.to_string()))?;
    let version = value.get("v").and_then(Value::as_str).unwrap_or("");
    if version != "meta.k8s.io/v1" {
        return Err(refuse(format!(
            "server does not recognize this encoded version {version}"
        )));
    }
    let revision = value.get("rv").and_then(Value::as_i64).unwrap_or(0);
    if revision == 0 {
        return Err(refuse(
            "incorrect encoded start resourceVersion (version meta.k8s.io/v1)".into(),
        ));
    }
    let start = value.get("start").and_then(Value::as_str).unwrap_or("");
    if start.is_empty() {
        return Err(refuse(
            "encoded start key empty (version meta.k8s.io/v1)".into(),
        ));
    }
    // A key that leaves the list's prefix (`../x`) is refused, as `path.Clean` finds it.
    let trimmed = start.trim_start_matches('/');
    if trimmed.split('/').any(|part| part == ".." || part == ".") || trimmed.contains("//") {
        return Err(refuse(start.to_owned()));
    }
    Ok((revision, start.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_as_the_server_writes_them() {
        let token = encode_token(12345, "/foo\u{0}");
        assert_eq!(
            decode_token(&token).unwrap(),
            (12345, "/foo\u{0}".to_owned())
        );
        // The server's own example token.
        let theirs = "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoiZm9vXHUwMDAwIn0";
        assert_eq!(
            decode_token(theirs).unwrap(),
            (12345, "foo\u{0}".to_owned())
        );
        for (bad, why) in [
            ("!!", "illegal base64 data at input byte 0"),
            (
                &URL_SAFE_NO_PAD.encode(r#"{"v":"x","rv":1,"start":"a"}"#),
                "server does not recognize this encoded version x",
            ),
            (
                &URL_SAFE_NO_PAD.encode(r#"{"v":"meta.k8s.io/v1","rv":0,"start":"a"}"#),
                "incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
            ),
            (
                &URL_SAFE_NO_PAD.encode(r#"{"v":"meta.k8s.io/v1","rv":1,"start":""}"#),
                "encoded start key empty (version meta.k8s.io/v1)",
            ),
            (
                &URL_SAFE_NO_PAD.encode(r#"{"v":"meta.k8s.io/v1","rv":1,"start":"../x"}"#),
                "../x",
            ),
        ] {
            assert_eq!(
                decode_token(bad).unwrap_err().message,
                format!("invalid continue token: continue key is not valid: {why}")
            );
        }
    }
}
