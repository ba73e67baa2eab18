//! `overlay.toml`: the facts smp-types adds to the OpenAPI document, and how they are written
//! into it.
//!
//! Each entry becomes the OpenAPI extension it stands for, so that the model reads patch
//! metadata from one place (the overlaid document) and the metadata test can load the same
//! document with `smp_core::openapi`. Applying checks every entry against the document: the
//! definition and properties it names exist, and it changes what the document says (an entry
//! that restates the document is an error, so that the file never holds dead facts).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::error::Error;
use crate::names::go_name;

const RECOMMENDED: &str = "x-kubernetes-recommended-patch-merge-key";
const STRATEGY: &str = "x-kubernetes-patch-strategy";
const MERGE_KEY: &str = "x-kubernetes-patch-merge-key";
const LIST_MAP_KEYS: &str = "x-kubernetes-list-map-keys";
const UNIONS: &str = "x-kubernetes-unions";

/// The parsed overlay.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    /// Multi-field merge keys.
    #[serde(default)]
    pub recommended: Vec<Recommended>,
    /// Patch strategies.
    #[serde(default)]
    pub strategy: Vec<StrategyEntry>,
    /// KEP-1027 unions.
    #[serde(default)]
    pub union: Vec<UnionEntry>,
    /// Extensions of the document removed (upstream mistakes).
    #[serde(default)]
    pub drop: Vec<DropEntry>,
    /// Definitions implemented by hand.
    #[serde(default)]
    pub handwritten: Vec<Handwritten>,
}

/// `[[recommended]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recommended {
    /// The definition, by full name (`io.k8s.api.core.v1.ServiceSpec`).
    pub definition: String,
    /// The property of the definition.
    pub property: String,
    /// The recommended keys, the merge key first when there is one.
    pub keys: Vec<String>,
    /// Where the entry comes from (a design document, an upstream source file, ...).
    pub source: String,
}

/// `[[strategy]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyEntry {
    /// The definition, by full name (`io.k8s.api.core.v1.ServiceSpec`).
    pub definition: String,
    /// The property of the definition.
    pub property: String,
    /// The `x-kubernetes-patch-strategy` value it gets.
    pub strategy: String,
    /// Where the entry comes from (a design document, an upstream source file, ...).
    pub source: String,
}

/// `[[union]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnionEntry {
    /// The definition, by full name (`io.k8s.api.core.v1.ServiceSpec`).
    pub definition: String,
    /// The discriminator property, if the union has one.
    #[serde(default)]
    pub discriminator: Option<String>,
    /// Members, for a union without a discriminator.
    #[serde(default)]
    pub members: Option<Vec<String>>,
    /// Every property but these, for a union without a discriminator.
    #[serde(default)]
    pub members_except: Option<Vec<String>>,
    /// Member to discriminator value, for a union with a discriminator.
    #[serde(default)]
    pub values: Option<BTreeMap<String, String>>,
    /// The entry corrects a union the document declares (otherwise the document must not
    /// declare one there).
    #[serde(default)]
    pub replaces_upstream: bool,
    /// Where the entry comes from (a design document, an upstream source file, ...).
    pub source: String,
}

/// `[[drop]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DropEntry {
    /// The definition, by full name (`io.k8s.api.core.v1.ServiceSpec`).
    pub definition: String,
    /// The property of the definition.
    pub property: String,
    /// The extensions removed from the property.
    pub extensions: Vec<String>,
    /// Where the entry comes from (a design document, an upstream source file, ...).
    pub source: String,
}

/// `[[handwritten]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Handwritten {
    /// The definition, by full name (`io.k8s.api.core.v1.ServiceSpec`).
    pub definition: String,
    /// The Rust path of the hand-written type, `crate::...`.
    pub rust: String,
    /// Why the type is written by hand.
    pub why: String,
}

/// One entry, for messages and for the metadata test (which leaves entries out one at a time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryId {
    /// The `[[recommended]]` entry at this index.
    Recommended(usize),
    /// The `[[strategy]]` entry at this index.
    Strategy(usize),
    /// The `[[union]]` entry at this index.
    Union(usize),
    /// The `[[drop]]` entry at this index.
    Drop(usize),
}

