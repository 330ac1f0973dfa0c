//! The GM's interventions (OSR-G13): hit points, conditions by name, a combatant's square, a
//! combatant removed (fled, surrendered, captured), a ruling. Taken at each round's start and
//! before each initiative number.

use super::attack;
use crate::state::State;
use crate::Osr;
use fray_core::event::Event;
use fray_core::intervention::Intervention;
use fray_core::{CombatantId, Interrupt, Pos, Table};

const GM: &str = "OSR-G13";

fn combatant(state: &State, iv: &Intervention, key: &str) -> Result<CombatantId, Interrupt> {
    state
        .roster
        .find(key)
        .ok_or_else(|| iv.refused(format!("no combatant `{key}` in this fight")))
}

/// The conditions a GM may set by name.
pub const CONDITIONS: &[&str] = &[
    "prone",
    "shaken",
    "blinded",
    "disarmed",
    "dodging",
    "fatigued",
    "surprised",
    "burning",
];

/// Applies one intervention. [OSR-G13]
pub fn intervene(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    iv: &Intervention,
) -> Result<(), Interrupt> {
    match iv {
        Intervention::Hp { who, change } => {
            let id = combatant(state, iv, who)?;
            if state.f(id).dead {
                return Err(iv.refused(format!("{} is dead", state.roster.name(id))));
            }
            if *change < 0 {
                attack::hurt(
                    state,
                    table,
                    id,
                    id,
                    -change,
                    Vec::new(),
                    -change,
                    false,
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
        Intervention::Condition {
            who,
            condition,
            gained,
            rounds,
        } => {
            let id = combatant(state, iv, who)?;
            let until = state.round + rounds.unwrap_or(1000).saturating_sub(1);
            let name: &'static str = CONDITIONS
                .iter()
                .find(|c| **c == condition.as_str())
                .copied()
                .ok_or_else(|| {
                    iv.refused(format!(
                        "unknown condition `{condition}`; OSR knows {}",
                        CONDITIONS.join(", ")
                    ))
                })?;
            let round = state.round;
            let f = state.f_mut(id);
            match name {
                "prone" => f.prone = *gained,
                "shaken" => f.shaken_until = if *gained { until } else { 0 },
                "blinded" => f.blinded_until = if *gained { until } else { 0 },
                "disarmed" => f.disarmed = *gained,
                "dodging" => f.dodging = *gained,
                "fatigued" => f.fatigued = *gained,
                "surprised" => f.surprised = *gained,
                _ => f.burning_round = if *gained { round + 1 } else { 0 },
            }
            table.emit(|| Event::Condition {
                who: id,
                condition: name,
                gained: *gained,
                rule: GM,
            });
            Ok(())
        }
        Intervention::Move { who, to } => {
            let id = combatant(state, iv, who)?;
            let to = Pos::new(to[0], to[1]);
            let from = state.f(id).pos;
            if to != from && !state.free(to, id) {
                return Err(iv.refused(format!("the square ({}, {}) is taken", to.x, to.y)));
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
            let id = combatant(state, iv, who)?;
            if how != "fled" {
                return Err(iv.refused(
                    "OSR keeps only `fled` (the chapter has no surrender or capture rules, OSR-A51)",
                ));
            }
            state.f_mut(id).fled = true;
            attack::release(state, id);
            let hp = state.f(id).hp;
            table.emit(|| Event::Status {
                who: id,
                status: "fled",
                hp,
                rule: GM,
            });
            Ok(())
        }
        Intervention::Add { .. } => {
            let (id, at) = iv.arriving(
                &state.roster,
                |id| fray_core::Board::standing(&*state, id),
                |id| state.f(id).pos,
                |at, id| state.free(at, id),
            )?;
            state.f_mut(id).reserve = false;
            state.set_square(id, at);
            table.emit(|| Event::Arrived {
                who: id,
                at,
                rule: GM,
            });
            Ok(())
        }
        Intervention::Ruling { .. } => Ok(()),
    }
}
