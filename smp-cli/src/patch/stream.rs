//! The fast way through `smp patch` for what it is mostly given: a JSON document (or a `List`
//! of thousands of objects) or a YAML stream of manifests, and a strategic patch.
//!
//! The document is checked once as text and taken apart into its objects without building it
//! (`smp_core::sparse::json_objects`). Each object is patched from its text
//! (`smp_core::sparse::apply_text`, which builds only what the patch reaches) and printed: as
//! JSON from the compact result (`smp_core::gojson::pretty_from_compact`), as YAML from the
//! result read back, one object at a time. So memory holds the input and a few batches of
//! output, never the parsed document. A YAML stream in the block style of manifests is taken
//! apart into its documents (`smp_core::yaml::split_documents`, which reads each once to know
//! that the stream reads, so that a stream that does not prints nothing), and each is read and
//! patched the general way. Batches of objects are patched on every core and printed in order.
//!
//! An object this way does not suit (not an object, no built-in or `--crd` kind, carrying
//! `managedFields`, which kubectl hides) goes the general way, parsed, one at a time; the
//! result and every message are the same either way.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::{Condvar, Mutex};

use serde_json::Value;
use smp_core::DocRole;

use super::patch_one;
use crate::documents::Place;
use crate::error::CliError;
use crate::io::{Format, Schemas, Source};
use crate::kinds::{TypeMeta, Typing};

/// Objects patched together by one thread.
const BATCH: usize = 32;

/// Batches patched but not yet printed, at most, per thread.
const AHEAD: usize = 4;

/// What a batch gives: its objects printed, and the errors of those that failed.
type Batch = (Vec<u8>, Vec<CliError>);

/// Whether the fast way suits `patch`: it keeps every object's `kind` (which kubectl needs to
/// print it; so the fast way need not look at the result: no `kind`, `$patch` or `$retainKeys`
/// at the top) and adds no `metadata.managedFields` (which kubectl hides).
pub(super) fn suits(patch: &Value, show_managed_fields: bool) -> bool {
    match patch {
        Value::Object(map) => {
            let adds_managed_fields = map
                .get("metadata")
                .and_then(Value::as_object)
                .is_some_and(|m| m.contains_key("managedFields"));
            !["kind", "$patch", "$retainKeys"]
                .iter()
                .any(|k| map.contains_key(*k))
                && (show_managed_fields || !adds_managed_fields)
        }
        Value::Null => true,
        _ => false,
    }
}

/// What the objects are patched with.
pub(super) struct Job<'a> {
    pub patch: &'a Value,
    pub schemas: &'a Schemas,
    pub source: Source<'a>,
    /// `--show-managed-fields`.
    pub show_managed_fields: bool,
    /// `-o`.
    pub format: Format,
}

/// What the texts the threads take are.
#[derive(Clone, Copy)]
pub(super) enum Input {
    /// The objects of one JSON document: itself, or the items of a `List` (`list`).
    JsonObjects { list: bool },
    /// The documents of a YAML stream (`smp_core::yaml::split_documents`).
    YamlDocuments,
}

/// What separates YAML documents; each printed object starts with it, but the first printed.
const SEPARATOR: &[u8] = b"---\n";

/// Patches and prints `objects` (slices of the input), returning the errors in order.
///
/// Every thread (this one too) takes the next batch, patches it, and prints whatever batches
/// are ready in order; none takes a batch more than [`AHEAD`] per thread past the printed ones,
/// so memory holds a bounded number of printed batches whatever the input's size.
pub(super) fn run(
    objects: &[&str],
    input: Input,
    job: &Job<'_>,
) -> Result<Vec<CliError>, CliError> {
    let batches: Vec<&[&str]> = objects.chunks(BATCH).collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(batches.len())
        .max(1);
    let shared = Shared {
        batches: &batches,
        input,
        job,
        window: AHEAD * threads,
        state: Mutex::new(Progress::default()),
        turn: Condvar::new(),
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|| shared.work());
        }
        shared.work();
    });
    let progress = shared
        .state
        .into_inner()
        .map_err(|_| CliError::new("internal error", "a worker failed"))?;
    if let Some(e) = progress.failed {
        return Err(CliError::new("cannot write output", e));
    }
    if progress.printed < batches.len() {
        return Err(CliError::new("internal error", "a batch was not printed"));
    }
    std::io::stdout()
        .lock()
        .flush()
        .map_err(|e| CliError::new("cannot write output", e))?;
    Ok(progress.errors)
}

