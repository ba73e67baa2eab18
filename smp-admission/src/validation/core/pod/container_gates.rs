//! What the Pod strategy does around validation for the container fields of gated features
//! (`pkg/api/pod`): the options it relaxes because the old pod already uses a field
//! (`GetValidationOptionsFromPodSpecAndMeta`), and the fields it silently drops before
//! validating because their gate is off in v1.34 and the old pod did not use them
//! (`DropDisabledPodFields`). pod-spec calls both: the first when it builds the options of
//! an update, the second on the new spec (with the old one on update) before validating.

use serde_json::Value;

use super::PodOptions;
use crate::validation::read;

const ALL_LISTS: [&str; 3] = ["initContainers", "containers", "ephemeralContainers"];

fn all_containers(spec: &Value) -> impl Iterator<Item = &Value> {
    ALL_LISTS.iter().flat_map(move |l| read::list(spec, l))
}

/// An env entry whose value comes from a file (`fileKeyRef`, gate `EnvFiles`).
fn uses_file_key_ref(var: &Value) -> bool {
    read::object(var, "valueFrom")
        .is_some_and(|f| f.get("fileKeyRef").is_some_and(Value::is_object))
}

/// `podFileKeyRefInUse`.
fn file_key_refs_in_use(spec: &Value) -> bool {
    all_containers(spec).any(|c| read::list(c, "env").iter().any(uses_file_key_ref))
}

/// `containerRestartRulesInUse`: an init container with a policy other than `Always` or with
/// rules, or a regular container with a policy.
fn restart_rules_in_use(spec: &Value) -> bool {
    read::list(spec, "initContainers").iter().any(|c| {
        read::opt_text(c, "restartPolicy").is_some_and(|p| p != "Always")
            || !read::list(c, "restartPolicyRules").is_empty()
    }) || read::list(spec, "containers")
        .iter()
        .any(|c| read::opt_text(c, "restartPolicy").is_some())
}

/// `containerStopSignalsInUse`.
fn stop_signals_in_use(spec: &Value) -> bool {
    all_containers(spec).any(|c| {
        read::object(c, "lifecycle")
            .is_some_and(|l| l.get("stopSignal").is_some_and(|s| !s.is_null()))
    })
}

/// `usesIndivisibleHugePagesValues`: a huge-page value of any container, or of `overhead`,
/// that is not a whole number of pages.
fn indivisible_hugepages_in_use(spec: &Value) -> bool {
    let bad_list = |list: Option<&Value>| {
        list.and_then(Value::as_object).is_some_and(|m| {
            m.iter().any(|(name, v)| {
                name.starts_with("hugepages-") && !super::resources::is_whole_pages(name, v)
            })
        })
    };
    all_containers(spec).any(|c| {
        let r = c.get("resources").unwrap_or(&Value::Null);
        bad_list(r.get("limits")) || bad_list(r.get("requests"))
    }) || bad_list(spec.get("overhead"))
}

/// Whether `spec` holds any field [`drop_disabled_container_fields`] may drop.
pub(crate) fn anything_to_drop(spec: &Value) -> bool {
    restart_rules_in_use(spec) || stop_signals_in_use(spec) || file_key_refs_in_use(spec)
}

/// The container options of an update, relaxed where the old pod already uses what a create
/// would refuse (the gates being at their v1.34 defaults).
pub(crate) fn relax_for_old_spec(options: &mut PodOptions, old_spec: &Value) {
    options.allow_env_files_validation |= file_key_refs_in_use(old_spec);
    options.allow_container_restart_policy_rules |= restart_rules_in_use(old_spec);
    options.allow_indivisible_huge_pages_values = indivisible_hugepages_in_use(old_spec);
}

/// `DropDisabledPodFields` for the container fields whose gates are off in v1.34
/// (`ContainerRestartRules`, `ContainerStopSignals`, `EnvFiles`): removed from `spec` unless
/// `old_spec` (an update's old pod) already uses them. A dropped `fileKeyRef` leaves its
/// `valueFrom` behind, so validation then reports a `valueFrom` without a source.
pub(crate) fn drop_disabled_container_fields(spec: &mut Value, old_spec: Option<&Value>) {
    let in_use = |f: fn(&Value) -> bool| old_spec.is_some_and(f);
    let drop_rules = !in_use(restart_rules_in_use);
    let drop_signals = !in_use(stop_signals_in_use);
    let drop_file_refs = !in_use(file_key_refs_in_use);
    for list in ALL_LISTS {
        let Some(items) = spec.get_mut(list).and_then(Value::as_array_mut) else {
            continue;
        };
        for ctr in items.iter_mut().filter_map(Value::as_object_mut) {
            if drop_rules {
                let keep_policy = list == "initContainers"
                    && ctr.get("restartPolicy").and_then(Value::as_str) == Some("Always");
                if !keep_policy {
                    ctr.remove("restartPolicy");
                }
                ctr.remove("restartPolicyRules");
            }
            if drop_signals {
                let emptied = match ctr.get_mut("lifecycle").and_then(Value::as_object_mut) {
                    Some(lifecycle) => {
                        let had = lifecycle.remove("stopSignal").is_some_and(|s| !s.is_null());
                        had && lifecycle.values().all(Value::is_null)
                    }
                    None => false,
                };
                if emptied {
                    ctr.remove("lifecycle");
                }
            }
            if drop_file_refs {
                let vars = ctr.get_mut("env").and_then(Value::as_array_mut);
                for var in vars.into_iter().flatten() {
                    if let Some(from) = var.get_mut("valueFrom").and_then(Value::as_object_mut) {
                        from.remove("fileKeyRef");
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn creates_drop_gated_container_fields() {
        let mut spec = json!({
            "initContainers": [{"name": "a", "restartPolicy": "OnFailure"}, {"name": "b", "restartPolicy": "Always"}],
            "containers": [{"name": "c", "restartPolicy": "Never", "lifecycle": {"stopSignal": "SIGTERM"},
                "env": [{"name": "E", "valueFrom": {"fileKeyRef": {"key": "k"}}}]}]});
        drop_disabled_container_fields(&mut spec, None);
        assert_eq!(
            spec,
            json!({
                "initContainers": [{"name": "a"}, {"name": "b", "restartPolicy": "Always"}],
                "containers": [{"name": "c", "env": [{"name": "E", "valueFrom": {}}]}]})
        );
    }

    #[test]
    fn updates_keep_what_the_old_pod_uses() {
        let old = json!({"containers": [{"name": "c", "restartPolicy": "Never"}]});
        let mut spec = old.clone();
        drop_disabled_container_fields(&mut spec, Some(&old));
        assert_eq!(spec, old);
        let mut options = PodOptions::default();
        relax_for_old_spec(&mut options, &old);
        assert!(options.allow_container_restart_policy_rules);
        assert!(!options.allow_env_files_validation);
    }
}
