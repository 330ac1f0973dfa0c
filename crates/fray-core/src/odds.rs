//! Exact odds by enumeration: play a piece of a fight against every possible die result, each
//! branch weighted by its exact probability, with choices made by the default tactics.
//!
//! This is the "exact odds" driver of DESIGN.md: the same rules code that the simulator and the
//! tracker run, answered with every face instead of one. A roll branches once per possible
//! total, weighted by its exact probability: a plain pool's by counting ([`pool_ways`]), a
//! pool that keeps only its highest or lowest dice by `fray-dice`'s keep distribution
//! ([`pool_pmf`]; `2d20kh1` here is `fray dist 2d20kh1`), never by enumerating every face. Rules
//! see only the kept total there ([`crate::Rolled`] has no dice).

use crate::driver::Driver;
use crate::event::{Event, EventSink, VecSink};
use crate::protocol::{ChoiceRequest, FaceClasses, Interrupt, Keep, RollRequest, Rolled};
use crate::protocol::{Fault, Pause};
use crate::ranked::{ranked_kind, ranked_orders, RankedDie, RankedKind, RankedOrder};
use crate::ruleset::Ruleset;
use crate::runner::{Limits, Table};
use fray_dice::{Dice, Expr, Select, SelectKind};
use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// Most branches one enumeration may explore.
pub const MAX_BRANCHES: usize = 1_000_000;

/// Most branches × combatants one enumeration may explore: each branch replays from a copy of
/// the whole starting state, so a large roster allows fewer branches (time stays bounded).
pub const MAX_WORK: usize = 100_000_000;

/// Most branches waiting to be explored at once. Each holds only its die results (never a
/// state), and the search is depth-first, so this is reached only by absurdly wide rolls.
pub const MAX_PENDING: usize = 1_000_000;

/// One way the enumerated play can go.
#[derive(Debug, Clone)]
pub struct Branch<S> {
    /// Its exact probability.
    pub probability: BigRational,
    /// The state at its end.
    pub state: S,
    /// The events it produced, with their rounds.
    pub events: Vec<(u32, Event)>,
}

/// Why an enumeration failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OddsError {
    /// Too many branches.
    #[error("more than {0} branches: the attack is too complex to enumerate exactly")]
    TooManyBranches(usize),
    /// Estimated, before enumerating, to need far more branches than the limit.
    #[error("about {0:.1e} branches estimated (at most {1}): the attack is too complex to enumerate exactly")]
    EstimatedTooMany(f64, usize),
    /// Too many branches waiting at once.
    #[error(
        "more than {MAX_PENDING} branches pending: the attack is too complex to enumerate exactly"
    )]
    TooManyPending,
    /// One round of a fight needs too many branches (estimated, or counted).
    #[error("about {0:.1e} branches in one round (at most {1}): too large to compute exactly (estimate it instead with `fray sim FILE --target-ci 0.01`)")]
    RoundTooLarge(f64, usize),
    /// A whole fight needs more work over its rounds than its budget: branches played, and
    /// the outcomes carried for each answer count kept beside a state
    /// (`crate::fight_odds::MAX_FIGHT_BRANCHES`).
    #[error("more than {0} units of work (branches played, answer counts carried) over the fight's rounds: too large to compute exactly (estimate it instead with `fray sim FILE --target-ci 0.01`)")]
    FightTooLarge(usize),
    /// Estimated, before playing any branch, to need far more branches over a whole fight
    /// than the limit.
    #[error("about {0:.1e} branches over the fight's rounds, estimated by seeded probes before playing any (0 played, at most {1}): too large to compute exactly (estimate it instead with `fray sim FILE --target-ci 0.01`)")]
    FightEstimatedTooLarge(f64, usize),
    /// Projected, at a settled point of a whole fight, to need more units of work than the
    /// limit: those spent, the point's distinct states (counted) times the probes' branches of
    /// one step from there, and the probes' estimate of the steps after it.
    #[error("about {projected:.1e} units of work over the fight's rounds, projected from the {states} distinct states at one settled point and the probes' estimate of the steps after it ({played} spent, at most {limit}): too large to compute exactly (estimate it instead with `fray sim FILE --target-ci 0.01`)")]
    FightProjectedTooLarge {
        /// Units spent, plus those projected for the point and the steps after it.
        projected: f64,
        /// Distinct states at the point.
        states: usize,
        /// Units of work spent before it.
        played: usize,
        /// The limit.
        limit: usize,
    },
    /// The rules come back to the same state with certainty: a cycle with no way out.
    #[error("the rules go round a cycle that never ends (every branch comes back to the same state): no exact answer")]
    EndlessCycle,
    /// Too many distinct states at one step of a state-merging computation.
    #[error("more than {0} distinct states: too large to compute exactly (estimate it instead with `fray sim FILE --target-ci 0.01`)")]
    TooManyStates(usize),
    /// The distribution of a kept-dice roll could not be computed (a `fray-dice` limit).
    #[error("the distribution of {0} cannot be computed: {1}")]
    Distribution(String, fray_dice::DistError),
    /// The rules stopped for another reason (an illegal choice, a limit).
    #[error("the rules stopped: {0:?}")]
    Stopped(Interrupt),
}

