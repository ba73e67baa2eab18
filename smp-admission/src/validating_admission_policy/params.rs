//! A binding's parameters (`CollectParams`): none without a `paramKind` or a `paramRef`, else
//! the objects its `paramRef` names or selects, in the namespace it gives or the write's.

use serde_json::Value;

use super::{Request, text};
use crate::admission::Cluster;
use crate::validation::meta::selector_matches;

/// The parameter objects each evaluation gets (`None`: `params` is null).
pub(super) fn collect(
    policy: &Value,
    binding: &Value,
    request: &Request<'_>,
    cluster: &dyn Cluster,
) -> Result<Vec<Option<Value>>, String> {
    let (Some(kind), Some(reference)) = (
        policy.pointer("/spec/paramKind").filter(|k| !k.is_null()),
        binding.pointer("/spec/paramRef").filter(|r| !r.is_null()),
    ) else {
        return Ok(vec![None]);
    };
    let (api_version, kind_name) = (text(kind, "/apiVersion"), text(kind, "/kind"));
    let Some((resource, namespaced)) = cluster.resource_for(api_version, kind_name) else {
        return Err(format!(
            "paramKind kind `&ParamKind{{APIVersion:{api_version},Kind:{kind_name},}}` not known"
        ));
    };
    let ref_namespace = text(reference, "/namespace");
    let namespace = if namespaced {
        if !ref_namespace.is_empty() {
            ref_namespace
        } else if !request.namespace.is_empty() {
            request.namespace
        } else {
            return Err("cannot use namespaced paramRef in policy binding that matches cluster-scoped resources".to_owned());
        }
    } else {
        if !ref_namespace.is_empty() {
            return Err(
                "paramRef.namespace must not be provided for a cluster-scoped `paramKind`"
                    .to_owned(),
            );
        }
        ""
    };
    let name = text(reference, "/name");
    let selector = reference.get("selector").filter(|s| !s.is_null());
    let params: Vec<Option<Value>> = if !name.is_empty() {
        if selector.is_some() {
            return Err("paramRef.name and paramRef.selector are mutually exclusive".to_owned());
        }
        cluster
            .get(&resource, namespace, name)
            .map(Some)
            .into_iter()
            .collect()
    } else if let Some(selector) = selector {
        cluster
            .list(&resource, namespace)
            .into_iter()
            .filter(|p| selector_matches(selector, p.pointer("/metadata/labels")))
            .map(Some)
            .collect()
    } else {
        return Err("one of name or selector must be provided".to_owned());
    };
    if params.is_empty() && text(reference, "/parameterNotFoundAction") == "Deny" {
        return Err(
            "no params found for policy binding with `Deny` parameterNotFoundAction".to_owned(),
        );
    }
    Ok(params)
}
