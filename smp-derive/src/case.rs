//! serde's `rename_all` rules, applied the way serde applies them: Rust fields are written in
//! `snake_case` and variants in `PascalCase`, and each rule maps from that spelling.

use self::RenameRule::*;

/// One of serde's eight `rename_all` rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    /// The rule named `s` as written in `#[serde(rename_all = "...")]`.
    pub(crate) fn from_str(s: &str) -> Option<RenameRule> {
        Some(match s {
            "lowercase" => Lower,
            "UPPERCASE" => Upper,
            "PascalCase" => Pascal,
            "camelCase" => Camel,
            "snake_case" => Snake,
            "SCREAMING_SNAKE_CASE" => ScreamingSnake,
            "kebab-case" => Kebab,
            "SCREAMING-KEBAB-CASE" => ScreamingKebab,
            _ => return None,
        })
    }

    /// A field name (`snake_case` in Rust) under this rule.
    pub(crate) fn apply_to_field(self, field: &str) -> String {
        match self {
            Lower | Snake => field.to_owned(),
            Upper | ScreamingSnake => field.to_ascii_uppercase(),
            Pascal => {
                let mut out = String::with_capacity(field.len());
                let mut upper_next = true;
                for c in field.chars() {
                    if c == '_' {
                        upper_next = true;
                    } else if upper_next {
                        out.push(c.to_ascii_uppercase());
                        upper_next = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            }
            Camel => lower_first(&Pascal.apply_to_field(field)),
            Kebab => field.replace('_', "-"),
            ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// A variant name (`PascalCase` in Rust) under this rule.
    pub(crate) fn apply_to_variant(self, variant: &str) -> String {
        match self {
            Pascal => variant.to_owned(),
            Lower => variant.to_ascii_lowercase(),
            Upper => variant.to_ascii_uppercase(),
            Camel => lower_first(variant),
            Snake => {
                let mut out = String::with_capacity(variant.len() + 4);
                for (i, c) in variant.char_indices() {
                    if i > 0 && c.is_uppercase() {
                        out.push('_');
                    }
                    out.push(c.to_ascii_lowercase());
                }
                out
            }
            ScreamingSnake => Snake.apply_to_variant(variant).to_ascii_uppercase(),
            Kebab => Snake.apply_to_variant(variant).replace('_', "-"),
            ScreamingKebab => ScreamingSnake.apply_to_variant(variant).replace('_', "-"),
        }
    }
}

/// A JSON name in the style of a Go variable (`rollingUpdate` → `RollingUpdate`,
/// `host_path` → `HostPath`): the default discriminator value of a union member, which
/// Kubernetes sets to the Go field name.
pub(crate) fn go_name(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut upper_next = true;
    for c in json.chars() {
        if c == '_' || c == '-' {
            upper_next = true;
        } else if upper_next {
            out.extend(c.to_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields() {
        let cases = [
            (Lower, "outcome_wrapper"),
            (Upper, "OUTCOME_WRAPPER"),
            (Pascal, "OutcomeWrapper"),
            (Camel, "outcomeWrapper"),
            (Snake, "outcome_wrapper"),
            (ScreamingSnake, "OUTCOME_WRAPPER"),
            (Kebab, "outcome-wrapper"),
            (ScreamingKebab, "OUTCOME-WRAPPER"),
        ];
        for (rule, want) in cases {
            assert_eq!(rule.apply_to_field("outcome_wrapper"), want, "{rule:?}");
        }
        assert_eq!(Camel.apply_to_field("a"), "a");
        assert_eq!(Camel.apply_to_field("host_ip"), "hostIp");
    }

    #[test]
    fn variants() {
        let cases = [
            (Lower, "outcomewrapper"),
            (Upper, "OUTCOMEWRAPPER"),
            (Pascal, "OutcomeWrapper"),
            (Camel, "outcomeWrapper"),
            (Snake, "outcome_wrapper"),
            (ScreamingSnake, "OUTCOME_WRAPPER"),
            (Kebab, "outcome-wrapper"),
            (ScreamingKebab, "OUTCOME-WRAPPER"),
        ];
        for (rule, want) in cases {
            assert_eq!(rule.apply_to_variant("OutcomeWrapper"), want, "{rule:?}");
        }
    }

    #[test]
    fn go_names() {
        assert_eq!(go_name("rollingUpdate"), "RollingUpdate");
        assert_eq!(go_name("host_path"), "HostPath");
        assert_eq!(go_name("a"), "A");
    }

    #[test]
    fn spellings() {
        assert_eq!(RenameRule::from_str("camelCase"), Some(Camel));
        assert_eq!(RenameRule::from_str("camelcase"), None);
    }
}
