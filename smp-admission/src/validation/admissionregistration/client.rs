//! A webhook's client config (`webhook.ValidateWebhookURL`, `webhook.ValidateWebhookService`
//! of k8s.io/apiserver): exactly one of a URL and a Service.
//!
//! The URL is read as Go's `net/url.Parse` reads it, since what it accepts and its error
//! messages are part of the server's answer: a scheme up to the first `:` (letters first),
//! the query after the first `?`, the fragment after the first `#`, and an authority after
//! `//` holding the user information (up to the last `@`), the host and a numeric port.

use serde_json::Value;

use crate::validation::field::{self, ErrorList, Path, go_quote};
use crate::validation::names;
use crate::validation::read;

const FORM: &str = "; desired format: https://host[/path]";

/// The client config of a webhook at `path` (`webhooks[i]`).
pub(super) fn validate_client_config(hook: &Value, path: &Path, errs: &mut ErrorList) {
    let config = hook.get("clientConfig").unwrap_or(&Value::Null);
    let url = read::opt_text(config, "url");
    let service = read::member(config, "service").set_object();
    let at = path.child("clientConfig");
    match (url, service) {
        (Some(url), None) => validate_url(url, &at.child("url"), errs),
        (None, Some(service)) => validate_service(service, &at.child("service"), errs),
        _ => errs.push(field::required(
            &at,
            "exactly one of url or service is required",
        )),
    }
}

/// `ValidateWebhookURL` with `https` required.
fn validate_url(url: &str, path: &Path, errs: &mut ErrorList) {
    let parsed = match parse_url(url) {
        Ok(parsed) => parsed,
        Err(why) => {
            errs.push(field::required(
                path,
                &format!("url must be a valid URL: {why}{FORM}"),
            ));
            return;
        }
    };
    if parsed.scheme != "https" {
        errs.push(field::invalid(
            path,
            parsed.scheme,
            &format!("'https' is the only allowed URL scheme{FORM}"),
        ));
    }
    if parsed.host.is_empty() {
        errs.push(field::invalid(
            path,
            parsed.host,
            &format!("host must be specified{FORM}"),
        ));
    }
    if let Some(user) = parsed.user {
        errs.push(field::invalid(
            path,
            user,
            "user information is not permitted in the URL",
        ));
    }
    if !parsed.fragment.is_empty() {
        errs.push(field::invalid(
            path,
            parsed.fragment,
            "fragments are not permitted in the URL",
        ));
    }
    if !parsed.query.is_empty() {
        errs.push(field::invalid(
            path,
            parsed.query,
            "query parameters are not permitted in the URL",
        ));
    }
}

/// `ValidateWebhookService`: name, namespace, port, and a path of DNS subdomain segments.
fn validate_service(service: &Value, path: &Path, errs: &mut ErrorList) {
    if read::text(service, "name").is_empty() {
        errs.push(field::required(&path.child("name"), ""));
    }
    if read::text(service, "namespace").is_empty() {
        errs.push(field::required(&path.child("namespace"), ""));
    }
    let port = read::int(service, "port");
    let problems = names::is_valid_port_num(port);
    if !problems.is_empty() {
        errs.push(field::invalid(
            &path.child("port"),
            port,
            &format!("port is not valid: {}", problems.join(", ")),
        ));
    }
    let Some(url_path) = read::opt_text(service, "path") else {
        return;
    };
    let at = path.child("path");
    if url_path.is_empty() || url_path == "/" {
        return;
    }
    if url_path == "//" {
        errs.push(field::invalid(&at, url_path, "segment[0] may not be empty"));
        return;
    }
    if !url_path.starts_with('/') {
        errs.push(field::invalid(&at, url_path, "must start with a '/'"));
    }
    // The first character is dropped whatever it is, then one trailing slash.
    let mut steps = url_path.get(1..).unwrap_or("");
    if let Some(stripped) = steps.strip_suffix('/') {
        steps = stripped;
    }
    for (i, step) in steps.split('/').enumerate() {
        if step.is_empty() {
            errs.push(field::invalid(
                &at,
                url_path,
                &format!("segment[{i}] may not be empty"),
            ));
            continue;
        }
        for failure in names::is_dns1123_subdomain(step) {
            errs.push(field::invalid(
                &at,
                url_path,
                &format!("segment[{i}]: {failure}"),
            ));
        }
    }
}

