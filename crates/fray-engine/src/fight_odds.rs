//! Exact odds of the first round and of a whole fight (`fray odds --round`, `--fight`; see
//! `fray_core::fight_odds`), summarised for people: each combatant's hit points and standing
//! after the first round, and each side's chance to win.

use crate::odds::{failure, OddsFailure};
use fray_core::fight_odds::{fight_odds_at, first_round, Point, MAX_FIGHT_BRANCHES};
use fray_core::{Limits, Ruleset, Standing, Tally};
use num_rational::BigRational;
use num_traits::Zero;
use std::collections::BTreeMap;

/// One combatant after the first round.
#[derive(Debug, Clone)]
pub struct CombatantAfter {
    /// Its key.
    pub key: String,
    /// Its side's key.
    pub side: String,
    /// Hit points at the start.
    pub hp_before: i32,
    /// Hit points after the round, each with its probability.
    pub hp: Vec<(i32, BigRational)>,
    /// Standing after the round (`up`, `down`, …), each with its probability.
    pub standing: Vec<(&'static str, BigRational)>,
}

/// The exact distribution of the fight after its first round.
#[derive(Debug, Clone)]
pub struct RoundReport {
    /// Each combatant, in roster order.
    pub combatants: Vec<CombatantAfter>,
    /// Joint outcomes: every combatant's (hit points, standing) in roster order, most likely
    /// first (ties in a fixed order).
    pub outcomes: Vec<(Vec<(i32, &'static str)>, BigRational)>,
    /// P(the fight is over after the round).
    pub over: BigRational,
    /// Distinct states the round can end in.
    pub states: usize,
    /// Branches played.
    pub branches: usize,
}

/// The exact chances of a whole fight.
#[derive(Debug, Clone)]
pub struct FightReport {
    /// Each side's key with P(it wins), in side order.
    pub wins: Vec<(String, BigRational)>,
    /// P(nobody left standing).
    pub none_standing: BigRational,
    /// P(a stalemate at the round limit, or a limit inside a round).
    pub stalemate: BigRational,
    /// The round limit.
    pub max_rounds: u32,
    /// P(the fight ends in round r), for each r that has a chance (0: before the first round).
    pub ends_in_round: Vec<(u32, BigRational)>,
    /// Distinct states explored at every settled point (a round's end, and inside a round
    /// where the ruleset offers points), over all rounds.
    pub states: usize,
    /// The most distinct states held at one settled point.
    pub peak_states: usize,
    /// Branches played.
    pub branches: usize,
}

/// The first round's exact outcome from `start`.
pub fn round_report<R: Ruleset>(
    start: &R::State,
    limits: &Limits,
    max_states: usize,
) -> Result<RoundReport, OddsFailure> {
    let roster = R::roster(start);
    let (ends, branches) =
        first_round::<R>(start, limits, max_states).map_err(|e| failure(e, roster))?;
    let mut before = Vec::new();
    R::tallies(start, &mut before);
    let mut hp: Vec<BTreeMap<i32, BigRational>> = vec![BTreeMap::new(); before.len()];
    let mut standing: Vec<BTreeMap<usize, BigRational>> = vec![BTreeMap::new(); before.len()];
    let mut joint: BTreeMap<Vec<(i32, usize)>, BigRational> = BTreeMap::new();
    let mut over = BigRational::zero();
    let mut tallies = Vec::new();
    let rank = |s: Standing| Standing::ALL.iter().position(|&x| x == s).unwrap_or(0);
    for (state, p) in ends.iter() {
        tallies.clear();
        R::tallies(state, &mut tallies);
        let key: Vec<(i32, usize)> = tallies.iter().map(|t| (t.hp, rank(t.standing))).collect();
        for (i, (h, s)) in key.iter().enumerate() {
            *hp[i].entry(*h).or_insert_with(BigRational::zero) += p;
            *standing[i].entry(*s).or_insert_with(BigRational::zero) += p;
        }
        *joint.entry(key).or_insert_with(BigRational::zero) += p;
        if R::outcome(state) != fray_core::Outcome::Ongoing {
            over += p;
        }
    }
    let combatants = before
        .iter()
        .enumerate()
        .map(|(i, t): (usize, &Tally)| CombatantAfter {
            key: roster.combatants[i].key.clone(),
            side: roster.side_key(t.side).to_string(),
            hp_before: t.hp,
            hp: hp[i].iter().map(|(h, p)| (*h, p.clone())).collect(),
            standing: standing[i]
                .iter()
                .map(|(s, p)| (Standing::ALL[*s].key(), p.clone()))
                .collect(),
        })
        .collect();
    let mut outcomes: Vec<(Vec<(i32, &'static str)>, BigRational)> = joint
        .into_iter()
        .map(|(k, p)| {
            let k = k
                .into_iter()
                .map(|(h, s)| (h, Standing::ALL[s].key()))
                .collect();
            (k, p)
        })
        .collect();
    // Most likely first; the sort is stable, so equal chances keep the key order.
    outcomes.sort_by(|a, b| b.1.cmp(&a.1));
    Ok(RoundReport {
        combatants,
        outcomes,
        over,
        states: ends.len(),
        branches,
    })
}

/// The whole fight's exact chances from `start`, within the default budget.
pub fn fight_report<R: Ruleset>(
    start: &R::State,
    limits: &Limits,
    max_states: usize,
) -> Result<FightReport, OddsFailure> {
    fight_report_at::<R>(
        start,
        Point::Begin,
        0,
        limits,
        max_states,
        MAX_FIGHT_BRANCHES,
    )
}

/// The fight's exact chances from the settled point `from` (a round's start, or a point inside
/// a round where the ruleset's `round_step` paused), with `answers` given before it, as
/// [`fight_report`], within a budget of `work` units of work (at most [`MAX_FIGHT_BRANCHES`],
/// the budget [`fight_report`] passes; `--max-work`).
pub fn fight_report_at<R: Ruleset>(
    start: &R::State,
    from: Point,
    answers: u32,
    limits: &Limits,
    max_states: usize,
    work: usize,
) -> Result<FightReport, OddsFailure> {
    let roster = R::roster(start);
    let odds = fight_odds_at::<R>(start, from, answers, limits, max_states, work)
        .map_err(|e| failure(e, roster))?;
    Ok(FightReport {
        wins: roster
            .sides
            .iter()
            .map(|s| s.key.clone())
            .zip(odds.wins)
            .collect(),
        none_standing: odds.none_standing,
        stalemate: odds.stalemate,
        max_rounds: limits.max_rounds,
        ends_in_round: odds
            .ends_in_round
            .into_iter()
            .enumerate()
            .filter(|(_, p)| !p.is_zero())
            .map(|(r, p)| (r as u32, p))
            .collect(),
        states: odds.states,
        peak_states: odds.peak_states,
        branches: odds.branches,
    })
}
