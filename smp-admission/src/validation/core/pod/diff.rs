//! The difference shown after "pod updates may not change fields other than ...": a unified
//! diff (three lines of context, hunks opened by `@@ -a,b +c,d @@`) of the old spec and the
//! refused one, each printed as indented JSON.
//!
//! The server prints its internal Go structs (Go field names, every field, zero values
//! included), which this does not reproduce: here the v1 JSON is printed, so the hunk text
//! differs from the server's while the message before it is the same.

use serde_json::Value;

const CONTEXT: usize = 3;

pub(crate) fn spec_diff(old: &Value, new: &Value) -> String {
    let a = lines(old);
    let b = lines(new);
    unified(&a, &b)
}

fn lines(v: &Value) -> Vec<String> {
    let text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.lines().map(|l| format!("{l}\n")).collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Same,
    Del,
    Add,
}

/// Past this many line pairs the middle of the two texts is shown as one replacement
/// rather than searched for common lines (bounded time and memory on large specs).
const MAX_PAIRS: usize = 1 << 20;

/// The edit script, as (op, index in a or b): common first and last lines kept, and a longest
/// common subsequence of what lies between them.
fn script(a: &[String], b: &[String]) -> Vec<(Op, usize)> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a_mid, b_mid) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut ops: Vec<(Op, usize)> = (0..head).map(|i| (Op::Same, i)).collect();
    if a_mid.len().saturating_mul(b_mid.len()) > MAX_PAIRS {
        ops.extend((0..a_mid.len()).map(|i| (Op::Del, head + i)));
        ops.extend((0..b_mid.len()).map(|j| (Op::Add, head + j)));
    } else {
        ops.extend(
            lcs_script(a_mid, b_mid)
                .into_iter()
                .map(|(op, k)| (op, head + k)),
        );
    }
    ops.extend((a.len() - tail..a.len()).map(|i| (Op::Same, i)));
    ops
}

fn lcs_script(a: &[String], b: &[String]) -> Vec<(Op, usize)> {
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut ops = Vec::new();
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((Op::Same, i));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push((Op::Del, i));
            i += 1;
        } else {
            ops.push((Op::Add, j));
            j += 1;
        }
    }
    ops
}

fn range(start: usize, len: usize) -> String {
    match len {
        1 => format!("{}", start + 1),
        0 => format!("{start},0"),
        _ => format!("{},{len}", start + 1),
    }
}

fn unified(a: &[String], b: &[String]) -> String {
    let ops = script(a, b);
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].0 != Op::Same).collect();
    let mut out = String::new();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(CONTEXT);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * CONTEXT {
            end = changed[k];
            k += 1;
        }
        let stop = (end + CONTEXT + 1).min(ops.len());
        let hunk = &ops[start..stop];
        // Where each side's lines begin and how many the hunk holds.
        let (a_pos, b_pos) = position(&ops[..start]);
        let a_len = hunk.iter().filter(|o| o.0 != Op::Add).count();
        let b_len = hunk.iter().filter(|o| o.0 != Op::Del).count();
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            range(a_pos, a_len),
            range(b_pos, b_len)
        ));
        for &(op, idx) in hunk {
            match op {
                Op::Same => {
                    out.push(' ');
                    out.push_str(&a[idx]);
                }
                Op::Del => {
                    out.push('-');
                    out.push_str(&a[idx]);
                }
                Op::Add => {
                    out.push('+');
                    out.push_str(&b[idx]);
                }
            }
        }
    }
    out
}

/// How many lines of each side come before `ops`' end.
fn position(ops: &[(Op, usize)]) -> (usize, usize) {
    let a = ops.iter().filter(|o| o.0 != Op::Add).count();
    let b = ops.iter().filter(|o| o.0 != Op::Del).count();
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_changed_member_makes_one_hunk() {
        let d = spec_diff(&json!({"a": 1, "b": 2}), &json!({"a": 1, "b": 3}));
        assert_eq!(
            d,
            "@@ -1,4 +1,4 @@\n {\n   \"a\": 1,\n-  \"b\": 2\n+  \"b\": 3\n }\n"
        );
    }
}
