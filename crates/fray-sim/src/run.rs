//! The parallel runner: plays runs in fixed-size chunks on a local rayon pool and merges each
//! chunk's statistics in chunk order, checking the stop conditions after every chunk.
//!
//! Run `i` always uses [`crate::seeds::run_seed`]`(seed, i)` and lands in chunk
//! `i / CHUNK_RUNS`; statistics are integer counts, and the `--target-ci` test runs after each
//! chunk in order. So the figures, the stopping point and the CSV rows are the same whatever
//! the number of threads. Only Ctrl-C, which stops at a chunk boundary as soon as it can, makes
//! the number of runs depend on timing (the report says so).

use crate::error::SimError;
use crate::rows::RunRows;
use crate::seeds::run_seed;
use crate::stats::{Shape, Stats};
use crate::wilson::{wilson, Z95};
use fray_core::{FightEnd, Tally};
use fray_engine::AnyEncounter;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Runs per chunk: the unit of merging and of the `--target-ci` test.
pub const CHUNK_RUNS: u64 = 1000;
/// Chunks handed to the pool at once, per thread (more: less idle time at batch ends; fewer:
/// quicker Ctrl-C and less work wasted past a `--target-ci` stop).
pub const CHUNKS_PER_THREAD: u64 = 8;
/// Most runs in one simulation.
pub const MAX_RUNS: u64 = 100_000_000;
/// Most worker threads.
pub const MAX_THREADS: usize = 256;

/// What to simulate and how.
#[derive(Debug, Clone, PartialEq)]
pub struct SimOptions {
    /// Runs to play (the most, when `target_ci` may stop earlier).
    pub runs: u64,
    /// Base seed: run `i` plays with `run_seed(seed, i)`.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Round limit (`None`: the file's).
    pub max_rounds: Option<u32>,
    /// Stop once every side's 95% win-rate interval is narrower than this.
    pub target_ci: Option<f64>,
    /// Keep per-run rows (for `--csv`).
    pub keep_rows: bool,
}

impl SimOptions {
    /// Checks every number against its limit.
    pub fn validate(&self) -> Result<(), SimError> {
        if self.runs == 0 || self.runs > MAX_RUNS {
            return Err(SimError::Runs {
                runs: self.runs,
                max: MAX_RUNS,
            });
        }
        if self.threads == 0 || self.threads > MAX_THREADS {
            return Err(SimError::Threads {
                threads: self.threads,
                max: MAX_THREADS,
            });
        }
        if let Some(w) = self.target_ci {
            if !(w > 0.0 && w <= 1.0) {
                return Err(SimError::TargetCi(w));
            }
        }
        if let Some(r) = self.max_rounds {
            let max = fray_core::Limits::MAX_ROUNDS_CEILING;
            if r == 0 || r > max {
                return Err(SimError::MaxRounds { rounds: r, max });
            }
        }
        Ok(())
    }

    /// The round limit the fights of `encounter` run under.
    pub fn round_limit(&self, encounter: &AnyEncounter) -> u32 {
        self.max_rounds
            .unwrap_or(encounter.limits().max_rounds)
            .clamp(1, fray_core::Limits::MAX_ROUNDS_CEILING)
    }
}

/// Why the simulation stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Every requested run was played.
    Completed,
    /// Every side's win-rate interval became narrower than `--target-ci`.
    TargetCi,
    /// Ctrl-C.
    Interrupted,
}

