//! `x-kubernetes-validations` rules run over a custom resource as kube-apiserver v1.34 runs
//! them (apiextensions-apiserver `pkg/apiserver/schema/cel/validation.go`): each node's rules
//! with `self` bound to the node's value (and `oldSelf` to the value it replaces, on update),
//! then the rules of its members and items; a failed rule is the field error its `reason`
//! names, with its `message` (or `messageExpression`'s result, or `failed rule: <rule>`), the
//! node's schema type as the value, and its path (extended by `fieldPath`).
//!
//! - Transition rules (those reading `oldSelf`) run only where the node has an old value:
//!   not on create, not for a member or a `map` list item the old object lacks (unless
//!   `optionalOldSelf`, where `oldSelf` is then an optional, empty in those cases).
//! - A rule that fails on a node the update leaves as it was is not an error but a warning
//!   (ratcheting; [`validate_with_warnings`]).
//! - Rules run only when the earlier checks found no error of the blocking kinds (required,
//!   unsupported value, too long, too many, wrong type); otherwise the server's note that
//!   they were not checked is the last error.
//!
//! Where this differs from the server: rules are evaluated by the `cel` crate with
//! `kube-cel`'s Kubernetes libraries, which do not type-check and do not count cost (no
//! per-call limit or budget errors). Runtime errors are put in cel-go's words where the two
//! libraries' errors say the same thing (`error_text`); the others keep the crates' text.
//! Rules inside `allOf`, `anyOf`, `oneOf` or `not` are not run: a CRD cannot hold them (its
//! create refuses them as not structural, see [`crate::customresourcedefinition`]).

use std::sync::Arc;

use kube_cel::KubeCelExt;
use kube_cel::cel::objects::{Key, Map, OptionalValue};
use kube_cel::cel::{Context, ExecutionError, Value as Cel};
use serde_json::Value;

use super::fieldpath;
use super::formats;
use super::openapi::{MapListIndex, unchanged};
use super::paths::child;
use super::rules::{ITEMS, Reads, Rule};
use super::structural::{MAX_DEPTH, Pattern, Structural};
use crate::cel::{is_reserved, on_stack, tree_depth};
use crate::validation::field::{BadValue, ErrorList, ErrorType, FieldError};

/// The most bytes a message expression's result may have.
const MAX_MESSAGE_BYTES: usize = 5120;

/// The note the server ends its errors with when it skipped the rules.
pub const NOT_CHECKED: &str = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// Whether any of `errors` keeps the server from running the rules.
pub fn blocked_by(errors: &[FieldError]) -> bool {
    errors.iter().any(|e| {
        matches!(
            e.kind,
            ErrorType::NotSupported
                | ErrorType::Required
                | ErrorType::TooLong
                | ErrorType::TooMany
                | ErrorType::TypeInvalid
        )
    })
}

/// The error that says the rules were skipped.
pub fn not_checked() -> FieldError {
    FieldError {
        kind: ErrorType::Invalid,
        field: "<nil>".to_owned(),
        value: BadValue::Json(Value::Null),
        detail: NOT_CHECKED.to_owned(),
    }
}

/// The errors of the rules of `schema` over `object` (`old`: the object it replaces).
pub fn validate(object: &Value, old: Option<&Value>, schema: &Structural) -> ErrorList {
    validate_at(object, old, schema, "", true)
}

/// What the rules found over an object: the errors, and the failures of rules over parts an
/// update left as they were, which ratcheting turns into warnings (the server sends each as a
/// `Warning` header, the error's text).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Findings {
    /// The errors: the write is refused for them.
    pub errors: ErrorList,
    /// The ratcheted failures.
    pub warnings: ErrorList,
}

/// [`validate`], with the ratcheted failures kept as warnings.
pub fn validate_with_warnings(
    object: &Value,
    old: Option<&Value>,
    schema: &Structural,
) -> Findings {
    walk(object, old, schema, "", true)
}

/// [`validate`] of any value, its errors' paths under `root` (`""` for none);
/// `resource_root` treats it as a resource (its metadata reduced to its names).
pub fn validate_at(
    object: &Value,
    old: Option<&Value>,
    schema: &Structural,
    root: &str,
    resource_root: bool,
) -> ErrorList {
    walk(object, old, schema, root, resource_root).errors
}

