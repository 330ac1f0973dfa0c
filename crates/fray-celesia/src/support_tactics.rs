//! When the default tactics help an ally rather than strike or blast a foe (issue 16; the
//! policy is written out in docs/celesia.md, "Default tactics"), in the same hit points as
//! [`crate::caster_tactics`] and [`crate::maneuver_tactics`]:
//!
//! - **A helpful spell** (CEL-R3.4: one whose effect data gives its target an extra act each
//!   round, `haste_rounds_per_level`; haste today), weighed by [`crate::caster_tactics::cast`]
//!   beside the damaging ones. On each ally up and not already given extra acts (itself
//!   included), in range: the extra act is one more blow a round, `B` (the ally's expected
//!   damage in one attack on its nearest foe, [`threat`]), for the spell's rounds
//!   (`haste_rounds_per_level` × caster level); all the ally's blows can deal no more than the
//!   foes' hit points `H`, and a quarter of them (one act of four) come from the spell, so it
//!   is worth at most `H/4`: `V = min(rounds·B, H/4)`, times the chance of passing the ally's
//!   spell resistance where it applies. Provoking and the blows its acts replace are counted as
//!   for a damaging spell. The ally that gains most is chosen (ties: the greater `B`, then
//!   roster order).
//! - **Aid Another** (CEL-R9, R6.4), weighed instead of a blow on foe `T` with form `w`
//!   ([`aid`], beside the maneuvers, feints and the magus's actions): only when the blow needs
//!   a natural 18 or more (`a` ≤ 0.15; above that, the +1 or so on one roll — 0.05 a point —
//!   would have to come from an ally dealing several times its damage) and cannot drop `T`.
//!   The aid roll is d20 + the aider's attack bonus with its aiding form against DV 10: +1, +1
//!   per full 10 over, −1 per full 10 under (a natural 20 at least +1, a natural 1 no bonus);
//!   over the 20 faces, its worth on an ally `F` in melee with `T` is the expected rise of
//!   `F`'s next hit chance on `T` times `F`'s mean damage (only when `T` is the one foe `F`
//!   threatens, so its next attack is on `T`), or the expected fall of `T`'s hit chance on `F`
//!   times `T`'s mean damage (only when `F` is the one foe `T` threatens); aid already given to
//!   `F` counts first. Against the blow's `a·D`; the greatest gain is taken (ties: the attack
//!   before the DV, friends in roster order). Advantage and disadvantage are left out, as the
//!   maneuvers' are.
//!
//! Both are looked at only where they can apply, by flags worked out once on load
//! ([`prepare`]: `State::helping`, some spell of the encounter helps; `State::aiding`, as the
//! fight begins — nobody flat-footed — some combatant with a friend needs a natural 18 or more
//! to hit some foe with its best melee blow), so other fights cost nothing more. Everything is
//! a function of the state: the same state gives the same choice, whatever the file order.

use crate::choice::Choice;
use crate::content::{Weapon, WeaponKind};
use crate::maneuver_tactics::{bonus_and_dv, chance, mean_damage, threat};
use crate::rules::aid::{aiding_form, AidTo, AID_DV};
use crate::rules::degrees::aid_bonus;
use crate::rules::legal::check_action;
use crate::rules::spell as casting;
use crate::spell::Spell;
use crate::state::{reaches, CacheFlag, State};
use fray_core::{Board, CombatantId};

/// The margin a blow must need on the d20 (a natural 18 or more: `DV − bonus ≥ 18`) before
/// Aid Another is weighed instead. [CEL-R9; docs/celesia.md]
const POOR_MARGIN: i32 = 18;

/// Works out the flags that let fights without a helpful spell or a poor attacker skip these
/// checks (`State::helping`, `State::aiding`). Called once, when the encounter is loaded.
pub fn prepare(state: &mut State) {
    state.helping = CacheFlag(state.spellbook.iter().any(|s| s.haste_rounds_per_level > 0));
    state.aiding = CacheFlag(someone_attacks_poorly(state));
}

