//! When the default tactics use the initiator's stances, strikes, boosts and counters (issue
//! 16; CEL-R9, R11, R12, R14, R15; the policy in docs/celesia.md, "Default tactics"). Nothing
//! here is looked at for a combatant that knows none (`Profile::known == 0`: every bench fight):
//!
//! - with no stance active it takes the first stance it knows (a free action);
//! - a strike replaces the blows its acts could be (2 for a standard strike, 3 for a full-attack
//!   or full-round one): it is taken when its expected damage, `n·a′·(D + d + b)` for its `n`
//!   attacks, beats `acts·a·D` (`a`, `a′`: the blow's and the strike's chance to hit, `D` the
//!   blow's mean damage, `d` and `b` the strike's mean dice and bonus), the strike with the
//!   greatest gain first;
//! - a boost replaces one blow, `a·D`, and is worth what it adds to the `k` blows its act leaves
//!   this turn, `k·(a″·(D + d + b) − a·D)` (`a″`: the chance to hit with its attack bonus), and,
//!   if it holds until the start of its next turn, what its DV bonus takes from each foe
//!   threatening it now: 3 blows of that foe (an act budget) times the fall of its chance to
//!   hit times its mean damage; the boost of the greatest gain is taken when that gain is
//!   above 0;
//! - attacked with a reaction left, it counters with the readied counter of the largest DV
//!   bonus.

use crate::choice::Choice;
use crate::content::WeaponKind;
use crate::initiator::Until;
use crate::maneuver_tactics::{bonus_and_dv, chance, mean_damage};
use crate::rules::legal::check_action;
use crate::state::State;
use fray_core::{CombatantId, DamageDice};

/// The blows a foe is counted to make on a combatant before its next turn (one act budget,
/// CEL-R3.2), for a boost's DV bonus.
const FOE_BLOWS: f64 = 3.0;

/// The mean of damage dice (0 without).
fn mean_dice(dice: Option<DamageDice>) -> f64 {
    dice.map_or(0.0, |x| {
        f64::from(x.count) * (f64::from(x.sides) + 1.0) / 2.0 + f64::from(x.bonus)
    })
}

/// The readied counter of `reactor` with the largest DV bonus (the first of equals), else
/// decline. [CEL-R15]
pub fn counter(state: &State, reactor: CombatantId) -> Choice {
    let mut options = Vec::new();
    crate::rules::counter::options(state, reactor, &mut options);
    options
        .iter()
        .filter_map(|c| match *c {
            Choice::Counter(m) => state
                .maneuver_book
                .get(usize::from(m))
                .and_then(|e| e.counter())
                .map(|k| (k.dv, m)),
            _ => None,
        })
        .fold(None, |best: Option<(i32, u8)>, x| match best {
            Some(b) if b.0 >= x.0 => Some(b),
            _ => Some(x),
        })
        .map_or(Choice::Decline, |(_, m)| Choice::Counter(m))
}

/// With no stance active, the first stance it knows it may take now. [CEL-R14]
#[inline]
pub fn stance(state: &State, who: CombatantId) -> Option<Choice> {
    // At every decision: this test inline in the caller, the rest out of line (issue 16).
    if state.p(who).known == 0 || state.f(who).stance.is_some() {
        return None;
    }
    first_stance(state, who)
}

/// [`stance`], for an initiator with no stance.
#[inline(never)]
fn first_stance(state: &State, who: CombatantId) -> Option<Choice> {
    if state.p(who).known == 0 || state.f(who).stance.is_some() {
        return None;
    }
    (0..state.maneuver_book.len())
        .map(|i| Choice::Stance(i as u8))
        .find(|c| check_action(false, state, who, c).is_ok())
}

/// The strike on the foe of `blow` (an `Attack` with a melee form) that gains most over the
/// blows its acts replace, with that gain (hit points, > 0). [CEL-R11, R12]
#[inline]
pub fn strike_gain(state: &State, who: CombatantId, blow: Choice) -> Option<(f64, Choice)> {
    // At every decision: this test inline in the caller, the rest out of line (issue 16).
    if state.p(who).known == 0 || state.f(who).acts_left < 2 {
        return None;
    }
    best_strike(state, who, blow)
}

/// A plain melee blow the tactics weigh a strike or a boost against: its foe, its attack bonus
/// against that foe's DV, its chance to hit and its mean damage.
struct Blow {
    target: CombatantId,
    bonus: i32,
    dv: i32,
    plain: f64,
    damage: f64,
}

impl Blow {
    /// `blow` (an `Attack` with a melee form) as the tactics value it, or `None`.
    fn of(state: &State, who: CombatantId, blow: Choice) -> Option<Blow> {
        let Choice::Attack(target, form) = blow else {
            return None;
        };
        let w = state.p(who).melee.get(usize::from(form))?;
        let (bonus, dv) = bonus_and_dv(state, who, target, w);
        Some(Blow {
            target,
            bonus,
            dv,
            plain: chance(bonus, dv, 0, true),
            damage: mean_damage(state, who, w),
        })
    }
}

