//! The fight as it stands at a session's pause: its state (for the exact odds of one attack
//! from here) and one run of the rest of the fight with fray playing everyone (the Monte Carlo
//! "who wins from here"; `fray_sim::here` plays many).
//!
//! Both replay the session's answer log from the start (`fray_core::session::advance`), so they
//! see exactly what the log means — GM interventions included — and never a copy that could
//! drift from it.

use super::Session;
use crate::odds::OddsFailure;
use crate::{AnyEncounter, OddsReport};
use fray_core::event::NullSink;
use fray_core::ruleset::{Ruleset, Situation};
use fray_core::session::{advance, Stop};
use fray_core::{FightEnd, Tally};

/// Why odds or a run from the current state could not be given.
#[derive(Debug, Clone, thiserror::Error)]
pub enum HereError {
    /// The odds machinery refused: an unknown combatant, the same combatant twice, a weapon or
    /// situation it cannot set, a target out of range.
    #[error("{0}")]
    Odds(#[from] OddsFailure),
    /// The attacker is not up (down, dead, fled, surrendered or captured).
    #[error("{name} is {standing} and cannot attack")]
    AttackerOut {
        /// The attacker's name.
        name: String,
        /// How it stands.
        standing: &'static str,
    },
    /// The target is already out of the fight (down, dead, fled, surrendered or captured):
    /// the odds of felling it say nothing.
    #[error("{name} is {standing}: already out of the fight")]
    TargetOut {
        /// The target's name.
        name: String,
        /// How it stands.
        standing: &'static str,
    },
    /// A run from here stopped on something it could not answer (a log that does not fit).
    #[error("{0}")]
    Run(String),
}

impl Session {
    /// The encounter as it stands at the pause: a copy whose state is the state the answers so
    /// far lead to (at the end of the fight, the final state). Its state is mid-round, so it is
    /// for looking at and for the odds of one attack ([`AnyEncounter::odds_in`]), not for
    /// playing a fight again (a fight starts with the ruleset's `begin`).
    pub fn here(&self) -> AnyEncounter {
        let mut here = self.encounter.clone();
        let mut log = self.log.clone();
        each_ruleset!(&mut here, e, R => {
            // Nobody is played by fray: the replay stops where the log ends, at the pause.
            let _ = advance::<R>(&mut e.state, &e.limits, self.seed, &mut log, &|_| false, &mut NullSink);
        });
        here
    }

    /// Exact odds of `attacker` attacking `target` from the state at the pause, set up as
    /// `situation` says — the same figures and report as `fray odds`, with the hit points,
    /// positions and conditions of now. An attacker or a target who is not up is refused.
    pub fn odds(
        &self,
        attacker: &str,
        target: &str,
        situation: &Situation,
    ) -> Result<OddsReport, HereError> {
        let roster = self.roster();
        let standing = |key: &str| {
            roster.find(key).and_then(|id| {
                let tally = self.standings.get(id.index())?;
                Some((roster.name(id).to_string(), tally.standing))
            })
        };
        if let Some((name, s)) = standing(attacker).filter(|(_, s)| !s.is_up()) {
            return Err(HereError::AttackerOut {
                name,
                standing: s.key(),
            });
        }
        if let Some((name, s)) = standing(target).filter(|(_, s)| !s.is_up()) {
            return Err(HereError::TargetOut {
                name,
                standing: s.key(),
            });
        }
        Ok(self.here().odds_in(attacker, target, situation)?)
    }

    /// Plays the rest of the fight once: replays the answer log, then fray plays everyone (the
    /// default tactics, and dice seeded by `seed` and each answer's position, as a session
    /// seeded `seed` would roll them). Fills `tallies` with each combatant's standing at the
    /// end, in roster order, and returns how the fight ended. The same `seed` always gives the
    /// same fight; a finished session gives its own end whatever the seed.
    pub fn play_from_here(
        &self,
        seed: u64,
        tallies: &mut Vec<Tally>,
    ) -> Result<FightEnd, HereError> {
        let mut log = self.log.clone();
        let stop = each_ruleset!(&self.encounter, e, R => {
            let mut state = e.state.clone();
            let stop = advance::<R>(&mut state, &e.limits, seed, &mut log, &|_| true, &mut NullSink);
            <R as Ruleset>::tallies(&state, tallies);
            stop
        });
        match stop.stop {
            Stop::Ended(end) => Ok(end),
            Stop::Broken {
                position,
                interrupt,
            } => Err(HereError::Run(format!(
                "answer {} does not fit the fight: {}",
                position + 1,
                crate::explain(&interrupt, self.roster())
            ))),
            Stop::Asks(_) => Err(HereError::Run(
                "a request was left for a person although fray plays everyone".to_string(),
            )),
        }
    }
}
