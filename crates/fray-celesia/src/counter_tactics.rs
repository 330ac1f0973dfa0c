//! When the default tactics counterspell (issue 16, CEL-R15; the policy is written out in
//! docs/celesia.md, "Default tactics"). Asked whether to counter a foe's spell as its casting
//! begins (`rules::counterspell`), the reactor counters when the spell is worth more to the
//! caster's side than what the reaction and the counter cost:
//!
//! - the spell's worth `V`: the most it would be worth, in hit points, aimed at any creature of
//!   the reactor's side still in the fight (the caster picked its aim; the tactics do not
//!   guess which), valued from its effect data as the caster's own tactics value it: damage
//!   ([`crate::caster_tactics`]: expected damage through the touch attack, spell resistance
//!   and the save, at most the target's hit points, summed over an area) or a condition or
//!   penalty ([`crate::hinder_tactics`]); a spell that helps the caster's side (healing,
//!   haste) is not valued: 0;
//! - the threshold `K`: the reaction's other use, the reactor's best attack of opportunity
//!   this round (its expected damage in one blow on a foe up in its reach, [`threat`]), plus
//!   what the counter costs it as a Provoke reaction (`spell_value::provocation`: the attacks
//!   of opportunity the foes threatening it could take);
//! - it counters when `V > K`, else declines. The slot it spends is not weighed.
//!
//! Everything is a function of the state: the same state gives the same answer, whatever the
//! roster order (a maximum and a sum over creatures).

use crate::choice::Choice;
use crate::maneuver_tactics::threat;
use crate::spell_value::provocation;
use crate::state::State;
use fray_core::CombatantId;

/// The default answer of `reactor` asked whether it counters `caster`'s spell `spell` (its
/// index in the spellbook): counter when the spell is worth more than the threshold. [CEL-R15]
pub fn answer(state: &State, reactor: CombatantId, caster: CombatantId, spell: u8) -> Choice {
    if spell_worth(state, reactor, caster, spell) > threshold(state, reactor) {
        Choice::Counterspell(caster)
    } else {
        Choice::Decline
    }
}

/// `V`: the most `caster`'s spell would be worth aimed at a creature of `reactor`'s side still
/// in the fight (0 for a spell not valued). [CEL-R6, R6.2]
pub fn spell_worth(state: &State, reactor: CombatantId, caster: CombatantId, spell: u8) -> f64 {
    let Some(sp) = state.spellbook.get(usize::from(spell)) else {
        return 0.0;
    };
    state
        .ids()
        .filter(|&t| !state.enemies(reactor, t) && !state.f(t).absent())
        .filter_map(|t| {
            crate::caster_tactics::worth(state, caster, sp, t)
                .or_else(|| crate::hinder_tactics::worth(state, caster, sp, t))
        })
        .fold(0.0, f64::max)
}

/// `K`: `reactor`'s best attack of opportunity on a foe up in its reach, plus the attacks of
/// opportunity the counter provokes. [CEL-R3.5, R15]
pub fn threshold(state: &State, reactor: CombatantId) -> f64 {
    let mut blow = 0.0_f64;
    state.each_foe_within(reactor, state.reach_squares, |t| {
        if state.up(t) {
            blow = blow.max(threat(state, reactor, t));
        }
    });
    blow + provocation(state, reactor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    const WIZARD: &str = "class = \"wizard\"\nlevel = 5\nhp = 24\nscores = { dex = 14, con = 12, \
                          int = 17 }\nweapon = \"dagger\"\nspells = [\"fireball\", \"haste\"]\n\
                          caster_level = 5\nspell_dc = 16\nconcentration = 8\nreflex = 3\n\
                          will = 4\nslots = [0, 0, 2]";

    fn index(s: &State, key: &str) -> u8 {
        s.spellbook.iter().position(|sp| sp.key() == key).unwrap() as u8
    }

    /// Wyn (heroes) and the foes' mage both know fireball and haste. The mage's fireball
    /// would catch Wyn and Brom side by side (5d6, Reflex half, each share at most their hit
    /// points): worth far more than Wyn's reaction, kept for an attack of opportunity on
    /// nobody (no foe in her reach) and provoking nothing: countered. Haste helps the mage's
    /// side: worth 0 to counter: declined. With the mage's orc next to Wyn the threshold is her
    /// attack of opportunity on it plus its own on her as she counters, and the fireball is
    /// worth nothing: aimed at Wyn or Brom it would catch the orc, which its caster's tactics
    /// never do: declined. [CEL-R15]
    #[test]
    fn a_fireball_is_countered_and_haste_is_not() {
        let mut s = Fixture::new()
            .with("wyn", "heroes", [0, 0], WIZARD)
            .with("brom", "heroes", [1, 0], FIGHTER)
            .with("mage", "foes", [12, 0], WIZARD)
            .monster("orc", "foes", [30, 0], "orc")
            .state();
        for id in s.ids().collect::<Vec<_>>() {
            s.fm(id).flat_footed = false;
            s.fm(id).reactions = 1;
        }
        s.order = s.ids().collect();
        let (wyn, mage) = (CombatantId(0), CombatantId(2));
        let (fireball, haste) = (index(&s, "fireball"), index(&s, "haste"));
        assert_eq!(threshold(&s, wyn), 0.0);
        let v = spell_worth(&s, wyn, mage, fireball);
        assert!(v > 10.0, "{v}");
        assert_eq!(answer(&s, wyn, mage, fireball), Choice::Counterspell(mage));
        assert_eq!(spell_worth(&s, wyn, mage, haste), 0.0);
        assert_eq!(answer(&s, wyn, mage, haste), Choice::Decline);
        let orc = CombatantId(3);
        s.set_square(orc, fray_core::Pos::new(0, 1));
        let k = threshold(&s, wyn);
        let expected = threat(&s, wyn, orc) + threat(&s, orc, wyn);
        assert!(k > 0.0 && (k - expected).abs() < 1e-9, "{k} {expected}");
        assert_eq!(spell_worth(&s, wyn, mage, fireball), 0.0);
        assert_eq!(answer(&s, wyn, mage, fireball), Choice::Decline);
    }
}
