//! `x-kubernetes-validations` rules as a CRD writes them, each compiled once when the schema
//! is read (by the `cel` crate, through `kube-cel`, which supplies Kubernetes' CEL libraries).

use std::sync::Arc;

use kube_cel::cel::Program;
use kube_cel::cel::common::ast::{EntryExpr, Expr, IdedExpr};
use serde_json::Value;

/// One validation rule.
#[derive(Clone)]
pub struct Rule {
    /// `rule`, as written.
    pub rule: String,
    /// `message`.
    pub message: String,
    /// `messageExpression`.
    pub message_expression: String,
    /// `reason`: `FieldValueInvalid` (also when unset), `FieldValueForbidden`,
    /// `FieldValueRequired` or `FieldValueDuplicate`.
    pub reason: String,
    /// `fieldPath`.
    pub field_path: String,
    /// `optionalOldSelf`.
    pub optional_old_self: bool,
    /// The compiled rule, or why it does not compile.
    pub(crate) program: Result<Arc<Program>, String>,
    /// The rule as it runs here ([`for_evaluation`]).
    pub(crate) runs: Option<Arc<IdedExpr>>,
    /// The message expression as it runs here.
    pub(crate) message_runs: Option<Arc<IdedExpr>>,
    /// The compiled message expression, if any.
    pub(crate) message_program: Option<Result<Arc<Program>, String>>,
    /// Whether the rule reads `oldSelf` (a transition rule).
    pub(crate) uses_old_self: bool,
    /// What the rule and its message expression read of `self` and of `oldSelf`.
    pub(crate) reads_self: Reads,
    pub(crate) reads_old_self: Reads,
    /// How deep the rule's or its message expression's tree goes, for [`on_stack`].
    pub(crate) depth: usize,
}

/// What an expression reads of a variable: all of it, or the members along some paths
/// (`self.spec.replicas` reads `spec.replicas`, and all below it).
///
/// Binding a variable in the `cel` crate (0.13) copies the whole value each time the
/// expression names it; a rule at the root of a large object naming `self` twice copied the
/// object four times. Only what the rule reads is bound, which changes no result.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) enum Reads {
    /// Nothing.
    #[default]
    Nothing,
    /// The whole value.
    All,
    /// The members along these paths (escaped names, as the expression writes them).
    Paths(Vec<Vec<String>>),
}

impl Reads {
    fn add(&mut self, path: Vec<String>) {
        match self {
            Reads::All => {}
            Reads::Nothing => *self = Reads::Paths(vec![path]),
            Reads::Paths(paths) => paths.push(path),
        }
    }

    fn all(&mut self) {
        *self = Reads::All;
    }

    /// What several expressions read together.
    pub(crate) fn union<'r>(reads: impl Iterator<Item = &'r Reads>) -> Reads {
        let mut out = Reads::Nothing;
        for r in reads {
            match r {
                Reads::Nothing => {}
                Reads::All => return Reads::All,
                Reads::Paths(paths) => {
                    for p in paths {
                        out.add(p.clone());
                    }
                }
            }
        }
        out
    }
}

/// The step of a read path that stands for every item of a list (no CEL name is `*`).
pub(crate) const ITEMS: &str = "*";

/// The chain of fields `expr` selects from a variable (`self.a.b` is `self`, `[a, b]`).
fn select_chain(expr: &IdedExpr) -> Option<(&str, Vec<String>)> {
    match &expr.expr {
        Expr::Ident(name) => Some((name.as_str(), Vec::new())),
        Expr::Select(select) => {
            let (root, mut path) = select_chain(&select.operand)?;
            path.push(select.field.clone());
            Some((root, path))
        }
        _ => None,
    }
}

