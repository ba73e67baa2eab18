//! `smp validate`: whether the API server would take each object, and if not, its reasons in
//! the server's words. Each object goes through what the server does before it validates
//! (defaults, the create-time strategy) and then its kind's validation
//! (`smp_admission::validation`); with `--old`, an object that has a counterpart there is
//! validated as an update of it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::Value;
use smp_core::DocRole;
use smp_core::error::kind_of;

use crate::documents::{Place, objects};
use crate::error::CliError;
use crate::io::{InputArgs, Source};

const EXAMPLE: &str = "\
Example:
  smp validate -f examples/deployment.yaml
  smp validate -f new.yaml --old live.yaml

Every object of FILE (a multi-document YAML stream, JSON, or a List) is defaulted as
kube-apiserver v1.34 defaults it and validated as it validates a create. For each invalid
object, standard output gets one line per field error, exactly as the server's 422 message
lists them (each once, in its order), and standard error a line naming the object. The status
is 0 when every object is valid, 1 otherwise.

With --crd FILE_OR_DIR, custom resources of those CustomResourceDefinitions are pruned of the
fields their schema does not declare (each named in a warning, as the server's default
fieldValidation=Warn does), defaulted and checked against their schema's constraints (types,
enum, pattern, format, bounds, lengths, required members, set and map lists) and their
`x-kubernetes-validations` rules, ratcheted on update as the server does.

With --cluster FILE, the objects of FILE are what the cluster holds, and a valid object then
goes through the validating admission plugins as the server runs them: LimitRanger's checks
(the cluster's LimitRanges), PodSecurity (its Namespaces' pod-security.kubernetes.io labels),
PersistentVolumeClaimResize (its StorageClasses) and its ValidatingAdmissionPolicies and
bindings (with their parameters). A refusal is printed as the server's message on standard
output and counts as invalid; their warnings go to standard error.

