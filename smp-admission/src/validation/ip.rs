//! IP addresses and CIDR values as the legacy core fields read them: the "sloppy" parser of
//! `k8s.io/utils/net` (Go 1.16's `net.ParseIP`, which reads IPv4 octets with leading zeros as
//! decimal), `IsValidIPForLegacyField`, `IsValidCIDRForLegacyField` and `ValidateEndpointIP`.
//! `StrictIPCIDRValidation` is off by default in v1.34, so only the non-strict checks are here.
//! CIDR blocks parse into [`Cidr`], with `net.IPNet`'s containment, for NetworkPolicy's
//! `ipBlock.except`.

use crate::validation::field::{self, ErrorList, Path};

/// An address as Go keeps it: 16 bytes, IPv4 stored as `::ffff:a.b.c.d`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ip([u8; 16]);

const V4_PREFIX: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/// Past this a run of digits is refused (the parser's `big`).
const BIG: u32 = 0x00FF_FFFF;

impl Ip {
    /// The four IPv4 bytes when this address is IPv4 (or IPv4-mapped IPv6), as `To4`.
    pub(crate) fn to4(self) -> Option<[u8; 4]> {
        (self.0[..12] == V4_PREFIX).then(|| [self.0[12], self.0[13], self.0[14], self.0[15]])
    }

    /// The sixteen bytes Go keeps (IPv4 as `::ffff:a.b.c.d`), for printing the address.
    pub(crate) fn octets(self) -> [u8; 16] {
        self.0
    }

    /// The address of sixteen bytes as Go keeps them.
    pub(crate) fn from_octets(bytes: [u8; 16]) -> Ip {
        Ip(bytes)
    }

    /// Go's `net.IP.String`: dotted decimal for IPv4 (and IPv4-mapped IPv6), else
    /// [`Ip::v6_string`].
    pub(crate) fn go_string(self) -> String {
        match self.to4() {
            Some([a, b, c, d]) => format!("{a}.{b}.{c}.{d}"),
            None => self.v6_string(),
        }
    }

    /// The sixteen bytes in RFC 5952 form, whatever the address (an IPv4-mapped one too):
    /// lowercase groups without leading zeros, the first longest run of two or more zero
    /// groups written `::`.
    pub(crate) fn v6_string(self) -> String {
        let groups: Vec<u16> = self
            .0
            .chunks_exact(2)
            .map(|pair| u16::from_be_bytes([pair[0], pair[1]]))
            .collect();
        let (mut best_start, mut best_len) = (usize::MAX, 0);
        let mut i = 0;
        while i < groups.len() {
            let run = groups[i..].iter().take_while(|&&g| g == 0).count();
            if run >= 2 && run > best_len {
                (best_start, best_len) = (i, run);
            }
            i += run.max(1);
        }
        let mut out = String::new();
        let mut i = 0;
        while i < groups.len() {
            if i == best_start {
                out.push_str("::");
                i += best_len;
                continue;
            }
            if !out.is_empty() && !out.ends_with(':') {
                out.push(':');
            }
            out.push_str(&format!("{:x}", groups[i]));
            i += 1;
        }
        out
    }

    /// Whether Go would call this an IPv6 address (`IsIPv6`: not representable as IPv4).
    pub(crate) fn is_v6(self) -> bool {
        self.to4().is_none()
    }

    fn is_unspecified(self) -> bool {
        self.0 == [0; 16] || self.to4() == Some([0; 4])
    }

    fn is_loopback(self) -> bool {
        match self.to4() {
            Some(v4) => v4[0] == 127,
            None => self.0 == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        }
    }

    fn is_link_local_unicast(self) -> bool {
        match self.to4() {
            Some(v4) => v4[0] == 169 && v4[1] == 254,
            None => self.0[0] == 0xfe && self.0[1] & 0xc0 == 0x80,
        }
    }

    fn is_link_local_multicast(self) -> bool {
        match self.to4() {
            Some(v4) => v4[0] == 224 && v4[1] == 0 && v4[2] == 0,
            None => self.0[0] == 0xff && self.0[1] & 0x0f == 0x02,
        }
    }
}

