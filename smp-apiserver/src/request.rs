//! What a request asks for, read from its method, path and query as the API server reads them
//! (its `RequestInfo`): the verb, the group, version and resource, the namespace and name, the
//! subresource, and the options of the query.

use std::collections::BTreeMap;

use crate::status::ApiError;

/// A request for a resource.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestInfo {
    /// The verb: to read, `get`, `list` or `watch`; to write, `create`, `update`, `patch`,
    /// `delete` or `deletecollection`.
    pub verb: &'static str,
    /// The group (`""`: the core group).
    pub group: String,
    /// The version.
    pub version: String,
    /// The plural name.
    pub resource: String,
    /// The subresource (`status`), or empty.
    pub subresource: String,
    /// The namespace, or empty.
    pub namespace: String,
    /// The object's name, or empty.
    pub name: String,
    /// The query's options, decoded.
    pub query: BTreeMap<String, String>,
}

/// What a path names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `/version`.
    Version,
    /// `/openapi/v2`: the Swagger 2.0 document.
    OpenApiV2,
    /// `/openapi/v3`: the index of the group-versions' documents.
    OpenApiIndex,
    /// `/openapi/v3/api/v1`, `/openapi/v3/apis/{group}/{version}`.
    OpenApi {
        /// The group (`""`: the core group).
        group: String,
        /// The version.
        version: String,
    },
    /// `/api`.
    CoreVersions,
    /// `/apis`.
    Groups,
    /// `/api/v1`, `/apis/{group}/{version}`: a group-version's resource list.
    ResourceList {
        /// The group (`""`: the core group).
        group: String,
        /// The version.
        version: String,
    },
    /// `/apis/{group}`: a group.
    Group(String),
    /// A resource or an object.
    Resource(RequestInfo),
}

/// Subresources of a namespace (`/api/v1/namespaces/{name}/status`), not resources in it.
const NAMESPACE_SUBRESOURCES: [&str; 2] = ["status", "finalize"];

/// Reads a request's method, path and query.
pub fn parse(method: &http::Method, path: &str, query: Option<&str>) -> Result<Target, ApiError> {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let (group, version, rest) = match parts.as_slice() {
        ["version"] => return Ok(Target::Version),
        ["openapi", "v2"] => return Ok(Target::OpenApiV2),
        ["openapi", "v3"] => return Ok(Target::OpenApiIndex),
        ["openapi", "v3", "api", version] => {
            return Ok(Target::OpenApi {
                group: String::new(),
                version: (*version).to_owned(),
            });
        }
        ["openapi", "v3", "apis", group, version] => {
            return Ok(Target::OpenApi {
                group: (*group).to_owned(),
                version: (*version).to_owned(),
            });
        }
        ["api"] => return Ok(Target::CoreVersions),
        ["apis"] => return Ok(Target::Groups),
        ["api", version] => {
            return Ok(Target::ResourceList {
                group: String::new(),
                version: (*version).to_owned(),
            });
        }
        ["apis", group] => return Ok(Target::Group((*group).to_owned())),
        ["apis", group, version] => {
            return Ok(Target::ResourceList {
                group: (*group).to_owned(),
                version: (*version).to_owned(),
            });
        }
        ["api", version, rest @ ..] => ("", *version, rest),
        ["apis", group, version, rest @ ..] => (*group, *version, rest),
        _ => return Err(ApiError::no_route(path)),
    };
    let mut info = RequestInfo {
        group: group.to_owned(),
        version: version.to_owned(),
        query: decode_query(query.unwrap_or(""))?,
        ..RequestInfo::default()
    };
    // `namespaces/{ns}/...` names a namespace's resources, unless what follows is one of the
    // namespace's own subresources.
    let rest: &[&str] = match rest {
        ["namespaces", namespace, rest @ ..]
            if !rest.is_empty() && !NAMESPACE_SUBRESOURCES.contains(&rest[0]) =>
        {
            info.namespace = decode(namespace)?;
            rest
        }
        _ => rest,
    };
    match rest {
        [resource] => info.resource = decode(resource)?,
        [resource, name] => {
            info.resource = decode(resource)?;
            info.name = decode(name)?;
        }
        [resource, name, subresource] => {
            info.resource = decode(resource)?;
            info.name = decode(name)?;
            info.subresource = decode(subresource)?;
        }
        _ => return Err(ApiError::no_route(path)),
    }
    if info.resource.is_empty() {
        return Err(ApiError::no_route(path));
    }
    let watch = info
        .query
        .get("watch")
        .is_some_and(|w| w == "true" || w == "1");
    info.verb = match (method.as_str(), info.name.is_empty()) {
        ("GET", true) if watch => "watch",
        ("GET", true) => "list",
        ("GET", false) => "get",
        ("POST", true) => "create",
        // A subresource that acts (`pods/x/eviction`, `serviceaccounts/x/token`, `pods/x/exec`).
        ("POST", false) if !info.subresource.is_empty() => "create",
        ("PUT", false) => "update",
        ("PATCH", false) => "patch",
        ("DELETE", false) => "delete",
        ("DELETE", true) => "deletecollection",
        _ => {
            return Err(ApiError::method_not_allowed(
                method.as_str(),
                &info.resource,
            ));
        }
    };
    Ok(Target::Resource(info))
}

