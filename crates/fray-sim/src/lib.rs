//! fray-sim: Monte Carlo simulation of fray encounters, for any ruleset through
//! [`fray_engine::AnyEncounter`].
//!
//! - [`seeds`]: run `i` of base seed `S` plays with `splitmix64(S ^ i·golden)`; `fray fight
//!   FILE --seed <that>` replays it.
//! - [`run`]: the parallel runner (rayon, fixed chunks merged in order: same figures with any
//!   number of threads), with the `--target-ci` stop and Ctrl-C.
//! - [`here`]: "who wins from here", the rest of a live session's fight played many times.
//! - [`stats`]: streaming integer statistics; [`wilson`]: confidence intervals.
//! - [`report`], [`sweep`], [`csv`], [`plot`]: the outputs; [`vary`]: `--vary` variants.
//! - [`progress`], [`interrupt`]: the terminal progress bar and the Ctrl-C handler.

#![forbid(unsafe_code)]

pub mod csv;
pub mod error;
pub mod here;
pub mod interrupt;
pub mod plot;
pub mod progress;
pub mod report;
pub mod rows;
pub mod run;
pub mod seeds;
pub mod stats;
pub mod sweep;
pub mod vary;
pub mod wilson;

pub use error::SimError;
pub use run::{
    simulate, simulate_runs, SimOptions, SimResult, Stop, CHUNK_RUNS, MAX_RUNS, MAX_THREADS,
};
pub use stats::Stats;
