//! When the default tactics trip or disarm instead of striking (issue 16; the policy is written
//! out in docs/celesia.md, "Default tactics"). Each act is valued by the damage it is expected
//! to deal or spare over the exchange it changes, in hit points, from the rules' own numbers:
//!
//! - a hit chance `a`: d20 + attack bonus against DV, a natural 20 hitting and a natural 1
//!   missing (CEL-A3), without the attack's other advantage or disadvantage sources; `a⁺` the
//!   same with advantage (two d20s, the higher kept, CEL-R4.5); a maneuver's chance from d20 +
//!   CMB against CMD (CEL-R10.1);
//! - `D`, the mean damage of a hit: the weapon's mean dice and its static bonuses (ability,
//!   weapon, CEL-R5); degrees of success and criticals are left out.
//!
//! The plain attack on the chosen foe is worth `a·D`. A foe that a mean hit would bring to 0 hit
//! points or below is always struck (a foe down acts no more, which the model does not weigh).
//! Otherwise a maneuver on that foe is taken instead when its worth is greater (a trip before a
//! disarm when both are worth the same):
//!
//! - **Trip** (CEL-R10.6), success chance `p`, chance `q` of failing by 10 or more (the tripper
//!   falls): `p·(k·(a⁺ − a)·D + E + a⁺·D) − q·(a·D + E)`, where `k` is the acts left after
//!   the trip (each attack gains the prone foe's advantage: `a⁺`), `E` the foe's expected
//!   damage in one act against the tripper (the act it spends standing up; its first usable
//!   melee form), and `a⁺·D` the
//!   tripper's attack of opportunity when it stands (Stand Up provokes, CEL-R9). Failing by
//!   10, the tripper loses an act standing up and the foe gets its attack of opportunity.
//! - **Disarm** (CEL-R10.3) of the foe's first usable form when it is a held weapon:
//!   `p·(E + a·D) − q·(a·D + E)`: the foe spends an act picking it up, which provokes the
//!   disarmer's attack of opportunity (CEL-R9 Manipulate an Item); failing by 10, the disarmer
//!   drops its own weapon and pays the same.
//!
//! Other maneuvers (bull rush, grapple, overrun, sunder, drag, reposition, steal, dirty trick)
//! deal no damage and cost the foe no act in this model, so they never beat the attack and are
//! not chosen. Everything is a function of the state: the same state gives the same choice,
//! whatever the file order.

use crate::choice::Choice;
use crate::content::{Weapon, WeaponKind};
use crate::rules::attack::{ability_damage, attack_bonus_into, cmb_into, cmd_into, defense_into};
use crate::rules::legal::check_action;
use crate::rules::Total;
use crate::state::{Item, State};
use fray_core::CombatantId;

/// The chance that a d20 + `bonus` reaches `versus` with `net` advantage (> 0) or
/// disadvantage (< 0); `naturals`: a natural 20 always succeeds and a natural 1 always fails
/// (attacks, CEL-A3), not maneuver checks.
pub fn chance(bonus: i32, versus: i32, net: i32, naturals: bool) -> f64 {
    let (lo, hi) = if naturals { (1, 19) } else { (0, 20) };
    let one = f64::from((21 + bonus - versus).clamp(lo, hi)) / 20.0;
    let dice = net.unsigned_abs().min(31) as i32 + 1;
    if net > 0 {
        1.0 - (1.0 - one).powi(dice)
    } else if net < 0 {
        one.powi(dice)
    } else {
        one
    }
}

/// The chance a maneuver check fails by 10 or more: d20 + `bonus` ≤ `versus` − 10.
fn fumble(bonus: i32, versus: i32) -> f64 {
    f64::from((versus - 10 - bonus).clamp(0, 20)) / 20.0
}

/// The mean damage of a hit with `w`: mean dice + ability and weapon bonuses. [CEL-R5]
pub fn mean_damage(state: &State, who: CombatantId, w: &Weapon) -> f64 {
    let mut m = Total::default();
    ability_damage(state, who, w, &mut m);
    let dice = f64::from(w.damage.count) * (f64::from(w.damage.sides) + 1.0) / 2.0;
    (dice + f64::from(m.0 + w.damage.bonus)).max(0.0)
}

/// `who`'s attack bonus with `w` on `target` and `target`'s DV, without the attack's advantage
/// or disadvantage. [CEL-R4]
pub fn bonus_and_dv(
    state: &State,
    who: CombatantId,
    target: CombatantId,
    w: &Weapon,
) -> (i32, i32) {
    // Totals only (`Total`): the rules' modifiers, without a list of their names.
    let mut bonus = Total::default();
    attack_bonus_into(state, who, w, state.feet_between(who, target), &mut bonus);
    let mut defense = Total::default();
    defense_into(state, target, &mut defense);
    (bonus.0, 10 + defense.0)
}

/// `who`'s chances to hit `target` with `w`: plain, and with advantage (a prone foe).
fn hits(state: &State, who: CombatantId, target: CombatantId, w: &Weapon) -> (f64, f64) {
    let (bonus, dv) = bonus_and_dv(state, who, target, w);
    (chance(bonus, dv, 0, true), chance(bonus, dv, 1, true))
}

/// `who`'s expected damage in one attack on `target` with its first usable melee form (the
/// one the default tactics strike with when they have one form; 0 without one).
pub(crate) fn threat(state: &State, who: CombatantId, target: CombatantId) -> f64 {
    blow_odds(state, who, target).map_or(0.0, |(a, d)| a * d)
}

