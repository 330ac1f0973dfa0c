//! The SIEGE attribute check (CNC-G2): d20 + level + attribute modifier + CK modifier against a
//! challenge base of 12 (prime) or 18 (non-prime), both overridable.

use crate::state::State;
use fray_core::protocol::RollPurpose;
use fray_core::{CombatantId, Interrupt, Table};

/// Result of an attribute check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckResult {
    /// The d20.
    pub roll: u32,
    /// Total.
    pub total: i32,
    /// Needed.
    pub target: i32,
    /// Success.
    pub success: bool,
}

/// The chance-independent parts of a check: bonus and target. [Seed: 1. Surprise; spec CNC-G2]
pub fn check_numbers(
    state: &State,
    who: CombatantId,
    attribute: usize,
    modifier: i32,
) -> (i32, i32) {
    let p = state.p(who);
    let base = if p.primes[attribute] {
        state.options.check_base_prime
    } else {
        state.options.check_base_nonprime
    };
    (p.level + p.mods[attribute] + modifier, base)
}

/// Makes an attribute check. [spec CNC-G2]
pub fn attribute_check<R: fray_core::Ruleset<State = State>>(
    state: &State,
    table: &mut Table<'_, R>,
    who: CombatantId,
    attribute: usize,
    modifier: i32,
    rule: &'static str,
) -> Result<CheckResult, Interrupt> {
    let (bonus, target) = check_numbers(state, who, attribute, modifier);
    let roll = table.roll_dice(1, 20, Some(who), RollPurpose::Check, rule)?;
    let total = roll as i32 + bonus;
    Ok(CheckResult {
        roll,
        total,
        target,
        success: total >= target,
    })
}
