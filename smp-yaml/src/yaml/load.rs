//! Builds JSON values from `yaml-rust2` parser events.
//!
//! The parser is pulled one event at a time and nesting is kept on an explicit stack, so a
//! 10,000-deep document costs no native stack and is rejected as soon as it passes the limit.
//!
//! Anchors and aliases share instead of copying while the document is read: an anchored
//! collection is kept once, behind an `Rc`, and the collection holding it (or an alias to it)
//! has a placeholder and a [`Hole`] that names it. Copies are made only when the finished
//! document is assembled ([`materialize`]), once per alias, and every alias is charged what its
//! copy will cost when it is read, so that a document whose aliases would expand past the budget
//! fails at the alias that passes it, before anything is copied.

use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{Map, Value};
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, ScanError, TScalarStyle};

use super::resolve::{CoreTag, Scalar, excerpt, resolve_scalar};
use crate::error::line_column;
use crate::limits::MAX_NESTING;
use crate::path::{JsonPath, Segment};

/// What aliases may add to a stream beyond the size of its text, in units of
/// [`weight`](Tree::weight): enough for any real manifest, small enough that a "billion laughs"
/// document fails fast instead of exhausting memory.
pub(crate) const ALIAS_ALLOWANCE: u64 = 1_000_000;

/// Why a YAML stream could not be read: a one-line message with a position.
#[derive(Debug)]
pub(crate) struct LoadError {
    pub(crate) message: String,
    /// The scanner or parser rejected the text (as opposed to its content: a duplicate key, a
    /// character YAML does not allow, an alias past the budget, ...).
    pub(crate) syntax: bool,
}

impl LoadError {
    fn content(message: String) -> LoadError {
        LoadError {
            message,
            syntax: false,
        }
    }
}

/// Parses every document of a YAML stream.
///
/// `json_like`: the text starts like JSON (see `crate::parse_document`), and unquoted scalars
/// that only a JSON dialect would write (`NaN`, `Infinity`, comments) are errors.
pub(crate) fn load_documents(text: &str, json_like: bool) -> Result<Vec<Value>, LoadError> {
    // Most manifests are read by the fast reader; it leaves the rest to the full loader.
    if !json_like {
        if let Some(docs) = super::fast::load_documents(text) {
            return Ok(docs);
        }
    }
    load_documents_in_full(text, json_like)
}

/// [`load_documents`] by the full loader alone.
pub(crate) fn load_documents_in_full(text: &str, json_like: bool) -> Result<Vec<Value>, LoadError> {
    let mut loader = Loader {
        json_like,
        budget: u64::try_from(text.len())
            .unwrap_or(u64::MAX)
            .saturating_add(ALIAS_ALLOWANCE),
        ..Loader::default()
    };
    loader.run(text)?;
    Ok(loader.docs)
}

/// How many collections reading `text` copied (tests: an anchor alone must copy nothing).
#[cfg(test)]
pub(crate) fn copies_made(text: &str) -> usize {
    let mut loader = Loader {
        budget: u64::MAX,
        ..Loader::default()
    };
    let _ = loader.run(text);
    loader.copies
}

/// YAML streams hold printable characters only (YAML 1.2 `c-printable`, which go-yaml enforces
/// on the whole stream): tab, LF, CR, U+0020–U+007E, U+0085, U+00A0–U+D7FF, U+E000–U+FFFD and
/// U+10000 and above. Anything else (NUL, other C0 and C1 controls, DEL, U+FFFE, U+FFFF) is an
/// error here; the scanner would otherwise take a NUL for the end of the input.
fn check_printable(text: &str) -> Result<(), LoadError> {
    let printable = |c: char| {
        matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}')
            || matches!(c, '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
    };
    match text.char_indices().find(|&(_, c)| !printable(c)) {
        None => Ok(()),
        Some((pos, c)) => {
            let (line, column) = line_column(text, pos);
            Err(LoadError::content(format!(
                "non-printable character U+{:04X} at line {line}, column {column} (YAML allows \
                 it only as an escape in a double-quoted string)",
                u32::from(c)
            )))
        }
    }
}

fn parse_error(e: &ScanError) -> LoadError {
    // The scanner counts flow levels in a byte and may read ahead of the events; its limit is
    // then hit before ours, and means the same thing.
    if e.info() == "recursion limit exceeded" {
        return LoadError::content(at(
            &format!("nesting deeper than {MAX_NESTING} levels"),
            e.marker(),
        ));
    }
    LoadError {
        message: at(e.info(), e.marker()),
        syntax: true,
    }
}

