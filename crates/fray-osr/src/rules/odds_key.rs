//! The canonical key of an OSR state for exact odds (`Ruleset::odds_key`): the state at a
//! settled point ([`super::round::round_step`]) with what no rule reads again forgotten, so
//! that the fight programme merges states that differ only there.

use crate::state::{Paused, State};
use std::borrow::Cow;

/// `state` as exact odds keep it: at every point the damage tallies and a dead combatant's hit
/// points ([`forget_tallies`]); inside a round (`State::paused` set: the countdown or the held
/// sets still to come) the initiative numbers' values, of which only the order is read
/// ([`rank_numbers`]); between rounds (`State::paused` is `Paused::No`: a round's end, or the
/// fight before its first round, where the first round's start resets the same records before
/// reading them) what the next round resets ([`forget_round`]).
pub fn odds_key(state: &State) -> Cow<'_, State> {
    let mut key = state.clone();
    forget_tallies(&mut key);
    if key.paused == Paused::No {
        forget_round(&mut key);
    } else {
        rank_numbers(&mut key);
    }
    Cow::Owned(key)
}

/// At a round's end ([`odds_key`]): forgets what the next round resets
/// before any rule reads it, so that end states that differ only there merge: the plans,
/// dodges, charges and disrupted casting ([`super::round::clear_round`]), the number being resolved, who
/// stood when it began, and the moves made on it (each set again as a number begins, before
/// it is read).
fn forget_round(state: &mut State) {
    super::round::clear_round(state);
    state.number = 0;
    state.up_at_number.clear();
    for f in &mut state.fighters {
        f.moved_on_number = false;
        f.moved_feet = 0;
    }
}

/// At every settled point ([`odds_key`]): forgets what no rule reads, so
/// that states that differ only there merge: the damage dealt and taken (a report's tallies)
/// and a dead combatant's hit points (death is final, OSR-A28; nothing reads them but a
/// report).
fn forget_tallies(state: &mut State) {
    for f in &mut state.fighters {
        f.dealt = 0;
        f.taken = 0;
        if f.dead {
            f.hp = 0;
        }
    }
}

/// At a settled point inside a round ([`odds_key`]): the initiative
/// numbers (every fighter's initiative and moved action, the number being resolved, the
/// numbers not yet begun) replaced by their ranks among themselves, 1 the lowest, so that
/// states whose numbers stand in the same order merge. Only their order is read (the
/// countdown, OSR-R5; a set against a charge, OSR-R15.2; an interception, OSR-R12.1; a delayed
/// spell, OSR-R28.5), never their values. Not with initiative rolled once for the fight (OSR-A2
/// toggle): its numbers are kept across rounds to meet new rolls, and 0 marks "not rolled".
fn rank_numbers(state: &mut State) {
    if state.options.initiative_once {
        return;
    }
    let mut values: Vec<i32> = Vec::with_capacity(2 * state.fighters.len() + 1);
    for f in &state.fighters {
        values.push(f.plan.initiative);
        values.extend(f.plan.moved_to);
    }
    values.push(state.number);
    if let Paused::Countdown { numbers, .. } = &state.paused {
        values.extend(numbers.iter().copied());
    }
    values.sort_unstable();
    values.dedup();
    let rank = |v: i32| values.binary_search(&v).map_or(v, |r| r as i32 + 1);
    for f in &mut state.fighters {
        f.plan.initiative = rank(f.plan.initiative);
        f.plan.moved_to = f.plan.moved_to.map(rank);
    }
    state.number = rank(state.number);
    if let Paused::Countdown { numbers, .. } = &mut state.paused {
        for n in numbers {
            *n = rank(*n);
        }
    }
}
