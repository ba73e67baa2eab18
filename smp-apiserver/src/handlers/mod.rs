//! The verbs: reading (`get`, `list`), writing (`create`, `update`, `delete`,
//! `deletecollection`) and patching, each as the API server answers it.

mod namespaces;
mod patch;
mod scale;
mod write;

/// How many times a write based on an object that changed meanwhile is tried again (patches
/// and unconditional updates apply to whatever is there then).
const RETRIES: usize = 64;

use std::time::Duration;

use http::{HeaderMap, StatusCode};
use serde_json::{Value, json};

use crate::custom::Served;
use crate::discovery::Resource;
use crate::request::RequestInfo;
use crate::selector::Selector;
use crate::server::State;
use crate::status::ApiError;
use crate::store::{ObjectKey, Stored};
use crate::validation::{self, FieldValidation};
use crate::watch::{Asked, Filter, Watch};

/// The request, with the resource it names.
pub(crate) struct Call<'a> {
    pub(crate) state: &'a State,
    /// What is served, as the request found it.
    pub(crate) served: &'a Served,
    pub(crate) info: RequestInfo,
    /// The resource (for a subresource request, the main resource).
    pub(crate) resource: &'a Resource,
    pub(crate) headers: &'a HeaderMap,
    /// The `Warning` headers of the answer.
    pub(crate) warnings: std::cell::RefCell<Vec<String>>,
}

impl Call<'_> {
    /// Where the named object is kept.
    pub(crate) fn key(&self, name: &str) -> ObjectKey {
        ObjectKey {
            resource: format!("{}/{}", self.resource.group, self.resource.resource),
            namespace: self.info.namespace.clone(),
            name: name.to_owned(),
        }
    }

    /// The media type of the request's body (`Content-Type` without its parameters,
    /// lowercase; "" without one).
    pub(crate) fn media_type(&self) -> String {
        self.headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| {
                v.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            })
            .unwrap_or_default()
    }

    /// The object the request names, as stored now.
    pub(crate) fn current(&self) -> Result<Stored, ApiError> {
        let name = &self.info.name;
        self.state
            .store
            .get(&self.key(name))
            .ok_or_else(|| self.not_found(name))
    }

    pub(crate) fn not_found(&self, name: &str) -> ApiError {
        ApiError::not_found(
            &self.resource.group,
            &self.resource.qualified(),
            &self.resource.resource,
            name,
        )
    }

    /// Drops from `object` the fields its type does not declare, or refuses them, as the
    /// request's `fieldValidation` says.
    pub(crate) fn validate_fields(&self, object: &mut Value) -> Result<(), ApiError> {
        let mode = FieldValidation::parse(self.query("fieldValidation"))?;
        let gvk = smp_ssa::schema::Gvk::of(&self.resource.api_version(), &self.resource.kind);
        let builtin = smp_ssa::builtin::schema();
        let found = match builtin.kind(&gvk) {
            Some(ty) => Some((builtin, ty)),
            None => self
                .served
                .schema
                .as_deref()
                .and_then(|schema| schema.kind(&gvk).map(|ty| (schema, ty))),
        };
        let Some((schema, ty)) = found else {
            return Ok(());
        };
        let unknown = validation::drop_unknown(schema, ty, object);
        match mode {
            _ if unknown.is_empty() => Ok(()),
            FieldValidation::Strict => Err(validation::strict_error(&unknown)),
            FieldValidation::Warn => {
                let mut warnings = self.warnings.borrow_mut();
                warnings.extend(unknown.iter().map(|f| validation::warning(f)));
                Ok(())
            }
            FieldValidation::Ignore => Ok(()),
        }
    }

    pub(crate) fn query(&self, key: &str) -> Option<&str> {
        self.info.query.get(key).map(String::as_str)
    }

    /// Whether the request is a dry run (`dryRun=All`): answered, not stored.
    pub(crate) fn dry_run(&self) -> Result<bool, ApiError> {
        match self.query("dryRun") {
            None | Some("") => Ok(false),
            Some("All") => Ok(true),
            Some(other) => Err(ApiError::bad_request(format!(
                "unsupported dry run value {other:?}: only \"All\""
            ))),
        }
    }
}

/// What a request is answered with: an object (or list, or status), or a watch's stream.
pub(crate) enum Answer {
    Object(StatusCode, Value),
    /// An object, with `Warning` headers.
    Warned(StatusCode, Value, Vec<String>),
    Watch(Box<Watch>),
    /// An aggregated discovery document (its own media type).
    Discovery(Value),
}