/// Number of ways to roll each total of `count`d`sides` (index 0 = total `count`).
pub fn pool_ways(count: u16, sides: u16) -> Vec<BigUint> {
    let mut ways = vec![BigUint::one()];
    for _ in 0..count {
        let mut next = vec![BigUint::zero(); ways.len() + sides as usize - 1];
        for (i, w) in ways.iter().enumerate() {
            for slot in next.iter_mut().skip(i).take(sides as usize) {
                *slot += w;
            }
        }
        ways = next;
    }
    ways
}

/// Every possible total of `request` (of its kept dice) with its exact probability, smallest
/// first: by counting for a plain pool, by `fray-dice`'s order-statistics distribution of
/// `NdSkhK`/`NdSklK` for a pool that keeps only some of its dice.
pub fn pool_pmf(request: &RollRequest) -> Result<Vec<(u32, BigRational)>, OddsError> {
    let select = match request.keep {
        Keep::Highest(k) if request.needs_dice() => Some((SelectKind::KeepHighest, k)),
        Keep::Lowest(k) if request.needs_dice() => Some((SelectKind::KeepLowest, k)),
        _ => None,
    };
    let Some((kind, k)) = select else {
        let ways = pool_ways(request.kept_count(), request.sides);
        let total: BigUint = BigUint::from(request.sides).pow(u32::from(request.kept_count()));
        return Ok(ways
            .into_iter()
            .enumerate()
            .map(|(i, w)| {
                let p = BigRational::new(w.into(), total.clone().into());
                (u32::from(request.kept_count()) + i as u32, p)
            })
            .filter(|(_, p)| !p.is_zero())
            .collect());
    };
    let dice = Dice {
        select: Some(Select {
            kind,
            count: u32::from(k),
        }),
        ..Dice::plain(u32::from(request.count), u32::from(request.sides))
    };
    let failed = |e| OddsError::Distribution(request.dice_text(), e);
    let distribution = Expr::Dice(dice).distribution().map_err(failed)?;
    Ok(distribution
        .pmf()
        .into_iter()
        .map(|(total, p)| (total as u32, p))
        .collect())
}

/// The identity of a cycle's node ([`Table::recurrence`]): the rolls before its scope began,
/// and the key and state of each node of the cycle down to it.
type NodeId<S> = (Vec<u32>, Vec<(u64, S)>);

struct PrefixDriver<'a, S> {
    prefix: &'a [u32],
    next: usize,
    /// The nodes solved so far, by identity: their place in [`explore`]'s table of results.
    solved: &'a HashMap<NodeId<S>, usize>,
    /// A node first reached at the end of `prefix` (opened by this play): its identity and the
    /// positions of the cycle's nodes down to it.
    opened: Option<(NodeId<S>, Vec<u32>)>,
    /// A solved node this play reached: its results and the positions of the cycle's nodes
    /// down to it.
    hit: Option<(usize, Vec<u32>)>,
    /// The orders of the ranked rolls met so far ([`crate::ranked`]), by kind: a branch's
    /// answer to one is the index of its order.
    ranked_orders: &'a RankedCache,
    /// A ranked roll first reached at the end of `prefix` (its kind): this play paused there.
    ranked: Option<RankedKind>,
}

/// The orders of ranked rolls by kind, each with its exact probability ([`ranked_orders`]).
type RankedCache = HashMap<RankedKind, Vec<(RankedOrder, BigRational)>>;

/// The orders of a ranked roll of `kind`, each with its probability (its tuples over all);
/// `None` when the roll is not one to rank.
fn ranked_pmf(kind: &[(u16, i32)]) -> Option<Vec<(RankedOrder, BigRational)>> {
    let (orders, tuples) = ranked_orders(kind)?;
    let all = BigRational::from_integer(tuples.into());
    Some(
        orders
            .into_iter()
            .map(|o| {
                let p = BigRational::from_integer(o.ways.into()) / &all;
                (o, p)
            })
            .collect(),
    )
}

