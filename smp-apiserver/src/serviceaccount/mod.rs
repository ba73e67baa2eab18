//! Service account tokens: the JSON web tokens kube-apiserver issues for `TokenRequest`s
//! and accepts in `TokenReview`s and as bearer credentials. Each server signs with a key of
//! its own (ECDSA P-256, `ES256`), and names it in each token's header by the key id the API
//! server gives a key (the base64url SHA-256 of its public key's DER form).
//!
//! The claims are the server's (`pkg/serviceaccount/claims.go`): `iss`, `sub`
//! (`system:serviceaccount:<namespace>:<name>`), `aud`, `iat`, `nbf`, `exp`, `jti`, and under
//! `kubernetes.io` the namespace, the service account's name and uid, and the pod (and its
//! node) a token is bound to.

mod authenticator;
mod token;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::rand::SystemRandom;
use ring::signature::{
    ECDSA_P256_SHA256_FIXED, ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair,
    UnparsedPublicKey,
};
use serde_json::{Value, json};

pub(crate) use authenticator::{Authority, api_audiences, authenticate, requester};
pub(crate) use token::{Binding, Claims, Rejected};

/// Who issues the tokens, and the audience a token is for when none is asked for (kubeadm's
/// and kind's `--service-account-issuer`, which `--api-audiences` defaults to).
pub(crate) const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";

/// The DER prefix of a P-256 public key's `SubjectPublicKeyInfo`, before the point.
const P256_SPKI_PREFIX: [u8; 26] = [
    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a,
    0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
];

/// The key tokens are signed with.
pub(crate) struct Signer {
    key: EcdsaKeyPair,
    rng: SystemRandom,
    /// The key's id, in every token's header.
    key_id: String,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Signer")
            .field("key_id", &self.key_id)
            .finish()
    }
}

impl Signer {
    /// A new key; `None` if the system has no randomness to give.
    pub(crate) fn new() -> Option<Signer> {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).ok()?;
        let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng)
            .ok()?;
        let mut der = P256_SPKI_PREFIX.to_vec();
        der.extend_from_slice(key.public_key().as_ref());
        let key_id = URL_SAFE_NO_PAD.encode(ring::digest::digest(&ring::digest::SHA256, &der));
        Some(Signer { key, rng, key_id })
    }

    /// A signed token carrying `claims`.
    pub(crate) fn issue(&self, claims: &Claims) -> Option<String> {
        let header = json!({"alg": "ES256", "kid": self.key_id});
        let mut text = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(serde_json::to_vec(&header).ok()?),
            URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims.to_json()).ok()?)
        );
        let signature = self.key.sign(&self.rng, text.as_bytes()).ok()?;
        text.push('.');
        text.push_str(&URL_SAFE_NO_PAD.encode(signature.as_ref()));
        Some(text)
    }

    /// The claims of `token` if this server signed it; `Ok(None)` when it is not a token of
    /// this issuer at all (another authenticator's, or not a JSON web token).
    pub(crate) fn verify(&self, token: &str) -> Result<Option<Claims>, Rejected> {
        let mut parts = token.split('.');
        let (Some(header), Some(payload), Some(signature), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Ok(None);
        };
        let decode = |part: &str| -> Option<Value> {
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).ok()?).ok()
        };
        let (Some(_header), Some(payload_json)) = (decode(header), decode(payload)) else {
            return Ok(None);
        };
        if payload_json.get("iss").and_then(Value::as_str) != Some(ISSUER) {
            return Ok(None);
        }
        let signed = &token[..header.len() + 1 + payload.len()];
        let signature = URL_SAFE_NO_PAD.decode(signature).unwrap_or_default();
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, self.key.public_key().as_ref())
            .verify(signed.as_bytes(), &signature)
            .map_err(|_| Rejected::Signature)?;
        Claims::from_json(&payload_json)
            .map(Some)
            .ok_or(Rejected::Malformed)
    }
}