/// [`strike_gain`], for an initiator with two acts.
#[inline(never)]
fn best_strike(state: &State, who: CombatantId, blow: Choice) -> Option<(f64, Choice)> {
    if state.p(who).known == 0 || state.f(who).acts_left < 2 {
        return None;
    }
    let Blow {
        target: t,
        dv,
        plain,
        damage: d,
        ..
    } = Blow::of(state, who, blow)?;
    // The strike's own weapon (`rules::strike::form`), which may not be the blow's.
    let sw = state
        .p(who)
        .melee
        .get(usize::from(crate::rules::strike::form(state, who)?))?;
    let (strike_bonus, _) = bonus_and_dv(state, who, t, sw);
    let strike_d = mean_damage(state, who, sw);
    let mut best: Option<(f64, Choice)> = None;
    for (i, m) in state.maneuver_book.iter().enumerate() {
        let Some(s) = m.strike() else {
            continue;
        };
        let pick = Choice::Strike(i as u8, t);
        if check_action(false, state, who, &pick).is_err() {
            continue;
        }
        let dice = mean_dice(s.dice);
        let hit = chance(strike_bonus + s.attack, dv, 0, true);
        let (attacks, acts) = (f64::from(s.attacks), f64::from(s.initiation.acts()));
        let gain = attacks * hit * (strike_d + dice + f64::from(s.damage)) - acts * plain * d;
        if gain > 0.0 && best.is_none_or(|(g, _)| gain > g) {
            best = Some((gain, pick));
        }
    }
    best
}

/// The boost that gains most over the blow `blow` (an `Attack` with a melee form) whose act it
/// takes, with that gain (hit points, > 0). [CEL-R9]
pub fn boost_gain(state: &State, who: CombatantId, blow: Choice) -> Option<(f64, Choice)> {
    if state.p(who).known == 0 {
        return None;
    }
    let Blow {
        bonus,
        dv,
        plain,
        damage: d,
        ..
    } = Blow::of(state, who, blow)?;
    let after = f64::from(state.f(who).acts_left - 1);
    let mut best: Option<(f64, Choice)> = None;
    for (i, m) in state.maneuver_book.iter().enumerate() {
        let Some(b) = m.boost() else {
            continue;
        };
        let pick = Choice::Boost(i as u8);
        if check_action(false, state, who, &pick).is_err() {
            continue;
        }
        let boosted = chance(bonus + b.attack, dv, 0, true);
        let blows = after * (boosted * (d + mean_dice(b.dice) + f64::from(b.damage)) - plain * d);
        let guard = if b.until == Until::StartOfNextTurn && b.dv != 0 {
            guarded(state, who, b.dv)
        } else {
            0.0
        };
        let gain = blows + guard - plain * d;
        if gain > 0.0 && best.is_none_or(|(g, _)| gain > g) {
            best = Some((gain, pick));
        }
    }
    best
}

/// What a DV bonus of `dv` until `who`'s next turn takes from the foes up threatening it now:
/// [`FOE_BLOWS`] blows each, times the fall of its chance to hit, times its mean damage.
fn guarded(state: &State, who: CombatantId, dv: i32) -> f64 {
    let mut worth = 0.0;
    state.each_foe_within(who, state.reach_squares, |o| {
        if !state.up(o) || !state.threatens(o, who) {
            return;
        }
        // Its blow as `maneuver_tactics::blow_odds` has it: the first usable melee form.
        let improved = state.p(o).feats.improved_unarmed;
        let Some((_, w)) = state
            .melee_forms(o)
            .find(|(_, w)| w.kind != WeaponKind::Unarmed || improved)
        else {
            return;
        };
        let (bonus, versus) = bonus_and_dv(state, o, who, w);
        let fall = chance(bonus, versus, 0, true) - chance(bonus, versus + dv, 0, true);
        worth += FOE_BLOWS * fall * mean_damage(state, o, w);
    });
    worth
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::stance::tests::initiator;

    /// The default tactics: the first stance while none is active, the readied counter when
    /// attacked (decline once it is expended), and no strike that does not beat two
    /// blows (sapphire cut: +2 and 1d6 against a longsword's two blows at DV 14).
    #[test]
    fn stance_counter_and_strike_choices() {
        let (kay, orc) = (CombatantId(0), CombatantId(1));
        let mut s = initiator();
        assert_eq!(stance(&s, kay), Some(Choice::Stance(0)));
        assert_eq!(stance(&s, orc), None);
        s.fm(kay).stance = Some(1);
        assert_eq!(stance(&s, kay), None);
        s.fm(kay).reactions = 1;
        assert_eq!(counter(&s, kay), Choice::Counter(3));
        s.fm(kay).maneuvers_spent[3] = 1;
        assert_eq!(counter(&s, kay), Choice::Decline, "expended");
        assert_eq!(strike_gain(&s, kay, Choice::Attack(orc, 0)), None);
        assert_eq!(strike_gain(&s, orc, Choice::Attack(kay, 0)), None);
    }
}
