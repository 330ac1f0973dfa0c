//! Dice-expression language: parse notation such as `4d6kh3` or `2d20kh1+7`, roll it with any
//! [`DiceSource`] (seeded, scripted, or a person's physical dice) with a full breakdown or as
//! a fast total, and compute its exact [`Distribution`].
//!
//! ```
//! use fray_dice::{parse, SeededDice, ScriptedDice};
//!
//! let expr = parse("4d6kh3").unwrap();
//! let roll = expr.roll(&mut ScriptedDice::new(vec![6, 5, 3, 1])).unwrap();
//! assert_eq!(roll.to_string(), "4d6kh3 = [6, 5, 3, (1)] = 14");
//!
//! let total = expr.roll_total(&mut SeededDice::new(42)).unwrap();
//! assert!((3..=18).contains(&total));
//!
//! let dist = parse("3d6").unwrap().distribution().unwrap();
//! assert_eq!(dist.probability(10).to_string(), "1/8");
//! ```
//!
//! See `docs/dice.md` for the notation.

mod ast;
mod die;
mod dist;
mod error;
mod keep;
mod lexer;
mod limits;
mod parser;
mod pool;
mod roll;
mod source;
mod table;
mod wide;

pub use ast::{BinOp, CmpOp, Compare, Dice, Explode, Expr, Reroll, Select, SelectKind};
pub use dist::Distribution;
pub use error::{DistError, ParseError, ParseErrorKind, RollError};
pub use limits::{Limit, Limits};
pub use parser::parse_with;
pub use pool::{roll_pool, Pool};
pub use roll::{DieResult, Roll};
pub use source::{DiceSource, ScriptedDice, SeededDice, SourceError};

/// Re-exported big-number types used by [`Distribution`]'s exact accessors.
pub use num_bigint::{BigInt, BigUint};
/// Re-exported exact rational type.
pub use num_rational::BigRational;

/// Parses a dice expression under the default [`Limits`].
pub fn parse(input: &str) -> Result<Expr, ParseError> {
    parse_with(input, &Limits::default())
}

impl std::str::FromStr for Expr {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s)
    }
}
