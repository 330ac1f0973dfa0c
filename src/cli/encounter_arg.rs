//! Loading the encounter file named on the command line, with the errors turned into CLI errors.

use super::CliError;
use fray_engine::{AnyEncounter, Library, LoadError};

/// Loads the embedded content and the encounter at `path`.
pub fn load(path: &str) -> Result<AnyEncounter, CliError> {
    let library = Library::embedded()
        .map_err(|e| CliError::Internal(format!("built-in content is broken: {e}")))?;
    AnyEncounter::load(path, &library).map_err(|e| match e {
        LoadError::Io { .. } | LoadError::File(_) | LoadError::NotImplemented { .. } => {
            CliError::Input(e.to_string())
        }
    })
}
