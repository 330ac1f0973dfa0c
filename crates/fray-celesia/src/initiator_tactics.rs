//! When the default tactics use the initiator's stances, strikes and counters (issue 16;
//! CEL-R11, R14, R15; the policy in docs/celesia.md, "Default tactics"). Nothing here is looked
//! at for a combatant that knows none (`Profile::known == 0`: every bench fight):
//!
//! - with no stance active it takes the first stance it knows (a free action);
//! - a strike replaces the two blows its two acts could be: it is taken when its expected
//!   damage, `a′·(D + d + b)`, beats `2·a·D` (`a`, `a′`: the blow's and the strike's chance to
//!   hit, `D` the blow's mean damage, `d` and `b` the strike's mean dice and bonus), the
//!   strike with the greatest gain first;
//! - attacked with a reaction left, it counters with the readied counter of the largest DV
//!   bonus.

use crate::choice::Choice;
use crate::maneuver_tactics::{bonus_and_dv, chance, mean_damage};
use crate::rules::legal::check_action;
use crate::state::State;
use fray_core::CombatantId;

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

/// The strike on the foe of `blow` (an `Attack` with a melee form) that gains most over the two
/// blows its acts replace, with that gain (hit points, > 0). [CEL-R11]
#[inline]
pub fn strike_gain(state: &State, who: CombatantId, blow: Choice) -> Option<(f64, Choice)> {
    // At every decision: this test inline in the caller, the rest out of line (issue 16).
    if state.p(who).known == 0 || state.f(who).acts_left < 2 {
        return None;
    }
    best_strike(state, who, blow)
}

/// [`strike_gain`], for an initiator with two acts.
#[inline(never)]
fn best_strike(state: &State, who: CombatantId, blow: Choice) -> Option<(f64, Choice)> {
    if state.p(who).known == 0 || state.f(who).acts_left < 2 {
        return None;
    }
    let Choice::Attack(t, form) = blow else {
        return None;
    };
    let w = state.p(who).melee.get(usize::from(form))?;
    let (bonus, dv) = bonus_and_dv(state, who, t, w);
    let plain = chance(bonus, dv, 0, true);
    let d = mean_damage(state, who, w);
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
        let dice = s.dice.map_or(0.0, |x| {
            f64::from(x.count) * (f64::from(x.sides) + 1.0) / 2.0 + f64::from(x.bonus)
        });
        let hit = chance(strike_bonus + s.attack, dv, 0, true);
        let gain = hit * (strike_d + dice + f64::from(s.damage)) - 2.0 * plain * d;
        if gain > 0.0 && best.is_none_or(|(g, _)| gain > g) {
            best = Some((gain, pick));
        }
    }
    best
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