/// Leading decimal digits of `s`: (value, digits read); `None` when there are none or they
/// reach the parser's limit.
fn decimal(s: &[u8]) -> Option<(u32, usize)> {
    let mut n = 0u32;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        n = n * 10 + u32::from(s[i] - b'0');
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// Leading hexadecimal digits of `s`, as [`decimal`].
fn hex(s: &[u8]) -> Option<(u32, usize)> {
    let mut n = 0u32;
    let mut i = 0;
    while i < s.len() {
        let Some(d) = (s[i] as char).to_digit(16) else {
            break;
        };
        n = n * 16 + d;
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

pub(crate) fn parse_v4(mut s: &[u8]) -> Option<Ip> {
    let mut out = [0u8; 16];
    out[..12].copy_from_slice(&V4_PREFIX);
    for i in 0..4 {
        if i > 0 {
            s = s.strip_prefix(b".")?;
        }
        let (n, used) = decimal(s)?;
        out[12 + i] = u8::try_from(n).ok()?;
        s = &s[used..];
    }
    s.is_empty().then_some(Ip(out))
}

pub(crate) fn parse_v6(mut s: &[u8]) -> Option<Ip> {
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.starts_with(b"::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Some(Ip(ip));
        }
    }
    let mut i = 0;
    while i < 16 {
        let (n, used) = hex(s)?;
        if n > 0xFFFF {
            return None;
        }
        if s.get(used) == Some(&b'.') {
            // An embedded IPv4 address closes the address.
            if (ellipsis.is_none() && i != 12) || i + 4 > 16 {
                return None;
            }
            let v4 = parse_v4(s)?;
            ip[i..i + 4].copy_from_slice(&v4.0[12..]);
            s = &[];
            i += 4;
            break;
        }
        ip[i] = (n >> 8) as u8;
        ip[i + 1] = n as u8;
        i += 2;
        s = &s[used..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return None;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    match (i < 16, ellipsis) {
        (true, Some(e)) => {
            let gap = 16 - i;
            ip.copy_within(e..i, e + gap);
            ip[e..e + gap].fill(0);
        }
        (true, None) | (false, Some(_)) => return None,
        (false, None) => {}
    }
    Some(Ip(ip))
}

/// `netutils.ParseIPSloppy`: the first `.` or `:` decides the family.
pub(crate) fn parse_ip_sloppy(s: &str) -> Option<Ip> {
    match s.bytes().find(|&c| c == b'.' || c == b':') {
        Some(b'.') => parse_v4(s.as_bytes()),
        Some(_) => parse_v6(s.as_bytes()),
        None => None,
    }
}

/// `netutils.ParseCIDRSloppy` reduced to what validation needs: whether `s` parses.
pub(crate) fn is_cidr_sloppy(s: &str) -> bool {
    let Some((addr, mask)) = s.split_once('/') else {
        return false;
    };
    let bits = if let Some(_ip) = parse_v4(addr.as_bytes()) {
        32
    } else if parse_v6(addr.as_bytes()).is_some() {
        128
    } else {
        return false;
    };
    matches!(decimal(mask.as_bytes()), Some((n, used)) if used == mask.len() && n <= bits)
}

/// `IsValidInterfaceAddress`: an address and a prefix length (`10.9.8.7/24`), written as Go
/// writes it back: the address in its canonical form and the prefix length in decimal.
pub(crate) fn validate_interface_address(path: &Path, value: &str, errs: &mut ErrorList) {
    let parsed = value.split_once('/').and_then(|(addr, mask)| {
        let (ip, bits) = match parse_v4(addr.as_bytes()) {
            Some(ip) => (ip, 32),
            None => (parse_v6(addr.as_bytes())?, 128),
        };
        match decimal(mask.as_bytes()) {
            // An IPv4-mapped address with a 128-bit prefix counts its IPv4 bits only.
            Some((n, used)) if used == mask.len() && n <= bits => Some((
                ip,
                if ip.to4().is_some() && n > 32 {
                    n - 96
                } else {
                    n
                },
            )),
            _ => None,
        }
    });
    let Some((ip, bits)) = parsed else {
        errs.push(field::invalid(
            path,
            value,
            "must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)",
        ));
        return;
    };
    let address = match ip.to4() {
        Some(v4) => std::net::Ipv4Addr::from(v4).to_string(),
        None => std::net::Ipv6Addr::from(ip.0).to_string(),
    };
    let canonical = format!("{address}/{bits}");
    if value != canonical {
        errs.push(field::invalid(
            path,
            value,
            &format!("must be in canonical form ({canonical:?})"),
        ));
    }
}

/// `IsValidIPForLegacyField` (non-strict): a value already in `valid_old` passes unparsed.
pub(crate) fn validate_legacy_ip(
    path: &Path,
    value: &str,
    valid_old: &[&str],
    errs: &mut ErrorList,
) {
    if valid_old.contains(&value) {
        return;
    }
    if parse_ip_sloppy(value).is_none() {
        errs.push(field::invalid(
            path,
            value,
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
        ));
    }
}

/// `IsValidCIDRForLegacyField` (non-strict).
pub(crate) fn validate_legacy_cidr(
    path: &Path,
    value: &str,
    valid_old: &[&str],
    errs: &mut ErrorList,
) {
    if valid_old.contains(&value) {
        return;
    }
    if !is_cidr_sloppy(value) {
        errs.push(field::invalid(
            path,
            value,
            "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
        ));
    }
}

/// `ValidateEndpointIP`: a parsable address that is not unspecified, loopback or link-local.
pub(crate) fn validate_endpoint_ip(path: &Path, value: &str, errs: &mut ErrorList) {
    let Some(ip) = parse_ip_sloppy(value) else {
        errs.push(field::invalid(path, value, "must be a valid IP address"));
        return;
    };
    if ip.is_unspecified() {
        errs.push(field::invalid(
            path,
            value,
            &format!("may not be unspecified ({value})"),
        ));
    }
    if ip.is_loopback() {
        errs.push(field::invalid(
            path,
            value,
            "may not be in the loopback range (127.0.0.0/8, ::1/128)",
        ));
    }
    if ip.is_link_local_unicast() {
        errs.push(field::invalid(
            path,
            value,
            "may not be in the link-local range (169.254.0.0/16, fe80::/10)",
        ));
    }
    if ip.is_link_local_multicast() {
        errs.push(field::invalid(
            path,
            value,
            "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)",
        ));
    }
}

/// Whether `text` is an IP address (`ParseIPSloppy` returns one).
pub(crate) fn is_ip_sloppy(text: &str) -> bool {
    parse_ip_sloppy(text).is_some()
}

/// A CIDR block as Go's `ParseCIDR` returns its `IPNet`: the masked address and the mask.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cidr {
    /// The network address: 4 bytes for an IPv4 text, 16 for an IPv6 one.
    pub ip: Vec<u8>,
    /// The mask, as long as the address.
    pub mask: Vec<u8>,
    /// The prefix length.
    pub ones: u32,
}

fn cidr_mask(ones: u32, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| {
            let start = u32::try_from(i * 8).unwrap_or(u32::MAX);
            match ones.saturating_sub(start) {
                0 => 0,
                n if n >= 8 => 0xff,
                n => 0xffu8 << (8 - n),
            }
        })
        .collect()
}

/// `ParseCIDRSloppy`: `None` when the text is not a CIDR block.
pub(crate) fn parse_cidr_sloppy(text: &str) -> Option<Cidr> {
    let (addr, prefix) = text.split_once('/')?;
    let (ip, bits): ([u8; 16], u32) = match parse_v4(addr.as_bytes()) {
        Some(ip) => (ip.0, 32),
        None => (parse_v6(addr.as_bytes())?.0, 128),
    };
    let (ones, used) = decimal(prefix.as_bytes())?;
    if used != prefix.len() || ones > bits {
        return None;
    }
    let (ip, len): (&[u8], usize) = if bits == 32 {
        (&ip[12..], 4)
    } else {
        (&ip[..], 16)
    };
    let mask = cidr_mask(ones, len);
    let ip = ip.iter().zip(&mask).map(|(a, m)| a & m).collect();
    Some(Cidr { ip, mask, ones })
}

/// Go's `IP.To4`: the IPv4 bytes of a 4-byte address or of an IPv4-mapped 16-byte one.
fn to4(ip: &[u8]) -> Option<&[u8]> {
    match ip.len() {
        4 => Some(ip),
        16 if ip[..10].iter().all(|&b| b == 0) && ip[10] == 0xff && ip[11] == 0xff => {
            Some(&ip[12..])
        }
        _ => None,
    }
}

impl Cidr {
    /// `IPNet.Contains(ip)`.
    pub(crate) fn contains(&self, ip: &[u8]) -> bool {
        let (net, mask): (&[u8], &[u8]) = match to4(&self.ip) {
            Some(v4) => match self.mask.len() {
                4 => (v4, &self.mask),
                16 => (v4, &self.mask[12..]),
                _ => return false,
            },
            None if self.ip.len() == 16 && self.mask.len() == 16 => (&self.ip, &self.mask),
            None => return false,
        };
        let ip = to4(ip).unwrap_or(ip);
        ip.len() == net.len()
            && net
                .iter()
                .zip(mask)
                .zip(ip)
                .all(|((n, m), x)| n & m == x & m)
    }
}

#[cfg(test)]
mod cidr_tests {
    use super::*;

    #[test]
    fn sloppy_ipv4_allows_leading_zeros() {
        assert!(is_ip_sloppy("010.001.002.003"));
        assert!(is_ip_sloppy("1.2.3.4"));
        assert!(!is_ip_sloppy("1.2.3"));
        assert!(!is_ip_sloppy("1.2.3.256"));
        assert!(!is_ip_sloppy("foo.com"));
    }

    #[test]
    fn ipv6_forms() {
        assert!(is_ip_sloppy("::1"));
        assert!(is_ip_sloppy("::"));
        assert!(is_ip_sloppy("2001:db8::1"));
        assert!(is_ip_sloppy("::ffff:1.2.3.4"));
        assert!(!is_ip_sloppy("2001:db8:::1"));
        assert!(!is_ip_sloppy("1:2:3:4:5:6:7:8:9"));
        assert!(!is_ip_sloppy("1::2::3"));
        assert!(!is_ip_sloppy("fe80::1%eth0"));
        assert!(!is_ip_sloppy("1:2:3:4:5:6:7::8"));
    }

    #[test]
    fn cidrs() {
        let c = parse_cidr_sloppy("192.168.1.1/24").unwrap();
        assert_eq!(c.ip, vec![192, 168, 1, 0]);
        assert_eq!(c.ones, 24);
        assert!(parse_cidr_sloppy("10.0.0.0/33").is_none());
        assert!(parse_cidr_sloppy("10.0.0.0").is_none());
        assert!(parse_cidr_sloppy("10.0.0.0/8/9").is_none());
        assert!(parse_cidr_sloppy("10.0.0.0/").is_none());
        let v6 = parse_cidr_sloppy("2001:db8::/64").unwrap();
        assert_eq!(v6.ip.len(), 16);
        let inner = parse_cidr_sloppy("2001:db8:0:0:1::/80").unwrap();
        assert!(v6.contains(&inner.ip));
        let v4 = parse_cidr_sloppy("10.0.0.0/24").unwrap();
        assert!(!v6.contains(&v4.ip));
        let outer = parse_cidr_sloppy("10.0.0.0/8").unwrap();
        assert!(outer.contains(&v4.ip));
        let mapped = parse_cidr_sloppy("::ffff:10.1.0.0/112").unwrap();
        assert!(outer.contains(&mapped.ip));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sloppy_parsing_follows_go_1_16() {
        assert!(parse_ip_sloppy("010.001.002.003").is_some());
        assert_eq!(
            parse_ip_sloppy("1.2.3.4").and_then(Ip::to4),
            Some([1, 2, 3, 4])
        );
        assert!(parse_ip_sloppy("256.1.1.1").is_none());
        assert!(parse_ip_sloppy("1.2.3").is_none());
        assert!(parse_ip_sloppy("1.2.3.4 ").is_none());
        assert!(parse_ip_sloppy("[2001:db8::1]").is_none());
        assert!(parse_ip_sloppy("fe80::1%eth0").is_none());
        assert!(parse_ip_sloppy("2001:db8::1").is_some_and(Ip::is_v6));
        assert!(!parse_ip_sloppy("::ffff:1.2.3.4").is_some_and(Ip::is_v6));
        assert!(parse_ip_sloppy("::1.2.3.4").is_some_and(Ip::is_v6));
        assert!(parse_ip_sloppy("1:2:3:4:5:6:7:8").is_some());
        assert!(parse_ip_sloppy("1:2:3:4:5:6:7:8:9").is_none());
        assert!(parse_ip_sloppy("1::2::3").is_none());
        assert!(parse_ip_sloppy("::").is_some());
        assert!(parse_ip_sloppy("00001::").is_some());
        assert!(parse_ip_sloppy("garbage").is_none());
    }

    #[test]
    fn cidrs() {
        assert!(is_cidr_sloppy("10.0.0.0/8"));
        assert!(is_cidr_sloppy("10.0.0.1/08"));
        assert!(is_cidr_sloppy("2001:db8::/64"));
        assert!(!is_cidr_sloppy("1.2.3.4/33"));
        assert!(!is_cidr_sloppy("1.2.3.4"));
        assert!(!is_cidr_sloppy("1.2.3.4/"));
        assert!(!is_cidr_sloppy("2001:db8::/129"));
    }

    #[test]
    fn endpoint_ips() {
        let path = Path::new("ip");
        let mut errs = ErrorList::new();
        for ip in [
            "0.0.0.0",
            "::",
            "127.0.0.2",
            "::1",
            "169.254.1.1",
            "fe80::1",
            "224.0.0.5",
            "ff02::2",
            "::ffff:127.0.0.1",
        ] {
            validate_endpoint_ip(&path, ip, &mut errs);
        }
        assert_eq!(errs.len(), 9);
        errs.clear();
        for ip in ["10.0.0.1", "2001:db8::1", "224.0.1.1", "ff05::1"] {
            validate_endpoint_ip(&path, ip, &mut errs);
        }
        assert!(errs.is_empty(), "{errs:?}");
    }
}
