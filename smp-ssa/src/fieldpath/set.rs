//! Sets of field paths: what a manager owns, what an apply touched, what changed.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use super::element::{FieldName, KeyFields, PathElement};
use super::path::Path;

/// A set of field paths, held as a tree laid out flat: every node of the tree in one vector,
/// each followed by its subtree, siblings sorted by element (as the server orders them). A node
/// is a member of the set (the path ending there) or only on the way to members, or both:
/// `.spec` owned, and fields below it too.
///
/// One vector per set keeps reading, copying and combining sets to few allocations, and every
/// operation a single linear merge of the two trees; no subtree is empty, so equal sets are
/// equal vectors.
///
/// The vector is shared: copying a set (a manager's fields kept as they were read, to tell
/// later whether they changed) costs a reference count, and comparing a copy with its original
/// stops at the pointer.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Set {
    /// `None`: the empty set.
    nodes: Option<Arc<Vec<Node>>>,
}

/// One node: its element, whether the path ending here is a member, and how many nodes its
/// subtree holds (they follow it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Node {
    pub(crate) element: PathElement,
    pub(crate) member: bool,
    pub(crate) below: usize,
}

/// The siblings of one level (a run of nodes, each followed by its subtree), each with its
/// subtree.
pub(crate) fn siblings(nodes: &[Node]) -> impl Iterator<Item = (&Node, &[Node])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let node = nodes.get(at)?;
        let below = &nodes[at + 1..at + 1 + node.below];
        at += 1 + node.below;
        Some((node, below))
    })
}

impl Set {
    /// The empty set.
    pub fn new() -> Set {
        Set::default()
    }

    /// The set of these paths (the root path, which names the whole object, is not tracked and
    /// left out). Sorting them first makes this `n log n`.
    pub fn from_paths(paths: impl IntoIterator<Item = Path>) -> Set {
        let mut paths: Vec<Vec<PathElement>> = paths
            .into_iter()
            .map(|p| p.0)
            .filter(|p| !p.is_empty())
            .collect();
        paths.sort();
        paths.dedup();
        let refs: Vec<&[PathElement]> = paths.iter().map(Vec::as_slice).collect();
        let mut nodes = Vec::with_capacity(refs.len());
        from_sorted(&refs, &mut nodes);
        Set::from_nodes(nodes)
    }

    /// The set of these nodes.
    fn from_nodes(nodes: Vec<Node>) -> Set {
        Set {
            nodes: (!nodes.is_empty()).then(|| Arc::new(nodes)),
        }
    }

    /// The nodes, in order.
    pub(crate) fn nodes(&self) -> &[Node] {
        self.nodes.as_deref().map_or(&[], Vec::as_slice)
    }

    /// The nodes, to change members in place (the shape stays); copied first if shared.
    pub(crate) fn nodes_mut(&mut self) -> &mut [Node] {
        match &mut self.nodes {
            Some(nodes) => Arc::make_mut(nodes).as_mut_slice(),
            None => &mut [],
        }
    }

    /// Adds `path` (not its parents). The root path is not tracked. This moves the nodes after
    /// it: to build a set of many paths, use [`Set::from_paths`].
    pub fn insert(&mut self, path: &Path) {
        if path.0.is_empty() || self.has(path) {
            return;
        }
        *self = self.union(&Set::from_paths([path.clone()]));
    }

    /// Whether `path` is in the set. Each level is searched through its siblings.
    pub fn has(&self, path: &Path) -> bool {
        let Some((last, parents)) = path.0.split_last() else {
            return false;
        };
        let mut level = self.nodes();
        for element in parents {
            match find(level, element) {
                Some((_, below)) => level = below,
                None => return false,
            }
        }
        find(level, last).is_some_and(|(node, _)| node.member)
    }

    /// The subtree under `element` (paths that go on past it, without it), copied out.
    pub fn child(&self, element: &PathElement) -> Option<Set> {
        find(self.nodes(), element)
            .and_then(|(_, below)| (!below.is_empty()).then(|| Set::from_nodes(below.to_vec())))
    }

