//! The request/answer protocol between rules and drivers.
//!
//! Rules ask for a [`RollRequest`] (a pool of dice, answered with its total) or a
//! [`ChoiceRequest`] (whose choice, the legal options, the rule that offers them). Every answer is
//! recorded as an [`Answer`]; the list of answers plus the setup *is* the fight.

use crate::ids::CombatantId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a roll is for (shown to the person who rolls; also lets a driver weight rolls).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RollPurpose {
    /// Initiative.
    Initiative,
    /// Surprise check.
    Surprise,
    /// An attack roll.
    Attack,
    /// Damage.
    Damage,
    /// An attribute check or saving throw.
    Check,
    /// Anything else (falling, bleeding, morale…).
    Other,
}

/// "Roll `count`d`sides` for `who`'s `purpose`" — answered with the total of the dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct RollRequest {
    /// How many dice.
    pub count: u16,
    /// Sides per die.
    pub sides: u16,
    /// Who rolls (None: the GM / the world).
    pub who: Option<CombatantId>,
    /// What the roll is for.
    pub purpose: RollPurpose,
    /// The rule that calls for the roll (e.g. `CNC-R7`).
    pub rule: &'static str,
}

impl RollRequest {
    /// Smallest legal total.
    pub fn min_total(&self) -> u32 {
        self.count as u32
    }
    /// Largest legal total.
    pub fn max_total(&self) -> u32 {
        self.count as u32 * self.sides as u32
    }
    /// `2d6`-style text.
    pub fn dice_text(&self) -> String {
        format!("{}d{}", self.count, self.sides)
    }
}

/// Who must answer a choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "id")]
pub enum Chooser {
    /// A combatant (its player, or its side's tactics).
    Combatant(CombatantId),
    /// The game master (a ruling).
    Gm,
}

/// What kind of decision is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Question {
    /// Announcements before initiative (charge, dodge, evade, disengage, or none).
    Declaration,
    /// The combatant's action on its turn.
    Action,
    /// An optional reaction offered by the rules (e.g. a free attack) — take it?
    Reaction,
    /// A ruling only the GM can make.
    Ruling,
}

/// "`chooser`: choose one of `options`", offered by `rule`.
#[derive(Debug, Clone, Copy)]
pub struct ChoiceRequest<'a, C> {
    /// Who decides.
    pub chooser: Chooser,
    /// What is decided.
    pub question: Question,
    /// The rule that offers the choice.
    pub rule: &'static str,
    /// The legal options. Non-empty.
    pub options: &'a [C],
}

/// One recorded answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// The total of a roll request.
    Roll(u32),
    /// A choice, in the ruleset's canonical text (e.g. `attack orc-2`).
    Choice(String),
}

/// A choice the rules forbid, and the rule that forbids it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Illegal {
    /// The rule that forbids it (e.g. `CNC-R6.2`).
    pub rule: &'static str,
    /// Why, in words.
    pub reason: String,
}

impl Illegal {
    /// A refusal by `rule`. The reason is put into words only when `explain` is set: option
    /// lists and the tactics test legality in the hot path and allocate nothing.
    pub fn refuse<S: Into<String>>(
        explain: bool,
        rule: &'static str,
        reason: impl FnOnce() -> S,
    ) -> Result<(), Illegal> {
        Err(Illegal {
            rule,
            reason: if explain {
                reason().into()
            } else {
                String::new()
            },
        })
    }

    /// `Ok` when `allowed`, else a refusal by `rule` (see [`Illegal::refuse`]).
    pub fn unless<S: Into<String>>(
        allowed: bool,
        explain: bool,
        rule: &'static str,
        reason: impl FnOnce() -> S,
    ) -> Result<(), Illegal> {
        if allowed {
            Ok(())
        } else {
            Illegal::refuse(explain, rule, reason)
        }
    }
}

/// [`Illegal::refuse`] as a free function, for rules that refuse often (`use … as no`).
pub fn refuse<S: Into<String>>(
    explain: bool,
    rule: &'static str,
    reason: impl FnOnce() -> S,
) -> Result<(), Illegal> {
    Illegal::refuse(explain, rule, reason)
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.reason, self.rule)
    }
}

/// Why resolution stopped before the fight ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Interrupt {
    /// A roll needs an answer the driver does not have yet (a live table, or an exhausted script).
    NeedRoll(RollRequest),
    /// A choice needs an answer the driver does not have yet; the text describes the request.
    NeedChoice {
        /// Who must answer.
        chooser: Chooser,
        /// What is asked.
        question: Question,
        /// The rule offering the choice.
        rule: &'static str,
        /// The options, as canonical text.
        options: Vec<String>,
    },
    /// A die result outside the dice's range.
    BadRoll {
        /// The request.
        request: RollRequest,
        /// The offending value.
        value: u32,
        /// Scripted dice used before this one (`None`: the value did not come from a script).
        dice_used: Option<usize>,
    },
    /// A choice that cannot be read, or that the rules forbid.
    IllegalChoice {
        /// Who chose.
        chooser: Chooser,
        /// The text given.
        text: String,
        /// Why it is refused.
        illegal: Illegal,
    },
    /// A work limit was hit (e.g. answers per fight).
    Limit(&'static str),
}
