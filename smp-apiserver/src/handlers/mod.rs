//! The verbs: reading (`get`, `list`), writing (`create`, `update`, `delete`,
//! `deletecollection`) and patching, each as the API server answers it.

mod answer;
mod authentication;
mod authorization;
mod body;
mod call;
mod componentstatus;
mod delete;
pub(crate) mod delete_options;
mod list;
mod namespaces;
mod options;
mod patch;
mod pods;
mod response;
mod scale;
pub(crate) mod write;

pub(crate) use answer::Answer;
use call::{Call, field_selector, fields_of};

use std::time::Duration;

use http::{HeaderMap, StatusCode};
use serde_json::Value;

use crate::conversion::Shape;
use crate::request::RequestInfo;
use crate::selector::Selector;
use crate::state::{Internal, State};
use crate::status::ApiError;
use crate::store::Stored;
use crate::validation;
use crate::watch::{Asked, Filter, Watch};

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
        endpoint,
        headers,
        warnings: Default::default(),
        fields: fields_of(&served, resource),
        shape: Shape::of(&resource.group, resource.plural()),
    };
    let accept = headers
        .get(http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let stream =
        pods::Stream::of(&call.info.subresource).filter(|_| call.resource.group.is_empty());
    // A stream has no table; its own form is text.
    let form = crate::negotiation::negotiate(accept, stream.is_none())?;
    if let Some(stream) = stream {
        return pods::stream(&call, stream);
    }
    if call.resource.group.is_empty() && call.resource.plural() == "endpoints" {
        call.warnings.borrow_mut().push(validation::warning_header(
            "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice",
        ));
    }
    let answer = match call.info.verb {
        _ if call.info.subresource == "scale" => scale::handle(&call, body),
        "create" => match (
            call.resource.group.as_str(),
            call.resource.plural(),
            call.info.subresource.as_str(),
        ) {
            ("", "pods", "binding") | ("", "bindings", "") => pods::bind(&call, body),
            ("", "pods", "eviction") => pods::evict(&call, body),
            ("", "serviceaccounts", "token") => authentication::token_request(&call, body),
            ("authentication.k8s.io", "tokenreviews", _) => {
                authentication::token_review(&call, body)
            }
            ("authentication.k8s.io", "selfsubjectreviews", _) => {
                authentication::self_subject_review(&call, body)
            }
            ("authorization.k8s.io", _, _) => authorization::review(&call, body),
            _ => write::create(&call, body),
        },
        _ if call.resource.group.is_empty() && call.resource.plural() == "componentstatuses" => {
            componentstatus::handle(&call)
        }
        "get" => {
            let stored = get(&call)?;
            let warnings = call.warnings.take();
            return response::transform(
                &call,
                form,
                Answer::Stored(StatusCode::OK, stored, warnings),
            );
        }
        "list" => {
            return list::list(&call)
                .and_then(|list| response::transform(&call, form, Answer::List(list)));
        }
        "watch" => return watch(&call, form).map(|w| Answer::Watch(Box::new(w))),
        "update" => write::update(&call, body),
        "patch" => patch::patch(&call, body),
        "delete" => delete::delete(&call, body),
        "deletecollection" => delete::delete_collection(&call, body),
        other => Err(ApiError::method_not_allowed(other, &call.resource.resource)),
    };
    if answer.is_ok()
        && call.key("").resource == crate::custom::CRDS
        && !matches!(call.info.verb, "get" | "list")
        && !call.dry_run()
    {
        state.crds_changed();
    }
    let warnings = call.warnings.take();
    let answer = answer.map(|(status, value)| Answer::Warned(status, value, warnings))?;
    response::transform(&call, form, answer)
}

/// A watch from `resourceVersion` (none, or `0`: from the objects as they are now).
fn watch(call: &Call<'_>, form: crate::negotiation::Form) -> Result<Watch, ApiError> {
    let form = response::event_form(call, form)?;
    let filter = Filter {
        resource: call.key("").resource,
        namespace: (!call.info.namespace.is_empty()).then(|| call.info.namespace.clone()),
        labels: Selector::labels(call.query("labelSelector").unwrap_or(""))?,
        fields: field_selector(call)?,
        values: call.fields.clone(),
        shape: call.shape,
        defaults: call.read_defaults(),
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
        form,
    };
    Ok(Watch::new(start, filter, asked))
}

/// A GET: the object as it is now. A `resourceVersion` asks for it not older than that (the
/// watch cache answers with what it holds), which the server waits a while to reach.
fn get(call: &Call<'_>) -> Result<Stored, ApiError> {
    if let Some(version) = call.query("resourceVersion").filter(|v| !v.is_empty()) {
        // The watch cache's own error, which the API server answers as a plain 500.
        let asked = version.parse::<u64>().map_err(|_| {
            ApiError::internal(format!(
                "resourceVersion: Invalid value: {version:?}: strconv.ParseUint: parsing \
                 {version:?}: invalid syntax"
            ))
        })?;
        let current = call.state.store.revision();
        if asked > current {
            return Err(ApiError::too_large_resource_version(asked, current));
        }
    }
    call.current()
}

/// A request of the server's own components (its controllers, its start), made as they make
/// it (the user agent names the field manager) and answered as any client's: the object
/// answered.
pub(crate) fn internal(state: &State, request: Internal<'_>) -> Result<Value, ApiError> {
    let api_version = request.api_version;
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let info = RequestInfo {
        verb: request.verb,
        group: group.to_owned(),
        version: version.to_owned(),
        resource: request.plural.to_owned(),
        subresource: String::new(),
        namespace: request.namespace.to_owned(),
        name: request.name.to_owned(),
        query: request
            .query
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    };
    let mut headers = HeaderMap::new();
    headers.insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static(request.content_type),
    );
    headers.insert(
        http::header::USER_AGENT,
        http::HeaderValue::from_static(request.user_agent),
    );
    handle(state, info, &headers, request.body)?
        .into_value()
        .ok_or_else(|| ApiError::bad_request("a controller's request is not a watch"))
}
