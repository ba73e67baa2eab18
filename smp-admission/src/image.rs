//! The tag of a container image reference, as the kubelet's image name parser reads it: the
//! pull policy a container gets by default depends on whether the tag is `latest`.
//!
//! A reference is `[domain/]path[:tag][@digest]`. No tag and no digest means `latest`. A
//! reference the parser refuses (an upper-case path, an empty one, a malformed tag) has no
//! tag at all, so it is not `latest`.

/// The tag of `image`: `Some("latest")` for an untagged, undigested reference, `None` for a
/// reference that does not parse, or that has a digest and no tag.
pub(crate) fn tag(image: &str) -> Option<&str> {
    // A bare image ID (64 hex digits) is refused as a name.
    if image.len() == 64
        && image
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return None;
    }
    let (named, digest) = match image.split_once('@') {
        Some((named, digest)) => (named, Some(digest)),
        None => (image, None),
    };
    if digest.is_some_and(|d| !is_digest(d)) {
        return None;
    }
    // The tag follows the last `:` after the last `/` (a `:` before it is a domain's port).
    let last_slash = named.rfind('/').map_or(0, |i| i + 1);
    let (name, tag) = match named[last_slash..].rfind(':') {
        Some(i) => (&named[..last_slash + i], Some(&named[last_slash + i + 1..])),
        None => (named, None),
    };
    if !is_name(name) || tag.is_some_and(|t| !is_tag(t)) {
        return None;
    }
    match (tag, digest) {
        (Some(tag), _) => Some(tag),
        (None, Some(_)) => None,
        (None, None) => Some("latest"),
    }
}

/// `[domain/]component(/component)*`, at most 255 characters.
fn is_name(name: &str) -> bool {
    if name.is_empty() || name.len() > 255 {
        return false;
    }
    let (first, rest) = match name.split_once('/') {
        Some((first, rest)) => (first, Some(rest)),
        None => (name, None),
    };
    // The first part is a domain when more follow and it looks like one: it has a `.` or a
    // port, is `localhost`, or has upper-case letters (a path component never does).
    let domain = rest.is_some()
        && (first.contains(['.', ':'])
            || first == "localhost"
            || first.bytes().any(|b| b.is_ascii_uppercase()));
    let rest_ok = rest.is_none_or(|r| r.split('/').all(is_component));
    rest_ok
        && if domain {
            is_domain(first)
        } else {
            is_component(first)
        }
}

/// `host[:port]`: dot-separated labels of letters, digits and inner hyphens (or a bracketed
/// IPv6 address), then an optional decimal port.
fn is_domain(domain: &str) -> bool {
    let port_ok = |port: Option<&str>| {
        port.is_none_or(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    if let Some(rest) = domain.strip_prefix('[') {
        let Some((address, after)) = rest.split_once(']') else {
            return false;
        };
        let address_ok =
            !address.is_empty() && address.bytes().all(|b| b.is_ascii_hexdigit() || b == b':');
        return address_ok
            && (after.is_empty() || after.strip_prefix(':').is_some_and(|p| port_ok(Some(p))));
    }
    let (host, port) = match domain.split_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (domain, None),
    };
    let host_ok = host.split('.').all(|label| {
        !label.is_empty()
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    });
    host_ok && port_ok(port)
}

/// Lower-case letters and digits, separated by one `.` or `_`, two `_`, or any `-`s.
fn is_component(component: &str) -> bool {
    let bytes = component.as_bytes();
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    if bytes.is_empty() || !alnum(bytes[0]) || !alnum(bytes[bytes.len() - 1]) {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        if alnum(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && !alnum(bytes[i]) {
            i += 1;
        }
        let separator = &component[start..i];
        let ok = matches!(separator, "." | "_" | "__") || separator.bytes().all(|b| b == b'-');
        if !ok {
            return false;
        }
    }
    true
}

/// A word character, then up to 127 word characters, `.` or `-`.
fn is_tag(tag: &str) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = tag.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 128
        && word(bytes[0])
        && bytes.iter().all(|&b| word(b) || b == b'.' || b == b'-')
}

/// `algorithm:hex`, the hex at least 32 digits.
fn is_digest(digest: &str) -> bool {
    let Some((algorithm, hex)) = digest.split_once(':') else {
        return false;
    };
    let algorithm_ok = algorithm.split(['-', '_', '+', '.']).all(|part| {
        part.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
            && part.bytes().all(|b| b.is_ascii_alphanumeric())
    });
    algorithm_ok && hex.len() >= 32 && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::tag;

    #[test]
    fn tags_as_the_parser_reads_them() {
        let digest = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        for (image, expected) in [
            ("nginx", Some("latest")),
            ("nginx:latest", Some("latest")),
            ("nginx:1.27", Some("1.27")),
            ("docker.io/library/nginx", Some("latest")),
            ("registry.example.com:5000/team/app", Some("latest")),
            ("registry.example.com:5000/team/app:v2", Some("v2")),
            ("localhost/app:dev", Some("dev")),
            (&format!("nginx@{digest}"), None),
            (&format!("nginx:1.27@{digest}"), Some("1.27")),
            ("Nginx:latest", None),
            ("", None),
            ("nginx:", None),
            ("nginx:-bad", None),
            ("a//b", None),
            ("nginx@sha256:short", None),
        ] {
            assert_eq!(tag(image), expected, "{image:?}");
        }
    }
}
