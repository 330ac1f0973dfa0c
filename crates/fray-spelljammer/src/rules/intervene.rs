//! The GM's interventions in a Spelljammer fight: hit points (as the GM's hit-point
//! adjustments, SJ-G15: a gain heals up to the starting hit points, a loss is damage without a
//! hit), a combatant's square, one leaving the fight (fled, surrendered, captured: down and off
//! the map, its standing says so at the end), one held in reserve coming in, a ruling. Taken at each round's start and at each segment on
//! which something happens. Spelljammer keeps no conditions a GM could set by name (stun,
//! falling and stuck missiles follow from the rules), so `cond` is refused, saying so.

use super::{movement, strike};
use crate::state::State;
use crate::Spelljammer;
use fray_core::event::Event;
use fray_core::intervention::Intervention;
use fray_core::{CombatantId, Interrupt, Pos, Table};

/// The rule every intervention is logged under.
const GM: &str = "GM";

fn combatant(state: &State, iv: &Intervention, key: &str) -> Result<CombatantId, Interrupt> {
    iv.combatant(&state.roster, key)
}

/// Applies one intervention. [Seed: GM's discretion; SJ-G15]
pub fn intervene(
    state: &mut State,
    table: &mut Table<'_, Spelljammer>,
    intervention: &Intervention,
) -> Result<(), Interrupt> {
    match intervention {
        Intervention::Hp { who, change } => {
            let id = combatant(state, intervention, who)?;
            if state.f(id).dead || state.f(id).gone.is_some() {
                return Err(
                    intervention.refused(format!("{} is dead or gone", state.roster.name(id)))
                );
            }
            if *change < 0 {
                strike::apply_damage(
                    state,
                    table,
                    id,
                    id,
                    -change,
                    false,
                    -change,
                    Vec::new(),
                    GM,
                )
            } else {
                let max = state.p(id).max_hp;
                let f = state.f_mut(id);
                let amount = (*change).min((max - f.hp).max(0));
                f.hp += amount;
                if f.hp > 0 {
                    f.down = false;
                }
                let hp = f.hp;
                table.emit(|| Event::Healed {
                    who: id,
                    amount,
                    hp,
                    rule: GM,
                });
                Ok(())
            }
        }
        Intervention::Move { who, to } => {
            let id = combatant(state, intervention, who)?;
            if state.f(id).gone.is_some() {
                return Err(
                    intervention.refused(format!("{} is not in the fight", state.roster.name(id)))
                );
            }
            let to = Pos::new(to[0], to[1]);
            let from = state.f(id).pos;
            if to != from && !movement::free(state, to, id) {
                return Err(
                    intervention.refused(format!("the square ({}, {}) is taken", to.x, to.y))
                );
            }
            state.set_square(id, to);
            let hidden = state.f(id).invisible;
            table.emit(|| Event::Moved {
                who: id,
                from,
                to,
                feet: from.feet_to(to),
                mode: "placed by the GM",
                hidden,
                rule: GM,
            });
            Ok(())
        }
        Intervention::Remove { .. } => {
            let (id, standing, status) =
                intervention.leaving(&state.roster, |id| state.f(id).is_up())?;
            // Off the map: down, so no rule, spell or tactic reaches it again, and its spell
            // and its actions still to come this round are lost.
            let f = state.f_mut(id);
            f.down = true;
            f.gone = Some(standing);
            f.casting = None;
            let hp = f.hp;
            table.emit(|| Event::Status {
                who: id,
                status,
                hp,
                rule: GM,
            });
            Ok(())
        }
        Intervention::Add { .. } => {
            let (id, at) = intervention.arriving(
                &state.roster,
                |id| fray_core::Board::standing(&*state, id),
                |id| state.f(id).pos,
                |at, id| movement::free(state, at, id),
            )?;
            let f = state.f_mut(id);
            f.down = false;
            f.gone = None;
            state.set_square(id, at);
            table.emit(|| Event::Arrived {
                who: id,
                at,
                rule: GM,
            });
            Ok(())
        }
        Intervention::Condition { .. } => Err(intervention.refused(
            "Spelljammer keeps no conditions a GM sets by name (stun, falls and stuck missiles \
             follow from the rules): use `hp`, `move` or `rule`",
        )),
        // The ruling is logged by the table; it changes nothing the rules keep.
        Intervention::Ruling { .. } => Ok(()),
    }
}
