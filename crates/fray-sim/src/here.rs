//! "Who wins from here": the rest of a live session's fight played many times from its pause,
//! with fray playing everyone — the `fray sim` runner and statistics over
//! [`Session::play_from_here`].
//!
//! Run `i` replays the session's answer log and goes on with the dice seed
//! [`run_seed`](crate::seeds::run_seed)`(seed, i)` (fray's dice at each later answer seeded from
//! it and the answer's position, as in a session). Runs are played in parallel and merged in
//! run order, so the same session, runs and seed give the same figures with any number of
//! threads.

use crate::error::SimError;
use crate::report::outcome_table;
use crate::run::{simulate_runs, SimOptions, Stop};
use crate::stats::{Shape, Stats};
use fray_core::Tally;
use fray_engine::session::Session;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

/// Most runs of one simulation from here (each replays the whole answer log first, so a run
/// costs a whole fight's replay: 100,000 runs take seconds to a minute).
pub const MAX_HERE_RUNS: u64 = 100_000;

/// The figures of the rest of a fight played many times.
#[derive(Debug, Clone)]
pub struct HereResult {
    /// Per run: who won, in how many rounds, why the fight ended (stalemates are the round
    /// limit's), and how each side stood at the end.
    pub stats: Stats,
    /// The base seed.
    pub seed: u64,
    /// The round the session is in (0 before the first).
    pub round_now: u32,
    /// The round limit the fight runs under.
    pub round_limit: u32,
}

impl HereResult {
    /// Mean rounds still to be fought after the current one.
    pub fn rounds_left_mean(&self) -> f64 {
        (self.stats.rounds_mean() - f64::from(self.round_now)).max(0.0)
    }
}

/// Plays the rest of `session`'s fight `runs` times (at most [`MAX_HERE_RUNS`]) from where it
/// stands, on `threads` worker threads, run `i` with the dice seed `run_seed(seed, i)`.
pub fn simulate_from_here(
    session: &Session,
    runs: u64,
    seed: u64,
    threads: usize,
) -> Result<HereResult, SimError> {
    if runs == 0 || runs > MAX_HERE_RUNS {
        return Err(SimError::Runs {
            runs,
            max: MAX_HERE_RUNS,
        });
    }
    let options = SimOptions {
        runs,
        seed,
        threads,
        max_rounds: None,
        target_ci: None,
        keep_rows: false,
    };
    options.validate()?;
    let round_limit = options.round_limit(session.encounter());
    let shape = Shape::new(session.roster(), round_limit);
    let play = |seed: u64, tallies: &mut Vec<Tally>| {
        session
            .play_from_here(seed, tallies)
            .map_err(|e| e.to_string())
    };
    let never = AtomicBool::new(false);
    let result = simulate_runs(&play, &shape, &options, &never, &mut |_, _| Ok(()))?;
    debug_assert_eq!(result.stop, Stop::Completed);
    Ok(HereResult {
        stats: result.stats,
        seed,
        round_now: session.round(),
        round_limit,
    })
}

/// The figures as text: the runs and seed, each side's win rate with its 95% Wilson interval
/// (as in `fray sim`), stalemates, fights with nobody left standing, and the rounds left.
pub fn text(session: &Session, result: &HereResult) -> String {
    let s = &result.stats;
    let mut out = String::new();
    let now = match result.round_now {
        0 => "before round 1".to_string(),
        r => format!("in round {r}"),
    };
    let _ = writeln!(
        out,
        "From here ({now}), fray playing everyone: {} runs, seed {}, round limit {}",
        s.runs, result.seed, result.round_limit
    );
    outcome_table(&mut out, session.roster(), s);
    let _ = writeln!(
        out,
        "Rounds left after this one: mean {:.2} (the fight lasts {:.2} rounds on average, longest {})",
        result.rounds_left_mean(),
        s.rounds_mean(),
        s.rounds_max().map_or("-".to_string(), |r| r.to_string())
    );
    out
}