/// Whether some combatant with a friend and a melee weapon needs a natural 18 or more to hit
/// some foe with its best melee form, with nobody flat-footed. Each DV is worked out once, and
/// each attacker's bonus once per form (a melee bonus does not depend on the foe). [CEL-R4, R9]
fn someone_attacks_poorly(state: &State) -> bool {
    let mut ready = state.clone();
    for f in &mut ready.fighters {
        f.flat_footed = false;
    }
    let mut dv: Vec<Option<i32>> = vec![None; ready.fighters.len()];
    for a in ready.ids() {
        if !ready.ids().any(|o| o != a && !ready.enemies(a, o)) {
            continue;
        }
        let Some(first_foe) = ready.ids().find(|&t| ready.enemies(a, t)) else {
            continue;
        };
        let Some(w) = ready
            .melee_forms(a)
            .filter(|(_, w)| w.kind != WeaponKind::Unarmed)
            .map(|(_, w)| w)
            .max_by_key(|w| bonus_and_dv(&ready, a, first_foe, w).0)
        else {
            continue;
        };
        let bonus = bonus_and_dv(&ready, a, first_foe, w).0;
        for t in ready.ids().filter(|&t| ready.enemies(a, t)) {
            let defense = *dv[t.index()].get_or_insert_with(|| bonus_and_dv(&ready, a, t, w).1);
            if defense - bonus >= POOR_MARGIN {
                return true;
            }
        }
    }
    false
}

/// The rounds of extra acts `spell` cast by `who` gives its target, if that is its effect
/// (haste: its rounds per caster level, at least 1). [CEL-R3.4, A39]
fn extra_act_rounds(state: &State, who: CombatantId, spell: &Spell) -> Option<i32> {
    (spell.haste_rounds_per_level > 0)
        .then(|| (spell.haste_rounds_per_level * state.p(who).magic.caster_level).clamp(1, 10_000))
}

/// The helpful spell worth casting now on an ally, with its gain over the blows its acts
/// would be (`blow` per act) net of provoking (`provoked`, with the concentration check's
/// chance for casting defensively). [CEL-R3.4, R9, R11, R12, R14]
pub fn helpful_cast(
    state: &State,
    who: CombatantId,
    blow: f64,
    provoked: f64,
) -> Option<(f64, Choice)> {
    if !state.helping.0 {
        return None;
    }
    let p = state.p(who);
    let mut best: Option<(f64, f64, Choice)> = None;
    for (i, spell) in state
        .spellbook
        .iter()
        .enumerate()
        .take(usize::from(u8::MAX))
    {
        let (Some(rounds), Some(acts)) = (
            extra_act_rounds(state, who, spell),
            crate::caster_tactics::acts(spell.casting),
        ) else {
            continue;
        };
        if !(casting::known(state, who, i) && casting::has_slot(state, who, spell.level)) {
            continue;
        }
        let held = chance(p.magic.concentration, 15 + 2 * spell.level, 0, false);
        for ally in state.ids() {
            let Some((value, its_blow)) = extra_acts_worth(state, who, spell, rounds, ally) else {
                continue;
            };
            let ways = crate::caster_tactics::ways(spell, provoked, held, value);
            for (worth, defensively) in ways {
                let gain = worth - f64::from(acts) * blow;
                let choice = Choice::Cast(i as u8, Some(ally), defensively);
                // Of equal gains (both capped at H/4), the ally with the stronger blow.
                let better = best.is_none_or(|(b, bb, _)| gain > b || (gain == b && its_blow > bb));
                if gain > 0.0 && better && check_action(false, state, who, &choice).is_ok() {
                    best = Some((gain, its_blow, choice));
                }
            }
        }
    }
    best.map(|(gain, _, c)| (gain, c))
}

/// `V`: what `rounds` of an extra act a round are worth on `ally`, `min(rounds·B, H/4)` times
/// the chance of passing its spell resistance, with `B`; `None` for a foe, a creature down or
/// gone, one that has extra acts already, or one with no foe to strike. [CEL-R3.4, A40, R9]
fn extra_acts_worth(
    state: &State,
    who: CombatantId,
    spell: &Spell,
    rounds: i32,
    ally: CombatantId,
) -> Option<(f64, f64)> {
    let f = state.f(ally);
    if state.enemies(who, ally) || f.absent() || !state.up(ally) || f.haste.is_some() {
        return None;
    }
    let foe = state.nearest_foe(ally)?;
    let blow = threat(state, ally, foe);
    if blow <= 0.0 {
        return None;
    }
    let foes_hp: i32 = state
        .ids()
        .filter(|&t| state.enemies(ally, t) && state.up(t))
        .map(|t| state.f(t).hp.max(0))
        .sum();
    let through = crate::spell_value::through(state, who, spell, ally);
    let worth = (f64::from(rounds) * blow).min(f64::from(foes_hp) / 4.0) * through;
    Some((worth, blow))
}

