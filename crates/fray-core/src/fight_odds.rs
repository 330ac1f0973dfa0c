//! Exact odds of whole rounds and whole fights: a dynamic programme over the distinct states
//! a fight can stand in at its settled points: the end of each round, and the points inside a
//! round that its ruleset offers ([`Ruleset::round_step`]).
//!
//! Between settled points the rules keep locals on the call stack (an initiative just rolled,
//! the blow being resolved), so a state there does not say what happens next: a step is
//! enumerated branch by branch, by prefix replay ([`crate::odds`]), from the state it starts
//! in. A settled point is one where the fight goes on from the state alone: the end of a round
//! (`run_fight_after` resumes there, which is how a live session's checkpoints work), and the
//! points where a ruleset's `round_step` returns inside a round (its state records the phase:
//! whose segment, act or blow is next). There the branches that stand in equal states are
//! merged ([`Distinct`]) and each distinct state plays the next step once. Memory is bounded
//! by the distinct states at one point (a limit, then a refusal), work by a budget counted in
//! units of work (a branch played, or an answer count's outcomes carried), never in time.

use crate::distinct::Distinct;
use crate::event::NullSink;
use crate::odds::{explore, probe_once, OddsError, MAX_BRANCHES, PROBES};
use crate::ruleset::{EndReason, Ruleset};
use crate::runner::{finished, Table};
use crate::runner::{FightEnd, Limits};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Most units of work one `--fight` computation may do over all its rounds: a branch played is
/// one, and so is each outcome carried for an answer count kept beside a state ([`from_state`]).
/// Counted, never timed: the same fight is answered or refused alike on every machine.
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

/// Most settled points inside one round ([`Ruleset::round_step`] steps): a round that does not
/// end within them is refused, never a hang.
pub const MAX_STEPS: usize = 1_000;

/// Where a step of the programme starts: before the fight (`begin`, then round 1), at the
/// start of a round, or at a settled point inside one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// Before the fight: `begin`, then round 1.
    Begin,
    /// The start of this round (its intervention point first).
    RoundStart(u32),
    /// A settled point inside this round, where [`Ruleset::round_step`] returned `false`.
    Inside(u32),
}

impl Point {
    /// Where the programme starts: the fight's beginning (`None`), or the start of the round
    /// after a live session's checkpoint at the end of round `after`.
    pub fn from_checkpoint(after: Option<u32>) -> Self {
        after.map_or(Point::Begin, |r| Point::RoundStart(r + 1))
    }

    /// The round the step plays in.
    pub fn round(self) -> u32 {
        match self {
            Point::Begin => 1,
            Point::RoundStart(r) | Point::Inside(r) => r,
        }
    }
}

/// How one step ends: at a settled point inside the round, or as a round's branch ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StepEnd {
    Inside,
    Round(RoundEnd),
}

/// Plays one step from `point`, with `answers` given before it, as `run_fight` plays that part
/// of the fight (the intervention point at a round's start, `begin` before the first); returns
/// how it ended and the answers given in all.
fn step_play<R: Ruleset>(
    point: Point,
    answers: u32,
    limits: &Limits,
) -> impl Fn(&mut R::State, &mut dyn crate::driver::Driver<R>) -> Result<(StepEnd, u32), crate::Interrupt>
{
    let limits = *limits;
    move |state, driver| {
        let mut sink = NullSink;
        let mut table = Table::new(driver, &mut sink, None, &limits);
        table.set_answers(answers);
        let end = step_in::<R>(state, &mut table, point, &limits)?;
        Ok((end, table.answers()))
    }
}

/// [`step_play`] on a table.
fn step_in<R: Ruleset>(
    state: &mut R::State,
    table: &mut Table<'_, R>,
    point: Point,
    limits: &Limits,
) -> Result<StepEnd, crate::Interrupt> {
    // A limit reached inside the fight (answers per fight) ends it as a stalemate, as
    // `run_fight` ends it.
    let stopped = |what: &'static str, rounds: u32| {
        let end = FightEnd {
            winner: None,
            rounds,
            reason: EndReason::Limit,
            limit: Some(what),
        };
        StepEnd::Round(round_end(end, rounds, limits))
    };
    let round = point.round();
    if point == Point::Begin {
        table.set_round(0);
        match R::begin(state, table) {
            Err(crate::Interrupt::Error(crate::Fault::Limit(what))) => return Ok(stopped(what, 0)),
            other => other?,
        }
        if let Some(done) = finished::<R>(state, 0) {
            return Ok(StepEnd::Round(RoundEnd::Ended(done)));
        }
        if limits.max_rounds == 0 {
            return Ok(StepEnd::Round(RoundEnd::Stalemate));
        }
    }
    table.set_round(round);
    let step = if matches!(point, Point::Inside(_)) {
        R::round_step(state, table)
    } else {
        table
            .intervention_point(state)
            .and_then(|()| R::round_step(state, table))
    };
    let over = match step {
        Err(crate::Interrupt::Error(crate::Fault::Limit(what))) => return Ok(stopped(what, round)),
        other => other?,
    };
    if !over {
        return Ok(StepEnd::Inside);
    }
    let end = finished::<R>(state, round).unwrap_or(FightEnd {
        winner: None,
        rounds: round,
        reason: EndReason::Limit,
        limit: None,
    });
    Ok(StepEnd::Round(round_end(end, round, limits)))
}