impl Overlay {
    /// Reads and parses the overlay file.
    pub fn read(path: &Path) -> Result<Overlay, Error> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::new(format!("reading {}: {e}", path.display())))?;
        toml::from_str(&text).map_err(|e| Error::new(format!("parsing {}: {e}", path.display())))
    }

    /// Every entry that changes the document (hand-written types change the generated code,
    /// not the metadata).
    pub fn entries(&self) -> Vec<EntryId> {
        let recommended = (0..self.recommended.len()).map(EntryId::Recommended);
        let strategy = (0..self.strategy.len()).map(EntryId::Strategy);
        let union = (0..self.union.len()).map(EntryId::Union);
        let drop = (0..self.drop.len()).map(EntryId::Drop);
        recommended
            .chain(strategy)
            .chain(union)
            .chain(drop)
            .collect()
    }

    /// The definition and (for property entries) the property an entry changes.
    pub fn target(&self, id: EntryId) -> (&str, Option<&str>) {
        match id {
            EntryId::Recommended(i) => {
                let e = &self.recommended[i];
                (&e.definition, Some(&e.property))
            }
            EntryId::Strategy(i) => {
                let e = &self.strategy[i];
                (&e.definition, Some(&e.property))
            }
            EntryId::Union(i) => (&self.union[i].definition, None),
            EntryId::Drop(i) => {
                let e = &self.drop[i];
                (&e.definition, Some(&e.property))
            }
        }
    }

    /// A copy without one entry.
    pub fn without(&self, id: EntryId) -> Overlay {
        let mut out = self.clone();
        match id {
            EntryId::Recommended(i) => {
                out.recommended.remove(i);
            }
            EntryId::Strategy(i) => {
                out.strategy.remove(i);
            }
            EntryId::Union(i) => {
                out.union.remove(i);
            }
            EntryId::Drop(i) => {
                out.drop.remove(i);
            }
        }
        out
    }

    /// The hand-written type of a definition, if it has one.
    pub fn handwritten(&self, definition: &str) -> Option<&Handwritten> {
        self.handwritten.iter().find(|h| h.definition == definition)
    }

    /// What the overlay says about one property, one line per entry, for comments in the
    /// generated code.
    pub fn property_notes(&self, definition: &str, property: &str) -> Vec<String> {
        let mut out = Vec::new();
        for e in &self.recommended {
            if e.definition == definition && e.property == property {
                out.push(format!(
                    "recommended keys `{}`: {}",
                    e.keys.join(","),
                    e.source
                ));
            }
        }
        for e in &self.strategy {
            if e.definition == definition && e.property == property {
                out.push(format!("strategy `{}`: {}", e.strategy, e.source));
            }
        }
        for e in &self.drop {
            if e.definition == definition && e.property == property {
                out.push(format!("dropped {}: {}", e.extensions.join(", "), e.source));
            }
        }
        out
    }

    /// What the overlay says about the unions of one definition.
    pub fn union_notes(&self, definition: &str) -> Vec<String> {
        self.union
            .iter()
            .filter(|e| e.definition == definition)
            .map(|e| format!("union: {}", e.source))
            .collect()
    }

    /// Writes every entry into `doc` (an OpenAPI v2 document), checking it.
    pub fn apply(&self, doc: &mut Value) -> Result<(), Error> {
        for (i, h) in self.handwritten.iter().enumerate() {
            definition(doc, &h.definition).map_err(|e| at(&format!("handwritten[{i}]"), e))?;
        }
        // Which definitions the document itself gives unions, before any entry adds some.
        let upstream: BTreeSet<&str> = self
            .union
            .iter()
            .map(|e| e.definition.as_str())
            .filter(|d| definition(doc, d).is_ok_and(|def| def.contains_key(UNIONS)))
            .collect();
        let mut replaced: BTreeSet<&str> = BTreeSet::new();
        for id in self.entries() {
            let label = match id {
                EntryId::Recommended(i) => format!("recommended[{i}]"),
                EntryId::Strategy(i) => format!("strategy[{i}]"),
                EntryId::Union(i) => format!("union[{i}]"),
                EntryId::Drop(i) => format!("drop[{i}]"),
            };
            let result = match id {
                EntryId::Recommended(i) => self.recommended[i].apply(doc),
                EntryId::Strategy(i) => self.strategy[i].apply(doc),
                EntryId::Union(i) => {
                    let e = &self.union[i];
                    // Several entries may add unions to one definition; only the first of them
                    // replaces upstream's.
                    let fresh = e.replaces_upstream && replaced.insert(e.definition.as_str());
                    e.apply(doc, upstream.contains(e.definition.as_str()), fresh)
                }
                EntryId::Drop(i) => self.drop[i].apply(doc),
            };
            result.map_err(|e| at(&label, e))?;
        }
        Ok(())
    }
}