/// What `expr` reads of the variable `var`.
fn reads(expr: &IdedExpr, var: &str, out: &mut Reads, depth: usize) {
    if *out == Reads::All {
        return;
    }
    if depth > MAX_EXPR_DEPTH {
        out.all();
        return;
    }
    if let Some((root, path)) = select_chain(expr) {
        if root == var {
            if path.is_empty() {
                out.all();
            } else {
                out.add(path);
            }
        }
        return;
    }
    // A macro over a list the variable holds (`self.items.all(i, i.x > 0)`) reads of each
    // item only what its body reads of the loop variable (`items`, `*`, `x`).
    if let Expr::Comprehension(c) = &expr.expr
        && let Some((root, path)) = select_chain(&c.iter_range)
        && root == var
        && c.iter_var != var
        && c.accu_var != var
    {
        let body = [&c.accu_init, &c.loop_cond, &c.loop_step, &c.result];
        let mut items = Reads::Nothing;
        for e in body {
            reads(e, &c.iter_var, &mut items, depth + 1);
        }
        let mut each = path;
        each.push(ITEMS.to_owned());
        match items {
            Reads::Paths(paths) => {
                for p in paths {
                    let mut full = each.clone();
                    full.extend(p);
                    out.add(full);
                }
            }
            // The whole item (or, reading none of it, still every item, to count them).
            Reads::All | Reads::Nothing => out.add(each),
        }
        for e in body {
            reads(e, var, out, depth + 1);
        }
        return;
    }
    each_child(expr, |e| reads(e, var, out, depth + 1));
}

/// How deep an expression is walked; past it, the walks stop (a parser's tree is bounded by
/// the rule's length, which the CRD's validation bounds).
const MAX_EXPR_DEPTH: usize = 256;

/// Calls `visit` on each direct sub-expression of `expr`.
fn each_child<'e>(expr: &'e IdedExpr, mut visit: impl FnMut(&'e IdedExpr)) {
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

/// What `programs` read of `var` together.
fn reads_of<'p>(exprs: impl Iterator<Item = &'p IdedExpr>, var: &str) -> Reads {
    let mut out = Reads::Nothing;
    for expr in exprs {
        reads(expr, var, &mut out, 0);
    }
    out
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule")
            .field("rule", &self.rule)
            .field("message", &self.message)
            .field("reason", &self.reason)
            .field("field_path", &self.field_path)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        (
            &self.rule,
            &self.message,
            &self.message_expression,
            &self.reason,
            &self.field_path,
            self.optional_old_self,
        ) == (
            &other.rule,
            &other.message,
            &other.message_expression,
            &other.reason,
            &other.field_path,
            other.optional_old_self,
        )
    }
}

/// An expression as it runs here: `x.size()` written `size(x)`, so that this crate's `size`
/// (see `cel.rs`) reads `x` where it lies; the `cel` crate hands a method's target to the
/// function as a copy of the whole value (a rule adding up `self[i].matches.size()` over a
/// route's rules copied the rules each time).
fn for_evaluation(program: &Program) -> Arc<IdedExpr> {
    let mut expr = program.expression().clone();
    rewrite(&mut expr, 0);
    Arc::new(expr)
}

fn rewrite(expr: &mut IdedExpr, depth: usize) {
    if depth > 256 {
        return;
    }
    let mut visit = |e: &mut IdedExpr| rewrite(e, depth + 1);
    match &mut expr.expr {
        Expr::Call(call) => {
            if call.func_name == "size" && call.args.is_empty() {
                if let Some(target) = call.target.take() {
                    call.args.push(*target);
                }
            }
            if call.func_name == "size" && call.args.len() == 1 {
                if let Some(count) = filter_counted(&call.args[0]) {
                    expr.expr = count;
                    rewrite(expr, depth + 1);
                    return;
                }
            }
            if let Some(target) = call.target.as_deref_mut() {
                visit(target);
            }
            call.args.iter_mut().for_each(visit);
        }
        Expr::Comprehension(c) => {
            for e in [
                &mut c.iter_range,
                &mut c.accu_init,
                &mut c.loop_cond,
                &mut c.loop_step,
                &mut c.result,
            ] {
                visit(e);
            }
        }
        Expr::List(list) => list.elements.iter_mut().for_each(visit),
        Expr::Map(map) => {
            for entry in &mut map.entries {
                entries_mut(&mut entry.expr, &mut visit);
            }
        }
        Expr::Struct(st) => {
            for entry in &mut st.entries {
                entries_mut(&mut entry.expr, &mut visit);
            }
        }
        Expr::Select(select) => visit(&mut select.operand),
        _ => {}
    }
}