/// The distinct states the programme will carry at one point, estimated from the states the
/// probes stand in there (each counted once per probe in `seen`): Chao's estimator (bias
/// corrected) of a population's size from the kinds sampled once (f1) and twice (f2),
/// d + f1(f1 − 1)/(2(f2 + 1)). Where every probe stands in its own state, the probes saw only
/// a small part of the states, and this says so; where the probes repeat states, it is about
/// the count seen.
fn distinct_estimate<S: Clone + Eq + std::hash::Hash>(seen: &Distinct<S>) -> f64 {
    let one = BigRational::one();
    let two = &one + &one;
    let (mut f1, mut f2) = (0.0_f64, 0.0_f64);
    for (_, count) in seen.iter() {
        if *count == one {
            f1 += 1.0;
        } else if *count == two {
            f2 += 1.0;
        }
    }
    seen.len() as f64 + f1 * (f1 - 1.0).max(0.0) / (2.0 * (f2 + 1.0))
}

/// The branches [`fight_odds`] would play, estimated before playing any: [`PROBES`] seeded
/// random fights, each played step by step as the programme plays them (round by round, and
/// from one settled point inside a round to the next); at each step, the mean of the probes'
/// estimates of that step's branches (Knuth's, from the state each probe stands in) times the
/// distinct states the probes stand in (never more than the programme carries), summed over
/// the steps. The widths of later rounds count, not only the first's.
pub fn estimate_fight<R: Ruleset>(start: &R::State, limits: &Limits) -> f64 {
    estimate_fight_after::<R>(start, None, 0, limits)
}

/// [`estimate_fight`] from the end of round `after` (a live session's checkpoint; `None`: the
/// fight's beginning), with `answers` given before it.
pub fn estimate_fight_after<R: Ruleset>(
    start: &R::State,
    after: Option<u32>,
    answers: u32,
    limits: &Limits,
) -> f64 {
    estimate_fight_at::<R>(start, Point::from_checkpoint(after), answers, limits)
}

/// A probe point is *undersampled* when the distinct states estimated there exceed this many
/// times the probes standing in it: the probes then saw only a small part of the states, and
/// Chao's estimator, a lower bound, can be far below the true count (it cannot exceed about
/// half the square of the probes).
const UNDERSAMPLED: f64 = 4.0;

/// The probes [`estimate_fight_at`] plays again with when a point was undersampled and the
/// first estimate is within [`RECHECK_FRACTION`] of the budget ([`PROBES`] × 16).
const MORE_PROBES: u64 = PROBES * 16;

/// See [`MORE_PROBES`]: a first estimate past this fraction of [`MAX_FIGHT_BRANCHES`] with an
/// undersampled point is checked with more probes.
const RECHECK_FRACTION: f64 = 0.1;

/// [`estimate_fight`] from a settled point `point` (a round's start, or a point inside a round
/// its ruleset offers), with `answers` given before it. [`PROBES`] probes first; when some
/// point inside a round was undersampled (far more states there than the probes standing in
/// it could show) and the estimate is near the budget, again with [`MORE_PROBES`] probes,
/// which see up to 256 times as many states: the larger estimate is kept. A fight whose inner
/// points hold tens of thousands of states is thus refused before any branch is played.
pub fn estimate_fight_at<R: Ruleset>(
    start: &R::State,
    point: Point,
    answers: u32,
    limits: &Limits,
) -> f64 {
    estimate_detail::<R>(start, point, answers, limits, MAX_FIGHT_BRANCHES).total
}

/// What the probes say of a fight: the branches estimated in all, and at each point (round,
/// step in the round) the mean branches of one step from a state there, where enough probes
/// stood to say ([`PROJECTION_PROBES`]).
struct Estimate {
    total: f64,
    widths: BTreeMap<(u32, u64), f64>,
    /// At each point where at least [`UNDERCOUNT_PROBES`] probes stood, the distinct states
    /// estimated there (Chao's, from the states they stood in).
    distinct: BTreeMap<(u32, u64), f64>,
    /// At each point, the branches estimated up to and including its step: the rest of
    /// `total` is the estimated cost of the steps still to come.
    through: BTreeMap<(u32, u64), f64>,
}