fn walk(
    object: &Value,
    old: Option<&Value>,
    schema: &Structural,
    root: &str,
    resource_root: bool,
) -> Findings {
    ROOT.with(|context| {
        let mut walk = Walk {
            root: context,
            errors: ErrorList::new(),
            warnings: ErrorList::new(),
        };
        walk.node((object, old), schema, root, resource_root, 0, false);
        Findings {
            errors: walk.errors,
            warnings: walk.warnings,
        }
    })
}

/// Evaluates `rule` in the environment rules run in (Kubernetes' CEL libraries), with `self`
/// bound to `this` read as plain JSON (no schema: no formats, every name as written): whether
/// it yields `true`, or why it does not compile or run. For checking a rule, or the
/// environment itself, outside a CRD.
///
/// ```
/// use serde_json::json;
/// use smp_admission::customresource::cel::evaluate_rule;
///
/// assert_eq!(evaluate_rule("self.replicas <= 3", &json!({"replicas": 2})), Ok(true));
/// assert_eq!(evaluate_rule("isQuantity('1Gi') && quantity('1Gi').asInteger() == 1073741824",
///     &json!(null)), Ok(true));
/// assert!(evaluate_rule("self.replicas <", &json!({})).is_err());
/// ```
pub fn evaluate_rule(rule: &str, this: &Value) -> Result<bool, String> {
    let compiled = Rule::from_value(&serde_json::json!({ "rule": rule }))
        .ok_or_else(|| "not a rule".to_owned())?;
    let expr = match (&compiled.runs, &compiled.program) {
        (Some(expr), _) => expr.clone(),
        (None, Err(e)) => return Err(e.clone()),
        (None, Ok(_)) => return Err("not compiled".to_owned()),
    };
    ROOT.with(|root| {
        let mut context = root.new_inner_scope();
        context.add_variable_from_value("self", to_cel(this, &Structural::default(), false, 0));
        match on_stack(tree_depth(&expr), || Cel::resolve(&expr, &context)) {
            Ok(Cel::Bool(b)) => Ok(b),
            Ok(other) => Err(format!("not a bool: {other:?}")),
            Err(e) => Err(e.to_string()),
        }
    })
}

/// An expression compiled to run outside a CRD's schema (an admission policy's), in the
/// environment of the rules: Kubernetes' libraries, no type checking.
#[derive(Debug, Clone)]
pub(crate) struct Expression {
    runs: Arc<kube_cel::cel::common::ast::IdedExpr>,
    depth: usize,
}

impl Expression {
    /// Compiles `source`, or says why it does not compile, as cel-go words a parse error.
    pub(crate) fn compile(source: &str) -> Result<Expression, String> {
        let program = crate::cel::compile(source)?;
        let runs = super::rules::for_evaluation(&program);
        let depth = tree_depth(&runs);
        Ok(Expression { runs, depth })
    }

    /// The value of the expression with `bindings` as its variables, or the evaluation's
    /// error in cel-go's words where they are known.
    pub(crate) fn evaluate(&self, bindings: &[(&str, Cel)]) -> Result<Cel, String> {
        ROOT.with(|root| {
            let mut context = root.new_inner_scope();
            for (name, value) in bindings {
                context.add_variable_from_value(*name, value.clone());
            }
            on_stack(self.depth, || Cel::resolve(&self.runs, &context)).map_err(|e| error_text(&e))
        })
    }
}

/// A JSON value as CEL reads it without a schema (numbers without a point are integers).
pub(crate) fn untyped(value: &Value) -> Cel {
    to_cel(value, &Structural::default(), false, 0)
}

