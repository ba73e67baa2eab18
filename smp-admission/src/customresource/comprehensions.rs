//! CEL's two-variable comprehensions (cel-go's `TwoVarComprehensions` library, which
//! kube-apiserver v1.34 offers to rules): `all`, `exists` and `existsOne` with an index (or
//! key) and a value, and `transformList`, `transformMap`, `transformMapEntry`; and the lists
//! library's `sortBy(e, key)`. The `cel` crate expands only the one-variable macros when it
//! parses, so these calls reach the context as function calls; these functions read their
//! arguments unevaluated and evaluate the body once per element, in a scope that binds the
//! names.
//!
//! Over a list the first name is the index and the second the item; over a map, the key and
//! its value. As in cel-go, `all` is false as soon as one element is false (an error on another
//! element notwithstanding) and `exists` true as soon as one is true; an error is the answer
//! only when no element decides it.

use std::collections::HashMap;
use std::sync::Arc;

use kube_cel::cel::common::ast::Expr;
use kube_cel::cel::objects::{Key, Map};
use kube_cel::cel::{Context, ExecutionError, FunctionContext, ResolveResult, Value as Cel};

/// The functions, by the names rules call them.
pub(super) fn register(context: &mut Context<'static>) {
    context.add_function("all", all);
    context.add_function("exists", exists);
    context.add_function("existsOne", exists_one);
    context.add_function("exists_one", exists_one);
    context.add_function("transformList", transform_list);
    context.add_function("transformMap", transform_map);
    context.add_function("transformMapEntry", transform_map_entry);
    context.add_function("sortBy", sort_by);
}

/// The pairs a comprehension walks: `(index, item)` of a list, `(key, value)` of a map.
fn pairs(ftx: &FunctionContext) -> Result<Vec<(Cel, Cel)>, ExecutionError> {
    match &ftx.this {
        Some(Cel::List(items)) => Ok(items
            .iter()
            .enumerate()
            .map(|(i, v)| (Cel::Int(i as i64), v.clone()))
            .collect()),
        Some(Cel::Map(map)) => Ok(map
            .map
            .iter()
            .map(|(k, v)| (key_value(k), v.clone()))
            .collect()),
        Some(other) => Err(ftx.error(format!(
            "{} applies to lists and maps, not {other:?}",
            ftx.name
        ))),
        None => Err(ExecutionError::missing_argument_or_target()),
    }
}

fn key_value(key: &Key) -> Cel {
    match key {
        Key::Int(i) => Cel::Int(*i),
        Key::Uint(u) => Cel::UInt(*u),
        Key::Bool(b) => Cel::Bool(*b),
        Key::String(s) => Cel::String(s.clone()),
    }
}

/// The two names the call binds, its first two arguments.
fn names<'a>(
    ftx: &FunctionContext<'_, 'a>,
    arity: &[usize],
) -> Result<(&'a str, &'a str), ExecutionError> {
    if !arity.contains(&ftx.args.len()) {
        return Err(ExecutionError::invalid_argument_count(
            arity[0],
            ftx.args.len(),
        ));
    }
    let name = |i: usize| match &ftx.args[i].expr {
        Expr::Ident(name) => Ok(name.as_str()),
        _ => Err(ftx.error(format!("{}: argument {i} must be a simple name", ftx.name))),
    };
    Ok((name(0)?, name(1)?))
}

/// Evaluates argument `arg` with the names bound to one pair.
fn evaluate(
    ftx: &FunctionContext,
    names: (&str, &str),
    pair: &(Cel, Cel),
    arg: usize,
) -> ResolveResult {
    let mut scope = ftx.ptx.new_inner_scope();
    scope.add_variable_from_value(names.0, pair.0.clone());
    scope.add_variable_from_value(names.1, pair.1.clone());
    Cel::resolve(&ftx.args[arg], &scope)
}

fn truth(ftx: &FunctionContext, value: ResolveResult) -> Result<bool, ExecutionError> {
    match value? {
        Cel::Bool(b) => Ok(b),
        other => Err(ftx.error(format!("expected a bool, got {other:?}"))),
    }
}

