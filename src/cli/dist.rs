//! `fray dist` (placeholder until the dice crate lands).

use super::CliError;

/// Arguments of `fray dist`.
#[derive(Debug, clap::Args)]
pub struct DistArgs {
    /// The dice expression.
    pub expr: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fray dist`.
pub fn run(args: DistArgs) -> Result<(), CliError> {
    Err(CliError::Internal(format!("not yet built: {}", args.expr)))
}