thread_local! {
    /// The functions rules may call, registered once per thread: Kubernetes' libraries
    /// (`kube-cel`), and `matches` with its patterns compiled once.
    static ROOT: Context<'static> = {
        let mut context = Context::default().with_all();
        context.add_function("matches", matches);
        context.add_function("size", size);
        context.add_function("type", type_of);
        context.add_function("dyn", dyn_value);
        context.add_function(super::rules::OPTIONAL_EQUALS, optional_equals);
        super::comprehensions::register(&mut context);
        for name in [
            "int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type",
            "type",
        ] {
            context.add_variable_from_value(name, text(name));
        }
        let names = |prefix: &str, members: &[&str]| {
            let map: std::collections::HashMap<Key, Cel> = members
                .iter()
                .map(|m| (Key::String(Arc::new((*m).to_owned())), text(&format!("{prefix}.{m}"))))
                .collect();
            Cel::Map(Map { map: Arc::new(map) })
        };
        let protobuf = names("google.protobuf", &["Duration", "Timestamp"]);
        let google = std::collections::HashMap::from([(
            Key::String(Arc::new("protobuf".to_owned())),
            protobuf,
        )]);
        context.add_variable_from_value("google", Cel::Map(Map { map: Arc::new(google) }));
        context.add_variable_from_value("net", names("net", &["IP", "CIDR"]));
        context.add_variable_from_value(
            "kubernetes",
            names("kubernetes", &["Quantity", "URL", "Semver", "Format"]),
        );
        context
    };
    /// The patterns `matches` has compiled, by their text.
    static PATTERNS: std::cell::RefCell<std::collections::HashMap<String, Option<Pattern>>> =
        std::cell::RefCell::default();
}

/// CEL's `size`: a string's code points (the `cel` crate counts its bytes), a list's items, a
/// map's entries, a byte string's bytes; reading its argument where it lies rather than as a
/// copy (rules call it as `size(x)`, see `rules.rs`).
fn size(ftx: &kube_cel::cel::FunctionContext) -> kube_cel::cel::ResolveResult {
    use kube_cel::cel::common::types::{CelBytes, CelList, CelMap, CelString};
    let n = match (&ftx.this, ftx.args.first()) {
        (Some(this), _) => match this {
            Cel::List(l) => l.len(),
            Cel::Map(m) => m.map.len(),
            Cel::String(s) => s.chars().count(),
            Cel::Bytes(b) => b.len(),
            other => return Err(ftx.error(format!("cannot determine the size of {other:?}"))),
        },
        (None, Some(arg)) => {
            let value = Cel::resolve_val(arg, ftx.ptx)?;
            let value = value.as_ref();
            if let Some(l) = value.downcast_ref::<CelList>() {
                l.inner().len()
            } else if let Some(m) = value.downcast_ref::<CelMap>() {
                m.inner().len()
            } else if let Some(s) = value.downcast_ref::<CelString>() {
                s.inner().chars().count()
            } else if let Some(b) = value.downcast_ref::<CelBytes>() {
                b.inner().len()
            } else {
                let shown: Cel = value.try_into().unwrap_or(Cel::Null);
                return Err(ftx.error(format!("cannot determine the size of {shown:?}")));
            }
        }
        (None, None) => return Err(kube_cel::cel::ExecutionError::missing_argument_or_target()),
    };
    Ok(Cel::Int(n as i64))
}

/// CEL's `type(x)`, which the `cel` crate lacks: the name of the value's type, compared with
/// the type names bound beside it (`int`, `string`, `google.protobuf.Timestamp`, `net.IP`...,
/// each bound to its own name), so that `type(self.x) == int` reads as upstream. A schema's
/// object types all read `map` here, where cel-go names each; two of them compare equal.
fn type_of(value: Cel) -> kube_cel::cel::ResolveResult {
    let name = match &value {
        Cel::Int(_) => "int",
        Cel::UInt(_) => "uint",
        Cel::Float(_) => "double",
        Cel::String(_) => "string",
        Cel::Bytes(_) => "bytes",
        Cel::Bool(_) => "bool",
        Cel::List(_) => "list",
        Cel::Map(_) => "map",
        Cel::Null => "null_type",
        Cel::Duration(_) => "google.protobuf.Duration",
        Cel::Timestamp(_) => "google.protobuf.Timestamp",
        Cel::Function(..) => "function",
        Cel::Opaque(o) => return Ok(text(o.runtime_type_name())),
    };
    Ok(text(name))
}

/// CEL's `dyn(x)`: `x` itself (a hint to cel-go's type checker, which this environment has
/// not).
fn dyn_value(value: Cel) -> kube_cel::cel::ResolveResult {
    Ok(value)
}

