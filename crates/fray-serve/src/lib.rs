//! `fray serve`: the web tracker's server. A front end on the live session API
//! (`fray_engine::session::Session`) and the audiences (`fray_core::audience`), never a second
//! engine: fights are kept in a [`store::Store`] (SQLite by default, PostgreSQL to grow) as
//! their setup and an append-only log of what people did, replayed into a session; the API
//! ([`api`]) serves each viewer the view its role may see ([`view`]).

pub mod action;
pub mod api;
pub mod fights;
pub mod openapi;
pub mod pages;
pub mod store;
pub mod token;
pub mod view;

use std::net::SocketAddr;
use std::sync::Arc;

pub use fights::Limits;

/// The database used when no `--db` is given: a SQLite file in the working directory.
pub const DEFAULT_DB: &str = "sqlite://fray-serve.db";

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The store could not be opened.
    #[error("{0}")]
    Store(#[from] store::StoreError),
    /// The address could not be bound, or serving failed.
    #[error("{addr}: {message}")]
    Listen {
        /// The address.
        addr: String,
        /// What went wrong.
        message: String,
    },
    /// Something else (the built-in content, the system's randomness).
    #[error("{0}")]
    Other(String),
}

/// A server ready to serve: its store open, its listener bound.
#[derive(Debug)]
pub struct Server {
    listener: tokio::net::TcpListener,
    state: Arc<api::AppState>,
}

impl Server {
    /// Opens the store `db` and binds `addr`.
    pub async fn bind(db: &str, addr: &str, limits: Limits) -> Result<Server, ServeError> {
        let store = store::open(db).await?;
        let library = fray_engine::Library::embedded()
            .map_err(|e| ServeError::Other(format!("built-in content is broken: {e}")))?;
        let key = token::token().map_err(ServeError::Other)?;
        let listener =
            tokio::net::TcpListener::bind(addr)
                .await
                .map_err(|e| ServeError::Listen {
                    addr: addr.to_string(),
                    message: e.to_string(),
                })?;
        let changes = store.changes().await?;
        let state = Arc::new(api::AppState {
            fights: fights::Fights::new(store, library, limits),
            key,
        });
        if let Some(mut changes) = changes {
            // Another process's answers reach this one's WebSocket clients.
            let state = Arc::downgrade(&state);
            tokio::spawn(async move {
                while let Some(id) = changes.recv().await {
                    let Some(state) = state.upgrade() else { break };
                    let _ = state.fights.refresh(&id).await;
                }
            });
        }
        Ok(Server { listener, state })
    }

    /// The address it listens on.
    pub fn addr(&self) -> Result<SocketAddr, ServeError> {
        self.listener
            .local_addr()
            .map_err(|e| ServeError::Other(e.to_string()))
    }

    /// The server's key: creating and listing fights needs it.
    pub fn key(&self) -> &str {
        &self.state.key
    }

    /// Serves until `shutdown` completes.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let addr = self.addr()?.to_string();
        axum::serve(self.listener, api::router(self.state))
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(|e| ServeError::Listen {
                addr,
                message: e.to_string(),
            })
    }
}

/// Runs a server on its own runtime until Ctrl-C: opens `db`, binds `addr`, calls `ready`
/// with the address and the server's key (to print the links), then serves.
pub fn serve_blocking(
    db: &str,
    addr: &str,
    limits: Limits,
    ready: impl FnOnce(SocketAddr, &str),
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| ServeError::Other(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async {
        let server = Server::bind(db, addr, limits).await?;
        ready(server.addr()?, server.key());
        server
            .run(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    })
}

/// Opens the store `db` (migrating it) and checks its integrity ([`store::Store::check`]) on a
/// runtime of its own; returns what was checked. For tools and tests outside a runtime (the
/// durability test checks the database a killed server left).
pub fn check_blocking(db: &str) -> Result<String, ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ServeError::Other(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async { Ok(store::open(db).await?.check().await?) })
}
