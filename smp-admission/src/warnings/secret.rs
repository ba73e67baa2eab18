//! A TLS Secret whose certificate the server cannot load (`tls.X509KeyPair` failing, its
//! error text sent as the warning). Only the first of its failures is told here: certificate
//! data without any PEM block. Certificates that have PEM blocks are not parsed, so their
//! later failures (a malformed certificate, a key that does not match) draw no warning here.

use base64::Engine;
use serde_json::Value;

use super::sink::Sink;
use crate::validation::read;

/// A Secret's warnings, on create and update alike.
pub(super) fn secret(obj: &Value, out: &mut Sink) {
    if read::text(obj, "type") != "kubernetes.io/tls" {
        return;
    }
    let data = obj.get("data");
    let cert = data
        .and_then(|d| d.get("tls.crt"))
        .and_then(Value::as_str)
        .unwrap_or("");
    // Decoding refused anything but base64 before the strategy ran; an undecodable value
    // is left alone rather than guessed at.
    let Ok(cert) = base64::engine::general_purpose::STANDARD.decode(cert) else {
        return;
    };
    let has_pem = cert.windows(PEM_START.len()).any(|w| w == PEM_START);
    if !has_pem {
        out.push("tls: failed to find any PEM data in certificate input".to_owned());
    }
}

/// What every PEM block starts with (`encoding/pem` looks for nothing else).
const PEM_START: &[u8] = b"-----BEGIN ";
