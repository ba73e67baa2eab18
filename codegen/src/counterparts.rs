//! The k8s-openapi counterparts: which generated type stands for which k8s-openapi type, under
//! which of k8s-openapi's version features.
//!
//! The input, `codegen/k8s-openapi.txt`, is written by `codegen/scan-k8s-openapi.py` from the
//! k8s-openapi release smp-types depends on: for each smp-types path, the first and last
//! Kubernetes minor version whose k8s-openapi tree declares a type at the same path. The output,
//! `k8s_openapi/counterparts.rs`, implements `Counterpart` for each, wrapped in k8s-openapi's
//! own `k8s_if_*` macros where the type exists in only some of the versions, so that smp-types
//! builds with whichever version feature the final binary picks.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::error::Error;
use crate::model::Api;
use crate::names;

/// The generated file, relative to `smp-types/src`.
pub const FILE: &str = "k8s_openapi/counterparts.rs";

/// The parsed data file.
pub struct Counterparts {
    /// The minor versions k8s-openapi supports (its `v1_*` features), first and last.
    pub supported: (u32, u32),
    /// smp-types path (`api::core::v1::Pod`) to the first and last minor version declaring it.
    pub paths: BTreeMap<String, (u32, u32)>,
}

impl Counterparts {
    /// Reads `k8s-openapi.txt`.
    pub fn read(path: &Path) -> Result<Counterparts, Error> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::new(format!("reading {}: {e}", path.display())))?;
        let mut supported = None;
        let mut paths = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || Error::new(format!("{}:{}: {line:?}", path.display(), n + 1));
            let words: Vec<&str> = line.split_whitespace().collect();
            let [name, first, last] = words[..] else {
                return Err(bad());
            };
            let range = (minor(first).ok_or_else(bad)?, minor(last).ok_or_else(bad)?);
            if range.0 > range.1 {
                return Err(bad());
            }
            if name == "supported" {
                supported = Some(range);
            } else if paths.insert(name.to_owned(), range).is_some() {
                return Err(Error::new(format!(
                    "{}: {name} is listed twice",
                    path.display()
                )));
            }
        }
        let supported = supported
            .ok_or_else(|| Error::new(format!("{}: no `supported` line", path.display())))?;
        Ok(Counterparts { supported, paths })
    }
}

/// `1.34` → 34.
fn minor(version: &str) -> Option<u32> {
    version.strip_prefix("1.")?.parse().ok()
}

/// The text of [`FILE`]. Every listed path must be a generated definition.
pub fn emit(api: &Api, data: &Counterparts, header: &str) -> Result<String, Error> {
    let ours: BTreeMap<String, String> = api
        .defs
        .values()
        .map(|d| {
            let public = d.path.public_path();
            let rel = public.strip_prefix("smp_types::").unwrap_or(&public);
            (rel.to_owned(), public.clone())
        })
        .collect();
    // Group the paths by the version range they exist in.
    let mut groups: BTreeMap<(u32, u32), Vec<&str>> = BTreeMap::new();
    for (path, &(first, last)) in &data.paths {
        if !ours.contains_key(path) {
            return Err(Error::new(format!(
                "k8s-openapi.txt lists {path}, which is not a generated definition"
            )));
        }
        let (lo, hi) = data.supported;
        groups
            .entry((first.max(lo), last.min(hi)))
            .or_default()
            .push(path);
    }
    let mut s = String::new();
    s.push_str(
        "//! `Counterpart` for every k8s-openapi type with a generated definition at the same path.\n//!\n",
    );
    s.push_str(header);
    s.push_str("//! The version ranges come from `codegen/k8s-openapi.txt`.\n\n");
    let (lo, hi) = data.supported;
    for ((first, last), paths) in &groups {
        let mut list = String::new();
        for path in paths {
            let module: Vec<String> = path.split("::").map(str::to_owned).collect();
            let _ = writeln!(list, "{}    {path},", names::group_cfg(&module, "    "));
        }
        let body = format!("impl_counterparts! {{\n{list}}}\n");
        let gated = match (*first > lo, *last < hi) {
            (false, false) => body,
            (true, false) => format!("k8s_openapi::k8s_if_ge_1_{first}! {{\n{body}}}\n"),
            (false, true) => format!("k8s_openapi::k8s_if_le_1_{last}! {{\n{body}}}\n"),
            (true, true) if first == last => {
                format!("k8s_openapi::k8s_if_1_{first}! {{\n{body}}}\n")
            }
            (true, true) => format!(
                "k8s_openapi::k8s_if_ge_1_{first}! {{\nk8s_openapi::k8s_if_le_1_{last}! {{\n{body}}}\n}}\n"
            ),
        };
        let _ = writeln!(s, "// Kubernetes 1.{first} to 1.{last}.\n{gated}");
    }
    Ok(s)
}
