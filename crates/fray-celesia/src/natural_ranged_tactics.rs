//! When the default tactics fire a natural ranged attack (a spit, a quill: `natural_ranged`)
//! at the foe they would strike in melee (seed, Attack, Natural; CEL-R7, R15), in the
//! tactics' currency, the hit points a blow is expected to deal (`maneuver_tactics`):
//!
//! - the blow: `a·D`, `a` its chance to hit (d20 + attack bonus against DV, a natural 20
//!   hitting and a natural 1 missing, with the attack's own advantage and disadvantage
//!   sources, CEL-R4.5), `D` its mean damage;
//! - the shot at the same foe: `a′·D′ − P`, `a′` with the ranged attack's sources (shooting
//!   into a melee's disadvantage, CEL-R7.2; a prone target's), `D′` its mean damage (1.5 × each
//!   positive STR, DEX and WIS), and `P` the attacks of opportunity it provokes from the foes
//!   threatening the shooter (`spell_value::provocation`) where the GM's
//!   `ranged_attack_provokes` makes a ranged attack provoke (CEL-R15), else 0.
//!
//! The shot is taken when it gains over the blow (`a′·D′ − P > a·D`), weighed beside the
//! maneuvers and the other options of `tactics::instead_of_blow` (the greatest gain; the blow
//! when equal). A creature without a natural ranged attack pays one test.

use crate::choice::Choice;
use crate::content::{Weapon, WeaponKind};
use crate::maneuver_tactics::{bonus_and_dv, chance, mean_damage};
use crate::rules::legal::check_action;
use crate::rules::{attack, Sources};
use crate::state::State;
use fray_core::CombatantId;

/// What a natural ranged attack on the foe of `blow` (an `Attack` with a melee form) gains
/// over that blow, with the shot, if it gains anything. [Seed, Attack, Natural; CEL-R7, R15]
pub fn gain(state: &State, who: CombatantId, blow: Choice) -> Option<(f64, Choice)> {
    let p = state.p(who);
    let spit = p
        .ranged
        .as_ref()
        .filter(|w| w.kind == WeaponKind::NaturalRanged)?;
    let Choice::Attack(t, form) = blow else {
        return None;
    };
    let melee = expected(state, who, t, p.melee.get(usize::from(form))?);
    let provoked = if state.options.ranged_attack_provokes {
        crate::spell_value::provocation(state, who)
    } else {
        0.0
    };
    let gain = expected(state, who, t, spit) - provoked - melee;
    let shot = Choice::Shoot(t);
    (gain > 0.0 && check_action(false, state, who, &shot).is_ok()).then_some((gain, shot))
}

/// `who`'s expected damage on `t` in one attack with `w`: its chance to hit with the attack's
/// advantage and disadvantage sources, times its mean damage. [CEL-R4, R4.5, R5]
pub fn expected(state: &State, who: CombatantId, t: CombatantId, w: &Weapon) -> f64 {
    let (bonus, dv) = bonus_and_dv(state, who, t, w);
    let (mut adv, mut dis) = (Sources::default(), Sources::default());
    attack::sources_into(state, who, t, w, &mut adv, &mut dis);
    chance(bonus, dv, adv.count() - dis.count(), true) * mean_damage(state, who, w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use crate::tactics::action;

    const SPITTER: CombatantId = CombatantId(0);
    const HAL: CombatantId = CombatantId(1);

    /// A cave spitter (BAB +1; STR 8, DEX 15, WIS 13; bite 1d4, spit 1d6, DV 14) next to Hal
    /// (fighter 3, longsword, all scores 10: DV 10). Bite: d20 + 1 − 1 STR + 2 DEX = +2 against
    /// DV 10: 13 faces, a = 0.65; D = 2.5 − 1 (a STR penalty in full) + 3 (1.5 × DEX +2) = 4.5:
    /// 2.925. Spit (5 ft, no range penalty): + 1 − 1 + 2 + 1 WIS = +3 (a thrown weapon's
    /// abilities): 0.70; D′ = 3.5 − 1 + 3 + 1 (1.5 × WIS +1) = 6.5: 4.55, with no ally of the
    /// spitter next to Hal (no shooting into melee): it spits (gain 1.625). With
    /// `ranged_attack_provokes`, Hal's attack of opportunity (d20 + 3 against DV 14: 0.5; 1d8:
    /// 4.5) costs P = 2.25: 4.55 − 2.25 < 2.925, no spit. With an orc of the spitter's side
    /// next to Hal, opposite it: the bite flanks (advantage, 1 − 0.35² = 0.8775: 3.94875); the
    /// spit flanks too, and shoots into melee (disadvantage): 0.70 again, 4.55: it gains
    /// 0.60125, less than the trip the maneuvers weigh, which is taken. [Seed, Attack,
    /// Natural; CEL-R4.5, R7.2, R15]
    #[test]
    fn the_spit_is_weighed_against_the_bite() {
        let fight = |orc_at: [i32; 2], provokes: bool| {
            let mut s = Fixture::new()
                .monster("spitter", "caves", [0, 0], "cave spitter")
                .with("hal", "heroes", [1, 0], FIGHTER)
                .monster("orc", "caves", orc_at, "orc")
                .state();
            for id in s.ids().collect::<Vec<_>>() {
                s.fm(id).flat_footed = false;
            }
            s.fm(SPITTER).acts_left = 3;
            s.fm(HAL).reactions = 1;
            std::sync::Arc::make_mut(&mut s.options).ranged_attack_provokes = provokes;
            s
        };
        let close = |x: f64, y: f64| (x - y).abs() < 1e-9;
        let blow = Choice::Attack(HAL, 0);
        let s = fight([9, 9], false);
        let spit = s.p(SPITTER).ranged.clone().unwrap();
        let bite = s.p(SPITTER).melee[0].clone();
        assert!(close(expected(&s, SPITTER, HAL, &bite), 0.65 * 4.5));
        assert!(close(expected(&s, SPITTER, HAL, &spit), 0.70 * 6.5));
        assert!(gain(&s, SPITTER, blow).is_some_and(|(g, _)| close(g, 0.70 * 6.5 - 0.65 * 4.5)));
        assert_eq!(action(&s, SPITTER), Choice::Shoot(HAL));
        let s = fight([9, 9], true);
        assert!(close(crate::spell_value::provocation(&s, SPITTER), 2.25));
        assert_eq!(gain(&s, SPITTER, blow), None);
        assert_ne!(action(&s, SPITTER), Choice::Shoot(HAL));
        let s = fight([2, 0], false);
        let flanking = (1.0 - 0.35 * 0.35) * 4.5;
        assert!(close(expected(&s, SPITTER, HAL, &bite), flanking));
        assert!(gain(&s, SPITTER, blow).is_some_and(|(g, _)| close(g, 0.70 * 6.5 - flanking)));
        assert_eq!(action(&s, SPITTER), Choice::Trip(HAL));
    }
}
