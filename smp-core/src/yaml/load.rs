//! Builds JSON values from `yaml-rust2` parser events.
//!
//! The parser is pulled one event at a time and nesting is kept on an explicit stack, so a
//! 10,000-deep document costs no native stack and is rejected as soon as it passes the limit.

use std::collections::HashMap;

use serde_json::{Map, Value};
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, ScanError, TScalarStyle};

use super::resolve::{CoreTag, Scalar, resolve_scalar};
use crate::error::{JsonPath, Segment};
use crate::input::MAX_NESTING;

/// Upper bound on values copied in by aliases in one document: enough for any real manifest,
/// small enough that a "billion laughs" document fails fast instead of exhausting memory.
const MAX_ALIAS_EXPANSION: usize = 1_000_000;

/// Parses every document of a YAML stream; the error is a one-line message with a position.
pub(crate) fn load_documents(text: &str) -> Result<Vec<Value>, String> {
    let mut parser = Parser::new_from_str(text);
    let mut loader = Loader::default();
    loop {
        let (event, mark) = parser.next_token().map_err(|e| parse_error(&e))?;
        if event == Event::StreamEnd {
            return Ok(loader.docs);
        }
        loader.on_event(event, mark)?;
    }
}

fn parse_error(e: &ScanError) -> String {
    // The scanner counts flow levels in a byte and may read ahead of the events; its limit is
    // then hit before ours, and means the same thing.
    if e.info() == "recursion limit exceeded" {
        return at(
            &format!("nesting deeper than {MAX_NESTING} levels"),
            e.marker(),
        );
    }
    at(e.info(), e.marker())
}

fn at(message: &str, mark: &Marker) -> String {
    format!(
        "{message} at line {}, column {}",
        mark.line(),
        mark.col() + 1
    )
}

/// A finished node, waiting to be placed into its parent.
#[derive(Debug, Clone)]
enum Node {
    /// A scalar; `merge` marks an untagged plain `<<`, the YAML merge key.
    Scalar { scalar: Scalar, merge: bool },
    /// A finished collection.
    Tree(Tree),
}

#[derive(Debug, Clone)]
struct Tree {
    value: Value,
    /// Levels of collections, counting this one.
    depth: usize,
    /// Number of values, counting this one; what an alias to it costs.
    size: usize,
}

/// What a mapping is waiting for next.
#[derive(Debug)]
enum PendingKey {
    /// A key was read; its value comes next.
    Name(String),
    /// A `<<` key was read; a mapping (or list of them) to merge comes next.
    Merge,
}

#[derive(Debug)]
enum Content {
    Seq(Vec<Value>),
    Map {
        map: Map<String, Value>,
        key: Option<PendingKey>,
        /// Mappings named by `<<`, in order; explicit keys win over them, earlier over later.
        merges: Vec<Map<String, Value>>,
    },
}

/// An open collection.
#[derive(Debug)]
struct Frame {
    content: Content,
    anchor: usize,
    /// Deepest child, in levels of collections.
    child_depth: usize,
    size: usize,
}

#[derive(Debug, Default)]
struct Loader {
    docs: Vec<Value>,
    stack: Vec<Frame>,
    root: Option<Value>,
    anchors: HashMap<usize, Node>,
    expanded: usize,
}

impl Loader {
    fn on_event(&mut self, event: Event, mark: Marker) -> Result<(), String> {
        match event {
            Event::DocumentStart => {
                // Anchors are scoped to one document, as in go-yaml.
                self.anchors.clear();
                self.expanded = 0;
                self.root = None;
            }
            Event::DocumentEnd => {
                self.docs.push(self.root.take().unwrap_or(Value::Null));
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.on_scalar(text, style, anchor, tag, mark)?
            }
            Event::Alias(id) => self.on_alias(id, mark)?,
            Event::SequenceStart(anchor, tag) => {
                self.open(Content::Seq(Vec::new()), anchor, tag.as_ref(), mark)?;
            }
            Event::MappingStart(anchor, tag) => {
                let content = Content::Map {
                    map: Map::new(),
                    key: None,
                    merges: Vec::new(),
                };
                self.open(content, anchor, tag.as_ref(), mark)?;
            }
            Event::SequenceEnd | Event::MappingEnd => self.close(mark)?,
            Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
        }
        Ok(())
    }

    fn on_scalar(
        &mut self,
        text: String,
        style: TScalarStyle,
        anchor: usize,
        tag: Option<Tag>,
        mark: Marker,
    ) -> Result<(), String> {
        let core = CoreTag::of(tag.as_ref());
        let merge = style == TScalarStyle::Plain && tag.is_none() && text == "<<";
        let scalar = resolve_scalar(text, style, core).map_err(|e| at(&e, &mark))?;
        let node = Node::Scalar { scalar, merge };
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        self.place(node, mark)
    }

    fn on_alias(&mut self, id: usize, mark: Marker) -> Result<(), String> {
        let node = match self.anchors.get(&id) {
            // An alias is never the merge key, even if it names a `<<` scalar.
            Some(Node::Scalar { scalar, .. }) => Node::Scalar {
                scalar: scalar.clone(),
                merge: false,
            },
            Some(Node::Tree(tree)) => {
                self.expanded = self.expanded.saturating_add(tree.size);
                if self.expanded > MAX_ALIAS_EXPANSION {
                    return Err(at(
                        &format!("aliases expand to more than {MAX_ALIAS_EXPANSION} values"),
                        &mark,
                    ));
                }
                Node::Tree(tree.clone())
            }
            None => {
                return Err(at(
                    "alias to an anchor that is not defined in this document or not complete \
                     (an alias cannot refer to a collection that contains it)",
                    &mark,
                ));
            }
        };
        self.place(node, mark)
    }