pub(crate) fn handle(
    state: &State,
    info: RequestInfo,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Answer, ApiError> {
    let served = state.served();
    let resource = served
        .resources
        .get(&info.group, &info.version, &info.resource)
        .ok_or_else(|| {
            ApiError::no_route(&format!(
                "{}/{}",
                crate::discovery::api_version(&info.group, &info.version),
                info.resource
            ))
        })?;
    let endpoint = if info.subresource.is_empty() {
        resource
    } else {
        served
            .resources
            .get(
                &info.group,
                &info.version,
                &format!("{}/{}", info.resource, info.subresource),
            )
            .ok_or_else(|| ApiError::no_route(&info.subresource))?
    };
    if !endpoint.allows(info.verb) {
        return Err(ApiError::method_not_allowed(info.verb, &endpoint.resource));
    }
    // A namespaced resource is reached through a namespace (listing and watching may span
    // them all), a cluster's without one.
    let in_namespace = !info.namespace.is_empty();
    let spans = matches!(info.verb, "list" | "watch") && !in_namespace;
    if resource.namespaced != in_namespace && !spans {
        return Err(ApiError::no_route(&info.resource));
    }
    let call = Call {
        state,
        served: &served,
        info,
        resource,
        headers,
        warnings: Default::default(),
    };
    let answer = match call.info.verb {
        _ if call.info.subresource == "scale" => scale::handle(&call, body),
        "get" => get(&call),
        "list" => list(&call),
        "watch" => return watch(&call).map(|w| Answer::Watch(Box::new(w))),
        "create" => write::create(&call, body),
        "update" => write::update(&call, body),
        "patch" => patch::patch(&call, body),
        "delete" => write::delete(&call, body),
        "deletecollection" => write::delete_collection(&call),
        other => Err(ApiError::method_not_allowed(other, &call.resource.resource)),
    };
    if answer.is_ok()
        && call.key("").resource == crate::custom::CRDS
        && !matches!(call.info.verb, "get" | "list")
        && !call.dry_run().unwrap_or(false)
    {
        state.crds_changed();
    }
    let warnings = call.warnings.take();
    answer.map(|(status, value)| Answer::Warned(status, value, warnings))
}

/// A watch from `resourceVersion` (none, or `0`: from the objects as they are now).
fn watch(call: &Call<'_>) -> Result<Watch, ApiError> {
    let filter = Filter {
        resource: call.key("").resource,
        namespace: (!call.info.namespace.is_empty()).then(|| call.info.namespace.clone()),
        labels: Selector::labels(call.query("labelSelector").unwrap_or(""))?,
        fields: Selector::fields(call.query("fieldSelector").unwrap_or(""))?,
    };
    let initial = call.query("sendInitialEvents") == Some("true");
    let from = match call.query("resourceVersion") {
        _ if initial => None,
        None | Some("") | Some("0") => None,
        Some(v) => Some(
            v.parse::<u64>()
                .map_err(|_| ApiError::bad_request(format!("invalid resource version {v:?}")))?,
        ),
    };
    let start = call
        .state
        .store
        .watch(&filter.resource, filter.namespace.as_deref(), from);
    let timeout = match call.query("timeoutSeconds") {
        None | Some("") => None,
        Some(t) => Some(Duration::from_secs(t.parse::<u64>().map_err(|_| {
            ApiError::bad_request(format!("invalid timeoutSeconds {t:?}"))
        })?)),
    };
    let asked = Asked {
        api_version: call.resource.api_version(),
        kind: call.resource.kind.clone(),
        initial_events: initial,
        bookmarks: (call.query("allowWatchBookmarks") == Some("true"))
            .then_some(call.state.options.bookmark_interval),
        timeout,
    };
    Ok(Watch::new(start, filter, asked))
}

fn get(call: &Call<'_>) -> Result<(StatusCode, Value), ApiError> {
    Ok((StatusCode::OK, (*call.current()?.object).clone()))
}

/// A list: the objects of the resource (in the namespace, if one is named) that the selectors
/// select, at most `limit` of them, with a `continue` token for the rest.
fn list(call: &Call<'_>) -> Result<(StatusCode, Value), ApiError> {
    let labels = Selector::labels(call.query("labelSelector").unwrap_or(""))?;
    let fields = Selector::fields(call.query("fieldSelector").unwrap_or(""))?;
    let limit = match call.query("limit") {
        None | Some("") | Some("0") => usize::MAX,
        Some(n) => n
            .parse::<usize>()
            .map_err(|_| ApiError::bad_request(format!("invalid limit {n:?}")))?,
    };
    let resource_key = call.key("").resource;
    let after = match call.query("continue") {
        None | Some("") => None,
        Some(token) => Some(ObjectKey {
            resource: resource_key.clone(),
            ..decode_continue(token)?
        }),
    };
    let namespace = (!call.info.namespace.is_empty()).then_some(call.info.namespace.as_str());
    let (stored, revision) = call
        .state
        .store
        .list(&resource_key, namespace, after.as_ref());
    let mut items = Vec::new();
    let mut last = None;
    let mut more = false;
    for (key, s) in stored {
        let object = &s.object;
        let selected = labels.matches_labels(
            object
                .pointer("/metadata/labels")
                .and_then(Value::as_object),
        ) && fields.matches_fields(&key.name, &key.namespace);
        if !selected {
            continue;
        }
        if items.len() == limit {
            more = true;
            break;
        }
        items.push((**object).clone());
        last = Some(key);
    }
    let mut metadata = json!({"resourceVersion": revision.to_string()});
    if let (true, Some(last)) = (more, last) {
        metadata["continue"] = json!(encode_continue(&last));
    }
    Ok((
        StatusCode::OK,
        json!({
            "kind": format!("{}List", call.resource.kind),
            "apiVersion": call.resource.api_version(),
            "metadata": metadata,
            "items": items,
        }),
    ))
}

/// A `continue` token: the last key listed, as hex (opaque to clients, as the server's are).
fn encode_continue(key: &ObjectKey) -> String {
    let text = format!("{}\n{}", key.namespace, key.name);
    text.bytes().map(|b| format!("{b:02x}")).collect()
}

fn decode_continue(token: &str) -> Result<ObjectKey, ApiError> {
    let bad = || ApiError::bad_request(format!("invalid continue token {token:?}"));
    let bytes: Option<Vec<u8>> = (0..token.len())
        .step_by(2)
        .map(|i| {
            token
                .get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect();
    let text = String::from_utf8(bytes.ok_or_else(bad)?).map_err(|_| bad())?;
    let (namespace, name) = text.split_once('\n').ok_or_else(bad)?;
    Ok(ObjectKey {
        resource: String::new(),
        namespace: namespace.to_owned(),
        name: name.to_owned(),
    })
}
