//! When the default tactics take the magus's actions instead of a blow (issue 16; CEL-R9 Spell
//! Combat, CEL-R11 Spellstrike; the policy is written out in docs/celesia.md, "Default
//! tactics"). Valued as the maneuvers and feints are ([`crate::maneuver_tactics`]): in hit
//! points over the acts they take, from the rules' own numbers, against the plain blows those
//! acts would have been (`a` the blow's chance to hit, `D` its mean damage):
//!
//! - `S`: a spell's expected damage on the foe: its mean damage (dice per caster level up to
//!   its cap, CEL-R6), times its touch attack's chance (d20 + BAB, STR on a melee touch, DEX,
//!   size against the touch DV: no armour, shield or natural armour, CEL-R4.4; advantage and
//!   disadvantage sources left out, as the maneuvers' are), times the
//!   chance the caster level check beats the foe's spell resistance where it applies (CEL-R9),
//!   times (1 − the save's chance) plus the save's chance times ½ for a save for half (0 for a
//!   save that negates); degrees of success are left out. Spells without damage, and area
//!   spells (which catch friends as well as foes), are not valued, so not cast this way.
//! - `c`: the concentration check's chance when cast defensively (d20 + concentration, plus
//!   the INT bonus when traded, against 15 + 2 × the spell's level; no natural 20 or 1);
//!   `P`: what provoking costs, the sum of the expected damage of one attack of opportunity
//!   by each foe that threatens the magus and has a reaction left (its first usable form).
//! - **Spell Combat** (1 act): the attack at −2 (and less the INT bonus if traded, `a₂`), then
//!   the spell on the same foe: `a₂·D + S − P` plainly, `a₂·D + c·S` defensively (a failed
//!   check loses only the spell); it gains that minus `a·D`.
//! - **Spellstrike** (2 acts, a touch spell): the weapon's attack delivers the spell, its
//!   damage only on a hit: `a·(D + S′) − P` plainly, `c·a·(D + S′)` defensively (a failed
//!   check ends the action before the attack), where `S′` is `S` without the touch attack's
//!   chance; it gains that minus `2·a·D`.
//!
//! The option that gains most is taken if it gains anything (ties: Spell Combat before
//! Spellstrike, plainly before defensively, the INT bonus kept before it is traded, spells in
//! spellbook order). A foe a mean blow would drop is struck, not spelled: the slot is kept.
//! Everything is a function of the state: the same state gives the same choice.

use crate::choice::Choice;
use crate::maneuver_tactics::{bonus_and_dv, chance, mean_damage};
use crate::rules::legal::check_action;
use crate::rules::magus::{int_bonus, Defensively};
use crate::rules::spell as casting;
use crate::spell::{Casting, Range, Spell};
use crate::spell_value::{damage_on, provocation, touch_chance};
use crate::state::State;
use fray_core::CombatantId;

/// Spell Combat or Spellstrike on the foe of `blow` (an `Attack` with a melee form), with what
/// it gains over the blows its acts would have been (hit points, > 0), when one gains
/// anything. [CEL-R9 Spell Combat, R11 Spellstrike]
#[inline]
pub fn gain(state: &State, who: CombatantId, blow: Choice) -> Option<(f64, Choice)> {
    // At every blow decision: this test inline in the caller, the rest out of line (issue 16).
    if !(state.p(who).feats.spell_combat || state.p(who).feats.spellstrike) {
        return None;
    }
    magus_gain(state, who, blow)
}

/// [`gain`], for a magus.
#[inline(never)]
fn magus_gain(state: &State, who: CombatantId, blow: Choice) -> Option<(f64, Choice)> {
    let Choice::Attack(t, form) = blow else {
        return None;
    };
    let (p, f) = (state.p(who), state.f(who));
    if !(p.feats.spell_combat || p.feats.spellstrike)
        || p.magic.spells.is_empty()
        || f.magus.spell_combat
    {
        return None;
    }
    let w = p.melee.get(usize::from(form))?;
    let d = mean_damage(state, who, w);
    if d >= f64::from(state.f(t).hp) {
        return None;
    }
    let (bonus, dv) = bonus_and_dv(state, who, t, w);
    let a = chance(bonus, dv, 0, true);
    let plain = a * d;
    let provoked = provocation(state, who);
    let int = int_bonus(state, who);
    let mut candidates: Vec<(f64, Choice)> = Vec::new();
    for (i, spell) in state
        .spellbook
        .iter()
        .enumerate()
        .take(usize::from(u8::MAX))
    {
        let usable = spell.magus
            && spell.casting == Casting::Standard
            && casting::known(state, who, i)
            && casting::has_slot(state, who, spell.level);
        if !usable {
            continue;
        }
        let Some(on_foe) = expected_damage(state, who, spell, t) else {
            continue;
        };
        let i = i as u8;
        let held = |traded: i32| {
            chance(
                p.magic.concentration + traded,
                15 + 2 * spell.level,
                0,
                false,
            )
        };
        if p.feats.spell_combat && !f.magus.spell_cast {
            let touch = touch_chance(state, who, spell, t);
            for how in Defensively::ALL {
                let traded = if how == Defensively::TradingInt {
                    int
                } else {
                    0
                };
                if how == Defensively::TradingInt && traded == 0 {
                    continue;
                }
                let a2 = chance(bonus - 2 - traded, dv, 0, true);
                let spelled = touch * on_foe;
                let worth = match how {
                    Defensively::No => a2 * d + spelled - provoked,
                    _ => a2 * d + held(traded) * spelled,
                };
                candidates.push((worth - plain, Choice::SpellCombat(t, form, i, Some(t), how)));
            }
        }
        if p.feats.spellstrike && spell.range == Range::Touch && f.acts_left >= 2 {
            let struck = a * (d + on_foe);
            for defensively in [false, true] {
                let worth = if defensively {
                    held(0) * struck
                } else {
                    struck - provoked
                };
                candidates.push((
                    worth - 2.0 * plain,
                    Choice::Spellstrike(t, form, i, defensively),
                ));
            }
        }
    }
    // The greatest gain, the first of equals; only a legal option is taken.
    let mut best: Option<(f64, Choice)> = None;
    for (g, c) in candidates {
        if g > 0.0 && best.is_none_or(|(b, _)| g > b) && check_action(false, state, who, &c).is_ok()
        {
            best = Some((g, c));
        }
    }
    best
}

