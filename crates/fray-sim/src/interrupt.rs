//! Ctrl-C: the first press asks the simulation to stop at the next chunk and report the figures
//! so far; a second press ends the process at once (exit status 130).

use crate::error::SimError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

static STOP: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

/// Installs the handler (once per process) and returns the flag it sets.
pub fn install() -> Result<&'static AtomicBool, SimError> {
    INSTALLED
        .get_or_init(|| {
            ctrlc::set_handler(|| {
                if STOP.swap(true, Ordering::SeqCst) {
                    std::process::exit(130);
                }
            })
            .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(SimError::CtrlC)?;
    Ok(&STOP)
}
