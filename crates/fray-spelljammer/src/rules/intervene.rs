//! The GM's interventions in a Spelljammer fight: hit points (as the GM's hit-point
//! adjustments, SJ-G15: a gain heals up to the starting hit points, a loss is damage without a
//! hit), a combatant's square, a ruling. Taken at each round's start and at each segment on
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
    state
        .roster
        .find(key)
        .ok_or_else(|| iv.refused(format!("no combatant `{key}` in this fight")))
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
            if state.f(id).dead {
                return Err(intervention.refused(format!("{} is dead", state.roster.name(id))));
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
        Intervention::Remove { .. } => Err(intervention.refused(
            "Spelljammer cannot take a combatant out of the fight yet (a downed one is healed \
             back up by spells and tactics); use `hp` or `rule`",
        )),
        Intervention::Condition { .. } => Err(intervention.refused(
            "Spelljammer keeps no conditions a GM sets by name (stun, falls and stuck missiles \
             follow from the rules): use `hp`, `move` or `rule`",
        )),
        // The ruling is logged by the table; it changes nothing the rules keep.
        Intervention::Ruling { .. } => Ok(()),
    }
}
