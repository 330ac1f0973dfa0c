//! Shared output helpers for the CLI: error reporting (text or JSON) and exit statuses.

use std::io::Write;
use std::process::ExitCode;

/// An error a command reports to the user.
#[derive(Debug)]
pub enum CliError {
    /// Bad input from the user (expression, file, choice): exit status 2.
    Input(String),
    /// Something that should not happen: exit status 1.
    Internal(String),
}

impl CliError {
    /// The message shown to the user.
    pub fn message(&self) -> &str {
        match self {
            CliError::Input(m) | CliError::Internal(m) => m,
        }
    }
}

/// Prints the error on stderr (text) or stdout (JSON) and picks the exit status.
pub fn report_error(error: &CliError, json: bool) -> ExitCode {
    if json {
        let value = serde_json::json!({"schema": 1, "error": error.message()});
        let _ = writeln!(std::io::stdout(), "{value}");
    } else {
        let _ = writeln!(std::io::stderr(), "error: {}", error.message());
    }
    match error {
        CliError::Input(_) => ExitCode::from(2),
        CliError::Internal(_) => ExitCode::from(1),
    }
}
