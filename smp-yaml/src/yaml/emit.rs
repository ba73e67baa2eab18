//! Block-style YAML output in the layout `kubectl ... -o yaml` prints.
//!
//! Quoting is decided with the same YAML 1.1 table the reader uses (`resolve`), so every string
//! reads back as the same string: one that would resolve to something else is double-quoted
//! (`"yes"`, `"1"`, `""`), one that is syntactically unsafe as a plain scalar is single-quoted
//! (`'a: b'`, `'#c'`), and multi-line text is a literal block when it can be, as go-yaml does.
//! Nesting is walked with an explicit stack, so any depth is printed without recursion.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::key_order::sort_entries;
use super::resolve::{Scalar, resolve_plain, resolve_word};

/// Keys longer than this many bytes use the explicit `? key` form, as go-yaml's emitter decides
/// (YAML itself allows implicit keys up to 1024 characters).
const MAX_IMPLICIT_KEY: usize = 128;

/// Serializes a value as block-style YAML the way kubectl prints it.
///
/// Two-space indentation; a list under a key is not indented further (`containers:\n- name: a`);
/// strings are quoted only when needed; keys come in go-yaml's order, which kubectl's YAML
/// output has: byte order but for runs of digits, which compare by value (`k9` before `k010`).
pub fn to_yaml_string(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => write_tree(&mut out, Level::entries(map, 0)),
        Value::Array(items) if !items.is_empty() => write_tree(&mut out, Level::items(items, 0)),
        _ => write_scalar_line(&mut out, value, 0),
    }
    out
}

enum Walk<'a> {
    /// A map's members, in go-yaml's key order ([`super::key_order`]).
    Entries(std::vec::IntoIter<(&'a str, &'a Value)>),
    Items(std::slice::Iter<'a, Value>),
}

/// One open collection being printed.
struct Level<'a> {
    walk: Walk<'a>,
    indent: usize,
    /// The first entry continues the current line (after `- `) instead of starting a new one.
    inline_first: bool,
}

impl<'a> Level<'a> {
    fn entries(map: &'a Map<String, Value>, indent: usize) -> Self {
        let mut entries: Vec<(&str, &Value)> = map.iter().map(|(k, v)| (k.as_str(), v)).collect();
        sort_entries(&mut entries);
        Level {
            walk: Walk::Entries(entries.into_iter()),
            indent,
            inline_first: false,
        }
    }

    fn items(items: &'a [Value], indent: usize) -> Self {
        Level {
            walk: Walk::Items(items.iter()),
            indent,
            inline_first: false,
        }
    }

    fn inline(mut self) -> Self {
        self.inline_first = true;
        self
    }
}

fn write_tree<'a>(out: &mut String, root: Level<'a>) {
    let mut stack = vec![root];
    while let Some(level) = stack.last_mut() {
        let indent = level.indent;
        let inline = std::mem::take(&mut level.inline_first);
        let child = match &mut level.walk {
            Walk::Entries(iter) => iter.next().map(|(key, value)| {
                pad(out, indent, inline);
                write_entry(out, key, value, indent)
            }),
            Walk::Items(iter) => iter.next().map(|value| {
                pad(out, indent, inline);
                out.push('-');
                write_item(out, value, indent)
            }),
        };
        match child {
            None => {
                stack.pop();
            }
            Some(Some(child)) => stack.push(child),
            Some(None) => {}
        }
    }
}

fn pad(out: &mut String, indent: usize, inline: bool) {
    const SPACES: &str = "                                                                ";
    if !inline {
        let mut left = indent;
        while left > 0 {
            let run = left.min(SPACES.len());
            out.push_str(&SPACES[..run]);
            left -= run;
        }
    }
}

/// Writes `key:`, and then the value; returns the collection to print next, if the value is
/// one.
///
/// A key longer than [`MAX_IMPLICIT_KEY`] bytes or holding a line break takes go-yaml's
/// explicit form: `? ` and the key written as a value would be (a literal block when it has
/// several lines), then `: ` and the value on the next line, a collection starting on that
/// line as after `- `.
fn write_entry<'a>(
    out: &mut String,
    key: &str,
    value: &'a Value,
    indent: usize,
) -> Option<Level<'a>> {
    let explicit = key.len() > MAX_IMPLICIT_KEY
        || (!key.is_ascii() || key.contains(['\n', '\r']))
            && key.contains(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']);
    if !explicit {
        write_string(out, key, indent, false);
        out.push(':');
        return write_member_value(out, value, indent);
    }
    out.push('?');
    // A string never continues into a nested level.
    let _ = write_item(out, &Value::String(key.to_owned()), indent);
    pad(out, indent, false);
    out.push(':');
    write_item(out, value, indent)
}

