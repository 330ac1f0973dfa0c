//! The GM's interventions (ODD-G14, G16): hit points, a square, taking a combatant out of the
//! fight (fled, surrendered — the DM's ruling for a group that cannot flee, ODD-A35 — or
//! captured), a ruling. OD&D keeps no named conditions, so `cond` is refused, saying so.

use super::{attack, morale};
use crate::state::State;
use crate::Odd;
use fray_core::event::Event;
use fray_core::intervention::Intervention;
use fray_core::{CombatantId, Interrupt, Pos, Standing, Table};

const GM: &str = "GM";

fn combatant(state: &State, iv: &Intervention, key: &str) -> Result<CombatantId, Interrupt> {
    state
        .roster
        .find(key)
        .ok_or_else(|| iv.refused(format!("no combatant `{key}` in this fight")))
}

/// Applies one intervention. [ODD-G14, ODD-G16]
pub fn intervene(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    intervention: &Intervention,
) -> Result<(), Interrupt> {
    match intervention {
        Intervention::Hp { who, change } => {
            let id = combatant(state, intervention, who)?;
            if state.f(id).dead {
                return Err(intervention.refused(format!("{} is dead", state.roster.name(id))));
            }
            if *change < 0 {
                attack::damage(state, table, id, id, -change, -change, Vec::new(), GM)?;
            } else {
                let f = state.f_mut(id);
                let amount = (*change).min((f.max_hp - f.hp).max(0));
                f.hp += amount;
                let hp = f.hp;
                table.emit(|| Event::Healed {
                    who: id,
                    amount,
                    hp,
                    rule: GM,
                });
            }
            Ok(())
        }
        Intervention::Move { who, to } => {
            let id = combatant(state, intervention, who)?;
            let to = Pos::new(to[0], to[1]);
            let from = state.f(id).pos;
            if to != from && !fray_core::board::Board::square_free(state, to, id) {
                return Err(
                    intervention.refused(format!("the square ({}, {}) is taken", to.x, to.y))
                );
            }
            state.set_square(id, to);
            table.emit(|| Event::Moved {
                who: id,
                from,
                to,
                feet: from.feet_to(to),
                mode: "placed by the GM",
                hidden: false,
                rule: GM,
            });
            Ok(())
        }
        Intervention::Remove { who, how } => {
            let id = combatant(state, intervention, who)?;
            if !state.f(id).is_up() {
                return Err(intervention.refused(format!(
                    "{} is already out of the fight",
                    state.roster.name(id)
                )));
            }
            let how = match how.as_str() {
                "fled" => Standing::Fled,
                "surrendered" => Standing::Surrendered,
                "captured" => Standing::Captured,
                other => {
                    return Err(intervention.refused(format!(
                        "`{other}`: a combatant leaves as fled, surrendered or captured"
                    )))
                }
            };
            morale::leave(state, table, id, how);
            Ok(())
        }
        Intervention::Condition { .. } => Err(intervention.refused(
            "OD&D keeps no conditions a GM sets by name: use `hp`, `move`, `remove` or `rule`",
        )),
        // No reserves yet (the builder does not set `RESERVES`).
        Intervention::Add { .. } => {
            Err(intervention
                .refused("OD&D cannot bring combatants in from reserve yet".to_string()))
        }
        Intervention::Ruling { .. } => Ok(()),
    }
}
