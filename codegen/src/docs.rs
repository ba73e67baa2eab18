//! The documentation written on the generated items: this project's own words, made from facts.
//!
//! The OpenAPI document describes each definition and property in prose; that prose is the
//! Kubernetes project's, and none of it is used here (the model does not even read it). What a
//! user of smp-types needs from us is what this library adds: for a type, which definition and
//! kinds it is and where the API reference explains it; for a field, its JSON name and what a
//! strategic merge patch does with it (merged by a key, merged as a set, replaced whole,
//! `$retainKeys`, its part in a union). Every sentence below is built from the field's type and
//! patch metadata, so the text cannot drift from the `#[patch]` and `#[union]` attributes
//! written beside it.

use std::collections::BTreeMap;

use crate::model::{Api, Body, Def, Field, Struct, Ty, Union, UnionRole};

/// The single-page API reference of the release the types are generated from.
const REFERENCE: &str = "https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.34/";

/// The kinds that every group lists (they describe requests, not stored objects).
const EVERYWHERE: [&str; 2] = ["DeleteOptions", "WatchEvent"];

/// Where the API reference documents each module's types: the anchor suffix
/// (`v1-apps`, `v1-networking-k8s-io`, `v1-core`, `v1-meta`) by module path, for the modules
/// whose group is known.
pub(crate) struct Reference {
    suffixes: BTreeMap<Vec<String>, String>,
}

impl Reference {
    /// The anchors of every module of `api` that holds a kind (other than the ones every group
    /// lists), and of the shared `meta/v1` types.
    pub(crate) fn of(api: &Api) -> Reference {
        let mut suffixes = BTreeMap::new();
        for def in api.defs.values() {
            let module = &def.path.module;
            if suffixes.contains_key(module) {
                continue;
            }
            let is_meta = module.len() >= 2 && module[module.len() - 2] == "meta";
            let suffix = if is_meta {
                module.last().map(|v| format!("{v}-meta"))
            } else {
                def.gvks
                    .iter()
                    .find(|g| !EVERYWHERE.contains(&g.kind.as_str()))
                    .map(|g| {
                        let group = if g.group.is_empty() {
                            "core".to_owned()
                        } else {
                            g.group.replace('.', "-")
                        };
                        format!("{}-{group}", g.version)
                    })
            };
            if let Some(suffix) = suffix {
                suffixes.insert(module.clone(), suffix);
            }
        }
        Reference { suffixes }
    }

    /// The reference page of a definition: its own anchor where the module's group is known,
    /// the page otherwise.
    fn url(&self, def: &Def) -> String {
        match self.suffixes.get(&def.path.module) {
            Some(suffix) => format!("{REFERENCE}#{}-{suffix}", def.path.ident.to_lowercase()),
            None => REFERENCE.to_owned(),
        }
    }
}

/// The paragraphs documenting a definition's Rust type (struct or opaque newtype).
pub(crate) fn type_doc(reference: &Reference, def: &Def) -> Vec<String> {
    let mut first = format!("Definition `{}`", def.name);
    let kinds: Vec<String> = def
        .gvks
        .iter()
        .map(|g| format!("`{}` `{}`", g.api_version(), g.kind))
        .collect();
    match kinds.len() {
        0 => first.push('.'),
        1 => first.push_str(&format!("; kind {}.", kinds[0])),
        n if n <= 4 => first.push_str(&format!("; kinds {}.", kinds.join(", "))),
        n => first.push_str(&format!(
            "; kind `{}` of {n} group-versions ({}, ...).",
            def.gvks[0].kind,
            kinds[..2].join(", ")
        )),
    }
    let mut paragraphs = vec![first];
    match &def.body {
        Body::Struct(s) => {
            paragraphs.push(format!(
                "Each field says how a strategic merge patch treats it. What the fields mean: \
                 [API reference]({}).",
                reference.url(def)
            ));
            for union in &s.unions {
                paragraphs.push(union_summary(union));
            }
        }
        Body::Opaque => paragraphs.push(format!(
            "The API document gives it no structure: any JSON value, patched as plain JSON \
             (objects merge key by key, lists are replaced whole). What it means: [API \
             reference]({}).",
            reference.url(def)
        )),
        Body::Handwritten(_) => {}
    }
    paragraphs
}