fn at(label: &str, e: Error) -> Error {
    Error::new(format!("overlay {label}: {}", e.0))
}

impl Recommended {
    fn apply(&self, doc: &mut Value) -> Result<(), Error> {
        let keys = &self.keys;
        if keys.is_empty() || keys.iter().any(String::is_empty) {
            return Err(Error::new("`keys` must list at least one non-empty key"));
        }
        if keys.iter().collect::<BTreeSet<_>>().len() != keys.len() {
            return Err(Error::new(format!("duplicate key in {keys:?}")));
        }
        let item = item_definition(doc, &self.definition, &self.property)?;
        let item_props = properties(doc, &item)?;
        for key in keys {
            if !item_props.contains_key(key) {
                return Err(Error::new(format!(
                    "key `{key}` is not a property of the item type {item}"
                )));
            }
        }
        let prop = property_mut(doc, &self.definition, &self.property)?;
        if prop.contains_key(RECOMMENDED) {
            return Err(Error::new(format!(
                "{}.{} already has {RECOMMENDED}",
                self.definition, self.property
            )));
        }
        if let Some(merge_key) = prop.get(MERGE_KEY).and_then(Value::as_str) {
            // Keys that extend a merge key are the list-map keys: the identity the API server
            // already gives the list's items.
            let list_map_keys = prop.get(LIST_MAP_KEYS).and_then(Value::as_array);
            let expected: Option<Vec<&str>> =
                list_map_keys.map(|k| k.iter().filter_map(Value::as_str).collect());
            if keys[0] != merge_key {
                return Err(Error::new(format!(
                    "the first key must be the merge key `{merge_key}`"
                )));
            }
            if expected.as_deref() != Some(&keys.iter().map(String::as_str).collect::<Vec<_>>()[..])
            {
                return Err(Error::new(format!(
                    "keys {keys:?} are not the property's {LIST_MAP_KEYS} {expected:?}"
                )));
            }
        }
        prop.insert(RECOMMENDED.to_owned(), json!(keys.join(",")));
        Ok(())
    }
}

impl StrategyEntry {
    fn apply(&self, doc: &mut Value) -> Result<(), Error> {
        let prop = property_mut(doc, &self.definition, &self.property)?;
        if prop.get(STRATEGY).and_then(Value::as_str) == Some(self.strategy.as_str()) {
            return Err(Error::new(format!(
                "{}.{} already has strategy `{}`",
                self.definition, self.property, self.strategy
            )));
        }
        prop.insert(STRATEGY.to_owned(), json!(self.strategy));
        Ok(())
    }
}

impl DropEntry {
    fn apply(&self, doc: &mut Value) -> Result<(), Error> {
        if self.extensions.is_empty() {
            return Err(Error::new("`extensions` lists nothing to drop"));
        }
        let prop = property_mut(doc, &self.definition, &self.property)?;
        for ext in &self.extensions {
            if prop.remove(ext).is_none() {
                return Err(Error::new(format!(
                    "{}.{} has no {ext} to drop",
                    self.definition, self.property
                )));
            }
        }
        Ok(())
    }
}

