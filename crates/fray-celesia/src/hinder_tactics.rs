//! When the default tactics cast a condition or an ability penalty on foes (issue 16; the
//! policy is written out in docs/celesia.md, "Default tactics"), judged from the spell's effect
//! data (`condition`, `penalty`, `duration`, `rounds_per_level`), never its name, and weighed by
//! [`crate::caster_tactics::cast`] beside the damaging spells in the same hit points:
//!
//! - **per round**, the effect on one foe `T` changes two blows: `T`'s own blow on its nearest
//!   foe `F` (one of the caster's side), and the blows of the caster's side on `T` (each ally
//!   up, the caster too, whose nearest foe is `T`), one blow a round each (as haste's extra act
//!   is one blow a round, [`crate::support_tactics`]). A blow is [`blow_odds`]'s hit chance `a`
//!   and mean damage `D` (advantage and disadvantage otherwise left out, as the maneuvers'
//!   are). Disadvantage on `T`'s attack rolls (dazzled, entangled, shaken, sickened, CEL-R4.5)
//!   turns `a·D` into `a²·D`: `T`'s blow loses `a(1 − a)·D`; advantage on attacks against it
//!   (blinded) turns each attacker's `a·D` into `(2a − a²)·D`: each gains `a(1 − a)·D`. An
//!   ability penalty (ray of enfeeblement, clumsy ray, sapping ray) of its mean size (mean dice
//!   plus the caster level's bonus, rounded down; halved on a save that halves) is laid on a copy
//!   of the state and the same blows worked out again by the rules' own numbers: what `T`'s
//!   blow loses and its attackers' gain. A condition that changes no attack roll (deafened) is
//!   worth nothing.
//! - **over its rounds**: rounds per level × caster level (halved on a save that halves a
//!   condition's rounds, CEL-A39), a permanent effect [`HORIZON_ROUNDS`], a concentration one 1
//!   (the default tactics never concentrate, so it ends with the caster's next turn); at most
//!   [`HORIZON_ROUNDS`]. What the attackers gain counts at most `T`'s hit points, what `T`'s
//!   blow loses at most `F`'s (damage past them drops nobody further).
//! - **times the chance it works**: its touch attack's (`spell_value::touch_chance`), through
//!   spell resistance (`spell_value::through`), and failing the save (a save that halves: the
//!   halved effect on a success).
//! - a foe already under that effect gains nothing (CEL-A5: effects count once): the spell is
//!   never aimed at it, and an area's share on it is 0. An area that would catch the caster or
//!   a friend is not cast; an area's worth is the sum over the foes it catches.
//!
//! More rounds, a larger penalty, a likelier success are never worth less. Looked at only
//! where some combatant knows such a spell (`State::hindering`, worked out once on load), so
//! other fights cost nothing more.

use crate::caster_tactics::weigh;
use crate::choice::Choice;
use crate::maneuver_tactics::{blow_odds, threat};
use crate::rules::spell_area;
use crate::spell::{Duration, OnSave, Penalized, Spell};
use crate::spell_value::{save_chance, through, touch_chance};
use crate::state::{CacheFlag, State};
use fray_core::conditions::{Expiry, Timed};
use fray_core::{Board, CombatantId};

/// The most rounds an effect is counted for: a permanent effect's worth, and the cap on a long
/// one's (a Celesia fight of the sample encounters is over well before; docs/celesia.md).
pub const HORIZON_ROUNDS: i32 = 10;

/// Whether `spell`'s effect is a condition or an ability penalty (what this module values).
pub fn hinders(spell: &Spell) -> bool {
    spell.condition.is_some() || spell.penalty.is_some()
}

/// Works out [`State::hindering`]: some combatant knows a spell that gives a condition or a
/// penalty. Called once, when the encounter is loaded.
pub fn prepare(state: &mut State) {
    let known = state
        .profiles
        .iter()
        .any(|p| p.magic.spells.iter().any(hinders));
    state.hindering = CacheFlag(known);
}

/// The condition or penalty spell worth casting now on a foe, with its gain over the blows its
/// acts would be (`blow` per act) net of provoking (`provoked`). [CEL-R6.2, R9, R11, R12]
pub fn hindering_cast(
    state: &State,
    who: CombatantId,
    blow: f64,
    provoked: f64,
) -> Option<(f64, Choice)> {
    if !state.hindering.0 {
        return None;
    }
    let foes: Vec<CombatantId> = state
        .ids()
        .filter(|&t| state.enemies(who, t) && state.up(t))
        .collect();
    weigh(state, who, (blow, provoked), &foes, |spell, t| {
        worth(state, who, spell, t)
    })
}

/// What `spell` cast by `who` aimed at `t` is worth in hit points, before provoking; `None`
/// for a spell that gives no condition or penalty, a foe already under it, or an area that
/// would catch the caster or a friend. [CEL-R6, R6.2, A5]
pub fn worth(state: &State, who: CombatantId, spell: &Spell, t: CombatantId) -> Option<f64> {
    if !hinders(spell) || under(state, spell, t) {
        return None;
    }
    let Some(area) = spell.area else {
        return Some(touch_chance(state, who, spell, t) * on_one(state, who, spell, t));
    };
    let caught = spell_area::creatures(state, who, t, area);
    if caught.iter().any(|&c| !state.enemies(who, c)) {
        return None;
    }
    Some(
        caught
            .into_iter()
            .map(|c| on_one(state, who, spell, c))
            .sum(),
    )
}

