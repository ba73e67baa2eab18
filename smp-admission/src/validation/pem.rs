//! Go's `encoding/pem.Decode` and the base64 of Go's standard encoding, as far as validation
//! needs them: which block comes first, and its type.
//!
//! Go's decoder is lenient in its own ways, and which block it returns depends on them: a
//! candidate whose type line, end line or base64 body does not hold is skipped and the search
//! goes on after its `BEGIN` line; a body whose headers run to the end of the text ends the
//! search with nothing found. Base64 is Go's `StdEncoding`: padded, line breaks ignored,
//! trailing bits not checked.

use base64::Engine as _;
use base64::engine::{GeneralPurpose, GeneralPurposeConfig};

/// Go's `base64.StdEncoding` (not strict): padding required, unused trailing bits allowed.
const GO_STD: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_allow_trailing_bits(true),
);

/// Decodes base64 as Go's standard encoding does; `\r` and `\n` are skipped.
pub(crate) fn decode_base64(text: &[u8]) -> Option<Vec<u8>> {
    let kept: Vec<u8> = text
        .iter()
        .copied()
        .filter(|&c| c != b'\r' && c != b'\n')
        .collect();
    GO_STD.decode(kept).ok()
}

/// Encodes bytes as Go's standard encoding does (how a `[]byte` prints as JSON).
pub(crate) fn encode_base64(bytes: &[u8]) -> String {
    GO_STD.encode(bytes)
}

/// A decoded block: its type is all validation reads of it so far (the bytes were decoded
/// to tell a well-formed block from one Go skips).
#[derive(Debug)]
pub(crate) struct Block {
    pub kind: String,
}

const BEGIN: &[u8] = b"-----BEGIN ";
const END: &[u8] = b"\n-----END ";
const DASHES: &[u8] = b"-----";

/// The first line of `s` with trailing spaces, tabs and `\r` trimmed, and the rest after its
/// `\n` (Go's `getLine`).
fn line(s: &[u8]) -> (&[u8], &[u8]) {
    let (mut first, rest) = match s.iter().position(|&c| c == b'\n') {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, &s[s.len()..]),
    };
    while let [head @ .., b' ' | b'\t' | b'\r'] = first {
        first = head;
    }
    (first, rest)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Go's `pem.Decode`: the first block of `data`, or `None`.
pub(crate) fn decode(data: &[u8]) -> Option<Block> {
    let mut rest = data;
    loop {
        // The first BEGIN may open the text; later ones start a line.
        if rest.starts_with(BEGIN) {
            rest = &rest[BEGIN.len()..];
        } else {
            let at = find(rest, b"\n-----BEGIN ")?;
            rest = &rest[at + 1 + BEGIN.len()..];
        }
        let (type_line, after) = line(rest);
        rest = after;
        let Some(kind) = type_line.strip_suffix(DASHES) else {
            continue;
        };
        let mut has_headers = false;
        loop {
            if rest.is_empty() {
                return None;
            }
            let (header, next) = line(rest);
            if !header.contains(&b':') {
                break;
            }
            has_headers = true;
            rest = next;
        }
        let (end_index, trailer_index) = if !has_headers && rest.starts_with(&END[1..]) {
            (0, END.len() - 1)
        } else {
            match find(rest, END) {
                Some(i) => (i, i + END.len()),
                None => continue,
            }
        };
        let trailer = &rest[trailer_index..];
        let trailer_len = kind.len() + DASHES.len();
        if trailer.len() < trailer_len {
            continue;
        }
        let (end_line, rest_of_line) = trailer.split_at(trailer_len);
        if !end_line.starts_with(kind) || !end_line.ends_with(DASHES) {
            continue;
        }
        if !line(rest_of_line).0.is_empty() {
            continue;
        }
        let body: Vec<u8> = rest[..end_index]
            .iter()
            .copied()
            .filter(|&c| c != b' ' && c != b'\t')
            .collect();
        if decode_base64(&body).is_none() {
            continue;
        }
        return Some(Block {
            kind: String::from_utf8_lossy(kind).into_owned(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_well_formed_block_is_returned() {
        let text = b"junk\n-----BEGIN BROKEN\n-----BEGIN CERTIFICATE REQUEST-----\nAAEC\n-----END CERTIFICATE REQUEST-----\n";
        let block = decode(text).unwrap();
        assert_eq!(block.kind, "CERTIFICATE REQUEST");
        assert!(decode(b"-----BEGIN X-----\nAAEC\n-----END Y-----\n").is_none());
        assert!(decode(b"no pem here").is_none());
        let with_header =
            decode(b"-----BEGIN X-----\nProc-Type: 4\n\nAAEC\n-----END X-----").unwrap();
        assert_eq!(with_header.kind, "X");
        assert!(decode(b"-----BEGIN X-----\nA@C=\n-----END X-----").is_none());
        assert!(decode(b"-----BEGIN X-----\nA: b\n").is_none());
    }

    #[test]
    fn base64_is_go_standard() {
        assert_eq!(decode_base64(b"AAE=\n").unwrap(), [0, 1]);
        assert_eq!(decode_base64(b"AAF=").unwrap(), [0, 1]);
        assert!(decode_base64(b"AAE").is_none());
        assert_eq!(encode_base64(&[0, 1]), "AAE=");
    }
}