/// Probes that must stand at a point for their mean width to project the programme's work
/// there.
const PROJECTION_PROBES: usize = 32;

/// Probes that must stand at a point for the distinct states they show there to measure how
/// far they undercount the programme's ([`projection`]): where fewer stand, Chao's count of
/// their states is noise (Celesia's duel: 39 probes at a point inside round 1 count 50 states
/// where the programme holds 3,172).
const UNDERCOUNT_PROBES: usize = 128;

/// [`estimate_fight_at`] for a budget of `work` units (its thresholds in proportion), with the
/// widths, states and costs at each point.
fn estimate_detail<R: Ruleset>(
    start: &R::State,
    point: Point,
    answers: u32,
    limits: &Limits,
    work: usize,
) -> Estimate {
    let (first, undersampled) = estimate_with::<R>(start, point, answers, limits, PROBES, work);
    if undersampled && first.total > RECHECK_FRACTION * work as f64 {
        let (second, _) = estimate_with::<R>(start, point, answers, limits, MORE_PROBES, work);
        if second.total > first.total {
            return second;
        }
    }
    first
}

/// [`estimate_fight_at`] with `probes` probes, for a budget of `work` units; and whether some
/// point was undersampled.
fn estimate_with<R: Ruleset>(
    start: &R::State,
    from: Point,
    answers: u32,
    limits: &Limits,
    probes: u64,
    work: usize,
) -> (Estimate, bool) {
    let mut going: Vec<(u64, R::State)> = (0..probes).map(|p| (p, start.clone())).collect();
    let mut point = from;
    let mut total = 0.0;
    let mut widths = BTreeMap::new();
    let mut counted = BTreeMap::new();
    let mut through = BTreeMap::new();
    let mut undersampled = false;
    // The cost of the last round that at least [`PROJECTION_PROBES`] probes began, and the
    // last round any probe began.
    let mut sampled: Option<f64> = None;
    let mut last = point.round();
    while !going.is_empty() {
        let round = point.round();
        let began = going.len();
        let before = total;
        last = round;
        let mut inside = going;
        let mut next_round = Vec::new();
        let mut step = 0u64;
        while !inside.is_empty() && step < MAX_STEPS as u64 {
            let play = step_play::<R>(point, answers, limits);
            let mut states = Distinct::new(inside.len());
            let one = BigRational::one();
            let mut width = 0.0;
            let probes = inside.len() as f64;
            let mut deeper = Vec::with_capacity(inside.len());
            for (probe, mut state) in inside {
                // Counted as the programme counts them: by their canonical key.
                states.add(&*R::odds_key_within(&state, limits.max_rounds), &one);
                let seed = probe ^ (u64::from(round) << 32) ^ (step << 48);
                let (nodes, end) = probe_once::<R, (StepEnd, u32)>(&mut state, seed, &play);
                width += nodes;
                match end {
                    Ok((StepEnd::Inside, _)) => deeper.push((probe, state)),
                    Ok((StepEnd::Round(RoundEnd::GoesOn), _)) => next_round.push((probe, state)),
                    _ => {}
                }
            }
            let distinct = distinct_estimate(&states);
            undersampled |= distinct > UNDERSAMPLED * probes;
            total += distinct * width / probes;
            if probes >= PROJECTION_PROBES as f64 {
                widths.insert((round, step), width / probes);
            }
            if probes >= UNDERCOUNT_PROBES as f64 {
                counted.insert((round, step), distinct);
            }
            through.insert((round, step), total);
            if total > FIGHT_ESTIMATE_MARGIN * work as f64 {
                // Already past what is refused: the later steps cannot bring it back.
                let estimate = Estimate {
                    total,
                    widths,
                    distinct: counted,
                    through,
                };
                return (estimate, undersampled);
            }
            inside = deeper;
            point = Point::Inside(round);
            step += 1;
        }
        // The programme carries every state that can still stand in this round, however
        // unlikely, while the probes thin out as their fights end: a round fewer probes began
        // costs at least as much as the last round that enough of them began.
        let cost = total - before;
        if began >= PROJECTION_PROBES {
            sampled = Some(cost);
        } else if let Some(full) = sampled {
            total += (full - cost).max(0.0);
        }
        going = next_round;
        point = Point::RoundStart(round + 1);
    }
    // The rounds after the last one a probe reached, up to the round limit, likewise: a fight
    // that can go on (both sides missing, round after round) is carried to the limit.
    if let (Some(full), true) = (sampled, last < limits.max_rounds) {
        total += full * f64::from(limits.max_rounds - last);
    }
    let estimate = Estimate {
        total,
        widths,
        distinct: counted,
        through,
    };
    (estimate, undersampled)
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
    /// Distinct states explored at every settled point (a round's end, and inside a round
    /// where the ruleset offers points), over all rounds.
    pub states: usize,
    /// The most distinct states held at one settled point.
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
/// the default tactics choosing for everyone: one step at a time over the distinct states the
/// fight can stand in at its settled points (a round's end, and the points inside a round its
/// ruleset offers, [`Ruleset::round_step`]), at most `max_states` of them at one point, and at
/// most [`MAX_FIGHT_BRANCHES`] branches in all.
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
    after: Option<u32>,
    answers: u32,
    limits: &Limits,
    max_states: usize,
) -> Result<FightOdds, OddsError> {
    fight_odds_at::<R>(
        start,
        Point::from_checkpoint(after),
        answers,
        limits,
        max_states,
        MAX_FIGHT_BRANCHES,
    )
}

