//! `x-kubernetes-validations` rules as a CRD writes them, each compiled once when the schema
//! is read (by the `cel` crate, through `kube-cel`, which supplies Kubernetes' CEL libraries).

use std::sync::Arc;

use kube_cel::cel::Program;
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
    /// The compiled message expression, if any.
    pub(crate) message_program: Option<Result<Arc<Program>, String>>,
    /// Whether the rule reads `oldSelf` (a transition rule).
    pub(crate) uses_old_self: bool,
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

fn compile(source: &str) -> Result<Arc<Program>, String> {
    Program::compile(source)
        .map(Arc::new)
        .map_err(|e| e.to_string())
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
        let uses_old_self = program
            .as_ref()
            .is_ok_and(|p| p.references().has_variable("oldSelf"));
        Some(Rule {
            message: text("message"),
            reason: text("reason"),
            field_path: text("fieldPath"),
            optional_old_self: object
                .get("optionalOldSelf")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            message_program: (!message_expression.trim().is_empty())
                .then(|| compile(&message_expression)),
            message_expression,
            program,
            uses_old_self,
            rule,
        })
    }
}
