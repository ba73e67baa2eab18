//! Sets of field paths: what a manager owns, what an apply touched, what changed.

use super::element::PathElement;
use super::path::Path;

/// A set of field paths, held as a tree: at each level the elements that are members of the
/// set (paths ending here) and the elements whose subtrees hold members (paths going on).
/// An element can be both: `.spec` owned, and fields below it too.
///
/// Both lists are sorted and hold no element twice, so that every operation is a linear merge
/// of two sorted lists, level by level; a child's subtree is never empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Set {
    members: Vec<PathElement>,
    children: Vec<(PathElement, Set)>,
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
        Set::from_sorted(&refs)
    }

    /// The set of sorted, distinct, non-empty paths.
    fn from_sorted(paths: &[&[PathElement]]) -> Set {
        let mut set = Set::new();
        let mut i = 0;
        while i < paths.len() {
            let head = &paths[i][0];
            // The paths starting with `head` are contiguous: the one that ends there (a
            // member) sorts first, then the longer ones.
            let mut j = i;
            let mut rest: Vec<&[PathElement]> = Vec::new();
            while j < paths.len() && &paths[j][0] == head {
                if paths[j].len() == 1 {
                    set.members.push(head.clone());
                } else {
                    rest.push(&paths[j][1..]);
                }
                j += 1;
            }
            if !rest.is_empty() {
                set.children.push((head.clone(), Set::from_sorted(&rest)));
            }
            i = j;
        }
        set
    }

    /// Adds `path` (not its parents). The root path is not tracked.
    pub fn insert(&mut self, path: &Path) {
        let Some((last, parents)) = path.0.split_last() else {
            return;
        };
        let mut set = self;
        for element in parents {
            set = set.descend(element);
        }
        if let Err(at) = set.members.binary_search(last) {
            set.members.insert(at, last.clone());
        }
    }

    /// The subtree under `element`, created empty if missing. Callers insert below it.
    fn descend(&mut self, element: &PathElement) -> &mut Set {
        let at = match self.children.binary_search_by(|(e, _)| e.cmp(element)) {
            Ok(at) => at,
            Err(at) => {
                self.children.insert(at, (element.clone(), Set::new()));
                at
            }
        };
        &mut self.children[at].1
    }

    /// Adds an element as a member of this level. Elements must come in increasing order.
    pub(crate) fn push_member(&mut self, element: PathElement) {
        debug_assert!(self.members.last().is_none_or(|last| *last < element));
        self.members.push(element);
    }

    /// Adds the subtree under an element. Elements must come in increasing order; an empty
    /// subtree is left out.
    pub(crate) fn push_child(&mut self, element: PathElement, child: Set) {
        debug_assert!(self.children.last().is_none_or(|(last, _)| *last < element));
        if !child.is_empty() {
            self.children.push((element, child));
        }
    }

    /// The members at this level: paths of one element.
    pub fn members(&self) -> &[PathElement] {
        &self.members
    }

    /// The subtrees at this level, by their first element.
    pub fn children(&self) -> &[(PathElement, Set)] {
        &self.children
    }

    /// Whether `path` is in the set.
    pub fn has(&self, path: &Path) -> bool {
        let Some((last, parents)) = path.0.split_last() else {
            return false;
        };
        let mut set = self;
        for element in parents {
            match set.child(element) {
                Some(child) => set = child,
                None => return false,
            }
        }
        set.members.binary_search(last).is_ok()
    }

    /// The subtree under `element` (paths that go on past it, without it).
    pub fn child(&self, element: &PathElement) -> Option<&Set> {
        self.children
            .binary_search_by(|(e, _)| e.cmp(element))
            .ok()
            .map(|at| &self.children[at].1)
    }

    /// Whether the set holds no path.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.iter().all(|(_, c)| c.is_empty())
    }

    /// How many paths the set holds.
    pub fn len(&self) -> usize {
        self.members.len() + self.children.iter().map(|(_, c)| c.len()).sum::<usize>()
    }

    /// Every path of the set: this level's members, then each subtree's paths.
    pub fn paths(&self) -> Vec<Path> {
        let mut out = Vec::with_capacity(self.len());
        self.collect_paths(&mut Vec::new(), &mut out);
        out
    }

    fn collect_paths(&self, prefix: &mut Vec<PathElement>, out: &mut Vec<Path>) {
        for member in &self.members {
            let mut path = prefix.clone();
            path.push(member.clone());
            out.push(Path(path));
        }
        for (element, child) in &self.children {
            prefix.push(element.clone());
            child.collect_paths(prefix, out);
            prefix.pop();
        }
    }

    /// The paths in `self` or `other`.
    pub fn union(&self, other: &Set) -> Set {
        Set {
            members: merge(&self.members, &other.members, Pick::Either),
            children: merge_children(&self.children, &other.children, |a, b| a.union(b)),
        }
    }

    /// The paths in both `self` and `other`.
    pub fn intersection(&self, other: &Set) -> Set {
        Set {
            members: merge(&self.members, &other.members, Pick::Both),
            children: both_children(&self.children, &other.children, |a, b| a.intersection(b)),
        }
    }

    /// The paths of `self` that are not in `other`. A parent is not its children: removing
    /// `.spec` leaves `.spec.replicas`, removing `.spec.replicas` leaves `.spec`.
    pub fn difference(&self, other: &Set) -> Set {
        Set {
            members: merge(&self.members, &other.members, Pick::OnlyLeft),
            children: left_children(
                &self.children,
                &other.children,
                |_| false,
                |a, b| a.difference(b),
            ),
        }
    }

    /// The paths of `self` that are neither in `other` nor below a path of `other`: removing
    /// `.spec` removes `.spec.replicas` too.
    pub fn recursive_difference(&self, other: &Set) -> Set {
        Set {
            members: merge(&self.members, &other.members, Pick::OnlyLeft),
            children: left_children(
                &self.children,
                &other.children,
                |e| other.members.binary_search(e).is_ok(),
                |a, b| a.recursive_difference(b),
            ),
        }
    }

    /// The paths of the set that have no path of the set below them.
    pub fn leaves(&self) -> Set {
        let mut members = Vec::with_capacity(self.members.len());
        let mut c = 0;
        for member in &self.members {
            while c < self.children.len() && self.children[c].0 < *member {
                c += 1;
            }
            let is_parent = c < self.children.len() && self.children[c].0 == *member;
            if !is_parent {
                members.push(member.clone());
            }
        }
        Set {
            members,
            children: self
                .children
                .iter()
                .map(|(e, child)| (e.clone(), child.leaves()))
                .collect(),
        }
    }

    /// The set with every path prefixed by `element`.
    pub fn under(self, element: PathElement) -> Set {
        let mut set = Set::new();
        set.push_child(element, self);
        set
    }
}

