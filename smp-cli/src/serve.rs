//! `smp serve`: the test API server (smp-apiserver) over HTTP, for kubectl and any client
//! given a kubeconfig.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;
use smp_apiserver::{ApiServer, Options};

use crate::error::CliError;

/// Serve a Kubernetes API for tests: objects in memory, every patch type exact.
///
/// Prints `listening on http://ADDRESS` as its first line, and with `--kubeconfig` writes a
/// kubeconfig whose current context is this server (`kubectl --kubeconfig FILE get pods`).
/// Stops on SIGINT or SIGTERM. There is no authentication: it binds to loopback addresses only,
/// unless `--allow-remote` says otherwise.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where to listen; port 0 picks a free one.
    #[arg(long, default_value = "127.0.0.1:0")]
    address: SocketAddr,
    /// Write a kubeconfig for this server to FILE.
    #[arg(long, value_name = "FILE")]
    kubeconfig: Option<PathBuf>,
    /// Listen on an address that is not loopback (anyone who can reach it can write).
    #[arg(long)]
    allow_remote: bool,
    /// Serve the CustomResourceDefinitions in FILE, or in the files of DIR, from the start
    /// (CRDs created through the API are served too).
    #[arg(long = "crd", value_name = "FILE_OR_DIR")]
    crd: Vec<PathBuf>,
    /// Take strategic merge patches for custom resources too, merged by their CRDs' schemas
    /// (the API server refuses them with 415 Unsupported Media Type, as this server does
    /// without this flag).
    #[arg(long)]
    crd_strategic_merge: bool,
    /// Do not do the garbage collector's work (deleting the dependents of deleted owners,
    /// holding owners deleted in the foreground for their dependents, orphaning): as on a
    /// cluster whose controller manager runs no garbage collector.
    #[arg(long)]
    no_garbage_collection: bool,
    /// Store built-in objects as they are written, without the defaults kube-apiserver gives
    /// them on decoding (a Deployment's strategy, containers' pull policies, ...). Most
    /// objects are invalid without them: add --no-validation to store them anyway.
    #[arg(long)]
    no_defaulting: bool,
    /// Store built-in objects without validating them (the API server refuses an invalid
    /// object with 422 Unprocessable Entity, as this server does without this flag).
    #[arg(long)]
    no_validation: bool,
    /// Leave out the default mutating admission plugins (a Pod's service account token,
    /// priority and tolerations, a claim's default StorageClass, ...).
    #[arg(long)]
    no_admission: bool,
}

impl ServeArgs {
    pub fn validate(&self) -> Result<(), String> {
        if !self.address.ip().is_loopback() && !self.allow_remote {
            return Err(format!(
                "{} is not a loopback address: the server has no authentication \
                 (--allow-remote to listen there anyway)",
                self.address
            ));
        }
        Ok(())
    }
}

pub fn run(args: &ServeArgs) -> Result<(), CliError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::new("starting the runtime", e))?;
    runtime.block_on(serve(args))
}

async fn serve(args: &ServeArgs) -> Result<(), CliError> {
    let listener = tokio::net::TcpListener::bind(args.address)
        .await
        .map_err(|e| CliError::new(format_args!("listening on {}", args.address), e))?;
    let address = listener
        .local_addr()
        .map_err(|e| CliError::new(format_args!("listening on {}", args.address), e))?;
    if !address.ip().is_loopback() {
        eprintln!(
            "warning: listening on {address}, which is not loopback: anyone who reaches it can \
             read and write every object"
        );
    }
    let server = ApiServer::new(Options {
        custom_resource_strategic_merge: args.crd_strategic_merge,
        garbage_collection: !args.no_garbage_collection,
        defaulting: !args.no_defaulting,
        validation: !args.no_validation,
        admission: if args.no_admission {
            smp_admission::admission::Plugins::none()
        } else {
            smp_admission::admission::Plugins::all()
        },
        ..Options::default()
    });
    for path in &args.crd {
        let mut crds = smp_core::openapi::crd::CrdCatalog::new();
        crds.add_path(path)
            .map_err(|e| CliError::new(format_args!("--crd {}", path.display()), e))?;
        if crds.documents().is_empty() {
            return Err(CliError::new(
                format_args!("--crd {}", path.display()),
                "no CustomResourceDefinition found there",
            ));
        }
        for crd in crds.documents() {
            server
                .create(crd)
                .map_err(|e| CliError::new(format_args!("--crd {}", path.display()), e))?;
        }
    }
    let url = format!("http://{address}");
    if let Some(path) = &args.kubeconfig {
        std::fs::write(path, smp_apiserver::serve::kubeconfig(&url))
            .map_err(|e| CliError::new(path.display(), e))?;
    }
    {
        let mut out = std::io::stdout().lock();
        // The first line is the address: scripts read it.
        let _ = writeln!(out, "listening on {url}");
        let _ = out.flush();
    }
    smp_apiserver::serve::serve(server, listener, stopped())
        .await
        .map_err(|e| CliError::new("serving", e))
}

/// Completes on SIGINT or SIGTERM.
async fn stopped() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(signal) => signal,
                Err(_) => {
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}
