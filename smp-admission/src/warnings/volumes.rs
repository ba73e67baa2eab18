//! A pod's volumes: retired volume plugins, ephemeral claims' storage sizes, and files of
//! one volume written to overlapping paths (`warningsForOverlappingVirtualPaths`), where the
//! last key written wins or the kubelet fails with "is a directory".

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::sink::Sink;
use super::storage;
use crate::validation::field::{Path, go_quote};
use crate::validation::read;

/// Each retired plugin with the server's words for it, in the order the server checks them
/// (the ephemeral claim comes between `glusterfs` and `cephfs`).
const RETIRED_BEFORE_EPHEMERAL: &[(&str, &str)] = &[
    (
        "photonPersistentDisk",
        "deprecated in v1.11, non-functional in v1.16+",
    ),
    // GitRepoVolumeDriver is off by default in v1.34.
    (
        "gitRepo",
        "deprecated in v1.11, and disabled by default in v1.33+",
    ),
    ("scaleIO", "deprecated in v1.16, non-functional in v1.22+"),
    ("flocker", "deprecated in v1.22, non-functional in v1.25+"),
    ("storageos", "deprecated in v1.22, non-functional in v1.25+"),
    ("quobyte", "deprecated in v1.22, non-functional in v1.25+"),
    ("glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
];

const RETIRED_AFTER_EPHEMERAL: &[(&str, &str)] = &[
    ("cephfs", "deprecated in v1.28, non-functional in v1.31+"),
    ("rbd", "deprecated in v1.28, non-functional in v1.31+"),
];

/// The path the server prints for a plugin: its Go field name lowercased at the start, which
/// for StorageOS is `storageOS`, not the JSON name.
fn printed_name(json: &str) -> &str {
    if json == "storageos" {
        "storageOS"
    } else {
        json
    }
}

/// The warnings of `spec.volumes`, under `spec` (the pod's or a template's).
pub(super) fn volumes(volumes: &[Value], spec: &Path, out: &mut Sink) {
    let list = spec.child("volumes");
    for (i, volume) in volumes.iter().enumerate() {
        let at = list.index(i);
        let retired = |table: &[(&str, &str)], out: &mut Sink| {
            for (name, msg) in table {
                if read::is_set(volume, name) {
                    out.push(format!("{}: {msg}", at.child(printed_name(name))));
                }
            }
        };
        retired(RETIRED_BEFORE_EPHEMERAL, out);
        let template = volume
            .get("ephemeral")
            .and_then(|e| e.get("volumeClaimTemplate"))
            .filter(|t| t.is_object());
        if let Some(template) = template {
            let ephemeral = at.child("ephemeral");
            let template_path = ephemeral.child("volumeClaimTemplate");
            storage::claim_spec(template.get("spec"), &template_path.child("spec"), out);
        }
        retired(RETIRED_AFTER_EPHEMERAL, out);
    }
    overlapping_paths(volumes, out);
}

/// A path a volume writes and where it comes from (for a projected volume's sources).
struct Written<'a> {
    path: &'a str,
    source: String,
}

impl Written<'_> {
    fn describe(&self) -> String {
        let mut out = String::new();
        go_quote(self.path, &mut out);
        if !self.source.is_empty() {
            out.push_str(&format!(" ({})", self.source));
        }
        out
    }
}

fn quoted(s: &str) -> String {
    let mut out = String::new();
    go_quote(s, &mut out);
    out
}

fn item_paths<'a>(items: &'a [Value], source: &str) -> Vec<Written<'a>> {
    items
        .iter()
        .map(|item| Written {
            path: read::text(item, "path"),
            source: source.to_owned(),
        })
        .collect()
}