/// `size(x.filter(v, p))` as the count it is: the `filter` macro's loop with `@result + 1` in
/// place of `@result + [v]`, so the items are neither collected nor read beyond `p`.
fn filter_counted(arg: &IdedExpr) -> Option<Expr> {
    use kube_cel::cel::common::ast::{CallExpr, LiteralValue, operators};
    let Expr::Comprehension(c) = &arg.expr else {
        return None;
    };
    let empty_list = matches!(&c.accu_init.expr, Expr::List(l) if l.elements.is_empty());
    let returns_accu = matches!(&c.result.expr, Expr::Ident(n) if *n == c.accu_var);
    let Expr::Call(step) = &c.loop_step.expr else {
        return None;
    };
    if !empty_list
        || !returns_accu
        || c.iter_var2.is_some()
        || step.func_name != operators::CONDITIONAL
        || step.args.len() != 3
    {
        return None;
    }
    let is_accu = |e: &IdedExpr| matches!(&e.expr, Expr::Ident(n) if *n == c.accu_var);
    let Expr::Call(add) = &step.args[1].expr else {
        return None;
    };
    let appends_item = add.func_name == operators::ADD
        && add.args.len() == 2
        && is_accu(&add.args[0])
        && matches!(&add.args[1].expr, Expr::List(l) if l.elements.len() == 1
            && matches!(&l.elements[0].expr, Expr::Ident(n) if *n == c.iter_var));
    if !appends_item || !is_accu(&step.args[2]) {
        return None;
    }
    let literal = |n: i64| IdedExpr {
        id: 0,
        expr: Expr::Literal(LiteralValue::Int(n.into())),
    };
    let mut counted = (**c).clone();
    counted.accu_init = literal(0);
    counted.loop_step = IdedExpr {
        id: c.loop_step.id,
        expr: Expr::Call(CallExpr {
            func_name: operators::CONDITIONAL.to_owned(),
            target: None,
            args: vec![
                step.args[0].clone(),
                IdedExpr {
                    id: add.args[1].id,
                    expr: Expr::Call(CallExpr {
                        func_name: operators::ADD.to_owned(),
                        target: None,
                        args: vec![add.args[0].clone(), literal(1)],
                    }),
                },
                step.args[2].clone(),
            ],
        }),
    };
    Some(Expr::Comprehension(Box::new(counted)))
}