    /// Whether the set holds no path.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_none()
    }

    /// How many paths the set holds.
    pub fn len(&self) -> usize {
        self.nodes().iter().filter(|n| n.member).count()
    }

    /// Every path of the set: each level's members, then each subtree's paths.
    pub fn paths(&self) -> Vec<Path> {
        let mut out = Vec::with_capacity(self.len());
        collect_paths(self.nodes(), &mut Vec::new(), &mut out);
        out
    }

    /// The paths in `self` or `other`.
    pub fn union(&self, other: &Set) -> Set {
        let mut out = Vec::with_capacity(self.nodes().len() + other.nodes().len());
        union(self.nodes(), other.nodes(), &mut out);
        Set::from_nodes(out)
    }

    /// The paths in both `self` and `other`.
    pub fn intersection(&self, other: &Set) -> Set {
        let mut out = Vec::new();
        intersection(self.nodes(), other.nodes(), &mut out);
        Set::from_nodes(out)
    }

    /// The paths of `self` that are not in `other`. A parent is not its children: removing
    /// `.spec` leaves `.spec.replicas`, removing `.spec.replicas` leaves `.spec`.
    pub fn difference(&self, other: &Set) -> Set {
        let mut out = Vec::with_capacity(self.nodes().len());
        difference(self.nodes(), other.nodes(), false, &mut out);
        Set::from_nodes(out)
    }

    /// The paths of `self` that are neither in `other` nor below a path of `other`: removing
    /// `.spec` removes `.spec.replicas` too.
    pub fn recursive_difference(&self, other: &Set) -> Set {
        let mut out = Vec::with_capacity(self.nodes().len());
        difference(self.nodes(), other.nodes(), true, &mut out);
        Set::from_nodes(out)
    }

    /// The paths of the set that have no path of the set below them.
    pub fn leaves(&self) -> Set {
        let mut out = Vec::with_capacity(self.nodes().len());
        leaves(self.nodes(), &mut out);
        Set::from_nodes(out)
    }

    /// The set with every path prefixed by `element`.
    pub fn under(self, element: PathElement) -> Set {
        let Some(below) = self.nodes else {
            return Set::new();
        };
        let mut nodes = Vec::with_capacity(below.len() + 1);
        nodes.push(Node {
            element,
            member: false,
            below: below.len(),
        });
        match Arc::try_unwrap(below) {
            Ok(below) => nodes.extend(below),
            Err(shared) => nodes.extend_from_slice(&shared),
        }
        Set::from_nodes(nodes)
    }
}

/// A set prints as the list of its paths.
impl fmt::Debug for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.paths().iter().map(ToString::to_string))
            .finish()
    }
}

/// The sibling with `element`, and its subtree.
fn find<'a>(level: &'a [Node], element: &PathElement) -> Option<(&'a Node, &'a [Node])> {
    for (node, below) in siblings(level) {
        match node.element.cmp(element) {
            Ordering::Less => {}
            Ordering::Equal => return Some((node, below)),
            Ordering::Greater => return None,
        }
    }
    None
}

/// For each of `elements`, its sibling in `level` (if any): one sort and one pass over the
/// level, not a search per element.
pub(crate) fn find_all<'a>(
    level: &'a [Node],
    elements: &[Option<&PathElement>],
) -> Vec<Option<Sibling<'a>>> {
    let mut order: Vec<usize> = (0..elements.len())
        .filter(|i| elements[*i].is_some())
        .collect();
    order.sort_by(|a, b| elements[*a].cmp(&elements[*b]));
    let mut out = vec![None; elements.len()];
    let mut level = siblings(level).peekable();
    for i in order {
        let Some(element) = elements[i] else { continue };
        while level.next_if(|(node, _)| node.element < *element).is_some() {}
        if let Some(&(node, below)) = level.peek() {
            if node.element == *element {
                out[i] = Some((node, below));
            }
        }
    }
    out
}

