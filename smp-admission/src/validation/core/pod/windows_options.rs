//! `windowsOptions` of a pod or container security context
//! (`validateWindowsSecurityContextOptions`): the GMSA credential spec and the user to run as,
//! `DOMAIN\USER` with Windows' naming rules. (The container half checks the same shape for
//! containers; the two are one rule.)

use serde_json::Value;

use crate::validation::field::{self, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

const MAX_CREDENTIAL_SPEC_KIB: usize = 64;
const MAX_DOMAIN_LENGTH: usize = 256;
const MAX_USER_LENGTH: usize = 104;

pub(crate) fn validate_windows_options(options: Option<&Value>, path: &Path, errs: &mut ErrorList) {
    let Some(options) = options.filter(|o| o.is_object()) else {
        return;
    };
    if let Some(name) = read::opt_text(options, "gmsaCredentialSpecName") {
        let at = path.child("gmsaCredentialSpecName");
        for msg in names::is_dns1123_subdomain(name) {
            errs.push(field::invalid(&at, name, &msg));
        }
    }
    if let Some(spec) = read::opt_text(options, "gmsaCredentialSpec") {
        let at = path.child("gmsaCredentialSpec");
        if spec.is_empty() {
            errs.push(field::invalid(
                &at,
                spec,
                "gmsaCredentialSpec cannot be an empty string",
            ));
        } else if spec.len() > MAX_CREDENTIAL_SPEC_KIB * 1024 {
            errs.push(field::invalid(
                &at,
                spec,
                &format!("gmsaCredentialSpec size must be under {MAX_CREDENTIAL_SPEC_KIB} KiB"),
            ));
        }
    }
    if let Some(user) = read::opt_text(options, "runAsUserName") {
        run_as_user_name(user, &path.child("runAsUserName"), errs);
    }
}

fn run_as_user_name(name: &str, at: &Path, errs: &mut ErrorList) {
    let mut bad = |msg: &str| errs.push(field::invalid(at, name, msg));
    if name.is_empty() {
        bad("runAsUserName cannot be an empty string");
        return;
    }
    if name.chars().any(|c| c.is_ascii_control()) {
        bad("runAsUserName cannot contain control characters");
        return;
    }
    let parts: Vec<&str> = name.split('\\').collect();
    if parts.len() > 2 {
        bad("runAsUserName cannot contain more than one backslash");
        return;
    }
    let (domain, user) = match parts.as_slice() {
        [user] => (None, *user),
        [domain, user] => (Some(*domain), *user),
        _ => return,
    };
    if domain.is_some_and(|d| d.len() >= MAX_DOMAIN_LENGTH) {
        bad(&format!(
            "runAsUserName's Domain length must be under {MAX_DOMAIN_LENGTH} characters"
        ));
    }
    if let Some(domain) = domain {
        if !is_netbios_domain(domain) && !is_dns_domain(domain) {
            bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
        }
    }
    if user.is_empty() {
        bad("runAsUserName's User cannot be empty");
    } else if user.len() > MAX_USER_LENGTH {
        bad(&format!(
            "runAsUserName's User length must not be longer than {MAX_USER_LENGTH} characters"
        ));
    }
    if !user.is_empty() && user.chars().all(|c| c == '.' || c == ' ') {
        bad("runAsUserName's User cannot contain only periods or spaces");
    }
    if user.chars().any(|c| "\"/\\:;|=,+*?<>@[]".contains(c)) {
        bad("runAsUserName's User cannot contain the following characters: \"/\\:;|=,+*?<>@[]");
    }
}

/// 1 to 15 characters without `\ / : * ? " < > |`, not starting with `.`.
fn is_netbios_domain(domain: &str) -> bool {
    const FORBIDDEN: &str = "\\/:*?\"<>|";
    let mut chars = domain.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    first != '.'
        && !FORBIDDEN.contains(first)
        && domain.chars().count() <= 15
        && chars.all(|c| !FORBIDDEN.contains(c))
}

/// Dot-separated labels of letters, digits and inner dashes, each at most 63 long.
fn is_dns_domain(domain: &str) -> bool {
    domain.split('.').all(|label| {
        let b = label.as_bytes();
        let ok = |c: &u8| c.is_ascii_alphanumeric();
        match b {
            [] => false,
            [one] => ok(one),
            [first, middle @ .., last] => {
                b.len() <= 63 && ok(first) && ok(last) && middle.iter().all(|c| ok(c) || *c == b'-')
            }
        }
    })
}
