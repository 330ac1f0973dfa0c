//! The default tactics: what a sensible player (or the DM) would choose. They only choose
//! legal options.

use crate::choice::{Between, Flight};
use crate::content::Reaction;
use crate::rules::legal;
use crate::state::State;
use crate::Choice;
use fray_core::protocol::{ChoiceRequest, Chooser, Question};
use fray_core::CombatantId;

/// Foes able to fight, nearest first (ties: fewest hit points, then roster order).
fn foes_by_distance(state: &State, id: CombatantId) -> Vec<CombatantId> {
    let at = state.f(id).pos;
    let mut foes: Vec<CombatantId> = state
        .ids()
        .filter(|&o| state.foes(id, o) && state.f(o).is_up())
        .collect();
    foes.sort_by_key(|&o| (at.squares_to(state.f(o).pos), state.f(o).hp, o.0));
    foes
}

/// The default choice for a request.
pub fn choose(state: &State, request: &ChoiceRequest<'_, Choice>) -> Choice {
    let id = match request.chooser {
        // ODD-R30.3, R30.5: fray has no map: the quarry stays in sight unless the DM says.
        // (The rule names the ruling: option lists are not built for every driver.)
        Chooser::Gm if request.rule == "ODD-R30.5" => return Choice::Between(Between::InSight),
        // ODD-R13: the object holds unless the DM rules it chopped through.
        Chooser::Gm if request.rule == "ODD-R13" => return Choice::Chopped(false),
        Chooser::Gm => {
            return match state.reaction {
                Some(Reaction::Friendly) => Choice::Parley,
                _ => Choice::Fight,
            }
        }
        Chooser::Combatant(id) => id,
    };
    let ok = |c: Choice| legal::check(false, state, id, request.question, &c).is_ok();
    let foes = foes_by_distance(state, id);
    match request.question {
        Question::Declaration => {
            let spells = &state.p(id).spells;
            for (s, spell) in spells.iter().enumerate() {
                if spell.damage.is_some() {
                    if let Some(&t) = foes.iter().find(|&&t| ok(Choice::Cast(s as u8, t))) {
                        return Choice::Cast(s as u8, t);
                    }
                } else {
                    let hurt = state.ids().find(|&a| {
                        !state.foes(id, a)
                            && state.f(a).is_up()
                            && 2 * state.f(a).hp <= state.f(a).max_hp
                            && ok(Choice::Cast(s as u8, a))
                    });
                    if let Some(a) = hurt {
                        return Choice::Cast(s as u8, a);
                    }
                }
            }
            Choice::Nothing
        }
        // ODD-R5.6: a routed combatant runs away from the nearest foe.
        Question::Action if state.routed(id) => Choice::Retreat(Flight::Away),
        Question::Action => {
            // In melee: the weakest foe within reach.
            let weakest = foes
                .iter()
                .copied()
                .filter(|&t| state.in_melee(id, t) && ok(Choice::Attack(t)))
                .min_by_key(|&t| (state.f(t).hp, t.0));
            if let Some(t) = weakest {
                return Choice::Attack(t);
            }
            // Engaged, they do not move through the line (ODD-R17.4): only the controller does.
            let engaged = state.engaged(id);
            let through = |t: CombatantId| engaged && !state.in_melee(id, t);
            for make in [Choice::Shoot, Choice::Attack, Choice::Charge, Choice::Run] {
                let skip = |t: CombatantId| make(t) == Choice::Attack(t) && through(t);
                if let Some(&t) = foes.iter().find(|&&t| !skip(t) && ok(make(t))) {
                    return make(t);
                }
            }
            Choice::Nothing
        }
        Question::Ruling => Choice::Fight,
        // A player chases a fleeing foe it is faster than (it would catch it, ODD-R30.7);
        // throws down no food or treasure (fray keeps no packs): the controller may.
        Question::Reaction => match (state.set_against, state.pursuing) {
            (Some(t), _) => Choice::Attack(t),
            (None, Some(q)) if state.move_inches(id) > state.move_inches(q) => Choice::Pursue(q),
            _ => Choice::Nothing,
        },
    }
}
