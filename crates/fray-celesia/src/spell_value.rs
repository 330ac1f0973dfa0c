//! What a spell is worth to the default tactics (issue 16; written out in docs/celesia.md,
//! "Default tactics"): the expected damage of a damaging spell on a creature, its touch
//! attack's chance, and what provoking costs the caster. Shared by the magus's choices
//! ([`crate::magus_tactics`]) and any caster's ([`crate::caster_tactics`]).

use crate::maneuver_tactics::{chance, threat};
use crate::rules::{attack, spell as casting, spell_resistance, Total};
use crate::spell::{OnSave, Spell, TouchAttack};
use crate::state::State;
use fray_core::CombatantId;

/// What provoking costs `who` now: one attack of opportunity's expected damage from each foe up
/// that could take one on it (a reaction left, not flat-footed, threatening it). [CEL-R3.5, R15]
pub fn provocation(state: &State, who: CombatantId) -> f64 {
    state
        .ids()
        .filter(|&o| {
            state.enemies(o, who)
                && state.up(o)
                && crate::rules::round::can_take_opportunity(state, o, who)
        })
        .map(|o| threat(state, o, who))
        .sum()
}

/// The chance `spell`'s own touch attack by `who` hits `t` (1 for a spell without one): d20 +
/// the touch attack's bonus against the touch DV, a natural 20 hitting and a natural 1
/// missing. [CEL-R4.4, R6.1]
pub fn touch_chance(state: &State, who: CombatantId, spell: &Spell, t: CombatantId) -> f64 {
    let Some(kind) = spell.attack else {
        return 1.0;
    };
    let mut bonus = Total::default();
    casting::touch_bonus_into(state, who, kind == TouchAttack::Ranged, &mut bonus);
    let mut defense = Total::default();
    attack::defense_into(state, t, &mut defense);
    let touch_dv = 10 + defense.0 - casting::touch_excluded(state, t);
    chance(bonus.0, touch_dv, 0, true)
}

/// The damage `spell` cast by `who` is expected to deal `t` once it reaches it (its touch
/// attack aside): mean dice at `who`'s caster level, through spell resistance and the save;
/// `None` for a spell that deals no damage or does more than damage (haste, a condition, a
/// penalty: not valued). An area spell's value on each creature it catches. [CEL-R6, R9]
pub fn damage_on(state: &State, who: CombatantId, spell: &Spell, t: CombatantId) -> Option<f64> {
    let dice = spell.damage?;
    let plain_damage =
        spell.haste_rounds_per_level == 0 && spell.condition.is_none() && spell.penalty.is_none();
    if !plain_damage {
        return None;
    }
    let cl = state.p(who).magic.caster_level;
    let levels = if spell.max_levels > 0 {
        cl.min(spell.max_levels)
    } else {
        cl
    };
    let times = if spell.per_level { levels } else { 1 };
    let count = (i32::from(dice.count) * times).clamp(1, 200);
    let mean =
        (f64::from(count) * (f64::from(dice.sides) + 1.0) / 2.0 + f64::from(dice.bonus)).max(0.0);
    let through = through(state, who, spell, t);
    let kept = match spell.save {
        Some((_, on_save)) => {
            let saved = save_chance(state, who, spell, t);
            let half = if on_save == OnSave::Half { 0.5 } else { 0.0 };
            1.0 - saved + saved * half
        }
        None => 1.0,
    };
    Some(mean * through * kept)
}

/// The chance `spell` cast by `who` passes `t`'s spell resistance (1 where none applies): the
/// caster level check, d20 + caster level against it. [CEL-R9]
pub fn through(state: &State, who: CombatantId, spell: &Spell, t: CombatantId) -> f64 {
    if spell_resistance::applies(state, who, t, spell) {
        chance(
            state.p(who).magic.caster_level,
            state.p(t).spell_resistance,
            0,
            false,
        )
    } else {
        1.0
    }
}

/// The chance `t` saves against `spell` cast by `who` (0 for a spell without a save): d20 +
/// its save bonus against the caster's DC with the GM's adjustment (CEL-G13). [CEL-R6.2, R16]
pub fn save_chance(state: &State, who: CombatantId, spell: &Spell, t: CombatantId) -> f64 {
    let Some((kind, _)) = spell.save else {
        return 0.0;
    };
    let dc = state.p(who).magic.spell_dc + state.f(t).gm_dc;
    chance(casting::save_bonus(state, t, kind), dc, 0, false)
}
