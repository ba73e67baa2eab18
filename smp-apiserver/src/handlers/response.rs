//! Answers in the form the `Accept` header asks for: the object as served, a `Table`, or
//! metadata alone (`PartialObjectMetadata`, `PartialObjectMetadataList`), as apiserver's
//! `transformResponseObject` (`pkg/endpoints/handlers/response.go`) makes them. A `Status`
//! is never transformed.

use serde_json::{Value, json};

use super::answer::Answer;
use super::call::Call;
use crate::negotiation::Form;
use crate::object::{object_of, partial_metadata as metadata};
use crate::status::ApiError;
use crate::tables::{Include, Now, Tables};
use crate::watch::EventForm;

/// The tables of the call's resource, as asked for.
fn tables(call: &Call<'_>, api_version: &'static str) -> Result<Tables, ApiError> {
    Ok(Tables::new(
        call.served,
        call.resource,
        &call.info.subresource,
        api_version,
        Include::parse(call.query("includeObject"))?,
        Now(call.state.options.clock.seconds()),
    ))
}

/// How a watch's events are sent in `form`.
pub(super) fn event_form(call: &Call<'_>, form: Form) -> Result<EventForm, ApiError> {
    Ok(match form {
        Form::Object => EventForm::Object,
        Form::Table(api_version) => EventForm::Table(Box::new(tables(call, api_version)?)),
        Form::Metadata(api_version) => EventForm::Metadata(api_version),
        Form::MetadataList(_) => return Err(not_a_list(call, "PartialObjectMetadataList")),
    })
}

/// `answer` in `form`.
pub(super) fn transform(call: &Call<'_>, form: Form, answer: Answer) -> Result<Answer, ApiError> {
    if form == Form::Object {
        return Ok(answer);
    }
    Ok(match answer {
        Answer::Warned(status, value, warnings) => {
            Answer::Warned(status, object(call, form, value)?, warnings)
        }
        Answer::Object(status, value) => Answer::Object(status, object(call, form, value)?),
        Answer::Stored(status, stored, warnings) => Answer::Warned(
            status,
            object(call, form, (*stored.object).clone())?,
            warnings,
        ),
        Answer::List(list) => {
            let items: Vec<&Value> = list.items.iter().map(|s| &*s.object).collect();
            let value = match form {
                Form::Table(api_version) => {
                    tables(call, api_version)?.list(&items, list.metadata.clone())
                }
                Form::MetadataList(api_version) => object_of([
                    ("kind", json!("PartialObjectMetadataList")),
                    ("apiVersion", json!(api_version)),
                    ("metadata", list.metadata),
                    (
                        "items",
                        Value::Array(items.iter().map(|o| metadata(o, api_version)).collect()),
                    ),
                ]),
                // (An answer in `Form::Object` was returned as it is, above.)
                Form::Metadata(_) | Form::Object => return Err(a_list(call)),
            };
            Answer::Object(http::StatusCode::OK, value)
        }
        other => other,
    })
}

fn object(call: &Call<'_>, form: Form, value: Value) -> Result<Value, ApiError> {
    if value.get("kind").and_then(Value::as_str) == Some("Status") {
        return Ok(value);
    }
    match form {
        Form::Table(api_version) => Ok(tables(call, api_version)?.one(&value, true)),
        Form::Metadata(api_version) => Ok(metadata(&value, api_version)),
        Form::MetadataList(_) => Err(not_a_list(call, "PartialObjectMetadataList")),
        Form::Object => Ok(value),
    }
}

/// The Go type of the call's objects, as the server names it in messages (`*v1.Pod`;
/// custom resources are `*unstructured.Unstructured`).
fn go_type(call: &Call<'_>, list: bool) -> String {
    let suffix = if list { "List" } else { "" };
    if call.resource.names.is_some() {
        format!("*unstructured.Unstructured{suffix}")
    } else {
        format!("*{}.{}{suffix}", call.resource.version, call.resource.kind)
    }
}

fn not_a_list(call: &Call<'_>, asked: &str) -> ApiError {
    ApiError::not_acceptable_because(format!(
        "you requested {asked}, but the requested object is not a list ({})",
        go_type(call, false)
    ))
}

fn a_list(call: &Call<'_>) -> ApiError {
    ApiError::not_acceptable_because(format!(
        "you requested PartialObjectMetadata, but the requested object is a list ({})",
        go_type(call, true)
    ))
}
