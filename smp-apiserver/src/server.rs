//! The server: the handling of one request over HTTP, and the `tower::Service` that
//! `kube::Client::new` takes. It stands on top: it starts the state, the bootstrap and the
//! controllers, and hands each request to the handlers.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{Request, Response, StatusCode, header};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full, Limited};
use serde_json::{Value, json};

use crate::bootstrap;
use crate::controllers;
use crate::discovery::aggregated;
use crate::handlers::{self, Answer};
use crate::object;
use crate::openapi;
use crate::request::{self, Target};
pub use crate::state::Options;
use crate::state::State;
use crate::status::ApiError;

/// The API server. Cloning it gives another handle on the same objects.
#[derive(Clone)]
pub struct ApiServer {
    state: Arc<State>,
}

impl Default for ApiServer {
    fn default() -> ApiServer {
        ApiServer::new(Options::default())
    }
}

impl ApiServer {
    /// A server with the built-in resources and the system namespaces.
    pub fn new(options: Options) -> ApiServer {
        let state = State::new(options, handlers::internal);
        // The controllers follow every write from the first.
        state.store.follow_changes();
        bootstrap::boot(&state);
        controllers::settle(&state);
        ApiServer {
            state: Arc::new(state),
        }
    }

    /// Creates an object (a CRD, a namespace, anything served), as a client's create would:
    /// what a test or `smp serve --crd` starts from. A namespaced object without a namespace
    /// goes to `default`.
    pub fn create(&self, object: &Value) -> Result<Value, ApiError> {
        let text = |k: &str| object.get(k).and_then(Value::as_str).unwrap_or("");
        let (api_version, kind) = (text("apiVersion"), text("kind"));
        let served = self.state.served();
        let resource = served.resources.of_kind(api_version, kind).ok_or_else(|| {
            ApiError::bad_request(format!("no resource serves {api_version}, Kind={kind}"))
        })?;
        let mut path = if resource.group.is_empty() {
            format!("/api/{}", resource.version)
        } else {
            format!("/apis/{}/{}", resource.group, resource.version)
        };
        if resource.namespaced {
            let namespace = object::meta(object, "namespace");
            let namespace = if namespace.is_empty() {
                "default"
            } else {
                namespace
            };
            path.push_str(&format!("/namespaces/{namespace}"));
        }
        path.push_str(&format!("/{}", resource.resource));
        let request = Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Bytes::from(serde_json::to_vec(object).unwrap_or_default()))
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let (parts, body) = request.into_parts();
        let target = request::parse(&parts.method, parts.uri.path(), parts.uri.query())?;
        let answer = self.route(target, &parts.headers, &body);
        controllers::settle(&self.state);
        answer?
            .into_value()
            .ok_or_else(|| ApiError::bad_request("a create is not a watch"))
    }

    /// Answers one request whose body has been read. A watch's body goes on as long as the
    /// client reads it.
    pub fn handle(&self, request: Request<Bytes>) -> Response<Body> {
        let (parts, body) = request.into_parts();
        let result = request::parse(&parts.method, parts.uri.path(), parts.uri.query())
            .and_then(|target| self.route(target, &parts.headers, &body));
        // The controllers' work on what the request wrote is done before it is answered.
        controllers::settle(&self.state);
        match result {
            Ok(Answer::Object(status, value)) => respond(status, &value),
            Ok(Answer::List(list)) => respond_bytes(StatusCode::OK, list.to_bytes()),
            Ok(Answer::Warned(status, value, warnings)) => {
                warned(respond(status, &value), warnings)
            }
            Ok(Answer::Text(status, text)) => {
                let mut response = respond_bytes(status, text);
                response.headers_mut().insert(
                    header::CONTENT_TYPE,
                    header::HeaderValue::from_static("text/plain"),
                );
                response
            }
            Ok(Answer::Stored(status, stored, warnings)) => {
                warned(respond_bytes(status, stored.json().to_vec()), warnings)
            }
            Ok(Answer::Discovery(document)) => {
                let mut response = respond(StatusCode::OK, &document);
                response.headers_mut().insert(
                    header::CONTENT_TYPE,
                    header::HeaderValue::from_static(aggregated::MEDIA_TYPE),
                );
                response
            }
            Ok(Answer::Watch(watch)) => {
                let mut response = Response::new((*watch).boxed_unsync());
                response.headers_mut().insert(
                    header::CONTENT_TYPE,
                    header::HeaderValue::from_static("application/json"),
                );
                response
            }
            Err(error) => respond_error(&error),
        }
    }

    fn route(
        &self,
        target: Target,
        headers: &http::HeaderMap,
        body: &[u8],
    ) -> Result<Answer, ApiError> {
        let served = self.state.served();
        let resources = &served.resources;
        let ok = |v: Value| Ok(Answer::Object(StatusCode::OK, v));
        match target {
            Target::Version => ok(json!({
                "major": "1", "minor": "34", "gitVersion": "v1.34.0-smp",
                "gitCommit": "", "gitTreeState": "clean", "buildDate": "",
                "goVersion": "", "compiler": "smp", "platform": "linux/amd64",
            })),
            Target::CoreVersions | Target::Groups if aggregated::asked_for(accept(headers)) => {
                let core = matches!(target, Target::CoreVersions);
                Ok(Answer::Discovery(resources.aggregated(core)))
            }
            Target::CoreVersions => ok(resources.core_versions()),
            // Swagger 2.0 in JSON; clients that take it only as protobuf (client-go's
            // discovery) are told so, and go on without it.
            Target::OpenApiV2 if !takes_json(accept(headers)) => {
                Err(ApiError::not_acceptable(&["application/json"]))
            }
            Target::OpenApiV2 => ok(openapi::v2(&served)),
            Target::OpenApiIndex => ok(openapi::v3_index(&served)),
            Target::OpenApi { group, version } => openapi::v3(&served, &group, &version)
                .map(|doc| Answer::Object(StatusCode::OK, doc))
                .ok_or_else(|| ApiError::no_route(&format!("/openapi/v3/{group}/{version}"))),
            Target::Groups => ok(resources.groups()),
            Target::Group(group) => {
                let groups = resources.groups();
                groups["groups"]
                    .as_array()
                    .and_then(|g| g.iter().find(|g| g["name"] == group.as_str()))
                    .map(|g| {
                        let mut g = g.clone();
                        g["kind"] = json!("APIGroup");
                        g["apiVersion"] = json!("v1");
                        Answer::Object(StatusCode::OK, g)
                    })
                    .ok_or_else(|| ApiError::no_route(&format!("/apis/{group}")))
            }
            Target::ResourceList { group, version } => resources
                .resource_list(&group, &version)
                .map(|list| Answer::Object(StatusCode::OK, list))
                .ok_or_else(|| ApiError::no_route(&format!("/apis/{group}/{version}"))),
            Target::Resource(info) => handlers::handle(&self.state, info, headers, body),
        }
    }
}

