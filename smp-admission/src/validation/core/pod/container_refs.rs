//! The two container checks that run at the pod level: images without surrounding spaces on
//! a Pod (`validateContainersOnlyForPod`; templates may hold a placeholder like `" "`), and
//! `fileKeyRef` environment variables that must name an `emptyDir` volume
//! (`validateFileKeyRefVolumes`; the field is dropped while EnvFiles is off, as in v1.34).

use std::collections::BTreeMap;

use serde_json::Value;

use super::security::each_container;
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::read;

/// Containers, then init containers (ephemeral ones are checked with the container half).
pub(super) fn validate_images_have_no_padding(
    spec: &Value,
    spec_path: &Path,
    errs: &mut ErrorList,
) {
    for list in ["containers", "initContainers"] {
        let list_path = spec_path.child(list);
        for (i, c) in read::list(spec, list).iter().enumerate() {
            let image = read::text(c, "image");
            if image.trim() != image {
                let at = list_path.index(i);
                errs.push(field::invalid(
                    &at.child("image"),
                    image,
                    "must not have leading or trailing whitespace",
                ));
            }
        }
    }
}

pub(super) fn validate_file_key_ref_volumes(spec: &Value, path: &Path, errs: &mut ErrorList) {
    let volumes: BTreeMap<&str, &Value> = read::list(spec, "volumes")
        .iter()
        .map(|v| (read::text(v, "name"), v))
        .collect();
    each_container(spec, path, |c, at| {
        let env_path = at.child("env");
        for (j, env) in read::list(c, "env").iter().enumerate() {
            let Some(file_ref) = env
                .get("valueFrom")
                .and_then(|v| v.get("fileKeyRef"))
                .filter(|f| f.is_object())
            else {
                continue;
            };
            let name = read::text(file_ref, "volumeName");
            let item = env_path.index(j);
            let value_from = item.child("valueFrom");
            let file_ref_path = value_from.child("fileKeyRef");
            let name_path = file_ref_path.child("volumeName");
            match volumes.get(name) {
                None => errs.push(field::not_found(&name_path, name)),
                Some(v) if !read::is_set(v, "emptyDir") => errs.push(field::invalid(
                    &name_path,
                    name,
                    "referenced volume must be of type emptyDir",
                )),
                Some(_) => {}
            }
        }
    });
}