/// Writes what follows `key:`; returns the collection to print next, if the value is one.
fn write_member_value<'a>(out: &mut String, value: &'a Value, indent: usize) -> Option<Level<'a>> {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            Some(Level::entries(map, indent + 2))
        }
        Value::Array(items) if !items.is_empty() => {
            // kubectl style: list items line up with their key.
            out.push('\n');
            Some(Level::items(items, indent))
        }
        _ => {
            out.push(' ');
            write_scalar_line(out, value, indent);
            None
        }
    }
}

/// Writes what follows `-`; a nested collection starts on the same line.
fn write_item<'a>(out: &mut String, value: &'a Value, indent: usize) -> Option<Level<'a>> {
    out.push(' ');
    match value {
        Value::Object(map) if !map.is_empty() => Some(Level::entries(map, indent + 2).inline()),
        Value::Array(items) if !items.is_empty() => Some(Level::items(items, indent + 2).inline()),
        _ => {
            write_scalar_line(out, value, indent);
            None
        }
    }
}

/// Writes a scalar or empty collection and ends the line.
fn write_scalar_line(out: &mut String, value: &Value, indent: usize) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => out.push_str(itoa::Buffer::new().format(i)),
            (None, Some(u)) => out.push_str(itoa::Buffer::new().format(u)),
            _ => out.push_str(&n.to_string()),
        },
        Value::String(s) => write_string(out, s, indent, true),
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
    // A literal block already ends its last line.
    if !matches!(value, Value::String(s) if literal_ok(s)) {
        out.push('\n');
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

/// Writes a string in the style it needs. A value (`is_value`; a key is not) may be a literal
/// block, and its long lines are folded as go-yaml folds them (see [`Fold`]); its continuation
/// lines are indented by two more than `indent`, the indentation of its key or `-`.
fn write_string(out: &mut String, s: &str, indent: usize, is_value: bool) {
    let mut fold = is_value.then(|| Fold::at(out, indent + 2));
    match style(s, is_value) {
        Style::Plain => write_plain(out, s, fold.as_mut()),
        Style::Single => write_single(out, s, fold.as_mut()),
        Style::Double => write_double(out, s, fold.as_mut()),
        Style::Literal => write_literal(out, s, indent + 2),
    }
}

/// go-yaml's line folding (`best_width` 80), which kubectl's `-o yaml` output has: while
/// writing a scalar value, a space reached when the line already holds more than 80 characters
/// becomes a line break plus the scalar's indentation, unless it follows another space or (plain
/// scalars) precedes one, or (quoted scalars) is the first or last character. Keys are never
/// folded. Reading the folded text back gives the same string.
struct Fold {
    /// Characters on the current line.
    column: usize,
    /// Indentation of continuation lines.
    indent: usize,
    /// The previous character written was a space.
    spaces: bool,
}

/// go-yaml's `best_width`.
const BEST_WIDTH: usize = 80;

impl Fold {
    fn at(out: &str, indent: usize) -> Fold {
        let line = out.rfind('\n').map_or(out, |i| &out[i + 1..]);
        Fold {
            column: line.chars().count(),
            indent,
            spaces: false,
        }
    }

    /// Writes a space, or breaks the line there when `allowed` and the line is long.
    fn space(&mut self, out: &mut String, allowed: bool) -> bool {
        let broke = allowed && !self.spaces && self.column > BEST_WIDTH;
        if broke {
            out.push('\n');
            pad(out, self.indent, false);
            self.column = self.indent;
        } else {
            out.push(' ');
            self.column += 1;
        }
        self.spaces = true;
        broke
    }

    /// Whether `s` can be written where the line is without any of its spaces being reached
    /// past [`BEST_WIDTH`] (its bytes bound its characters, and its opening quote's column is
    /// counted), so that it is written as it stands.
    fn fits(&self, s: &str) -> bool {
        self.column + 1 + s.len() <= BEST_WIDTH
    }

    /// Counts text written that is not a space.
    fn text(&mut self, chars: usize) {
        self.column += chars;
        self.spaces = false;
    }
}

fn write_plain(out: &mut String, s: &str, fold: Option<&mut Fold>) {
    let Some(fold) = fold else {
        out.push_str(s);
        return;
    };
    if fold.fits(s) {
        out.push_str(s);
        return;
    }
    for (i, c) in s.char_indices() {
        if c == ' ' {
            fold.space(out, !s[i + 1..].starts_with(' '));
        } else {
            out.push(c);
            fold.text(1);
        }
    }
}

fn write_single(out: &mut String, s: &str, fold: Option<&mut Fold>) {
    out.push('\'');
    match fold {
        None => out.push_str(&s.replace('\'', "''")),
        Some(fold) if !s.contains('\'') && fold.fits(s) => out.push_str(s),
        Some(fold) => {
            fold.text(1);
            for (i, c) in s.char_indices() {
                if c == ' ' {
                    let inner = i > 0 && i + 1 < s.len();
                    fold.space(out, inner && !s[i + 1..].starts_with(' '));
                } else if c == '\'' {
                    out.push_str("''");
                    fold.text(2);
                } else {
                    out.push(c);
                    fold.text(1);
                }
            }
        }
    }
    out.push('\'');
}

fn style(s: &str, allow_block: bool) -> Style {
    // Printable ASCII, nearly every string: nothing to escape and no line break.
    let printable = s.bytes().all(|b| (b' '..=b'~').contains(&b));
    if printable {
        return if !reads_as_string(s) {
            Style::Double
        } else if plain_ok(s) {
            Style::Plain
        } else {
            Style::Single
        };
    }
    if s.chars().any(needs_escape) {
        Style::Double
    } else if s.contains('\n') {
        if allow_block && literal_ok(s) {
            Style::Literal
        } else {
            Style::Double
        }
    } else if !reads_as_string(s) {
        Style::Double
    } else if plain_ok(s) {
        Style::Plain
    } else {
        Style::Single
    }
}

/// Whether the plain text reads back as this same string, for us and for other YAML 1.1
/// readers: kubectl also quotes timestamps and base-60 numbers, and `=` is YAML 1.1's `!!value`
/// (PyYAML refuses it).
fn reads_as_string(s: &str) -> bool {
    // A word that starts with a letter and is none of YAML 1.1's words is a string, as it is.
    let word =
        s.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) && resolve_word(s).is_none();
    (word || matches!(resolve_plain(s), Ok(Scalar::Str(ref r)) if r == s))
        && s != "<<"
        && s != "="
        && !looks_like_timestamp(s)
        && !looks_like_base60(s)
}

