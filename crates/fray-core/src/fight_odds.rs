//! Exact odds of whole rounds and whole fights: a dynamic programme over the distinct states
//! a fight can stand in at the end of each round.
//!
//! Within a round the rules keep locals on the call stack (an initiative just rolled, the
//! blow being resolved), so a state in the middle of a round does not say what happens next:
//! a round is enumerated branch by branch, by prefix replay ([`crate::odds`]), from the state
//! it starts in. The end of a round is a settled point: the fight goes on from the state alone
//! (`run_fight_after` resumes there, which is how a live session's checkpoints work), so the
//! branches that end a round in equal states are merged ([`Distinct`]) and each distinct state
//! plays the next round once. Memory is bounded by the distinct states of one round's end
//! (a limit, then a refusal), work by a budget of branches.

use crate::distinct::Distinct;
use crate::event::NullSink;
use crate::odds::{estimate_driven, explore, OddsError, MAX_BRANCHES};
use crate::ruleset::{EndReason, Ruleset};
use crate::runner::{run_fight_after, run_fight_at, FightEnd, Limits};
use num_rational::BigRational;
use num_traits::{One, Zero};

/// Most branches one `--fight` computation may explore over all its rounds.
pub const MAX_FIGHT_BRANCHES: usize = 5_000_000;

/// How a branch of one round ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundEnd {
    /// The fight goes on to the next round.
    GoesOn,
    /// The fight ended in this round (won, or nobody standing).
    Ended(FightEnd),
    /// A limit stopped the fight: the round limit, or one reached inside the round.
    Stalemate,
}

/// Plays the round after round `after` (or `begin` and round 1 from the start, when `after`
/// is `None`) from `start` against every die result, the default tactics choosing; hands each
/// branch's probability, end state and how it ended to `leaf`. Branches are counted against
/// `budget` (at most [`MAX_BRANCHES`] for the round whatever the budget).
pub fn one_round<R: Ruleset>(
    start: &R::State,
    after: Option<u32>,
    limits: &Limits,
    budget: &mut usize,
    mut leaf: impl FnMut(&BigRational, &R::State, RoundEnd),
) -> Result<usize, OddsError> {
    let round = after.map_or(1, |r| r + 1);
    let mut one = *limits;
    one.max_rounds = round;
    let play =
        |state: &mut R::State, driver: &mut dyn crate::driver::Driver<R>, sink: &mut NullSink| {
            match after {
                None => run_fight_at::<R>(state, driver, sink, None, &one),
                Some(r) => run_fight_after::<R>(state, r, 0, driver, sink, &one),
            }
            .map_err(|halt| halt.interrupt)
        };
    // Refuse at once a round that random probes say is far past the limit (as `fray odds`
    // refuses one attack).
    let estimate =
        estimate_driven::<R, FightEnd>(start, |state, driver| play(state, driver, &mut NullSink));
    if estimate > 2.0 * MAX_BRANCHES as f64 {
        return Err(OddsError::RoundTooLarge(estimate, MAX_BRANCHES));
    }
    let mut round_budget = (*budget).min(MAX_BRANCHES);
    let before = round_budget;
    let mut sink = NullSink;
    let result = explore::<R, FightEnd, NullSink>(
        start,
        &mut round_budget,
        &mut sink,
        play,
        |probability, state, end, _| {
            let how = if end.reason != EndReason::Limit {
                RoundEnd::Ended(end)
            } else if end.limit.is_none() && end.rounds == round && round < limits.max_rounds {
                RoundEnd::GoesOn
            } else {
                RoundEnd::Stalemate
            };
            leaf(probability, state, how);
        },
    );
    *budget -= before - round_budget;
    match result {
        Err(OddsError::TooManyBranches(n)) if *budget > 0 => {
            Err(OddsError::RoundTooLarge(n as f64, n))
        }
        Err(OddsError::TooManyBranches(_)) => Err(OddsError::FightTooLarge(MAX_FIGHT_BRANCHES)),
        other => other,
    }
}

/// The exact chances of a whole fight.
#[derive(Debug, Clone)]
pub struct FightOdds {
    /// P(each side wins), in side order.
    pub wins: Vec<BigRational>,
    /// P(the fight ends with nobody standing).
    pub none_standing: BigRational,
    /// P(a stalemate: the round limit, or a limit inside a round).
    pub stalemate: BigRational,
    /// P(the fight ends in round r), index r (0: before the first round).
    pub ends_in_round: Vec<BigRational>,
    /// Distinct end-of-round states explored, over all rounds.
    pub states: usize,
    /// The most distinct states held at one round's end.
    pub peak_states: usize,
    /// Branches played, over all rounds.
    pub branches: usize,
    /// Rounds computed (the last one some branch reached).
    pub rounds: u32,
}

/// The exact chances of the fight from `start` (its beginning) to its end or the round limit,
/// the default tactics choosing for everyone: one round at a time over the distinct states the
/// fight can stand in at a round's end, at most `max_states` of them at once, and at most
/// [`MAX_FIGHT_BRANCHES`] branches in all.
pub fn fight_odds<R: Ruleset>(
    start: &R::State,
    limits: &Limits,
    max_states: usize,
) -> Result<FightOdds, OddsError> {
    let sides = R::roster(start).sides.len();
    let mut odds = FightOdds {
        wins: vec![BigRational::zero(); sides],
        none_standing: BigRational::zero(),
        stalemate: BigRational::zero(),
        ends_in_round: Vec::new(),
        states: 0,
        peak_states: 1,
        branches: 0,
        rounds: 0,
    };
    let mut layer = Distinct::new(max_states);
    layer.add(start, &BigRational::one());
    let mut budget = MAX_FIGHT_BRANCHES;
    let mut after = None;
    while !layer.is_empty() {
        odds.states += layer.len();
        odds.peak_states = odds.peak_states.max(layer.len());
        let mut next = Distinct::new(max_states);
        for (state, p) in layer.iter() {
            odds.branches += one_round::<R>(state, after, limits, &mut budget, |q, end, how| {
                let probability = p * q;
                match how {
                    RoundEnd::GoesOn => next.add(end, &probability),
                    RoundEnd::Stalemate => odds.stalemate += probability,
                    RoundEnd::Ended(fight) => {
                        let round = fight.rounds as usize;
                        if odds.ends_in_round.len() <= round {
                            odds.ends_in_round.resize(round + 1, BigRational::zero());
                        }
                        odds.ends_in_round[round] += &probability;
                        match fight.winner {
                            Some(side) => odds.wins[side.index()] += probability,
                            None => odds.none_standing += probability,
                        }
                    }
                }
            })?;
            if next.overflowed() {
                return Err(OddsError::TooManyStates(max_states));
            }
        }
        let round = after.map_or(1, |r| r + 1);
        odds.rounds = round;
        after = Some(round);
        layer = next;
    }
    Ok(odds)
}

/// The exact distribution of the state at the end of the first round (with `begin` before
/// it), whether the fight goes on or not, at most `max_states` distinct states; and the number
/// of branches played.
pub fn first_round<R: Ruleset>(
    start: &R::State,
    limits: &Limits,
    max_states: usize,
) -> Result<(Distinct<R::State>, usize), OddsError> {
    let mut ends = Distinct::new(max_states);
    let mut budget = MAX_BRANCHES;
    let branches = one_round::<R>(start, None, limits, &mut budget, |p, end, _| {
        ends.add(end, p);
    })?;
    if ends.overflowed() {
        return Err(OddsError::TooManyStates(max_states));
    }
    Ok((ends, branches))
}
