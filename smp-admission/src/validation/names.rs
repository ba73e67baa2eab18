//! The string formats of apimachinery's `util/validation` (DNS labels and subdomains,
//! qualified names, label values, config keys, port names...), each returning the messages
//! the server prints, in its order and word for word. The patterns are matched by hand: they
//! are simple character classes, and a regex engine would cost more than it saves.

/// `must be no more than N characters`.
pub fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// `must be non-empty`.
pub const EMPTY_ERROR: &str = "must be non-empty";

/// A format's message with the pattern it is checked against and its examples, as the
/// server writes it: `MSG (e.g. 'a' or 'b', regex used for validation is 'RE')`.
pub fn regex_error(message: &str, pattern: &str, examples: &[&str]) -> String {
    let mut out = String::from(message);
    if examples.is_empty() {
        out.push_str(" (regex used for validation is '");
    } else {
        out.push_str(" (e.g. ");
        for (i, e) in examples.iter().enumerate() {
            if i > 0 {
                out.push_str(" or ");
            }
            out.push('\'');
            out.push_str(e);
            out.push_str("', ");
        }
        out.push_str("regex used for validation is '");
    }
    out.push_str(pattern);
    out.push_str("')");
    out
}

/// `must be between LO and HI, inclusive`.
pub fn inclusive_range_error(lo: i64, hi: i64) -> String {
    format!("must be between {lo} and {hi}, inclusive")
}

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const CONFIG_KEY_FMT: &str = "[-._a-zA-Z0-9]+";
const CONFIG_KEY_MSG: &str =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const C_IDENTIFIER_FMT: &str = "[A-Za-z_][A-Za-z0-9_]*";
const C_IDENTIFIER_MSG: &str = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const ENV_VAR_FMT: &str = "[-._a-zA-Z][-._a-zA-Z0-9]*";
const ENV_VAR_MSG: &str = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const RELAXED_ENV_VAR_MSG: &str = "a valid environment variable name must consist only of printable ASCII characters other than '='";
const PERCENT_FMT: &str = "[0-9]+%";
const PERCENT_MSG: &str =
    "a valid percent string must be a numeric string followed by an ending '%'";
const HTTP_HEADER_FMT: &str = "[-A-Za-z0-9]+";
const HTTP_HEADER_MSG: &str = "a valid HTTP header must consist of alphanumeric characters or '-'";
const WILDCARD_FMT: &str = "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const WILDCARD_MSG: &str = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";

/// Up to 63 characters.
pub const DNS1123_LABEL_MAX_LENGTH: usize = 63;
/// Up to 253 characters.
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;
/// Up to 63 characters.
pub const LABEL_VALUE_MAX_LENGTH: usize = 63;

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, with `first`/`inner` deciding the first character's class.
fn is_label_like(s: &[u8], first: fn(u8) -> bool, inner: fn(u8) -> bool) -> bool {
    let Some((&head, rest)) = s.split_first() else {
        return false;
    };
    if !first(head) {
        return false;
    }
    match rest.split_last() {
        None => true,
        Some((&last, middle)) => alnum_lower(last) && middle.iter().all(|&c| inner(c)),
    }
}

