//! The kinds that hold a pod template (`pkg/registry/{core,apps,batch}/*/strategy.go`): on
//! create their template's warnings, on update only when the strategy bumps the generation
//! (the template, or the spec that holds it, changed), plus each kind's own.

use serde_json::Value;

use super::pod::{name_warning, spec_and_meta};
use super::sink::Sink;
use super::storage::claim_spec;
use crate::validation::field::Path;
use crate::validation::read::{self, semantic_eq};

const POD_NAMES: &str = "Pod names and hostnames";

/// The warnings of the pod template `template` at `path`.
fn template(template: Option<&Value>, path: &Path, out: &mut Sink) {
    let Some(template) = template.filter(|t| t.is_object()) else {
        return;
    };
    let spec = template.get("spec").unwrap_or(&Value::Null);
    spec_and_meta(spec, template.get("metadata"), Some(path), out);
}

fn spec(obj: &Value) -> Option<&Value> {
    obj.get("spec")
}

fn member<'a>(obj: &'a Value, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().try_fold(obj, |at, key| at.get(*key))
}

fn spec_changed(new: &Value, old: &Value) -> bool {
    !semantic_eq(spec(new), spec(old))
}

const SPEC_TEMPLATE: Path<'static> = Path::names(&["spec", "template"]);

/// A Pod: its name (a hostname), its spec, and (for a pod created) the AppArmor annotations
/// the strategy copies. Updates warn about nothing.
pub(super) fn pod_create(obj: &Value, out: &mut Sink) {
    super::pod::apparmor_skew(obj, out);
    name_warning(obj, "the Pod's hostname", out);
    let spec = spec(obj).unwrap_or(&Value::Null);
    spec_and_meta(spec, obj.get("metadata"), None, out);
}

/// A PodTemplate: its `template`, on update when it changed.
pub(super) fn pod_template(new: &Value, old: Option<&Value>, out: &mut Sink) {
    if old.is_some_and(|old| semantic_eq(new.get("template"), old.get("template"))) {
        return;
    }
    template(new.get("template"), &Path::new("template"), out);
}

/// A ReplicationController. On update the server passes the templates to the shared check
/// the wrong way round, so the old template is the one reported (upstream's slip, kept).
pub(super) fn replication_controller(new: &Value, old: Option<&Value>, out: &mut Sink) {
    match old {
        None => {
            name_warning(new, POD_NAMES, out);
            template(member(new, &["spec", "template"]), &SPEC_TEMPLATE, out);
        }
        Some(old) if spec_changed(new, old) => {
            template(member(old, &["spec", "template"]), &SPEC_TEMPLATE, out);
        }
        Some(_) => {}
    }
}

/// A Deployment: its generation also moves when its annotations change.
pub(super) fn deployment(new: &Value, old: Option<&Value>, out: &mut Sink) {
    match old {
        None => name_warning(new, POD_NAMES, out),
        Some(old) => {
            if !spec_changed(new, old) && semantic_eq(annotations(new), annotations(old)) {
                return;
            }
        }
    }
    template(member(new, &["spec", "template"]), &SPEC_TEMPLATE, out);
}

/// A ReplicaSet.
pub(super) fn replica_set(new: &Value, old: Option<&Value>, out: &mut Sink) {
    match old {
        None => name_warning(new, POD_NAMES, out),
        Some(old) if !spec_changed(new, old) => return,
        Some(_) => {}
    }
    template(member(new, &["spec", "template"]), &SPEC_TEMPLATE, out);
}

/// A DaemonSet: on update, when its template changed (its template generation moves).
pub(super) fn daemon_set(new: &Value, old: Option<&Value>, out: &mut Sink) {
    let new_template = member(new, &["spec", "template"]);
    if old.is_some_and(|old| semantic_eq(new_template, member(old, &["spec", "template"]))) {
        return;
    }
    template(new_template, &SPEC_TEMPLATE, out);
}

/// A StatefulSet: its template (on update when the spec changed), then its claim templates'
/// storage sizes and a negative revision history limit, on every write. On update the claim
/// templates' paths name `Spec` with a capital, as the server prints them.
pub(super) fn stateful_set(new: &Value, old: Option<&Value>, out: &mut Sink) {
    if old.is_none_or(|old| spec_changed(new, old)) {
        template(member(new, &["spec", "template"]), &SPEC_TEMPLATE, out);
    }
    let spec = spec(new).unwrap_or(&Value::Null);
    let claims = Path::names(&["spec", "volumeClaimTemplates"]);
    for (i, claim) in read::list(spec, "volumeClaimTemplates").iter().enumerate() {
        let at = claims.index(i);
        match old {
            None => claim_spec(claim.get("spec"), &at, out),
            Some(_) => claim_spec(claim.get("spec"), &at.child("Spec"), out),
        }
    }
    if read::opt_int(spec, "revisionHistoryLimit").is_some_and(|n| n < 0) {
        out.push(
            "spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended"
                .to_owned(),
        );
    }
}

/// `WarningsForJobSpec`: an Indexed Job too large to track its failed indexes, then its
/// template.
fn job_spec(spec: Option<&Value>, path: &Path, out: &mut Sink) {
    let spec = spec.unwrap_or(&Value::Null);
    if read::text(spec, "completionMode") == "Indexed" {
        let completions = read::int(spec, "completions");
        let parallelism = read::int(spec, "parallelism");
        if completions > 100_000 && parallelism > 10_000 {
            out.push(format!(
                "{path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail"
            ));
        }
    }
    template(spec.get("template"), &path.child("template"), out);
}

/// A Job.
pub(super) fn job(new: &Value, old: Option<&Value>, out: &mut Sink) {
    match old {
        None => name_warning(new, POD_NAMES, out),
        Some(old) if !spec_changed(new, old) => return,
        Some(_) => {}
    }
    job_spec(spec(new), &Path::new("spec"), out);
}

/// A CronJob: its job template's spec; on update also a schedule that names a time zone
/// (create refuses one), under the path the server prints (`spec.spec.schedule`).
pub(super) fn cron_job(new: &Value, old: Option<&Value>, out: &mut Sink) {
    let job_path = Path::names(&["spec", "jobTemplate", "spec"]);
    let job_template_spec = member(new, &["spec", "jobTemplate", "spec"]);
    match old {
        None => {
            name_warning(new, POD_NAMES, out);
            job_spec(job_template_spec, &job_path, out);
        }
        Some(old) => {
            if spec_changed(new, old) {
                job_spec(job_template_spec, &job_path, out);
            }
            let schedule = spec(new).map(|s| read::text(s, "schedule")).unwrap_or("");
            if schedule.contains("TZ") {
                out.push("cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details".to_owned());
            }
        }
    }
}

fn annotations(obj: &Value) -> Option<&Value> {
    obj.get("metadata").and_then(|m| m.get("annotations"))
}