/// `all` (`wanted` false: the first false decides) and `exists` (`wanted` true).
fn decide(ftx: &FunctionContext, wanted: bool) -> ResolveResult {
    let names = names(ftx, &[3])?;
    let mut error = None;
    for pair in pairs(ftx)? {
        match truth(ftx, evaluate(ftx, names, &pair, 2)) {
            Ok(b) if b == wanted => return Ok(Cel::Bool(wanted)),
            Ok(_) => {}
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    }
    match error {
        Some(e) => Err(e),
        None => Ok(Cel::Bool(!wanted)),
    }
}

fn all(ftx: &FunctionContext) -> ResolveResult {
    decide(ftx, false)
}

fn exists(ftx: &FunctionContext) -> ResolveResult {
    decide(ftx, true)
}

fn exists_one(ftx: &FunctionContext) -> ResolveResult {
    let names = names(ftx, &[3])?;
    let mut found = 0usize;
    for pair in pairs(ftx)? {
        if truth(ftx, evaluate(ftx, names, &pair, 2))? {
            found += 1;
        }
    }
    Ok(Cel::Bool(found == 1))
}

/// Whether the pair passes the optional filter (the third argument of a four-argument call).
fn kept(
    ftx: &FunctionContext,
    names: (&str, &str),
    pair: &(Cel, Cel),
) -> Result<bool, ExecutionError> {
    if ftx.args.len() == 4 {
        truth(ftx, evaluate(ftx, names, pair, 2))
    } else {
        Ok(true)
    }
}

fn transform_list(ftx: &FunctionContext) -> ResolveResult {
    let names = names(ftx, &[3, 4])?;
    let last = ftx.args.len() - 1;
    let mut out = Vec::new();
    for pair in pairs(ftx)? {
        if kept(ftx, names, &pair)? {
            out.push(evaluate(ftx, names, &pair, last)?);
        }
    }
    Ok(Cel::List(Arc::new(out)))
}

fn map_key(ftx: &FunctionContext, value: &Cel) -> Result<Key, ExecutionError> {
    match value {
        Cel::Int(i) => Ok(Key::Int(*i)),
        Cel::UInt(u) => Ok(Key::Uint(*u)),
        Cel::Bool(b) => Ok(Key::Bool(*b)),
        Cel::String(s) => Ok(Key::String(s.clone())),
        other => Err(ftx.error(format!("unsupported map key {other:?}"))),
    }
}

fn transform_map(ftx: &FunctionContext) -> ResolveResult {
    let names = names(ftx, &[3, 4])?;
    let last = ftx.args.len() - 1;
    let mut out = HashMap::new();
    for pair in pairs(ftx)? {
        if kept(ftx, names, &pair)? {
            let value = evaluate(ftx, names, &pair, last)?;
            out.insert(map_key(ftx, &pair.0)?, value);
        }
    }
    Ok(Cel::Map(Map { map: Arc::new(out) }))
}

fn transform_map_entry(ftx: &FunctionContext) -> ResolveResult {
    let names = names(ftx, &[3, 4])?;
    let last = ftx.args.len() - 1;
    let mut out = HashMap::new();
    for pair in pairs(ftx)? {
        if !kept(ftx, names, &pair)? {
            continue;
        }
        let Cel::Map(entry) = evaluate(ftx, names, &pair, last)? else {
            return Err(ftx.error("transformMapEntry: the expression must give a map"));
        };
        for (key, value) in entry.map.iter() {
            if out.insert(key.clone(), value.clone()).is_some() {
                return Err(ftx.error(format!(
                    "insert failed: key {:?} already exists",
                    key_value(key)
                )));
            }
        }
    }
    Ok(Cel::Map(Map { map: Arc::new(out) }))
}

/// `list.sortBy(e, key)`: the items in the order of their keys (a stable sort), the keys all
/// of one orderable type.
fn sort_by(ftx: &FunctionContext) -> ResolveResult {
    let Some(Cel::List(items)) = &ftx.this else {
        return Err(ftx.error("sortBy applies to lists"));
    };
    if ftx.args.len() != 2 {
        return Err(ExecutionError::invalid_argument_count(2, ftx.args.len()));
    }
    let Expr::Ident(name) = &ftx.args[0].expr else {
        return Err(ftx.error("sortBy: argument 0 must be a simple name"));
    };
    let mut keyed = Vec::with_capacity(items.len());
    for item in items.iter() {
        let mut scope = ftx.ptx.new_inner_scope();
        scope.add_variable_from_value(name.as_str(), item.clone());
        keyed.push((Cel::resolve(&ftx.args[1], &scope)?, item.clone()));
    }
    let mut failed = None;
    keyed.sort_by(|(a, _), (b, _)| match order(a, b) {
        Some(o) => o,
        None => {
            failed.get_or_insert_with(|| {
                ftx.error(format!("sortBy: keys {a:?} and {b:?} cannot be ordered"))
            });
            std::cmp::Ordering::Equal
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(Cel::List(Arc::new(
        keyed.into_iter().map(|(_, v)| v).collect(),
    )))
}

/// The order of two sort keys of one type.
fn order(a: &Cel, b: &Cel) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Cel::Int(x), Cel::Int(y)) => Some(x.cmp(y)),
        (Cel::UInt(x), Cel::UInt(y)) => Some(x.cmp(y)),
        (Cel::Float(x), Cel::Float(y)) => x.partial_cmp(y),
        (Cel::String(x), Cel::String(y)) => Some(x.cmp(y)),
        (Cel::Bool(x), Cel::Bool(y)) => Some(x.cmp(y)),
        (Cel::Duration(x), Cel::Duration(y)) => Some(x.cmp(y)),
        (Cel::Timestamp(x), Cel::Timestamp(y)) => Some(x.cmp(y)),
        (Cel::Bytes(x), Cel::Bytes(y)) => Some(x.cmp(y)),
        _ => None,
    }
}