/// Whether `t` is already under `spell`'s condition or a spell's penalty to its ability (a
/// second would count for nothing, CEL-A5; of two spell penalties the larger stands).
fn under(state: &State, spell: &Spell, t: CombatantId) -> bool {
    let f = state.f(t);
    spell.condition.is_some_and(|trick| f.has_trick(trick))
        || spell
            .penalty
            .is_some_and(|p| f.drained.has(Penalized::spell(p.ability)))
}

/// The rounds `spell`'s effect is counted for at `who`'s caster level (`half`: a condition's
/// rounds on a save that halves), at most [`HORIZON_ROUNDS`].
fn rounds(state: &State, who: CombatantId, spell: &Spell, half: bool) -> i32 {
    let full = (spell.rounds_per_level * state.p(who).magic.caster_level).clamp(1, 10_000);
    let counted = match spell.duration {
        Duration::Rounds if half => full / 2,
        Duration::Rounds => full,
        Duration::Permanent => HORIZON_ROUNDS,
        Duration::Concentration => 1,
    };
    counted.min(HORIZON_ROUNDS)
}

/// The worth of the effect on one creature it reaches: through spell resistance, times the
/// chance of failing the save (with the halved effect on a save that halves); 0 for a creature
/// down or already under it. [CEL-R6.2, R9]
fn on_one(state: &State, who: CombatantId, spell: &Spell, t: CombatantId) -> f64 {
    if !state.up(t) || under(state, spell, t) {
        return 0.0;
    }
    let saved = save_chance(state, who, spell, t);
    let full = effect(state, who, spell, t, false);
    let on_save = match spell.save {
        Some((_, OnSave::Half)) => saved * effect(state, who, spell, t, true),
        _ => 0.0,
    };
    through(state, who, spell, t) * ((1.0 - saved) * full + on_save)
}

/// The effect's worth on `t` when it lands (`half`: halved by a save): its rounds times what a
/// round changes, each part capped (module summary).
fn effect(state: &State, who: CombatantId, spell: &Spell, t: CombatantId, half: bool) -> f64 {
    let rounds = f64::from(rounds(state, who, spell, half && spell.condition.is_some()));
    let (lost, gained) = if let Some(trick) = spell.condition {
        let disadvantaged = trick.attack_disadvantage().is_some();
        let exposed = trick == crate::state::Trick::Blinded;
        per_round(state, who, t, |s, a, b| {
            let odds = blow_odds(s, a, b);
            let changed = (a == t && disadvantaged) || (b == t && exposed);
            odds.filter(|_| changed)
                .map_or(0.0, |(hit, damage)| hit * (1.0 - hit) * damage)
        })
    } else if let Some(penalty) = spell.penalty {
        let dice = penalty.dice;
        let mean = i32::from(dice.count) * (i32::from(dice.sides) + 1) / 2
            + dice.bonus
            + penalty.bonus(state.p(who).magic.caster_level);
        let size = if half { mean / 2 } else { mean }.clamp(0, 100);
        if size == 0 {
            return 0.0;
        }
        let mut weakened = state.clone();
        weakened
            .fm(t)
            .drained
            .add_timed(Timed::new(Penalized::spell(penalty.ability), Expiry::Indefinite).of(size));
        per_round(state, who, t, |s, a, b| {
            let after = threat(&weakened, a, b);
            let before = threat(s, a, b);
            if a == t {
                before - after
            } else {
                after - before
            }
        })
    } else {
        (None, 0.0)
    };
    let hp = |c: CombatantId| f64::from(state.f(c).hp.max(0));
    let lost = lost.map_or(0.0, |(l, f)| (rounds * l.max(0.0)).min(hp(f)));
    (rounds * gained.max(0.0)).min(hp(t)) + lost
}

