//! Watches: a response that does not end, one JSON event a line (`{"type": "ADDED", "object":
//! ...}`), for the objects of one resource (in one namespace, if named) that the selectors
//! select. An object that comes into the selection is `ADDED`, one that leaves it `DELETED`, as
//! the server's watch cache tells them. Bookmarks come when asked for (the end of the initial
//! events, and the latest revision at an interval), and `timeoutSeconds` ends the watch.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::Frame;
use serde_json::{Value, json};
use tokio::sync::broadcast;
use tokio::time::{Instant, Interval, Sleep};

use crate::conversion::Shape;
use crate::registry::fields::Fields;
use crate::selector::{FieldSelector, Selector};
use crate::status::ApiError;
use crate::store::{Event, EventType, Expired, WatchStart};
use crate::tables::Tables;

/// Which events a watch passes on.
pub(crate) struct Filter {
    /// `group/plural`.
    pub(crate) resource: String,
    pub(crate) namespace: Option<String>,
    pub(crate) labels: Selector,
    pub(crate) fields: FieldSelector,
    /// What the resource's objects hold for the field selector.
    pub(crate) values: Fields,
    /// The shape its objects are sent in.
    pub(crate) shape: Shape,
    /// A custom resource's CRDs, whose defaults its objects are read with (none for a
    /// built-in resource, or without `Options::defaulting`).
    pub(crate) defaults: Option<std::sync::Arc<smp_admission::customresource::Definitions>>,
}

impl Filter {
    /// An object as the watch sends it: in the resource's shape, with its CRD's defaults.
    fn read(&self, object: &Value) -> Value {
        let shaped = self.shape.render(object);
        let defaulted = self.defaults.as_ref().and_then(|d| {
            d.definition_of(&shaped)
                .and_then(|definition| definition.default_on_read(&shaped))
        });
        defaulted.unwrap_or_else(|| shaped.into_owned())
    }
}

impl Filter {
    fn selects(&self, object: &Value) -> bool {
        self.labels.matches_labels(
            object
                .pointer("/metadata/labels")
                .and_then(Value::as_object),
        ) && self
            .fields
            .matches(|label| self.values.value(object, label))
    }

    /// The type and object an event is sent as, if this watch sends it.
    fn event(&self, event: &Event) -> Option<(&'static str, Value)> {
        let key = &event.key;
        if key.resource != self.resource
            || self
                .namespace
                .as_ref()
                .is_some_and(|ns| *ns != key.namespace)
        {
            return None;
        }
        let now = self.selects(&event.object);
        let before = event.previous.as_ref().is_some_and(|p| self.selects(p));
        let kind = match (event.kind, before, now) {
            (EventType::Deleted, true, _) => "DELETED",
            (EventType::Deleted, false, _) => return None,
            (_, false, true) => "ADDED",
            (_, true, true) => "MODIFIED",
            // Out of the selection: the object as it was, at the write's revision (the watch
            // cache's `convertToWatchEvent`).
            (_, true, false) => {
                let mut last = self.read(event.previous.as_deref().unwrap_or(&Value::Null));
                if let Some(m) = last.get_mut("metadata").and_then(Value::as_object_mut) {
                    m.insert("resourceVersion".into(), json!(event.revision.to_string()));
                }
                return Some(("DELETED", last));
            }
            (_, false, false) => return None,
        };
        Some((kind, self.read(&event.object)))
    }
}