/// cel-go's `==` where one side is an optional (the rules rewrite `x == optional.none()` and the
/// like into this, see `rules.rs`): two optionals are equal when both are empty or both hold
/// equal values; an optional never equals a plain value. The `cel` crate has two optional types
/// (its own and kube-cel's), and its `==` finds no two optionals equal, not even two empty ones.
fn optional_equals(a: Cel, b: Cel) -> kube_cel::cel::ResolveResult {
    fn held(value: &Cel) -> Option<Option<&Cel>> {
        match value {
            Cel::Opaque(o) => o.downcast_ref::<OptionalValue>().map(OptionalValue::value),
            _ => None,
        }
    }
    Ok(Cel::Bool(match (held(&a), held(&b)) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a == b,
        _ => false,
    }))
}

/// How many compiled patterns a thread keeps; past it, the cache starts again.
const MAX_PATTERNS: usize = 512;

/// CEL's `matches`: an unanchored search, a pattern that does not compile being an error. In
/// place of the `cel` crate's, for two reasons: patterns are read as RE2 (cel-go's) reads
/// them, `\d` and `\w` in ASCII ([`Pattern`]), and each is compiled once rather than at
/// every call (a rule over a list's items ran it once per item).
fn matches(
    ftx: &kube_cel::cel::FunctionContext,
    kube_cel::cel::extractors::This(this): kube_cel::cel::extractors::This<Arc<String>>,
    pattern: Arc<String>,
) -> kube_cel::cel::ResolveResult {
    let found = PATTERNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if !cache.contains_key(pattern.as_str()) {
            if cache.len() >= MAX_PATTERNS {
                cache.clear();
            }
            cache.insert(pattern.to_string(), Pattern::new(&pattern).ok());
        }
        cache
            .get(pattern.as_str())
            .and_then(|r| r.as_ref().map(|r| r.is_match(&this)))
    });
    match found {
        Some(b) => Ok(Cel::Bool(b)),
        None => {
            let detail = Pattern::new(&pattern).err().unwrap_or_default();
            Err(ftx.error(format!("'{pattern}' not a valid regex:\n{detail}")))
        }
    }
}

/// A runtime error in cel-go's words, where the `cel` crate and kube-cel word it otherwise:
/// the server's message carries cel-go's text (`division by zero`, `no such key: x`, the
/// list library's `cannot slice(...)` and `max called on empty list`).
fn error_text(e: &ExecutionError) -> String {
    match e {
        ExecutionError::DivisionByZero(_) => "division by zero".to_owned(),
        ExecutionError::RemainderByZero(_) => "modulus by zero".to_owned(),
        ExecutionError::Overflow(_, Cel::UInt(_), _)
        | ExecutionError::Overflow(_, _, Cel::UInt(_)) => "unsigned integer overflow".to_owned(),
        ExecutionError::Overflow(..) => "integer overflow".to_owned(),
        ExecutionError::IndexOutOfBounds(Cel::Int(i)) => format!("index out of bounds: {i}"),
        ExecutionError::IndexOutOfBounds(Cel::UInt(i)) => format!("index out of bounds: {i}"),
        ExecutionError::NoSuchKey(key) => format!("no such key: {key}"),
        ExecutionError::FunctionError { function, message } => {
            function_error_text(function, message).unwrap_or_else(|| e.to_string())
        }
        _ => e.to_string(),
    }
}

/// cel-go's text for the errors of its list library that kube-cel words its own way.
fn function_error_text(function: &str, message: &str) -> Option<String> {
    match function {
        "min" | "max" if message.contains("empty list") => {
            Some(format!("{function} called on empty list"))
        }
        "flatten" if message.contains("non-negative") => {
            Some("level must be non-negative".to_owned())
        }
        "slice" => {
            // kube-cel: `slice(S, E) out of range for list of length L`.
            let rest = message.strip_prefix("slice(")?;
            let (args, rest) = rest.split_once(") out of range for list of length ")?;
            let (start, end) = args.split_once(", ")?;
            let (start, end): (i64, i64) = (start.parse().ok()?, end.parse().ok()?);
            let length: i64 = rest.trim().parse().ok()?;
            let why = if start < 0 || end < 0 {
                "negative indexes not supported".to_owned()
            } else if start > end {
                "start index must be less than or equal to end index".to_owned()
            } else {
                format!("list is length {length}")
            };
            Some(format!("cannot slice({start}, {end}), {why}"))
        }
        _ => None,
    }
}

