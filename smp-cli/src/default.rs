//! `smp default`: each object as the API server would hold it after decoding and creating
//! it: the defaults of its kind (`smp_admission::defaulting`), then its strategy's create-time
//! steps (`smp_admission::strategy`).

use std::path::PathBuf;

use clap::Args;
use smp_core::DocRole;
use smp_core::error::kind_of;

use crate::documents::{Place, Printer, objects, report};
use crate::error::CliError;
use crate::io::{Format, InputArgs, Source};

const EXAMPLE: &str = "\
Example:
  smp default -f examples/deployment.yaml -o yaml

Every document of FILE (a multi-document YAML stream, JSON, or a List, whose items are taken
one by one) is printed with the defaults kube-apiserver v1.34 gives its kind when it decodes
it: a Deployment's strategy, revisionHistoryLimit and progressDeadlineSeconds, every
container's imagePullPolicy and termination message settings, a Service's type,
sessionAffinity and ports' targetPort..., then what the default admission plugins add on
create (a Pod's service account and its token volume, priority and tolerations; a claim's
default StorageClass; read from --cluster files, or a new cluster's), then what the kind's
strategy sets on create (a Pod's status: Pending and its QoS class), printed as the server
prints its Go structs (`resources: {}`, `status: {}`, quantities in canonical form). A
custom resource of a --crd CustomResourceDefinition is pruned of the fields its schema does
not declare (each named in a warning) and given its schema's defaults. Other kinds without
defaults print as they are. An object
that cannot be defaulted (no apiVersion or kind) prints one `error: ` line naming it; the
others are still printed, and the status is 1.";

/// Print objects with their kind's defaults filled in, as the API server decodes them.
#[derive(Debug, Args)]
#[command(after_long_help = EXAMPLE)]
pub struct DefaultArgs {
    /// The objects (JSON or YAML, several documents or a List; `-` for stdin).
    #[arg(short = 'f', long = "filename", value_name = "FILE")]
    file: PathBuf,

    #[command(flatten)]
    input: InputArgs,

    /// Objects the cluster holds that the admission plugins read (ServiceAccounts,
    /// PriorityClasses, StorageClasses, IngressClasses, LimitRanges), as JSON or YAML; may be
    /// given several times. Without it, a new cluster's: each namespace's `default` service
    /// account and the system priority classes.
    #[arg(long = "cluster", value_name = "FILE")]
    cluster: Vec<PathBuf>,

    /// CustomResourceDefinitions (a file, several YAML documents, a `List`, or a directory of
    /// them): custom resources of their kinds are pruned of the fields their schema does not
    /// declare (each named on standard error, as the server's `fieldValidation=Warn` answer)
    /// and given their schema's defaults. May be repeated.
    #[arg(long = "crd", value_name = "FILE_OR_DIR")]
    crd: Vec<PathBuf>,

    /// Leave out the default admission plugins (a Pod's service account token volume,
    /// priority and tolerations, a claim's default StorageClass and protection finalizer...).
    #[arg(long = "no-admission")]
    no_admission: bool,

    /// Output format: `json` (kubectl's layout, a 4-space indent) or `yaml`, documents
    /// separated by `---`.
    #[arg(short = 'o', long = "output", value_enum, value_name = "FORMAT", default_value_t = Format::Json, hide_possible_values = true)]
    format: Format,
}

/// Runs `smp default`.
pub fn run(args: &DefaultArgs) -> Result<(), CliError> {
    let source = Source::new(&args.file);
    let text = args.input.read_text(&args.file, DocRole::Original)?;
    let docs = smp_core::input::parse_documents(&text, DocRole::Original)
        .map_err(|e| CliError::new(format_args!("{} {source}", DocRole::Original), e))?;
    drop(text);
    let mut out = Printer {
        format: args.format,
        printed: 0,
    };
    let mut errors = Vec::new();
    let plugins = if args.no_admission {
        smp_admission::admission::Plugins::none()
    } else {
        smp_admission::admission::Plugins::all()
    };
    let mut cluster = smp_admission::admission::OfflineCluster::new();
    for path in &args.cluster {
        let text = args.input.read_text(path, DocRole::Original)?;
        let docs = smp_core::input::parse_documents(&text, DocRole::Original)
            .map_err(|e| CliError::new(format_args!("--cluster {}", Source::new(path)), e))?;
        for doc in docs {
            for (_, object) in objects(doc) {
                cluster.add(object);
            }
        }
    }
    let definitions = crate::io::custom_resource_definitions(&args.crd)?;
    for (i, doc) in docs.into_iter().enumerate() {
        for (item, mut object) in objects(doc) {
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
            if definitions.definition_of(&object).is_some() {
                match definitions.admit(&mut object) {
                    Ok(unknown) => {
                        for path in unknown {
                            eprintln!("Warning: {place}: unknown field \"{path}\"");
                        }
                    }
                    Err(e) => {
                        errors.push(CliError::new(place, e));
                        continue;
                    }
                }
                out.print(&object)?;
                continue;
            }
            if let Err(e) = smp_admission::defaulting::default_object(&mut object) {
                errors.push(CliError::new(place, e));
                continue;
            }
            let namespace = object
                .pointer("/metadata/namespace")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("default")
                .to_owned();
            if let Err(e) =
                smp_admission::admission::admit_create(&mut object, &namespace, &cluster, &plugins)
            {
                errors.push(CliError::new(place, e));
                continue;
            }
            smp_admission::strategy::prepare_for_create(&mut object);
            smp_admission::printing::print_as_go(&mut object);
            out.print(&object)?;
        }
    }
    report(errors)
}
