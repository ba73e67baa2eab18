//! What a service account token says, and why one is refused.

use serde_json::{Map, Value, json};

use super::ISSUER;

/// An object a token is bound to: deleting it (or recreating it) ends the token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Binding {
    pub(crate) name: String,
    pub(crate) uid: String,
}

/// A token's claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Claims {
    pub(crate) namespace: String,
    pub(crate) service_account: Binding,
    pub(crate) audiences: Vec<String>,
    /// Seconds since the Unix epoch: issued at (also not before), and expiry.
    pub(crate) issued: i64,
    pub(crate) expires: i64,
    /// The token's id (`jti`).
    pub(crate) id: String,
    pub(crate) pod: Option<Binding>,
    pub(crate) node: Option<Binding>,
    pub(crate) secret: Option<Binding>,
    /// When a pod's token whose expiry was extended should have expired (`warnafter`).
    pub(crate) warn_after: Option<i64>,
}

/// Why a token of this issuer was refused; the text is what a `TokenReview` reports
/// (`pkg/serviceaccount/jwt.go` and `claims.go`; go-jose's words for a bad signature).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Rejected {
    #[error("go-jose/go-jose: error in cryptographic primitive")]
    Signature,
    #[error("go-jose/go-jose: invalid claims")]
    Malformed,
    #[error("token audiences {token:?} is invalid for the target audiences {asked:?}")]
    Audience {
        token: Vec<String>,
        asked: Vec<String>,
    },
    #[error("service account token has expired")]
    Expired,
    #[error("service account token is not valid yet")]
    NotYetValid,
    /// What it names is gone or was replaced (the reason in the server's words).
    #[error("{0}")]
    Stale(String),
}

fn reference(binding: &Binding) -> Value {
    json!({"name": binding.name, "uid": binding.uid})
}

fn binding(value: Option<&Value>) -> Option<Binding> {
    let value = value?;
    Some(Binding {
        name: value.get("name")?.as_str()?.to_owned(),
        uid: value.get("uid")?.as_str()?.to_owned(),
    })
}

impl Claims {
    /// The user name the token authenticates as.
    pub(crate) fn username(&self) -> String {
        format!(
            "system:serviceaccount:{}:{}",
            self.namespace, self.service_account.name
        )
    }

    pub(super) fn to_json(&self) -> Value {
        let mut kubernetes = Map::new();
        kubernetes.insert("namespace".into(), json!(self.namespace));
        for (key, bound) in [
            ("node", &self.node),
            ("pod", &self.pod),
            ("secret", &self.secret),
        ] {
            if let Some(bound) = bound {
                kubernetes.insert(key.into(), reference(bound));
            }
        }
        kubernetes.insert("serviceaccount".into(), reference(&self.service_account));
        if let Some(at) = self.warn_after {
            kubernetes.insert("warnafter".into(), json!(at));
        }
        json!({
            "aud": self.audiences,
            "exp": self.expires,
            "iat": self.issued,
            "iss": ISSUER,
            "jti": self.id,
            "kubernetes.io": kubernetes,
            "nbf": self.issued,
            "sub": self.username(),
        })
    }

    pub(super) fn from_json(value: &Value) -> Option<Claims> {
        let kubernetes = value.get("kubernetes.io")?;
        let audiences = match value.get("aud")? {
            Value::String(one) => vec![one.clone()],
            Value::Array(many) => many
                .iter()
                .filter_map(|a| a.as_str().map(str::to_owned))
                .collect(),
            _ => return None,
        };
        Some(Claims {
            namespace: kubernetes.get("namespace")?.as_str()?.to_owned(),
            service_account: binding(kubernetes.get("serviceaccount"))?,
            audiences,
            issued: value.get("iat")?.as_i64()?,
            expires: value.get("exp")?.as_i64()?,
            id: value.get("jti")?.as_str()?.to_owned(),
            pod: binding(kubernetes.get("pod")),
            node: binding(kubernetes.get("node")),
            secret: binding(kubernetes.get("secret")),
            warn_after: kubernetes.get("warnafter").and_then(Value::as_i64),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::Signer;
    use super::*;

    fn claims() -> Claims {
        Claims {
            namespace: "default".into(),
            service_account: Binding {
                name: "robot".into(),
                uid: "u-1".into(),
            },
            audiences: vec!["api".into()],
            issued: 1_800_000_000,
            expires: 1_800_003_600,
            id: "j-1".into(),
            pod: Some(Binding {
                name: "web".into(),
                uid: "p-1".into(),
            }),
            node: None,
            secret: None,
            warn_after: None,
        }
    }

    #[test]
    fn a_token_carries_its_claims_and_only_its_issuer_reads_it() {
        let signer = Signer::new().unwrap();
        let token = signer.issue(&claims()).unwrap();
        assert_eq!(token.split('.').count(), 3);
        assert_eq!(signer.verify(&token), Ok(Some(claims())));
        let other = Signer::new().unwrap();
        assert_eq!(other.verify(&token), Err(Rejected::Signature));
        assert_eq!(signer.verify("not a token"), Ok(None));
        // A changed claim breaks the signature.
        let parts: Vec<&str> = token.split('.').collect();
        let mut changed = claims();
        changed.namespace = "kube-system".into();
        let forged = format!(
            "{}.{}.{}",
            parts[0],
            base64::Engine::encode(
                &base64::engine::general_purpose::URL_SAFE_NO_PAD,
                serde_json::to_vec(&changed.to_json()).unwrap()
            ),
            parts[2]
        );
        assert_eq!(signer.verify(&forged), Err(Rejected::Signature));
    }

    #[test]
    fn claims_are_the_servers() {
        let json = claims().to_json();
        assert_eq!(json["sub"], "system:serviceaccount:default:robot");
        assert_eq!(json["iss"], ISSUER);
        assert_eq!(
            json["kubernetes.io"],
            json!({"namespace": "default", "pod": {"name": "web", "uid": "p-1"},
                   "serviceaccount": {"name": "robot", "uid": "u-1"}})
        );
    }
}
