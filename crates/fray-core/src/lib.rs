//! fray-core: the ruleset-independent combat model and the request/answer protocol.
//!
//! *The engine asks, drivers answer.* A ruleset (see [`Ruleset`]) resolves a fight as plain code that,
//! whenever it needs a die result or a decision, asks its [`Table`]; the table forwards the request
//! to a [`Driver`] (seeded dice and a tactics policy, a script, a person) and checks the answer.
//! Rules do no I/O and own no randomness. A fight is its setup plus the list of [`Answer`]s:
//! replaying that list reproduces it exactly (see [`replay`]).

#![forbid(unsafe_code)]

pub mod answer;
pub mod area;
pub mod audience;
pub mod board;
pub mod catalog;
pub mod conditions;
pub mod damage;
pub mod distinct;
pub mod driver;
pub mod encounter;
pub mod event;
pub mod fight_odds;
pub mod footprint;
pub mod grid;
pub mod ids;
pub mod intervention;
pub mod loader;
pub mod modifiers;
pub mod occupancy;
pub mod odds;
pub mod protocol;
pub mod ranked;
pub mod roster;
pub mod routine_odds;
pub mod ruleset;
pub mod runner;
pub mod session;
pub mod span;

pub use answer::{check_roll_answer, parse_roll_answer, AnswerError};
pub use area::{Area, Areas};
pub use board::{Board, Piece};
pub use catalog::Catalog;
pub use damage::DamageDice;
pub use driver::{AutoDriver, Driver, ScriptedDriver};
pub use event::{Event, EventSink, NullSink, VecSink};
pub use footprint::Footprint;
pub use grid::{Direction, Pos};
pub use ids::{CombatantId, SideId};
pub use loader::Encounter;
pub use occupancy::{Nearby, Occupancy};
pub use protocol::{
    Answer, ChoiceRequest, Chooser, FaceClasses, Fault, Illegal, Interrupt, Keep, Pause,
    RollRequest, Rolled, MAX_POOL_DICE,
};
pub use roster::Roster;
pub use ruleset::{
    EndReason, Outcome, RuleStatus, Ruleset, RulesetBundle, RulesetId, Standing, Tally,
};
pub use runner::{replay, run_fight, run_fight_after, run_fight_at, FightEnd, Halt, Limits, Table};
