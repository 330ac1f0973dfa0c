//! Exact odds of an attacker's whole action (`fray odds --routine`; see
//! `fray_core::routine_odds`): the distribution of the total damage its blows deal the target
//! and the chance the target is out of the fight afterwards.

use crate::odds::{failure, pair, OddsFailure};
use fray_core::ruleset::RoutineBlow;
use fray_core::{Ruleset, Tally};
use num_rational::BigRational;
use num_traits::Zero;
use std::collections::BTreeMap;

/// The exact distribution of a whole action's outcome.
#[derive(Debug, Clone)]
pub struct RoutineReport {
    /// Attacker's key.
    pub attacker: String,
    /// Target's key.
    pub target: String,
    /// Total damage the target took over the action, with its probability.
    pub damage: Vec<(i32, BigRational)>,
    /// P(the target is at or below 0 hit points, or out of the fight, afterwards).
    pub down: BigRational,
    /// Blows along the longest way.
    pub blows: usize,
    /// Distinct states explored between blows.
    pub states: usize,
    /// Branches played.
    pub branches: usize,
}

fn tally_of<R: Ruleset>(state: &R::State, who: fray_core::CombatantId) -> Tally {
    let mut tallies = Vec::new();
    R::tallies(state, &mut tallies);
    tallies[who.index()]
}

/// Plays `attacker`'s whole action on `target` from `start` blow by blow and summarises it.
pub fn routine_report<R: Ruleset>(
    start: &R::State,
    attacker: &str,
    target: &str,
    blow_of: RoutineBlow<R>,
    max_states: usize,
) -> Result<RoutineReport, OddsFailure> {
    let roster = R::roster(start);
    let (a, t) = pair(roster, attacker, target)?;
    let ends = fray_core::routine_odds::routine::<R>(start, a, t, blow_of, max_states)
        .map_err(|e| failure(e, roster))?;
    let taken_before = tally_of::<R>(start, t).taken;
    let mut damage: BTreeMap<i32, BigRational> = BTreeMap::new();
    let mut down = BigRational::zero();
    for (state, p) in ends.ends.iter() {
        let after = tally_of::<R>(state, t);
        *damage
            .entry(after.taken - taken_before)
            .or_insert_with(BigRational::zero) += p;
        if after.hp <= 0 || !after.is_up() {
            down += p;
        }
    }
    Ok(RoutineReport {
        attacker: roster.key(a).to_string(),
        target: roster.key(t).to_string(),
        damage: damage.into_iter().collect(),
        down,
        blows: ends.blows,
        states: ends.states,
        branches: ends.branches,
    })
}