fn alnum_lower(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

fn label_inner(c: u8) -> bool {
    alnum_lower(c) || c == b'-'
}

fn is_dns1123_label_text(s: &str) -> bool {
    is_label_like(s.as_bytes(), alnum_lower, label_inner)
}

fn is_dns1123_subdomain_text(s: &str) -> bool {
    !s.is_empty() && s.split('.').all(is_dns1123_label_text)
}

/// `IsDNS1123Label`: a lowercase RFC 1123 label.
pub fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !is_dns1123_label_text(value) {
        if is_dns1123_subdomain_text(value) {
            errs.push("must not contain dots".to_owned());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `IsDNS1123Subdomain`: a lowercase RFC 1123 subdomain.
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if !is_dns1123_subdomain_text(value) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `IsDNS1035Label`: a label that starts with a letter.
pub fn is_dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_LABEL_MAX_LENGTH));
    }
    if !is_label_like(value.as_bytes(), |c| c.is_ascii_lowercase(), label_inner) {
        errs.push(regex_error(
            DNS1035_LABEL_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `IsWildcardDNS1123Subdomain`: `*.` and a subdomain.
pub fn is_wildcard_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    let ok = value
        .strip_prefix("*.")
        .is_some_and(is_dns1123_subdomain_text);
    if !ok {
        errs.push(regex_error(WILDCARD_MSG, WILDCARD_FMT, &["*.example.com"]));
    }
    errs
}

fn is_qualified_name_part(s: &str) -> bool {
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => {
            alnum(f)
                && alnum(l)
                && b.iter()
                    .all(|&c| alnum(c) || c == b'-' || c == b'_' || c == b'.')
        }
        _ => false,
    }
}

/// `IsQualifiedName`: a name with an optional DNS subdomain prefix (`example.com/MyName`).
pub fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let mut parts = value.split('/');
    let (first, second, third) = (parts.next(), parts.next(), parts.next());
    let name = match (first, second, third) {
        (Some(name), None, _) => name,
        (Some(prefix), Some(name), None) => {
            if prefix.is_empty() {
                errs.push(format!("prefix part {EMPTY_ERROR}"));
            } else {
                for msg in is_dns1123_subdomain(prefix) {
                    errs.push(format!("prefix part {msg}"));
                }
            }
            name
        }
        _ => {
            errs.push(format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push(format!("name part {EMPTY_ERROR}"));
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_error(63)));
    }
    if !is_qualified_name_part(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                QUALIFIED_NAME_MSG,
                QUALIFIED_NAME_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `IsValidLabelValue`: empty, or a qualified name's name part.
pub fn is_valid_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX_LENGTH {
        errs.push(max_len_error(LABEL_VALUE_MAX_LENGTH));
    }
    if !value.is_empty() && !is_qualified_name_part(value) {
        errs.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

fn chdir_prefix(value: &str) -> Option<String> {
    match value {
        "." => Some("must not be '.'".to_owned()),
        ".." => Some("must not be '..'".to_owned()),
        v if v.starts_with("..") => Some("must not start with '..'".to_owned()),
        _ => None,
    }
}

/// `IsConfigMapKey`: a key of a ConfigMap or Secret.
pub fn is_config_map_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    let ok = !value.is_empty()
        && value
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'));
    if !ok {
        errs.push(regex_error(
            CONFIG_KEY_MSG,
            CONFIG_KEY_FMT,
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    errs.extend(chdir_prefix(value));
    errs
}

/// `IsEnvVarName`: the strict environment variable name.
pub fn is_env_var_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let b = value.as_bytes();
    let ok = b
        .first()
        .is_some_and(|&c| c.is_ascii_alphabetic() || matches!(c, b'-' | b'.' | b'_'))
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'));
    if !ok {
        errs.push(regex_error(
            ENV_VAR_MSG,
            ENV_VAR_FMT,
            &["my.env-name", "MY_ENV.NAME", "MyEnvName1"],
        ));
    }
    errs.extend(chdir_prefix(value));
    errs
}

/// `IsRelaxedEnvVarName`: printable ASCII other than `=` (the `RelaxedEnvironmentVariableValidation`
/// gate, on in v1.34).
pub fn is_relaxed_env_var_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.is_empty() {
        errs.push(format!("environment variable name {EMPTY_ERROR}"));
    }
    if value.chars().any(|c| !(' '..='~').contains(&c) || c == '=') {
        errs.push(RELAXED_ENV_VAR_MSG.to_owned());
    }
    errs
}

/// `IsCIdentifier`.
pub fn is_c_identifier(value: &str) -> Vec<String> {
    let b = value.as_bytes();
    let ok = b
        .first()
        .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_')
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_');
    if ok {
        Vec::new()
    } else {
        vec![regex_error(
            C_IDENTIFIER_MSG,
            C_IDENTIFIER_FMT,
            &["my_name", "MY_NAME", "MyName"],
        )]
    }
}

/// `IsValidPortNum`: 1 to 65535.
pub fn is_valid_port_num(port: i64) -> Vec<String> {
    is_in_range(port, 1, 65535)
}

/// `IsInRange`.
pub fn is_in_range(value: i64, min: i64, max: i64) -> Vec<String> {
    if (min..=max).contains(&value) {
        Vec::new()
    } else {
        vec![inclusive_range_error(min, max)]
    }
}

/// `IsValidUserID` and `IsValidGroupID`: 0 to 2147483647.
pub fn is_valid_user_id(id: i64) -> Vec<String> {
    is_in_range(id, 0, i64::from(i32::MAX))
}

/// `IsValidPortName`: an IANA service name.
pub fn is_valid_port_name(port: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if port.len() > 15 {
        errs.push(max_len_error(15));
    }
    if port.is_empty()
        || !port
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
    {
        errs.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_owned(),
        );
    }
    if !port.bytes().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".to_owned());
    }
    if port.contains("--") {
        errs.push("must not contain consecutive hyphens".to_owned());
    }
    if port.starts_with('-') || port.ends_with('-') {
        errs.push("must not begin or end with a hyphen".to_owned());
    }
    errs
}

/// `IsValidPercent`: digits and `%`.
pub fn is_valid_percent(value: &str) -> Vec<String> {
    let ok = value
        .strip_suffix('%')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()));
    if ok {
        Vec::new()
    } else {
        vec![regex_error(PERCENT_MSG, PERCENT_FMT, &["1%", "93%"])]
    }
}

