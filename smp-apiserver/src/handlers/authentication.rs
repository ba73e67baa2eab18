//! The authentication group's requests, none of which is stored: a service account's
//! `token` subresource (`TokenRequest`, `pkg/registry/core/serviceaccount/storage/token.go`),
//! `TokenReview` (`pkg/registry/authentication/tokenreview`) and `SelfSubjectReview`.

use http::StatusCode;
use serde_json::{Map, Value, json};

use super::call::Call;

use super::body;
use crate::object::{strings_at, text_at as text};
use crate::serviceaccount::{self, Binding, Claims};
use crate::status::{ApiError, FieldError};

/// The shortest and longest lives a token may be asked for.
const SHORTEST: i64 = 600;
const LONGEST: i64 = 1 << 32;
/// A life of exactly this, asked for a pod's token for the API, is a kubelet's projected
/// token: it is issued for a year and its holder warned after the hour asked for.
const WARN_ONLY: i64 = 3607;
const EXTENDED: i64 = 365 * 24 * 3600;

/// `serviceaccounts/{name}/token`: a signed token for the service account, bound to a pod,
/// node or secret when the request names one.
pub(super) fn token_request(call: &Call<'_>, body: &[u8]) -> Result<(StatusCode, Value), ApiError> {
    let mut request = body::read_object(call, body)?;
    let (name, namespace) = (call.info.name.as_str(), call.info.namespace.as_str());
    let invalid = |field: &str, given: &str, detail: &str| {
        ApiError::invalid_fields(
            "authentication.k8s.io",
            "TokenRequest",
            name,
            &[FieldError::invalid(field, &json!(given), detail)],
        )
    };
    let given_name = text(&request, "/metadata/name");
    if !given_name.is_empty() && given_name != name {
        return Err(invalid(
            "metadata.name",
            given_name,
            "must match the service account name if specified",
        ));
    }
    let given_namespace = text(&request, "/metadata/namespace");
    if !given_namespace.is_empty() && given_namespace != namespace {
        return Err(invalid(
            "metadata.namespace",
            given_namespace,
            "must match the service account namespace if specified",
        ));
    }
    let account = call.current()?;
    let account_uid = text(&account.object, "/metadata/uid").to_owned();
    let mut audiences = strings_at(&request, "/spec/audiences");
    if audiences.is_empty() {
        audiences = serviceaccount::api_audiences();
    }
    let expiration = request
        .pointer("/spec/expirationSeconds")
        .and_then(Value::as_i64)
        .unwrap_or(3600);
    let now = call.state.options.clock.seconds();
    if !request.get("metadata").is_some_and(Value::is_object) {
        request["metadata"] = json!({});
    }
    request["metadata"]["name"] = json!(name);
    request["metadata"]["namespace"] = json!(namespace);
    request["metadata"]["creationTimestamp"] = json!(call.state.options.clock.now());
    if let Some(status) = request.as_object_mut() {
        status.remove("status");
    }
    let mut errors = Vec::new();
    if expiration < SHORTEST {
        errors.push(FieldError::invalid(
            "spec.expirationSeconds",
            &json!(expiration),
            "may not specify a duration less than 10 minutes",
        ));
    }
    if expiration > LONGEST {
        errors.push(FieldError::invalid(
            "spec.expirationSeconds",
            &json!(expiration),
            "may not specify a duration larger than 2^32 seconds",
        ));
    }
    if !errors.is_empty() {
        return Err(ApiError::invalid_fields(
            "authentication.k8s.io",
            "TokenRequest",
            "",
            &errors,
        ));
    }
    let bound = bound_objects(call, request.pointer("/spec/boundObjectRef"), name)?;
    let (lifetime, warn_after) = if bound.pod.is_some()
        && expiration == WARN_ONLY
        && audiences == serviceaccount::api_audiences()
    {
        (EXTENDED, Some(now + expiration))
    } else {
        (expiration, None)
    };
    let claims = Claims {
        namespace: namespace.to_owned(),
        service_account: Binding {
            name: name.to_owned(),
            uid: account_uid,
        },
        audiences: audiences.clone(),
        issued: now,
        expires: now + lifetime,
        id: crate::object::new_uid(),
        pod: bound.pod,
        node: bound.node,
        secret: bound.secret,
        warn_after,
    };
    let token = call
        .state
        .identity
        .tokens
        .issue(&claims)
        .ok_or_else(|| ApiError::internal("failed to generate token: signing failed"))?;
    let spec = request
        .get("spec")
        .cloned()
        .filter(Value::is_object)
        .unwrap_or(json!({}));
    let mut spec = spec;
    spec["audiences"] = json!(audiences);
    spec["expirationSeconds"] = json!(expiration);
    if spec.get("boundObjectRef").is_none() {
        spec["boundObjectRef"] = Value::Null;
    }
    request["spec"] = spec;
    request["status"] = json!({
        "token": token,
        "expirationTimestamp": smp_ssa::managedfields::write_time(now + expiration),
    });
    Ok((StatusCode::CREATED, request))
}

/// The objects a token is bound to.
#[derive(Default)]
struct Bound {
    pod: Option<Binding>,
    node: Option<Binding>,
    secret: Option<Binding>,
}