struct Walk<'c> {
    root: &'c Context<'c>,
    errors: ErrorList,
    warnings: ErrorList,
}

impl Walk<'_> {
    /// Runs the rules of a value and below: `(value, old)`, the value and the one it replaces
    /// when the update correlates one. `ancestor_same`: whether the nearest ancestor that has
    /// an old value is unchanged, which decides ratcheting for a node without one.
    fn node(
        &mut self,
        (value, old): (&Value, Option<&Value>),
        s: &Structural,
        path: &str,
        resource: bool,
        depth: usize,
        ancestor_same: bool,
    ) {
        // Only the parts whose schema holds rules are walked (their paths made only there).
        if depth > MAX_DEPTH || value.is_null() || !s.has_rules {
            return;
        }
        // Ratcheting (upstream's `shouldRatchetError`): a node with an old value is judged by
        // itself; one without (an item of a set or an atomic list, a member the old object
        // lacks) by its nearest ancestor that has one. Compared once, when first needed.
        let compared = std::cell::OnceCell::new();
        let same = || {
            *compared.get_or_init(|| match old {
                Some(o) => unchanged(value, o, s, resource, depth),
                None => ancestor_same,
            })
        };
        if !s.rules.is_empty() {
            let same = same();
            // One binding serves the node's rules: what any of them reads, converted alone
            // (the `cel` crate copies a value each time it is bound).
            let (reads_self, reads_old) = &s.rule_reads;
            let mut context = self.root.new_inner_scope();
            context.add_variable_from_value("self", to_cel_reading(value, s, resource, reads_self));
            let bound_old = old.map_or(Cel::Null, |o| to_cel_reading(o, s, resource, reads_old));
            context.add_variable_from_value("oldSelf", bound_old.clone());
            // A rule with `optionalOldSelf` reads `oldSelf` as an optional: empty on create or
            // where the old object lacks the node, the old value otherwise.
            let optional = s.rules.iter().any(|r| r.optional_old_self).then(|| {
                let wrapped = match old {
                    Some(_) => OptionalValue::of(bound_old),
                    None => OptionalValue::none(),
                };
                let mut scope = context.new_inner_scope();
                scope.add_variable_from_value("oldSelf", Cel::Opaque(Arc::new(wrapped)));
                scope
            });
            for rule in &s.rules {
                let scope = match &optional {
                    Some(scope) if rule.optional_old_self => scope,
                    _ => &context,
                };
                self.rule(rule, scope, old.is_some(), s, path, same);
            }
        }
        match value {
            Value::Object(members) => {
                let old_members = old.and_then(Value::as_object);
                let additional = s.additional_properties.as_ref().and_then(|a| a.schema());
                for (key, member) in members {
                    // A resource's kind and apiVersion are not compared (both sides are read
                    // as the same version), so nothing about them ratchets.
                    let fixed = resource && (key == "kind" || key == "apiVersion");
                    let old_member = if fixed {
                        None
                    } else {
                        old_members.and_then(|o| o.get(key))
                    };
                    // Compared only for a member walked without an old value of its own.
                    let inherited = || old_member.is_none() && !fixed && same();
                    if let Some(property) = s.properties.get(key) {
                        if !property.has_rules {
                            continue;
                        }
                        let at = child(path, key);
                        self.node(
                            (member, old_member),
                            property,
                            &at,
                            false,
                            depth + 1,
                            inherited(),
                        );
                    } else if let Some(additional) = additional.filter(|a| a.has_rules) {
                        let at = format!("{path}[{key}]");
                        self.node(
                            (member, old_member),
                            additional,
                            &at,
                            false,
                            depth + 1,
                            inherited(),
                        );
                    }
                }
            }
            Value::Array(items) => {
                let Some(item_schema) = s.items.as_deref().filter(|i| i.has_rules) else {
                    return;
                };
                let index = old
                    .and_then(Value::as_array)
                    .and_then(|o| MapListIndex::of(o, s));
                for (i, item) in items.iter().enumerate() {
                    let old_item = index.as_ref().and_then(|x| x.get(item));
                    let inherited = old_item.is_none() && same();
                    let at = format!("{path}[{i}]");
                    self.node(
                        (item, old_item),
                        item_schema,
                        &at,
                        false,
                        depth + 1,
                        inherited,
                    );
                }
            }
            _ => {}
        }
    }

    fn rule(
        &mut self,
        rule: &Rule,
        context: &Context,
        has_old: bool,
        s: &Structural,
        path: &str,
        same: bool,
    ) {
        if rule.uses_old_self && !has_old && !rule.optional_old_self {
            return;
        }
        // Made only for a failure: most rules pass.
        let type_name = || {
            BadValue::Str(if s.int_or_string {
                String::new()
            } else {
                s.type_.clone()
            })
        };
        let fallback = || {
            if rule.message.trim().is_empty() {
                rule.rule.trim()
            } else {
                rule.message.trim()
            }
        };
        let program = match &rule.program {
            Ok(p) => p,
            Err(e) => {
                self.push(
                    ErrorType::Invalid,
                    path,
                    type_name(),
                    format!("rule compile error: {e}"),
                );
                return;
            }
        };
        let outcome = on_stack(rule.depth, || match &rule.runs {
            Some(expr) => Cel::resolve(expr, context),
            None => Cel::resolve(program.expression(), context),
        });
        match outcome {
            Ok(Cel::Bool(true)) => {}
            Ok(Cel::Bool(false)) => {
                // Ratcheting: an unchanged value that keeps failing as it did is a warning.
                let ratcheted = same && !rule.uses_old_self;
                let message = match (&rule.message_runs, &rule.message_program) {
                    (Some(expr), Some(Ok(_))) => {
                        match on_stack(rule.depth, || Cel::resolve(expr, context)) {
                            Ok(Cel::String(text)) => {
                                let text = text.trim();
                                let fits = !text.is_empty()
                                    && !text.contains('\n')
                                    && text.len() <= MAX_MESSAGE_BYTES;
                                if fits { text.to_owned() } else { failed(rule) }
                            }
                            _ => failed(rule),
                        }
                    }
                    _ => failed(rule),
                };
                // The server adds the path the rule's `fieldPath` resolves to, as one step.
                let at = match fieldpath::resolve(rule.field_path.trim(), s, true) {
                    Ok((extra, _)) if !extra.is_empty() => child(path, &extra),
                    _ => path.to_owned(),
                };
                match rule.reason.as_str() {
                    "FieldValueForbidden" => self.report(
                        ratcheted,
                        ErrorType::Forbidden,
                        &at,
                        BadValue::Omit,
                        message,
                    ),
                    "FieldValueRequired" => {
                        self.report(ratcheted, ErrorType::Required, &at, BadValue::Omit, message)
                    }
                    "FieldValueDuplicate" => {
                        self.report(
                            ratcheted,
                            ErrorType::Duplicate,
                            &at,
                            type_name(),
                            String::new(),
                        );
                    }
                    _ => self.report(ratcheted, ErrorType::Invalid, &at, type_name(), message),
                }
            }
            Ok(_) => self.push(
                ErrorType::Invalid,
                path,
                type_name(),
                format!(
                    "rule did not evaluate to a bool evaluating rule: {}",
                    fallback()
                ),
            ),
            Err(e) => self.push(
                ErrorType::Invalid,
                path,
                type_name(),
                format!("{} evaluating rule: {}", error_text(&e), fallback()),
            ),
        }
    }

    /// [`Walk::push`], or a warning when the failure is ratcheted.
    fn report(
        &mut self,
        ratcheted: bool,
        kind: ErrorType,
        path: &str,
        value: BadValue,
        detail: String,
    ) {
        self.push(kind, path, value, detail);
        if ratcheted && let Some(e) = self.errors.pop() {
            self.warnings.push(e);
        }
    }

    fn push(&mut self, kind: ErrorType, path: &str, value: BadValue, detail: String) {
        self.errors.push(FieldError {
            kind,
            field: if path.is_empty() {
                "<nil>".to_owned()
            } else {
                path.to_owned()
            },
            value,
            detail,
        });
    }
}