/// `IsHTTPHeaderName`.
pub fn is_http_header_name(value: &str) -> Vec<String> {
    let ok = !value.is_empty()
        && value
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-');
    if ok {
        Vec::new()
    } else {
        vec![regex_error(
            HTTP_HEADER_MSG,
            HTTP_HEADER_FMT,
            &["X-Header-Name"],
        )]
    }
}

/// A resource's name rule: the messages for `name`, where `prefix` says it is a
/// `generateName` (whose trailing `-` is allowed).
pub type NameFn = fn(&str, bool) -> Vec<String>;

/// What `generateName` is checked as: its trailing dash masked.
fn mask_trailing_dash(name: &str) -> std::borrow::Cow<'_, str> {
    if name.len() > 1 && name.ends_with('-') {
        let mut masked = name[..name.len() - 2].to_owned();
        masked.push('a');
        masked.into()
    } else {
        name.into()
    }
}

/// `NameIsDNSSubdomain`: most resources' names.
pub fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_dns1123_subdomain(&mask_trailing_dash(name))
    } else {
        is_dns1123_subdomain(name)
    }
}

/// `NameIsDNSLabel`: namespaces and a few others.
pub fn name_is_dns_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_dns1123_label(&mask_trailing_dash(name))
    } else {
        is_dns1123_label(name)
    }
}

/// `NameIsDNS1035Label`: Services.
pub fn name_is_dns1035_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        is_dns1035_label(&mask_trailing_dash(name))
    } else {
        is_dns1035_label(name)
    }
}

/// `path.ValidatePathSegmentName`: names that become a URL path segment (RBAC objects).
pub fn name_is_path_segment(name: &str, prefix: bool) -> Vec<String> {
    let mut errs = Vec::new();
    if !prefix && (name == "." || name == "..") {
        errs.push(format!("may not be '{name}'"));
    }
    for illegal in ["/", "%"] {
        if name.contains(illegal) {
            errs.push(format!("may not contain '{illegal}'"));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subdomains_and_labels() {
        assert!(is_dns1123_subdomain("a.b-c.d").is_empty());
        assert_eq!(
            is_dns1123_subdomain("Bad_Name"),
            vec!["a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_owned()]
        );
        assert_eq!(
            is_dns1123_label("a.b"),
            vec!["must not contain dots".to_owned()]
        );
        assert!(is_dns1123_label("-a").len() == 1);
        assert!(is_dns1035_label("1a").len() == 1);
        assert!(is_dns1035_label("a1").is_empty());
        assert_eq!(is_dns1123_label(&"a".repeat(64)).len(), 1);
    }

    #[test]
    fn qualified_names() {
        assert!(is_qualified_name("example.com/My.Name-1").is_empty());
        assert_eq!(
            is_qualified_name("/a"),
            vec!["prefix part must be non-empty".to_owned()]
        );
        assert_eq!(is_qualified_name("a/b/c").len(), 1);
        assert_eq!(is_qualified_name("a/").len(), 2);
        assert!(is_valid_label_value("").is_empty());
        assert_eq!(is_valid_label_value("-x").len(), 1);
    }

    #[test]
    fn keys_and_ports() {
        assert_eq!(is_config_map_key("a/b").len(), 1);
        assert_eq!(
            is_config_map_key("..a"),
            vec!["must not start with '..'".to_owned()]
        );
        assert!(is_valid_port_name("http").is_empty());
        assert_eq!(is_valid_port_name("-8080-").len(), 2);
        assert!(is_valid_percent("25%").is_empty());
        assert_eq!(is_valid_percent("%").len(), 1);
    }

    #[test]
    fn generate_name_may_end_with_a_dash() {
        assert!(name_is_dns_subdomain("web-", true).is_empty());
        assert_eq!(name_is_dns_subdomain("web-", false).len(), 1);
    }
}
