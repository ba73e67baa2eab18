//! Name resolution inside the pod: `dnsConfig` (`validatePodDNSConfig`), `hostAliases`
//! (`ValidateHostAliases`) and `hostnameOverride` (`validatePodHostName`).

use std::net::Ipv6Addr;

use serde_json::Value;

use super::PodOptions;
use crate::validation::field::{self, BadValue, ErrorList, Path};
use crate::validation::names;
use crate::validation::read;

const MAX_NAMESERVERS: usize = 3;
const MAX_SEARCHES: usize = 32;
const MAX_SEARCH_CHARS: usize = 2048;

const NOT_AN_IP: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

/// `validatePodDNSConfig`.
pub(super) fn validate_dns_config(
    spec: &Value,
    path: &Path,
    options: &PodOptions,
    errs: &mut ErrorList,
) {
    let config_path = path.child("dnsConfig");
    let config = spec.get("dnsConfig").filter(|c| c.is_object());
    let nameservers = config.map_or(&[][..], |c| read::list(c, "nameservers"));
    let nameservers_path = config_path.child("nameservers");
    if read::text(spec, "dnsPolicy") == "None" {
        if config.is_none() {
            errs.push(field::required(
                &config_path,
                "must provide `dnsConfig` when `dnsPolicy` is None",
            ));
            return;
        }
        if nameservers.is_empty() {
            errs.push(field::required(
                &nameservers_path,
                "must provide at least one DNS nameserver when `dnsPolicy` is None",
            ));
            return;
        }
    }
    let Some(config) = config else {
        return;
    };
    if nameservers.len() > MAX_NAMESERVERS {
        errs.push(field::invalid(
            &nameservers_path,
            BadValue::Json(Value::Array(nameservers.to_vec())),
            &format!("must not have more than {MAX_NAMESERVERS} nameservers"),
        ));
    }
    for (i, server) in nameservers.iter().enumerate() {
        legacy_ip(
            server.as_str().unwrap_or(""),
            &nameservers_path.index(i),
            errs,
        );
    }
    validate_searches(config, &config_path, options, errs);
    let options_path = config_path.child("options");
    for (i, option) in read::list(config, "options").iter().enumerate() {
        if read::text(option, "name").is_empty() {
            errs.push(field::required(&options_path.index(i), "must not be empty"));
        }
    }
}

fn validate_searches(config: &Value, path: &Path, options: &PodOptions, errs: &mut ErrorList) {
    let searches = read::list(config, "searches");
    let searches_path = path.child("searches");
    let as_value = || BadValue::Json(Value::Array(searches.to_vec()));
    if searches.len() > MAX_SEARCHES {
        errs.push(field::invalid(
            &searches_path,
            as_value(),
            &format!("must not have more than {MAX_SEARCHES} search paths"),
        ));
    }
    let texts: Vec<&str> = searches.iter().map(|s| s.as_str().unwrap_or("")).collect();
    let joined = texts.iter().map(|s| s.len()).sum::<usize>() + texts.len().saturating_sub(1);
    if joined > MAX_SEARCH_CHARS {
        errs.push(field::invalid(
            &searches_path,
            as_value(),
            &format!(
                "must not have more than {MAX_SEARCH_CHARS} characters (including spaces) in the search list"
            ),
        ));
    }
    for (i, search) in texts.into_iter().enumerate() {
        let at = searches_path.index(i);
        if options.allow_relaxed_dns_search_validation {
            if search == "." {
                continue;
            }
            let search = search.strip_suffix('.').unwrap_or(search);
            for msg in subdomain_with_underscore(search) {
                errs.push(field::invalid(&at, search, &msg));
            }
        } else {
            let search = search.strip_suffix('.').unwrap_or(search);
            for msg in names::is_dns1123_subdomain(search) {
                errs.push(field::invalid(&at, search, &msg));
            }
        }
    }
}

const LABEL_U_FMT: &str = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?";
const SUBDOMAIN_U_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character";