fn overlapping_paths(volumes: &[Value], out: &mut Sink) {
    for volume in volumes {
        if out.is_full() {
            return;
        }
        let name = quoted(read::text(volume, "name"));
        let prefix = |desc: &str| format!("volume {name} ({desc}): overlapping paths: ");
        for (member, kind, name_key) in [
            ("configMap", "ConfigMap", "name"),
            ("secret", "Secret", "secretName"),
        ] {
            let Some(source) = volume.get(member).filter(|s| s.is_object()) else {
                continue;
            };
            // A list that is absent (nil) is skipped; an empty one is walked.
            let Some(items) = source.get("items").and_then(Value::as_array) else {
                continue;
            };
            let desc = format!("{kind} {}", quoted(read::text(source, name_key)));
            collisions(item_paths(items, ""), &prefix(&desc), out);
        }
        if let Some(items) = volume
            .get("downwardAPI")
            .filter(|s| s.is_object())
            .and_then(|s| s.get("items"))
            .and_then(Value::as_array)
        {
            collisions(item_paths(items, ""), &prefix("DownwardAPI"), out);
        }
        let Some(projected) = volume.get("projected").filter(|p| p.is_object()) else {
            continue;
        };
        let mut written = Vec::new();
        for source in read::list(projected, "sources") {
            let empty = source
                .as_object()
                .is_none_or(|o| o.values().all(Value::is_null));
            if empty {
                out.push(format!("volume {name} (Projected) has no sources provided"));
                continue;
            }
            written.extend(projection_paths(source));
        }
        collisions(written, &prefix("Projected"), out);
    }
}

/// The paths one projection writes: the first of its sources that writes any, in the
/// server's order of checking them.
fn projection_paths(source: &Value) -> Vec<Written<'_>> {
    let set = |key: &str| source.get(key).filter(|s| s.is_object());
    if let Some(cm) = set("configMap")
        && let Some(list) = items_of(cm)
    {
        let desc = format!("ConfigMap {}", quoted(read::text(cm, "name")));
        return item_paths(list, &desc);
    }
    if let Some(secret) = set("secret")
        && let Some(list) = items_of(secret)
    {
        let desc = format!("Secret {}", quoted(read::text(secret, "name")));
        return item_paths(list, &desc);
    }
    if let Some(api) = set("downwardAPI")
        && let Some(list) = items_of(api)
    {
        return item_paths(list, "DownwardAPI");
    }
    if let Some(token) = set("serviceAccountToken") {
        return vec![Written {
            path: read::text(token, "path"),
            source: "ServiceAccountToken".to_owned(),
        }];
    }
    if let Some(bundle) = set("clusterTrustBundle") {
        let name = read::opt_text(bundle, "name")
            .or_else(|| read::opt_text(bundle, "signerName"))
            .unwrap_or("");
        return vec![Written {
            path: read::text(bundle, "path"),
            source: format!("ClusterTrustBundle {}", quoted(name)),
        }];
    }
    if let Some(cert) = set("podCertificate") {
        return [
            ("certificateChainPath", "PodCertificate chain"),
            ("keyPath", "PodCertificate key"),
            ("credentialBundlePath", "PodCertificate credential bundle"),
        ]
        .into_iter()
        .filter_map(|(key, desc)| {
            let path = read::text(cert, key);
            (!path.is_empty()).then(|| Written {
                path,
                source: desc.to_owned(),
            })
        })
        .collect();
    }
    Vec::new()
}

/// The paths already written, as a tree of path segments: a new path collides with every
/// earlier one on its way down (an ancestor or the same path) and with every earlier one
/// below it. The tree finds both without comparing each pair of paths.
#[derive(Default)]
struct Tree<'a> {
    nodes: Vec<Node<'a>>,
}

#[derive(Default)]
struct Node<'a> {
    children: HashMap<&'a str, usize>,
    /// The indices of the paths that end here.
    ends: Vec<usize>,
}

impl<'a> Tree<'a> {
    fn root(&mut self) -> usize {
        if self.nodes.is_empty() {
            self.nodes.push(Node::default());
        }
        0
    }