/// The nodes of sorted, distinct, non-empty paths.
fn from_sorted(paths: &[&[PathElement]], out: &mut Vec<Node>) {
    let mut i = 0;
    while i < paths.len() {
        let head = &paths[i][0];
        // The paths starting with `head` are contiguous: the one that ends there (a member)
        // sorts first, then the longer ones.
        let member = paths[i].len() == 1;
        let mut j = i;
        let mut rest: Vec<&[PathElement]> = Vec::new();
        while j < paths.len() && &paths[j][0] == head {
            if paths[j].len() > 1 {
                rest.push(&paths[j][1..]);
            }
            j += 1;
        }
        let at = open(out, head.clone());
        from_sorted(&rest, out);
        close(out, at, member);
        i = j;
    }
}

/// Starts a node (its subtree is pushed after it, then [`close`] ends it).
#[inline]
pub(crate) fn open(out: &mut Vec<Node>, element: PathElement) -> usize {
    out.push(Node {
        element,
        member: false,
        below: 0,
    });
    out.len() - 1
}

/// Ends the node at `at`: its subtree is what was pushed since; a node that is neither a member
/// nor above one is dropped.
#[inline]
pub(crate) fn close(out: &mut Vec<Node>, at: usize, member: bool) {
    let below = out.len() - at - 1;
    if below == 0 && !member {
        out.pop();
    } else {
        out[at].member = member;
        out[at].below = below;
    }
}

fn collect_paths(level: &[Node], prefix: &mut Vec<PathElement>, out: &mut Vec<Path>) {
    for (node, _) in siblings(level) {
        if node.member {
            let mut path = Vec::with_capacity(prefix.len() + 1);
            path.extend_from_slice(prefix);
            path.push(node.element.clone());
            out.push(Path(path));
        }
    }
    for (node, below) in siblings(level) {
        if !below.is_empty() {
            prefix.push(node.element.clone());
            collect_paths(below, prefix, out);
            prefix.pop();
        }
    }
}

/// A node and its subtree.
pub(crate) type Sibling<'a> = (&'a Node, &'a [Node]);

/// The siblings of two levels side by side, in element order: each from one level, the other
/// or both.
fn zip<'a>(
    a: &'a [Node],
    b: &'a [Node],
) -> impl Iterator<Item = (Option<Sibling<'a>>, Option<Sibling<'a>>)> {
    let (mut a, mut b) = (siblings(a).peekable(), siblings(b).peekable());
    std::iter::from_fn(move || {
        let order = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => x.0.element.cmp(&y.0.element),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => return None,
        };
        Some(match order {
            Ordering::Less => (a.next(), None),
            Ordering::Greater => (None, b.next()),
            Ordering::Equal => (a.next(), b.next()),
        })
    })
}

/// A node and its subtree, copied.
fn copy(out: &mut Vec<Node>, node: &Node, below: &[Node]) {
    out.push(node.clone());
    out.extend_from_slice(below);
}

fn union(a: &[Node], b: &[Node], out: &mut Vec<Node>) {
    for pair in zip(a, b) {
        match pair {
            (Some((x, below_x)), Some((y, below_y))) => {
                let at = open(out, x.element.clone());
                union(below_x, below_y, out);
                close(out, at, x.member || y.member);
            }
            (Some((n, below)), None) | (None, Some((n, below))) => copy(out, n, below),
            (None, None) => {}
        }
    }
}

fn intersection(a: &[Node], b: &[Node], out: &mut Vec<Node>) {
    for pair in zip(a, b) {
        if let (Some((x, below_x)), Some((y, below_y))) = pair {
            let at = open(out, x.element.clone());
            intersection(below_x, below_y, out);
            close(out, at, x.member && y.member);
        }
    }
}

/// `a` without `b`'s paths; with `recursive`, without what is below them too.
fn difference(a: &[Node], b: &[Node], recursive: bool, out: &mut Vec<Node>) {
    for pair in zip(a, b) {
        match pair {
            (Some((x, below_x)), Some((y, below_y))) => {
                if recursive && y.member {
                    continue;
                }
                let at = open(out, x.element.clone());
                difference(below_x, below_y, recursive, out);
                close(out, at, x.member && !y.member);
            }
            (Some((x, below)), None) => copy(out, x, below),
            _ => {}
        }
    }
}