/// What the threads share.
struct Shared<'a, 'j> {
    batches: &'a [&'a [&'a str]],
    input: Input,
    job: &'a Job<'j>,
    window: usize,
    state: Mutex<Progress>,
    turn: Condvar,
}

/// How far the threads are.
#[derive(Default)]
struct Progress {
    /// The next batch to take.
    next: usize,
    /// Batches printed.
    printed: usize,
    /// Batches patched, not printed yet.
    ready: BTreeMap<usize, Batch>,
    /// Buffers of printed batches, to reuse: fresh memory costs a page fault per 4 KiB.
    spare: Vec<Vec<u8>>,
    /// The errors of the printed batches, in order.
    errors: Vec<CliError>,
    /// Printing failed: take no more batches.
    failed: Option<std::io::Error>,
    /// Whether an object was printed (the first YAML document goes without a separator).
    any: bool,
}

impl Shared<'_, '_> {
    fn work(&self) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        loop {
            while state.failed.is_none()
                && state.next < self.batches.len()
                && state.next >= state.printed + self.window
            {
                state = match self.turn.wait(state) {
                    Ok(state) => state,
                    Err(_) => return,
                };
            }
            if state.failed.is_some() || state.next >= self.batches.len() {
                return;
            }
            let b = state.next;
            state.next += 1;
            let out = state.spare.pop().unwrap_or_default();
            drop(state);
            let batch = self.patch_batch(b, out);
            state = match self.state.lock() {
                Ok(state) => state,
                Err(_) => return,
            };
            state.ready.insert(b, batch);
            self.print_ready(&mut state);
            self.turn.notify_all();
        }
    }

    /// Prints the batches that are next in order.
    fn print_ready(&self, state: &mut Progress) {
        while let Some((mut text, errors)) = state.ready.remove(&state.printed) {
            let mut printed: &[u8] = &text;
            if !state.any && self.job.format == Format::Yaml {
                printed = printed.strip_prefix(SEPARATOR).unwrap_or(printed);
            }
            state.any |= !printed.is_empty();
            if state.failed.is_none()
                && let Err(e) = std::io::stdout().lock().write_all(printed)
            {
                state.failed = Some(e);
            }
            text.clear();
            state.spare.push(text);
            state.errors.extend(errors);
            state.printed += 1;
        }
    }

    /// Patches batch `b` into `out`.
    fn patch_batch(&self, b: usize, mut out: Vec<u8>) -> Batch {
        let mut errors = Vec::new();
        for (i, text) in self.batches[b].iter().enumerate() {
            let n = b * BATCH + i + 1;
            match self.input {
                Input::JsonObjects { list } => {
                    let place = Place {
                        source: self.job.source,
                        document: 1,
                        item: list.then_some(n),
                    };
                    if let Err(e) = patch_text(text, self.job, &mut out) {
                        errors.push(CliError::new(place, e));
                    }
                }
                Input::YamlDocuments => patch_document(text, n, self.job, &mut out, &mut errors),
            }
        }
        (out, errors)
    }
}

