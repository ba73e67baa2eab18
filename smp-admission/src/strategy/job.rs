//! A Job's generated selector (`generateSelector` of `pkg/registry/batch/job/strategy.go`,
//! run when the Job is created without `manualSelector: true`): its pod template is labelled
//! with the job's name and uid (in the legacy and the `batch.kubernetes.io/` forms), and its
//! selector selects the uid label. Labels the user set are kept (validation then refuses a
//! conflict). It needs the uid the server gave the object; without one nothing is done.

use serde_json::{Map, Value};

const NAME_LABELS: [&str; 2] = ["job-name", "batch.kubernetes.io/job-name"];
const UID_LABELS: [&str; 2] = ["controller-uid", "batch.kubernetes.io/controller-uid"];

pub(super) fn generate_selector(job: &mut Map<String, Value>) {
    let text = |job: &Map<String, Value>, key: &str| {
        job.get("metadata")
            .and_then(|m| m.get(key))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let (name, uid) = (text(job, "name"), text(job, "uid"));
    if uid.is_empty() {
        return;
    }
    let Some(spec) = object_at(job, "spec") else {
        return;
    };
    if spec.get("manualSelector").and_then(Value::as_bool) == Some(true) {
        return;
    }
    if let Some(labels) = object_at(spec, "template")
        .and_then(|t| object_at(t, "metadata"))
        .and_then(|m| object_at(m, "labels"))
    {
        for (keys, value) in [(NAME_LABELS, &name), (UID_LABELS, &uid)] {
            for key in keys {
                labels
                    .entry(key)
                    .or_insert_with(|| Value::from(value.as_str()));
            }
        }
    }
    if let Some(match_labels) =
        object_at(spec, "selector").and_then(|s| object_at(s, "matchLabels"))
    {
        match_labels
            .entry(UID_LABELS[1])
            .or_insert_with(|| Value::from(uid.as_str()));
    }
}

/// The object at `key`, made when absent or null (a map Go allocates before writing to it).
fn object_at<'a>(map: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Map<String, Value>> {
    let member = map.entry(key).or_insert_with(|| Value::Object(Map::new()));
    if member.is_null() {
        *member = Value::Object(Map::new());
    }
    member.as_object_mut()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_job_selects_its_own_pods() {
        let mut job = json!({"metadata": {"name": "pi", "uid": "u1"},
            "spec": {"template": {"spec": {}}}});
        generate_selector(job.as_object_mut().unwrap());
        assert_eq!(
            job["spec"]["selector"],
            json!({"matchLabels": {"batch.kubernetes.io/controller-uid": "u1"}})
        );
        assert_eq!(
            job["spec"]["template"]["metadata"]["labels"],
            json!({
            "job-name": "pi", "batch.kubernetes.io/job-name": "pi",
            "controller-uid": "u1", "batch.kubernetes.io/controller-uid": "u1"})
        );
        let mut manual =
            json!({"metadata": {"name": "pi", "uid": "u1"}, "spec": {"manualSelector": true}});
        let before = manual.clone();
        generate_selector(manual.as_object_mut().unwrap());
        assert_eq!(manual, before);
    }
}
