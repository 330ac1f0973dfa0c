//! The rules of the seed, one module per part: the encounter and the round (`round`), one
//! attack and its damage (`attack`), legality and option lists (`legal`), morale, retreat and
//! pursuit (`morale`), the canonical key of exact odds (`odds_key`), flight paths and moves through a line (`flight`), the recovery of temporary damage (`recovery`), the Normal Men shortcut (`shortcut`), spells (`spells`), the seed's numbers (`tables`), weapon utility (`utility`: an axe's chop), the GM's
//! interventions.

pub mod attack;
pub mod flight;
pub mod intervene;
pub mod legal;
pub mod morale;
pub mod odds_key;
pub mod recovery;
pub mod round;
pub mod shortcut;
pub mod spells;
pub mod tables;
pub mod utility;

use crate::{Choice, Odd, State};
use fray_core::protocol::{Chooser, Question};
use fray_core::{CombatantId, Interrupt, Table};

/// Asks `who` a question (an action or a spell declaration), offering [`legal::options`].
/// `state.asking` holds whom the pending request is about.
pub(crate) fn ask(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    question: Question,
    rule: &'static str,
) -> Result<Choice, Interrupt> {
    state.asking = Some(who);
    let choice = table.choose(state, Chooser::Combatant(who), question, rule, |out| {
        legal::options(state, who, question, out)
    })?;
    state.asking = None;
    Ok(choice)
}
