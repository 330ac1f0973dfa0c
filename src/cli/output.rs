//! Shared output helpers for the CLI: the one writer every command prints through (a closed
//! stdout ends the command quietly), error reporting (text or JSON) and exit statuses.

use std::io::Write;
use std::process::ExitCode;

/// An error a command reports to the user.
#[derive(Debug)]
pub enum CliError {
    /// Bad input from the user (expression, file, choice): exit status 2.
    Input(String),
    /// Something that should not happen: exit status 1.
    Internal(String),
    /// Whoever read stdout went away (e.g. `| head -1`): end quietly with exit status 0.
    ClosedOutput,
    /// Stopped by Ctrl-C (exit 130) or SIGTERM (exit 143) after the partial report was printed.
    Interrupted(u8),
}

impl CliError {
    /// The message shown to the user.
    pub fn message(&self) -> &str {
        match self {
            CliError::Input(m) | CliError::Internal(m) => m,
            CliError::ClosedOutput => "stdout was closed",
            CliError::Interrupted(_) => "interrupted",
        }
    }
}

/// Writes `text` to stdout and flushes it. A closed pipe (`EPIPE`) is not an error the user
/// needs to see: it becomes [`CliError::ClosedOutput`], which ends the command quietly.
pub fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                CliError::ClosedOutput
            } else {
                CliError::Internal(format!("cannot write to stdout: {e}"))
            }
        })
}

/// Writes one line to stderr; a closed stderr is ignored (never a panic).
pub fn warn(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// Prints the error on stderr (text) or stdout (JSON) and picks the exit status.
pub fn report_error(error: &CliError, json: bool) -> ExitCode {
    match error {
        CliError::ClosedOutput => return ExitCode::SUCCESS,
        CliError::Interrupted(status) => return ExitCode::from(*status),
        CliError::Input(_) | CliError::Internal(_) => {}
    }
    if json {
        let value = serde_json::json!({"schema": 1, "error": error.message()});
        let _ = writeln!(std::io::stdout(), "{value}");
    } else {
        let _ = writeln!(std::io::stderr(), "error: {}", error.message());
    }
    match error {
        CliError::Internal(_) => ExitCode::from(1),
        _ => ExitCode::from(2),
    }
}

/// An argument-parsing error from clap: help and version print normally (exit 0); other
/// errors are `{"schema":1,"error":…}` on stdout with `--json`, clap's usual text otherwise,
/// and exit status 2 either way.
pub fn report_parse_error(error: &clap::Error, json: bool) -> ExitCode {
    use clap::error::ErrorKind;
    let informational = matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if informational || !json {
        let _ = error.print();
        return if informational
            && error.kind() != ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(2)
        };
    }
    let text = error.render().to_string();
    let message = text
        .trim()
        .strip_prefix("error: ")
        .unwrap_or(text.trim())
        .to_string();
    report_error(&CliError::Input(message), true)
}
