//! The rules of the seed, one module per part: the round and its segments, strikes and damage,
//! tables, legality, the canonical key of exact odds (`odds_key`).

pub mod intervene;
pub mod legal;
pub mod movement;
pub mod odds_key;
pub mod round;
pub mod strike;
pub mod tables;

use crate::state::Asking;
use crate::{Choice, Spelljammer, State};
use fray_core::protocol::{Chooser, Question};
use fray_core::{Interrupt, Table};

/// Puts the question `asking` describes to whoever answers it (the combatant for declarations,
/// free attacks and pushes; the GM for rulings), offering [`legal::options`]. `state.asking`
/// holds the question while it is pending, because requests carry no payload.
pub(crate) fn ask(
    state: &mut State,
    table: &mut Table<'_, Spelljammer>,
    asking: Asking,
    rule: &'static str,
) -> Result<Choice, Interrupt> {
    let (chooser, question) = match asking {
        Asking::Declaration(id) => (Chooser::Combatant(id), Question::Declaration),
        Asking::FreeAttack { by, .. } | Asking::Push { by, .. } => {
            (Chooser::Combatant(by), Question::Reaction)
        }
        Asking::Retarget(_)
        | Asking::FreeAttackRuling { .. }
        | Asking::Interruption { .. }
        | Asking::FirstAid { .. }
        | Asking::ShootIntoMelee { .. } => (Chooser::Gm, Question::Ruling),
    };
    state.asking = Some(asking);
    let choice = table.choose(state, chooser, question, rule, |out| {
        legal::options(state, out)
    })?;
    state.asking = None;
    Ok(choice)
}