    /// The indices of the earlier paths that collide with `path`, in the order written.
    fn collisions(&mut self, path: &'a str) -> Vec<usize> {
        let mut found = Vec::new();
        let mut at = Some(self.root());
        for segment in path.split('/') {
            let Some(node) = at else { break };
            at = self
                .nodes
                .get(node)
                .and_then(|n| n.children.get(segment).copied());
            if let Some(next) = at.and_then(|n| self.nodes.get(n)) {
                found.extend_from_slice(&next.ends);
            }
        }
        // Everything below the path itself (the path's own node was counted above).
        if let Some(top) = at {
            let mut stack: Vec<usize> = self
                .nodes
                .get(top)
                .map(|n| n.children.values().copied().collect())
                .unwrap_or_default();
            while let Some(node) = stack.pop() {
                if let Some(n) = self.nodes.get(node) {
                    found.extend_from_slice(&n.ends);
                    stack.extend(n.children.values().copied());
                }
            }
        }
        found.sort_unstable();
        found
    }

    fn insert(&mut self, path: &'a str, index: usize) {
        let mut at = self.root();
        for segment in path.split('/') {
            let next = self
                .nodes
                .get(at)
                .and_then(|n| n.children.get(segment).copied());
            at = match next {
                Some(next) => next,
                None => {
                    let id = self.nodes.len();
                    self.nodes.push(Node::default());
                    if let Some(n) = self.nodes.get_mut(at) {
                        n.children.insert(segment, id);
                    }
                    id
                }
            };
        }
        if let Some(n) = self.nodes.get_mut(at) {
            n.ends.push(index);
        }
    }
}

/// `checkVolumeMappingForOverlap`: each path (trailing slashes dropped) against the earlier
/// ones, each clash reported after `prefix`; an empty path clashes with nothing. A path
/// written again from the same source is not added to the tree a second time: every clash
/// with it reads as one with its first writing, a text the server sends only once.
fn collisions(mut written: Vec<Written<'_>>, prefix: &str, out: &mut Sink) {
    for w in &mut written {
        w.path = w.path.trim_end_matches('/');
    }
    let mut tree = Tree::default();
    let mut inserted = HashSet::new();
    for (i, w) in written.iter().enumerate() {
        if out.is_full() {
            return;
        }
        if w.path.is_empty() {
            continue;
        }
        let needle = w.describe();
        for earlier in tree.collisions(w.path) {
            if let Some(e) = written.get(earlier) {
                out.push(format!("{prefix}{needle} with {}", e.describe()));
            }
        }
        if inserted.insert((w.path, w.source.as_str())) {
            tree.insert(w.path, i);
        }
    }
}

/// A source's `items` when the list is there (a nil list is not walked).
fn items_of(source: &Value) -> Option<&[Value]> {
    source
        .get("items")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&'static str]) -> Vec<String> {
        let mut out = Sink::default();
        let written = list
            .iter()
            .map(|p| Written {
                path: p,
                source: String::new(),
            })
            .collect();
        collisions(written, "", &mut out);
        out.into_sent()
    }

    #[test]
    fn overlaps_are_ancestors_descendants_and_equals_in_order() {
        assert!(paths(&["a", "b", "ab", "a.b"]).is_empty());
        assert_eq!(paths(&["a", "a", "a"]), [r#""a" with "a""#]);
        assert_eq!(paths(&["a/b", "a/"]), [r#""a" with "a/b""#]);
        assert_eq!(
            paths(&["a/b/c", "a", "a/b"]),
            [
                r#""a" with "a/b/c""#,
                r#""a/b" with "a/b/c""#,
                r#""a/b" with "a""#
            ]
        );
        assert!(paths(&["", ""]).is_empty());
    }

    /// A list of one path written over and over clashes pairwise upstream; the texts are
    /// all the same, and the work here stays linear.
    #[test]
    fn many_identical_paths_are_cheap() {
        let many = vec!["same/path"; 200_000];
        let start = std::time::Instant::now();
        assert_eq!(paths(&many), [r#""same/path" with "same/path""#]);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }
}