/// Aid Another instead of `blow` (an attack with a melee form on a foe), with what it gains
/// over the blow (hit points, > 0): only where the blow needs a natural 18 or more and cannot
/// drop the foe. [CEL-R9 Aid Another, R6.4]
#[inline]
pub fn aid(state: &State, who: CombatantId, blow: Choice) -> Option<(f64, Choice)> {
    // The flag is read at the call site (inlined): the weighing is not called in fights
    // without a poor attacker.
    if !state.aiding.0 {
        return None;
    }
    aid_weighed(state, who, blow)
}

/// [`aid`], in an encounter with a poor attacker.
#[inline(never)]
fn aid_weighed(state: &State, who: CombatantId, blow: Choice) -> Option<(f64, Choice)> {
    let Choice::Attack(foe, form) = blow else {
        return None;
    };
    let w = state.p(who).melee.get(usize::from(form))?;
    let damage = mean_damage(state, who, w);
    if damage >= f64::from(state.f(foe).hp) {
        return None;
    }
    let (bonus, dv) = bonus_and_dv(state, who, foe, w);
    if dv - bonus < POOR_MARGIN {
        return None;
    }
    let own = chance(bonus, dv, 0, true) * damage;
    let aiding = state.p(who).melee.get(aiding_form(state, who, foe)?)?;
    let roll = bonus_and_dv(state, who, foe, aiding).0;
    let mut best: Option<(f64, Choice)> = None;
    let friends = state.near(foe, state.reach_squares, |o| {
        o != who && !state.enemies(who, o)
    });
    for friend in friends {
        for to in [AidTo::Attack, AidTo::Defense] {
            let Some(worth) = aid_worth(state, friend, foe, to, roll) else {
                continue;
            };
            let choice = Choice::Aid(friend, foe, to);
            if worth > own
                && best.is_none_or(|(b, _)| worth > b)
                && check_action(false, state, who, &choice).is_ok()
            {
                best = Some((worth, choice));
            }
        }
    }
    best.map(|(worth, c)| (worth - own, c))
}

/// The bonus an aid roll of `die` + `roll` gives (a penalty for a full 10 under). [CEL-R6.4,
/// CEL-A3, A17]
fn aid_amount(die: i32, roll: i32) -> i32 {
    let total = die + roll;
    if die == 20 || (die != 1 && total >= AID_DV) {
        aid_bonus(total, AID_DV).max(1)
    } else {
        aid_bonus(total, AID_DV).min(0)
    }
}

/// What an aid of form `to` on `friend` against `foe`, rolled with `roll`, is expected to be
/// worth: over the d20's faces, the change it makes to the next attack's hit chance times that
/// attack's mean damage; `None` where that attack is not sure to be the one it helps (`foe` is
/// not the one foe `friend` threatens, or the other way round for the DV). [CEL-R9, R6.4]
fn aid_worth(
    state: &State,
    friend: CombatantId,
    foe: CombatantId,
    to: AidTo,
    roll: i32,
) -> Option<f64> {
    if !state.up(friend) {
        return None;
    }
    let (attacker, target) = match to {
        AidTo::Attack => (friend, foe),
        _ => (foe, friend),
    };
    if !only_foe_threatened(state, attacker, target) {
        return None;
    }
    let w = best_reaching_form(state, attacker, target)?;
    let damage = mean_damage(state, attacker, w);
    let (bonus, dv) = bonus_and_dv(state, attacker, target, w);
    // Aid already given on that roll counts first (several aiders stack, CEL-R9).
    let given: i32 = state
        .f(friend)
        .aids
        .iter()
        .filter(|a| a.foe == foe && a.to == to)
        .map(|a| a.amount)
        .sum();
    let before = match to {
        AidTo::Attack => chance(bonus + given, dv, 0, true),
        _ => chance(bonus, dv + given, 0, true),
    };
    let rise: f64 = (1..=20)
        .map(|die| {
            let k = aid_amount(die, roll);
            match to {
                AidTo::Attack => chance(bonus + given + k, dv, 0, true) - before,
                _ => before - chance(bonus, dv + given + k, 0, true),
            }
        })
        .sum::<f64>()
        / 20.0;
    Some(rise * damage)
}

