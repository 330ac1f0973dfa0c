//! Default tactics for C&C: close and attack, focus fire on the weakest foe in reach, shoot when
//! not engaged, charge when the distance is right, tend dying friends when safe, and disengage
//! when badly hurt, outnumbered and able to fight from range. The simulator reuses this policy.

use crate::choice::{Choice, Pace};
use crate::rules::damage::needs_aid;
use crate::rules::movement::strike_square;
use crate::state::State;
use fray_core::protocol::{ChoiceRequest, Chooser, Question};
use fray_core::CombatantId;

/// The default choice for a request.
pub fn choose(state: &State, request: &ChoiceRequest<'_, Choice>) -> Choice {
    let options = request.options;
    let Chooser::Combatant(me) = request.chooser else {
        return options[0];
    };
    match request.question {
        Question::Reaction => {
            if options.contains(&Choice::Yes) {
                Choice::Yes
            } else {
                options[0]
            }
        }
        Question::Declaration => declaration(state, me, options),
        Question::Action | Question::Ruling => action(state, me, options),
    }
}

fn nearest_foe(state: &State, me: CombatantId) -> Option<CombatantId> {
    let pos = state.f(me).pos;
    state
        .ids()
        .filter(|&o| state.enemies(me, o) && state.f(o).is_up())
        .min_by_key(|&o| (pos.squares_to(state.f(o).pos), state.f(o).hp, o))
}

fn declaration(state: &State, me: CombatantId, options: &[Choice]) -> Choice {
    let f = state.f(me);
    let p = state.p(me);
    let engaged = state.engaged_foes(me, state.round).count();
    // Badly hurt, outnumbered, and able to keep fighting from range: step back.
    if engaged >= 2
        && f.hp * 4 <= p.max_hp
        && p.ranged.is_some()
        && options.contains(&Choice::DisengageFighting)
    {
        return Choice::DisengageFighting;
    }
    if engaged == 0 {
        if let Some(target) = nearest_foe(state, me) {
            let reachable = strike_square(state, me, target, p.reach(), p.movement / 2).is_some();
            if !reachable && options.contains(&Choice::Charge(target)) {
                return Choice::Charge(target);
            }
        }
    }
    Choice::NoDeclaration
}

fn action(state: &State, me: CombatantId, options: &[Choice]) -> Choice {
    if options.contains(&Choice::BreakHold) {
        return Choice::BreakHold;
    }
    let weakest = |pick: &dyn Fn(&Choice) -> Option<CombatantId>| {
        options
            .iter()
            .filter_map(|c| pick(c).map(|t| (state.f(t).hp, t, *c)))
            .min_by_key(|&(hp, t, _)| (hp, t))
            .map(|(_, _, c)| c)
    };
    let engaged = state.engaged_foes(me, state.round).next().is_some();
    // Tend a dying friend when no foe is at hand.
    if !engaged {
        if let Some(c) = options
            .iter()
            .find(|c| matches!(c, Choice::Aid(t) if needs_aid(state, *t)))
        {
            return *c;
        }
    }
    if let Some(c) = weakest(&|c| match c {
        Choice::TwoWeapons(t) => Some(*t),
        _ => None,
    }) {
        return c;
    }
    if let Some(c) = weakest(&|c| match c {
        Choice::Attack(t) => Some(*t),
        _ => None,
    }) {
        return c;
    }
    if !engaged {
        // Shoot the nearest foe in range, the weakest among equals.
        let pos = state.f(me).pos;
        if let Some(c) = options
            .iter()
            .filter_map(|c| match c {
                Choice::Shoot(t) => Some((pos.squares_to(state.f(*t).pos), state.f(*t).hp, *t, *c)),
                _ => None,
            })
            .min_by_key(|&(d, hp, t, _)| (d, hp, t))
            .map(|x| x.3)
        {
            return c;
        }
    }
    if let Some(c) = weakest(&|c| match c {
        Choice::Pummel(t) => Some(*t),
        _ => None,
    }) {
        return c;
    }
    if let Some(target) = nearest_foe(state, me) {
        for pace in [Pace::Run, Pace::Jog, Pace::Walk] {
            if options.contains(&Choice::Advance(target, pace)) {
                return Choice::Advance(target, pace);
            }
        }
    }
    Choice::Hold
}