impl UnionEntry {
    /// The members and their discriminator values.
    fn members(&self, props: &Map<String, Value>) -> Result<BTreeMap<String, String>, Error> {
        let named = |list: &[String]| -> Result<(), Error> {
            match list.iter().find(|m| !props.contains_key(*m)) {
                Some(m) => Err(Error::new(format!(
                    "`{m}` is not a property of {}",
                    self.definition
                ))),
                None => Ok(()),
            }
        };
        let members: BTreeMap<String, String> = match (
            &self.discriminator,
            &self.values,
            &self.members,
            &self.members_except,
        ) {
            (Some(d), Some(values), None, None) => {
                named(std::slice::from_ref(d))?;
                if values.contains_key(d) {
                    return Err(Error::new("the discriminator cannot be a member"));
                }
                named(&values.keys().cloned().collect::<Vec<_>>())?;
                values.clone()
            }
            (None, None, Some(members), None) => {
                named(members)?;
                members.iter().map(|m| (m.clone(), go_name(m))).collect()
            }
            (None, None, None, Some(except)) => {
                named(except)?;
                props
                    .keys()
                    .filter(|p| !except.contains(p))
                    .map(|m| (m.clone(), go_name(m)))
                    .collect()
            }
            _ => {
                return Err(Error::new(
                    "a union has either `discriminator` and `values`, or `members`, or `members_except`",
                ));
            }
        };
        if members.len() < 2 && self.discriminator.is_none() {
            return Err(Error::new(
                "a union without a discriminator needs two members",
            ));
        }
        Ok(members)
    }

    /// `upstream`: whether the document itself has unions on the definition; `replace`: whether
    /// this entry replaces them (the first entry that `replaces_upstream`).
    fn apply(&self, doc: &mut Value, upstream: bool, replace: bool) -> Result<(), Error> {
        let members = self.members(&properties(doc, &self.definition)?)?;
        let mut union = Map::new();
        if let Some(d) = &self.discriminator {
            union.insert("discriminator".to_owned(), json!(d));
        }
        union.insert("fields-to-discriminateBy".to_owned(), json!(members));
        let def = definition_mut(doc, &self.definition)?;
        match (upstream, self.replaces_upstream) {
            (true, false) => {
                return Err(Error::new(format!(
                    "{} already has {UNIONS}: set `replaces_upstream = true` and say why",
                    self.definition
                )));
            }
            (false, true) => {
                return Err(Error::new(format!(
                    "{} has no {UNIONS} to replace",
                    self.definition
                )));
            }
            _ => {}
        }
        if replace {
            if def.get(UNIONS) == Some(&json!([Value::Object(union.clone())])) {
                return Err(Error::new(format!(
                    "{} already has exactly this union",
                    self.definition
                )));
            }
            def.insert(UNIONS.to_owned(), json!([]));
        }
        match def.entry(UNIONS).or_insert_with(|| json!([])) {
            Value::Array(list) => list.push(Value::Object(union)),
            _ => return Err(Error::new(format!("{UNIONS} is not a list"))),
        }
        Ok(())
    }
}

fn definition<'d>(doc: &'d Value, name: &str) -> Result<&'d Map<String, Value>, Error> {
    doc.get("definitions")
        .and_then(|d| d.get(name))
        .and_then(Value::as_object)
        .ok_or_else(|| Error::new(format!("no definition {name}")))
}

fn definition_mut<'d>(doc: &'d mut Value, name: &str) -> Result<&'d mut Map<String, Value>, Error> {
    doc.get_mut("definitions")
        .and_then(|d| d.get_mut(name))
        .and_then(Value::as_object_mut)
        .ok_or_else(|| Error::new(format!("no definition {name}")))
}

fn properties(doc: &Value, name: &str) -> Result<Map<String, Value>, Error> {
    definition(doc, name)?
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .ok_or_else(|| Error::new(format!("{name} has no properties")))
}

fn property_mut<'d>(
    doc: &'d mut Value,
    name: &str,
    property: &str,
) -> Result<&'d mut Map<String, Value>, Error> {
    definition_mut(doc, name)?
        .get_mut("properties")
        .and_then(|p| p.get_mut(property))
        .and_then(Value::as_object_mut)
        .ok_or_else(|| Error::new(format!("{name} has no property {property}")))
}