/// The part of `value` rules read (see `Reads`), as [`to_cel`] converts it.
fn to_cel_reading(value: &Value, s: &Structural, resource: bool, reads: &Reads) -> Cel {
    match reads {
        Reads::Nothing => Cel::Null,
        Reads::All => to_cel(value, s, resource, 0),
        Reads::Paths(paths) => {
            let paths: Vec<&[String]> = paths.iter().map(Vec::as_slice).collect();
            convert_paths(value, s, resource, &paths, 0)
        }
    }
}

fn convert_paths(
    value: &Value,
    s: &Structural,
    resource: bool,
    paths: &[&[String]],
    depth: usize,
) -> Cel {
    if depth > MAX_DEPTH {
        return Cel::Null;
    }
    if paths.iter().any(|p| p.is_empty()) {
        return to_cel(value, s, resource, depth);
    }
    let members = match value {
        Value::Object(members) if !paths.iter().any(|p| p[0] == ITEMS) => members,
        // Each item of a list, as far as the paths through it read.
        Value::Array(items) if paths.iter().all(|p| p[0] == ITEMS) => {
            let rests: Vec<&[String]> = paths.iter().map(|p| &p[1..]).collect();
            let empty = Structural::default();
            let item_schema = s.items.as_deref().unwrap_or(&empty);
            return Cel::List(Arc::new(
                items
                    .iter()
                    .map(|i| convert_paths(i, item_schema, false, &rests, depth + 1))
                    .collect(),
            ));
        }
        // A macro over a map walks its keys: the map is bound whole.
        _ => return to_cel(value, s, resource, depth),
    };
    let additional = s.additional_properties.as_ref().and_then(|a| a.schema());
    let empty = Structural::default();
    let mut map = std::collections::HashMap::new();
    let mut rests: Vec<&[String]> = Vec::new();
    for (key, member) in members {
        let Some((name, schema)) = bound_member(key, member, s, additional, &empty) else {
            continue;
        };
        rests.clear();
        rests.extend(
            paths
                .iter()
                .filter(|p| p[0] == *name || p[0] == *key)
                .map(|p| &p[1..]),
        );
        if rests.is_empty() {
            continue;
        }
        let converted = if resource && key == "metadata" {
            resource_metadata(member)
        } else {
            convert_paths(member, schema, false, &rests, depth + 1)
        };
        insert_member(&mut map, key, name, converted);
    }
    Cel::Map(Map { map: Arc::new(map) })
}

