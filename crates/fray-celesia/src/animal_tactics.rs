//! The default tactics of trained animals and their handlers (CEL-R9 Handle an Animal, R12 Push
//! an Animal; docs/celesia.md *Default tactics*). A handler whose animal has no command, or
//! whose `attack` foe is down, handles it with `attack` at the animal's nearest foe (only if
//! it knows `attack`: the default tactics push nothing). The animal does what its command
//! says: `attack FOE` goes at FOE as a confused creature bound to a foe does
//! ([`crate::rules::confusion::go_at`]); `come`, `heel` move next to the handler; `defend`
//! goes at the weakest foe next to its handler, else moves next to it; `down` takes total
//! defense next to a foe, else nothing; `guard` attacks the weakest foe next to it where it
//! stands; `stay` and no command, nothing.

use crate::choice::Choice;
use crate::rules::animal::{current, trained, Trick};
use crate::rules::confusion::go_at;
use crate::rules::legal::check_action;
use crate::state::State;
use fray_core::{Board, CombatantId};

fn legal(state: &State, who: CombatantId, c: Choice) -> Option<Choice> {
    check_action(false, state, who, &c).ok().map(|()| c)
}

/// The default action of `who` if it is a trained animal or a handler with an animal waiting
/// for a command (one look at its profile otherwise).
#[inline]
pub fn turn(state: &State, who: CombatantId) -> Option<Choice> {
    // At every decision: this test inline in the caller, the rest out of line (issue 16).
    if state.p(who).animal.is_none() && !state.p(who).handles {
        return None;
    }
    animal_or_handler_turn(state, who)
}

/// [`turn`], for a trained animal or a handler.
#[inline(never)]
fn animal_or_handler_turn(state: &State, who: CombatantId) -> Option<Choice> {
    let p = state.p(who);
    if p.animal.is_none() && !p.handles {
        return None;
    }
    animal(state, who).or_else(|| handler(state, who))
}

/// A handler's command to an animal of its that waits for one: `attack` at the animal's
/// nearest foe, if it knows `attack` (the animals in roster order).
pub fn handler(state: &State, who: CombatantId) -> Option<Choice> {
    if !state.p(who).handles {
        return None;
    }
    state.ids().find_map(|a| {
        let t = trained(state, a).filter(|t| t.handler == who)?;
        if !t.tricks.knows(Trick::Attack) || !state.up(a) || current(state, a).is_some() {
            return None;
        }
        let foe = state.nearest_foe(a)?;
        legal(state, who, Choice::Handle(a, Trick::Attack, Some(foe)))
    })
}

/// A trained animal's action under its command (`None` if `who` is none).
pub fn animal(state: &State, who: CombatantId) -> Option<Choice> {
    let handler = trained(state, who)?.handler;
    let Some(command) = current(state, who) else {
        return Some(Choice::End);
    };
    let to_handler = || {
        (state.gap(who, handler) > 1)
            .then(|| legal(state, who, Choice::Approach(handler)))
            .flatten()
    };
    let pick = match command.trick {
        Trick::Attack => command.target.and_then(|t| go_at(state, who, t)),
        Trick::Come | Trick::Heel => to_handler(),
        Trick::Defend => {
            let mut foes: Vec<CombatantId> = state
                .ids()
                .filter(|&o| state.enemies(handler, o) && state.up(o))
                .filter(|&o| state.gap(handler, o) == 1)
                .collect();
            foes.sort_by_key(|&o| (state.f(o).hp, o));
            foes.into_iter()
                .find_map(|o| go_at(state, who, o))
                .or_else(to_handler)
        }
        Trick::Down => {
            let threatened = state
                .nearest_foe(who)
                .is_some_and(|o| state.threatens(o, who));
            (threatened && state.f(who).total_defense == 0)
                .then(|| legal(state, who, Choice::TotalDefense))
                .flatten()
        }
        Trick::Guard => {
            let mut foes: Vec<CombatantId> = state
                .ids()
                .filter(|&o| state.enemies(who, o) && state.up(o) && state.gap(who, o) == 1)
                .collect();
            foes.sort_by_key(|&o| (state.f(o).hp, o));
            foes.into_iter()
                .find_map(|o| legal(state, who, Choice::Attack(o, 0)))
        }
        Trick::Stay => None,
    };
    Some(pick.unwrap_or(Choice::End))
}