/// A path segment with its `%XX` escapes decoded.
fn decode(segment: &str) -> Result<String, ApiError> {
    percent_decode(segment, false)
}

/// A query's `key=value` pairs, decoded (`+` is a space).
fn decode_query(query: &str) -> Result<BTreeMap<String, String>, ApiError> {
    let mut out = BTreeMap::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        out.insert(percent_decode(key, true)?, percent_decode(value, true)?);
    }
    Ok(out)
}

fn percent_decode(text: &str, plus_is_space: bool) -> Result<String, ApiError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| ApiError::bad_request(format!("invalid escape in {text:?}")))?;
                out.push(hex);
                i += 3;
            }
            b'+' if plus_is_space => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| ApiError::bad_request(format!("invalid UTF-8 in {text:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(method: http::Method, path: &str, query: Option<&str>) -> RequestInfo {
        match parse(&method, path, query).unwrap() {
            Target::Resource(info) => info,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn paths_read_as_the_server_reads_them() {
        let i = info(
            http::Method::PATCH,
            "/apis/apps/v1/namespaces/default/deployments/web",
            None,
        );
        assert_eq!(
            (
                i.verb,
                i.group.as_str(),
                i.resource.as_str(),
                i.namespace.as_str(),
                i.name.as_str()
            ),
            ("patch", "apps", "deployments", "default", "web")
        );
        let i = info(http::Method::GET, "/api/v1/namespaces/kube-system", None);
        assert_eq!(
            (i.verb, i.resource.as_str(), i.name.as_str()),
            ("get", "namespaces", "kube-system")
        );
        let i = info(http::Method::PUT, "/api/v1/namespaces/x/status", None);
        assert_eq!(
            (i.resource.as_str(), i.name.as_str(), i.subresource.as_str()),
            ("namespaces", "x", "status")
        );
        let i = info(
            http::Method::GET,
            "/api/v1/pods",
            Some("watch=true&labelSelector=a%3Db"),
        );
        assert_eq!((i.verb, i.namespace.as_str()), ("watch", ""));
        assert_eq!(i.query["labelSelector"], "a=b");
        let i = info(
            http::Method::PUT,
            "/apis/apps/v1/namespaces/d/deployments/web/status",
            None,
        );
        assert_eq!((i.verb, i.subresource.as_str()), ("update", "status"));
    }

    #[test]
    fn discovery_paths() {
        assert_eq!(
            parse(&http::Method::GET, "/apis", None).unwrap(),
            Target::Groups
        );
        assert_eq!(
            parse(&http::Method::GET, "/apis/apps/v1", None).unwrap(),
            Target::ResourceList {
                group: "apps".into(),
                version: "v1".into()
            }
        );
        assert!(parse(&http::Method::GET, "/nothing", None).is_err());
        assert!(parse(&http::Method::POST, "/api/v1/namespaces/d/pods/x", None).is_err());
    }
}