/// One round's change in hit points: `T`'s blow on its nearest foe `F` (with `F`), and the sum
/// over the caster's side up whose nearest foe is `T` of their blows on it; `change(state,
/// attacker, target)` says what one blow changes by.
fn per_round(
    state: &State,
    who: CombatantId,
    t: CombatantId,
    change: impl Fn(&State, CombatantId, CombatantId) -> f64,
) -> (Option<(f64, CombatantId)>, f64) {
    let lost = state.nearest_foe(t).map(|f| (change(state, t, f), f));
    let gained = state
        .ids()
        .filter(|&a| !state.enemies(who, a) && state.up(a) && state.nearest_foe(a) == Some(t))
        .map(|a| change(state, a, t))
        .sum();
    (lost, gained)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use crate::state::{Cause, Caused, Trick};

    const WYN: CombatantId = CombatantId(0);
    const ORC: CombatantId = CombatantId(2);

    /// Wyn (wizard 5, DC 16) 40 ft west of an orc (6 hp) that Brom stands next to; she knows
    /// `spells`.
    fn wyn(spells: &str) -> State {
        let mut s = Fixture::new()
            .with(
                "wyn",
                "heroes",
                [0, 0],
                &format!(
                    "class = \"wizard\"\nlevel = 5\nhp = 24\nscores = {{ dex = 14, con = 12, \
                     int = 17 }}\nweapon = \"dagger\"\nspells = [{spells}]\ncaster_level = 5\n\
                     spell_dc = 16\nconcentration = 8\nslots = [4, 3, 2]"
                ),
            )
            .with("brom", "heroes", [7, 0], FIGHTER)
            .monster("orc", "orcs", [8, 0], "orc")
            .state();
        for id in s.ids().collect::<Vec<_>>() {
            s.fm(id).acts_left = 3;
            s.fm(id).flat_footed = false;
        }
        s.order = s.ids().collect();
        s
    }

    fn index(s: &State, key: &str) -> u8 {
        s.spellbook.iter().position(|sp| sp.key() == key).unwrap() as u8
    }

    /// Blindness (permanent: counted for 10 rounds) gives Brom's and Wyn's blows on the orc
    /// advantage: each gains a(1 − a)·D a round, at most the orc's 6 hit points in all. With
    /// the orc sure to fail its Fortitude save (the GM's DC +30) that is the whole 6, more than
    /// scorching ray's 4d6 at most 6 times its touch attack's chance (at most 0.95): blindness.
    /// Sure to save (DC −30): worth 0, the ray. An orc blind already: the ray. [CEL-R4.5, A5]
    #[test]
    fn blindness_beats_the_damage_when_it_is_worth_more_never_twice() {
        let mut s = wyn("\"scorching ray\", \"blindness\"");
        let (ray, blindness) = (index(&s, "scorching-ray"), index(&s, "blindness"));
        assert!(s.hindering.0);
        s.fm(ORC).gm_dc = 30;
        let blind = worth(&s, WYN, &s.spellbook[usize::from(blindness)], ORC).unwrap();
        assert!((blind - 6.0).abs() < 1e-9, "{blind}");
        let damage = crate::caster_tactics::worth(&s, WYN, &s.spellbook[usize::from(ray)], ORC);
        assert!(damage.unwrap() < blind, "{damage:?}");
        assert_eq!(
            crate::caster_tactics::cast(&s, WYN),
            Some(Choice::Cast(blindness, Some(ORC), false))
        );
        s.fm(ORC).gm_dc = -30;
        assert_eq!(
            worth(&s, WYN, &s.spellbook[usize::from(blindness)], ORC),
            Some(0.0)
        );
        assert_eq!(
            crate::caster_tactics::cast(&s, WYN),
            Some(Choice::Cast(ray, Some(ORC), false)),
            "the orc always saves"
        );
        s.fm(ORC).gm_dc = 30;
        s.fm(ORC).tricks.add_timed(Timed::new(
            Caused {
                trick: Trick::Blinded,
                cause: Cause::Spell,
            },
            Expiry::Indefinite,
        ));
        assert_eq!(
            worth(&s, WYN, &s.spellbook[usize::from(blindness)], ORC),
            None
        );
        assert_eq!(
            crate::caster_tactics::cast(&s, WYN),
            Some(Choice::Cast(ray, Some(ORC), false)),
            "blind already"
        );
        s.hindering = CacheFlag(false);
        assert_eq!(
            hindering_cast(&s, WYN, 0.0, 0.0),
            None,
            "the cheap flag is off"
        );
    }

    /// Ray of enfeeblement's Strength penalty (mean 1d6 + 2 = 5, rounded down) lowers the
    /// orc's blow on Brom (its attack and damage) for 5 rounds: worth more than nothing, and
    /// more the longer it lasts (rounds per level 1 against 2) and on a foe that saves less;
    /// nothing on an orc under a spell's Strength penalty already. [CEL-R6.2, E5–E7, A5]
    #[test]
    fn a_penalty_is_worth_the_blows_it_weakens_and_is_monotone() {
        let mut s = wyn("\"ray of enfeeblement\"");
        let ray = usize::from(index(&s, "ray-of-enfeeblement"));
        let spell = s.spellbook[ray].clone();
        let base = worth(&s, WYN, &spell, ORC).unwrap();
        assert!(base > 0.0, "{base}");
        let mut longer = spell.clone();
        longer.rounds_per_level = 2;
        assert!(worth(&s, WYN, &longer, ORC).unwrap() >= base);
        s.fm(ORC).gm_dc = 10;
        assert!(
            worth(&s, WYN, &spell, ORC).unwrap() >= base,
            "a likelier failed save"
        );
        s.fm(ORC).drained.add_timed(
            Timed::new(
                Penalized::spell(crate::spell::Drained::Strength),
                Expiry::Indefinite,
            )
            .of(2),
        );
        assert_eq!(worth(&s, WYN, &spell, ORC), None, "under it already");
    }
}
