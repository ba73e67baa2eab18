//! The order go-yaml (and so `kubectl -o yaml`) prints mapping keys in.
//!
//! kubectl turns its JSON output into YAML through a generic map, which go-yaml (v2, as
//! vendored by sigs.k8s.io/yaml) sorts with a "natural" order of its own, not by bytes as JSON
//! output is: at the first difference, two letters compare as characters, a non-letter sorts
//! before a letter (`a_b` before `aZ`), and two non-letters compare the runs of digits starting
//! there by value, then by length (`item9` before `item10`, `x1` before `x01`). This module
//! reproduces that order for string keys, the only keys a JSON document has.
//!
//! The order is not transitive where leading zeros meet letters: `x10y` < `x1y0` < `x01` <
//! `x10y`. Go's `sort.Sort` on keys in map order (random) then prints such keys in an order
//! that changes from run to run; smp prints them in one fixed order. Wherever the order is
//! consistent over a map's keys, which holds for every realistic set of names, the result is
//! kubectl's.
//!
//! Two approximations, both outside what Kubernetes names hold: "digit" means an ASCII digit
//! (go-yaml accepts every Unicode decimal digit but adds its value as if it were ASCII), and
//! "letter" means `char::is_alphabetic` (Unicode `Alphabetic`, slightly wider than the `L`
//! categories go-yaml asks for).

/// Whether go-yaml puts key `a` before key `b`.
pub(crate) fn before(a: &str, b: &str) -> bool {
    let (mut ai, mut bi) = (a.char_indices(), b.char_indices());
    loop {
        let ((ia, ca), (ib, cb)) = match (ai.next(), bi.next()) {
            (Some(x), Some(y)) => (x, y),
            // All characters so far equal: the shorter key first.
            (None, Some(_)) => return true,
            _ => return false,
        };
        if ca == cb {
            continue;
        }
        let (la, lb) = (ca.is_alphabetic(), cb.is_alphabetic());
        if la && lb {
            return ca < cb;
        }
        if la || lb {
            return lb;
        }
        // Neither is a letter: compare the runs of digits starting here by value, then by
        // length. When a zero is involved and the digits just before (equal on both sides)
        // are not all zeros, go-yaml starts both values at 1 instead of 0; so does this.
        let leading = &a[..ia];
        let mut start = 0u64;
        if (ca == '0' || cb == '0')
            && leading
                .chars()
                .rev()
                .take_while(char::is_ascii_digit)
                .any(|c| c != '0')
        {
            start = 1;
        }
        let (an, alen) = number(&a[ia..], start);
        let (bn, blen) = number(&b[ib..], start);
        if an != bn {
            return an < bn;
        }
        if alen != blen {
            return alen < blen;
        }
        return ca < cb;
    }
}

/// The value of the ASCII digits `text` starts with, added to `start` the way go-yaml adds
/// them (times ten per digit, wrapping as Go's int64 does), and how many there are.
fn number(text: &str, start: u64) -> (i64, usize) {
    let mut n = start as i64;
    let mut len = 0;
    for c in text.chars().take_while(char::is_ascii_digit) {
        n = n.wrapping_mul(10).wrapping_add(i64::from(c as u8 - b'0'));
        len += 1;
    }
    (n, len)
}

