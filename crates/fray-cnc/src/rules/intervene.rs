//! The CK's interventions (the GM's, in C&C's words): hit points, conditions, a combatant's
//! square, one leaving the fight (fled, surrendered, captured: off the map, its side's standing
//! says so at the end), one held in reserve coming in (a reinforcement), a ruling. Taken at each round's start and before each combatant's turn. The seed
//! leaves these to the Castle Keeper throughout ("the CK may adjust…", CNC-R1.3, CNC-R16.6).

use super::damage::{self, Hit};
use super::movement::free;
use crate::state::{Cond, State};
use crate::Cnc;
use fray_core::conditions::Expiry;
use fray_core::event::{Event, Modifier};
use fray_core::intervention::Intervention;
use fray_core::{CombatantId, Interrupt, Pos, Table};

/// The rule every intervention is logged under.
const GM: &str = "GM";

fn combatant(state: &State, iv: &Intervention, key: &str) -> Result<CombatantId, Interrupt> {
    iv.combatant(&state.roster, key)
}

/// Applies one intervention. [CK discretion: CNC-R1.3, CNC-R16.6]
pub fn intervene(
    state: &mut State,
    table: &mut Table<'_, Cnc>,
    intervention: &Intervention,
) -> Result<(), Interrupt> {
    let refuse = |reason: String| Err(intervention.refused(reason));
    match intervention {
        Intervention::Hp { who, change } => {
            let id = combatant(state, intervention, who)?;
            if !state.f(id).present() {
                return refuse(format!("{} is dead or gone", state.roster.name(id)));
            }
            if *change < 0 {
                let label = Modifier::owned("the CK's adjustment".into(), GM, -change);
                damage::apply(
                    state,
                    table,
                    id,
                    Hit {
                        roll: 0,
                        modifiers: std::slice::from_ref(&label),
                        amount: -change,
                        subdual: false,
                        weapon: false,
                        rule: GM,
                        source: None,
                    },
                );
            } else {
                let (hp, max) = (state.f(id).hp, state.p(id).max_hp);
                let healed = (hp + change).min(max.max(hp));
                let f = state.f_mut(id);
                f.hp = healed;
                if healed > -7 {
                    f.mortal_since = None;
                }
                state.refresh_layer(id);
                table.emit(|| Event::Healed {
                    who: id,
                    amount: healed - hp,
                    hp: healed,
                    rule: GM,
                });
            }
            Ok(())
        }
        Intervention::Condition {
            who,
            condition,
            gained,
            rounds,
        } => {
            let id = combatant(state, intervention, who)?;
            let Some(kind) = Cond::SETTABLE
                .iter()
                .copied()
                .find(|c| c.key() == condition)
            else {
                let known: Vec<&str> = Cond::SETTABLE.iter().map(|c| c.key()).collect();
                return refuse(format!(
                    "`{condition}` is not a condition the CK can set; these are: {}",
                    known.join(", ")
                ));
            };
            let round = table.round();
            let changed = if *gained {
                let expiry = rounds.map_or(Expiry::Indefinite, |r| {
                    Expiry::EndOfRound(round.max(1) + r - 1)
                });
                // A condition already present keeps the longer duration (never shortened).
                state.f_mut(id).conditions.add(kind, expiry) == fray_core::conditions::Added::New
            } else {
                state.f_mut(id).conditions.remove(kind)
            };
            if !changed && !*gained {
                return refuse(format!("{} is not {condition}", state.roster.name(id)));
            }
            if changed {
                table.emit(|| Event::Condition {
                    who: id,
                    condition: kind.key(),
                    gained: *gained,
                    rule: GM,
                });
            }
            Ok(())
        }
        Intervention::Move { who, to } => {
            let id = combatant(state, intervention, who)?;
            if !state.f(id).present() {
                return refuse(format!("{} is dead or gone", state.roster.name(id)));
            }
            let to = Pos::new(to[0], to[1]);
            let from = state.f(id).pos;
            if to != from && !free(state, to, id) {
                return refuse(format!("the square ({}, {}) is taken", to.x, to.y));
            }
            state.set_square(id, to);
            table.emit(|| Event::Moved {
                who: id,
                from,
                to,
                feet: from.feet_to(to),
                mode: "placed by the CK",
                hidden: false,
                rule: GM,
            });
            Ok(())
        }
        Intervention::Remove { .. } => {
            let (id, standing, status) =
                intervention.leaving(&state.roster, |id| state.f(id).is_up())?;
            // Holds on it, and its own, end: it is off the map.
            for other in state.ids().collect::<Vec<_>>() {
                if state.f(other).held_by == Some(id) {
                    state.f_mut(other).held_by = None;
                }
            }
            let f = state.f_mut(id);
            f.gone = Some(standing);
            f.held_by = None;
            let hp = f.hp;
            state.refresh_layer(id);
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
                |at, id| free(state, at, id),
            )?;
            state.f_mut(id).gone = None;
            state.set_square(id, at);
            state.refresh_layer(id);
            table.emit(|| Event::Arrived {
                who: id,
                at,
                rule: GM,
            });
            Ok(())
        }
        // The ruling is logged by the table; it changes nothing the rules keep.
        Intervention::Ruling { .. } => Ok(()),
    }
}
