//! When the default tactics heal an ally by spell (issue 16; the policy is written out in
//! docs/celesia.md, "Default tactics"), judged from the spell's effect data (`heal`), never its
//! name:
//!
//! - **a dying ally first** (CEL-R17.4, R17.8: dying, it loses hit points each round until it
//!   dies, and any healing makes it stable): before any blow or other casting, a caster that
//!   knows a healing spell with a slot left casts it on an ally in the dying band that the spell
//!   reaches now (touch: next to it), the one nearest death first (fewest hit points above
//!   the dead band, then roster order), plainly or defensively as [`ways`] weighs them;
//! - **a badly hurt ally**, itself included (up or disabled, at or below a quarter of its hit
//!   points), weighed by [`crate::caster_tactics::cast`] beside the damaging spells in the same
//!   hit points: a hit point healed is worth a hit point of damage dealt; the spell's worth is
//!   its mean healing (mean dice + the caster level's bonus) up to the hit points the ally
//!   lacks, times the chance of passing its spell resistance; cast when that beats the blows
//!   its acts would be and every offensive spell's gain.
//!
//! Never a foe, never an ally above a quarter of its hit points (nor a dead one). Looked at only
//! where some combatant knows a healing spell (`State::healing`, worked out once on load), so
//! other fights cost nothing more.

use crate::caster_tactics::{acts, ways, weigh};
use crate::choice::Choice;
use crate::maneuver_tactics::chance;
use crate::rules::legal::check_action;
use crate::rules::spell as casting;
use crate::spell::Spell;
use crate::spell_value::{provocation, through};
use crate::state::{Band, CacheFlag, State, CON};
use fray_core::CombatantId;

/// Works out [`State::healing`]: some combatant knows a spell that heals. Called once, when the
/// encounter is loaded.
pub fn prepare(state: &mut State) {
    let known = state
        .profiles
        .iter()
        .any(|p| p.magic.spells.iter().any(|s| s.heal.is_some()));
    state.healing = CacheFlag(known);
}

/// The mean hit points `spell` cast by `who` heals (`None`: it does not heal). [CEL-R6, R11]
fn mean_heal(state: &State, who: CombatantId, spell: &Spell) -> Option<f64> {
    let healing = spell.heal?;
    let dice = healing.dice;
    let mean = f64::from(dice.count) * (f64::from(dice.sides) + 1.0) / 2.0
        + f64::from(dice.bonus + healing.bonus(state.p(who).magic.caster_level));
    Some(mean.max(0.0))
}

/// The healing spell `who` casts now on a dying ally it reaches, if any: the ally nearest death
/// first, plainly or defensively, whichever is worth more. [CEL-R17.4, R17.8; R9, R11, R12]
pub fn dying_ally(state: &State, who: CombatantId) -> Option<Choice> {
    if !state.healing.0 || state.p(who).magic.spells.is_empty() {
        return None;
    }
    let mut dying: Vec<(i32, CombatantId)> = state
        .ids()
        .filter(|&a| !state.enemies(who, a) && !state.f(a).absent() && state.band(a) == Band::Dying)
        .map(|a| (state.f(a).hp + 2 * state.score(a, CON), a))
        .collect();
    if dying.is_empty() {
        return None;
    }
    dying.sort_unstable();
    let provoked = provocation(state, who);
    let magic = &state.p(who).magic;
    for (_, ally) in dying {
        for (i, spell) in state
            .spellbook
            .iter()
            .enumerate()
            .take(usize::from(u8::MAX))
        {
            let Some(healed) = mean_heal(state, who, spell) else {
                continue;
            };
            if acts(spell.casting).is_none()
                || !(casting::known(state, who, i) && casting::has_slot(state, who, spell.level))
            {
                continue;
            }
            let held = chance(magic.concentration, 15 + 2 * spell.level, 0, false);
            let [plain, guarded] = ways(spell, provoked, held, healed);
            let defensively = guarded.0 > plain.0;
            let choice = Choice::Cast(i as u8, Some(ally), defensively);
            if check_action(false, state, who, &choice).is_ok() {
                return Some(choice);
            }
        }
    }
    None
}

