//! Definitions' descriptions as rustdoc comments.
//!
//! The descriptions are Go doc comments, not Markdown: some lines are indented (Go code, YAML,
//! continuation of list items), brackets and angle brackets are plain text, URLs are bare. In
//! Markdown an indented block after a blank line would be a Rust code block, and so a doctest;
//! `[x]` an intra-doc link; `<x>` an HTML tag. So: indented blocks become ```` ```text ````
//! fences, other lines lose their indentation, `[`, `]`, `<`, `>` (and `#` starting a line) are
//! escaped outside code, and URLs are wrapped in `<...>`.

/// Doc comment lines (without the `///`) for a description, prose wrapped at `width`.
pub(crate) fn wrapped(description: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in lines(description) {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        if in_code || line.starts_with("```") {
            out.push(line);
        } else {
            out.extend(wrap(&line, width));
        }
    }
    out
}

/// One line of prose as lines of at most `width` characters (longer only where one word is).
/// A continuation line never starts with what Markdown would read as the start of a block
/// (`-`, `*`, `+`, `#`, `>`, `|`, `1.`); a list item's continuation lines are indented under
/// its text.
pub(crate) fn wrap(line: &str, width: usize) -> Vec<String> {
    let marker = list_marker(line);
    let indent = " ".repeat(marker);
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in line.split(' ').filter(|w| !w.is_empty()) {
        let fits = current.chars().count() + 1 + word.chars().count() <= width;
        if current.is_empty() || current.trim().is_empty() || fits || starts_block(word) {
            if !current.is_empty() && !current.ends_with(' ') {
                current.push(' ');
            }
            current.push_str(word);
        } else {
            out.push(std::mem::take(&mut current));
            current = format!("{indent}{word}");
        }
    }
    if !current.is_empty() || out.is_empty() {
        out.push(current);
    }
    out
}

/// The width of a list item's marker (`- `, `* `, `1. `), 0 for other lines.
fn list_marker(line: &str) -> usize {
    if line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ ") {
        return 2;
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && (line[digits..].starts_with(". ") || line[digits..].starts_with(") ")) {
        return digits + 2;
    }
    0
}

fn starts_block(word: &str) -> bool {
    matches!(
        word.chars().next(),
        Some('-' | '*' | '+' | '#' | '>' | '|' | '=')
    ) || list_marker(&format!("{word} ")) > 0
}

/// Doc comment lines (without the `///`) for a description.
pub(crate) fn lines(description: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_code = false;
    let mut previous_blank = true;
    for raw in description.trim().lines() {
        let line = raw.trim_end();
        let indented = line.starts_with('\t') || line.starts_with("    ");
        if in_code {
            if line.is_empty() || indented {
                out.push(detab(line));
                continue;
            }
            close_code(&mut out);
            in_code = false;
        }
        if indented && previous_blank {
            out.push("```text".to_owned());
            out.push(detab(line));
            in_code = true;
            continue;
        }
        let text = escape(line.trim_start());
        previous_blank = text.is_empty();
        out.push(text);
    }
    if in_code {
        close_code(&mut out);
    }
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

/// Ends a code block, moving blank lines that trailed it after the fence.
fn close_code(out: &mut Vec<String>) {
    let mut blanks = 0;
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
        blanks += 1;
    }
    out.push("```".to_owned());
    out.extend(std::iter::repeat_n(String::new(), blanks.min(1)));
}

fn detab(line: &str) -> String {
    line.replace('\t', "    ")
}

/// Escapes Markdown that rustdoc would misread, outside inline code spans.
fn escape(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut in_code = false;
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            in_code = !in_code;
            out.push(c);
            rest = &rest[1..];
            continue;
        }
        if !in_code {
            if let Some(url) = url_at(rest) {
                out.push('<');
                out.push_str(url);
                out.push('>');
                rest = &rest[url.len()..];
                continue;
            }
            let heading = c == '#' && out.trim().is_empty();
            if matches!(c, '[' | ']' | '<' | '>') || heading {
                out.push('\\');
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    // An unbalanced backtick would open a code span over the rest of the paragraph.
    if in_code {
        out = out.replace('`', "'");
    }
    out
}

/// A URL starting at the beginning of `s`, without trailing punctuation.
fn url_at(s: &str) -> Option<&str> {
    if !(s.starts_with("http://") || s.starts_with("https://")) {
        return None;
    }
    let end = s
        .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '<' | '>'))
        .unwrap_or(s.len());
    Some(s[..end].trim_end_matches(['.', ',', ';', ':', ')', ']']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indented_blocks_become_text_fences() {
        let doc = "Example:\n\n\ttype A struct {\n\t\tB int\n\t}\n\nMore text.";
        assert_eq!(
            lines(doc),
            [
                "Example:",
                "",
                "```text",
                "    type A struct {",
                "        B int",
                "    }",
                "```",
                "",
                "More text."
            ]
        );
    }

    #[test]
    fn continuation_lines_lose_their_indentation() {
        let doc = "Values:\n - If a, then b\n     and c";
        assert_eq!(lines(doc), ["Values:", "- If a, then b", "and c"]);
    }

    #[test]
    fn prose_wraps_without_starting_blocks() {
        assert_eq!(
            wrap("aaa bbb ccc - ddd 12. eee", 8),
            ["aaa bbb", "ccc -", "ddd 12.", "eee"]
        );
        assert_eq!(wrap("- item one two", 8), ["- item", "  one", "  two"]);
        assert_eq!(
            wrap("averyveryverylongword x", 5),
            ["averyveryverylongword", "x"]
        );
        assert_eq!(wrap("", 5), [""]);
    }

    #[test]
    fn markdown_is_escaped_outside_code() {
        assert_eq!(
            lines("a [b] <c> `[d]` see https://k8s.io/x."),
            ["a \\[b\\] \\<c\\> `[d]` see <https://k8s.io/x>."]
        );
        assert_eq!(lines("snake_case_name"), ["snake_case_name"]);
        assert_eq!(lines("# not a heading"), ["\\# not a heading"]);
    }
}