/// The definition of the items of a list property (`items.$ref`).
fn item_definition(doc: &Value, name: &str, property: &str) -> Result<String, Error> {
    let prop = definition(doc, name)?
        .get("properties")
        .and_then(|p| p.get(property))
        .ok_or_else(|| Error::new(format!("{name} has no property {property}")))?;
    prop.get("items")
        .and_then(|i| i.get("$ref"))
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/definitions/"))
        .map(str::to_owned)
        .ok_or_else(|| Error::new(format!("{name}.{property} is not a list of objects")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> Value {
        json!({"definitions": {
            "S": {"properties": {
                "ports": {"type": "array", "items": {"$ref": "#/definitions/P"},
                          MERGE_KEY: "port", STRATEGY: "merge", LIST_MAP_KEYS: ["port", "protocol"]},
                "taints": {"type": "array", "items": {"$ref": "#/definitions/P"}},
                "type": {"type": "string"},
                "a": {"type": "string"},
                "b": {"type": "string"}
            }},
            "P": {"properties": {"port": {"type": "integer"}, "protocol": {"type": "string"}}}
        }})
    }

    fn overlay(text: &str) -> Overlay {
        toml::from_str(text).expect("overlay parses")
    }

    #[test]
    fn recommended_keys_must_be_the_list_map_keys() {
        let mut d = doc();
        let ok = overlay(
            "[[recommended]]\ndefinition = \"S\"\nproperty = \"ports\"\nkeys = [\"port\", \"protocol\"]\nsource = \"t\"",
        );
        ok.apply(&mut d).expect("applies");
        assert_eq!(
            d["definitions"]["S"]["properties"]["ports"][RECOMMENDED],
            "port,protocol"
        );
        let wrong = overlay(
            "[[recommended]]\ndefinition = \"S\"\nproperty = \"ports\"\nkeys = [\"port\", \"name\"]\nsource = \"t\"",
        );
        assert!(wrong.apply(&mut doc()).is_err());
        let moved = overlay(
            "[[recommended]]\ndefinition = \"S\"\nproperty = \"taints\"\nkeys = [\"port\"]\nsource = \"t\"",
        );
        moved
            .apply(&mut doc())
            .expect("a moved key needs no merge key");
    }

    #[test]
    fn unions_name_members_in_go_style_or_by_value() {
        let mut d = doc();
        overlay("[[union]]\ndefinition = \"S\"\nmembers = [\"a\", \"b\"]\nsource = \"t\"\n[[union]]\ndefinition = \"S\"\ndiscriminator = \"type\"\nvalues = { ports = \"Ports\" }\nsource = \"t\"")
            .apply(&mut d)
            .expect("applies");
        assert_eq!(
            d["definitions"]["S"][UNIONS],
            json!([{"fields-to-discriminateBy": {"a": "A", "b": "B"}},
                   {"discriminator": "type", "fields-to-discriminateBy": {"ports": "Ports"}}])
        );
        let except = overlay(
            "[[union]]\ndefinition = \"S\"\nmembers_except = [\"ports\", \"taints\", \"type\"]\nsource = \"t\"",
        );
        let mut d = doc();
        except.apply(&mut d).expect("applies");
        assert_eq!(
            d["definitions"]["S"][UNIONS][0]["fields-to-discriminateBy"],
            json!({"a": "A", "b": "B"})
        );
    }

    #[test]
    fn entries_that_change_nothing_or_name_nothing_are_errors() {
        let same_strategy = overlay(
            "[[strategy]]\ndefinition = \"S\"\nproperty = \"ports\"\nstrategy = \"merge\"\nsource = \"t\"",
        );
        assert!(same_strategy.apply(&mut doc()).is_err());
        let missing =
            overlay("[[union]]\ndefinition = \"S\"\nmembers = [\"a\", \"zz\"]\nsource = \"t\"");
        assert!(missing.apply(&mut doc()).is_err());
        let upstream = overlay(
            "[[union]]\ndefinition = \"S\"\nmembers = [\"a\", \"b\"]\nreplaces_upstream = true\nsource = \"t\"",
        );
        assert!(upstream.apply(&mut doc()).is_err(), "nothing to replace");
        assert!(
            toml::from_str::<Overlay>("[[union]]\ndefinition = \"S\"\nbogus = 1\nsource = \"t\"")
                .is_err()
        );
    }
}