/// Patches one object from its text and appends it, printed, to `out`.
fn patch_text(text: &str, job: &Job<'_>, out: &mut Vec<u8>) -> Result<(), String> {
    let Some(typing) = typing(text, job) else {
        return patch_parsed(text, job, out);
    };
    let patched = smp_core::sparse::apply_text(text, job.patch, typing.node(job.schemas))
        .map_err(|e| e.to_string())?;
    if job.format == Format::Yaml {
        // Read back as the general way reads an object.
        let value =
            smp_core::input::parse_json(&patched, DocRole::Original).map_err(|e| e.to_string())?;
        print_yaml(&value, out);
        return Ok(());
    }
    let start = out.len();
    if smp_core::gojson::pretty_from_compact(&patched, out).is_none() {
        // Cannot happen: `apply_text` writes what the printer reads.
        out.truncate(start);
        let value: Value = serde_json::from_str(&patched).map_err(|e| e.to_string())?;
        out.extend_from_slice(smp_core::gojson::to_string_pretty(&value).as_bytes());
    }
    Ok(())
}

/// The schema of an object the fast way suits: an object with a built-in or `--crd` kind (or
/// `--schema`), without `managedFields` to hide.
fn typing<'s>(text: &str, job: &Job<'s>) -> Option<Typing<'s>> {
    if !text.starts_with('{') || (!job.show_managed_fields && text.contains("\"managedFields\"")) {
        return None;
    }
    if let Some(schema) = &job.schemas.given {
        return Some(Typing::Given(schema));
    }
    let meta = smp_core::sparse::json_type_meta(text)?;
    let (Some(api_version), Some(kind)) = (meta.api_version, meta.kind) else {
        return None;
    };
    let meta = TypeMeta {
        api_version: &api_version,
        kind: &kind,
    };
    match meta.typing(job.schemas) {
        Typing::Untyped => None,
        typing => Some(typing),
    }
}

/// The general way for one object: parsed, patched, printed as `smp patch` does.
fn patch_parsed(text: &str, job: &Job<'_>, out: &mut Vec<u8>) -> Result<(), String> {
    let object = smp_core::input::parse_json(text, DocRole::Original).map_err(|e| e.to_string())?;
    let mut patched = patch_one(
        object,
        job.patch,
        super::PatchType::Strategic,
        job.schemas,
        &mut super::CopyBudget::unused(),
    )?;
    super::shown(&mut patched, job.show_managed_fields);
    print(&patched, job.format, out);
    Ok(())
}

/// Patches the objects of YAML document `n` (itself, or the items of a `List`) the general way
/// and appends them, printed, to `out`; their errors go to `errors`.
fn patch_document(
    text: &str,
    n: usize,
    job: &Job<'_>,
    out: &mut Vec<u8>,
    errors: &mut Vec<CliError>,
) {
    let place = |item| Place {
        source: job.source,
        document: n,
        item,
    };
    let docs = match smp_core::yaml::parse_yaml_documents(text, DocRole::Original) {
        Ok(docs) => docs,
        // Cannot happen: the stream was split where each text reads as one document.
        Err(e) => return errors.push(CliError::new(place(None), e)),
    };
    for doc in docs {
        for (item, object) in crate::documents::objects(doc) {
            let patched = patch_one(
                object,
                job.patch,
                super::PatchType::Strategic,
                job.schemas,
                &mut super::CopyBudget::unused(),
            );
            match patched {
                Ok(mut patched) => {
                    super::shown(&mut patched, job.show_managed_fields);
                    print(&patched, job.format, out);
                }
                Err(e) => errors.push(CliError::new(place(item), e)),
            }
        }
    }
}

/// An object printed in `format`.
fn print(object: &Value, format: Format, out: &mut Vec<u8>) {
    match format {
        Format::Json => smp_core::gojson::write_pretty(object, out),
        Format::Yaml => print_yaml(object, out),
    }
}

/// An object as a YAML document, after a separator (taken off the first one printed).
fn print_yaml(object: &Value, out: &mut Vec<u8>) {
    out.extend_from_slice(SEPARATOR);
    out.extend_from_slice(smp_core::yaml::to_yaml_string(object).as_bytes());
    if out.last() != Some(&b'\n') {
        out.push(b'\n');
    }
}