/// [`fight_odds`] from the settled point `from` (a round's start, or a point inside a round
/// where the ruleset's `round_step` paused: a live session stopped there), `answers` answers
/// given before it, within a budget of `work` units of work (at most [`MAX_FIGHT_BRANCHES`],
/// the budget [`fight_odds`] and [`fight_odds_after`] pass; `fray odds --fight --max-work`):
/// every refusal (the probes' estimate, the projections at the settled points, the units
/// spent) is weighed against `work` as it is against the default budget.
pub fn fight_odds_at<R: Ruleset>(
    start: &R::State,
    from: Point,
    answers: u32,
    limits: &Limits,
    max_states: usize,
    work: usize,
) -> Result<FightOdds, OddsError> {
    let work = work.min(MAX_FIGHT_BRANCHES);
    // Refuse at once a fight that probes say is past the budget, rather than after playing
    // the budget (tens of seconds). The estimate leans low (it counts only the states the
    // probes stand in); the margin keeps the noise of its widths from refusing a fight that fits.
    let estimate = estimate_detail::<R>(start, from, answers, limits, work);
    if estimate.total > FIGHT_ESTIMATE_MARGIN * work as f64 {
        return Err(OddsError::FightEstimatedTooLarge(estimate.total, work));
    }
    // One budget of work for both passes: a pass with the answer counts collapsed, and, only
    // when a branch of it ran out of answers, a pass that keeps each count.
    let mut budget = work;
    let plan = Plan {
        from,
        answers,
        limits,
        max_states,
        work,
        estimate: &estimate,
    };
    let spent = |e| match e {
        OddsError::FightTooLarge(_) => OddsError::FightTooLarge(work),
        other => other,
    };
    match programme::<R>(start, &plan, Counts::Collapsed, &mut budget).map_err(spent)? {
        Some(odds) => Ok(odds),
        None => programme::<R>(start, &plan, Counts::Each, &mut budget)
            .map_err(spent)?
            .ok_or(OddsError::FightTooLarge(work)),
    }
}

/// How the programme keeps the answers given before each state (the answers-per-fight limit
/// counts the whole fight, and branches that reach one state with different counts merge).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counts {
    /// Only the largest count that reaches the state, with the state's whole probability. The
    /// rules read nothing of the count but the limit, and the largest count bounds every count
    /// of every branch that reaches the state (the count a branch carries is the largest of
    /// those that reached its state, plus the answers it gave since): when no branch of the
    /// fight runs out of answers from its largest count, none runs out from its own, and every
    /// state, probability and end is the same as with each count kept. A branch that runs out
    /// stops the pass ([`Counts::Each`] plays it again). One count a state: its work is the
    /// branches'.
    Collapsed,
    /// Each count on its own, with its probability: exact when a branch runs out of answers.
    /// Carrying a count's outcomes to the next layer costs a unit of the budget per outcome
    /// ([`from_state`]), as a branch does.
    Each,
}

/// What [`programme`] is asked: where it starts, the answers before, the limits, the most
/// distinct states at a point, and the probes' estimate (for the projections).
struct Plan<'a> {
    from: Point,
    answers: u32,
    limits: &'a Limits,
    max_states: usize,
    /// The budget's units of work.
    work: usize,
    estimate: &'a Estimate,
}