/// The objects `reference` binds a token to: a pod running as the service account (with its
/// node), a node, or a secret; each must exist, with the uid given if one is.
fn bound_objects(
    call: &Call<'_>,
    reference: Option<&Value>,
    account: &str,
) -> Result<Bound, ApiError> {
    let Some(reference) = reference.filter(|r| r.is_object()) else {
        return Ok(Bound::default());
    };
    let (api_version, kind, name) = (
        text(reference, "/apiVersion"),
        text(reference, "/kind"),
        text(reference, "/name"),
    );
    let (group, _) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let find = |resource: &str, plural: &str, namespaced: bool| -> Result<Value, ApiError> {
        let key = crate::store::ObjectKey {
            resource: resource.to_owned(),
            namespace: if namespaced {
                call.info.namespace.clone()
            } else {
                String::new()
            },
            name: name.to_owned(),
        };
        call.state
            .store
            .get(&key)
            .map(|s| (*s.object).clone())
            .ok_or_else(|| ApiError::not_found("", plural, plural, name))
    };
    let binding = |object: &Value| Binding {
        name: name.to_owned(),
        uid: text(object, "/metadata/uid").to_owned(),
    };
    let mut bound = Bound::default();
    let object = match (group, kind) {
        ("", "Pod") => {
            let pod = find("/pods", "pods", true)?;
            if text(&pod, "/spec/serviceAccountName") != account {
                return Err(ApiError::bad_request(format!(
                    "cannot bind token for serviceaccount {account:?} to pod running with different serviceaccount name."
                )));
            }
            let node = text(&pod, "/spec/nodeName");
            if !node.is_empty() {
                let key = crate::store::ObjectKey {
                    resource: "/nodes".into(),
                    namespace: String::new(),
                    name: node.to_owned(),
                };
                // The node is named when it is there; a token does not need it.
                if let Some(stored) = call.state.store.get(&key) {
                    bound.node = Some(Binding {
                        name: node.to_owned(),
                        uid: text(&stored.object, "/metadata/uid").to_owned(),
                    });
                }
            }
            bound.pod = Some(binding(&pod));
            pod
        }
        ("", "Node") => {
            let node = find("/nodes", "nodes", false)?;
            bound.node = Some(binding(&node));
            node
        }
        ("", "Secret") => {
            let secret = find("/secrets", "secrets", true)?;
            bound.secret = Some(binding(&secret));
            secret
        }
        _ => {
            let gvk = if group.is_empty() {
                format!("/{}, Kind={kind}", api_version)
            } else {
                format!("{api_version}, Kind={kind}")
            };
            return Err(ApiError::bad_request(format!(
                "cannot bind token to object of type {gvk}"
            )));
        }
    };
    let given_uid = text(reference, "/uid");
    let uid = text(&object, "/metadata/uid");
    if !given_uid.is_empty() && given_uid != uid {
        return Err(ApiError::conflict_with(
            kind,
            name,
            format!(
                "the UID in the bound object reference ({given_uid}) does not match the UID in \
                 record. The object might have been deleted and then recreated"
            ),
        ));
    }
    Ok(bound)
}

/// `TokenReview`: whether the token authenticates, for which audiences, and as whom.
pub(super) fn token_review(call: &Call<'_>, body: &[u8]) -> Result<(StatusCode, Value), ApiError> {
    let mut review = body::read_object(call, body)?;
    let token = text(&review, "/spec/token").to_owned();
    if token.is_empty() {
        return Err(ApiError::bad_request(
            "token is required for TokenReview in authentication",
        ));
    }
    let audiences = strings_at(&review, "/spec/audiences");
    let mut status = Map::new();
    match serviceaccount::authenticate(call.authority(), &token, &audiences) {
        Ok(Some(found)) => {
            status.insert("authenticated".into(), json!(true));
            status.insert("user".into(), found.user.to_json());
            status.insert("audiences".into(), json!(found.audiences));
        }
        Ok(None) => {
            status.insert("user".into(), json!({}));
            status.insert("error".into(), json!("invalid bearer token"));
        }
        Err(rejected) => {
            status.insert("user".into(), json!({}));
            status.insert("error".into(), json!(rejected.to_string()));
        }
    }
    settle_metadata(&mut review);
    review["status"] = Value::Object(status);
    Ok((StatusCode::CREATED, review))
}

/// A review's metadata as the server answers it: what was sent, with no creation time.
fn settle_metadata(review: &mut Value) {
    if !review.get("metadata").is_some_and(Value::is_object) {
        review["metadata"] = json!({});
    }
    if review["metadata"].get("creationTimestamp").is_none() {
        review["metadata"]["creationTimestamp"] = Value::Null;
    }
}

/// `SelfSubjectReview`: who the request is from.
pub(super) fn self_subject_review(
    call: &Call<'_>,
    body: &[u8],
) -> Result<(StatusCode, Value), ApiError> {
    let mut review = body::read_object(call, body)?;
    let user = serviceaccount::requester(call.authority(), call.headers);
    settle_metadata(&mut review);
    review["status"] = json!({"userInfo": user.to_json()});
    Ok((StatusCode::CREATED, review))
}
