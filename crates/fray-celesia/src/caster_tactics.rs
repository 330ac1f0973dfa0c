//! When the default tactics cast a damaging spell (issue 16; CEL-R9 Cast a Swift Spell, R11
//! Cast a Standard-Action Spell, R12 Cast a Full-Action Spell; the policy is written out in
//! docs/celesia.md, "Default tactics"). Valued as the magus's spells are
//! ([`crate::magus_tactics`], [`crate::spell_value`]), in hit points against the blows its acts
//! would otherwise have been:
//!
//! - each spell the caster knows with a slot left, cast in 1, 2 or 3 acts (a 1-round spell is
//!   not valued), that deals damage and does nothing else, aimed at each foe up: its value `V`
//!   is, on one creature, the touch attack's chance times its expected damage `S` (mean dice at
//!   the caster level, through spell resistance and the save), `S` counted at most up to the
//!   foe's hit points (damage past them drops it no further); an area spell's is the sum of
//!   that over the foes it catches, and an area that would catch the caster or a friend is not
//!   cast;
//! - a casting that provokes (every sample spell) costs `P`, the expected damage of the
//!   attacks of opportunity the foes threatening the caster could take: plainly `V − P`, or
//!   defensively `c·V`, `c` the concentration check's chance against 15 + 2 × the spell's level
//!   (no natural 20 or 1; CEL-R14, CEL-A9); with nobody to provoke, plainly;
//! - the alternative is `B` per act, `B` the best expected damage of one blow on a foe in reach
//!   (0 with none in reach: it would walk or shoot);
//! - the spell whose worth minus `acts × B` is greatest is cast if that is above 0 (first of
//!   equals: spellbook order, then foes in id order, plainly before defensively).
//!
//! A spell that gives an ally extra acts (haste) is weighed beside them in the same hit points
//! ([`crate::support_tactics::helpful_cast`]); the greater gain is cast (a damaging spell of
//! equal gain first). A magus with a foe in reach is left to [`crate::magus_tactics`] (Spell
//! Combat and Spellstrike); conditions and penalties are not valued, so not cast. Everything is
//! a function of the state: the same state gives the same choice.

use crate::choice::Choice;
use crate::maneuver_tactics::{chance, threat};
use crate::rules::legal::check_action;
use crate::rules::{spell as casting, spell_area};
use crate::spell::{Casting, Spell};
use crate::spell_value::{damage_on, provocation, touch_chance};
use crate::state::State;
use fray_core::CombatantId;

/// The damaging spell the default tactics cast now, if one is worth more than the blows its
/// acts would be. [CEL-R9, R11, R12]
#[inline(always)]
pub fn cast(state: &State, who: CombatantId) -> Option<Choice> {
    // At every decision: this test inline in the caller, the rest out of line (issue 16).
    if state.p(who).magic.spells.is_empty() {
        return None;
    }
    cast_weighed(state, who)
}

