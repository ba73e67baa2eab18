//! The server over HTTP, for clients that need a socket (kubectl, or anything given a
//! kubeconfig): HTTP/1.1 on a listener, each connection served on its own task.
//!
//! There is no authentication: bind to a loopback address unless the network around is
//! trusted.

use std::future::Future;
use std::net::SocketAddr;

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

/// A server on a loopback port, served by a thread of its own until this is dropped: for a
/// test that runs kubectl, or any other HTTP client, against a server in its own process.
///
/// ```no_run
/// let running = smp_apiserver::serve::Background::start(smp_apiserver::ApiServer::default())?;
/// std::fs::write("kubeconfig.yaml", running.kubeconfig())?;
/// // kubectl --kubeconfig kubeconfig.yaml get namespaces
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Background {
    address: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl Background {
    /// Binds a free loopback port and starts serving `server` on it (from any thread, inside
    /// an async runtime or not).
    pub fn start(server: ApiServer) -> std::io::Result<Background> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let address = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("smp-apiserver".into())
            .spawn(move || {
                runtime.block_on(async {
                    let listener = TcpListener::from_std(listener)?;
                    serve(server, listener, async {
                        // Stopped, or the handle dropped without a word: either way, done.
                        let _ = stopped.await;
                    })
                    .await
                })
            })?;
        Ok(Background {
            address,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Where it listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// A kubeconfig whose current context is this server.
    pub fn kubeconfig(&self) -> String {
        kubeconfig(&self.url())
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            // The serving thread's own result (an I/O error) is no concern of a drop.
            let _ = thread.join();
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
