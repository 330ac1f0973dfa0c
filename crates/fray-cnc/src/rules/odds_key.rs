//! The canonical key of a C&C state for exact odds (`Ruleset::odds_key`): the state at a
//! settled point ([`super::round::round_step`]) with what no rule reads again forgotten, so
//! that the fight programme merges states that differ only there.

use crate::state::State;
use std::borrow::Cow;

/// `state` as exact odds keep it ([`forget_unread`]); a state with no groups left to act
/// (`State::paused` empty) stands at a round's end.
pub fn odds_key(state: &State) -> Cow<'_, State> {
    let mut key = state.clone();
    let over = key.paused.is_none();
    forget_unread(&mut key, over);
    Cow::Owned(key)
}

/// `state` with what no rule reads again forgotten, at a settled point of exact odds (after
/// [`super::round::round_step`]), so that states that differ only there merge. At every point: the damage dealt and taken (tallies for reports);
/// the attackers of a fighter without a shield (read only for a shield's cover, CNC-R16.3);
/// where [`fallen_unread`], a grievously wounded body's hit points (−1 to −6, no subdual
/// damage: set to −1, the band kept) and facing; the group numbers of the order left,
/// renumbered from 0 in order (only which neighbours share a number is read:
/// [`crate::state::Order::groups`]). At a round's end: this round's records, which the next round resets
/// before any rule reads them ([`super::round::reset_round`]).
fn forget_unread(state: &mut State, over: bool) {
    for (f, p) in state.fighters.iter_mut().zip(state.profiles.iter()) {
        f.dealt = 0;
        f.taken = 0;
        if p.shield.is_none() {
            f.attackers = [None; 3];
        }
    }
    if fallen_unread(state) {
        for f in &mut state.fighters {
            if !f.dead && f.gone.is_none() && (-6..=-1).contains(&f.hp) && f.subdual_taken == 0 {
                f.hp = -1;
                f.facing = fray_core::Direction::North;
            }
        }
    }
    if let Some(order) = &mut state.paused {
        let (mut number, mut last) = (0, None);
        for (group, _) in &mut order.0 {
            if last.is_some_and(|l| l != *group) {
                number += 1;
            }
            last = Some(*group);
            *group = number;
        }
    }
    if over {
        super::round::reset_round(state);
    }
}

/// Whether nothing can read a grievously wounded combatant's hit points (−1 to −6) or facing
/// again, so that [`forget_unread`] may set them to −1 and north: nobody in the fight has a
/// missile weapon (a stray missile strikes whoever lies in its path, CNC-R8.4, CNC-A12), a
/// spell, an item or an ability (healing, CNC-R18; an effect on whoever is present). Otherwise
/// such a combatant is out of reach of every rule: an attack needs a target still in the fight
/// (CNC-R20.1, `legal`), the band does not bleed (CNC-R19: only −7 to −9 does) and is not
/// aided (only the mortally wounded are), and a foe's facing is read only when it is attacked
/// (flank and rear, CNC-R17.5, R17.6). Its band, and so its standing, is kept.
fn fallen_unread(state: &State) -> bool {
    state.profiles.iter().all(|p| {
        p.ranged.is_none() && p.spells.is_empty() && p.items.is_empty() && p.abilities.is_empty()
    })
}
