//! The rules of the chapter, one module per part: the round (`round`), attacks and damage
//! (`attack`), movement (`movement`), legality and options (`legal`), GM interventions
//! (`intervene`), and the key exact odds merge states by (`odds_key`).

pub mod attack;
pub mod intervene;
pub mod legal;
pub mod movement;
pub mod odds_key;
pub mod round;

use crate::state::{Asking, State};
use crate::{Choice, Osr};
use fray_core::protocol::{Chooser, Question};
use fray_core::{Interrupt, Table};

/// Puts the question `asking` describes to the combatant who answers it, offering
/// [`legal::options`]. `state.asking` holds the question while it is pending.
pub(crate) fn ask(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    asking: Asking,
    rule: &'static str,
) -> Result<Choice, Interrupt> {
    let (chooser, question) = match asking {
        Asking::Declaration(id) => (Chooser::Combatant(id), Question::Declaration),
        Asking::Retarget { who } => (Chooser::Combatant(who), Question::Action),
        Asking::PartingShot { by, .. }
        | Asking::Intercept { by, .. }
        | Asking::FreeAttack { by, .. } => (Chooser::Combatant(by), Question::Reaction),
        Asking::StrongEnough { .. } => (Chooser::Gm, Question::Ruling),
    };
    state.asking = Some(asking);
    let choice = table.choose(state, chooser, question, rule, |out| {
        legal::options(state, out)
    })?;
    state.asking = None;
    Ok(choice)
}