/// The programme of [`fight_odds_at`], keeping the answer counts as `counts` says, its work
/// (branches, and answer counts carried) counted against `budget`. `None`: with the counts
/// collapsed, a branch ran out of answers (the pass is void; play it with each count).
fn programme<R: Ruleset>(
    start: &R::State,
    plan: &Plan<'_>,
    counts: Counts,
    budget: &mut usize,
) -> Result<Option<FightOdds>, OddsError> {
    let Plan {
        from,
        answers,
        limits,
        max_states,
        work,
        estimate,
    } = *plan;
    let mut odds = FightOdds::empty(R::roster(start).sides.len());
    let mut layer = Step::new(max_states, counts);
    layer.add(start, answers, &BigRational::one());
    let mut point = from;
    while !layer.layer.is_empty() {
        let round = point.round();
        let mut next_round = Step::new(max_states, counts);
        let mut inside = layer;
        let mut steps = 0;
        while !inside.layer.is_empty() {
            if steps == MAX_STEPS {
                return Err(too_many_steps());
            }
            // The probes' count of states is a lower bound; the layer's is exact: refuse as
            // soon as the work spent, plus the layer's states times the probes' width of a
            // step from there, plus the probes' cost of the steps still to come, is past the
            // budget (with its margin), before playing them ([`projection`]: the steps to come
            // scaled by how far the probes undercount the states here); and, once part
            // of the layer is played, as soon as the work spent and the layer's measured work
            // to come, with the probes' estimate of the steps after it weighed against the
            // margin, project past the budget itself ([`measured`]).
            let here = (round, steps as u64);
            let states = inside.layer.len();
            if let Some(projected) = projection(estimate, here, states, work - *budget) {
                if projected > FIGHT_ESTIMATE_MARGIN * work as f64 {
                    return Err(OddsError::FightProjectedTooLarge {
                        projected,
                        states,
                        played: work - *budget,
                        limit: work,
                    });
                }
            }
            let to_come = estimate.total - estimate.through.get(&here).copied().unwrap_or(0.0);
            let to_come = to_come.max(0.0);
            let layer_start = work - *budget;
            odds.states += inside.layer.len();
            odds.peak_states = odds.peak_states.max(inside.layer.len());
            let mut deeper = Step::new(max_states, counts);
            for (at, (state, _)) in inside.layer.iter().enumerate() {
                let mut to = Next {
                    round: &mut next_round,
                    inside: &mut deeper,
                };
                let (played, ran_out) = from_state::<R>(
                    state,
                    &inside.counts[at],
                    point,
                    limits,
                    budget,
                    &mut to,
                    &mut odds,
                )?;
                odds.branches += played;
                if ran_out && counts == Counts::Collapsed {
                    return Ok(None);
                }
                let spent = work - *budget;
                if let Some(layer) = measured(at + 1, states, spent - layer_start, spent) {
                    if layer + to_come / FIGHT_ESTIMATE_MARGIN > work as f64 {
                        return Err(OddsError::FightProjectedTooLarge {
                            projected: layer + to_come,
                            states,
                            played: spent,
                            limit: work,
                        });
                    }
                }
                if next_round.layer.overflowed() || deeper.layer.overflowed() {
                    return Err(OddsError::TooManyStates(max_states));
                }
            }
            inside = deeper;
            point = Point::Inside(round);
            steps += 1;
        }
        odds.rounds = round;
        layer = next_round;
        point = Point::RoundStart(round + 1);
    }
    Ok(Some(odds))
}

/// The work a fight will take, projected at the settled point `here` (round, step in it) where
/// the programme holds `states` distinct states (counted) and has spent `spent` units: those,
/// plus the states times the probes' mean branches of a step from there, plus the probes'
/// estimate of every step still to come (the rest of their total), scaled by how far the
/// probes undercount the states here (the counted states over the probes' estimate of them,
/// where enough probes stood to say, [`UNDERCOUNT_PROBES`]; never below 1): the steps to come
/// were estimated from the same probes' states, and a fight whose states outgrow what the
/// probes see (Spelljammer's duel at 10 hp a marine, 3 rounds: 13,152 states at the end of
/// round 2 where its 3,330 probes count 1,914) is seen then, not a round later. `None` where
/// too few probes stood to say ([`PROJECTION_PROBES`]). Compared with
/// [`FIGHT_ESTIMATE_MARGIN`] times the budget: a probe's width is Knuth's estimate, whose mean
/// over a few dozen probes can be far above the step's true width (OSR's armed duel once:
/// 113,677 branches a state estimated where about 700 were played), so the layer's measured
/// work decides closer calls ([`measured`]).
fn projection(estimate: &Estimate, here: (u32, u64), states: usize, spent: usize) -> Option<f64> {
    let width = estimate.widths.get(&here)?;
    let done = estimate.through.get(&here).copied().unwrap_or(0.0);
    let to_come = (estimate.total - done).max(0.0);
    let undercount = estimate
        .distinct
        .get(&here)
        .map_or(1.0, |probed| (states as f64 / probed).max(1.0));
    Some(spent as f64 + states as f64 * width + undercount * to_come)
}

