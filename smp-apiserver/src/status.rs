//! Errors as the API server answers them: a `Status` object with a reason and an HTTP code,
//! in the server's words, so that clients' error handling runs as against a cluster.

use serde_json::{Value, json};

/// One field's error in a 422 answer, as apimachinery's `field.Error` words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The field's path (`metadata.finalizers`, `propagationPolicy`).
    pub field: String,
    /// The cause's reason (`FieldValueForbidden`, ...).
    pub reason: &'static str,
    /// What is wrong, without the field (`Forbidden: ...`).
    pub body: String,
}

impl FieldError {
    fn new(field: &str, reason: &'static str, body: String) -> FieldError {
        FieldError {
            field: field.to_owned(),
            reason,
            body,
        }
    }

    /// `Forbidden: <detail>`.
    pub fn forbidden(field: &str, detail: &str) -> FieldError {
        FieldError::new(field, "FieldValueForbidden", format!("Forbidden: {detail}"))
    }

    /// `Required value: <detail>`.
    pub fn required(field: &str, detail: &str) -> FieldError {
        FieldError::new(
            field,
            "FieldValueRequired",
            format!("Required value: {detail}"),
        )
    }

    /// `Invalid value: <value>: <detail>`, the value as JSON.
    pub fn invalid(field: &str, value: &Value, detail: &str) -> FieldError {
        FieldError::new(
            field,
            "FieldValueInvalid",
            format!("Invalid value: {value}: {detail}"),
        )
    }

    /// `Unsupported value: <value>: supported values: "a", "b"`, the value as JSON.
    pub fn not_supported(field: &str, value: &Value, supported: &[&str]) -> FieldError {
        let supported: Vec<String> = supported.iter().map(|s| format!("{s:?}")).collect();
        FieldError::new(
            field,
            "FieldValueNotSupported",
            format!(
                "Unsupported value: {value}: supported values: {}",
                supported.join(", ")
            ),
        )
    }

    /// `Too long: may not be more than <max> bytes`.
    pub fn too_long(field: &str, max: usize) -> FieldError {
        FieldError::new(
            field,
            "FieldValueTooLong",
            format!("Too long: may not be more than {max} bytes"),
        )
    }
}

/// A failed request: what the server answers.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{reason} ({code}): {message}")]
pub struct ApiError {
    /// The HTTP status code.
    pub code: u16,
    /// The machine-readable reason (`NotFound`, `AlreadyExists`, `Conflict`, ...).
    pub reason: &'static str,
    /// The message, as the server writes it.
    pub message: String,
    /// `details`: the object concerned and the causes, when the server gives them.
    pub details: Option<Value>,
    /// `metadata.continue`: the token to go on with after an expired `continue` token.
    pub list_continue: Option<String>,
}