impl<R: Ruleset> Driver<R> for PrefixDriver<'_, R::State> {
    fn wants_options(&self) -> bool {
        false
    }
    fn needs_checking(&self) -> bool {
        false
    }
    fn position(&self) -> Option<u32> {
        Some(self.next as u32)
    }
    fn recurrent_node(&mut self, scope: u32, path: &[(u64, R::State, u32)]) -> bool {
        let before = self.prefix[..(scope as usize).min(self.prefix.len())].to_vec();
        let id: NodeId<R::State> = (
            before,
            path.iter().map(|(k, s, _)| (*k, s.clone())).collect(),
        );
        let positions = path.iter().map(|(_, _, p)| *p).collect();
        if let Some(&at) = self.solved.get(&id) {
            self.hit = Some((at, positions));
            return true;
        }
        // Its probability is the branch's own when it stands past the whole prefix: it is
        // opened by the one play that first reaches it.
        if self.next == self.prefix.len() && self.opened.is_none() {
            self.opened = Some((id, positions));
        }
        false
    }
    fn roll(&mut self, request: &RollRequest) -> Result<Rolled, Interrupt> {
        match self.prefix.get(self.next) {
            Some(v) => {
                self.next += 1;
                Ok(Rolled::total_only(*v))
            }
            None => Err(Interrupt::Pause(Pause::Roll(*request))),
        }
    }
    fn roll_ranked(&mut self, dice: &[RankedDie]) -> Option<Result<Vec<u32>, Interrupt>> {
        let kind = ranked_kind(dice);
        match self.prefix.get(self.next) {
            Some(&order) => {
                // The branch was queued from this roll's orders (the same rules from the same
                // state ask the same roll): its answer names one of them.
                let faces = self
                    .ranked_orders
                    .get(&kind)
                    .and_then(|orders| orders.get(order as usize))
                    .map(|(o, _)| o.faces.clone());
                self.next += 1;
                Some(faces.ok_or(Interrupt::Error(Fault::BadRoll {
                    request: dice[0].request,
                    value: order,
                    dice_used: None,
                })))
            }
            None => {
                // A roll not to rank plays one die at a time, as it would anywhere else.
                if !self.ranked_orders.contains_key(&kind) && ranked_orders(&kind).is_none() {
                    return None;
                }
                self.ranked = Some(kind);
                Some(Err(Interrupt::Pause(Pause::Roll(dice[0].request))))
            }
        }
    }
    fn choose(
        &mut self,
        state: &R::State,
        request: &ChoiceRequest<'_, R::Choice>,
    ) -> Result<R::Choice, Interrupt> {
        Ok(R::tactics(state, request))
    }
}

/// Random probes run before an enumeration to estimate its size.
pub(crate) const PROBES: u64 = 256;

/// A driver that plays one random path and multiplies the number of possible totals of each
/// roll along it (Knuth's estimator of a search tree's size).
///
/// Where the rules go round a cycle ([`Table::recurrence`]), the enumeration stops a branch that
/// comes back to a node of it: a probe that comes back goes on as from that node, its width
/// the node's again (the tree under it is the node's own), so a cycle left with probability
/// w < 1 each time round weighs what one way round it does, not (fan-out × w)^rounds.
struct ProbeDriver {
    dice: crate::driver::AutoDriver,
    /// Product of the fan-outs so far (the estimated number of nodes at this depth).
    width: f64,
    /// Sum of `width` over the depths so far (the estimated number of nodes above).
    nodes: f64,
    /// `width` after each roll so far (index: the rolls before; 0: none), for [`Driver::came_back`].
    widths: Vec<f64>,
}