With --old FILE, an object whose kind, namespace and name match one of the old file's is
validated as an update of it (immutable fields, the kind's update rules); the others as
creates. Kinds whose rules smp does not have yet are reported on standard error and count as
valid.";

/// Validate objects as the API server does, printing its field errors.
#[derive(Debug, Args)]
#[command(after_long_help = EXAMPLE)]
pub struct ValidateArgs {
    /// The objects (JSON or YAML, several documents or a List; `-` for stdin).
    #[arg(short = 'f', long = "filename", value_name = "FILE")]
    file: PathBuf,

    /// The objects as they are now: validate the matching objects of FILE as updates of them.
    #[arg(long, value_name = "FILE")]
    old: Option<PathBuf>,

    /// CustomResourceDefinitions (a file, several YAML documents, a `List`, or a directory of
    /// them): custom resources of their kinds are pruned (each unknown field named in a
    /// warning), defaulted and validated by their schemas. May be repeated.
    #[arg(long = "crd", value_name = "FILE_OR_DIR")]
    crd: Vec<PathBuf>,

    /// What the cluster holds (Namespaces and their labels, LimitRanges, StorageClasses,
    /// ValidatingAdmissionPolicies, their bindings and parameters...): valid objects then go
    /// through the validating admission plugins, which read it. May be repeated.
    #[arg(long = "cluster", value_name = "FILE")]
    cluster: Vec<PathBuf>,

    #[command(flatten)]
    input: InputArgs,
}

/// What identifies an object: its group, kind, namespace and name.
type Identity = (String, String, String, String);

fn identity(object: &Value) -> Identity {
    let text = |pointer: &str| {
        object
            .pointer(pointer)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let api_version = text("/apiVersion");
    let group = api_version
        .split_once('/')
        .map_or("", |(g, _)| g)
        .to_owned();
    (
        group,
        text("/kind"),
        text("/metadata/namespace"),
        text("/metadata/name"),
    )
}

/// The objects of each document of a file, with their item numbers in Lists.
type Documents = Vec<Vec<(Option<usize>, Value)>>;

fn read_objects(args: &ValidateArgs, file: &Path) -> Result<Documents, CliError> {
    let source = Source::new(file);
    let text = args.input.read_text(file, DocRole::Original)?;
    let docs = smp_core::input::parse_documents(&text, DocRole::Original)
        .map_err(|e| CliError::new(format_args!("{} {source}", DocRole::Original), e))?;
    Ok(docs.into_iter().map(objects).collect())
}

/// One line per field error on standard output, the object named on standard error.
fn print_refused(refused: &smp_admission::validation::Invalid, place: &Place<'_>) {
    for line in refused.lines() {
        println!("{line}");
    }
    eprintln!(
        "error: {place}: {} {:?} is invalid",
        refused.qualified_kind(),
        refused.name
    );
}

/// A custom resource through what the server does to it: decoding (pruning, each unknown
/// field a warning), its schema's defaults, the create-time metadata, then its strategy's
/// validation (as an update of its counterpart in `old`, if any). The 422's contents when it
/// would be refused.
fn validate_custom(
    definition: &smp_admission::customresource::Definition,
    object: &mut Value,
    old: &HashMap<Identity, Value>,
    place: &Place<'_>,
) -> Result<
    Option<smp_admission::validation::Invalid>,
    smp_admission::customresource::CustomResourceError,
> {
    for path in definition.decode(object)? {
        eprintln!("Warning: {place}: unknown field \"{path}\"");
    }
    definition.default(object)?;
    // As kubectl sends it: to its namespace, `default` unless it names one.
    if definition.namespaced()
        && object.pointer("/metadata/namespace").is_none()
        && let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut)
    {
        meta.insert("namespace".into(), "default".into());
    }
    let outcome = match old.get(&identity(object)) {
        Some(before) => {
            crate::server_steps::keep_stored_metadata(object, before);
            let checked = definition.check_update(object, before)?;
            // Rules that still fail over what the update left alone: the server's warnings.
            for warning in &checked.warnings {
                eprintln!("Warning: {place}: {warning}");
            }
            definition.outcome(object, checked.errors)
        }
        None => {
            crate::server_steps::generate_name(object);
            crate::server_steps::give_uid(object);
            definition.validate_create(object)
        }
    };
    match outcome {
        Ok(()) => Ok(None),
        Err(smp_admission::customresource::CustomResourceError::Invalid(refused)) => {
            Ok(Some(*refused))
        }
        Err(e) => Err(e),
    }
}

/// The cluster of `--cluster`, when given.
fn read_cluster(
    args: &ValidateArgs,
) -> Result<Option<smp_admission::admission::OfflineCluster>, CliError> {
    if args.cluster.is_empty() {
        return Ok(None);
    }
    let mut cluster = smp_admission::admission::OfflineCluster::new();
    for path in &args.cluster {
        for doc in read_objects(args, path)? {
            for (_, mut object) in doc {
                if object.is_object() {
                    // The cluster holds its objects defaulted.
                    let _ = smp_admission::defaulting::default_object(&mut object);
                    cluster.add(object);
                }
            }
        }
    }
    Ok(Some(cluster))
}

/// The validating admission plugins on a valid object, in the server's order: LimitRanger,
/// PodSecurity and PersistentVolumeClaimResize for built-in kinds, then the admission
/// policies. The server's message when one refuses it; warnings go to standard error.
fn admit(
    object: &Value,
    before: Option<&Value>,
    builtin: bool,
    cluster: &smp_admission::admission::OfflineCluster,
    place: &Place<'_>,
) -> Option<String> {
    use smp_admission::admission::{self, pod_security};
    use smp_admission::validating_admission_policy as policies;
    let namespace = object
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .unwrap_or("");
    if builtin {
        if let Err(refused) = admission::validate_limits(object, before, namespace, "", cluster) {
            return Some(refused.to_string());
        }
        let request = match before {
            Some(old) => pod_security::Request::update(object, old, namespace),
            None => pod_security::Request::create(object, namespace),
        };
        let decision = pod_security::validate(&request, cluster, &pod_security::Options::default());
        match decision.refusal {
            Some(refused) => return Some(refused.to_string()),
            None => {
                for warning in decision.warnings {
                    eprintln!("Warning: {place}: {warning}");
                }
            }
        }
        if let Some(old) = before
            && let Err(refused) = admission::validate_claim_resize(object, old, "", cluster)
        {
            return Some(refused.to_string());
        }
    }
    let api_version = object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let kind = object.get("kind").and_then(Value::as_str).unwrap_or("");
    let resource = admission::resource_of_kind(kind);
    let mut request = policies::Request::create(object, group, version, &resource, namespace);
    if let Some(old) = before {
        request = request.updating(old);
    }
    let decision = policies::validate(&request, cluster);
    for warning in decision.warnings {
        eprintln!("Warning: {place}: {warning}");
    }
    let denial = decision.denial?;
    let name = object
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let qualified = if group.is_empty() {
        resource.clone()
    } else {
        format!("{resource}.{group}")
    };
    Some(format!(
        "{qualified} {name:?} is forbidden: {}",
        denial.message
    ))
}

/// One line, the server's message, on standard output; the object named on standard error.
fn print_forbidden(message: &str, place: &Place<'_>) {
    println!("{message}");
    eprintln!("error: {place}: refused by admission");
}

/// Runs `smp validate`.
pub fn run(args: &ValidateArgs) -> Result<(), CliError> {
    let source = Source::new(&args.file);
    let definitions = crate::io::custom_resource_definitions(&args.crd)?;
    let cluster = read_cluster(args)?;
    let mut old: HashMap<Identity, Value> = HashMap::new();
    if let Some(path) = &args.old {
        for doc in read_objects(args, path)? {
            for (_, mut object) in doc {
                if object.is_object() {
                    // The stored object is a defaulted one.
                    if definitions.definition_of(&object).is_some() {
                        let _ = definitions.admit(&mut object);
                    } else {
                        let _ = smp_admission::defaulting::default_object(&mut object);
                    }
                    let api_version = object["apiVersion"].as_str().unwrap_or("").to_owned();
                    let kind = object["kind"].as_str().unwrap_or("").to_owned();
                    crate::server_steps::settle_namespace(&mut object, &api_version, &kind);
                    old.insert(identity(&object), object);
                }
            }
        }
    }
    let mut invalid = 0usize;
    let mut errors = Vec::new();
    for (i, doc) in read_objects(args, &args.file)?.into_iter().enumerate() {
        for (item, mut object) in doc {
            let place = Place {
                source,
                document: i + 1,
                item,
            };
            if !object.is_object() {
                let found = format!("expected an object, found {}", kind_of(&object));
                errors.push(CliError::new(place, found));
                continue;
            }
            if let Some(definition) = definitions.definition_of(&object) {
                match validate_custom(definition, &mut object, &old, &place) {
                    Ok(None) => {
                        let before = old.get(&identity(&object));
                        if let Some(cluster) = &cluster
                            && let Some(refused) = admit(&object, before, false, cluster, &place)
                        {
                            invalid += 1;
                            print_forbidden(&refused, &place);
                        }
                    }
                    Ok(Some(refused)) => {
                        invalid += 1;
                        print_refused(&refused, &place);
                    }
                    Err(e) => errors.push(CliError::new(place, e)),
                }
                continue;
            }
            if let Err(e) = smp_admission::defaulting::default_object(&mut object) {
                errors.push(CliError::new(place, e));
                continue;
            }
            let api_version = object["apiVersion"].as_str().unwrap_or("").to_owned();
            let kind = object["kind"].as_str().unwrap_or("").to_owned();
            if api_version == "apiextensions.k8s.io/v1" && kind == "CustomResourceDefinition" {
                use smp_admission::customresourcedefinition as crd;
                let outcome = match old.get(&identity(&object)) {
                    Some(before) => {
                        crd::prepare_for_update(&mut object, before);
                        crd::check_update(&object, before)
                    }
                    None => {
                        crd::prepare_for_create(&mut object);
                        crd::check_create(&object)
                    }
                };
                if let Err(refused) = outcome {
                    invalid += 1;
                    print_refused(&refused, &place);
                }
                continue;
            }
            if !smp_admission::validation::covered(&api_version, &kind) {
                eprintln!(
                    "warning: {place}: smp has no validation rules for {kind} ({api_version}) yet"
                );
                continue;
            }
            crate::server_steps::settle_namespace(&mut object, &api_version, &kind);
            let before = old.get(&identity(&object));
            let outcome = match before {
                Some(before) => {
                    crate::server_steps::keep_stored_metadata(&mut object, before);
                    smp_admission::strategy::prepare_for_update(&mut object, before);
                    smp_admission::validation::validate_update(&object, before)
                }
                None => {
                    crate::server_steps::generate_name(&mut object);
                    crate::server_steps::give_uid(&mut object);
                    // With a cluster, the mutating plugins first (LimitRanger's defaults,
                    // the service account's token...), as the server runs them.
                    if let Some(cluster) = &cluster {
                        let namespace = object
                            .pointer("/metadata/namespace")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_owned();
                        let plugins = smp_admission::admission::Plugins::all();
                        if let Err(refused) = smp_admission::admission::admit_create(
                            &mut object,
                            &namespace,
                            cluster,
                            &plugins,
                        ) {
                            invalid += 1;
                            print_forbidden(&refused.to_string(), &place);
                            continue;
                        }
                    }
                    smp_admission::strategy::prepare_for_create(&mut object);
                    smp_admission::validation::validate_create(&object)
                }
            };
            match outcome {
                Ok(()) => {
                    // The strategy's warnings of a valid object, as the server sends them.
                    let warnings = match before {
                        Some(before) => {
                            smp_admission::warnings::warnings_on_update(&object, before)
                        }
                        None => smp_admission::warnings::warnings_on_create(&object),
                    };
                    for warning in warnings {
                        eprintln!("Warning: {place}: {warning}");
                    }
                    if let Some(cluster) = &cluster
                        && let Some(refused) = admit(&object, before, true, cluster, &place)
                    {
                        invalid += 1;
                        print_forbidden(&refused, &place);
                    }
                }
                Err(smp_admission::validation::ValidationError::Invalid(refused)) => {
                    invalid += 1;
                    print_refused(&refused, &place);
                }
                Err(e) => errors.push(CliError::new(place, e)),
            }
        }
    }
    if invalid > 0 && errors.is_empty() {
        let objects = if invalid == 1 {
            "object is"
        } else {
            "objects are"
        };
        return Err(CliError::message(format_args!(
            "{invalid} {objects} invalid"
        )));
    }
    crate::documents::report(errors)
}