impl ApiError {
    fn new(code: u16, reason: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            reason,
            message: message.into(),
            details: None,
            list_continue: None,
        }
    }

    pub(crate) fn about(mut self, group: &str, kind: &str, name: &str) -> ApiError {
        let mut details = json!({"name": name, "kind": kind});
        if !group.is_empty() {
            details["group"] = json!(group);
        }
        self.details = Some(details);
        self
    }

    /// 404: the object is not there. `resource` is the qualified name (`deployments.apps`).
    pub fn not_found(group: &str, resource: &str, plural: &str, name: &str) -> ApiError {
        ApiError::new(404, "NotFound", format!("{resource} \"{name}\" not found"))
            .about(group, plural, name)
    }

    /// 404 for a path that names nothing the server serves.
    pub fn no_route(path: &str) -> ApiError {
        ApiError::new(
            404,
            "NotFound",
            format!("the server could not find the requested resource ({path})"),
        )
    }

    /// 409: an object of that name exists.
    pub fn already_exists(group: &str, resource: &str, plural: &str, name: &str) -> ApiError {
        ApiError::new(
            409,
            "AlreadyExists",
            format!("{resource} \"{name}\" already exists"),
        )
        .about(group, plural, name)
    }

    /// 403: a new object in a namespace that is being deleted.
    pub fn terminating(
        group: &str,
        resource: &str,
        plural: &str,
        name: &str,
        namespace: &str,
    ) -> ApiError {
        let mut error = ApiError::new(
            403,
            "Forbidden",
            format!(
                "{resource} \"{name}\" is forbidden: unable to create new content in namespace \
                 {namespace} because it is being terminated"
            ),
        )
        .about(group, plural, name);
        if let Some(details) = error.details.as_mut() {
            details["causes"] = json!([{
                "reason": "NamespaceTerminating",
                "message": format!("namespace {namespace} is being terminated"),
                "field": "metadata.namespace",
            }]);
        }
        error
    }

    /// 409: the write was based on an older version of the object.
    pub fn conflict(group: &str, resource: &str, plural: &str, name: &str) -> ApiError {
        ApiError::conflict_with(
            resource,
            name,
            "the object has been modified; please apply your changes to the latest version and \
             try again"
                .into(),
        )
        .about(group, plural, name)
    }

    /// 409: the object is not as the request requires (a delete's preconditions).
    pub fn conflict_with(resource: &str, name: &str, reason: String) -> ApiError {
        ApiError::new(
            409,
            "Conflict",
            format!("Operation cannot be fulfilled on {resource} \"{name}\": {reason}"),
        )
    }

    /// 409: a server-side apply would change other managers' fields.
    pub fn apply_conflict(conflict: &smp_ssa::managedfields::ApplyConflict) -> ApiError {
        let causes: Vec<Value> = conflict
            .conflicts
            .iter()
            .map(|c| {
                json!({
                    "reason": "FieldManagerConflict",
                    "message": format!("conflict with {}", smp_ssa::managedfields::print_manager(&c.manager)),
                    "field": c.path.to_string(),
                })
            })
            .collect();
        let mut error = ApiError::new(409, "Conflict", conflict.to_string());
        error.details = Some(json!({"causes": causes}));
        error
    }

    /// 422: the object is not valid.
    pub fn invalid(group: &str, kind: &str, name: &str, message: impl Into<String>) -> ApiError {
        let message = message.into();
        ApiError::new(
            422,
            "Invalid",
            format!("{kind}{} \"{name}\" is invalid: {message}", dotted(group)),
        )
        .about(group, kind, name)
    }

    /// 422 for errors of named fields, as `NewInvalid` words it: `<Kind>[.<group>] "<name>" is
    /// invalid: <field>: <what>` (several as `[..., ...]`, repeated words once), each a cause.
    pub fn invalid_fields(group: &str, kind: &str, name: &str, errors: &[FieldError]) -> ApiError {
        let mut seen = std::collections::BTreeSet::new();
        let mut lines: Vec<String> = Vec::new();
        for e in errors {
            let line = format!("{}: {}", e.field, e.body);
            if seen.insert(line.clone()) {
                lines.push(line);
            }
        }
        let all = match lines.as_slice() {
            [one] => one.clone(),
            many => format!("[{}]", many.join(", ")),
        };
        let mut error = ApiError::new(
            422,
            "Invalid",
            format!("{kind}{} {name:?} is invalid: {all}", dotted(group)),
        );
        let mut details = json!({"kind": kind});
        if !name.is_empty() {
            details["name"] = json!(name);
        }
        if !group.is_empty() {
            details["group"] = json!(group);
        }
        details["causes"] = errors
            .iter()
            .map(|e| json!({"reason": e.reason, "message": e.body, "field": e.field}))
            .collect();
        error.details = Some(details);
        error
    }

    /// 422 for a request's options (`ListOptions`, `PatchOptions`, `DeleteOptions`, ...).
    pub fn invalid_options(kind: &str, errors: &[FieldError]) -> ApiError {
        ApiError::invalid_fields("meta.k8s.io", kind, "", errors)
    }

    /// 504 for a resourceVersion the server has not reached (after the server's wait).
    pub fn too_large_resource_version(asked: u64, current: u64) -> ApiError {
        let mut error = ApiError::new(
            504,
            "Timeout",
            format!("Timeout: Too large resource version: {asked}, current: {current}"),
        );
        error.details = Some(json!({
            "causes": [{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}],
            "retryAfterSeconds": 1,
        }));
        error
    }

    /// 500 with no reason: an error the server does not turn into a status of its own.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(500, "", message)
    }

    /// A ValidatingAdmissionPolicy's refusal: the status its validation's reason names
    /// (`Invalid`, 422, by default) and the message `<resource> "<name>" is forbidden: <why>`
    /// (the server adds the object and the message as a cause to its details).
    pub(crate) fn policy_denied(
        code: u16,
        reason: &'static str,
        qualified_resource: &str,
        name: &str,
        why: &str,
    ) -> ApiError {
        ApiError::new(
            code,
            reason,
            format!("{qualified_resource} \"{name}\" is forbidden: {why}"),
        )
    }

    /// The same error with a cause that has only a message added to its details.
    pub(crate) fn with_cause(mut self, message: &str) -> ApiError {
        let details = self.details.get_or_insert_with(|| json!({}));
        match details.get_mut("causes").and_then(Value::as_array_mut) {
            Some(causes) => causes.push(json!({"message": message})),
            None => details["causes"] = json!([{"message": message}]),
        }
        self
    }

    /// 403: a namespace the server keeps.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(403, "Forbidden", message)
    }

    /// 422 with no words of its own: the answer to a JSON patch whose operations do not apply
    /// (the patch handler reports the library's error through `NewGenericServerResponse`,
    /// which keeps only the code, and an empty `details`).
    pub fn patch_not_applied() -> ApiError {
        let mut error = ApiError::new(
            422,
            "Invalid",
            "the server rejected our request due to an error in our request",
        );
        error.details = Some(json!({}));
        error
    }

    /// 500: what the API server answers when a request makes it panic (its panic recovery
    /// filter's words).
    pub fn panicked() -> ApiError {
        ApiError::new(
            500,
            "InternalError",
            "This request caused apiserver to panic. Look in the logs for details.",
        )
    }

    /// 413 with the server's words for a request too large in some other way than its size.
    pub fn entity_too_large(message: &str) -> ApiError {
        ApiError::new(
            413,
            "RequestEntityTooLarge",
            format!("Request entity too large: {message}"),
        )
    }

    /// 422 for a patched document the server cannot decode into the object (or, with
    /// `fieldValidation=Strict`, one whose patch had members the server does not know): the
    /// error of the field `patch`, whose value is the patched document.
    pub fn invalid_patch(patched: &Value, message: &str) -> ApiError {
        let document = serde_json::to_string(patched).unwrap_or_default();
        let mut error = ApiError::new(
            422,
            "Invalid",
            format!(" \"\" is invalid: patch: Invalid value: {document:?}: {message}"),
        );
        error.details = Some(json!({"causes": [{
            "reason": "FieldValueInvalid",
            "message": format!("Invalid value: {document:?}: {message}"),
            "field": "patch",
        }]}));
        error
    }

    /// 400: the request cannot be read.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, "BadRequest", message)
    }

    /// 405: the resource does not allow the verb.
    pub fn method_not_allowed(verb: &str, resource: &str) -> ApiError {
        ApiError::new(
            405,
            "MethodNotAllowed",
            format!("{verb} is not supported on resources of kind \"{resource}\""),
        )
    }

    /// 415: a patch in a form the resource does not take.
    pub fn unsupported_media_type(accepted: &[&str]) -> ApiError {
        ApiError::new(
            415,
            "UnsupportedMediaType",
            format!(
                "the body of the request was in an unknown format - accepted media types \
                 include: {}",
                accepted.join(", ")
            ),
        )
    }

    /// 406: no answer in a media type the client takes.
    pub fn not_acceptable(accepted: &[&str]) -> ApiError {
        ApiError::new(
            406,
            "NotAcceptable",
            format!(
                "only the following media types are accepted: {}",
                accepted.join(", ")
            ),
        )
    }

    /// 429: the request must wait (`details`: its causes, and how long to wait).
    pub fn too_many_requests(message: impl Into<String>, details: Value) -> ApiError {
        let mut error = ApiError::new(429, "TooManyRequests", message);
        error.details = Some(details);
        error
    }

    /// 403 for an object the request may not act on now, as `NewForbidden` words it:
    /// `<resource> "<name>" is forbidden: <why>` (`resource` qualified: `kind.group`).
    pub fn forbidden_resource(resource: &str, name: &str, why: &str) -> ApiError {
        let (kind, group) = resource.split_once('.').unwrap_or((resource, ""));
        ApiError::new(
            403,
            "Forbidden",
            format!("{resource} {name:?} is forbidden: {why}"),
        )
        .about(group, kind, name)
    }

    /// 406: the answer cannot take the form asked for.
    pub fn not_acceptable_because(message: impl Into<String>) -> ApiError {
        ApiError::new(406, "NotAcceptable", message.into())
    }

    /// 413: the body is larger than the server takes.
    pub fn too_large(limit: usize) -> ApiError {
        ApiError::new(
            413,
            "RequestEntityTooLarge",
            format!("the request body is larger than the server takes ({limit} bytes)"),
        )
    }

    /// 410: the version asked for is older than the server keeps.
    pub fn gone(message: impl Into<String>) -> ApiError {
        ApiError::new(410, "Expired", message)
    }

    /// The `Status` object.
    pub fn to_status(&self) -> Value {
        let mut status = json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "code": self.code,
        });
        if !self.reason.is_empty() {
            status["reason"] = json!(self.reason);
        }
        if let Some(details) = &self.details {
            status["details"] = details.clone();
        }
        if let Some(token) = &self.list_continue {
            status["metadata"]["continue"] = json!(token);
        }
        status
    }
}

/// `.group`, or nothing for the core group.
fn dotted(group: &str) -> String {
    if group.is_empty() {
        String::new()
    } else {
        format!(".{group}")
    }
}

/// The `Status` of a successful delete.
pub fn success(group: &str, plural: &str, name: &str, uid: &str) -> Value {
    let mut details = json!({"name": name, "kind": plural, "uid": uid});
    if !group.is_empty() {
        details["group"] = json!(group);
    }
    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
           "details": details})
}