/// What a URL is checked for.
#[derive(Debug, Default, PartialEq)]
struct Url {
    /// Lowercased.
    scheme: String,
    /// Unescaped.
    host: String,
    /// The user information as Go's `Userinfo.String` prints it, when there is some.
    user: Option<String>,
    /// Unescaped.
    fragment: String,
    /// As written.
    query: String,
}

/// `url.Parse`: the URL, or the error Go prints (`parse "URL": why`).
fn parse_url(raw: &str) -> Result<Url, String> {
    let (before, fragment) = match raw.split_once('#') {
        Some((before, fragment)) => (before, Some(fragment)),
        None => (raw, None),
    };
    let failed = |text: &str, why: String| {
        let mut out = String::from("parse ");
        go_quote(text, &mut out);
        out.push_str(": ");
        out.push_str(&why);
        out
    };
    let mut url = parse_without_fragment(before).map_err(|why| failed(before, why))?;
    if let Some(fragment) = fragment {
        url.fragment = unescape(fragment, Mode::Other).map_err(|why| failed(raw, why))?;
    }
    Ok(url)
}

fn parse_without_fragment(raw: &str) -> Result<Url, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".to_owned());
    }
    let mut url = Url::default();
    if raw == "*" {
        return Ok(url);
    }
    let (scheme, mut rest) = split_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        rest = &rest[..rest.len() - 1];
    } else if let Some((before, query)) = rest.split_once('?') {
        url.query = query.to_owned();
        rest = before;
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            // An opaque URL (`mailto:x`): no host.
            return Ok(url);
        }
        if rest
            .split('/')
            .next()
            .is_some_and(|first| first.contains(':'))
        {
            return Err("first path segment in URL cannot contain colon".to_owned());
        }
    }
    if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let authority = &rest[2..];
        let (authority, path) = match authority.find('/') {
            Some(i) => (&authority[..i], &authority[i..]),
            None => (authority, ""),
        };
        rest = path;
        let (user, host) = parse_authority(authority)?;
        url.user = user;
        url.host = host;
    }
    unescape(rest, Mode::Other)?;
    Ok(url)
}

/// The scheme and the rest: a scheme is letters, then letters, digits, `+`, `-` or `.`, up
/// to a `:`; anything else before a `:` means there is none.
fn split_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".to_owned()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// The user information (printed) and the host of an authority.
fn parse_authority(authority: &str) -> Result<(Option<String>, String), String> {
    let Some(at) = authority.rfind('@') else {
        return Ok((None, parse_host(authority)?));
    };
    let host = parse_host(&authority[at + 1..])?;
    let info = &authority[..at];
    if !info
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(c))
    {
        return Err("net/url: invalid userinfo".to_owned());
    }
    let printed = match info.split_once(':') {
        None => escape_user(&unescape(info, Mode::Other)?),
        Some((name, password)) => format!(
            "{}:{}",
            escape_user(&unescape(name, Mode::Other)?),
            escape_user(&unescape(password, Mode::Other)?)
        ),
    };
    Ok((Some(printed), host))
}

/// The host, unescaped; a port after it must be digits.
fn parse_host(host: &str) -> Result<String, String> {
    let bad_port = |port: &str| {
        let mut out = String::from("invalid port ");
        go_quote(port, &mut out);
        out.push_str(" after host");
        out
    };
    let valid_port = |port: &str| {
        port.is_empty()
            || port
                .strip_prefix(':')
                .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
    };
    if host.starts_with('[') {
        let Some(close) = host.rfind(']') else {
            return Err("missing ']' in host".to_owned());
        };
        let port = &host[close + 1..];
        if !valid_port(port) {
            return Err(bad_port(port));
        }
        // An IPv6 zone (`%25eth0`) is unescaped with its own, looser rules.
        if let Some(zone) = host[..close].find("%25") {
            let mut out = unescape(&host[..zone], Mode::Host)?;
            out.push_str(&unescape(&host[zone..close], Mode::Zone)?);
            out.push_str(&unescape(&host[close..], Mode::Host)?);
            return Ok(out);
        }
    } else if let Some(colon) = host.rfind(':') {
        let port = &host[colon..];
        if !valid_port(port) {
            return Err(bad_port(port));
        }
    }
    unescape(host, Mode::Host)
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Host,
    Zone,
    /// Paths, fragments and user information: only the escapes are checked.
    Other,
}

