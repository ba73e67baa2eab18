//! What form an answer is asked for in: the `Accept` header's media types, tried in order of
//! preference, as apimachinery's `negotiation` package and apiserver's `RequestScope` read them.
//! A media type may ask for the object transformed (`as=Table`, `as=PartialObjectMetadata`,
//! `as=PartialObjectMetadataList`, with `g=meta.k8s.io` and `v=v1` or `v1beta1`).
//!
//! Answers here are JSON only: a media type this server does not write (YAML, protobuf, CBOR)
//! is passed over for the next one. A header none of whose media types it can answer is
//! refused (406) when it asks for a transformed object; without such a request it gets JSON,
//! as it always has (kube-apiserver would answer YAML or protobuf).

use crate::status::ApiError;

/// The form of the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// The object as served.
    Object,
    /// A `Table`, of this `apiVersion`.
    Table(&'static str),
    /// An object's metadata alone, as a `PartialObjectMetadata` of this `apiVersion`.
    Metadata(&'static str),
    /// A list's, as a `PartialObjectMetadataList`.
    MetadataList(&'static str),
}

/// The media types the server lists when it refuses an `Accept` header.
const OFFERED: [&str; 3] = [
    "application/json",
    "application/yaml",
    "application/vnd.kubernetes.protobuf",
];

/// One media type of an `Accept` header.
struct Clause<'a> {
    ty: &'a str,
    subtype: &'a str,
    quality: f64,
    transform: Option<(&'a str, &'a str, &'a str)>,
}

fn clauses(accept: &str) -> Vec<Clause<'_>> {
    let mut clauses: Vec<Clause<'_>> = accept
        .split(',')
        .filter_map(|clause| {
            let mut parts = clause.split(';');
            let (ty, subtype) = parts.next()?.trim().split_once('/')?;
            let (mut quality, mut as_, mut group, mut version) = (1.0, None, None, None);
            for parameter in parts {
                let Some((key, value)) = parameter.split_once('=') else {
                    continue;
                };
                let value = value.trim().trim_matches('"');
                match key.trim().to_ascii_lowercase().as_str() {
                    "q" => quality = value.parse().unwrap_or(0.0),
                    "as" => as_ = Some(value),
                    "g" => group = Some(value),
                    "v" => version = Some(value),
                    _ => {}
                }
            }
            Some(Clause {
                ty: ty.trim(),
                subtype: subtype.trim(),
                quality,
                transform: as_.map(|a| (a, group.unwrap_or(""), version.unwrap_or(""))),
            })
        })
        .collect();
    // Most wanted first; of equal quality, a named type before a wildcard.
    clauses.sort_by(|a, b| {
        b.quality
            .total_cmp(&a.quality)
            .then_with(|| (a.ty == "*").cmp(&(b.ty == "*")))
            .then_with(|| (a.subtype == "*").cmp(&(b.subtype == "*")))
    });
    clauses
}

/// The form `accept` asks for. `tables`: whether the resource's objects can be tables (every
/// resource here can; the streams of `pods/log` and the like cannot).
pub(crate) fn negotiate(accept: &str, tables: bool) -> Result<Form, ApiError> {
    if accept.trim().is_empty() {
        return Ok(Form::Object);
    }
    let clauses = clauses(accept);
    for clause in clauses.iter().filter(|c| c.quality > 0.0) {
        let json = matches!(
            (clause.ty, clause.subtype),
            ("application", "json") | ("application", "*") | ("*", "*")
        );
        if !json {
            continue;
        }
        let Some((as_, group, version)) = clause.transform else {
            return Ok(Form::Object);
        };
        let api_version = match (group, version) {
            ("meta.k8s.io", "v1") => "meta.k8s.io/v1",
            ("meta.k8s.io", "v1beta1") => "meta.k8s.io/v1beta1",
            _ => continue,
        };
        match as_ {
            "Table" if tables => return Ok(Form::Table(api_version)),
            "PartialObjectMetadata" => return Ok(Form::Metadata(api_version)),
            "PartialObjectMetadataList" => return Ok(Form::MetadataList(api_version)),
            _ => continue,
        }
    }
    if clauses.iter().any(|c| c.transform.is_some()) {
        Err(ApiError::not_acceptable(&OFFERED))
    } else {
        Ok(Form::Object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_gets_a_v1_table() {
        let kubectl = "application/json;as=Table;v=v1;g=meta.k8s.io,\
                       application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
        assert_eq!(
            negotiate(kubectl, true).unwrap(),
            Form::Table("meta.k8s.io/v1")
        );
        assert_eq!(negotiate(kubectl, false).unwrap(), Form::Object);
    }

    #[test]
    fn metadata_is_asked_for_by_object_or_list() {
        let client_go = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;\
                         g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;\
                         g=meta.k8s.io;v=v1,application/json";
        assert_eq!(
            negotiate(client_go, true).unwrap(),
            Form::MetadataList("meta.k8s.io/v1")
        );
        assert_eq!(
            negotiate(
                "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
                true
            )
            .unwrap(),
            Form::Metadata("meta.k8s.io/v1")
        );
    }

    #[test]
    fn preference_follows_quality() {
        let accept = "application/json;q=0.5,application/json;as=Table;g=meta.k8s.io;v=v1";
        assert_eq!(
            negotiate(accept, true).unwrap(),
            Form::Table("meta.k8s.io/v1")
        );
    }

    #[test]
    fn a_transform_nothing_serves_is_refused() {
        for accept in [
            "application/json;as=Table",
            "application/json;as=Table;g=meta.k8s.io;v=v2",
            "application/json;as=Widget;g=meta.k8s.io;v=v1",
            "application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1",
        ] {
            let error = negotiate(accept, true).unwrap_err();
            assert_eq!(error.code, 406, "{accept}");
            assert_eq!(
                error.message,
                "only the following media types are accepted: application/json, \
                 application/yaml, application/vnd.kubernetes.protobuf"
            );
        }
        assert_eq!(negotiate("application/yaml", true).unwrap(), Form::Object);
    }
}
