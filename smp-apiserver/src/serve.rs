//! The server over HTTP, for clients that need a socket (kubectl, or anything given a
//! kubeconfig): HTTP/1.1 on a listener, each connection served on its own task.
//!
//! There is no authentication: bind to a loopback address unless the network around is
//! trusted.

use std::future::Future;

use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

use crate::ApiServer;

/// Serves `server` on `listener` until `shutdown` completes; connections open then are
/// dropped with the runtime.
pub async fn serve(
    server: ApiServer,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    // Out of file descriptors and the like: the server goes on.
                    Err(_) => continue,
                };
                // Answers are small: sent at once, not held back to be joined.
                let _ = stream.set_nodelay(true);
                let service = TowerToHyperService::new(server.clone());
                tokio::spawn(async move {
                    // A client that goes away mid-request is its own business.
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
            () = &mut shutdown => return Ok(()),
        }
    }
}

/// A kubeconfig whose current context is the server at `url`, with no credentials.
pub fn kubeconfig(url: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: smp\n  cluster:\n    server: {url}\n\
         contexts:\n- name: smp\n  context:\n    cluster: smp\n    user: smp\n    namespace: default\n\
         current-context: smp\nusers:\n- name: smp\n  user: {{}}\n"
    )
}
