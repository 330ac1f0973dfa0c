//! `fray serve [--db URL] [--addr HOST:PORT]`: the web tracker's server (crate `fray-serve`).
//! Prints the server's address, its key and how to create a fight, then serves until Ctrl-C.

use super::{output, CliError};

/// Arguments of `fray serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Where fights are kept: `sqlite://FILE` (default: `fray-serve.db` in the working
    /// directory) or `postgres://USER:PASSWORD@HOST:PORT/DB`.
    #[arg(long, default_value = fray_serve::DEFAULT_DB)]
    pub db: String,
    /// The address to listen on (`127.0.0.1:0` picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Most fights the server keeps.
    #[arg(long, default_value_t = fray_serve::Limits::default().fights)]
    pub max_fights: u64,
}

/// Runs `fray serve`.
pub fn run(args: ServeArgs) -> Result<(), CliError> {
    let limits = fray_serve::Limits {
        fights: args.max_fights,
        ..fray_serve::Limits::default()
    };
    let mut announced = Ok(());
    let served = fray_serve::serve_blocking(&args.db, &args.addr, limits, |addr, key| {
        announced = output::print(&format!(
            "fray serve: listening on http://{addr}/ (fights kept in {})\n\
             GM link (keep it secret: it creates fights): http://{addr}/?key={key}\n\
             API: http://{addr}/api/v1/openapi.json (create a fight: POST /api/v1/fights with \
             `Authorization: Bearer {key}`)\n\
             Stop with Ctrl-C.\n",
            args.db
        ));
    });
    announced?;
    served.map_err(|e| CliError::Input(e.to_string()))
}