fn leaves(level: &[Node], out: &mut Vec<Node>) {
    for (node, below) in siblings(level) {
        let at = open(out, node.element.clone());
        leaves(below, out);
        close(out, at, node.member && below.is_empty());
    }
}

/// Builds a set node by node, as a reader or a walk meets them: [`Builder::open`] a node,
/// build below it, [`Builder::close`] it; [`Builder::end_level`] once a level's siblings are
/// all in, which sorts them if they came out of order.
#[derive(Default)]
pub(crate) struct Builder {
    nodes: Vec<Node>,
}

impl Builder {
    pub(crate) fn with_capacity(nodes: usize) -> Builder {
        Builder {
            nodes: Vec::with_capacity(nodes),
        }
    }

    /// Where the next level starts (for [`Builder::end_level`]).
    #[inline]
    pub(crate) fn mark(&self) -> usize {
        self.nodes.len()
    }

    #[inline]
    pub(crate) fn open(&mut self, element: PathElement) -> usize {
        open(&mut self.nodes, element)
    }

    /// [`Builder::open`] for the field `name`. The name is written into the node in place: built
    /// apart and moved in, its bytes would be read back wide just after being written narrow,
    /// which stalls the processor on every field.
    #[inline]
    pub(crate) fn open_field(&mut self, name: &str) -> usize {
        let at = self.open_empty();
        if let PathElement::Field(field) = &mut self.nodes[at].element {
            field.push_str(name);
        }
        at
    }

    /// [`Builder::open`] for the key of a list map's item, written into the node in place for
    /// the same reason.
    #[inline]
    pub(crate) fn open_key(&mut self, fields: KeyFields) -> usize {
        let at = self.open_empty();
        self.nodes[at].element = PathElement::Key(fields);
        at
    }

    /// Opens a node for an empty field name, pushed from a constant (copied from memory, not
    /// from bytes just written).
    #[inline]
    fn open_empty(&mut self) -> usize {
        const EMPTY: Node = Node {
            element: PathElement::Field(FieldName::EMPTY),
            member: false,
            below: 0,
        };
        self.nodes.push(EMPTY);
        self.nodes.len() - 1
    }

    #[inline]
    pub(crate) fn close(&mut self, at: usize, member: bool) {
        close(&mut self.nodes, at, member)
    }

    /// [`Builder::close`] for a member with nothing below it (most nodes), which has nothing to
    /// count or test.
    #[inline]
    pub(crate) fn close_member(&mut self, at: usize) {
        if let Some(node) = self.nodes.get_mut(at) {
            node.member = true;
        }
    }

    /// Drops every node added since `mark` (what checking an atomic value's insides added).
    pub(crate) fn truncate(&mut self, mark: usize) {
        self.nodes.truncate(mark);
    }

    /// Whether the node opened at `at` has anything below it yet.
    #[inline]
    pub(crate) fn has_below(&self, at: usize) -> bool {
        self.nodes.len() > at + 1
    }

    /// Ends the level that started at `start`. Siblings out of order are sorted; an element
    /// met twice is one node, a member if either was, whose subtree is the last non-empty one
    /// (as the server reads a `FieldsV1` document with a repeated key).
    pub(crate) fn end_level(&mut self, start: usize) {
        let level = &self.nodes[start..];
        let mut sorted = true;
        let mut previous: Option<&PathElement> = None;
        for (node, _) in siblings(level) {
            if previous.is_some_and(|p| !before(p, &node.element)) {
                sorted = false;
                break;
            }
            previous = Some(&node.element);
        }
        if sorted {
            return;
        }
        let tail: Vec<Node> = self.nodes.split_off(start);
        let mut blocks: Vec<(&Node, &[Node])> = siblings(&tail).collect();
        blocks.sort_by(|x, y| x.0.element.cmp(&y.0.element));
        let mut i = 0;
        while i < blocks.len() {
            let mut j = i;
            let mut member = false;
            let mut below: &[Node] = &[];
            while j < blocks.len() && blocks[j].0.element == blocks[i].0.element {
                member |= blocks[j].0.member;
                if !blocks[j].1.is_empty() {
                    below = blocks[j].1;
                }
                j += 1;
            }
            self.nodes.push(Node {
                element: blocks[i].0.element.clone(),
                member,
                below: below.len(),
            });
            self.nodes.extend_from_slice(below);
            i = j;
        }
    }