/// States of a layer the programme plays before their measured work projects the rest of the
/// layer ([`measured`]): at least this many, and at least one part in [`MEASURED_SHARE`].
const MEASURED_STATES: usize = 64;

/// See [`MEASURED_STATES`]: the layer's share (one part in this many) played before its
/// measured work projects the rest.
const MEASURED_SHARE: usize = 16;

/// The work spent once the layer's `states` are all played, projected from the first `played`
/// of them, which took `cost` of the `spent` units: their mean cost for each state still to
/// play. `None` until enough of the layer is played to say ([`MEASURED_STATES`]), and once it
/// is all played. The programme adds the probes' estimate of the steps after the layer, as
/// their estimate is weighed before any branch is played (against [`FIGHT_ESTIMATE_MARGIN`]
/// times the budget: divided by it here), and refuses past the budget itself: the work spent
/// and the layer's are counted and measured, not estimated, so a fight projected past the
/// budget would spend it, partway through the layer or after it, and be refused then.
fn measured(played: usize, states: usize, cost: usize, spent: usize) -> Option<f64> {
    let enough = MEASURED_STATES.max(states / MEASURED_SHARE);
    (played >= enough && played < states)
        .then(|| spent as f64 + (states - played) as f64 * cost as f64 / played as f64)
}

/// Answers given so far → probability, for one state of the programme.
type Answers = BTreeMap<u32, BigRational>;

/// The next layer of the programme: the distinct states at a round's end, and the answers
/// given before each (same positions).
struct Step<S> {
    layer: Distinct<S>,
    counts: Vec<Answers>,
    keep: Counts,
}

/// Where a step's branches go: the next round's layer, or the next settled point inside this
/// round.
struct Next<'a, S> {
    round: &'a mut Step<S>,
    inside: &'a mut Step<S>,
}

impl<S: Clone + Eq + std::hash::Hash> Next<'_, S> {
    /// The layer a branch that ended its step `how` goes to, if it goes on.
    fn layer(&mut self, how: StepEnd) -> Option<&mut Step<S>> {
        match how {
            StepEnd::Inside => Some(self.inside),
            StepEnd::Round(RoundEnd::GoesOn) => Some(self.round),
            StepEnd::Round(_) => None,
        }
    }
}

