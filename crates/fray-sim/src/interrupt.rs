//! Ctrl-C, SIGTERM and SIGHUP: the first signal asks the simulation to stop at the next chunk
//! and report the figures so far (then `fray sim` exits with status 130); a second signal ends
//! the process at once (exit status 130). One status for every signal, the shell's
//! convention for an interrupted command (128 + SIGINT), documented in docs/sim.md.

use crate::error::SimError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Exit status of a simulation stopped by a signal (after its partial report).
pub const EXIT_STATUS: u8 = 130;

static STOP: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

/// Installs the handler (once per process) and returns the flag it sets.
pub fn install() -> Result<&'static AtomicBool, SimError> {
    INSTALLED
        .get_or_init(|| {
            ctrlc::set_handler(|| {
                if STOP.swap(true, Ordering::SeqCst) {
                    std::process::exit(i32::from(EXIT_STATUS));
                }
            })
            .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(SimError::CtrlC)?;
    Ok(&STOP)
}