/// `2001-12-14...`: the start of every YAML 1.1 timestamp.
fn looks_like_timestamp(s: &str) -> bool {
    if !s.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let mut parts = s.splitn(3, '-');
    let (Some(y), Some(m), Some(d)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let day_digits = d.bytes().take_while(u8::is_ascii_digit).count();
    y.len() == 4
        && y.bytes().all(|b| b.is_ascii_digit())
        && (1..=2).contains(&m.len())
        && m.bytes().all(|b| b.is_ascii_digit())
        && (1..=2).contains(&day_digits)
}

/// `1:20`, `-1:30:00.5`: YAML 1.1 sexagesimal numbers, which go-yaml quotes on output
/// (`[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?`).
fn looks_like_base60(s: &str) -> bool {
    if !s.contains(':') {
        return false;
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (main, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let mut parts = main.split(':');
    let head_ok = parts.next().is_some_and(|head| {
        head.starts_with(|c: char| c.is_ascii_digit())
            && head.bytes().all(|b| b.is_ascii_digit() || b == b'_')
    });
    let sixty = |p: &str| match p.as_bytes() {
        [d] => d.is_ascii_digit(),
        [t, d] => (b'0'..=b'5').contains(t) && d.is_ascii_digit(),
        _ => false,
    };
    let mut count = 0;
    let groups_ok = parts.all(|p| {
        count += 1;
        sixty(p)
    });
    head_ok && groups_ok && count > 0 && fraction.bytes().all(|b| b.is_ascii_digit() || b == b'_')
}

/// Whether a single-line string can be written unquoted.
fn plain_ok(s: &str) -> bool {
    let bytes = s.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    let blank_or_end = |i: usize| bytes.get(i).is_none_or(|b| matches!(b, b' ' | b'\t'));
    let bad_start = match first {
        b'#' | b',' | b'[' | b']' | b'{' | b'}' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\''
        | b'"' | b'%' | b'@' | b'`' | b' ' | b'\t' => true,
        b'-' | b'?' | b':' => blank_or_end(1),
        _ => false,
    };
    let bad_inside = bytes.iter().enumerate().any(|(i, &b)| match b {
        // Some YAML 1.1 readers (PyYAML) reject tabs in plain scalars.
        b'\t' => true,
        b':' => blank_or_end(i + 1),
        b'#' => i > 0 && bytes.get(i - 1).is_some_and(|p| matches!(p, b' ' | b'\t')),
        _ => false,
    });
    !bad_start
        && !bad_inside
        && !matches!(last, b' ' | b'\t')
        && !s.starts_with("---")
        && !s.starts_with("...")
}

/// Characters that only a double-quoted scalar can carry, escaped: those go-yaml's emitter
/// (kubectl's) does not count as printable, and the YAML 1.1 line breaks other than `\n` (which
/// would otherwise be folded away). Its printable set is narrower than YAML's: a tab is escaped
/// (`\t`), since in other styles it could end up at a line's edge, where it is folding
/// whitespace and would be lost, and so is every character past U+FFFF (`\U0001F600`).
fn needs_escape(c: char) -> bool {
    let printable = matches!(c, '\n' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}');
    !printable || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
}

/// Multi-line text that go-yaml writes as a literal block: not with a character to escape, a
/// space at the very end, or a space just before a line break (a block would keep those, but
/// go-yaml's analysis refuses them, and kubectl then double-quotes). A leading space or break
/// is fine: the block gets an indentation indicator.
fn literal_ok(s: &str) -> bool {
    s.contains('\n') && !s.ends_with(' ') && !s.contains(" \n") && !s.chars().any(needs_escape)
}

/// A literal block with go-yaml's header: the indentation indicator `2` when the text starts
/// with a space or a break (a reader could not tell its indentation otherwise), then `-` for
/// text without a final break, nothing for one, `+` for more (or for text that is one break).
fn write_literal(out: &mut String, s: &str, indent: usize) {
    let (body, chomp) = match s.strip_suffix('\n') {
        Some(body) if body.is_empty() || body.ends_with('\n') => (body, "+"),
        Some(body) => (body, ""),
        None => (s, "-"),
    };
    out.push('|');
    if s.starts_with([' ', '\n']) {
        out.push('2');
    }
    out.push_str(chomp);
    out.push('\n');
    for line in body.split('\n') {
        if !line.is_empty() {
            pad(out, indent, false);
            out.push_str(line);
        }
        out.push('\n');
    }
}

fn write_double(out: &mut String, s: &str, mut fold: Option<&mut Fold>) {
    out.push('"');
    if let Some(fold) = fold.as_deref_mut() {
        fold.text(1);
    }
    for (i, c) in s.char_indices() {
        if c == ' ' {
            if let Some(fold) = fold.as_deref_mut() {
                // A break folds into nothing, so a space that follows it is escaped.
                let inner = i > 0 && i + 1 < s.len();
                if fold.space(out, inner) && s[i + 1..].starts_with(' ') {
                    out.push('\\');
                    fold.column += 1;
                }
                continue;
            }
        }
        let before = out.len();
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{b}' => out.push_str("\\v"),
            '\u{c}' => out.push_str("\\f"),
            '\u{1b}' => out.push_str("\\e"),
            '\u{85}' => out.push_str("\\N"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            c if needs_escape(c) => {
                let code = u32::from(c);
                // Writing to a String cannot fail.
                let _ = match code {
                    0..=0xff => write!(out, "\\x{code:02X}"),
                    0x100..=0xffff => write!(out, "\\u{code:04X}"),
                    _ => write!(out, "\\U{code:08X}"),
                };
            }
            c => out.push(c),
        }
        if let Some(fold) = fold.as_deref_mut() {
            fold.text(out[before..].chars().count());
        }
    }
    out.push('"');
}
