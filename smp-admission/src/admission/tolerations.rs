//! DefaultTolerationSeconds (`plugin/pkg/admission/defaulttolerationseconds`): a Pod that does
//! not already tolerate the `not-ready` and `unreachable` NoExecute taints tolerates each for
//! 300 seconds, so its node's brief outage does not evict it at once. A toleration with no key
//! or no effect counts as tolerating them.

use serde_json::{Value, json};

const NOT_READY: &str = "node.kubernetes.io/not-ready";
const UNREACHABLE: &str = "node.kubernetes.io/unreachable";

pub(super) fn admit_pod(pod: &mut Value) {
    let Some(spec) = pod.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    let (mut not_ready, mut unreachable) = (false, false);
    for t in spec
        .get("tolerations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let key = t.get("key").and_then(Value::as_str).unwrap_or("");
        let effect = t.get("effect").and_then(Value::as_str).unwrap_or("");
        if effect.is_empty() || effect == "NoExecute" {
            not_ready |= key.is_empty() || key == NOT_READY;
            unreachable |= key.is_empty() || key == UNREACHABLE;
        }
    }
    if not_ready && unreachable {
        return;
    }
    let list = spec
        .entry("tolerations")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !list.is_array() {
        *list = Value::Array(Vec::new());
    }
    let Some(list) = list.as_array_mut() else {
        return;
    };
    for (tolerated, key) in [(not_ready, NOT_READY), (unreachable, UNREACHABLE)] {
        if !tolerated {
            list.push(json!({"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}));
        }
    }
}