/// Whether `target` is the one foe up that `attacker` threatens (so its next attack, if it
/// strikes, is on `target`).
fn only_foe_threatened(state: &State, attacker: CombatantId, target: CombatantId) -> bool {
    state.threatens(attacker, target)
        && !state.any_near(attacker, state.reach_squares, |o| {
            o != target && state.enemies(attacker, o) && state.up(o) && state.threatens(attacker, o)
        })
}

/// `who`'s melee form of most mean damage that reaches `target` (an unarmed strike only with
/// Improved Unarmed Strike; the first of equals).
fn best_reaching_form(state: &State, who: CombatantId, target: CombatantId) -> Option<&Weapon> {
    let gap = state.gap(who, target);
    let unarmed_ok = state.p(who).feats.improved_unarmed;
    let mut best: Option<(f64, &Weapon)> = None;
    for (_, w) in state.melee_forms(who) {
        if (w.kind != WeaponKind::Unarmed || unarmed_ok) && reaches(w, gap) {
            let d = mean_damage(state, who, w);
            if best.is_none_or(|(b, _)| d > b) {
                best = Some((d, w));
            }
        }
    }
    best.map(|(_, w)| w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use fray_core::Pos;

    const WIZARD: &str = "class = \"wizard\"\nlevel = 5\nhp = 24\nscores = { dex = 14, con = 12, \
                          int = 17 }\nweapon = \"dagger\"\nspells = [\"haste\"]\ncaster_level = 5\n\
                          spell_dc = 16\nconcentration = 8";
    /// Brom of examples/celesia/support.toml: fighter 5, longsword, d20 + 9.
    const BROM: &str = "class = \"fighter\"\nlevel = 5\nhp = 45\nscores = { str = 16, dex = 12, \
                        con = 14 }\nweapon = \"longsword\"\narmor = \"chainmail\"";
    /// Pip: wizard 1, a dagger at d20 − 1.
    const PIP: &str = "class = \"wizard\"\nlevel = 1\nhp = 8\nscores = { str = 8, dex = 10, con = \
                       10 }\nweapon = \"dagger\"";
    /// The knight: DV 10 + 9 (full plate) + 4 (tower shield) + 1 (DEX 12, at most 1) = 24.
    const KNIGHT: &str = "class = \"fighter\"\nlevel = 5\nhp = 40\nscores = { str = 16, dex = 12, \
                          con = 14 }\nweapon = \"longsword\"\narmor = \"full plate\"\n\
                          shield = \"tower shield\"";

    fn haste(s: &State) -> u8 {
        s.spellbook
            .iter()
            .position(|sp| sp.key() == "haste")
            .unwrap() as u8
    }

    fn ready(mut s: State) -> State {
        for id in s.ids().collect::<Vec<_>>() {
            s.fm(id).acts_left = 3;
            s.fm(id).flat_footed = false;
        }
        s.order = s.ids().collect();
        s
    }

    /// Wyn, far from the orcs, hastes Brom (both worths reach the cap, a quarter of the orcs'
    /// 12 hit points; his blow is the stronger), then, Brom hasted, herself; never an orc; with
    /// both hasted, nothing. Alone, she hastes herself. [CEL-R3.4]
    #[test]
    fn a_wizard_hastes_the_fighter_then_herself_never_a_foe() {
        let mut s = ready(
            Fixture::new()
                .with("wyn", "heroes", [0, 0], WIZARD)
                .with("brom", "heroes", [2, 0], BROM)
                .monster("orc-1", "orcs", [12, 0], "orc")
                .monster("orc-2", "orcs", [12, 2], "orc")
                .state(),
        );
        let (wyn, brom) = (CombatantId(0), CombatantId(1));
        assert!(s.helping.0, "haste is in the spellbook");
        let h = haste(&s);
        assert_eq!(
            crate::caster_tactics::cast(&s, wyn),
            Some(Choice::Cast(h, Some(brom), false))
        );
        s.fm(brom).haste = Some((wyn, 6));
        assert_eq!(
            crate::caster_tactics::cast(&s, wyn),
            Some(Choice::Cast(h, Some(wyn), false)),
            "Brom is hasted already"
        );
        let spell = &s.spellbook[usize::from(h)];
        for orc in [CombatantId(2), CombatantId(3)] {
            assert_eq!(extra_acts_worth(&s, wyn, spell, 5, orc), None, "a foe");
        }
        s.fm(wyn).haste = Some((wyn, 6));
        assert_eq!(crate::caster_tactics::cast(&s, wyn), None, "both hasted");
        let alone = ready(
            Fixture::new()
                .with("wyn", "heroes", [0, 0], WIZARD)
                .monster("orc", "orcs", [12, 0], "orc")
                .state(),
        );
        assert_eq!(
            crate::caster_tactics::cast(&alone, wyn),
            Some(Choice::Cast(haste(&alone), Some(wyn), false)),
            "itself if alone"
        );
    }

    /// The worth of haste on Brom, worked from the rules' numbers: 5 rounds (1 per caster
    /// level) of one more blow, `B` = his hit chance on the nearest orc times 8.5 (1d8, STR 3
    /// and DEX 1), at most a quarter of the orcs' 12 hit points (6 each): 3. Without the flag
    /// (no helpful spell in the encounter) nothing is weighed.
    #[test]
    fn the_worth_of_haste_is_its_blows_capped_by_the_foes_hit_points() {
        let mut s = ready(
            Fixture::new()
                .with("wyn", "heroes", [0, 0], WIZARD)
                .with("brom", "heroes", [2, 0], BROM)
                .monster("orc-1", "orcs", [12, 0], "orc")
                .monster("orc-2", "orcs", [12, 2], "orc")
                .state(),
        );
        let (wyn, brom, orc) = (CombatantId(0), CombatantId(1), CombatantId(2));
        let h = usize::from(haste(&s));
        let blow = threat(&s, brom, orc);
        let (bonus, dv) = {
            let w = &s.p(brom).melee[0];
            bonus_and_dv(&s, brom, orc, w)
        };
        let a = f64::from((21 + bonus - dv).clamp(1, 19)) / 20.0;
        assert!((blow - a * 8.5).abs() < 1e-9, "{blow} = {a} × 8.5");
        let (worth, b) = extra_acts_worth(&s, wyn, &s.spellbook[h], 5, brom).unwrap();
        assert_eq!(b, blow);
        let hp = f64::from(s.f(orc).hp + s.f(CombatantId(3)).hp);
        assert_eq!(hp, 12.0);
        assert!((worth - (5.0 * blow).min(hp / 4.0)).abs() < 1e-9, "{worth}");
        s.helping = CacheFlag(false);
        assert_eq!(helpful_cast(&s, wyn, 0.0, 0.0), None);
    }

    /// The aid roll's bonus for each face: Pip's d20 − 1 against DV 10: −1 on a natural 1 (0,
    /// a full 10 under), 0 on 2–10 (under by 1–9), +1 on 11–20; d20 + 9: a natural 1 fails (10
    /// is no bonus), +1 on 2–10 (11–19), +2 on 11–20 (20–29). [CEL-R6.4, A3, A17]
    #[test]
    fn the_aid_bonus_by_face() {
        let pip: Vec<i32> = (1..=20).map(|d| aid_amount(d, -1)).collect();
        assert_eq!(pip[0], -1);
        assert!(pip[1..10].iter().all(|&k| k == 0));
        assert!(pip[10..].iter().all(|&k| k == 1));
        let strong: Vec<i32> = (1..=20).map(|d| aid_amount(d, 9)).collect();
        assert_eq!(strong[0], 0);
        assert!(strong[1..10].iter().all(|&k| k == 1));
        assert!(strong[10..].iter().all(|&k| k == 2));
    }

    /// Pip next to the knight that Brom fights: his dagger needs a natural 20 (d20 − 1 against
    /// DV 24: 0.05 × 1.5 hp), his aid on Brom's attack is worth 0.45 × 0.05 × 8.5 hp: he aids
    /// Brom's attack. The knight's ally next to it is never aided; Brom, who hits on 15, never
    /// aids; with an orc also next to Brom his next blow may go elsewhere: no aid. The DV aid
    /// counts where Brom is the one foe the knight threatens. [CEL-R9 Aid Another, R6.4]
    #[test]
    fn a_weak_ally_aids_the_fighter() {
        let mut s = ready(
            Fixture::new()
                .with("pip", "heroes", [0, 0], PIP)
                .with("brom", "heroes", [0, 2], BROM)
                .with("knight", "foes", [1, 1], KNIGHT)
                .with("squire", "foes", [2, 1], FIGHTER)
                .monster("orc", "foes", [20, 20], "orc")
                .state(),
        );
        let (pip, brom, knight, orc) = (
            CombatantId(0),
            CombatantId(1),
            CombatantId(2),
            CombatantId(4),
        );
        assert!(s.aiding.0, "Pip needs a natural 20 against the knight");
        let (bonus, dv) = bonus_and_dv(&s, pip, knight, &s.p(pip).melee[0]);
        assert_eq!((bonus, dv), (-1, 24));
        let (b, _) = bonus_and_dv(&s, brom, knight, &s.p(brom).melee[0]);
        assert_eq!(b, 9);
        let blow = Choice::Attack(knight, 0);
        let (gain, c) = aid(&s, pip, blow).expect("an aid");
        assert_eq!(c, Choice::Aid(brom, knight, AidTo::Attack));
        // Brom's mean damage: 1d8 + STR 3 + DEX 1 = 8.5; +1 adds 0.05, −1 takes 0.05.
        let expected = (10.0 - 1.0) / 20.0 * 0.05 * 8.5 - 0.05 * 1.5;
        assert!((gain - expected).abs() < 1e-9, "{gain} {expected}");
        assert_eq!(aid(&s, brom, blow), None, "Brom hits on a 15: he strikes");
        // The knight threatens Pip too: its next attack may not be on Brom, so the DV aid is
        // not counted.
        assert!(aid_worth(&s, brom, knight, AidTo::Defense, -1).is_none());
        // An orc next to Brom: his next blow may go at it.
        s.set_square(orc, Pos::new(-1, 3));
        assert_eq!(aid(&s, pip, blow), None);
        s.set_square(orc, Pos::new(20, 20));
        // Aided already in that way: the legality check refuses it again; the DV aid needs
        // the knight to threaten Brom alone (it threatens Pip too): nothing.
        s.fm(brom).aids.push(crate::state::Aid {
            aider: pip,
            foe: knight,
            to: AidTo::Attack,
            amount: 1,
        });
        assert_eq!(aid(&s, pip, blow), None);
        s.aiding = CacheFlag(false);
        s.fm(brom).aids.clear();
        assert_eq!(aid(&s, pip, blow), None, "the flag is off");
    }

    /// Where nobody needs a natural 18 (the benchmark fight's fighters and goblins), the flag
    /// is off and the aid is never weighed; no helpful spell, no haste weighed.
    #[test]
    fn the_flags_are_off_without_a_poor_attacker_or_a_helpful_spell() {
        let s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .with("ann", "heroes", [0, 1], FIGHTER)
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        assert!(!s.aiding.0);
        assert!(!s.helping.0);
    }

    /// The same choices whatever the roster order. [mirror fairness]
    #[test]
    fn the_choice_does_not_depend_on_the_roster_order() {
        let s = ready(
            Fixture::new()
                .with("knight", "foes", [1, 1], KNIGHT)
                .with("brom", "heroes", [0, 2], BROM)
                .with("pip", "heroes", [0, 0], PIP)
                .state(),
        );
        let (knight, brom, pip) = (CombatantId(0), CombatantId(1), CombatantId(2));
        assert_eq!(
            aid(&s, pip, Choice::Attack(knight, 0)).map(|(_, c)| c),
            Some(Choice::Aid(brom, knight, AidTo::Attack))
        );
    }
}