impl<R: Ruleset> Driver<R> for ProbeDriver {
    fn wants_options(&self) -> bool {
        false
    }
    fn needs_checking(&self) -> bool {
        false
    }
    fn position(&self) -> Option<u32> {
        Some(self.widths.len() as u32 - 1)
    }
    fn came_back(&mut self, at: u32) -> bool {
        if let Some(&width) = self.widths.get(at as usize) {
            self.width = width;
        }
        true
    }
    fn roll_ranked(&mut self, dice: &[RankedDie]) -> Option<Result<Vec<u32>, Interrupt>> {
        let orders = ranked_order_count(&ranked_kind(dice))?;
        self.width *= orders as f64;
        self.nodes += self.width;
        self.widths.push(self.width);
        let mut faces = Vec::with_capacity(dice.len());
        for die in dice {
            match Driver::<R>::roll(&mut self.dice, &die.request) {
                Ok(rolled) => faces.push(rolled.total()),
                Err(e) => return Some(Err(e)),
            }
        }
        Some(Ok(faces))
    }
    fn roll(&mut self, request: &RollRequest) -> Result<Rolled, Interrupt> {
        let totals = if request.classes.is_none() {
            f64::from(request.kept_count()) * f64::from(request.sides.max(1) - 1) + 1.0
        } else {
            // The classes that hold some total (the cuts are ascending).
            let (low, high) = (request.min_total(), request.max_total());
            (request.classes.of(high) - request.classes.of(low) + 1) as f64
        };
        self.width *= totals;
        self.nodes += self.width;
        self.widths.push(self.width);
        Driver::<R>::roll(&mut self.dice, request)
    }
    fn choose(
        &mut self,
        state: &R::State,
        request: &ChoiceRequest<'_, R::Choice>,
    ) -> Result<R::Choice, Interrupt> {
        Ok(R::tactics(state, request))
    }
}

thread_local! {
    /// The number of orders of each kind of ranked roll the probes met (they meet the same few
    /// kinds again and again).
    static ORDER_COUNTS: std::cell::RefCell<HashMap<RankedKind, Option<usize>>> =
        std::cell::RefCell::new(HashMap::new());
}

/// How many orders a ranked roll of `kind` has ([`ranked_orders`]); `None` when it is not one
/// to rank. Remembered per thread, at most [`ORDER_COUNTS_KEPT`] kinds.
fn ranked_order_count(kind: &RankedKind) -> Option<usize> {
    ORDER_COUNTS.with(|counts| {
        let mut counts = counts.borrow_mut();
        if let Some(&known) = counts.get(kind) {
            return known;
        }
        let count = ranked_orders(kind).map(|(orders, _)| orders.len());
        if counts.len() >= ORDER_COUNTS_KEPT {
            counts.clear();
        }
        counts.insert(kind.clone(), count);
        count
    })
}

/// Most kinds of ranked roll [`ranked_order_count`] remembers at once.
const ORDER_COUNTS_KEPT: usize = 256;

