//! The Critical Hit Deck, a GM hook (CEL-G6; CEL-R5.6: "If a card from the Critical Hit Deck
//! says that the attack deals normal damage, then the attack's damage is maximized, but not
//! multiplied"). The seed gives no card, no draw rule and no other card effect: under the
//! option `crit_deck` the GM draws a physical card at each critical hit and fray asks only the
//! one thing the seed rules on — does the card say normal damage? — as a GM `Ruling` choice
//! (an answer in the log like any other). Any other effect of the card is the GM's to apply
//! with the interventions (`hp`, `cond`, `rule`). The stand-in GM of `fray fight`, `fray sim`
//! and `fray odds` draws no card: the usual critical.

use super::legal;
use super::ruling::About;
use crate::choice::Choice;
use crate::state::{Asking, State};
use crate::Celesia;
use fray_core::{CombatantId, Interrupt, Table};

/// How a hit's weapon damage is counted. [CEL-R5.5, R5.6]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Critical {
    /// Not a critical hit: the dice rolled, once plus once per degree of success.
    No,
    /// The usual critical: the base dice's maximum × the multiplier, the degree dice rolled.
    Multiplied,
    /// A critical whose Critical Hit Deck card says normal damage: every weapon die of the
    /// attack's normal damage (the degree dice among them) at its maximum, nothing multiplied.
    Maximized,
}

impl Critical {
    /// Whether the hit is a critical hit at all (precision damage maximized, CEL-R5.6).
    pub fn any(self) -> bool {
        self != Critical::No
    }
}

/// The GM's options: the card says normal damage, or it does not.
pub fn options(out: &mut Vec<Choice>) {
    out.push(Choice::CritCard(true));
    out.push(Choice::CritCard(false));
}

/// The stand-in GM's answer: no card, the usual critical.
pub const DEFAULT: Choice = Choice::CritCard(false);

/// How `attacker`'s hit on `target` counts: not a critical, or (`critical`) the usual one, or
/// under `crit_deck` the one the GM's card gives. [CEL-R5.6, CEL-G6]
pub fn draw(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    critical: bool,
) -> Result<Critical, Interrupt> {
    if !critical {
        return Ok(Critical::No);
    }
    if !state.options.crit_deck {
        return Ok(Critical::Multiplied);
    }
    let asking = Asking::Ruling {
        who: attacker,
        about: About::CritCard(target),
    };
    Ok(match legal::ask(state, table, asking, "CEL-G6")? {
        Choice::CritCard(true) => Critical::Maximized,
        _ => Critical::Multiplied,
    })
}