    fn open(
        &mut self,
        content: Content,
        anchor: usize,
        tag: Option<&Tag>,
        mark: Marker,
    ) -> Result<(), String> {
        let is_map = matches!(content, Content::Map { .. });
        let expected = if is_map { CoreTag::Map } else { CoreTag::Seq };
        match CoreTag::of(tag) {
            None | Some(CoreTag::NonSpecific) => {}
            Some(t) if t == expected => {}
            Some(t) => {
                let kind = if is_map { "mapping" } else { "sequence" };
                return Err(at(&format!("cannot use {} on a {kind}", t.short()), &mark));
            }
        }
        if self.stack.len() >= MAX_NESTING {
            return Err(self.too_deep(&mark));
        }
        self.stack.push(Frame {
            content,
            anchor,
            child_depth: 0,
            size: 1,
        });
        Ok(())
    }

    fn close(&mut self, mark: Marker) -> Result<(), String> {
        let Some(frame) = self.stack.pop() else {
            return Err(at("unbalanced end of collection", &mark));
        };
        let value = match frame.content {
            Content::Seq(items) => Value::Array(items),
            Content::Map {
                mut map, merges, ..
            } => {
                for source in merges {
                    for (k, v) in source {
                        map.entry(k).or_insert(v);
                    }
                }
                Value::Object(map)
            }
        };
        let node = Node::Tree(Tree {
            value,
            depth: frame.child_depth + 1,
            size: frame.size,
        });
        if frame.anchor != 0 {
            self.anchors.insert(frame.anchor, node.clone());
        }
        self.place(node, mark)
    }

    /// Puts a finished node into the open collection (as an item, key or value) or makes it the
    /// document's root.
    fn place(&mut self, node: Node, mark: Marker) -> Result<(), String> {
        let open = self.stack.len();
        let awaiting_key = matches!(
            self.stack.last(),
            Some(Frame {
                content: Content::Map { key: None, .. },
                ..
            })
        );
        if awaiting_key {
            return self.place_key(node, mark);
        }
        let tree = into_tree(node).map_err(|e| at(&e, &mark))?;
        if open + tree.depth > MAX_NESTING {
            return Err(self.too_deep(&mark));
        }
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some(tree.value);
            return Ok(());
        };
        frame.child_depth = frame.child_depth.max(tree.depth);
        frame.size = frame.size.saturating_add(tree.size);
        match &mut frame.content {
            Content::Seq(items) => items.push(tree.value),
            Content::Map { map, key, merges } => match key.take() {
                Some(PendingKey::Name(name)) => {
                    map.insert(name, tree.value);
                }
                Some(PendingKey::Merge) => {
                    merges.extend(merge_sources(tree.value).map_err(|e| at(e, &mark))?);
                }
                None => return Err(at("mapping value without a key", &mark)),
            },
        }
        Ok(())
    }

    fn place_key(&mut self, node: Node, mark: Marker) -> Result<(), String> {
        let pending = match node {
            Node::Scalar { merge: true, .. } => PendingKey::Merge,
            Node::Scalar { scalar, .. } => {
                let name = scalar.into_key().map_err(|e| at(&e, &mark))?;
                if self.current_map_has(&name) {
                    let message = format!(
                        "mapping key {} already defined at {}",
                        Value::String(name),
                        self.path()
                    );
                    return Err(at(&message, &mark));
                }
                PendingKey::Name(name)
            }
            Node::Tree(tree) => {
                let kind = if tree.value.is_array() {
                    "sequence"
                } else {
                    "mapping"
                };
                let message = format!(
                    "a mapping key must be a scalar, found a {kind} at {}",
                    self.path()
                );
                return Err(at(&message, &mark));
            }
        };
        if let Some(Frame {
            content: Content::Map { key, .. },
            ..
        }) = self.stack.last_mut()
        {
            *key = Some(pending);
        }
        Ok(())
    }

    fn current_map_has(&self, name: &str) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame { content: Content::Map { map, .. }, .. }) if map.contains_key(name)
        )
    }

    /// The JSON path of the innermost open collection.
    fn path(&self) -> JsonPath {
        let parents = self.stack.len().saturating_sub(1);
        let segments = self
            .stack
            .iter()
            .take(parents)
            .map(|frame| match &frame.content {
                Content::Seq(items) => Segment::Index(items.len()),
                Content::Map { key, .. } => Segment::Field(match key {
                    Some(PendingKey::Name(name)) => name.clone(),
                    Some(PendingKey::Merge) | None => "<<".to_string(),
                }),
            });
        JsonPath(segments.collect())
    }

    fn too_deep(&self, mark: &Marker) -> String {
        at(
            &format!(
                "nesting deeper than {MAX_NESTING} levels at {}",
                self.path()
            ),
            mark,
        )
    }
}

fn into_tree(node: Node) -> Result<Tree, String> {
    match node {
        Node::Tree(tree) => Ok(tree),
        Node::Scalar { scalar, .. } => Ok(Tree {
            value: scalar.into_value()?,
            depth: 0,
            size: 1,
        }),
    }
}

/// The mappings a `<<` value names: one mapping or a sequence of them.
fn merge_sources(value: Value) -> Result<Vec<Map<String, Value>>, &'static str> {
    const MESSAGE: &str = "the merge key `<<` needs a mapping or a sequence of mappings";
    match value {
        Value::Object(map) => Ok(vec![map]),
        Value::Array(items) => items
            .into_iter()
            .map(|item| match item {
                Value::Object(map) => Ok(map),
                _ => Err(MESSAGE),
            })
            .collect(),
        _ => Err(MESSAGE),
    }
}
