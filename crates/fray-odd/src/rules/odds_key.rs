//! The canonical key of an OD&D state for exact odds (`Ruleset::odds_key`): the state with
//! what no rule reads again forgotten, so that the fight programme merges states that differ
//! only there.

use crate::state::{Paused, Slot, State};
use std::borrow::Cow;

/// `state` as exact odds keep it at a settled point (a round's end, or a point inside a round,
/// [`super::round::round_step`]). What it forgets, and why no rule reads it again (every read
/// was checked):
///
/// - the damage dealt and taken (`Fighter::dealt`/`taken`): only the report's tallies read
///   them;
/// - a dead combatant's hit points and temporary damage (both set to 0): death is final
///   (nothing sets `dead` back; ODD-A40, R31.5), a dead combatant is never up
///   (`Fighter::is_up`), its men alive are 0 (`State::men_alive`), recovery skips it
///   (ODD-R27.3), and a heal cast on it (ODD-R29.3) changes only these hit points again; so
///   `fray odds --round` lists a dead combatant at 0 hp;
/// - melee attackers of earlier rounds (ODD-R19.1 counts the current round's only, and a new
///   entry drops the old ones), attacks from behind older than the round before
///   (ODD-R23.1, R23.2 read this round's and the last), a stun that has run out (read as
///   `stunned_until >= round`, ODD-R28.3) and a crossbow shot older than the round before
///   (ODD-R8.3 reads `shot + 1 == round`): later rounds read none of them;
/// - the values of the initiative counts, replaced by their ranks among themselves (every
///   combatant's count, the count being played and the counts not begun, [`rank_counts`]).
pub fn odds_key(state: &State) -> Cow<'_, State> {
    let mut key = state.clone();
    let round = key.round;
    for f in &mut key.fighters {
        f.dealt = 0;
        f.taken = 0;
        if f.dead {
            f.hp = 0;
            f.temp = 0;
        }
        f.melee_attackers.retain(|&(_, r)| r >= round);
        f.from_behind.retain(|&(_, r)| r + 1 >= round);
        if f.stunned_until < round {
            f.stunned_until = 0;
        }
        if f.shot_round.is_some_and(|r| r + 1 < round) {
            f.shot_round = None;
        }
    }
    rank_counts(&mut key);
    Cow::Owned(key)
}

/// The initiative counts (every combatant's, the count `State::slot` is playing, the counts
/// not begun in `State::paused`) replaced by their ranks, 1 the lowest, so that states whose
/// counts stand in the same order merge (two orcs on 5 and 3 against a fighter on 4 are the
/// same fight as on 6, 1 and 2). Only their order and equality are read (the order of the
/// counts, ODD-R4.1; acting together on one, ODD-R4.2; a caster hit before its count,
/// ODD-R29.2), never their values, as long as no new roll meets them: initiative is rolled
/// once for the encounter (ODD-R4.1), again only with the DM's toggle (ODD-R4.3, ODD-A9; then
/// they are kept) or after a grapple is thrown off (ODD-R28.4, `State::reroll_next`; kept while
/// a grapple is under way or pending). The fight programme answers every choice with the
/// default tactics, which never grapple, so no grapple starts after a point where they were
/// ranked.
pub fn rank_counts(state: &mut State) {
    let grappling = !state.grapples.is_empty()
        || state
            .fighters
            .iter()
            .any(|f| !f.pinned_by.is_empty() || f.struggling);
    if state.options.reroll_initiative || state.reroll_next || grappling {
        return;
    }
    let mut values: Vec<i32> = state.fighters.iter().map(|f| f.initiative).collect();
    if let Slot::Count(c) = state.slot {
        values.push(c);
    }
    match &state.paused {
        Paused::Counts(counts) | Paused::Turns { counts, .. } => values.extend(counts),
        Paused::No => {}
    }
    values.sort_unstable();
    values.dedup();
    let rank = |v: i32| values.binary_search(&v).map_or(v, |r| r as i32 + 1);
    for f in &mut state.fighters {
        f.initiative = rank(f.initiative);
    }
    if let Slot::Count(c) = state.slot {
        state.slot = Slot::Count(rank(c));
    }
    match &mut state.paused {
        Paused::Counts(counts) | Paused::Turns { counts, .. } => {
            for c in counts.iter_mut() {
                *c = rank(*c);
            }
        }
        Paused::No => {}
    }
}
