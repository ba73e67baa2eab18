//! CEL expressions as kube-apiserver compiles them (its `k8s.io/apiserver/pkg/cel`), for every
//! place smp reads one: a CRD's `x-kubernetes-validations` ([`crate::customresource`]), an
//! admission policy's and a webhook's expressions and a device selector
//! ([`crate::validation`]). Below both: it knows nothing of schemas or kinds.
//!
//! What is here: the compile with its guards (a long or nested expression parsed on a stack
//! of its own, trees deeper than cel-go's recursion limit refused, message constructions
//! refused as cel-go's checker refuses them), the stack an evaluation of a deep tree takes,
//! a walk over a tree's children, and the words CEL reserves.

use std::sync::Arc;

use kube_cel::cel::common::ast::{EntryExpr, Expr, IdedExpr};

/// The words CEL reserves, which a property name is escaped from (`__namespace__`), sorted.
const RESERVED: [&str; 21] = [
    "as",
    "break",
    "const",
    "continue",
    "else",
    "false",
    "for",
    "function",
    "if",
    "import",
    "in",
    "let",
    "loop",
    "namespace",
    "null",
    "package",
    "return",
    "true",
    "var",
    "void",
    "while",
];

/// Whether CEL reserves `word` (a property so named is escaped; a variable may not be so
/// named).
pub(crate) fn is_reserved(word: &str) -> bool {
    // Every reserved word is 2 to 9 lowercase letters: most property names are told apart
    // without a search (this runs for each member bound to a rule's `self`).
    let bytes = word.as_bytes();
    (2..=9).contains(&bytes.len())
        && bytes[0].is_ascii_lowercase()
        && RESERVED.binary_search(&word).is_ok()
}

/// How deep an expression is walked; past it, the walks stop (a parser's tree is bounded by
/// the rule's length, which the CRD's validation bounds).
pub(crate) const MAX_EXPR_DEPTH: usize = 256;

/// Calls `visit` on each direct sub-expression of `expr`.
pub(crate) fn each_child<'e>(expr: &'e IdedExpr, mut visit: impl FnMut(&'e IdedExpr)) {
    match &expr.expr {
        Expr::Call(call) => {
            if let Some(target) = &call.target {
                visit(target);
            }
            call.args.iter().for_each(visit);
        }
        Expr::Comprehension(c) => {
            for e in [
                &c.iter_range,
                &c.accu_init,
                &c.loop_cond,
                &c.loop_step,
                &c.result,
            ] {
                visit(e);
            }
        }
        Expr::List(list) => list.elements.iter().for_each(visit),
        Expr::Map(map) => {
            for entry in &map.entries {
                entries(&entry.expr, &mut visit);
            }
        }
        Expr::Struct(st) => {
            for entry in &st.entries {
                entries(&entry.expr, &mut visit);
            }
        }
        Expr::Select(select) => visit(&select.operand),
        _ => {}
    }
}

fn entries<'e>(entry: &'e EntryExpr, visit: &mut impl FnMut(&'e IdedExpr)) {
    match entry {
        EntryExpr::StructField(f) => visit(&f.value),
        EntryExpr::MapEntry(m) => {
            visit(&m.key);
            visit(&m.value);
        }
    }
}

/// Compiles `source`; a parse error is worded as cel-go words it (the `cel` crate's parser is
/// generated from the same grammar; only the margin of its source lines differs). Every CEL
/// expression smp reads goes through here: CRD rules, admission policies' expressions, device
/// selectors.
///
/// The parser and the walks of its tree recurse, some ten frames a level of brackets and one
/// a link of a chain (`a.a.a`, `!!!x`, `1+1+1`): a long or deeply nested expression is
/// compiled on a large stack of its own (reserved, not used), and a tree deeper than cel-go's
/// recursion limit is refused there; one that is merely deep is evaluated on such a stack
/// too when the caller's has not room enough ([`on_stack`]).
pub(crate) fn compile(source: &str) -> Result<Arc<Compiled>, String> {
    parsing(source, || compile_here(source))?
}

/// Runs `parse`, a parse of `source`, where the parser's recursion fits: here for a short,
/// shallow expression, else on a stack of [`PARSE_STACK`] bytes; an expression longer than
/// [`MAX_SOURCE`] is refused unparsed. `parse` must drop what it builds before returning (a
/// deep tree dropped here would recurse as deep).
pub(crate) fn parsing<R>(source: &str, parse: impl FnOnce() -> R) -> Result<R, String> {
    if source.len() > MAX_SOURCE {
        return Err(format!(
            "ERROR: <input>:1:1: expression of {} bytes is longer than the {MAX_SOURCE} bytes accepted here",
            source.len()
        ));
    }
    if source.len() <= SHORT && nesting(source) <= SHALLOW {
        return Ok(parse());
    }
    Ok(stacker::grow(PARSE_STACK, parse))
}

/// Past this nesting, or this length, an expression is compiled on a stack of its own of
/// [`PARSE_STACK`] bytes.
const SHALLOW: usize = 8;
const SHORT: usize = 256;
const PARSE_STACK: usize = 512 << 20;

/// The longest expression compiled: well past any rule the server's cost limits let through,
/// and short enough that the parser's recursion fits [`PARSE_STACK`].
const MAX_SOURCE: usize = 64 << 10;

/// cel-go's parser refuses a tree deeper than this (`expression recursion limit exceeded`).
const MAX_RECURSION: usize = 250;

