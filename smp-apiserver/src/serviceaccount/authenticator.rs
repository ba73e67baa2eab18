//! Who a bearer token says its holder is: the service account (and pod, and node) of a token
//! this server issued, while all it names still exists as it did (`pkg/serviceaccount`'s
//! validator, run for `TokenReview`s and for requests' own credentials).

use serde_json::{Map, Value, json};

use super::{Claims, ISSUER, Rejected, Signer};
use crate::store::{ObjectKey, Store};

/// What tokens are checked against: the objects they name, the key they are signed with,
/// and the time now (seconds since the Unix epoch).
#[derive(Clone, Copy)]
pub(crate) struct Authority<'a> {
    pub(crate) store: &'a Store,
    pub(crate) signer: &'a Signer,
    pub(crate) now: i64,
}

/// An authenticated user, as a `TokenReview` reports it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct User {
    pub(crate) username: String,
    pub(crate) uid: String,
    pub(crate) groups: Vec<String>,
    pub(crate) extra: Map<String, Value>,
}

impl User {
    /// Who a request without credentials is (the server's anonymous authenticator).
    pub(crate) fn anonymous() -> User {
        User {
            username: "system:anonymous".into(),
            uid: String::new(),
            groups: vec!["system:unauthenticated".into()],
            extra: Map::new(),
        }
    }

    /// The `UserInfo` object.
    pub(crate) fn to_json(&self) -> Value {
        let mut info = Map::new();
        info.insert("username".into(), json!(self.username));
        if !self.uid.is_empty() {
            info.insert("uid".into(), json!(self.uid));
        }
        info.insert("groups".into(), json!(self.groups));
        if !self.extra.is_empty() {
            info.insert("extra".into(), Value::Object(self.extra.clone()));
        }
        Value::Object(info)
    }
}

/// What authenticating a token found.
pub(crate) struct Authenticated {
    pub(crate) user: User,
    /// The audiences the token is good for among those asked for.
    pub(crate) audiences: Vec<String>,
}

/// The audiences a token is for when none are named (`--api-audiences`).
pub(crate) fn api_audiences() -> Vec<String> {
    vec![ISSUER.to_owned()]
}

/// Authenticates `token` for `audiences` (none: the API's). `Ok(None)`: not a token of this
/// server's (the server says `invalid bearer token`).
pub(crate) fn authenticate(
    authority: Authority<'_>,
    token: &str,
    audiences: &[String],
) -> Result<Option<Authenticated>, Rejected> {
    let Some(claims) = authority.signer.verify(token)? else {
        return Ok(None);
    };
    let asked = if audiences.is_empty() {
        api_audiences()
    } else {
        audiences.to_vec()
    };
    let shared: Vec<String> = claims
        .audiences
        .iter()
        .filter(|a| asked.contains(a))
        .cloned()
        .collect();
    if shared.is_empty() {
        return Err(Rejected::Audience {
            token: claims.audiences.clone(),
            asked,
        });
    }
    // go-jose's leeway: a minute either way.
    let now = authority.now;
    if now > claims.expires.saturating_add(60) {
        return Err(Rejected::Expired);
    }
    if now.saturating_add(60) < claims.issued {
        return Err(Rejected::NotYetValid);
    }
    let user = still_valid(authority, &claims)?;
    Ok(Some(Authenticated {
        user,
        audiences: shared,
    }))
}

/// The user a token's claims name, if the service account and the objects the token is
/// bound to are still the ones it was issued for.
fn still_valid(authority: Authority<'_>, claims: &Claims) -> Result<User, Rejected> {
    let namespace = &claims.namespace;
    let account = &claims.service_account;
    let find = |resource: &str, plural: &str, name: &str| -> Result<Value, Rejected> {
        let key = ObjectKey {
            resource: resource.to_owned(),
            namespace: if plural == "nodes" {
                String::new()
            } else {
                namespace.clone()
            },
            name: name.to_owned(),
        };
        let stored = authority
            .store
            .get(&key)
            .ok_or_else(|| Rejected::Stale(format!("{plural} {name:?} not found")))?;
        Ok((*stored.object).clone())
    };
    let uid = |object: &Value| {
        object
            .pointer("/metadata/uid")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let deleted = |object: &Value| {
        object
            .pointer("/metadata/deletionTimestamp")
            .and_then(Value::as_str)
            .and_then(smp_ssa::managedfields::read_time)
            .is_some_and(|at| at < authority.now - 60)
    };
    let sa = find("/serviceaccounts", "serviceaccounts", &account.name)?;
    if deleted(&sa) {
        return Err(Rejected::Stale(format!(
            "service account {namespace}/{} has been deleted",
            account.name
        )));
    }
    if uid(&sa) != account.uid {
        return Err(Rejected::Stale(format!(
            "service account UID ({}) does not match claim ({})",
            uid(&sa),
            account.uid
        )));
    }
    let mut extra = Map::new();
    if let Some(secret) = &claims.secret {
        let object = find("/secrets", "secrets", &secret.name)?;
        if deleted(&object) {
            return Err(Rejected::Stale(format!(
                "secret {namespace}/{} has been deleted",
                secret.name
            )));
        }
        if uid(&object) != secret.uid {
            return Err(Rejected::Stale(format!(
                "secret UID ({}) does not match service account secret ref claim ({})",
                uid(&object),
                secret.uid
            )));
        }
    }
    if let Some(pod) = &claims.pod {
        let object = find("/pods", "pods", &pod.name)?;
        if deleted(&object) {
            return Err(Rejected::Stale(format!(
                "pod {namespace}/{} has been deleted",
                pod.name
            )));
        }
        if uid(&object) != pod.uid {
            return Err(Rejected::Stale(format!(
                "pod UID ({}) does not match pod ref claim ({})",
                uid(&object),
                pod.uid
            )));
        }
        extra.insert(
            "authentication.kubernetes.io/pod-name".into(),
            json!([pod.name]),
        );
        extra.insert(
            "authentication.kubernetes.io/pod-uid".into(),
            json!([pod.uid]),
        );
    }
    if let Some(node) = &claims.node {
        extra.insert(
            "authentication.kubernetes.io/node-name".into(),
            json!([node.name]),
        );
        extra.insert(
            "authentication.kubernetes.io/node-uid".into(),
            json!([node.uid]),
        );
    }
    extra.insert(
        "authentication.kubernetes.io/credential-id".into(),
        json!([format!("JTI={}", claims.id)]),
    );
    Ok(User {
        username: claims.username(),
        uid: account.uid.clone(),
        groups: vec![
            "system:serviceaccounts".into(),
            format!("system:serviceaccounts:{namespace}"),
            "system:authenticated".into(),
        ],
        extra,
    })
}

/// Who made a request: the holder of its bearer token when the token is this server's and
/// valid, otherwise anonymous (this server refuses no request for its credentials).
pub(crate) fn requester(authority: Authority<'_>, headers: &http::HeaderMap) -> User {
    headers
        .get(http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .and_then(|token| authenticate(authority, token.trim(), &[]).ok().flatten())
        .map_or_else(User::anonymous, |a| a.user)
}