/// The message of a failed rule without one of its own.
fn failed(rule: &Rule) -> String {
    if rule.message.trim().is_empty() {
        format!("failed rule: {}", rule.rule.trim())
    } else {
        rule.message.trim().to_owned()
    }
}

/// A property name as CEL sees it, or `None` when it cannot be written there.
pub fn escape(name: &str) -> Option<std::borrow::Cow<'_, str>> {
    use std::borrow::Cow;
    if is_reserved(name) {
        return Some(Cow::Owned(format!("__{name}__")));
    }
    let plain = name
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !name.contains("__");
    if plain {
        return Some(Cow::Borrowed(name));
    }
    let mut chars = name.chars();
    let first = chars.next()?;
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/');
    if !(first.is_ascii_alphabetic() || matches!(first, '_' | '.' | '-' | '/'))
        || !name.chars().all(allowed)
    {
        return None;
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("__") {
            out.push_str("__underscores__");
            rest = after;
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            other => out.push(other),
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(Cow::Owned(out))
}

fn text(s: &str) -> Cel {
    Cel::String(Arc::new(s.to_owned()))
}

/// `value` as the CEL value the server binds for it under `s`: formats `byte`, `duration`,
/// `date` and `date-time` become bytes, durations and timestamps; an integral number of an
/// `integer` node an int; object members by their escaped names (a resource's own
/// `metadata` shows only `name` and `generateName`).
fn to_cel(value: &Value, s: &Structural, resource: bool, depth: usize) -> Cel {
    if depth > MAX_DEPTH {
        return Cel::Null;
    }
    match value {
        Value::Null => Cel::Null,
        Value::Bool(b) => Cel::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            // A `number` node is a double in CEL, whatever the JSON text looks like.
            (_, Some(f)) if s.type_ == "number" => Cel::Float(f),
            (Some(i), _) => Cel::Int(i),
            (None, Some(f)) if s.type_ == "integer" && f.fract() == 0.0 && f.abs() < 9.2e18 => {
                Cel::Int(f as i64)
            }
            (None, Some(f)) => Cel::Float(f),
            (None, None) => Cel::Null,
        },
        Value::String(t) => formatted(t, &s.validation.format).unwrap_or_else(|| text(t)),
        Value::Array(items) => {
            let empty = Structural::default();
            let item_schema = s.items.as_deref().unwrap_or(&empty);
            Cel::List(Arc::new(
                items
                    .iter()
                    .map(|i| to_cel(i, item_schema, false, depth + 1))
                    .collect(),
            ))
        }
        Value::Object(members) => {
            let additional = s.additional_properties.as_ref().and_then(|a| a.schema());
            let empty = Structural::default();
            let mut map = std::collections::HashMap::with_capacity(members.len());
            for (key, member) in members {
                if resource && key == "metadata" {
                    map.insert(
                        Key::String(Arc::new(key.clone())),
                        resource_metadata(member),
                    );
                    continue;
                }
                if let Some((name, schema)) = bound_member(key, member, s, additional, &empty) {
                    let converted = to_cel(member, schema, false, depth + 1);
                    insert_member(&mut map, key, name, converted);
                }
            }
            Cel::Map(Map { map: Arc::new(map) })
        }
    }
}