/// A compiled expression: the tree the parser made of it, optional syntax (`x.?y`, `l[?0]`,
/// `[?x]`, `{?k: v}`) included, as the server's environment parses it. The `cel` crate's own
/// `Program` parses without that syntax and cannot be made from a tree.
#[derive(Debug, Clone)]
pub(crate) struct Compiled(IdedExpr);

impl Compiled {
    /// The parsed tree.
    pub(crate) fn expression(&self) -> &IdedExpr {
        &self.0
    }
}

fn compile_here(source: &str) -> Result<Arc<Compiled>, String> {
    let program = kube_cel::cel::parser::Parser::default()
        .enable_optional_syntax(true)
        .parse(source)
        .map(|expr| Arc::new(Compiled(expr)))
        .map_err(|e| e.to_string().replace("\n| ", "\n | "))?;
    if depth(program.expression(), 0, MAX_RECURSION) > MAX_RECURSION {
        return Err(format!(
            "ERROR: <input>:1:1: expression recursion limit exceeded: {MAX_RECURSION}"
        ));
    }
    match message_type(program.expression(), 0) {
        Some(name) => Err(undeclared(source, name)),
        None => Ok(program),
    }
}

/// The stack an evaluation may need a level of its tree: the interpreter recurses once a
/// level, with frames large enough in a debug build that some hundred levels fill a test
/// thread's stack. An evaluation starts on a stack of its own of [`EVAL_STACK`] bytes when
/// the one it is on has less room left than its tree needs ([`on_stack`]).
const STACK_PER_LEVEL: usize = 32 << 10;
const STACK_BASE: usize = 128 << 10;

/// A stack with room for [`MAX_RECURSION`] levels in any build.
const EVAL_STACK: usize = 64 << 20;

/// How deep `expr` goes, counted up to just past cel-go's limit.
pub(crate) fn tree_depth(expr: &IdedExpr) -> usize {
    depth(expr, 0, MAX_RECURSION)
}

/// Runs `f`, the evaluation of (or a walk over) a tree `levels` deep, where the stack has
/// room for it: here when it has, else on a new stack of [`EVAL_STACK`] bytes.
pub(crate) fn on_stack<R>(levels: usize, f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(STACK_BASE + levels * STACK_PER_LEVEL, EVAL_STACK, f)
}

/// How deep the tree of `expr` goes, counted up to just past `limit`.
fn depth(expr: &IdedExpr, at: usize, limit: usize) -> usize {
    if at > limit {
        return at;
    }
    let mut deepest = at;
    each_child(expr, |child| {
        deepest = deepest.max(depth(child, at + 1, limit));
    });
    deepest
}

/// How deeply `expression` nests: brackets open at once, plus every `?` (a conditional
/// nests its alternative), outside string literals. An estimate from above of how deep the
/// parser recurses.
fn nesting(expression: &str) -> usize {
    let (mut depth, mut deepest, mut conditionals) = (0usize, 0usize, 0usize);
    let mut quote = None;
    let mut escaped = false;
    for byte in expression.bytes() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if byte == b'\\' {
                    escaped = true;
                } else if byte == q {
                    quote = None;
                }
            }
            None => match byte {
                b'"' | b'\'' => quote = Some(byte),
                b'(' | b'[' | b'{' => {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b'?' => conditionals += 1,
                _ => {}
            },
        }
    }
    deepest + conditionals
}

/// The type of the first message construction (`Foo{a: 1}`) in `expr`. A rule has no message
/// types to build (cel-go's checker refuses the name), and the `cel` crate cannot evaluate one.
fn message_type(expr: &IdedExpr, depth: usize) -> Option<&str> {
    if depth > MAX_EXPR_DEPTH {
        return None;
    }
    if let Expr::Struct(st) = &expr.expr {
        return Some(st.type_name.as_str());
    }
    let mut found = None;
    each_child(expr, |child| {
        if found.is_none() {
            found = message_type(child, depth + 1);
        }
    });
    found
}

/// cel-go's checker error for a name it does not know, pointing at its first appearance.
fn undeclared(source: &str, name: &str) -> String {
    let column = source.find(name).unwrap_or(0);
    let line = source.lines().next().unwrap_or("");
    format!(
        "ERROR: <input>:1:{}: undeclared reference to '{name}' (in container '')\n | {line}\n | {}^",
        column + 1,
        ".".repeat(column)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_chains_and_deep_nesting_are_refused_without_overflowing_the_stack() {
        let chain = format!("{}1 == 0", "1 + ".repeat(3000));
        let refused = compile(&chain).map(|_| ()).unwrap_err();
        assert!(
            refused.contains("recursion limit exceeded: 250"),
            "{refused}"
        );
        let nested = format!("{}true{}", "(".repeat(90), ")".repeat(90));
        // The parser's own bracket limit, or a tree within cel-go's: either way an answer.
        let _ = compile(&nested);
        let huge = "1 + ".repeat(20_000);
        assert!(compile(&huge).unwrap_err().contains("longer than"));
        let fine = format!("{}1 == 241", "1 + ".repeat(240));
        assert!(compile(&fine).is_ok());
    }

    #[test]
    fn reserved_words_are_known() {
        assert!(
            RESERVED.windows(2).all(|w| w[0] < w[1]),
            "sorted, for binary_search"
        );
        assert!(
            RESERVED.iter().all(|w| is_reserved(w)),
            "the quick guard keeps every word"
        );
        assert!(is_reserved("namespace") && is_reserved("true"));
        assert!(!is_reserved("name"));
    }
}
