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
use crate::odds::{estimate_driven, explore, probe_once, OddsError, MAX_BRANCHES, PROBES};
use crate::ruleset::{EndReason, Ruleset};
use crate::runner::{run_fight_counted, FightEnd, Limits};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Most branches one `--fight` computation may explore over all its rounds.
pub const MAX_FIGHT_BRANCHES: usize = 5_000_000;

/// `--fight` is refused at once when probes estimate more than this many times
/// [`MAX_FIGHT_BRANCHES`] over the fight ([`estimate_fight`]).
pub const FIGHT_ESTIMATE_MARGIN: f64 = 1.5;

/// How a branch of one round ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundEnd {
    /// The fight goes on to the next round.
    GoesOn,
    /// The fight ended in this round (won, or nobody standing).
    Ended(FightEnd),
    /// A limit stopped the fight: the round limit, or one reached inside the round other than
    /// the answers per fight.
    Stalemate,
    /// The answers-per-fight limit stopped the fight inside the round (a stalemate too): it
    /// depends on the answers given in the earlier rounds, not on the state alone.
    OutOfAnswers,
}

/// The limit on answers per fight, as a fight that reaches it names it.
const ANSWERS_LIMIT: &str = "answers per fight";

/// Plays the round after round `after` (or `begin` and round 1 from the start, when `after`
/// is `None`) from `start`, with `answers` given before it (the answers-per-fight limit counts
/// the whole fight), against every die result, the default tactics choosing; hands each
/// branch's probability, end state, how it ended and the answers it gave to `leaf`. Branches
/// are counted against `budget` (at most [`MAX_BRANCHES`] for the round whatever the budget).
pub fn one_round<R: Ruleset>(
    start: &R::State,
    after: Option<u32>,
    answers: u32,
    limits: &Limits,
    budget: &mut usize,
    mut leaf: impl FnMut(&BigRational, &R::State, RoundEnd, u32),
) -> Result<usize, OddsError> {
    let round = after.map_or(1, |r| r + 1);
    let play = round_play::<R>(after, answers, limits);
    // Refuse at once a round that random probes say is far past the limit (as `fray odds`
    // refuses one attack).
    let estimate = estimate_driven::<R, (FightEnd, u32)>(start, &play);
    if estimate > 2.0 * MAX_BRANCHES as f64 {
        return Err(OddsError::RoundTooLarge(estimate, MAX_BRANCHES));
    }
    let mut round_budget = (*budget).min(MAX_BRANCHES);
    let before = round_budget;
    let mut sink = NullSink;
    let result = explore::<R, (FightEnd, u32), NullSink>(
        start,
        &mut round_budget,
        &mut sink,
        |state, driver, _| play(state, driver),
        |probability, state, (end, total), _| {
            leaf(
                probability,
                state,
                round_end(end, round, limits),
                total - answers,
            );
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

/// Plays the round after round `after` (or `begin` and round 1, when `after` is `None`), with
/// `answers` given before it; returns how the fight stands and the answers given in all.
fn round_play<R: Ruleset>(
    after: Option<u32>,
    answers: u32,
    limits: &Limits,
) -> impl Fn(&mut R::State, &mut dyn crate::driver::Driver<R>) -> Result<(FightEnd, u32), crate::Interrupt>
{
    let mut one = *limits;
    one.max_rounds = after.map_or(1, |r| r + 1);
    move |state, driver| {
        run_fight_counted::<R>(state, after, answers, driver, &mut NullSink, &one)
            .map_err(|halt| halt.interrupt)
    }
}

/// How a branch of round `round` ended.
fn round_end(end: FightEnd, round: u32, limits: &Limits) -> RoundEnd {
    if end.reason != EndReason::Limit {
        RoundEnd::Ended(end)
    } else if end.limit == Some(ANSWERS_LIMIT) {
        RoundEnd::OutOfAnswers
    } else if end.limit.is_none() && end.rounds == round && round < limits.max_rounds {
        RoundEnd::GoesOn
    } else {
        RoundEnd::Stalemate
    }
}

/// The branches [`fight_odds`] would play, estimated before playing any: [`PROBES`] seeded
/// random fights, each played round by round as the programme plays them; at each round, the
/// mean of the probes' estimates of that round's branches (Knuth's, from the state each probe
/// stands in) times the distinct states the probes stand in (never more than the programme
/// carries), summed over the rounds. The widths of later rounds count, not only the first's.
pub fn estimate_fight<R: Ruleset>(start: &R::State, limits: &Limits) -> f64 {
    estimate_fight_after::<R>(start, None, 0, limits)
}

/// [`estimate_fight`] from the end of round `after` (a live session's checkpoint; `None`: the
/// fight's beginning), with `answers` given before it.
pub fn estimate_fight_after<R: Ruleset>(
    start: &R::State,
    mut after: Option<u32>,
    answers: u32,
    limits: &Limits,
) -> f64 {
    let mut going: Vec<(u64, R::State)> = (0..PROBES).map(|p| (p, start.clone())).collect();
    let mut total = 0.0;
    while !going.is_empty() {
        let round = after.map_or(1, |r| r + 1);
        let play = round_play::<R>(after, answers, limits);
        let mut states = Distinct::new(going.len());
        let one = BigRational::one();
        let mut widths = 0.0;
        let probes = going.len() as f64;
        let mut next = Vec::with_capacity(going.len());
        for (probe, mut state) in going {
            states.add(&state, &one);
            let seed = probe ^ (u64::from(round) << 32);
            let (width, end) = probe_once::<R, (FightEnd, u32)>(&mut state, seed, &play);
            widths += width;
            if let Ok((end, _)) = end {
                if round_end(end, round, limits) == RoundEnd::GoesOn {
                    next.push((probe, state));
                }
            }
        }
        total += states.len() as f64 * widths / probes;
        if total > FIGHT_ESTIMATE_MARGIN * MAX_FIGHT_BRANCHES as f64 {
            // Already past what is refused: the later rounds cannot bring it back.
            break;
        }
        going = next;
        after = Some(round);
    }
    total
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

impl FightOdds {
    /// Nothing yet, for `sides` sides.
    fn empty(sides: usize) -> Self {
        FightOdds {
            wins: vec![BigRational::zero(); sides],
            none_standing: BigRational::zero(),
            stalemate: BigRational::zero(),
            ends_in_round: Vec::new(),
            states: 0,
            peak_states: 1,
            branches: 0,
            rounds: 0,
        }
    }

    /// Adds `p` times the chances of `other` (not its counts).
    fn add_scaled(&mut self, other: &FightOdds, p: &BigRational) {
        for (w, o) in self.wins.iter_mut().zip(&other.wins) {
            *w += o * p;
        }
        self.none_standing += &other.none_standing * p;
        self.stalemate += &other.stalemate * p;
        if self.ends_in_round.len() < other.ends_in_round.len() {
            self.ends_in_round
                .resize(other.ends_in_round.len(), BigRational::zero());
        }
        for (e, o) in self.ends_in_round.iter_mut().zip(&other.ends_in_round) {
            *e += o * p;
        }
    }
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
    fight_odds_after::<R>(start, None, 0, limits, max_states)
}

/// [`fight_odds`] from the end of round `after` (`None`: the fight's beginning, with `begin`),
/// `answers` answers given before it: the exact chances from a live session's checkpoint, the
/// next round played as `run_fight_after` plays it. Each round's end is counted in absolute
/// rounds (`ends_in_round`, the round limit).
pub fn fight_odds_after<R: Ruleset>(
    start: &R::State,
    mut after: Option<u32>,
    answers: u32,
    limits: &Limits,
    max_states: usize,
) -> Result<FightOdds, OddsError> {
    let mut odds = FightOdds::empty(R::roster(start).sides.len());
    // Refuse at once a fight that probes say is past the budget, rather than after playing
    // the budget (tens of seconds). The estimate leans low (it counts only the states the
    // probes stand in); the margin keeps the noise of its widths from refusing a fight that fits.
    let estimate = estimate_fight_after::<R>(start, after, answers, limits);
    if estimate > FIGHT_ESTIMATE_MARGIN * MAX_FIGHT_BRANCHES as f64 {
        return Err(OddsError::FightEstimatedTooLarge(
            estimate,
            MAX_FIGHT_BRANCHES,
        ));
    }
    let mut layer = Distinct::new(max_states);
    layer.add(start, &BigRational::one());
    // For each state of the layer, the answers given before it (the answers-per-fight limit
    // counts the whole fight), with their probabilities: branches that reach one state with
    // different counts merge, and the counts are kept beside it.
    let mut counts: Vec<Answers> = vec![BTreeMap::from([(answers, BigRational::one())])];
    let mut budget = MAX_FIGHT_BRANCHES;
    while !layer.is_empty() {
        odds.states += layer.len();
        odds.peak_states = odds.peak_states.max(layer.len());
        let mut next = Step {
            layer: Distinct::new(max_states),
            counts: Vec::new(),
        };
        for (at, (state, _)) in layer.iter().enumerate() {
            odds.branches += from_state::<R>(
                state,
                &counts[at],
                after,
                limits,
                &mut budget,
                &mut next,
                &mut odds,
            )?;
            if next.layer.overflowed() {
                return Err(OddsError::TooManyStates(max_states));
            }
        }
        let round = after.map_or(1, |r| r + 1);
        odds.rounds = round;
        after = Some(round);
        layer = next.layer;
        counts = next.counts;
    }
    Ok(odds)
}

/// Answers given so far → probability, for one state of the programme.
type Answers = BTreeMap<u32, BigRational>;

/// The next layer of the programme: the distinct states at a round's end, and the answers
/// given before each (same positions).
struct Step<S> {
    layer: Distinct<S>,
    counts: Vec<Answers>,
}

impl<S: Clone + std::fmt::Debug + std::hash::Hash> Step<S> {
    /// `probability` of reaching `state` with `answers` given.
    fn add(&mut self, state: &S, answers: u32, probability: &BigRational) -> Option<usize> {
        let at = self.layer.add(state, probability)?;
        if self.counts.len() <= at {
            self.counts.resize(at + 1, Answers::new());
        }
        *self.counts[at]
            .entry(answers)
            .or_insert_with(BigRational::zero) += probability;
        Some(at)
    }
    /// `probability` of reaching the state at `at` with `answers` given.
    fn add_at(&mut self, at: usize, answers: u32, probability: &BigRational) {
        self.layer.add_at(at, probability);
        *self.counts[at]
            .entry(answers)
            .or_insert_with(BigRational::zero) += probability;
    }
}

/// Adds the probability of one way a round ended (not going on) to the fight's odds.
fn ended(odds: &mut FightOdds, how: RoundEnd, probability: BigRational) {
    match how {
        RoundEnd::GoesOn => {}
        RoundEnd::Stalemate | RoundEnd::OutOfAnswers => odds.stalemate += probability,
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
}

/// Plays the next round from `state`, reached with the answer counts `counts`, into `next` and
/// `odds`; returns the branches played. The round is played once, from the largest count: when
/// no branch of it runs out of answers, none does from a smaller count either (the rules read
/// nothing of the count but the limit), so every count has the same branches, its answers
/// shifted. Otherwise each count is played on its own: exact either way.
fn from_state<R: Ruleset>(
    state: &R::State,
    counts: &Answers,
    after: Option<u32>,
    limits: &Limits,
    budget: &mut usize,
    next: &mut Step<R::State>,
    odds: &mut FightOdds,
) -> Result<usize, OddsError> {
    let Some((&most, p_most)) = counts.iter().next_back() else {
        return Ok(0);
    };
    // What the round from the largest count did, to apply to the smaller counts (only kept
    // when there are some): (position in the next layer, answers given) → probability, and the
    // ways it ended, each with its probability from `state`.
    let many = counts.len() > 1;
    let mut goes_on: BTreeMap<(usize, u32), BigRational> = BTreeMap::new();
    let mut shares = FightOdds::empty(odds.wins.len());
    let mut short = false;
    let mut branches = one_round::<R>(state, after, most, limits, budget, |q, end, how, used| {
        let probability = p_most * q;
        if how == RoundEnd::GoesOn {
            let at = next.add(end, most + used, &probability);
            if let (true, Some(at)) = (many, at) {
                *goes_on.entry((at, used)).or_insert_with(BigRational::zero) += q;
            }
        } else {
            short |= how == RoundEnd::OutOfAnswers;
            if many {
                ended(&mut shares, how, q.clone());
            }
            ended(odds, how, probability);
        }
    })?;
    for (&count, p) in counts.iter().rev().skip(1) {
        if short {
            branches +=
                one_round::<R>(state, after, count, limits, budget, |q, end, how, used| {
                    let probability = p * q;
                    if how == RoundEnd::GoesOn {
                        next.add(end, count + used, &probability);
                    } else {
                        ended(odds, how, probability);
                    }
                })?;
        } else {
            for (&(at, used), q) in &goes_on {
                next.add_at(at, count + used, &(p * q));
            }
            odds.add_scaled(&shares, p);
        }
    }
    Ok(branches)
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
    let branches = one_round::<R>(start, None, 0, limits, &mut budget, |p, end, _, _| {
        ends.add(end, p);
    })?;
    if ends.overflowed() {
        return Err(OddsError::TooManyStates(max_states));
    }
    Ok((ends, branches))
}
