//! Default tactics for Spelljammer combatants: what a sensible player would declare.

use crate::choice::Choice;
use crate::state::State;
use fray_core::ChoiceRequest;

/// The default choice for a request.
pub fn choose(state: &State, request: &ChoiceRequest<'_, Choice>) -> Choice {
    let _ = state;
    request.options.first().copied().unwrap_or(Choice::No)
}