    pub(crate) fn finish(self) -> Set {
        Set::from_nodes(self.nodes)
    }
}

/// Whether `a` comes before `b`; two fields, the most common siblings, compared here.
#[inline]
fn before(a: &PathElement, b: &PathElement) -> bool {
    match (a, b) {
        (PathElement::Field(a), PathElement::Field(b)) => {
            super::value::compare_bytes(a.as_bytes(), b.as_bytes()).is_lt()
        }
        _ => a < b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(fields: &[&str]) -> Path {
        Path::fields(fields.iter().copied())
    }

    fn set(paths: &[&[&str]]) -> Set {
        Set::from_paths(paths.iter().map(|f| p(f)))
    }

    #[test]
    fn built_by_insertion_or_at_once_alike() {
        let paths = [
            p(&["b", "c"]),
            p(&["a"]),
            p(&["b"]),
            p(&["a", "x", "y"]),
            p(&["b", "c"]),
        ];
        let mut inserted = Set::new();
        for path in &paths {
            inserted.insert(path);
        }
        assert_eq!(inserted, Set::from_paths(paths.clone()));
        assert_eq!(inserted.len(), 4);
        assert!(inserted.has(&p(&["a", "x", "y"])));
        assert!(!inserted.has(&p(&["a", "x"])));
        assert!(!inserted.has(&Path::root()));
        let listed: Vec<String> = inserted.paths().iter().map(|p| p.to_string()).collect();
        assert_eq!(listed, [".a", ".b", ".a.x.y", ".b.c"]);
    }

    #[test]
    fn union_intersection_difference() {
        let a = set(&[&["a"], &["b", "c"], &["b", "d"]]);
        let b = set(&[&["b", "c"], &["e"]]);
        assert_eq!(
            a.union(&b),
            set(&[&["a"], &["b", "c"], &["b", "d"], &["e"]])
        );
        assert_eq!(a.intersection(&b), set(&[&["b", "c"]]));
        assert_eq!(a.difference(&b), set(&[&["a"], &["b", "d"]]));
        assert_eq!(b.difference(&a), set(&[&["e"]]));
        // Intersection from union and differences.
        let ab = a.union(&b);
        assert_eq!(
            ab.difference(&a.difference(&b))
                .difference(&b.difference(&a)),
            a.intersection(&b)
        );
    }

    #[test]
    fn a_parent_is_not_its_children_except_recursively() {
        let parent = set(&[&["a", "b"]]);
        let child = set(&[&["a", "b", "c"]]);
        assert_eq!(parent.difference(&child), parent);
        assert_eq!(child.difference(&parent), child);
        assert!(child.recursive_difference(&parent).is_empty());
        let both = set(&[&["a"], &["a", "b"], &["c", "d"]]);
        assert_eq!(
            both.recursive_difference(&set(&[&["a"]])),
            set(&[&["c", "d"]])
        );
    }

    #[test]
    fn leaves_are_the_paths_nothing_is_below() {
        let s = set(&[&["a"], &["a", "b"], &["c"], &["a", "b", "d"]]);
        assert_eq!(s.leaves(), set(&[&["c"], &["a", "b", "d"]]));
    }

    #[test]
    fn elements_of_every_kind() {
        let path = Path::fields(["spec", "ports"])
            .child(PathElement::key([
                ("port", json!(80)),
                ("protocol", json!("TCP")),
            ]))
            .child(PathElement::field("name"));
        let value = Path::fields(["finalizers"]).child(PathElement::Value(json!("a")));
        let s = Set::from_paths([path.clone(), value.clone()]);
        assert!(s.has(&path) && s.has(&value));
        assert_eq!(s.len(), 2);
    }
}
