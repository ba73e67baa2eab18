//! Pod templates: the one embedded in workloads (`ValidatePodTemplateSpec`) and the
//! PodTemplate kind (`ValidatePodTemplate`, `ValidatePodTemplateUpdate`). A template's
//! metadata is checked only for labels and annotations, its spec as a pod's without the
//! pod-only rules, and it may not hold ephemeral containers.

use serde_json::Value;

use super::{PodOptions, annotations, validate_pod_spec};
use crate::validation::field::{self, ErrorList, Path};
use crate::validation::meta::{
    validate_annotations, validate_labels, validate_object_meta, validate_object_meta_update,
};
use crate::validation::names;
use crate::validation::read;

/// `ValidatePodTemplateSpec`: `template` is the `template` member (metadata and spec) and
/// `path` its path (`spec.template`). Labels and annotations are reported under
/// `<path>.labels`/`<path>.annotations`, without `metadata`, as upstream does.
pub(crate) fn validate_pod_template_spec(
    template: Option<&Value>,
    path: &Path,
    options: &PodOptions,
) -> ErrorList {
    let template = template.unwrap_or(&Value::Null);
    let meta = template.get("metadata").filter(|m| m.is_object());
    let spec = template.get("spec").unwrap_or(&Value::Null);
    let mut errs = ErrorList::new();
    let labels = meta.and_then(|m| m.get("labels"));
    validate_labels(labels, &path.child("labels"), &mut errs);
    let template_annotations = meta.and_then(|m| m.get("annotations"));
    let annotations_path = path.child("annotations");
    validate_annotations(template_annotations, &annotations_path, &mut errs);
    annotations::validate_pod_specific_annotations(
        template_annotations,
        spec,
        &annotations_path,
        options,
        &mut errs,
    );
    let spec_path = path.child("spec");
    errs.extend(validate_pod_spec(spec, None, &spec_path, options));
    annotations::seccomp_fields_match_annotations(meta, spec, &spec_path, &mut errs);
    annotations::apparmor_fields_match_annotations(meta, spec, &spec_path, &mut errs);
    if !read::list(spec, "ephemeralContainers").is_empty() {
        errs.push(field::forbidden(
            &spec_path.child("ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
    errs
}

/// The PodTemplate kind's create (`ValidatePodTemplate`).
pub(crate) fn pod_template(obj: &Value) -> ErrorList {
    let mut errs = validate_object_meta(
        obj.get("metadata"),
        true,
        names::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let options = PodOptions::for_template(None, None);
    errs.extend(validate_pod_template_spec(
        obj.get("template"),
        &Path::new("template"),
        &options,
    ));
    errs
}

/// The PodTemplate kind's update (`ValidatePodTemplateUpdate`): the template may change freely.
pub(crate) fn pod_template_update(new: &Value, old: &Value) -> ErrorList {
    let mut errs = validate_object_meta_update(
        new.get("metadata"),
        old.get("metadata"),
        &Path::new("metadata"),
    );
    let old_template = old.get("template");
    let options = PodOptions::for_template(
        old_template.and_then(|t| t.get("spec")),
        old_template.and_then(|t| t.get("metadata")),
    );
    errs.extend(validate_pod_template_spec(
        new.get("template"),
        &Path::new("template"),
        &options,
    ));
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn template() -> Value {
        json!({
            "metadata": {"labels": {"app": "web"}},
            "spec": {
                "containers": [{"name": "c", "image": "i", "imagePullPolicy": "Always",
                    "terminationMessagePolicy": "File"}],
                "restartPolicy": "Always", "dnsPolicy": "ClusterFirst",
                "terminationGracePeriodSeconds": 30
            }
        })
    }

    #[test]
    fn embedded_templates_report_under_their_path() {
        let path = Path::names(&["spec", "template"]);
        let options = PodOptions::default();
        assert!(validate_pod_template_spec(Some(&template()), &path, &options).is_empty());
        let mut bad = template();
        bad["metadata"]["labels"]["app"] = json!("-web-");
        bad["spec"]["activeDeadlineSeconds"] = json!(0);
        let errs = validate_pod_template_spec(Some(&bad), &path, &options);
        let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "spec.template.labels",
                "spec.template.spec.activeDeadlineSeconds"
            ]
        );
    }

    #[test]
    fn a_missing_template_is_an_empty_one() {
        let path = Path::names(&["spec", "template"]);
        let errs = validate_pod_template_spec(None, &path, &PodOptions::default());
        // The container half adds its own errors (no containers) between these.
        for expected in [
            "spec.template.spec.terminationGracePeriodSeconds",
            "spec.template.spec.restartPolicy",
            "spec.template.spec.dnsPolicy",
        ] {
            assert!(errs.iter().any(|e| e.field == expected), "{expected}");
        }
    }
}
