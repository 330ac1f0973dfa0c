//! The SIEGE attribute check (CNC-G2): d20 + level + attribute modifier + CK modifier against a
//! challenge base of 12 (prime) or 18 (non-prime), both overridable.

use crate::state::State;
use fray_core::event::{Modifier, Subject};
use fray_core::protocol::RollPurpose;
use fray_core::{CombatantId, Event, Interrupt, Table};

/// The six attributes' abbreviations, in the profile's order.
const ATTRIBUTES: [&str; 6] = ["STR", "DEX", "CON", "INT", "WIS", "CHA"];

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
    /// The checker's level.
    pub level: i32,
    /// Which attribute (index into the profile's six).
    pub attribute: usize,
    /// Its modifier.
    pub attribute_modifier: i32,
    /// The CK's modifier for the circumstances.
    pub modifier: i32,
}

impl CheckResult {
    /// The check as an event: `purpose` and the result in words. [spec CNC-G2]
    pub fn event(
        &self,
        who: CombatantId,
        purpose: &'static str,
        result: &str,
        rule: &'static str,
    ) -> Event {
        let mut modifiers = vec![Modifier::new("level", "CNC-G2", self.level)];
        if self.attribute_modifier != 0 {
            modifiers.push(Modifier::new(
                ATTRIBUTES[self.attribute],
                "CNC-G2",
                self.attribute_modifier,
            ));
        }
        if self.modifier != 0 {
            modifiers.push(Modifier::new("CK", "CNC-R1.3", self.modifier));
        }
        Event::Check {
            who: Subject::Combatant(who),
            purpose,
            dice: "d20".into(),
            roll: self.roll,
            modifiers,
            total: self.total,
            against: "CC",
            target: self.target,
            under: false,
            success: Some(self.success),
            result: result.into(),
            rule,
        }
    }
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
    let p = state.p(who);
    Ok(CheckResult {
        roll,
        total,
        target,
        success: total >= target,
        level: p.level,
        attribute,
        attribute_modifier: p.mods[attribute],
        modifier,
    })
}
