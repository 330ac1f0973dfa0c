//! The fight as it stands at a session's pause: its state (for the exact odds of one attack
//! from here) and one run of the rest of the fight with fray playing everyone (the Monte Carlo
//! "who wins from here"; `fray_sim::here` plays many).
//!
//! Both replay the session's answer log from the start (`fray_core::session::advance`), so they
//! see exactly what the log means — GM interventions included — and never a copy that could
//! drift from it.

use super::Session;
use crate::fight_odds::{fight_report_at, FightReport};
use crate::odds::OddsFailure;
use crate::{AnyEncounter, OddsReport};
use fray_core::event::NullSink;
use fray_core::fight_odds::settled_point;
use fray_core::fight_odds::Point;
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
    /// The fight is over: nothing is left to compute.
    #[error("the fight is over after round {rounds}: nothing is left to compute")]
    Over {
        /// Rounds played.
        rounds: u32,
    },
    /// The session stands inside a round, between two settled points: the exact programme
    /// starts only where the state alone says what comes next (a round's end, or a point inside
    /// a round where the ruleset's `round_step` pauses), and answers were given since the last
    /// one.
    #[error(
        "the fight is in the middle of round {round} ({answers} answer(s) since it began): the \
         exact odds start from the end of a round, or from a settled point inside one where the \
         ruleset offers them, where the state alone says what comes next; ask again when round \
         {round} ends, or take the Monte Carlo answer now"
    )]
    MidRound {
        /// The round being played.
        round: u32,
        /// Answers given in it so far.
        answers: usize,
    },
    /// The exact programme refused (too many states or branches, or probes estimating too
    /// many): the Monte Carlo answer still answers from here.
    #[error("no exact answer: {0}; the Monte Carlo answer still answers from here")]
    ExactRefused(String),
}

/// The exact chances of the rest of a live fight, from the end of the round the session stands
/// at (issue 17: "odds from here" with the `--fight` programme).
#[derive(Debug, Clone)]
pub struct ExactHere {
    /// The round that had just ended where the programme starts (0: before the first round).
    pub after: u32,
    /// The round the programme starts inside, at a settled point its ruleset offers
    /// (`Ruleset::round_step`), when the session stands there; `None` at a round's end.
    pub inside: Option<u32>,
    /// The chances: each side's, nobody standing, stalemate; rounds counted from the fight's
    /// start.
    pub report: FightReport,
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

    /// The exact chances of the rest of the fight from here, the default tactics choosing for
    /// everyone (as `fray odds --fight`), at most `max_states` distinct states at one round's
    /// end, within a budget of `work` units of work (at most, and by default,
    /// `fray_core::fight_odds::MAX_FIGHT_BRANCHES`: `exact --max-work N`, `?max_work=N`), and
    /// the programme's branch limits. Given where the fight's state alone says what
    /// comes next: at the end of a round with no answer given since (the last checkpoint),
    /// before any answer at all, or at a settled point inside a round that the ruleset offers
    /// (`Ruleset::round_step` paused just where the answers end: Spelljammer after an action
    /// of a segment). Refused elsewhere inside a round ([`HereError::MidRound`]), once the
    /// fight is over, and when the programme refuses ([`HereError::ExactRefused`]).
    pub fn exact_from_here(&self, max_states: usize, work: usize) -> Result<ExactHere, HereError> {
        match &self.stop {
            Stop::Ended(end) => return Err(HereError::Over { rounds: end.rounds }),
            Stop::Broken { .. } => return Err(HereError::Run(self.here_broken())),
            Stop::Asks(_) => {}
        }
        let last = self.checkpoints.last();
        let at_end = last.filter(|c| c.at.position == self.log.len());
        let refused = |f: OddsFailure| HereError::ExactRefused(f.to_string());
        if at_end.is_some() || self.log.is_empty() {
            return each_ruleset!(&self.encounter, e, R => {
                let report = match at_end {
                    Some(c) => {
                        let Some(state) = c.state.downcast_ref::<<R as Ruleset>::State>() else {
                            return Err(HereError::Run("a checkpoint of another ruleset".to_string()));
                        };
                        let answers = u32::try_from(c.at.position).unwrap_or(u32::MAX);
                        let from = Point::from_checkpoint(Some(c.at.round));
                        fight_report_at::<R>(state, from, answers, &e.limits, max_states, work)
                    }
                    None => fight_report_at::<R>(&e.state, Point::Begin, 0, &e.limits, max_states, work),
                }
                .map_err(refused)?;
                Ok(ExactHere { after: at_end.map_or(0, |c| c.at.round), inside: None, report })
            });
        }
        // Inside a round: from the last checkpoint (or the start), the answers since then
        // replayed step by step; exact only if they end where the ruleset's `round_step`
        // paused (a settled point), never from a state with locals on the stack.
        let since = last.map_or(0, |c| c.at.position);
        let round = last.map_or(1, |c| c.at.round + 1);
        let answers: Vec<fray_core::Answer> =
            self.log[since..].iter().map(|l| l.answer.clone()).collect();
        let mid_round = HereError::MidRound {
            round,
            answers: self.log.len() - since,
        };
        each_ruleset!(&self.encounter, e, R => {
            let start = match last {
                Some(c) => match c.state.downcast_ref::<<R as Ruleset>::State>() {
                    Some(state) => state,
                    None => return Err(HereError::Run("a checkpoint of another ruleset".to_string())),
                },
                None => &e.state,
            };
            let given = u32::try_from(since).unwrap_or(u32::MAX);
            let after = last.map(|c| c.at.round);
            let Some((state, point, given)) =
                settled_point::<R>(start, after, given, &answers, &e.limits)
            else {
                return Err(mid_round);
            };
            let report = fight_report_at::<R>(&state, point, given, &e.limits, max_states, work)
                .map_err(refused)?;
            Ok(ExactHere { after: round - 1, inside: Some(round), report })
        })
    }

    /// Why the log does not replay, in words.
    fn here_broken(&self) -> String {
        match &self.stop {
            Stop::Broken {
                position,
                interrupt,
            } => broken(*position, interrupt, self.roster()),
            _ => "the log replays".to_string(),
        }
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
            } => Err(HereError::Run(broken(position, &interrupt, self.roster()))),
            Stop::Asks(_) => Err(HereError::Run(
                "a request was left for a person although fray plays everyone".to_string(),
            )),
        }
    }
}

/// An answer of the log that does not fit, in words.
fn broken(position: usize, interrupt: &fray_core::Interrupt, roster: &fray_core::Roster) -> String {
    format!(
        "answer {} does not fit the fight: {}",
        position + 1,
        crate::explain(interrupt, roster)
    )
}