/// [`threat`]'s parts: `who`'s chance `a` to hit `target` in one attack with its first usable
/// melee form, and the mean damage `D` of a hit; `None` without such a form.
pub(crate) fn blow_odds(
    state: &State,
    who: CombatantId,
    target: CombatantId,
) -> Option<(f64, f64)> {
    state
        .melee_forms(who)
        .find(|(_, w)| w.kind != WeaponKind::Unarmed || state.p(who).feats.improved_unarmed)
        .map(|(_, w)| (hits(state, who, target, w).0, mean_damage(state, who, w)))
}

/// The maneuver the default tactics take instead of `attack` (an `Attack` on its foe with a
/// melee form), if one is worth more. [issue 16; CEL-R10.3, R10.6]
pub fn better(state: &State, who: CombatantId, attack: Choice) -> Option<Choice> {
    best(state, who, attack).map(|(_, c)| c)
}

/// The maneuver worth more than `attack`, with what it gains over it (hit points, > 0). A foe
/// a mean hit would bring to 0 hit points or below is struck (a foe down acts no more: the
/// model does not weigh that, so it does not trade it away). [issue 16; CEL-R10.3, R10.6]
pub fn best(state: &State, who: CombatantId, attack: Choice) -> Option<(f64, Choice)> {
    let Choice::Attack(t, form) = attack else {
        return None;
    };
    let (p, ft) = (state.p(t), state.f(t));
    let trippable = p.legs > 0 && !ft.prone;
    let disarmable = state
        .melee_forms(t)
        .next()
        .and_then(|(i, _)| u8::try_from(i).ok())
        .map(Item::Melee)
        .filter(|&i| state.held(t, i).is_some());
    if !trippable && disarmable.is_none() {
        return None;
    }
    let w = state.p(who).melee.get(usize::from(form))?;
    let d = mean_damage(state, who, w);
    if d >= f64::from(ft.hp) {
        return None;
    }
    let (a, up) = hits(state, who, t, w);
    let plain = a * d;
    let e = threat(state, t, who);
    let (mut check, mut defense) = (Total::default(), Total::default());
    cmb_into(state, who, &mut check);
    cmd_into(state, t, false, &mut defense);
    let (check, versus) = (check.0, 10 + defense.0);
    let mut best: Option<(f64, Choice)> = None;
    if trippable {
        // +2 CMD per leg beyond two against a trip (CEL-R10.6).
        let versus = versus + 2 * (p.legs - 2).max(0);
        let (pt, qt) = (chance(check, versus, 0, false), fumble(check, versus));
        let k = f64::from((state.f(who).acts_left - 1).max(0));
        let worth = pt * (k * (up - a) * d + e + up * d) - qt * (plain + e);
        best = Some((worth, Choice::Trip(t)));
    }
    if let Some(item) = disarmable {
        let (pd, qd) = (chance(check, versus, 0, false), fumble(check, versus));
        let worth = pd * (e + plain) - qd * (plain + e);
        if best.is_none_or(|(b, _)| worth > b) {
            let item = crate::rules::belonging::Belonging::Weapon(item);
            best = Some((worth, Choice::Disarm(t, item, None)));
        }
    }
    best.filter(|&(worth, _)| worth > plain)
        .map(|(worth, c)| (worth - plain, c))
        .filter(|(_, c)| check_action(false, state, who, c).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    #[test]
    fn chances_follow_the_d20_pool() {
        assert_eq!(chance(5, 16, 0, true), 0.5);
        assert_eq!(chance(5, 16, 1, true), 0.75);
        assert_eq!(chance(5, 16, -1, true), 0.25);
        assert_eq!(chance(30, 16, 0, true), 0.95, "a natural 1 misses");
        assert_eq!(chance(30, 16, 0, false), 1.0, "maneuvers have no naturals");
        assert_eq!(fumble(5, 20), 0.25, "a d20 of 1–5 fails by 10 or more");
    }

    /// A strong fighter trips a sturdy orc rather than strike it (the orc's falchion makes its lost act
    /// worth much); with one act left, striking a foe already prone is all there is.
    #[test]
    fn a_strong_fighter_trips_an_orc_rather_than_strike_it() {
        let mut s = Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nscores = {{ str = 18, dex = 14, con = 14 }}"),
            )
            .with("orc", "orcs", [1, 0], "monster = \"orc\"\nhp = 30")
            .state();
        let (hal, orc) = (CombatantId(0), CombatantId(1));
        s.fm(hal).acts_left = 3;
        assert_eq!(
            better(&s, hal, Choice::Attack(orc, 0)),
            Some(Choice::Trip(orc))
        );
        s.fm(orc).prone = true;
        s.fm(hal).acts_left = 1;
        let pick = better(&s, hal, Choice::Attack(orc, 0));
        assert_ne!(pick, Some(Choice::Trip(orc)), "already prone");
        // A foe a mean hit drops (10.5 ≥ 6 hp) is struck.
        s.fm(orc).prone = false;
        s.fm(orc).hp = 6;
        assert_eq!(better(&s, hal, Choice::Attack(orc, 0)), None);
    }

    /// A weak striker against a sturdy foe keeps attacking: the maneuver would rarely succeed.
    #[test]
    fn a_weak_striker_keeps_attacking() {
        let mut s = Fixture::new()
            .with(
                "wil",
                "heroes",
                [0, 0],
                "class = \"wizard\"\nlevel = 1\nhp = 8\nweapon = \"dagger\"\n\
                 scores = { str = 8, dex = 10, con = 10 }",
            )
            .monster("ogre", "ogres", [1, 0], "ogre")
            .state();
        s.fm(CombatantId(0)).acts_left = 3;
        assert_eq!(
            better(&s, CombatantId(0), Choice::Attack(CombatantId(1), 0)),
            None
        );
    }
}
