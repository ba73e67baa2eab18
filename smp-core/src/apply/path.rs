//! Where the engine is, kept as a linked list on the stack.
//!
//! Building a path costs nothing until an error needs it: each recursion level adds one
//! `Path` frame that borrows its parent, and [`Path::to_json_path`] walks the chain only when
//! an error is reported.

use serde_json::Value;

use crate::error::{JsonPath, PatchError, Segment};

use super::MAX_DEPTH;

#[derive(Clone, Copy)]
enum Step<'a> {
    Root,
    Field(&'a str),
    Keyed(&'a str, &'a Value),
    Index(usize),
}

/// A position in the document being patched.
pub(crate) struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    step: Step<'a>,
    depth: usize,
}

impl<'a> Path<'a> {
    pub(crate) fn root() -> Path<'static> {
        Path {
            parent: None,
            step: Step::Root,
            depth: 0,
        }
    }

    fn push(&'a self, step: Step<'a>) -> Path<'a> {
        Path {
            parent: Some(self),
            step,
            depth: self.depth + 1,
        }
    }

    pub(crate) fn field(&'a self, name: &'a str) -> Path<'a> {
        self.push(Step::Field(name))
    }

    /// A list item named by its merge key when it has one, else by position.
    pub(crate) fn item(
        &'a self,
        merge_key: Option<&'a str>,
        item: &'a Value,
        index: usize,
    ) -> Path<'a> {
        match merge_key.and_then(|k| item.get(k).map(|v| (k, v))) {
            Some((k, v)) => self.push(Step::Keyed(k, v)),
            None => self.push(Step::Index(index)),
        }
    }

    pub(crate) fn index(&'a self, index: usize) -> Path<'a> {
        self.push(Step::Index(index))
    }

    /// Fails once the nesting limit is passed, so hostile input cannot exhaust the stack.
    pub(crate) fn check_depth(&self) -> Result<(), PatchError> {
        if self.depth > MAX_DEPTH {
            return Err(PatchError::TooDeep {
                path: self.to_json_path(),
                limit: MAX_DEPTH,
            });
        }
        Ok(())
    }

    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    pub(crate) fn to_json_path(&self) -> JsonPath {
        let mut segments = Vec::with_capacity(self.depth);
        let mut cur = Some(self);
        while let Some(p) = cur {
            match p.step {
                Step::Root => {}
                Step::Field(name) => segments.push(Segment::Field(name.to_owned())),
                Step::Keyed(key, value) => segments.push(Segment::Keyed {
                    key: key.to_owned(),
                    value: match value {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    },
                }),
                Step::Index(i) => segments.push(Segment::Index(i)),
            }
            cur = p.parent;
        }
        segments.reverse();
        JsonPath(segments)
    }
}