/// The damage `spell` cast by `who` is expected to deal `t` once it reaches it: a spell that
/// fills an area (catching friends as well as foes) is not valued here. [CEL-R6, R9]
fn expected_damage(state: &State, who: CombatantId, spell: &Spell, t: CombatantId) -> Option<f64> {
    spell
        .area
        .is_none()
        .then(|| damage_on(state, who, spell, t))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::Fixture;

    const MAG: CombatantId = CombatantId(0);
    const ORC: CombatantId = CombatantId(1);

    /// Sela of examples/celesia/magus.toml (magus 4: BAB 3, STR 12, DEX 16, INT 16, a rapier
    /// 1d6, leather), next to an orc of 40 hp, three acts left.
    fn sela_entry(extra: &str) -> String {
        format!(
            "class = \"magus\"\nlevel = 4\nhp = 30\nscores = {{ str = 12, dex = 16, con = 12, \
             int = 16 }}\nweapon = \"rapier\"\narmor = \"leather\"\nspells = [\"shocking grasp\", \
             \"scorching ray\", \"burning hands\"]\ncaster_level = 4\nspell_dc = 15\n\
             concentration = 7\nslots = [4, 2]\n{extra}"
        )
    }

    fn sela(extra: &str) -> State {
        let mut s = Fixture::new()
            .with("sela", "heroes", [0, 0], &sela_entry(extra))
            .with("orc", "orcs", [1, 0], "monster = \"orc\"\nhp = 40")
            .state();
        s.fm(MAG).acts_left = 3;
        ready_to_react(&mut s, MAG);
        ready_to_react(&mut s, ORC);
        s
    }

    /// Past its first turn: a reaction, not flat-footed.
    fn ready_to_react(s: &mut State, who: CombatantId) {
        s.fm(who).reactions = 1;
        s.fm(who).flat_footed = false;
    }

    fn index(s: &State, key: &str) -> u8 {
        s.spellbook.iter().position(|sp| sp.key() == key).unwrap() as u8
    }

    /// The numbers, worked from the rules (those of the example's script): the rapier d20 + 7
    /// (BAB 3, STR 1, DEX 3) against the orc's DV 14 hits on 7 or more (a = 0.7), mean 3.5 + 4
    /// = 7.5; at −2 on 9 or more (0.6); trading INT +3 as well, on 12 or more (0.45). Shocking
    /// grasp at caster level 4: 4d6, mean 14; its melee touch d20 + 7 against touch DV 10 (the
    /// orc's armour left out) hits on 3 or more (0.9): S = 12.6. The orc's attack of
    /// opportunity (d20 + 4 against DV 15: 0.5; falchion 2d4 + 4, mean 9): P = 4.5. The
    /// concentration check d20 + 7 against 17 holds on 10 or more (0.55), with INT +3 on 7 or
    /// more (0.7). Spell Combat: plainly 0.6 · 7.5 + 12.6 − 4.5 = 12.6; defensively 4.5 +
    /// 0.55 · 12.6 = 11.43; trading INT 0.45 · 7.5 + 0.7 · 12.6 = 12.195. Spellstrike plainly:
    /// 0.7 · (7.5 + 14) − 4.5 = 10.55 for two acts, against 2 · 5.25 = 10.5 (a gain of 0.05).
    /// So Spell Combat plainly, gaining 12.6 − 0.7 · 7.5 = 7.35. [CEL-R9, R6.1, R14]
    #[test]
    fn sela_takes_spell_combat_with_shocking_grasp() {
        let s = sela("");
        let w = s.p(MAG).melee[0].clone();
        assert_eq!(bonus_and_dv(&s, MAG, ORC, &w), (7, 14));
        assert_eq!(mean_damage(&s, MAG, &w), 7.5);
        let grasp = index(&s, "shocking-grasp");
        let spell = &s.spellbook[usize::from(grasp)];
        assert_eq!(expected_damage(&s, MAG, spell, ORC), Some(14.0));
        assert!((touch_chance(&s, MAG, spell, ORC) - 0.9).abs() < 1e-9);
        assert!((provocation(&s, MAG) - 4.5).abs() < 1e-9);
        let (g, c) = gain(&s, MAG, Choice::Attack(ORC, 0)).expect("a magus action");
        assert_eq!(
            c,
            Choice::SpellCombat(ORC, 0, grasp, Some(ORC), Defensively::No)
        );
        assert!((g - 7.35).abs() < 1e-9, "{g}");
        // The orc's reaction spent: no attack of opportunity to fear (P = 0).
        let mut s = sela("");
        s.fm(ORC).reactions = 0;
        let (g, _) = gain(&s, MAG, Choice::Attack(ORC, 0)).expect("a magus action");
        assert!((g - 11.85).abs() < 1e-9, "{g}");
        // Two orcs threatening (P = 9): defensively, trading INT (12.195 > 11.43 > 8.1).
        let mut s = Fixture::new()
            .with("sela", "heroes", [0, 0], &sela_entry(""))
            .with("orc", "orcs", [1, 0], "monster = \"orc\"\nhp = 40")
            .with("orc2", "orcs", [0, 1], "monster = \"orc\"\nhp = 40")
            .state();
        s.fm(MAG).acts_left = 3;
        for who in [MAG, ORC, CombatantId(2)] {
            ready_to_react(&mut s, who);
        }
        let (_, c) = gain(&s, MAG, Choice::Attack(ORC, 0)).expect("a magus action");
        assert_eq!(
            c,
            Choice::SpellCombat(ORC, 0, grasp, Some(ORC), Defensively::TradingInt)
        );
    }

    /// Once Spell Combat is taken this turn, nothing more; with no slot of level 1 or 2 left,
    /// nothing; a foe a mean blow drops (4.5 ≥ 4 hp) is struck; a fighter never spells.
    #[test]
    fn no_magus_action_when_barred_spent_or_wasted() {
        let blow = Choice::Attack(ORC, 0);
        let mut s = sela("");
        s.fm(MAG).magus.spell_combat = true;
        assert_eq!(gain(&s, MAG, blow), None, "once per turn");
        let mut s = sela("");
        s.fm(MAG).slots_spent[1] = 4;
        s.fm(MAG).slots_spent[2] = 2;
        assert_eq!(gain(&s, MAG, blow), None, "no slot left");
        let mut s = sela("");
        s.fm(ORC).hp = 4;
        assert_eq!(gain(&s, MAG, blow), None, "a mean blow drops it");
        assert!(gain(&sela(""), MAG, blow).is_some());
        let fighter = Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                "class = \"fighter\"\nlevel = 4\nhp = 30\nweapon = \"rapier\"\n\
                 spells = [\"shocking grasp\"]\ncaster_level = 4",
            )
            .with("orc", "orcs", [1, 0], "monster = \"orc\"\nhp = 40")
            .state();
        assert_eq!(
            gain(&fighter, MAG, blow),
            None,
            "no spell combat, no spellstrike"
        );
    }

    /// With a strapped light shield (no hand free) Spell Combat is illegal: Spellstrike
    /// delivers shocking grasp instead: 0.7 · (7.5 + 14) − P against 2 · 0.7 · 7.5, where the
    /// shield's +1 DV makes the orc hit on 12 or more (P = 0.45 · 9 = 4.05): a gain of 0.5;
    /// defensively 0.55 · 15.05 < 10.5. With one act left, no Spellstrike. [CEL-R9, R11]
    #[test]
    fn a_magus_with_a_shield_spellstrikes() {
        let s = sela("shield = \"light shield\"");
        let grasp = index(&s, "shocking-grasp");
        let (g, c) = gain(&s, MAG, Choice::Attack(ORC, 0)).expect("spellstrike");
        assert_eq!(c, Choice::Spellstrike(ORC, 0, grasp, false));
        assert!((g - 0.5).abs() < 1e-9, "{g}");
        let mut s = sela("shield = \"light shield\"");
        s.fm(MAG).acts_left = 1;
        assert_eq!(gain(&s, MAG, Choice::Attack(ORC, 0)), None, "one act left");
    }

    /// The choice is the same whatever the roster order: Sela listed second. [mirror fairness]
    #[test]
    fn the_choice_does_not_depend_on_the_roster_order() {
        let first = sela("");
        let entry = Fixture::new()
            .with("orc", "orcs", [1, 0], "monster = \"orc\"\nhp = 40")
            .with("sela", "heroes", [0, 0], &sela_entry(""));
        let mut second = entry.state();
        let (orc, mag) = (CombatantId(0), CombatantId(1));
        second.fm(mag).acts_left = 3;
        ready_to_react(&mut second, mag);
        ready_to_react(&mut second, orc);
        let a = gain(&first, MAG, Choice::Attack(ORC, 0)).map(|(g, _)| g);
        let b = gain(&second, mag, Choice::Attack(orc, 0)).map(|(g, _)| g);
        assert_eq!(a, b);
    }
}