/// Which elements of two sorted lists a merge keeps.
#[derive(Clone, Copy)]
enum Pick {
    Either,
    Both,
    OnlyLeft,
}

/// Merges two sorted lists of distinct elements into a sorted list of distinct elements.
fn merge(a: &[PathElement], b: &[PathElement], pick: Pick) -> Vec<PathElement> {
    let mut out = Vec::with_capacity(match pick {
        Pick::Either => a.len() + b.len(),
        _ => a.len(),
    });
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                if !matches!(pick, Pick::Both) {
                    out.push(a[i].clone());
                }
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                if matches!(pick, Pick::Either) {
                    out.push(b[j].clone());
                }
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                if !matches!(pick, Pick::OnlyLeft) {
                    out.push(a[i].clone());
                }
                i += 1;
                j += 1;
            }
        }
    }
    if !matches!(pick, Pick::Both) {
        out.extend_from_slice(&a[i..]);
    }
    if matches!(pick, Pick::Either) {
        out.extend_from_slice(&b[j..]);
    }
    out
}

type Children = Vec<(PathElement, Set)>;

/// The subtrees of either side, those of both combined by `both`.
fn merge_children(a: &Children, b: &Children, both: impl Fn(&Set, &Set) -> Set) -> Children {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j].clone());
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push((a[i].0.clone(), both(&a[i].1, &b[j].1)));
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// The subtrees under elements both sides have, combined by `both`, the empty ones left out.
fn both_children(a: &Children, b: &Children, both: impl Fn(&Set, &Set) -> Set) -> Children {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let set = both(&a[i].1, &b[j].1);
                if !set.is_empty() {
                    out.push((a[i].0.clone(), set));
                }
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// The subtrees of the left side but those under an element `dropped` says to drop, those
/// the right side has too reduced by `diff` (and left out when that empties them).
fn left_children(
    a: &Children,
    b: &Children,
    dropped: impl Fn(&PathElement) -> bool,
    diff: impl Fn(&Set, &Set) -> Set,
) -> Children {
    let mut out = Vec::with_capacity(a.len());
    let mut j = 0;
    for (element, set) in a {
        if dropped(element) {
            continue;
        }
        while j < b.len() && b[j].0 < *element {
            j += 1;
        }
        if j < b.len() && b[j].0 == *element {
            let rest = diff(set, &b[j].1);
            if !rest.is_empty() {
                out.push((element.clone(), rest));
            }
        } else {
            out.push((element.clone(), set.clone()));
        }
    }
    out
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
