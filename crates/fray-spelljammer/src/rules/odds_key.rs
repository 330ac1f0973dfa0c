//! The canonical key of a Spelljammer state for exact odds (`Ruleset::odds_key`): the state
//! with what no rule reads again forgotten, so that the fight programme merges states that
//! differ only there.

use crate::content::SpellEffect;
use crate::state::State;
use std::borrow::Cow;

/// `state` as exact odds keep it at a settled point (a round's end, or after an action of a
/// segment, [`super::round::round_step`]). What it forgets, and why no rule reads it again
/// (every read of `hp` and of the tallies was checked):
///
/// - the damage dealt and taken (`Fighter::dealt`/`taken`): only the report's tallies read
///   them;
/// - how far below 0 a combatant out of the fight stands (its hit points, and those it was
///   seen with when the segment began, set to 0), unless something can heal it: a fighter
///   at 0 hp or less is out (SJ-R10.1) and never acts; its wound band is the worst at 0 as
///   below (SJ-R12.1: 5 hp or less), damage on it only lowers them (a pulled missile,
///   SJ-G13), and a potion is drunk only by a fighter who acts (SJ-R17.6). Only a healing
///   spell (SJ-R15.1) or a GM adjustment that gives hit points (SJ-G15) reads how far below
///   it stands, so the hit points are kept when any combatant knows a healing spell or an
///   adjustment gives this one hit points. `fray odds --round` then lists such a fighter at
///   0 hp.
pub fn odds_key(state: &State) -> Cow<'_, State> {
    let mut key = state.clone();
    let healers = state.profiles.iter().any(|p| {
        p.spells
            .iter()
            .any(|s| matches!(s.def.effect, SpellEffect::Heal { .. }))
    });
    for (i, f) in key.fighters.iter_mut().enumerate() {
        f.dealt = 0;
        f.taken = 0;
        let healed = healers
            || state
                .overrides
                .iter()
                .any(|o| o.who.index() == i && o.hp > 0);
        if f.down && f.hp < 0 && !healed {
            f.hp = 0;
            if let Some(seen) = key.segment_start.get_mut(i) {
                if !seen.up && seen.hp < 0 {
                    seen.hp = 0;
                }
            }
        }
    }
    Cow::Owned(key)
}
