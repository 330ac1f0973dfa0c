//! `fray roll` (placeholder until the dice crate lands).

use super::CliError;

/// Arguments of `fray roll`.
#[derive(Debug, clap::Args)]
pub struct RollArgs {
    /// The dice expression.
    pub expr: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fray roll`.
pub fn run(args: RollArgs) -> Result<(), CliError> {
    Err(CliError::Internal(format!("not yet built: {}", args.expr)))
}
