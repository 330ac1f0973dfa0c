//! The canonical key of a Spelljammer state for exact odds (`Ruleset::odds_key`): the state
//! with what no rule reads again forgotten, so that the fight programme merges states that
//! differ only there.

use crate::content::SpellEffect;
use crate::rules::tables::LAST_SEGMENT;
use crate::state::{ActionKind, State};
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
///   0 hp;
/// - at a round's end (no pause), what the next round forgets before reading it
///   (`round::clear_round`: stun, the round's plans and schedule); aim and hold carried over
///   are kept;
/// - inside a round, the segments' values where only their order is read ([`rank_segments`]).
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
    if key.paused.is_none() {
        // At a round's end: what the next round forgets before reading it.
        super::round::clear_round(&mut key);
    }
    rank_segments(&mut key);
    Cow::Owned(key)
}

/// Inside a round where the segments are read only as an order, replaces them by their ranks
/// (the highest by 10, the next by 9, …; equal ones stay equal): the schedule's segments, those
/// of the segment's actions left, the segment being resolved, the pause and each fighter's
/// last attack. The segments are read as numbers only by movement (a move's segments, an
/// attack deferred for a mover's arrival, attack-and-move, SJ-R5, R17.2), forced moves
/// (SJ-R5.3), spells (their off segment, SJ-R4, R15), a shield readied on segment 5 (SJ-R17.5)
/// and the log's segment headings; so this is done only when every scheduled action is an
/// attack, nobody moves or has declared a move (the 5-ft step of one who stands reads no segment) or
/// a shield, nobody casts, knows a
/// spell or is moved by the GM, and there is no ambush. Otherwise (and when the round holds
/// more distinct segments than 10 down to the last, −5) the segments are kept. The loop over
/// the segments reads only which of them hold an action and their order (SJ-R3, SJ-A11).
fn rank_segments(key: &mut State) {
    use crate::choice::Movement;
    let Some(paused) = key.paused else {
        return;
    };
    let melee_only = key
        .schedule
        .iter()
        .chain(key.acts_left.iter().map(|(s, _)| s))
        .all(|s| matches!(s.kind, ActionKind::Attack { .. }))
        && key.fighters.iter().all(|f| {
            let d = &f.plan.declaration;
            f.plan.movement.is_none()
                && matches!(d.movement, Movement::Stand | Movement::NoMovement)
                && !d.ready_shield
                && f.casting.is_none()
        })
        && key.profiles.iter().all(|p| p.spells.is_empty())
        && key.forced_moves.is_empty()
        && key.ambush.is_none();
    if !melee_only {
        return;
    }
    let mut values: Vec<i32> = key
        .schedule
        .iter()
        .chain(key.acts_left.iter().map(|(s, _)| s))
        .map(|s| s.segment)
        .chain(key.fighters.iter().filter_map(|f| f.plan.last_attack))
        .chain([paused, key.segment])
        .collect();
    values.sort_unstable_by(|a, b| b.cmp(a));
    values.dedup();
    if values.len() as i32 > 10 - LAST_SEGMENT + 1 {
        return;
    }
    let rank = |v: i32| 10 - values.iter().position(|&x| x == v).unwrap_or(0) as i32;
    for s in key.schedule.iter_mut() {
        s.segment = rank(s.segment);
    }
    for (s, _) in key.acts_left.iter_mut() {
        s.segment = rank(s.segment);
    }
    for f in key.fighters.iter_mut() {
        f.plan.last_attack = f.plan.last_attack.map(rank);
    }
    key.paused = Some(rank(paused));
    key.segment = rank(key.segment);
}
