//! IP addresses and CIDR blocks read the "sloppy" way legacy networking fields are read:
//! `k8s.io/utils/net`'s `ParseIPSloppy` / `ParseCIDRSloppy`, which keep the parser of Go 1.16
//! (IPv4 octets may carry leading zeros). Addresses are kept as Go's `net.IP` holds them, so
//! that containment works as `net.IPNet.Contains` does, IPv4-mapped IPv6 addresses included.

/// A parsed address: 4 bytes (IPv4, as a CIDR's masked network address) or 16 bytes.
pub(crate) type Ip = Vec<u8>;

/// Go's `big`: the value past which digit runs stop being read.
const BIG: u32 = 0xFF_FFFF;

/// Reads leading decimal digits (`dtoi`): value and count, or `None` when there are none or
/// the value grows past `BIG`.
fn dtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
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

/// Reads leading hex digits (`xtoi`).
fn xtoi(s: &[u8]) -> Option<(u32, usize)> {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() {
        let d = match s[i] {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => break,
        };
        n = n * 16 + u32::from(d);
        if n >= BIG {
            return None;
        }
        i += 1;
    }
    (i > 0).then_some((n, i))
}

/// A dotted IPv4 address as 16 bytes (`::ffff:a.b.c.d`), leading zeros allowed.
fn parse_ipv4(mut s: &[u8]) -> Option<[u8; 16]> {
    let mut ip = [0u8; 16];
    ip[10] = 0xff;
    ip[11] = 0xff;
    for i in 0..4 {
        if s.is_empty() {
            return None;
        }
        if i > 0 {
            if s[0] != b'.' {
                return None;
            }
            s = &s[1..];
        }
        let (n, c) = dtoi(s)?;
        if n > 0xFF {
            return None;
        }
        s = &s[c..];
        ip[12 + i] = u8::try_from(n).ok()?;
    }
    s.is_empty().then_some(ip)
}

/// An IPv6 address (no zone): hex groups, one `::`, an optional trailing dotted IPv4.
fn parse_ipv6(mut s: &[u8]) -> Option<[u8; 16]> {
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.len() >= 2 && s[0] == b':' && s[1] == b':' {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Some(ip);
        }
    }
    let mut i = 0;
    while i < 16 {
        let (n, c) = xtoi(s)?;
        if n > 0xFFFF {
            return None;
        }
        if c < s.len() && s[c] == b'.' {
            if ellipsis.is_none() && i != 12 {
                return None;
            }
            if i + 4 > 16 {
                return None;
            }
            let v4 = parse_ipv4(s)?;
            ip[i..i + 4].copy_from_slice(&v4[12..]);
            s = &[];
            i += 4;
            break;
        }
        ip[i] = (n >> 8) as u8;
        ip[i + 1] = (n & 0xff) as u8;
        i += 2;
        s = &s[c..];
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
    if i < 16 {
        let e = ellipsis?;
        let n = 16 - i;
        for j in (e..i).rev() {
            ip[j + n] = ip[j];
        }
        for b in ip.iter_mut().skip(e).take(n) {
            *b = 0;
        }
    } else if ellipsis.is_some() {
        return None;
    }
    Some(ip)
}

/// Whether `text` is an IP address (`ParseIPSloppy` returns one).
pub(crate) fn is_ip_sloppy(text: &str) -> bool {
    let s = text.as_bytes();
    parse_ipv4(s).is_some() || parse_ipv6(s).is_some()
}

/// A CIDR block as Go's `ParseCIDR` returns its `IPNet`: the masked address and the mask.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cidr {
    /// The network address: 4 bytes for an IPv4 text, 16 for an IPv6 one.
    pub ip: Ip,
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
    let (ip, bits): ([u8; 16], u32) = match parse_ipv4(addr.as_bytes()) {
        Some(ip) => (ip, 32),
        None => (parse_ipv6(addr.as_bytes())?, 128),
    };
    let (ones, used) = dtoi(prefix.as_bytes())?;
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
mod tests {
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