/// [`cast`], for a caster.
#[inline(never)]
fn cast_weighed(state: &State, who: CombatantId) -> Option<Choice> {
    let p = state.p(who);
    if p.magic.spells.is_empty() {
        return None;
    }
    let mut blow = 0.0_f64;
    state.each_foe_within(who, state.reach_squares, |t| {
        if state.up(t) {
            blow = blow.max(threat(state, who, t));
        }
    });
    if blow > 0.0 && (p.feats.spell_combat || p.feats.spellstrike) {
        return None;
    }
    let provoked = provocation(state, who);
    let foes: Vec<CombatantId> = state
        .ids()
        .filter(|&t| state.enemies(who, t) && state.up(t))
        .collect();
    let mut best = weigh(state, who, (blow, provoked), &foes, |spell, t| {
        worth(state, who, spell, t)
    });
    // CEL-R3.4: a spell that helps an ally (haste), weighed in the same hit points
    // (`crate::support_tactics`); a damaging spell first where they gain as much.
    // A condition or a penalty on foes (`crate::hinder_tactics`), then healing a badly hurt
    // ally (`crate::heal_tactics`), in the same hit points; the earlier of equal gains.
    let others = [
        crate::support_tactics::helpful_cast(state, who, blow, provoked),
        crate::hinder_tactics::hindering_cast(state, who, blow, provoked),
        crate::heal_tactics::healing_cast(state, who, blow, provoked),
    ];
    for (gain, c) in others.into_iter().flatten() {
        if best.is_none_or(|(b, _)| gain > b) {
            best = Some((gain, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The casting with the greatest gain of the spells `who` knows with a slot left, cast in 1, 2
/// or 3 acts, on each of `targets`, plainly and defensively ([`ways`]), `worth` saying what
/// each spell is worth on each target (`None`: not valued there); the gain is that worth less
/// the blows its acts would be (`blow` per act; `provoked`: what provoking costs). Only a gain
/// above 0 of a legal casting counts; of equal gains, the first (spellbook order, then
/// `targets`' order, plainly before defensively). [CEL-R9, R11, R12, R14]
pub(crate) fn weigh(
    state: &State,
    who: CombatantId,
    (blow, provoked): (f64, f64),
    targets: &[CombatantId],
    mut worth: impl FnMut(&Spell, CombatantId) -> Option<f64>,
) -> Option<(f64, Choice)> {
    let p = state.p(who);
    let mut best: Option<(f64, Choice)> = None;
    for (i, spell) in state
        .spellbook
        .iter()
        .enumerate()
        .take(usize::from(u8::MAX))
    {
        let Some(acts) = acts(spell.casting) else {
            continue;
        };
        if !(casting::known(state, who, i) && casting::has_slot(state, who, spell.level)) {
            continue;
        }
        let held = chance(p.magic.concentration, 15 + 2 * spell.level, 0, false);
        for &t in targets {
            let Some(value) = worth(spell, t) else {
                continue;
            };
            for (worth, defensively) in ways(spell, provoked, held, value) {
                let gain = worth - f64::from(acts) * blow;
                let choice = Choice::Cast(i as u8, Some(t), defensively);
                if gain > 0.0
                    && best.is_none_or(|(b, _)| gain > b)
                    && check_action(false, state, who, &choice).is_ok()
                {
                    best = Some((gain, choice));
                }
            }
        }
    }
    best
}

/// A spell's worth cast plainly (less the attacks of opportunity it provokes) and cast
/// defensively (times the chance its concentration check holds), `false` and `true`; one that
/// provokes nothing is cast plainly only. [CEL-R11 Cast Defensively]
pub(crate) fn ways(spell: &Spell, provoked: f64, held: f64, value: f64) -> [(f64, bool); 2] {
    if spell.provoke && provoked > 0.0 {
        [(value - provoked, false), (held * value, true)]
    } else {
        [(value, false), (f64::NEG_INFINITY, true)]
    }
}

/// The acts a casting takes, for the castings valued (a 1-round spell is not). [CEL-R9–R13]
pub(crate) fn acts(casting: Casting) -> Option<i32> {
    match casting {
        Casting::Simple => Some(1),
        Casting::Standard => Some(2),
        Casting::Full => Some(3),
        Casting::OneRound => None,
    }
}

/// `V`: what `spell` cast by `who` at `t` is worth in hit points, before provoking; `None` for
/// a spell not valued or an area that would catch the caster or a friend. [CEL-R6, R6.2]
pub(crate) fn worth(state: &State, who: CombatantId, spell: &Spell, t: CombatantId) -> Option<f64> {
    let on = |c: CombatantId| {
        damage_on(state, who, spell, c).map(|s| s.min(f64::from(state.f(c).hp.max(0))))
    };
    let Some(area) = spell.area else {
        return Some(touch_chance(state, who, spell, t) * on(t)?);
    };
    let caught = spell_area::creatures(state, who, t, area);
    if caught.iter().any(|&c| !state.enemies(who, c)) {
        return None;
    }
    caught.into_iter().map(on).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::Fixture;

    const WYN: CombatantId = CombatantId(0);

    /// Wyn of examples/celesia/spells.toml (wizard 5, a dagger, caster level 5, DC 16,
    /// concentration +8), with the spells `spells`, 40 ft from the orcs `orcs` (each at the
    /// square given, 15 hp: the orc's).
    fn wyn(spells: &str, orcs: &[[i32; 2]]) -> State {
        let mut fixture = Fixture::new().with(
            "wyn",
            "heroes",
            [0, 0],
            &format!(
                "class = \"wizard\"\nlevel = 5\nhp = 24\nscores = {{ dex = 14, con = 12, int = 17 \
                 }}\nweapon = \"dagger\"\nspells = [{spells}]\ncaster_level = 5\nspell_dc = 16\n\
                 concentration = 8\nreflex = 3\nwill = 4\nslots = [4, 3, 2]"
            ),
        );
        for (n, at) in orcs.iter().enumerate() {
            fixture = fixture.monster(&format!("orc-{n}"), "orcs", *at, "orc");
        }
        let mut s = fixture.state();
        s.fm(WYN).acts_left = 3;
        // As after initiative: an area catches creatures in the order.
        s.order = s.ids().collect();
        s
    }

    fn index(s: &State, key: &str) -> u8 {
        s.spellbook.iter().position(|sp| sp.key() == key).unwrap() as u8
    }

    /// Two orcs side by side 40 ft off: fireball (5d6, mean 17.5, Reflex half) catches both;
    /// each orc's Reflex save against DC 16 succeeds with a chance s, so each takes
    /// 17.5 × (1 − s/2), capped at its hit points — more than scorching ray's one orc. Wyn is
    /// 40 ft from them: no foe in reach, nobody to provoke: fireball plainly, at the first orc.
    #[test]
    fn a_wizard_fireballs_two_orcs_out_of_reach() {
        let s = wyn("\"scorching ray\", \"fireball\"", &[[8, 0], [8, 1]]);
        let fireball = index(&s, "fireball");
        assert_eq!(
            cast(&s, WYN),
            Some(Choice::Cast(fireball, Some(CombatantId(1)), false))
        );
        let spell = &s.spellbook[usize::from(fireball)];
        let one = worth(&s, WYN, spell, CombatantId(1)).unwrap();
        let hp = f64::from(s.f(CombatantId(1)).hp);
        let on_each = damage_on(&s, WYN, spell, CombatantId(1)).unwrap().min(hp);
        assert!((one - 2.0 * on_each).abs() < 1e-9, "{one} {on_each}");
    }

    /// The orcs around Wyn: a fireball aimed at one would catch her (a 20-ft burst): never
    /// cast; with no slot left nothing is cast; a fighter without spells never casts.
    #[test]
    fn no_fireball_on_itself_and_none_without_a_slot() {
        let s = wyn("\"fireball\"", &[[1, 0]]);
        assert_eq!(cast(&s, WYN), None, "the burst catches Wyn");
        let mut s = wyn("\"scorching ray\"", &[[8, 0]]);
        assert!(cast(&s, WYN).is_some(), "a ray at the orc");
        s.fm(WYN).slots_spent[2] = 3;
        assert_eq!(cast(&s, WYN), None, "no slot of level 2 left");
        let fighter = Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                "class = \"fighter\"\nlevel = 4\nhp = 30",
            )
            .monster("orc", "orcs", [8, 0], "orc")
            .state();
        assert_eq!(cast(&fighter, WYN), None);
    }

    /// The choice is the same whatever the roster order. [mirror fairness]
    #[test]
    fn the_choice_does_not_depend_on_the_roster_order() {
        let first = wyn("\"scorching ray\", \"fireball\"", &[[8, 0], [8, 1]]);
        let Some(Choice::Cast(i, Some(_), d)) = cast(&first, WYN) else {
            panic!("a casting");
        };
        let mut second = Fixture::new()
            .monster("orc-0", "orcs", [8, 0], "orc")
            .monster("orc-1", "orcs", [8, 1], "orc")
            .with(
                "wyn",
                "heroes",
                [0, 0],
                "class = \"wizard\"\nlevel = 5\nhp = 24\nscores = { dex = 14, con = 12, int = 17 \
                 }\nweapon = \"dagger\"\nspells = [\"scorching ray\", \"fireball\"]\n\
                 caster_level = 5\nspell_dc = 16\nconcentration = 8\nreflex = 3\nwill = 4",
            )
            .state();
        let wyn2 = CombatantId(2);
        second.fm(wyn2).acts_left = 3;
        second.order = second.ids().collect();
        let Some(Choice::Cast(j, Some(_), e)) = cast(&second, wyn2) else {
            panic!("a casting");
        };
        assert_eq!(
            (first.spellbook[usize::from(i)].key(), d),
            (second.spellbook[usize::from(j)].key(), e)
        );
    }
}