/// How long a read waits for a resourceVersion the server has not reached (the watch cache's
/// `blockTimeout`).
const RESOURCE_VERSION_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// The resourceVersion a GET (of an object or a list, not a watch) asks for, if any.
fn awaited_revision(parts: &http::request::Parts) -> Option<u64> {
    if parts.method != http::Method::GET {
        return None;
    }
    let query = parts.uri.query()?;
    let mut asked = None;
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some(("watch", v)) if v != "false" && v != "0" => return None,
            Some(("continue", v)) if !v.is_empty() => return None,
            Some(("resourceVersion", v)) => asked = v.parse::<u64>().ok(),
            _ => {}
        }
    }
    asked
}

/// The request's `Accept` header ("" without one).
fn accept(headers: &http::HeaderMap) -> &str {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// Whether an `Accept` header lets the answer be JSON (no header: anything goes).
fn takes_json(accept: &str) -> bool {
    accept.trim().is_empty()
        || accept.split(',').any(|t| {
            matches!(
                t.split(';').next().unwrap_or("").trim(),
                "application/json" | "application/*" | "*/*"
            )
        })
}

/// `response` with `Warning` headers.
fn warned(mut response: Response<Body>, warnings: Vec<String>) -> Response<Body> {
    for warning in warnings {
        if let Ok(v) = header::HeaderValue::from_str(&warning) {
            response.headers_mut().append(header::WARNING, v);
        }
    }
    response
}

/// A response's body: an object, or a watch's stream of events.
pub type Body = UnsyncBoxBody<Bytes, Infallible>;

fn respond_error(error: &ApiError) -> Response<Body> {
    let mut response = respond(
        StatusCode::from_u16(error.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        &error.to_status(),
    );
    let retry = error
        .details
        .as_ref()
        .and_then(|d| d.get("retryAfterSeconds"))
        .and_then(Value::as_u64)
        .filter(|s| *s > 0);
    if let Some(seconds) = retry {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from(seconds));
    }
    response
}

fn respond(status: StatusCode, value: &Value) -> Response<Body> {
    respond_bytes(status, crate::serializer::to_vec(value))
}

fn respond_bytes(status: StatusCode, body: Vec<u8>) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed_unsync());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}

/// The server as a `tower` service over HTTP requests of any body: what
/// `kube::Client::new(server, "default")` takes, with no socket in between.
impl<B> tower_service::Service<Request<B>> for ApiServer
where
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let server = self.clone();
        let limit = self.state.options.max_body;
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            let body = match Limited::new(body, limit).collect().await {
                Ok(collected) => collected.to_bytes(),
                Err(e) => {
                    let error = if e.is::<http_body_util::LengthLimitError>() {
                        ApiError::too_large(limit)
                    } else {
                        ApiError::bad_request(format!("reading the request body: {e}"))
                    };
                    return Ok(respond_error(&error));
                }
            };
            // A read at a resourceVersion the server has not reached waits for it a while,
            // as the watch cache does, before it is refused (504).
            if let Some(asked) = awaited_revision(&parts)
                && asked > server.state.store.revision()
            {
                server
                    .state
                    .store
                    .wait_for(asked, RESOURCE_VERSION_WAIT)
                    .await;
            }
            Ok(server.handle(Request::from_parts(parts, body)))
        })
    }
}
