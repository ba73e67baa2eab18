//! The cluster's identity, made when a server is: a certificate authority, the `ca.crt` every
//! namespace's `kube-root-ca.crt` ConfigMap publishes, and the key service account tokens are
//! signed with (ECDSA P-256 keys, new for each server).

use crate::serviceaccount::Signer;

/// The cluster's CA.
#[derive(Debug)]
pub(crate) struct Identity {
    /// The CA certificate, PEM.
    pub(crate) ca_pem: String,
    /// The service account token signer.
    pub(crate) tokens: Signer,
}

impl Identity {
    /// A new CA; `None` if the system has no randomness to give.
    pub(crate) fn new() -> Option<Identity> {
        let key = rcgen::KeyPair::generate().ok()?;
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).ok()?;
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "kubernetes");
        let ca = params.self_signed(&key).ok()?;
        Some(Identity {
            ca_pem: ca.pem(),
            tokens: Signer::new()?,
        })
    }
}