/// How a watch's objects are sent: as they are, as one-row tables (the first event's with
/// the column definitions), or as their metadata. Error events' `Status` is sent as it is.
pub(crate) enum EventForm {
    Object,
    Table(Box<Tables>),
    Metadata(&'static str),
}

/// Writes a watch's events in its form.
struct Encoder {
    form: EventForm,
    /// Whether an event has been sent (later tables go without column definitions).
    started: bool,
}

impl Encoder {
    fn line(&mut self, kind: &str, object: &Value) -> Bytes {
        let headers = !self.started;
        self.started = true;
        match &self.form {
            _ if kind == "ERROR" => line(kind, object),
            EventForm::Object => line(kind, object),
            EventForm::Table(tables) => line(kind, &tables.one(object, headers)),
            EventForm::Metadata(api_version) => {
                line(kind, &crate::object::partial_metadata(object, api_version))
            }
        }
    }
}

fn line(kind: &str, object: &Value) -> Bytes {
    Bytes::from(crate::serializer::event_line(kind, object))
}

type Next = Pin<
    Box<
        dyn Future<
                Output = (
                    broadcast::Receiver<Arc<Event>>,
                    Result<Arc<Event>, broadcast::error::RecvError>,
                ),
            > + Send,
    >,
>;

/// What a watch was asked for besides its events.
pub(crate) struct Asked {
    /// `apiVersion` and `kind` of the resource, for bookmarks.
    pub(crate) api_version: String,
    pub(crate) kind: String,
    /// `sendInitialEvents`: the events of the objects as they are are followed by a bookmark
    /// saying they are all in (what such a client waits for).
    pub(crate) initial_events: bool,
    /// `allowWatchBookmarks`: a bookmark with the latest revision every this long.
    pub(crate) bookmarks: Option<Duration>,
    /// `timeoutSeconds`: the watch ends after this long.
    pub(crate) timeout: Option<Duration>,
    /// The form its objects are sent in.
    pub(crate) form: EventForm,
}

/// A watch's response body.
pub struct Watch {
    lines: VecDeque<Bytes>,
    receiver: Option<broadcast::Receiver<Arc<Event>>>,
    next: Option<Next>,
    filter: Filter,
    encoder: Encoder,
    done: bool,
    /// The latest revision seen (a bookmark's).
    revision: u64,
    /// `apiVersion` and `kind` of the resource, for bookmarks.
    api_version: String,
    kind: String,
    bookmarks: Option<Interval>,
    end: Option<Pin<Box<Sleep>>>,
}

impl Watch {
    /// The watch of `start`'s events that `filter` passes, or the expiry error as its only
    /// event.
    pub(crate) fn new(start: Result<WatchStart, Expired>, filter: Filter, asked: Asked) -> Watch {
        let mut revision = 0;
        let mut encoder = Encoder {
            form: asked.form,
            started: false,
        };
        let (lines, receiver, done) = match start {
            Ok(start) => {
                let mut lines: VecDeque<Bytes> = start
                    .backlog
                    .iter()
                    .filter_map(|e| filter.event(e))
                    .map(|(kind, object)| encoder.line(kind, &object))
                    .collect();
                revision = start.revision;
                if asked.initial_events {
                    let bookmark = bookmark(&asked.api_version, &asked.kind, revision, true);
                    lines.push_back(encoder.line("BOOKMARK", &bookmark));
                }
                (lines, Some(start.receiver), false)
            }
            Err(expired) => {
                let error = ApiError::gone(format!(
                    "too old resource version: {} ({})",
                    expired.asked, expired.oldest
                ));
                (
                    VecDeque::from([line("ERROR", &error.to_status())]),
                    None,
                    true,
                )
            }
        };
        // Timers need a tokio runtime (with its clock); outside one, a watch has none.
        let timed = tokio::runtime::Handle::try_current().is_ok();
        // The first bookmark comes one interval after the start, not at once.
        let bookmarks = asked.bookmarks.filter(|_| timed).map(|every| {
            let mut interval = tokio::time::interval_at(Instant::now() + every, every);
            interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            interval
        });
        Watch {
            lines,
            receiver,
            next: None,
            filter,
            encoder,
            done,
            revision,
            api_version: asked.api_version,
            kind: asked.kind,
            bookmarks,
            end: asked
                .timeout
                .filter(|_| timed)
                .map(|t| Box::pin(tokio::time::sleep(t))),
        }
    }

    /// Whether the timeout has passed; a bookmark queued if one is due.
    fn tick(&mut self, cx: &mut Context<'_>) -> bool {
        if self
            .end
            .as_mut()
            .is_some_and(|end| end.as_mut().poll(cx).is_ready())
        {
            return true;
        }
        if let Some(bookmarks) = &mut self.bookmarks
            && bookmarks.poll_tick(cx).is_ready()
        {
            let bookmark = bookmark(&self.api_version, &self.kind, self.revision, false);
            let line = self.encoder.line("BOOKMARK", &bookmark);
            self.lines.push_back(line);
        }
        false
    }
}

/// A bookmark: an object of the resource's kind holding only a revision (and, ending the
/// initial events, the annotation saying so).
fn bookmark(api_version: &str, kind: &str, revision: u64, end_of_initial: bool) -> Value {
    let mut metadata = json!({"resourceVersion": revision.to_string()});
    if end_of_initial {
        metadata["annotations"] = json!({"k8s.io/initial-events-end": "true"});
    }
    json!({"apiVersion": api_version, "kind": kind, "metadata": metadata})
}

impl http_body::Body for Watch {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = &mut *self;
        loop {
            if let Some(line) = this.lines.pop_front() {
                return Poll::Ready(Some(Ok(Frame::data(line))));
            }
            if this.done {
                return Poll::Ready(None);
            }
            if this.tick(cx) {
                this.done = true;
                continue;
            }
            if !this.lines.is_empty() {
                continue;
            }
            if this.next.is_none() {
                let Some(mut receiver) = this.receiver.take() else {
                    return Poll::Ready(None);
                };
                this.next = Some(Box::pin(async move {
                    let event = receiver.recv().await;
                    (receiver, event)
                }));
            }
            let Some(next) = this.next.as_mut() else {
                return Poll::Ready(None);
            };
            let (receiver, event) = match next.as_mut().poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(ready) => ready,
            };
            this.next = None;
            this.receiver = Some(receiver);
            match event {
                Ok(event) => {
                    this.revision = event.revision;
                    if let Some((kind, object)) = this.filter.event(&event) {
                        let line = this.encoder.line(kind, &object);
                        return Poll::Ready(Some(Ok(Frame::data(line))));
                    }
                }
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    // Too slow: the watcher starts again from a list.
                    let error = ApiError::gone(format!(
                        "the watch fell {missed} events behind; list again"
                    ));
                    this.lines.push_back(line("ERROR", &error.to_status()));
                    this.done = true;
                }
                Err(broadcast::error::RecvError::Closed) => this.done = true,
            }
        }
    }
}