/// The estimated number of branches enumerating `play` would explore (the mean of
/// [`PROBES`] random paths, with fixed seeds: the estimate is deterministic).
fn estimate_branches<R: Ruleset>(
    start: &R::State,
    round: u32,
    play: &impl Fn(&mut R::State, &mut Table<'_, R>) -> Result<(), Interrupt>,
) -> f64 {
    let limits = Limits::default();
    estimate_driven::<R, ()>(start, |state, driver| {
        let mut sink = crate::event::NullSink;
        let mut table = Table::new(driver, &mut sink, None, &limits);
        table.set_round(round);
        play(state, &mut table)
    })
}

/// [`estimate_branches`] for a `play` that takes the driver itself (a whole round).
pub(crate) fn estimate_driven<R: Ruleset, T>(
    start: &R::State,
    play: impl Fn(&mut R::State, &mut dyn Driver<R>) -> Result<T, Interrupt>,
) -> f64 {
    let mut total = 0.0;
    for probe in 0..PROBES {
        let mut state = start.clone();
        // A probe that stops early (a limit, an illegal choice) just counts what it saw;
        // the enumeration itself reports the reason.
        total += probe_once::<R, T>(&mut state, probe, &play).0;
    }
    total / PROBES as f64
}

/// One seeded random path of `play` from `state` (left where the path ends): Knuth's estimate
/// of the branches enumerating `play` would explore, and what `play` returned.
pub(crate) fn probe_once<R: Ruleset, T>(
    state: &mut R::State,
    seed: u64,
    play: impl Fn(&mut R::State, &mut dyn Driver<R>) -> Result<T, Interrupt>,
) -> (f64, Result<T, Interrupt>) {
    let mut driver = ProbeDriver {
        dice: crate::driver::AutoDriver::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        width: 1.0,
        nodes: 1.0,
        widths: vec![1.0],
    };
    let result = play(state, &mut driver);
    (driver.nodes, result)
}

/// Plays `play` from `start` against every die result and returns every branch.
///
/// Keeps every branch's end state and events: memory grows with branches × roster. Prefer
/// [`enumerate_with`], which hands each finished branch to a callback and keeps nothing.
pub fn enumerate<R: Ruleset>(
    start: &R::State,
    round: u32,
    play: impl Fn(&mut R::State, &mut Table<'_, R>) -> Result<(), Interrupt>,
) -> Result<Vec<Branch<R::State>>, OddsError> {
    let mut leaves = Vec::new();
    enumerate_with::<R>(start, round, play, |probability, state, events| {
        leaves.push(Branch {
            probability: probability.clone(),
            state: state.clone(),
            events: events.to_vec(),
        });
    })?;
    Ok(leaves)
}

/// Plays `play` from `start` against every die result, depth first, and hands each finished
/// branch (its probability, end state and events) to `leaf`, in roll order; returns the number
/// of branches explored.
///
/// Memory stays bounded whatever the roster: one state and one event list are alive at a time
/// (the branch being played), and a pending branch is only its die results and probability.
/// The work is refused past [`MAX_BRANCHES`] explored (fewer with a large roster: at most
/// [`MAX_WORK`] branches × combatants), or [`MAX_PENDING`] waiting branches; and at once,
/// without enumerating, when random probes estimate more than twice the branches allowed.
pub fn enumerate_with<R: Ruleset>(
    start: &R::State,
    round: u32,
    play: impl Fn(&mut R::State, &mut Table<'_, R>) -> Result<(), Interrupt>,
    mut leaf: impl FnMut(&BigRational, &R::State, &[(u32, Event)]),
) -> Result<usize, OddsError> {
    let combatants = R::roster(start).combatants.len().max(1);
    let max_branches = MAX_BRANCHES.min(MAX_WORK / combatants);
    // Refuse at once what would only be refused after the whole budget of branches: the
    // estimate is unbiased, and a margin of 2 keeps enumerations that fit from being refused.
    let estimate = estimate_branches::<R>(start, round, &play);
    if estimate > 2.0 * max_branches as f64 {
        return Err(OddsError::EstimatedTooMany(estimate, max_branches));
    }
    let limits = Limits::default();
    let mut sink = VecSink::default();
    let mut budget = max_branches;
    explore::<R, (), VecSink>(
        start,
        &mut budget,
        &mut sink,
        |state, driver, sink| {
            sink.events.clear();
            let mut table = Table::new(driver, sink, None, &limits);
            table.set_round(round);
            play(state, &mut table)
        },
        |probability, state, (), sink| leaf(probability, state, &sink.events),
    )
}

/// The exact weights of a roll's possible totals, computed once per kind of roll.
pub(crate) type PmfCache = HashMap<(u16, u16, Keep, FaceClasses), Vec<(u32, BigRational)>>;

/// The weights of a roll's branches: each total's ([`pool_pmf`]), or, where the rules read the
/// totals only by class ([`FaceClasses`]), each class's, answered with its lowest total (the
/// totals of a class lead to the same play, so one branch with their summed weight is exact).
pub fn branch_pmf(request: &RollRequest) -> Result<Vec<(u32, BigRational)>, OddsError> {
    let pmf = pool_pmf(request)?;
    if request.classes.is_none() {
        return Ok(pmf);
    }
    let mut out: Vec<(usize, u32, BigRational)> = Vec::new();
    for (total, p) in pmf {
        let class = request.classes.of(total);
        match out.last_mut() {
            Some((c, _, q)) if *c == class => *q += p,
            _ => out.push((class, total, p)),
        }
    }
    Ok(out.into_iter().map(|(_, total, p)| (total, p)).collect())
}

/// The engine of every enumeration: plays `play` from `start` once per branch, each branch
/// answering the rolls with one prefix of totals (and the default tactics for choices), depth
/// first, smallest totals first; hands each finished branch (its probability, end state, what
/// `play` returned and the sink it wrote to) to `leaf`. Counts each branch against `budget`
/// and fails once it is spent; returns the number of branches explored.
///
/// Where the rules may go round a cycle without end inside the play ([`Table::recurrence`]),
/// a branch that comes back to a node it passed (same place, equal state, the same work
/// after it) is not followed: its probability is the cycle's weight at that node
/// ([`Recurrent`]), and each branch under the node that left the cycle is weighed by
/// 1 / (1 − the node's weight of coming back), the exact sum of the geometric series of going
/// round it any number of times.
pub(crate) fn explore<R: Ruleset, T: Clone + PartialEq, K: EventSink + Clone + PartialEq>(
    start: &R::State,
    budget: &mut usize,
    sink: &mut K,
    play: impl Fn(&mut R::State, &mut dyn Driver<R>, &mut K) -> Result<T, Interrupt>,
    mut leaf: impl FnMut(&BigRational, &R::State, T, &K),
) -> Result<usize, OddsError> {
    let limit = *budget;
    let mut pmf_cache = PmfCache::new();
    let mut ranked_cache = RankedCache::new();
    let mut pending: Vec<(Vec<u32>, BigRational)> = vec![(Vec::new(), BigRational::one())];
    let mut explored = 0usize;
    // The cycle's nodes whose subtrees are being explored, outermost first: depth first, a
    // node's subtree is explored in one stretch, so it is over when a branch outside it comes.
    let mut open: Vec<Recurrent<R::State, T, K>> = Vec::new();
    // The nodes solved: identity → what one branch reaching it gives, per unit of probability.
    let mut solved: HashMap<NodeId<R::State>, usize> = HashMap::new();
    let mut results: Vec<Vec<Held<R::State, T, K>>> = Vec::new();
    while let Some((prefix, probability)) = pending.pop() {
        while open.last().is_some_and(|node| !node.holds(&prefix)) {
            close(&mut open, &mut solved, &mut results, &mut leaf)?;
        }
        explored += 1;
        if *budget == 0 {
            return Err(OddsError::TooManyBranches(limit));
        }
        *budget -= 1;
        let mut state = start.clone();
        let mut driver = PrefixDriver {
            prefix: &prefix,
            next: 0,
            solved: &solved,
            opened: None,
            hit: None,
            ranked_orders: &ranked_cache,
            ranked: None,
        };
        let played = play(&mut state, &mut driver, sink);
        let (opened, hit) = (driver.opened.take(), driver.hit.take());
        let ranked = driver.ranked.take();
        if let Some((id, positions)) = opened {
            open.push(Recurrent {
                prefix: prefix.clone(),
                probability: probability.clone(),
                back: BigRational::zero(),
                held: Vec::new(),
                id,
                positions,
            });
        }
        match played {
            Err(Interrupt::Error(Fault::Recurrence { .. })) if hit.is_some() => {
                // A node solved before: what it gives, for this branch's probability, its
                // returns mapped to this branch's nodes of the cycle.
                let Some((at, positions)) = hit else {
                    unreachable!()
                };
                for item in &results[at] {
                    let item = match item {
                        Held::Leaf(q, state, result, sink) => Held::Leaf(
                            &probability * q,
                            state.clone(),
                            result.clone(),
                            sink.clone(),
                        ),
                        Held::Back(depth, q) => {
                            Held::Back(positions[*depth as usize], &probability * q)
                        }
                    };
                    deliver(&mut open, item, &mut leaf)?;
                }
            }
            Ok(result) => deliver(
                &mut open,
                Held::Leaf(probability, state, result, sink.clone()),
                &mut leaf,
            )?,
            Err(Interrupt::Error(Fault::Recurrence { at })) => {
                deliver(&mut open, Held::Back(at, probability), &mut leaf)?
            }
            Err(Interrupt::Pause(Pause::Roll(_))) if ranked.is_some() => {
                // A ranked roll: one branch per order of its totals, answered with its index.
                let Some(kind) = ranked else { unreachable!() };
                let orders = match ranked_cache.entry(kind) {
                    Entry::Occupied(known) => known.into_mut(),
                    Entry::Vacant(new) => {
                        let pmf = ranked_pmf(new.key()).ok_or(OddsError::TooManyPending)?;
                        new.insert(pmf)
                    }
                };
                if pending.len().saturating_add(orders.len()) > MAX_PENDING {
                    return Err(OddsError::TooManyPending);
                }
                for (at, (_, p)) in orders.iter().enumerate().rev() {
                    let mut next = prefix.clone();
                    next.push(at as u32);
                    pending.push((next, &probability * p));
                }
            }
            Err(Interrupt::Pause(Pause::Roll(request))) => {
                // Checked before the pool's counts are computed (they cost count² · sides).
                let totals = usize::from(request.kept_count()) * usize::from(request.sides).max(1);
                if pending.len().saturating_add(totals) > MAX_PENDING {
                    return Err(OddsError::TooManyPending);
                }
                let kind = (request.count, request.sides, request.keep, request.classes);
                let pmf = match pmf_cache.entry(kind) {
                    Entry::Occupied(known) => known.into_mut(),
                    Entry::Vacant(new) => new.insert(branch_pmf(&request)?),
                };
                // Pushed in reverse so that the smallest total is explored first.
                for (total, p) in pmf.iter().rev() {
                    let mut next = prefix.clone();
                    next.push(*total);
                    pending.push((next, &probability * p));
                }
            }
            Err(other) => return Err(OddsError::Stopped(other)),
        }
    }
    while !open.is_empty() {
        close(&mut open, &mut solved, &mut results, &mut leaf)?;
    }
    Ok(explored)
}

/// A node of a cycle in [`explore`]'s tree ([`Table::recurrence`]): the rolls that reach it,
/// its probability, the probability of the branches under it that came back to it, what its
/// subtree gave (held until the subtree is over), its identity and the positions of the
/// cycle's nodes down to it.
struct Recurrent<S, T, K> {
    prefix: Vec<u32>,
    probability: BigRational,
    back: BigRational,
    held: Vec<Held<S, T, K>>,
    id: NodeId<S>,
    positions: Vec<u32>,
}

/// What a node's subtree gave: a finished branch, or a branch that came back to an outer node
/// of its cycle (named by its position, or in a solved node's results by its depth in the
/// cycle), each with its probability.
enum Held<S, T, K> {
    Leaf(BigRational, S, T, K),
    Back(u32, BigRational),
}

impl<S, T, K> Recurrent<S, T, K> {
    /// Whether the branch `prefix` lies in this node's subtree.
    fn holds(&self, prefix: &[u32]) -> bool {
        prefix.len() > self.prefix.len() && prefix.starts_with(&self.prefix)
    }
}

/// Hands what a branch gave to the innermost open node (or, a finished branch with none open,
/// delivers it). A return goes to the node it names when that is the innermost; through the
/// inner ones otherwise (weighed by their cycles too when they close).
fn deliver<S, T, K>(
    open: &mut [Recurrent<S, T, K>],
    item: Held<S, T, K>,
    leaf: &mut impl FnMut(&BigRational, &S, T, &K),
) -> Result<(), OddsError> {
    match (item, open.last_mut()) {
        (Held::Back(at, p), Some(node)) if node.prefix.len() as u32 == at => node.back += p,
        (Held::Back(at, p), Some(node)) if node.prefix.len() as u32 > at => {
            node.held.push(Held::Back(at, p))
        }
        (Held::Back(at, _), _) => {
            return Err(OddsError::Stopped(Interrupt::Error(Fault::Recurrence {
                at,
            })))
        }
        (leaf_item @ Held::Leaf(..), Some(node)) => node.held.push(leaf_item),
        (Held::Leaf(p, state, result, sink), None) => leaf(&p, &state, result, &sink),
    }
    Ok(())
}

/// Closes the innermost open node: with w the probability of coming back to it from it
/// (its branches that came back, over its own probability), going round the cycle any number
/// of times before leaving by a branch b has probability p(b) (1 + w + w² + …) = p(b) / (1 − w),
/// so every branch it held is weighed by 1 / (1 − w) and handed on ([`deliver`]); what it gives
/// per unit of probability is kept for the other branches that reach an equal node. w = 1 is
/// a cycle that never ends: refused.
fn close<S: Clone + Eq + std::hash::Hash, T: Clone + PartialEq, K: Clone + PartialEq>(
    open: &mut Vec<Recurrent<S, T, K>>,
    solved: &mut HashMap<NodeId<S>, usize>,
    results: &mut Vec<Vec<Held<S, T, K>>>,
    leaf: &mut impl FnMut(&BigRational, &S, T, &K),
) -> Result<(), OddsError> {
    let Some(mut node) = open.pop() else {
        return Ok(());
    };
    node.held = merged(std::mem::take(&mut node.held));
    let stay = BigRational::one() - &node.back / &node.probability;
    if !stay.is_positive() {
        return Err(OddsError::EndlessCycle);
    }
    // Each held branch, weighed by the cycle, per unit of the node's probability.
    let per_unit = stay.recip() / &node.probability;
    let mut result = Vec::with_capacity(node.held.len());
    for item in &node.held {
        result.push(match item {
            Held::Leaf(p, state, r, sink) => {
                Held::Leaf(p * &per_unit, state.clone(), r.clone(), sink.clone())
            }
            Held::Back(at, p) => {
                let depth =
                    node.positions
                        .iter()
                        .position(|q| q == at)
                        .ok_or(OddsError::Stopped(Interrupt::Error(Fault::Recurrence {
                            at: *at,
                        })))?;
                Held::Back(depth as u32, p * &per_unit)
            }
        });
    }
    for item in node.held {
        let item = match item {
            Held::Leaf(p, state, r, sink) => Held::Leaf(p / &stay, state, r, sink),
            Held::Back(at, p) => Held::Back(at, p / &stay),
        };
        deliver(open, item, leaf)?;
    }
    solved.insert(node.id, results.len());
    results.push(result);
    Ok(())
}

/// What a node's subtree gave, with the branches that ended alike summed: equal end states
/// with equal results and events, and returns to the same node. A node's subtree holds the
/// solved nodes under it once per branch that reaches them (OSR: some 70 fumble and DEX rolls
/// lead to each free attack), each with all its results; summed, the node hands on one item per
/// distinct outcome, and so does every branch that reuses it. Exact: sums of probabilities.
/// In the order each outcome first came.
fn merged<S: Eq + std::hash::Hash, T: PartialEq, K: PartialEq>(
    held: Vec<Held<S, T, K>>,
) -> Vec<Held<S, T, K>> {
    use std::hash::{BuildHasher, BuildHasherDefault};
    let hasher = BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default();
    let mut out: Vec<Held<S, T, K>> = Vec::with_capacity(held.len());
    // The hash of an end state (or a return's node) → the positions in `out` that have it.
    let mut seen: HashMap<(bool, u64), Vec<usize>> = HashMap::new();
    for item in held {
        let key = match &item {
            Held::Leaf(_, state, _, _) => (true, hasher.hash_one(state)),
            Held::Back(at, _) => (false, u64::from(*at)),
        };
        let places = seen.entry(key).or_default();
        let same = places.iter().copied().find(|&i| match (&out[i], &item) {
            (Held::Leaf(_, s1, t1, k1), Held::Leaf(_, s2, t2, k2)) => {
                s1 == s2 && t1 == t2 && k1 == k2
            }
            (Held::Back(a1, _), Held::Back(a2, _)) => a1 == a2,
            _ => false,
        });
        match (same, item) {
            (Some(i), Held::Leaf(p, ..) | Held::Back(_, p)) => match &mut out[i] {
                Held::Leaf(q, ..) | Held::Back(_, q) => *q += p,
            },
            (None, item) => {
                places.push(out.len());
                out.push(item);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::RollPurpose;

    /// A d20 read by class (a natural 1, 2–10, 11–19, a natural 20) branches four times, each
    /// class answered with its lowest face and weighed by the sum of its faces' weights; the
    /// faces of each class, summed from the plain d20's branches, give the same fractions.
    #[test]
    fn a_class_roll_weighs_what_its_faces_weigh() {
        let d20 = RollRequest::new(1, 20, None, RollPurpose::Attack, "T");
        let faces = branch_pmf(&d20).unwrap();
        assert_eq!(faces.len(), 20);
        let classes = FaceClasses::at(&[2, 11, 20]);
        let classed = branch_pmf(&d20.in_classes(classes)).unwrap();
        let totals: Vec<u32> = classed.iter().map(|(t, _)| *t).collect();
        assert_eq!(totals, [1, 2, 11, 20]);
        for (i, (_, p)) in classed.iter().enumerate() {
            let summed: BigRational = faces
                .iter()
                .filter(|(t, _)| classes.of(*t) == i)
                .map(|(_, q)| q.clone())
                .sum();
            assert_eq!(*p, summed);
        }
        let r = |n: i64| BigRational::new(n.into(), 20.into());
        let weights: Vec<BigRational> = classed.into_iter().map(|(_, p)| p).collect();
        assert_eq!(weights, [r(1), r(9), r(9), r(1)]);
        // A class no face reaches (a cut past 20, two equal cuts) gives no branch.
        let empty = FaceClasses::at(&[2, 2, 21]);
        let two = branch_pmf(&d20.in_classes(empty)).unwrap();
        assert_eq!(two.iter().map(|(t, _)| *t).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(two[1].1, r(19));
    }

    #[test]
    fn pool_ways_are_the_binomial_like_counts() {
        let w: Vec<u32> = pool_ways(2, 6)
            .iter()
            .map(|b| b.to_u32_digits().first().copied().unwrap_or(0))
            .collect();
        assert_eq!(w, vec![1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
        assert_eq!(pool_ways(1, 20).len(), 20);
    }
}
