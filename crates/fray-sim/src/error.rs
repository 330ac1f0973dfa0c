//! What can go wrong in a simulation, each with a message for the user.

use crate::vary::VaryError;

/// Why a simulation could not be run or finished.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The number of runs is out of bounds.
    #[error("the number of runs must be between 1 and {max}, not {runs}")]
    Runs {
        /// What was asked for.
        runs: u64,
        /// The limit.
        max: u64,
    },
    /// The number of threads is out of bounds.
    #[error("--threads must be between 1 and {max}, not {threads}")]
    Threads {
        /// What was asked for.
        threads: usize,
        /// The limit.
        max: usize,
    },
    /// The target interval width is not a proportion.
    #[error(
        "--target-ci must be a width between 0 and 1 (e.g. 0.02 for ±1 percentage point), not {0}"
    )]
    TargetCi(f64),
    /// The round limit is out of bounds.
    #[error("--max-rounds must be between 1 and {max}, not {rounds}")]
    MaxRounds {
        /// What was asked for.
        rounds: u32,
        /// The limit.
        max: u32,
    },
    /// A fight stopped on a request the simulator cannot answer.
    #[error("run {run} (seed {seed}) could not be played: {message}")]
    Fight {
        /// The run index.
        run: u64,
        /// Its dice seed.
        seed: u64,
        /// Why.
        message: String,
    },
    /// The `--vary` specification is wrong.
    #[error(transparent)]
    Vary(#[from] VaryError),
    /// A variant of the encounter does not load.
    #[error("variant {variant}: {message}")]
    Variant {
        /// The variant's label (`orc.count=13`).
        variant: String,
        /// The loader's message.
        message: String,
    },
    /// An output file could not be written.
    #[error("could not write {path}: {message}")]
    Output {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
    /// The worker threads could not be started.
    #[error("could not start {threads} worker threads: {message}")]
    ThreadPool {
        /// How many.
        threads: usize,
        /// Why.
        message: String,
    },
    /// The Ctrl-C handler could not be installed.
    #[error("could not install the Ctrl-C handler: {0}")]
    CtrlC(String),
}

impl SimError {
    /// True when the user can fix it (bad flag, bad file, bad path): exit status 2 in the CLI.
    pub fn is_input_error(&self) -> bool {
        !matches!(self, SimError::ThreadPool { .. } | SimError::CtrlC(_))
    }
}