impl<S: Clone + Eq + std::hash::Hash> Step<S> {
    /// An empty layer of at most `max_states` states, keeping the answer counts as `keep` says.
    fn new(max_states: usize, keep: Counts) -> Self {
        Step {
            layer: Distinct::new(max_states),
            counts: Vec::new(),
            keep,
        }
    }
    /// `probability` of reaching `state` with `answers` given.
    fn add(&mut self, state: &S, answers: u32, probability: &BigRational) -> Option<usize> {
        let at = self.layer.add(state, probability)?;
        if self.counts.len() <= at {
            self.counts.resize(at + 1, Answers::new());
        }
        self.count(at, answers, probability);
        Some(at)
    }
    /// `probability` of reaching the state at `at` with `answers` given.
    fn add_at(&mut self, at: usize, answers: u32, probability: &BigRational) {
        self.layer.add_at(at, probability);
        self.count(at, answers, probability);
    }
    /// Counts `probability` of the state at `at` as reached with `answers` given: beside that
    /// count, or, with the counts collapsed, beside the largest count that reaches it.
    fn count(&mut self, at: usize, answers: u32, probability: &BigRational) {
        let counts = &mut self.counts[at];
        if self.keep == Counts::Collapsed {
            if let Some((&most, _)) = counts.iter().next_back() {
                if most >= answers {
                    *counts.entry(most).or_insert_with(BigRational::zero) += probability;
                } else {
                    let p = counts.remove(&most).unwrap_or_else(BigRational::zero);
                    counts.insert(answers, p + probability);
                }
                return;
            }
        }
        *counts.entry(answers).or_insert_with(BigRational::zero) += probability;
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

/// Plays the next step from `state` at `point`, reached with the answer counts `counts`, into
/// `next` and `odds`; returns the branches played and whether a branch from the largest count
/// ran out of answers. The step is played once, from the largest count: when no branch of it
/// runs out of answers, none does from a smaller count either (the rules read nothing of the
/// count but the limit), so every count has the same branches, its answers shifted. Otherwise
/// each count is played on its own: exact either way. Carrying a smaller count's share of the
/// outcomes costs the budget a unit per outcome (each a sum of exact fractions, as costly as a
/// branch's), so the work of many counts is weighed as branches are.
fn from_state<R: Ruleset>(
    state: &R::State,
    counts: &Answers,
    point: Point,
    limits: &Limits,
    budget: &mut usize,
    next: &mut Next<'_, R::State>,
    odds: &mut FightOdds,
) -> Result<(usize, bool), OddsError> {
    let Some((&most, p_most)) = counts.iter().next_back() else {
        return Ok((0, false));
    };
    // What the step from the largest count did, to apply to the smaller counts (only kept
    // when there are some): (inside the round?, position in its layer, answers given) →
    // probability, and the ways it ended, each with its probability from `state`.
    let many = counts.len() > 1;
    let mut goes_on: BTreeMap<(bool, usize, u32), BigRational> = BTreeMap::new();
    let mut shares = FightOdds::empty(odds.wins.len());
    let mut short = false;
    let mut branches = one_step::<R>(state, point, most, limits, budget, |q, end, how, used| {
        let probability = p_most * q;
        if let Some(layer) = next.layer(how) {
            let at = layer.add(end, most + used, &probability);
            if let (true, Some(at)) = (many, at) {
                *goes_on
                    .entry((how == StepEnd::Inside, at, used))
                    .or_insert_with(BigRational::zero) += q;
            }
        } else if let StepEnd::Round(how) = how {
            short |= how == RoundEnd::OutOfAnswers;
            if many {
                ended(&mut shares, how, q.clone());
            }
            ended(odds, how, probability);
        }
    })?;
    for (&count, p) in counts.iter().rev().skip(1) {
        if short {
            branches += one_step::<R>(state, point, count, limits, budget, |q, end, how, used| {
                let probability = p * q;
                if let Some(layer) = next.layer(how) {
                    layer.add(end, count + used, &probability);
                } else if let StepEnd::Round(how) = how {
                    ended(odds, how, probability);
                }
            })?;
        } else {
            // The outcomes carried, and the ways the step ended.
            let work = goes_on.len() + 1;
            if *budget < work {
                return Err(OddsError::FightTooLarge(MAX_FIGHT_BRANCHES));
            }
            *budget -= work;
            for (&(inside, at, used), q) in &goes_on {
                let how = if inside {
                    StepEnd::Inside
                } else {
                    StepEnd::Round(RoundEnd::GoesOn)
                };
                if let Some(layer) = next.layer(how) {
                    layer.add_at(at, count + used, &(p * q));
                }
            }
            odds.add_scaled(&shares, p);
        }
    }
    Ok((branches, short))
}

/// Plays one step from `state` at `point`, with `answers` given before it, against every die
/// result, the default tactics choosing; hands each branch's probability, end state (its
/// canonical key within the round limit, [`Ruleset::odds_key_within`]), how it ended and the answers it gave to `leaf`.
/// Branches are counted against `budget` (at most [`MAX_BRANCHES`] for the step whatever the
/// budget). No probes here: [`estimate_fight`] has weighed every step before the programme
/// starts.
fn one_step<R: Ruleset>(
    start: &R::State,
    point: Point,
    answers: u32,
    limits: &Limits,
    budget: &mut usize,
    mut leaf: impl FnMut(&BigRational, &R::State, StepEnd, u32),
) -> Result<usize, OddsError> {
    let play = step_play::<R>(point, answers, limits);
    let mut step_budget = (*budget).min(MAX_BRANCHES);
    let before = step_budget;
    let result = explore::<R, (StepEnd, u32), NullSink>(
        start,
        &mut step_budget,
        &mut NullSink,
        |state, driver, _| play(state, driver),
        |probability, state, (end, total), _| {
            leaf(
                probability,
                &R::odds_key_within(state, limits.max_rounds),
                end,
                total - answers,
            )
        },
    );
    *budget -= before - step_budget;
    match result {
        Err(OddsError::TooManyBranches(n)) if *budget > 0 => {
            Err(OddsError::RoundTooLarge(n as f64, n))
        }
        Err(OddsError::TooManyBranches(_)) => Err(OddsError::FightTooLarge(MAX_FIGHT_BRANCHES)),
        other => other,
    }
}

/// The exact distribution of the state at the end of the first round (with `begin` before
/// it), whether the fight goes on or not, at most `max_states` distinct states at one point;
/// and the number of branches played. Played step by step as [`fight_odds`] plays round 1:
/// equal states merge at each settled point inside the round its ruleset offers
/// ([`Ruleset::round_step`]), so a round too wide to play branch by branch can still be
/// computed. Refused at once when probes estimate more than twice [`MAX_BRANCHES`], and past
/// [`MAX_BRANCHES`] played.
pub fn first_round<R: Ruleset>(
    start: &R::State,
    limits: &Limits,
    max_states: usize,
) -> Result<(Distinct<R::State>, usize), OddsError> {
    // One round: its end is the round limit, as `fray sim --max-rounds 1` ends it.
    let mut one = *limits;
    one.max_rounds = 1;
    let estimate = estimate_fight_at::<R>(start, Point::Begin, 0, &one);
    if estimate > 2.0 * MAX_BRANCHES as f64 {
        return Err(OddsError::RoundTooLarge(estimate, MAX_BRANCHES));
    }
    // One budget for both passes, as in [`fight_odds_at`]: the answer counts collapsed, then
    // each count on its own only when a branch of the first pass ran out of answers.
    let mut budget = MAX_BRANCHES;
    match round_pass::<R>(start, &one, max_states, Counts::Collapsed, &mut budget)? {
        Some(answer) => Ok(answer),
        None => round_pass::<R>(start, &one, max_states, Counts::Each, &mut budget)?
            .ok_or(OddsError::RoundTooLarge(MAX_BRANCHES as f64, MAX_BRANCHES)),
    }
}

/// The end states of the first round, with their probabilities, and the branches played.
type RoundEnds<S> = (Distinct<S>, usize);

/// The end states of the first round ([`first_round`]) and the branches played, keeping the
/// answer counts as `counts` says ([`Counts`]); `None` when, with the counts collapsed, a
/// branch ran out of answers.
fn round_pass<R: Ruleset>(
    start: &R::State,
    one: &Limits,
    max_states: usize,
    counts: Counts,
    budget: &mut usize,
) -> Result<Option<RoundEnds<R::State>>, OddsError> {
    let mut ends = Distinct::new(max_states);
    let mut branches = 0;
    let mut layer = Step::new(max_states, counts);
    layer.add(start, 0, &BigRational::one());
    let mut point = Point::Begin;
    let mut steps = 0;
    let mut ran_out = false;
    while !layer.layer.is_empty() {
        if steps == MAX_STEPS {
            return Err(too_many_steps());
        }
        let mut deeper = Step::new(max_states, counts);
        for (at, (state, _)) in layer.layer.iter().enumerate() {
            // Each answer count on its own (a round's counts are few; collapsed, one): exact.
            for (&count, p) in &layer.counts[at] {
                let played =
                    one_step::<R>(state, point, count, one, budget, |q, end, how, used| {
                        let probability = p * q;
                        match how {
                            StepEnd::Inside => {
                                deeper.add(end, count + used, &probability);
                            }
                            StepEnd::Round(how) => {
                                ran_out |= how == RoundEnd::OutOfAnswers;
                                ends.add(end, &probability);
                            }
                        }
                    });
                branches += match played {
                    Err(OddsError::FightTooLarge(_)) => {
                        return Err(OddsError::RoundTooLarge(MAX_BRANCHES as f64, MAX_BRANCHES))
                    }
                    other => other?,
                };
                if ran_out && counts == Counts::Collapsed {
                    return Ok(None);
                }
            }
            if deeper.layer.overflowed() || ends.overflowed() {
                return Err(OddsError::TooManyStates(max_states));
            }
        }
        layer = deeper;
        point = Point::Inside(1);
        steps += 1;
    }
    Ok(Some((ends, branches)))
}

/// Where a live session stands inside a round, when it stands at a settled point: replays
/// `answers` (the log's answers after the end of round `after`, or from the fight's start when
/// `after` is `None`; `given` answers before them) step by step as the programme plays them,
/// interventions included. When they run out exactly where a step ended inside the round
/// (the ruleset's `round_step` paused there, so the state alone says how the round goes on),
/// returns that state, its point and the answers given in all: the programme can start there
/// ([`fight_odds_at`]). `None` when they run out inside a step (the rules hold locals on the
/// stack there), go past the round's end, or do not replay.
pub fn settled_point<R: Ruleset>(
    start: &R::State,
    after: Option<u32>,
    given: u32,
    answers: &[crate::Answer],
    limits: &Limits,
) -> Option<(R::State, Point, u32)> {
    let mut state = start.clone();
    let mut point = Point::from_checkpoint(after);
    let mut driver = crate::driver::ReplayDriver::new(answers);
    let mut count = given;
    for _ in 0..MAX_STEPS {
        let mut sink = NullSink;
        let mut table = Table::new(&mut driver, &mut sink, None, limits);
        table.set_answers(count);
        let end = step_in::<R>(&mut state, &mut table, point, limits).ok()?;
        count = table.answers();
        if end != StepEnd::Inside {
            return None;
        }
        point = Point::Inside(point.round());
        if driver.used() == answers.len() {
            return Some((state, point, count));
        }
    }
    None
}

/// The refusal of a round that does not end within [`MAX_STEPS`] settled points.
fn too_many_steps() -> OddsError {
    OddsError::Stopped(crate::Interrupt::Error(crate::Fault::Limit(
        "settled points in one round",
    )))
}
