//! Warnings for addresses and CIDR blocks the legacy fields still accept but that a stricter
//! parser (`net/netip`) refuses or prints differently: IPv4 octets with leading zeros,
//! IPv4-mapped IPv6 addresses, IPv6 not in RFC 5952 form, and CIDR blocks with host bits set
//! (`GetWarningsForIP` and `GetWarningsForCIDR` of apimachinery v0.34). A value that does not
//! parse at all is validation's to refuse and draws no warning.

use super::sink::Sink;
use crate::validation::field::{Path, go_quote};
use crate::validation::ip::{Ip, parse_cidr_sloppy, parse_ip_sloppy};

/// The warnings for the address `value` at `path`.
pub(super) fn ip_warnings(path: &Path, value: &str, out: &mut Sink) {
    let Some(ip) = parse_ip_sloppy(value) else {
        return;
    };
    let v6_text = is_v6_text(value);
    // The strict parser refuses leading zeros; and a mapped IPv4 address is better written
    // as the IPv4 address it is. Either way the sloppy parse, printed, is the preferred form.
    if has_leading_zero_octet(value) || (v6_text && ip.to4().is_some()) {
        out.push(format!(
            "{path}: non-standard IP address {} will be considered invalid in a future Kubernetes release: use {}",
            quoted(value),
            quoted(&ip.go_string())
        ));
        return;
    }
    if v6_text {
        let canonical = ip.v6_string();
        if canonical != value {
            out.push(format!(
                "{path}: IPv6 address {} should be in RFC 5952 canonical format ({})",
                quoted(value),
                quoted(&canonical)
            ));
        }
    }
}

/// The warnings for the CIDR block `value` at `path`.
pub(super) fn cidr_warnings(path: &Path, value: &str, out: &mut Sink) {
    let Some(cidr) = parse_cidr_sloppy(value) else {
        return;
    };
    let Some((addr_text, bits_text)) = value.split_once('/') else {
        return;
    };
    let Some(addr) = parse_ip_sloppy(addr_text) else {
        return;
    };
    let v6_text = is_v6_text(addr_text);
    let network = widen(&cidr.ip);
    let network_text = network_string(&network, cidr.ones, v6_text);
    let mut warned = false;
    if network != addr.octets() {
        let single = if v6_text { 128 } else { 32 };
        out.push(format!(
            "{path}: CIDR value {} is ambiguous in this context (should be {} or {}?)",
            quoted(value),
            quoted(&network_text),
            quoted(&format!("{}/{single}", addr.go_string()))
        ));
        warned = true;
    }
    // `netip.ParsePrefix` also refuses a prefix length written with leading zeros.
    let strict_refuses =
        has_leading_zero_octet(addr_text) || (bits_text.len() > 1 && bits_text.starts_with('0'));
    if strict_refuses || (v6_text && addr.to4().is_some()) {
        out.push(format!(
            "{path}: non-standard CIDR value {} will be considered invalid in a future Kubernetes release: use {}",
            quoted(value),
            quoted(&network_text)
        ));
        warned = true;
    }
    if !warned && v6_text {
        let canonical = format!("{}/{}", addr.v6_string(), cidr.ones);
        if canonical != value {
            out.push(format!(
                "{path}: IPv6 CIDR value {} should be in RFC 5952 canonical format ({})",
                quoted(value),
                quoted(&canonical)
            ));
        }
    }
}

fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    go_quote(s, &mut out);
    out
}

/// Whether the sloppy parser reads `text` as IPv6 (its first separator is a colon).
fn is_v6_text(text: &str) -> bool {
    text.bytes().find(|&c| c == b'.' || c == b':') == Some(b':')
}

/// Whether a dotted IPv4 part of `text` (all of it, or the tail of an IPv6 text) has an
/// octet written with a leading zero.
fn has_leading_zero_octet(text: &str) -> bool {
    let dotted = text.rsplit(':').next().unwrap_or(text);
    dotted.contains('.')
        && dotted
            .split('.')
            .any(|octet| octet.len() > 1 && octet.starts_with('0'))
}

/// A network address of 4 or 16 bytes as the 16 Go compares.
fn widen(ip: &[u8]) -> [u8; 16] {
    let mut out = [0u8; 16];
    match ip.len() {
        4 => {
            out[10] = 0xff;
            out[11] = 0xff;
            out[12..].copy_from_slice(ip);
        }
        16 => out.copy_from_slice(ip),
        _ => {}
    }
    out
}

/// `IPNet.String()`: a network that is IPv4 once masked prints its prefix length in IPv4
/// bits, even when written as IPv6.
fn network_string(network: &[u8; 16], ones: u32, v6_text: bool) -> String {
    let network = Ip::from_octets(*network);
    let ones = if v6_text && network.to4().is_some() {
        ones.saturating_sub(96)
    } else {
        ones
    };
    format!("{}/{ones}", network.go_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(value: &str) -> Vec<String> {
        let mut out = Sink::default();
        ip_warnings(&Path::new("ip"), value, &mut out);
        out.into_sent()
    }

    fn cidr(value: &str) -> Vec<String> {
        let mut out = Sink::default();
        cidr_warnings(&Path::new("cidr"), value, &mut out);
        out.into_sent()
    }

    #[test]
    fn addresses() {
        assert!(ip("1.2.3.4").is_empty());
        assert!(ip("2001:db8::1").is_empty());
        assert!(ip("not an ip").is_empty());
        assert_eq!(
            ip("010.002.003.004"),
            [
                "ip: non-standard IP address \"010.002.003.004\" will be considered invalid in a future Kubernetes release: use \"10.2.3.4\""
            ]
        );
        assert_eq!(
            ip("::ffff:1.2.3.4"),
            [
                "ip: non-standard IP address \"::ffff:1.2.3.4\" will be considered invalid in a future Kubernetes release: use \"1.2.3.4\""
            ]
        );
        assert_eq!(
            ip("2001:DB8::0:1"),
            [
                "ip: IPv6 address \"2001:DB8::0:1\" should be in RFC 5952 canonical format (\"2001:db8::1\")"
            ]
        );
        assert_eq!(Ip::from_octets(widen(&[0; 16])).v6_string(), "::");
        assert_eq!(
            Ip::from_octets([0x20, 1, 0xd, 0xb8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]).v6_string(),
            "2001:db8:0:1::1"
        );
    }

    #[test]
    fn blocks() {
        assert!(cidr("10.0.0.0/8").is_empty());
        assert_eq!(
            cidr("10.0.0.1/8"),
            [
                "cidr: CIDR value \"10.0.0.1/8\" is ambiguous in this context (should be \"10.0.0.0/8\" or \"10.0.0.1/32\"?)"
            ]
        );
        assert_eq!(
            cidr("010.0.0.0/8"),
            [
                "cidr: non-standard CIDR value \"010.0.0.0/8\" will be considered invalid in a future Kubernetes release: use \"10.0.0.0/8\""
            ]
        );
        assert_eq!(
            cidr("2001:DB8::/64"),
            [
                "cidr: IPv6 CIDR value \"2001:DB8::/64\" should be in RFC 5952 canonical format (\"2001:db8::/64\")"
            ]
        );
        assert_eq!(
            cidr("::ffff:1.2.3.0/120"),
            [
                "cidr: non-standard CIDR value \"::ffff:1.2.3.0/120\" will be considered invalid in a future Kubernetes release: use \"1.2.3.0/24\""
            ]
        );
    }
}