/// How rules see an object's member: its name (escaped, but for a map's keys, which are data)
/// and its schema; `None` for a member they do not see (a field set to null is unset, as
/// upstream binds it; a name CEL cannot spell is not bound).
fn bound_member<'a, 's>(
    key: &'a str,
    member: &Value,
    s: &'s Structural,
    additional: Option<&'s Structural>,
    empty: &'s Structural,
) -> Option<(std::borrow::Cow<'a, str>, &'s Structural)> {
    match (s.properties.get(key), additional) {
        (Some(_), _) | (None, None) if member.is_null() => None,
        (Some(p), _) => Some((escape(key)?, p)),
        (None, Some(a)) => Some((std::borrow::Cow::Borrowed(key), a)),
        (None, None) => Some((escape(key)?, empty)),
    }
}

/// Binds a member under the name rules use. A member named by a reserved word is found under
/// its plain name too: the server's maps unescape the name looked up, and a plain one has
/// nothing to unescape (`self.spec.namespace` and `self.spec.__namespace__` both read it).
fn insert_member(
    map: &mut std::collections::HashMap<Key, Cel>,
    key: &str,
    name: std::borrow::Cow<'_, str>,
    value: Cel,
) {
    if name != key && is_reserved(key) {
        map.insert(Key::String(Arc::new(key.to_owned())), value.clone());
    }
    map.insert(Key::String(Arc::new(name.into_owned())), value);
}

/// What rules see of a resource's own metadata: its name and generateName.
fn resource_metadata(metadata: &Value) -> Cel {
    let mut map = std::collections::HashMap::new();
    for key in ["name", "generateName"] {
        if let Some(v) = metadata.get(key).and_then(Value::as_str) {
            map.insert(Key::String(Arc::new(key.to_owned())), text(v));
        }
    }
    Cel::Map(Map { map: Arc::new(map) })
}

fn formatted(t: &str, format: &str) -> Option<Cel> {
    use base64::Engine as _;
    match format {
        "byte" => base64::engine::general_purpose::STANDARD
            .decode(t)
            .ok()
            .map(|b| Cel::Bytes(Arc::new(b))),
        "duration" => {
            formats::go_duration_nanos(t).map(|n| Cel::Duration(chrono::Duration::nanoseconds(n)))
        }
        "date-time" | "datetime" => chrono::DateTime::parse_from_rfc3339(t)
            .ok()
            .map(Cel::Timestamp),
        "date" => chrono::NaiveDate::parse_from_str(t, "%Y-%m-%d")
            .ok()
            .map(|d| {
                let midnight = d.and_hms_opt(0, 0, 0).unwrap_or_default();
                Cel::Timestamp(midnight.and_utc().fixed_offset())
            }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_as_the_server_escapes_them() {
        assert_eq!(escape("replicas").as_deref(), Some("replicas"));
        assert_eq!(escape("namespace").as_deref(), Some("__namespace__"));
        assert_eq!(
            escape("a-b.c/d").as_deref(),
            Some("a__dash__b__dot__c__slash__d")
        );
        assert_eq!(escape("a__b").as_deref(), Some("a__underscores__b"));
        assert_eq!(escape("1a"), None);
        assert_eq!(escape("a b"), None);
        assert_eq!(escape("while").as_deref(), Some("__while__"));
    }
}