/// The healing spell worth casting now on a badly hurt ally (at or below a quarter of its hit
/// points), with its gain over the blows its acts would be (`blow` per act) net of provoking
/// (`provoked`). [CEL-R6, R9, R11, R12]
pub fn healing_cast(
    state: &State,
    who: CombatantId,
    blow: f64,
    provoked: f64,
) -> Option<(f64, Choice)> {
    if !state.healing.0 {
        return None;
    }
    let hurt: Vec<CombatantId> = state
        .ids()
        .filter(|&a| {
            let f = state.f(a);
            !state.enemies(who, a)
                && !f.absent()
                && state.band(a) != Band::Dead
                && 4 * f.hp <= state.p(a).max_hp
        })
        .collect();
    if hurt.is_empty() {
        return None;
    }
    weigh(state, who, (blow, provoked), &hurt, |spell, a| {
        let lacking = f64::from((state.p(a).max_hp - state.f(a).hp).max(0));
        Some(mean_heal(state, who, spell)?.min(lacking) * through(state, who, spell, a))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    /// Sera, a cleric 3 who knows cure light wounds (1d8 + 3: mean 7.5) and scorching ray, at
    /// 0 0, with three slots of levels 1 and 2.
    const SERA: &str = "class = \"cleric\"\nlevel = 3\nhp = 20\nweapon = \"longsword\"\nspells = \
                        [\"scorching ray\", \"cure light wounds\"]\ncaster_level = 3\n\
                        spell_dc = 14\nconcentration = 6\nslots = [3, 3]";
    const SERA_ID: CombatantId = CombatantId(0);
    const ANN: CombatantId = CombatantId(1);

    fn state(ann_at: [i32; 2], orc_at: [i32; 2]) -> State {
        let mut s = Fixture::new()
            .with("sera", "heroes", [0, 0], SERA)
            .with("ann", "heroes", ann_at, FIGHTER)
            .monster("orc", "orcs", orc_at, "orc")
            .state();
        for id in s.ids().collect::<Vec<_>>() {
            s.fm(id).acts_left = 3;
            s.fm(id).flat_footed = false;
        }
        s.order = s.ids().collect();
        s
    }

    fn cure(s: &State) -> u8 {
        s.spellbook
            .iter()
            .position(|sp| sp.key() == "cure-light-wounds")
            .unwrap() as u8
    }

    /// Ann dying next to Sera (−12 hp, CON 10: the dying band is −10 to −19) is healed first,
    /// before the blow on the orc next to Sera; unhurt, she is not healed. A dying ally out
    /// of touch range is not (nothing can be cast on it), nor a dying foe. [CEL-R17.4, R17.8]
    #[test]
    fn a_cleric_heals_the_dying_ally_first() {
        let mut s = state([0, 1], [1, 0]);
        assert!(s.healing.0, "Sera knows a healing spell");
        s.fm(ANN).hp = -12;
        assert_eq!(s.band(ANN), Band::Dying);
        let c = crate::tactics::action(&s, SERA_ID);
        assert!(
            matches!(c, Choice::Cast(i, Some(ANN), _) if i == cure(&s)),
            "{c:?}"
        );
        s.fm(ANN).hp = 30;
        let c = crate::tactics::action(&s, SERA_ID);
        assert!(!matches!(c, Choice::Cast(..)), "Ann is unhurt: {c:?}");
        s.fm(ANN).hp = -12;
        s.set_square(ANN, fray_core::Pos::new(0, 3));
        assert_eq!(dying_ally(&s, SERA_ID), None, "out of touch range");
        s.set_square(ANN, fray_core::Pos::new(0, 1));
        s.fm(ANN).hp = 30;
        s.fm(CombatantId(2)).hp = -s.score(CombatantId(2), CON);
        assert_eq!(s.band(CombatantId(2)), Band::Dying);
        assert_eq!(dying_ally(&s, SERA_ID), None, "a dying foe");
        s.healing = CacheFlag(false);
        s.fm(ANN).hp = -12;
        assert_eq!(dying_ally(&s, SERA_ID), None, "the cheap flag is off");
    }

    /// With no foe in reach (the orc 60 ft off), Ann at a quarter of her hit points or below
    /// (7 of 30) is healed, at 8 she is not (the scorching ray at the orc instead); the foe at 1
    /// hit point is never healed; Sera herself at 5 of 20 is. [CEL-R6, R11]
    #[test]
    fn a_badly_hurt_ally_is_healed_never_a_foe_or_an_unhurt_ally() {
        let mut s = state([0, 1], [12, 0]);
        let orc = CombatantId(2);
        s.fm(ANN).hp = 7;
        let heal = Choice::Cast(cure(&s), Some(ANN), false);
        assert_eq!(
            healing_cast(&s, SERA_ID, 0.0, 0.0).map(|(_, c)| c),
            Some(heal)
        );
        // The worth: the mean 7.5 (1d8: 4.5, + 3), all of it lacking (23).
        let (gain, _) = healing_cast(&s, SERA_ID, 0.0, 0.0).unwrap();
        assert!((gain - 7.5).abs() < 1e-9, "{gain}");
        s.fm(ANN).hp = 8;
        assert_eq!(healing_cast(&s, SERA_ID, 0.0, 0.0), None, "above a quarter");
        s.fm(orc).hp = 1;
        assert_eq!(healing_cast(&s, SERA_ID, 0.0, 0.0), None, "never a foe");
        s.fm(SERA_ID).hp = 5;
        assert_eq!(
            healing_cast(&s, SERA_ID, 0.0, 0.0).map(|(_, c)| c),
            Some(Choice::Cast(cure(&s), Some(SERA_ID), false)),
            "herself"
        );
        // A blow worth 4 an act makes the 2-act casting (7.5 < 8) not worth it.
        assert_eq!(healing_cast(&s, SERA_ID, 4.0, 0.0), None);
    }
}
