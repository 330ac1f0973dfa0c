//! The default tactics: what a sensible player of a combatant would choose. Always legal (the
//! property tests hold it to the offered options).

use crate::choice::Action;
use crate::content::SpellEffect;
use crate::rules::attack::{self, Form};
use crate::rules::{legal, movement};
use crate::state::{Asking, State};
use crate::Choice;
use fray_core::protocol::ChoiceRequest;
use fray_core::CombatantId;

/// Chooses an answer to the pending question.
pub fn choose(state: &State, request: &ChoiceRequest<'_, Choice>) -> Choice {
    match state.asking {
        Some(Asking::Declaration(who)) => declare(state, who),
        Some(Asking::PartingShot { by, at }) | Some(Asking::FreeAttack { by, at }) => {
            let forms = attack::free_forms(state, by, at);
            best_form(state, by, &forms).map_or(Choice::No, Choice::Yes)
        }
        Some(Asking::Intercept { .. }) => Choice::Yes(0),
        // The default GM: a holder can move a creature no larger than itself.
        Some(Asking::StrongEnough { holder, held }) => {
            if state.p(holder).size >= state.p(held).size {
                Choice::Yes(0)
            } else {
                Choice::No
            }
        }
        Some(Asking::Retarget { who }) => {
            Choice::Target(legal::retargets(state, who).first().copied())
        }
        None => request.options.first().copied().unwrap_or(Choice::No),
    }
}

/// The form with the most damage at its best.
fn best_form(state: &State, by: CombatantId, forms: &[Form]) -> Option<u8> {
    (0..forms.len())
        .max_by_key(|&i| {
            let w = attack::weapon(state, by, forms[i]);
            (w.map_or(0, |w| w.damage.max()), std::cmp::Reverse(i))
        })
        .map(|i| i as u8)
}

fn declare(state: &State, who: CombatantId) -> Choice {
    let f = state.f(who);
    let p = state.p(who);
    let round = state.round;
    if f.reloading_until >= round && f.reloading_until > 0 {
        // OSR-R23.5: a spare loaded crossbow is swapped in to shoot the nearest foe.
        if f.spare_loaded > 0 && f.no_attack_round != round && !f.disarmed && !f.broken {
            if let Some(t) = legal::nearest_foe(state, who) {
                return Choice::Declare(Action::Shoot(t, None));
            }
        }
        return Choice::Declare(Action::Reload);
    }
    if f.disarmed && !f.broken {
        return Choice::Declare(Action::Recover);
    }
    let Some(nearest) = legal::nearest_foe(state, who) else {
        return Choice::Declare(Action::Nothing);
    };
    if f.no_attack_round == round {
        return Choice::Declare(Action::Dodge);
    }
    for (i, sp) in p.spells.iter().enumerate() {
        if let SpellEffect::Heal(_) = sp.effect {
            let hurt = state.ids().find(|&o| {
                !state.foes(who, o) && state.f(o).is_up() && state.f(o).hp * 2 <= state.p(o).max_hp
            });
            if let Some(o) = hurt {
                if !f.silenced {
                    return Choice::Declare(Action::Cast(who, i as u8, o));
                }
            }
        }
    }
    for (i, sp) in p.spells.iter().enumerate() {
        if let SpellEffect::Damage(_) = sp.effect {
            if !f.silenced {
                return Choice::Declare(Action::Cast(who, i as u8, nearest));
            }
        }
    }
    let dist = f.pos.feet_to(state.f(nearest).pos);
    let adjacent = dist <= 5;
    let melee_ok =
        !p.melee.is_empty() && (attack::ready(state, who, Form::Melee(0)) || p.melee[0].natural);
    if !adjacent && attack::ready(state, who, Form::Missile) {
        let long = p.missile.as_ref().and_then(|m| m.range).map_or(0, |r| r[2]);
        if dist <= long || !melee_ok {
            return Choice::Declare(Action::Shoot(nearest, None));
        }
    }
    // Brace a settable weapon against a foe that could charge it this round (OSR-R15).
    let nf = state.p(nearest);
    let could_charge = (nf.melee.iter().any(|w| w.charge) || (nf.monster && nf.charges))
        && state.options.charges
        && (15..=2 * nf.movement + 5).contains(&dist);
    if !adjacent && could_charge && p.melee.first().is_some_and(|w| w.set) && melee_ok {
        return Choice::Declare(Action::Set);
    }
    let may_charge = (15..=2 * p.movement + 5).contains(&dist)
        && (p.melee.iter().any(|w| w.charge) || (p.monster && p.charges));
    if !adjacent && may_charge && movement::charge_problem(state, who, nearest).is_none() {
        return Choice::Declare(Action::Charge(nearest));
    }
    if melee_ok || !p.melee.is_empty() {
        return Choice::Declare(Action::Attack {
            target: nearest,
            flat: false,
            then: None,
        });
    }
    Choice::Declare(Action::Punch(nearest))
}