fn at(message: &str, mark: &Marker) -> String {
    format!(
        "{message} at line {}, column {}",
        mark.line(),
        mark.col() + 1
    )
}

/// What copying a string costs: one unit per byte.
fn string_weight(s: &str) -> u64 {
    u64::try_from(s.len()).unwrap_or(u64::MAX)
}

/// A finished node, waiting to be placed into its parent.
#[derive(Debug)]
enum Node {
    /// A scalar; `merge` marks an untagged plain `<<`, the YAML merge key.
    Scalar { scalar: Scalar, merge: bool },
    /// A finished collection that nothing else refers to.
    Tree(Tree),
    /// A collection that carries an anchor: the anchor table holds it too.
    Anchored(Rc<Tree>),
    /// An alias to a collection; what its copy costs was charged when it was read.
    Alias(Rc<Tree>),
}

/// A finished collection. Its `value` may hold placeholders (`null`) at the slots its `holes`
/// name; [`materialize`] fills them.
#[derive(Debug, Clone)]
struct Tree {
    value: Value,
    holes: Vec<Hole>,
    /// Levels of collections, counting this one.
    depth: usize,
    /// What a copy costs: one unit per value (this collection, every collection and scalar in
    /// it) plus one per byte of every string and key in it.
    weight: u64,
}

/// A slot of a collection whose value is another (shared or unfinished) collection.
#[derive(Debug, Clone)]
struct Hole {
    slot: Slot,
    fill: Rc<Tree>,
}

#[derive(Debug, Clone)]
enum Slot {
    Index(usize),
    Key(String),
}

/// The final value of a collection: its holes filled, recursively. A fill that is still shared
/// (the collection is aliased elsewhere) is copied (and counted in `copies`); the last user
/// takes it without a copy. The recursion is as deep as the collections, which the loader keeps
/// within [`MAX_NESTING`].
fn materialize(tree: Tree, copies: &mut usize) -> Value {
    let Tree {
        mut value, holes, ..
    } = tree;
    for Hole { slot, fill } in holes {
        let filled = materialize(unshare(fill, copies), copies);
        let target = match (&slot, &mut value) {
            (Slot::Index(i), Value::Array(items)) => items.get_mut(*i),
            (Slot::Key(key), Value::Object(map)) => map.get_mut(key),
            _ => None,
        };
        if let Some(target) = target {
            *target = filled;
        }
    }
    value
}

/// The collection itself if nothing else refers to it, else a copy.
fn unshare(tree: Rc<Tree>, copies: &mut usize) -> Tree {
    Rc::try_unwrap(tree).unwrap_or_else(|shared| {
        *copies += 1;
        (*shared).clone()
    })
}

/// What an anchor names.
#[derive(Debug)]
enum Anchor {
    Scalar(Scalar),
    Tree(Rc<Tree>),
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
    holes: Vec<Hole>,
    anchor: usize,
    /// Deepest child, in levels of collections.
    child_depth: usize,
    weight: u64,
}

#[derive(Debug, Default)]
struct Loader {
    json_like: bool,
    docs: Vec<Value>,
    stack: Vec<Frame>,
    root: Option<Node>,
    anchors: HashMap<usize, Anchor>,
    /// Units that aliases (and copies of anchored merge sources) added to the stream so far.
    expanded: u64,
    /// The most `expanded` may reach: the size of the text plus [`ALIAS_ALLOWANCE`].
    budget: u64,
    /// Collections copied so far.
    copies: usize,
}

impl Loader {
    fn run(&mut self, text: &str) -> Result<(), LoadError> {
        check_printable(text)?;
        let mut parser = Parser::new_from_str(text);
        loop {
            let (event, mark) = parser.next_token().map_err(|e| parse_error(&e))?;
            if event == Event::StreamEnd {
                return Ok(());
            }
            self.on_event(event, mark).map_err(LoadError::content)?;
        }
    }

