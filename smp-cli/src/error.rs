//! The CLI's error: one line of text, printed after `error: `.

use std::fmt;

/// A failure to report on one line. Built with context (which file, which step) in front of the
/// underlying error's message.
#[derive(Debug)]
pub struct CliError(String);

impl CliError {
    /// `context: cause`, with any newlines in either collapsed.
    pub fn new(context: impl fmt::Display, cause: impl fmt::Display) -> CliError {
        CliError(one_line(&format!("{context}: {cause}")))
    }

    /// A message printed as it is, lines and all (the API server's conflict message, which
    /// kubectl prints that way).
    pub fn verbatim(text: impl fmt::Display) -> CliError {
        CliError(text.to_string())
    }

    /// A message of its own.
    pub fn message(text: impl fmt::Display) -> CliError {
        CliError(one_line(&text.to_string()))
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Joins the lines of `text` with single spaces, so a message always fits on one line.
pub fn one_line(text: &str) -> String {
    text.split(['\n', '\r'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapses_newlines() {
        assert_eq!(one_line("a\n  b\r\n\nc "), "a b c");
        assert_eq!(CliError::new("x\ny", "z\n").to_string(), "x y: z");
    }
}
