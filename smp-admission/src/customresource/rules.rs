//! `x-kubernetes-validations` rules as a CRD writes them, each compiled once when the schema
//! is read (by the `cel` crate, through `kube-cel`, which supplies Kubernetes' CEL libraries).

use std::sync::Arc;

use kube_cel::cel::common::ast::{EntryExpr, Expr, IdedExpr};

use crate::cel::{MAX_EXPR_DEPTH, compile, each_child, on_stack, tree_depth};
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
    pub(crate) program: Result<Arc<crate::cel::Compiled>, String>,
    /// The rule as it runs here ([`for_evaluation`]).
    pub(crate) runs: Option<Arc<IdedExpr>>,
    /// The message expression as it runs here.
    pub(crate) message_runs: Option<Arc<IdedExpr>>,
    /// The compiled message expression, if any.
    pub(crate) message_program: Option<Result<Arc<crate::cel::Compiled>, String>>,
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
pub(crate) fn for_evaluation(program: &crate::cel::Compiled) -> Arc<IdedExpr> {
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
            if call.func_name == "size"
                && call.args.is_empty()
                && let Some(target) = call.target.take()
            {
                call.args.push(*target);
            }
            if call.func_name == "size"
                && call.args.len() == 1
                && let Some(count) = filter_counted(&call.args[0])
            {
                expr.expr = count;
                rewrite(expr, depth + 1);
                return;
            }
            if let Some(target) = call.target.as_deref_mut() {
                visit(target);
            }
            call.args.iter_mut().for_each(visit);
            if let Some(compared) = optional_comparison(call) {
                expr.expr = compared;
            } else if let Some(mapped) = opt_map(call) {
                expr.expr = mapped;
            }
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

/// The function `x == y` runs as when one side is written as an optional (`optional.none()`,
/// `optional.of(v)`, `optional.ofNonZeroValue(v)`); a name no rule can spell.
pub(crate) const OPTIONAL_EQUALS: &str = "@optional_equals";

/// `x == optional.none()` (or `!=`, either side) as a call of [`OPTIONAL_EQUALS`], which
/// compares optionals as cel-go does; `None` for any other call.
fn optional_comparison(call: &kube_cel::cel::common::ast::CallExpr) -> Option<Expr> {
    use kube_cel::cel::common::ast::{CallExpr, operators};
    let negated = match call.func_name.as_str() {
        operators::EQUALS => false,
        operators::NOT_EQUALS => true,
        _ => return None,
    };
    let made_optional = |e: &IdedExpr| {
        matches!(&e.expr, Expr::Call(c)
            if matches!(c.func_name.as_str(), "none" | "of" | "ofNonZeroValue")
                && matches!(c.target.as_deref().map(|t| &t.expr),
                    Some(Expr::Ident(name)) if name == "optional"))
    };
    if call.args.len() != 2 || !call.args.iter().any(made_optional) {
        return None;
    }
    let equals = Expr::Call(CallExpr {
        func_name: OPTIONAL_EQUALS.to_owned(),
        target: None,
        args: call.args.clone(),
    });
    Some(if negated {
        Expr::Call(CallExpr {
            func_name: operators::LOGICAL_NOT.to_owned(),
            target: None,
            args: vec![IdedExpr {
                id: 0,
                expr: equals,
            }],
        })
    } else {
        equals
    })
}

/// `x.optMap(v, e)`, a macro of cel-go's optional library the `cel` crate lacks, as what it
/// stands for: `x.hasValue() ? optional.of(e with v bound to x.value()) : optional.none()`,
/// the binding a loop over no items whose accumulator is `v` (as cel-go binds `cel.bind`).
fn opt_map(call: &kube_cel::cel::common::ast::CallExpr) -> Option<Expr> {
    use kube_cel::cel::common::ast::{
        CallExpr, ComprehensionExpr, ListExpr, LiteralValue, operators,
    };
    if call.func_name != "optMap" {
        return None;
    }
    let (Some(target), [var, body]) = (call.target.as_deref(), call.args.as_slice()) else {
        return None;
    };
    let Expr::Ident(name) = &var.expr else {
        return None;
    };
    let node = |expr: Expr| IdedExpr { id: 0, expr };
    let method = |name: &str, target: &IdedExpr, args: Vec<IdedExpr>| {
        node(Expr::Call(CallExpr {
            func_name: name.to_owned(),
            target: Some(Box::new(target.clone())),
            args,
        }))
    };
    let optional = node(Expr::Ident("optional".to_owned()));
    let bound = node(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: node(Expr::List(ListExpr::new(Vec::new()))),
        iter_var: "#unused".to_owned(),
        iter_var2: None,
        accu_var: name.clone(),
        accu_init: method("value", target, Vec::new()),
        loop_cond: node(Expr::Literal(LiteralValue::Boolean(false.into()))),
        loop_step: node(Expr::Ident(name.clone())),
        result: body.clone(),
    })));
    Some(Expr::Call(CallExpr {
        func_name: operators::CONDITIONAL.to_owned(),
        target: None,
        args: vec![
            method("hasValue", target, Vec::new()),
            method("of", &optional, vec![bound]),
            method("none", &optional, Vec::new()),
        ],
    }))
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
                    .is_ok_and(|p| p.expression().references().has_variable("oldSelf"));
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
    #[test]
    fn a_rule_at_the_recursion_limit_evaluates_from_a_small_stack() {
        // The deep parts (reading, rewriting, evaluating the tree) run on stacks of their own.
        let fine = format!("{}1 == 241", "1 + ".repeat(240));
        let evaluated = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || super::super::cel::evaluate_rule(&fine, &serde_json::json!(null)))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(evaluated, Ok(true));
    }
}