/// One paragraph on a union of a struct.
fn union_summary(union: &Union) -> String {
    let members = code_list(union.members.keys().map(String::as_str), "and");
    match &union.discriminator {
        Some(d) => format!(
            "A union (KEP-1027) discriminated by `{d}`: of its members ({members}), only the one \
             `{d}` selects is set; when a patch changes `{d}`, `apply_normalized` clears the \
             members it does not select."
        ),
        None => format!(
            "A union (KEP-1027): at most one of {members} is set; when a patch sets one, \
             `apply_normalized` clears the others."
        ),
    }
}

/// The paragraphs documenting one field.
pub(crate) fn field_doc(api: &Api, s: &Struct, f: &Field) -> Vec<String> {
    let required = if f.required { " (required)" } else { "" };
    let first = format!("JSON `{}`{required}. {}", f.json, treatment(api, f));
    let mut paragraphs = vec![first];
    if let Some(role) = &f.union {
        paragraphs.push(union_role(s, f, role));
    }
    paragraphs
}

/// What a patch does with the field, in sentences.
fn treatment(api: &Api, f: &Field) -> String {
    let json = &f.json;
    let strategy: Vec<&str> = f
        .strategy
        .as_deref()
        .map(|s| s.split(',').map(str::trim).collect())
        .unwrap_or_default();
    let merges = strategy.contains(&"merge");
    let retains = strategy.contains(&"retainKeys");
    let replaces = strategy.contains(&"replace");
    match &f.ty {
        Ty::List(item) => {
            let objects = is_object(api, item);
            let mut text = match (&f.merge_key, merges) {
                (Some(key), true) if objects => format!(
                    "A list merged by `{key}`: a patch item changes the item with the same \
                     `{key}`, or is added; an item with `$patch: delete` removes it, \
                     `$setElementOrder/{json}` orders the list, and `$patch: replace` \
                     replaces it."
                ),
                (_, true) if !objects => format!(
                    "A list merged as a set: a patch adds its values, \
                     `$deleteFromPrimitiveList/{json}` removes values, and \
                     `$setElementOrder/{json}` orders the list."
                ),
                _ => "A list that a patch replaces whole.".to_owned(),
            };
            if let Some(keys) = &f.recommended {
                let keys = code_list(keys.split(',').map(str::trim), "and");
                if merges && f.merge_key.is_some() {
                    text.push_str(&format!(
                        " Items that carry `$patchMergeKey` are matched by {keys} instead (the \
                         recommended merge key)."
                    ));
                } else {
                    text.push_str(&format!(
                        " When its items carry `$patchMergeKey`, it is merged by {keys} instead \
                         (the recommended merge key)."
                    ));
                }
            }
            if retains {
                text.push_str(
                    " Each item honours `$retainKeys` (patch strategy `merge,retainKeys`).",
                );
            }
            text
        }
        Ty::Map(value) => {
            if is_object(api, value) {
                "A map that a patch merges key by key, each value field by field; `null` \
                 removes a key."
                    .to_owned()
            } else {
                "A map that a patch merges key by key; `null` removes a key.".to_owned()
            }
        }
        ty if replaces => format!(
            "{} that a patch replaces whole (patch strategy `replace`).",
            if is_object(api, ty) {
                "An object"
            } else {
                "A value"
            }
        ),
        ty if is_object(api, ty) => {
            let mut text =
                "An object that a patch merges into field by field; `null` removes it.".to_owned();
            if retains {
                text.push_str(
                    " With patch strategy `retainKeys`, a patch that lists `$retainKeys` clears \
                     the fields it does not list.",
                );
            }
            text
        }
        ty if is_plain_json(api, ty) => "Any JSON value, patched as plain JSON: objects merge \
             key by key and lists are replaced whole; `null` removes it."
            .to_owned(),
        _ => "A patch replaces the value; `null` removes it.".to_owned(),
    }
}