fn entries_mut(entry: &mut EntryExpr, visit: &mut impl FnMut(&mut IdedExpr)) {
    match entry {
        EntryExpr::StructField(f) => visit(&mut f.value),
        EntryExpr::MapEntry(m) => {
            visit(&mut m.key);
            visit(&mut m.value);
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
pub(crate) fn compile(source: &str) -> Result<Arc<Program>, String> {
    if source.len() > MAX_SOURCE {
        return Err(format!(
            "ERROR: <input>:1:1: expression of {} bytes is longer than the {MAX_SOURCE} bytes accepted here",
            source.len()
        ));
    }
    if source.len() <= SHORT && nesting(source) <= SHALLOW {
        return compile_here(source);
    }
    stacker::grow(PARSE_STACK, || compile_here(source))
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

fn compile_here(source: &str) -> Result<Arc<Program>, String> {
    let program = Program::compile(source)
        .map(Arc::new)
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

impl Rule {
    /// Whether the message expression is a literal of another type than string, which the
    /// server refuses (`messageExpression must evaluate to a string`); the type of any other
    /// expression is known only when it runs here.
    pub(crate) fn message_is_not_a_string(&self) -> bool {
        use kube_cel::cel::common::ast::LiteralValue;
        match &self.message_program {
            Some(Ok(p)) => matches!(&p.expression().expr,
                Expr::Literal(l) if !matches!(l, LiteralValue::String(_))),
            _ => false,
        }
    }
}

impl Rule {
    /// Reads one entry of `x-kubernetes-validations`; `None` when it is not an object.
    pub fn from_value(entry: &Value) -> Option<Rule> {
        let object = entry.as_object()?;
        let text = |key: &str| {
            object
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let rule = text("rule");
        let message_expression = text("messageExpression");
        let program = compile(&rule);
        let message_program =
            (!message_expression.trim().is_empty()).then(|| compile(&message_expression));
        let compiled = || {
            program
                .iter()
                .chain(message_program.iter().flatten())
                .map(|p| p.expression())
        };
        // A deep tree is read, copied and rewritten on a stack of its own, as it is evaluated.
        let depth = compiled().map(tree_depth).max().unwrap_or(0);
        let (uses_old_self, runs, message_runs, reads_self, reads_old_self) =
            on_stack(depth, || {
                let uses_old_self = program
                    .as_ref()
                    .is_ok_and(|p| p.references().has_variable("oldSelf"));
                let runs = program.as_ref().ok().map(|p| for_evaluation(p));
                let message_runs = message_program
                    .as_ref()
                    .and_then(|p| p.as_ref().ok())
                    .map(|p| for_evaluation(p));
                // What runs is what is read.
                let exprs = || runs.iter().chain(message_runs.iter()).map(|e| e.as_ref());
                let reads_self = reads_of(exprs(), "self");
                let reads_old_self = reads_of(exprs(), "oldSelf");
                (
                    uses_old_self,
                    runs,
                    message_runs,
                    reads_self,
                    reads_old_self,
                )
            });
        Some(Rule {
            depth,
            runs,
            message_runs,
            reads_self,
            reads_old_self,
            message: text("message"),
            reason: text("reason"),
            field_path: text("fieldPath"),
            optional_old_self: object
                .get("optionalOldSelf")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            message_program,
            message_expression,
            program,
            uses_old_self,
            rule,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rule(text: &str) -> Rule {
        Rule::from_value(&json!({"rule": text})).unwrap()
    }

    #[test]
    fn what_a_rule_reads_of_self_and_old_self() {
        let r = rule("self.spec.a > 0 && has(self.spec.b) && oldSelf.x == self.x");
        assert_eq!(
            r.reads_self,
            Reads::Paths(vec![
                vec!["spec".into(), "a".into()],
                vec!["spec".into(), "b".into()],
                vec!["x".into()]
            ])
        );
        assert_eq!(r.reads_old_self, Reads::Paths(vec![vec!["x".into()]]));
        assert!(r.uses_old_self);
        assert_eq!(rule("size(self) > 0").reads_self, Reads::All);
        assert_eq!(
            rule("self.items.all(i, i.x > 0)").reads_self,
            Reads::Paths(vec![vec!["items".into(), ITEMS.into(), "x".into()]])
        );
        // Counted, a filter reads only what its predicate reads.
        assert_eq!(
            rule("self.filter(f, f.a).size() <= 1").reads_self,
            Reads::Paths(vec![vec![ITEMS.into(), "a".into()]])
        );
        assert_eq!(
            rule("self.filter(f, f.a) == []").reads_self,
            Reads::Paths(vec![vec![ITEMS.into()]])
        );
        assert_eq!(rule("1 == 1").reads_self, Reads::Nothing);
        assert!(rule("self ==").program.is_err());
    }
}

#[cfg(test)]
mod malformed {
    use super::*;
    use serde_json::json;

    #[test]
    fn malformed_macros_do_not_panic() {
        for text in [
            "self.filter(f)",
            "self.all()",
            "self.exists_one(1, 2)",
            "self.map(x)",
            "has()",
            "has(self)",
        ] {
            let rule = Rule::from_value(&json!({"rule": text})).unwrap();
            let _ = rule.program.is_ok();
        }
    }
}

#[cfg(test)]
mod deep {
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
        // A chain within the limit compiles and evaluates, even from a thread with a small
        // stack (the deep parts run on stacks of their own).
        let fine = format!("{}1 == 241", "1 + ".repeat(240));
        assert!(compile(&fine).is_ok());
        let evaluated = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || super::super::cel::evaluate_rule(&fine, &serde_json::json!(null)))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(evaluated, Ok(true));
    }
}