/// Go's `unescape`: `%XX` decoded; in a host, a character that would need escaping is an
/// error, and so is an escape of a control byte other than `%25`.
fn unescape(text: &str, mode: Mode) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&c) = bytes.get(i) {
        if c == b'%' {
            let hex = |at: usize| bytes.get(at).and_then(|b| (*b as char).to_digit(16));
            let (Some(high), Some(low)) = (hex(i + 1), hex(i + 2)) else {
                let end = (i + 3).min(bytes.len());
                let cut = bytes.get(i..end).unwrap_or_default();
                return Err(escape_error(&String::from_utf8_lossy(cut)));
            };
            let escape = &text[i..i + 3];
            if mode == Mode::Host && high < 8 && escape != "%25" {
                return Err(escape_error(escape));
            }
            if mode == Mode::Zone {
                let byte = (high * 16 + low) as u8;
                if escape != "%25" && byte != b' ' && needs_escape_in_host(byte) {
                    return Err(escape_error(escape));
                }
            }
            out.push((high * 16 + low) as u8);
            i += 3;
            continue;
        }
        if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && needs_escape_in_host(c) {
            let mut why = String::from("invalid character ");
            go_quote(&(c as char).to_string(), &mut why);
            why.push_str(" in host name");
            return Err(why);
        }
        out.push(c);
        i += 1;
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn escape_error(escape: &str) -> String {
    let mut why = String::from("invalid URL escape ");
    go_quote(escape, &mut why);
    why
}

/// Whether an ASCII byte would be escaped in a host (Go's `shouldEscape` in host mode).
fn needs_escape_in_host(c: u8) -> bool {
    !(c.is_ascii_alphanumeric() || b"!$&'()*+,;=:[]<>\"-_.~".contains(&c))
}

/// Go's `escape` of user information: all but letters, digits, `-_.~` and the sub-delimiters
/// `$&+,;=` is written `%XX`.
fn escape_user(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~$&+,;=".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_read_as_go_reads_them() {
        let url = parse_url("https://harry.potter@example.com:8443/a?x=1#frag").unwrap_or_default();
        assert_eq!(url.scheme, "https");
        assert_eq!(url.host, "example.com:8443");
        assert_eq!(url.user.as_deref(), Some("harry.potter"));
        assert_eq!(url.query, "x=1");
        assert_eq!(url.fragment, "frag");
        let opaque =
            parse_url("arg#backwards=thisis?html.index/port:host//:https").unwrap_or_default();
        assert_eq!((opaque.scheme.as_str(), opaque.host.as_str()), ("", ""));
        assert_eq!(
            parse_url("https:///fancy/webhook").unwrap_or_default().host,
            ""
        );
        assert_eq!(
            parse_url("https://a b/").err().as_deref(),
            Some("parse \"https://a b/\": invalid character \" \" in host name")
        );
        assert_eq!(
            parse_url(":x").err().as_deref(),
            Some("parse \":x\": missing protocol scheme")
        );
        assert_eq!(
            parse_url("https://h:port/").err().as_deref(),
            Some("parse \"https://h:port/\": invalid port \":port\" after host")
        );
        assert_eq!(
            parse_url("https://h/%zz").err().as_deref(),
            Some("parse \"https://h/%zz\": invalid URL escape \"%zz\"")
        );
        assert_eq!(parse_url("a:b/c").unwrap_or_default().scheme, "a");
        assert_eq!(
            parse_url("1a:b").err().as_deref(),
            Some("parse \"1a:b\": first path segment in URL cannot contain colon")
        );
        assert_eq!(
            parse_url("https://u:p w@h/").err().as_deref(),
            Some("parse \"https://u:p w@h/\": net/url: invalid userinfo")
        );
        assert_eq!(
            parse_url("https://h/#%").err().as_deref(),
            Some("parse \"https://h/#%\": invalid URL escape \"%\"")
        );
    }
}