    fn on_event(&mut self, event: Event, mark: Marker) -> Result<(), String> {
        match event {
            Event::DocumentStart => {
                // Anchors are scoped to one document, as in go-yaml.
                self.anchors.clear();
                self.root = None;
            }
            Event::DocumentEnd => {
                // Without the anchor table's references, a collection used once is moved into
                // place, not copied.
                self.anchors.clear();
                let value = match self.root.take() {
                    None => Value::Null,
                    Some(node) => node_value(node, &mut self.copies).map_err(|e| at(&e, &mark))?,
                };
                self.docs.push(value);
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
        if self.json_like && style == TScalarStyle::Plain && tag.is_none() {
            json_dialect_check(&text, self.awaiting_key()).map_err(|e| at(&e, &mark))?;
        }
        let core = CoreTag::of(tag.as_ref());
        let merge = style == TScalarStyle::Plain && tag.is_none() && text == "<<";
        let scalar = resolve_scalar(text, style, core).map_err(|e| at(&e, &mark))?;
        if anchor != 0 {
            self.anchors.insert(anchor, Anchor::Scalar(scalar.clone()));
        }
        self.place(Node::Scalar { scalar, merge }, mark)
    }

    fn on_alias(&mut self, id: usize, mark: Marker) -> Result<(), String> {
        let (node, cost) = match self.anchors.get(&id) {
            // An alias is never the merge key, even if it names a `<<` scalar.
            Some(Anchor::Scalar(scalar)) => {
                let cost = scalar_weight(scalar);
                let node = Node::Scalar {
                    scalar: scalar.clone(),
                    merge: false,
                };
                (node, cost)
            }
            Some(Anchor::Tree(tree)) => (Node::Alias(Rc::clone(tree)), tree.weight),
            None => {
                return Err(at(
                    "alias to an anchor that is not defined in this document or not complete \
                     (an alias cannot refer to a collection that contains it)",
                    &mark,
                ));
            }
        };
        self.charge(cost, &mark)?;
        self.place(node, mark)
    }

    /// Counts a copy against the budget.
    fn charge(&mut self, cost: u64, mark: &Marker) -> Result<(), String> {
        self.expanded = self.expanded.saturating_add(cost);
        if self.expanded > self.budget {
            let message = format!(
                "aliases expand to more than {} units (one per value plus one per byte of its \
                 strings and keys; the limit is the input's size plus {ALIAS_ALLOWANCE})",
                self.budget
            );
            return Err(at(&message, mark));
        }
        Ok(())
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
            holes: Vec::new(),
            anchor,
            child_depth: 0,
            weight: 1,
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
        let tree = Tree {
            value,
            holes: frame.holes,
            depth: frame.child_depth + 1,
            weight: frame.weight,
        };
        let node = if frame.anchor == 0 {
            Node::Tree(tree)
        } else {
            let shared = Rc::new(tree);
            self.anchors
                .insert(frame.anchor, Anchor::Tree(Rc::clone(&shared)));
            Node::Anchored(shared)
        };
        self.place(node, mark)
    }

    /// Whether the next node is the key of a mapping entry.
    fn awaiting_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame {
                content: Content::Map { key: None, .. },
                ..
            })
        )
    }

    /// Puts a finished node into the open collection (as an item, key or value) or makes it the
    /// document's root.
    fn place(&mut self, node: Node, mark: Marker) -> Result<(), String> {
        if self.awaiting_key() {
            return self.place_key(node, mark);
        }
        let (depth, weight) = match &node {
            Node::Scalar { scalar, .. } => (0, scalar_weight(scalar)),
            Node::Tree(tree) => (tree.depth, tree.weight),
            Node::Anchored(tree) | Node::Alias(tree) => (tree.depth, tree.weight),
        };
        if self.stack.len() + depth > MAX_NESTING {
            return Err(self.too_deep(&mark));
        }
        let merging = matches!(
            self.stack.last(),
            Some(Frame {
                content: Content::Map {
                    key: Some(PendingKey::Merge),
                    ..
                },
                ..
            })
        );
        if merging {
            // The entries are needed now. An anchored source stays in the anchor table, so
            // taking its entries copies it, which costs what an alias would.
            if let Node::Anchored(tree) = &node {
                self.charge(tree.weight, &mark)?;
            }
            let value = node_value(node, &mut self.copies).map_err(|e| at(&e, &mark))?;
            let sources = merge_sources(value).map_err(|e| at(e, &mark))?;
            if let Some(frame) = self.stack.last_mut() {
                frame.child_depth = frame.child_depth.max(depth);
                frame.weight = frame.weight.saturating_add(weight);
                if let Content::Map { key, merges, .. } = &mut frame.content {
                    *key = None;
                    merges.extend(sources);
                }
            }
            return Ok(());
        }
        let Some(frame) = self.stack.last_mut() else {
            // A scalar root is checked now, where its position is known.
            let node = match node {
                Node::Scalar { scalar, .. } => Node::Tree(Tree {
                    value: scalar.into_value().map_err(|e| at(&e, &mark))?,
                    holes: Vec::new(),
                    depth,
                    weight,
                }),
                other => other,
            };
            self.root = Some(node);
            return Ok(());
        };
        frame.child_depth = frame.child_depth.max(depth);
        frame.weight = frame.weight.saturating_add(weight);
        let (value, fill) = match node {
            Node::Scalar { scalar, .. } => (scalar.into_value().map_err(|e| at(&e, &mark))?, None),
            Node::Tree(tree) if tree.holes.is_empty() => (tree.value, None),
            Node::Tree(tree) => (Value::Null, Some(Rc::new(tree))),
            Node::Anchored(tree) | Node::Alias(tree) => (Value::Null, Some(tree)),
        };
        match &mut frame.content {
            Content::Seq(items) => {
                if let Some(fill) = fill {
                    let slot = Slot::Index(items.len());
                    frame.holes.push(Hole { slot, fill });
                }
                items.push(value);
            }
            Content::Map { map, key, .. } => match key.take() {
                Some(PendingKey::Name(name)) => {
                    if let Some(fill) = fill {
                        let slot = Slot::Key(name.clone());
                        frame.holes.push(Hole { slot, fill });
                    }
                    map.insert(name, value);
                }
                Some(PendingKey::Merge) | None => {
                    return Err(at("mapping value without a key", &mark));
                }
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
            Node::Tree(Tree { value, .. }) => return Err(self.collection_key(&value, &mark)),
            Node::Anchored(tree) | Node::Alias(tree) => {
                return Err(self.collection_key(&tree.value, &mark));
            }
        };
        if let Some(Frame {
            content: Content::Map { key, .. },
            weight,
            ..
        }) = self.stack.last_mut()
        {
            if let PendingKey::Name(name) = &pending {
                *weight = weight.saturating_add(string_weight(name));
            }
            *key = Some(pending);
        }
        Ok(())
    }

    fn collection_key(&self, value: &Value, mark: &Marker) -> String {
        let kind = if value.is_array() {
            "sequence"
        } else {
            "mapping"
        };
        let message = format!(
            "a mapping key must be a scalar, found a {kind} at {}",
            self.path()
        );
        at(&message, mark)
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

/// What copying a scalar costs: one unit, plus its bytes if it is a string.
fn scalar_weight(scalar: &Scalar) -> u64 {
    match scalar {
        Scalar::Str(s) => string_weight(s).saturating_add(1),
        _ => 1,
    }
}

/// The final value of a node (see [`materialize`]).
fn node_value(node: Node, copies: &mut usize) -> Result<Value, String> {
    Ok(match node {
        Node::Scalar { scalar, .. } => scalar.into_value()?,
        Node::Tree(tree) => materialize(tree, copies),
        Node::Anchored(tree) | Node::Alias(tree) => materialize(unshare(tree, copies), copies),
    })
}

/// In text that starts like JSON, an unquoted scalar is an error where a JSON dialect (JSON5,
/// JavaScript, Python's `json`) means something YAML would read as a string: a value `NaN` or
/// `Infinity` (any case, optional sign; also `inf`), and a `//` or `/*` comment in a key or
/// value (at the start of the scalar or after a space or tab, where YAML folded it in).
fn json_dialect_check(text: &str, is_key: bool) -> Result<(), String> {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    if !is_key
        && ["nan", "inf", "infinity"]
            .iter()
            .any(|word| unsigned.eq_ignore_ascii_case(word))
    {
        return Err(format!(
            "`{text}` is not a JSON number (JSON has no NaN or infinities; quote it to mean the \
             string)"
        ));
    }
    let comment = |marker: &str| {
        text.starts_with(marker)
            || text.contains(&format!(" {marker}"))
            || text.contains(&format!("\t{marker}"))
    };
    if comment("//") || comment("/*") {
        return Err(format!(
            "JSON has no comments: `{}` (quote it to mean the string, or use a YAML `#` \
             comment)",
            excerpt(text)
        ));
    }
    Ok(())
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