impl Stop {
    /// The word used in reports and JSON.
    pub fn key(self) -> &'static str {
        match self {
            Stop::Completed => "completed",
            Stop::TargetCi => "target_ci",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// A finished (or stopped) simulation.
#[derive(Debug, Clone)]
pub struct SimResult {
    /// The figures.
    pub stats: Stats,
    /// Why it stopped.
    pub stop: Stop,
    /// The round limit the fights ran under.
    pub round_limit: u32,
}

/// What the runner calls after each chunk, in run order: the figures merged so far and that
/// chunk's rows (when kept).
pub type OnChunk<'a> = dyn FnMut(&Stats, Option<&RunRows>) -> Result<(), SimError> + 'a;

/// Whether every side's 95% win-rate interval is narrower than `width`.
pub fn intervals_narrower(stats: &Stats, width: f64) -> bool {
    stats.runs > 0
        && stats
            .sides
            .iter()
            .all(|s| wilson(s.wins, stats.runs, Z95).width() < width)
}

struct Chunk {
    stats: Stats,
    rows: Option<RunRows>,
}

/// One fight for a run: plays it with the run's dice seed, fills the tallies (in roster order)
/// and says how it ended, or why it could not be played. Must be a function of the seed alone.
pub type PlayRun<'a> = dyn Fn(u64, &mut Vec<Tally>) -> Result<FightEnd, String> + Sync + 'a;

fn play_chunk(
    play: &PlayRun<'_>,
    options: &SimOptions,
    shape: &Shape,
    index: u64,
) -> Result<Chunk, SimError> {
    let first = index * CHUNK_RUNS;
    let end = (first + CHUNK_RUNS).min(options.runs);
    let mut stats = Stats::new(shape);
    let mut rows = options
        .keep_rows
        .then(|| RunRows::new(shape.side_sizes.len()));
    let mut tallies = Vec::with_capacity(shape.combatants);
    for run in first..end {
        let seed = run_seed(options.seed, run);
        let fight_end =
            play(seed, &mut tallies).map_err(|message| SimError::Fight { run, seed, message })?;
        stats.record(run, &fight_end, &tallies);
        if let Some(rows) = rows.as_mut() {
            rows.push(run, seed, fight_end, &tallies);
        }
    }
    Ok(Chunk { stats, rows })
}

/// Plays the simulation. `stop` is polled before each chunk (set it from a Ctrl-C handler);
/// `on_chunk` sees the merged figures and that chunk's rows after every chunk, in run order
/// (stream the CSV and move the progress bar there). Nothing of a failed run's chunk is merged:
/// an error is that of the lowest-numbered failing run.
pub fn simulate(
    encounter: &AnyEncounter,
    options: &SimOptions,
    stop: &AtomicBool,
    on_chunk: &mut OnChunk<'_>,
) -> Result<SimResult, SimError> {
    options.validate()?;
    let round_limit = options.round_limit(encounter);
    let shape = Shape::new(encounter.roster(), round_limit);
    let play = |seed: u64, tallies: &mut Vec<Tally>| {
        encounter
            .simulate(seed, options.max_rounds, tallies)
            .map_err(|e| e.message)
    };
    simulate_runs(&play, &shape, options, stop, on_chunk)
}

/// The runner itself, for any way of playing one run (a fresh fight, or the rest of a live
/// session's): `options` must be valid and `shape` that of the fights `play` plays.
pub fn simulate_runs(
    play: &PlayRun<'_>,
    shape: &Shape,
    options: &SimOptions,
    stop: &AtomicBool,
    on_chunk: &mut OnChunk<'_>,
) -> Result<SimResult, SimError> {
    let round_limit = shape.max_rounds;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .thread_name(|i| format!("fray-sim-{i}"))
        .build()
        .map_err(|e| SimError::ThreadPool {
            threads: options.threads,
            message: e.to_string(),
        })?;
    let chunks = options.runs.div_ceil(CHUNK_RUNS);
    let batch = options.threads as u64 * CHUNKS_PER_THREAD;
    let mut stats = Stats::new(shape);
    let mut next = 0;
    while next < chunks {
        if stop.load(Ordering::Relaxed) {
            return Ok(SimResult {
                stats,
                stop: Stop::Interrupted,
                round_limit,
            });
        }
        let range = next..(next + batch).min(chunks);
        next = range.end;
        let results: Vec<Option<Result<Chunk, SimError>>> = pool.install(|| {
            range
                .into_par_iter()
                .map(|index| {
                    (!stop.load(Ordering::Relaxed)).then(|| play_chunk(play, options, shape, index))
                })
                .collect()
        });
        for result in results {
            let Some(chunk) = result else {
                return Ok(SimResult {
                    stats,
                    stop: Stop::Interrupted,
                    round_limit,
                });
            };
            let chunk = chunk?;
            stats.merge(&chunk.stats);
            on_chunk(&stats, chunk.rows.as_ref())?;
            if options
                .target_ci
                .is_some_and(|w| intervals_narrower(&stats, w))
            {
                return Ok(SimResult {
                    stats,
                    stop: Stop::TargetCi,
                    round_limit,
                });
            }
        }
    }
    Ok(SimResult {
        stats,
        stop: Stop::Completed,
        round_limit,
    })
}
