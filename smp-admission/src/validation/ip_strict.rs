//! The strict IP and CIDR checks of apimachinery v0.34 (`IsValidIP`, `IsValidCIDR`), which
//! fields newer than the legacy ones use whatever `StrictIPCIDRValidation` says: the value
//! must parse as the sloppy parser reads it, then also as `net/netip` reads it (no leading
//! zeros, no IPv4-mapped IPv6), and be written as Go writes it back.
//!
//! `net/netip` refuses what the sloppy parser allows in a few ways (a zero-led IPv4 octet, an
//! IPv6 group of more than four digits, a zero-led prefix length); the server reads any of
//! them as "leading 0s", and so does this.

use super::field::{self, ErrorList, Path};
use super::ip::{Ip, parse_cidr_sloppy, parse_ip_sloppy};

const NOT_AN_IP: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const NOT_A_CIDR: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

/// Whether `net/netip` would refuse an address text the sloppy parser took, for digits alone:
/// an IPv4 octet with a leading zero, or an IPv6 group of more than four digits.
fn has_leading_zeros(text: &str) -> bool {
    let v4_part = |part: &str| part.len() > 1 && part.starts_with('0');
    if text.contains(':') {
        text.split(':').any(|group| {
            if group.contains('.') {
                group.split('.').any(v4_part)
            } else {
                group.len() > 4
            }
        })
    } else {
        text.split('.').any(v4_part)
    }
}

/// Whether an IPv6 text holds an IPv4-mapped address (`netip.Addr.Is4In6`).
fn is_4in6(text: &str, ip: Ip) -> bool {
    text.contains(':') && ip.to4().is_some()
}

/// `IsValidIP`: the messages only (for a name check), in the server's order.
pub(crate) fn ip_messages(value: &str) -> Vec<String> {
    let Some(ip) = parse_ip_sloppy(value) else {
        return vec![NOT_AN_IP.to_owned()];
    };
    if has_leading_zeros(value) {
        return vec!["must not have leading 0s".to_owned()];
    }
    if is_4in6(value, ip) {
        return vec!["must not be an IPv4-mapped IPv6 address".to_owned()];
    }
    let canonical = ip.go_string();
    if value != canonical {
        return vec![format!("must be in canonical form (\"{canonical}\")")];
    }
    Vec::new()
}

/// `IsValidCIDR`: a subnet (no bits past the prefix) written as Go writes it.
pub(crate) fn validate_cidr(path: &Path, value: &str, errs: &mut ErrorList) {
    let Some(cidr) = parse_cidr_sloppy(value) else {
        errs.push(field::invalid(path, value, NOT_A_CIDR));
        return;
    };
    let (addr, bits) = value.split_once('/').unwrap_or((value, ""));
    let Some(ip) = parse_ip_sloppy(addr) else {
        errs.push(field::invalid(path, value, NOT_A_CIDR));
        return;
    };
    let message = if has_leading_zeros(addr) || (bits.len() > 1 && bits.starts_with('0')) {
        Some("must not have leading 0s in IP or prefix length".to_owned())
    } else if is_4in6(addr, ip) {
        Some("must not have an IPv4-mapped IPv6 address".to_owned())
    } else if !masked_equal(ip, &cidr.ip) {
        Some("must not have bits set beyond the prefix length".to_owned())
    } else {
        let canonical = format!("{}/{}", network_string(&cidr.ip), cidr.ones);
        (value != canonical).then(|| format!("must be in canonical form (\"{canonical}\")"))
    };
    if let Some(message) = message {
        errs.push(field::invalid(path, value, &message));
    }
}

/// Whether the address equals the network the CIDR masked it to.
fn masked_equal(ip: Ip, network: &[u8]) -> bool {
    let bytes = ip.octets();
    match network.len() {
        4 => bytes.get(12..) == Some(network),
        _ => bytes[..] == *network,
    }
}

/// The network address as Go prints an `IPNet`'s IP (4 bytes, or 16).
fn network_string(network: &[u8]) -> String {
    if let [a, b, c, d] = network {
        return format!("{a}.{b}.{c}.{d}");
    }
    // Sixteen bytes written out in full parse back to the same address.
    let full = network
        .chunks_exact(2)
        .map(|pair| format!("{:x}", u16::from_be_bytes([pair[0], pair[1]])))
        .collect::<Vec<_>>()
        .join(":");
    parse_ip_sloppy(&full).map_or_else(String::new, Ip::go_string)
}

/// The IP family of a CIDR as `IsIPv6CIDR` sees it: `None` when it does not parse.
pub(crate) fn cidr_is_v6(value: &str) -> Option<bool> {
    let cidr = parse_cidr_sloppy(value)?;
    let v4_mapped = cidr.ip.len() == 4
        || (cidr.ip.get(..12) == Some(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff][..]));
    Some(!v4_mapped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cidr(value: &str) -> Vec<String> {
        let mut errs = ErrorList::new();
        validate_cidr(&Path::new("c"), value, &mut errs);
        errs.into_iter().map(|e| e.detail).collect()
    }

    #[test]
    fn ips_print_as_go_prints_them() {
        for (text, printed) in [
            ("2001:4860:4860:0::8888", "2001:4860:4860::8888"),
            ("1:0:0:1:0:0:0:1", "1:0:0:1::1"),
            ("1:0:1:0:1:0:1:0", "1:0:1:0:1:0:1:0"),
            ("::", "::"),
            ("FE80::1", "fe80::1"),
            ("1:0:0:2:0:0:3:4", "1::2:0:0:3:4"),
        ] {
            let ip = parse_ip_sloppy(text).unwrap();
            assert_eq!(ip.go_string(), printed, "{text}");
        }
    }

    #[test]
    fn ip_checks_stop_at_the_first_failure() {
        assert!(ip_messages("192.168.1.1").is_empty());
        assert_eq!(ip_messages("192.168.01.1"), ["must not have leading 0s"]);
        assert_eq!(
            ip_messages("::ffff:1.2.3.4"),
            ["must not be an IPv4-mapped IPv6 address"]
        );
        assert_eq!(
            ip_messages("2001:4860:4860:0::8888"),
            ["must be in canonical form (\"2001:4860:4860::8888\")"]
        );
        assert_eq!(ip_messages("test-name"), [NOT_AN_IP]);
    }

    #[test]
    fn cidrs_are_subnets_in_canonical_form() {
        assert!(cidr("192.168.0.0/24").is_empty());
        assert!(cidr("fd00:1234::/64").is_empty());
        assert_eq!(
            cidr("192.168.0.1/24"),
            ["must not have bits set beyond the prefix length"]
        );
        assert_eq!(
            cidr("192.168.007.0/24"),
            ["must not have leading 0s in IP or prefix length"]
        );
        assert_eq!(
            cidr("10.0.0.0/08"),
            ["must not have leading 0s in IP or prefix length"]
        );
        assert_eq!(
            cidr("FD00:1234::/64"),
            ["must be in canonical form (\"fd00:1234::/64\")"]
        );
        assert_eq!(cidr("192.168.0.1"), [NOT_A_CIDR]);
        assert_eq!(cidr_is_v6("10.0.0.0/8"), Some(false));
        assert_eq!(cidr_is_v6("fd00::/64"), Some(true));
        assert_eq!(cidr_is_v6("x"), None);
    }
}