/// The field's part in a union of its struct.
fn union_role(s: &Struct, f: &Field, role: &UnionRole) -> String {
    match role {
        UnionRole::Discriminator { union } => {
            let union = &s.unions[*union];
            let selects = joined(
                union
                    .members
                    .iter()
                    .map(|(member, value)| format!("`{value}` selects `{member}`"))
                    .collect(),
                "and",
            );
            format!(
                "The discriminator of a union: {selects}; `apply_normalized` keeps only the \
                 member its value selects."
            )
        }
        UnionRole::Member { union, value } => {
            let union = &s.unions[*union];
            let others = code_list(
                union
                    .members
                    .keys()
                    .filter(|m| **m != f.json)
                    .map(String::as_str),
                "and",
            );
            match (&union.discriminator, others.is_empty()) {
                (Some(d), true) => format!(
                    "The member of the union discriminated by `{d}`, set when `{d}` is \
                     `{value}`."
                ),
                (Some(d), false) => format!(
                    "A member of the union discriminated by `{d}`, set when `{d}` is `{value}`; \
                     the other members are {others}."
                ),
                (None, _) => format!(
                    "A member of a union with {others}: at most one of them is set; when a patch \
                     newly sets this one, `apply_normalized` clears the others."
                ),
            }
        }
    }
}

/// Whether values of `ty` are objects a patch merges field by field (a generated struct).
fn is_object(api: &Api, ty: &Ty) -> bool {
    match ty {
        Ty::Ref(name) => matches!(api.defs.get(name).map(|d| &d.body), Some(Body::Struct(_))),
        _ => false,
    }
}

/// Whether values of `ty` are untyped JSON (no type, or a definition without structure).
fn is_plain_json(api: &Api, ty: &Ty) -> bool {
    match ty {
        Ty::Value => true,
        Ty::Ref(name) => matches!(api.defs.get(name).map(|d| &d.body), Some(Body::Opaque)),
        _ => false,
    }
}

/// `` `a` ``, `` `a` and `b` ``, `` `a`, `b` and `c` ``: names as code, joined with `last`.
fn code_list<I, S>(names: I, last: &str) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    joined(
        names
            .into_iter()
            .map(|n| format!("`{}`", n.as_ref()))
            .collect(),
        last,
    )
}

/// `a`, `a and b`, `a, b and c`.
fn joined(items: Vec<String>, last: &str) -> String {
    match items.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., tail] => format!("{} {last} {tail}", init.join(", ")),
    }
}

/// One paragraph as lines of at most `width` characters (longer only where one word is). A
/// continuation line never starts with what Markdown would read as the start of a block (`-`,
/// `*`, `+`, `#`, `>`, `|`, `1.`).
pub(crate) fn wrap(line: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in line.split(' ').filter(|w| !w.is_empty()) {
        let fits = current.chars().count() + 1 + word.chars().count() <= width;
        if current.is_empty() || fits || starts_block(word) {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        } else {
            out.push(std::mem::take(&mut current));
            current = word.to_owned();
        }
    }
    if !current.is_empty() || out.is_empty() {
        out.push(current);
    }
    out
}

fn starts_block(word: &str) -> bool {
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    matches!(
        word.chars().next(),
        Some('-' | '*' | '+' | '#' | '>' | '|' | '=')
    ) || (digits > 0 && matches!(&word[digits..], "." | ")"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_wraps_without_starting_blocks() {
        assert_eq!(
            wrap("aaa bbb ccc - ddd 12. eee", 8),
            ["aaa bbb", "ccc -", "ddd 12.", "eee"]
        );
        assert_eq!(
            wrap("averyveryverylongword x", 5),
            ["averyveryverylongword", "x"]
        );
        assert_eq!(wrap("", 5), [""]);
    }

    #[test]
    fn names_are_listed_as_code() {
        assert_eq!(code_list(["a"], "and"), "`a`");
        assert_eq!(code_list(["a", "b", "c"], "and"), "`a`, `b` and `c`");
        assert_eq!(code_list(Vec::<&str>::new(), "and"), "");
    }
}