/// Sorts `entries` by their keys in go-yaml's order. A merge sort that only asks [`before`],
/// so it cannot panic or loop whatever the order's quirks (it need not be a total order on
/// every input); stable, n·log n. Maps already in that order (most are: byte order agrees on
/// plain names) cost one pass.
pub(crate) fn sort_entries<T>(entries: &mut Vec<(&str, T)>) {
    if entries.windows(2).all(|w| !before(w[1].0, w[0].0)) {
        return;
    }
    let mut items: Vec<(&str, T)> = std::mem::take(entries);
    let mut width = 1;
    let n = items.len();
    while width < n {
        let mut merged = Vec::with_capacity(n);
        let mut rest = items.into_iter().peekable();
        loop {
            let left: Vec<_> = rest.by_ref().take(width).collect();
            if left.is_empty() {
                break;
            }
            let right: Vec<_> = rest.by_ref().take(width).collect();
            let (mut l, mut r) = (left.into_iter().peekable(), right.into_iter().peekable());
            loop {
                let take_right = match (l.peek(), r.peek()) {
                    (Some(x), Some(y)) => before(y.0, x.0),
                    (None, Some(_)) => true,
                    (_, None) => false,
                };
                match if take_right { r.next() } else { l.next() } {
                    Some(item) => merged.push(item),
                    None => break,
                }
            }
        }
        items = merged;
        width *= 2;
    }
    *entries = items;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(keys: &[&str]) -> Vec<String> {
        let mut entries: Vec<(&str, ())> = keys.iter().map(|k| (*k, ())).collect();
        sort_entries(&mut entries);
        entries.into_iter().map(|(k, ())| k.to_owned()).collect()
    }

    /// kubectl v1.33's `-o yaml` order for these keys (a ConfigMap's `data`), the same in every
    /// run: the order is consistent over them.
    #[test]
    fn kubectl_orders_keys_naturally() {
        let keys = [
            "item9",
            "item10",
            "item1",
            "a_b",
            "aZ",
            "Ab",
            "ab",
            "a-b",
            "a.b",
            "a/b",
            "a1",
            "a01",
            "a10",
            "file.txt",
            "file-2",
            "plain",
            "on",
            "null",
            "",
            "\ttab",
            " ",
            "~",
            "0x1F",
            "v1.9",
            "v1.9.1",
            "v1.10",
            "app.kubernetes.io/name",
            "app.kubernetes.io/part-of",
            "é",
            "z",
            "k000",
            "k010",
            "k9",
            "port-8080",
            "port-443",
            "x-1",
            "x_1",
            "X1",
        ];
        let kubectl = [
            "",
            "\ttab",
            " ",
            "~",
            "0x1F",
            "Ab",
            "X1",
            "a-b",
            "a.b",
            "a/b",
            "a_b",
            "a1",
            "a01",
            "a10",
            "aZ",
            "ab",
            "app.kubernetes.io/name",
            "app.kubernetes.io/part-of",
            "file-2",
            "file.txt",
            "item1",
            "item9",
            "item10",
            "k000",
            "k9",
            "k010",
            "null",
            "on",
            "plain",
            "port-443",
            "port-8080",
            "v1.9",
            "v1.9.1",
            "v1.10",
            "x-1",
            "x_1",
            "z",
            "é",
        ];
        assert_eq!(sorted(&keys), kubectl);
        let mut reversed = keys;
        reversed.reverse();
        assert_eq!(sorted(&reversed), kubectl);
    }

    /// Where the order has a cycle, sorting still ends and keeps every key. (smp's maps come in
    /// byte order, so the result is fixed; kubectl's changes from run to run there.)
    #[test]
    fn cycles_still_sort() {
        assert!(before("x10y", "x1y0") && before("x1y0", "x01") && before("x01", "x10y"));
        let keys = ["x1", "x01", "x001", "x10y", "x1y0", "9", "10", "1a"];
        let mut once = sorted(&keys);
        once.sort();
        let mut want: Vec<String> = keys.iter().map(|k| (*k).to_owned()).collect();
        want.sort();
        assert_eq!(once, want);
    }

    #[test]
    fn plain_names_keep_byte_order() {
        let keys = ["apiVersion", "data", "kind", "metadata", "spec", "status"];
        assert_eq!(sorted(&keys), keys);
    }

    #[test]
    fn huge_numbers_wrap_instead_of_failing() {
        let a = "9".repeat(40);
        let b = "1".repeat(41);
        let mut entries = vec![(a.as_str(), 0), (b.as_str(), 1), ("2", 2)];
        sort_entries(&mut entries);
        assert_eq!(entries.len(), 3);
    }
}