/// `IsDNS1123SubdomainWithUnderscore`: each label may open with `_` and hold `_` inside.
fn subdomain_with_underscore(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > names::DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(names::max_len_error(names::DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let label_ok = |label: &str| {
        let b = label.strip_prefix('_').unwrap_or(label).as_bytes();
        match b {
            [] => false,
            [one] => alnum(*one),
            [first, middle @ .., last] => {
                alnum(*first)
                    && alnum(*last)
                    && middle.iter().all(|&c| alnum(c) || c == b'-' || c == b'_')
            }
        }
    };
    if !value.split('.').all(label_ok) {
        let pattern = format!("{LABEL_U_FMT}(\\.{LABEL_U_FMT})*");
        errs.push(names::regex_error(
            SUBDOMAIN_U_MSG,
            &pattern,
            &["example.com"],
        ));
    }
    errs
}

/// `IsValidIPForLegacyField` without strict checks (StrictIPCIDRValidation is off in v1.34):
/// IPv4 parts may have leading zeros.
pub(crate) fn legacy_ip(value: &str, path: &Path, errs: &mut ErrorList) {
    if !is_sloppy_ip(value) {
        errs.push(field::invalid(path, value, NOT_AN_IP));
    }
}

fn is_sloppy_ip(value: &str) -> bool {
    if value.contains(':') {
        return value.parse::<Ipv6Addr>().is_ok() || ipv6_with_sloppy_v4(value);
    }
    is_sloppy_ipv4(value)
}

fn is_sloppy_ipv4(value: &str) -> bool {
    let parts: Vec<&str> = value.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.bytes().all(|c| c.is_ascii_digit())
                && p.trim_start_matches('0').len() <= 3
                && p.parse::<u32>()
                    .map_or(p.trim_start_matches('0').is_empty(), |n| n <= 255)
        })
}

/// An IPv6 address whose embedded IPv4 tail has leading zeros.
fn ipv6_with_sloppy_v4(value: &str) -> bool {
    let Some((head, tail)) = value.rsplit_once(':') else {
        return false;
    };
    if !tail.contains('.') || !is_sloppy_ipv4(tail) {
        return false;
    }
    let normal: Vec<String> = tail
        .split('.')
        .map(|p| p.parse::<u32>().unwrap_or(0).to_string())
        .collect();
    format!("{head}:{}", normal.join("."))
        .parse::<Ipv6Addr>()
        .is_ok()
}

/// `ValidateHostAliases`: an IP each, and subdomains as host names.
pub(super) fn validate_host_aliases(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let aliases = path.child("hostAliases");
    for (i, alias) in read::list(spec, "hostAliases").iter().enumerate() {
        let at = aliases.index(i);
        legacy_ip(read::text(alias, "ip"), &at.child("ip"), errs);
        let hostnames = at.child("hostnames");
        for (j, host) in read::list(alias, "hostnames").iter().enumerate() {
            let host = host.as_str().unwrap_or("");
            for msg in names::is_dns1123_subdomain(host) {
                errs.push(field::invalid(&hostnames.index(j), host, &msg));
            }
        }
    }
}

/// `validatePodHostName`: `hostnameOverride` (dropped by the server while HostnameOverride is
/// off, as in v1.34; checked here when present).
pub(super) fn validate_hostname_override(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let Some(name) = read::opt_text(spec, "hostnameOverride") else {
        return;
    };
    let at = path.child("hostnameOverride");
    if read::opt_bool(spec, "setHostnameAsFQDN") == Some(true) {
        errs.push(field::forbidden(
            &at,
            "may not be specified when setHostnameAsFQDN is true",
        ));
    }
    if read::flag(spec, "hostNetwork") {
        errs.push(field::forbidden(
            &at,
            "may not be specified when hostNetwork is true",
        ));
    }
    if name.len() > 64 {
        errs.push(field::too_long(&at, 64));
    }
    for msg in names::is_dns1123_subdomain(name) {
        errs.push(field::invalid(&at, name, &msg));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sloppy_ips() {
        assert!(is_sloppy_ip("10.9.8.7"));
        assert!(is_sloppy_ip("010.009.008.007"));
        assert!(is_sloppy_ip("2001:db8::ffff"));
        assert!(is_sloppy_ip("::ffff:1.2.3.4"));
        assert!(!is_sloppy_ip("999.1.1.1"));
        assert!(!is_sloppy_ip("invalid"));
        assert!(!is_sloppy_ip("1.2.3"));
    }

    #[test]
    fn relaxed_search_domains() {
        assert!(subdomain_with_underscore("_sip._tcp.abc_d.example.com").is_empty());
        assert_eq!(subdomain_with_underscore("Bad!").len(), 1);
    }
}
