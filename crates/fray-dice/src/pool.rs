//! [`Pool`]: the simplest dice term, `NdS` summed, for engines that roll 1d20 or 2d6 a lot.

use crate::ast::{Dice, Expr};
use crate::dist::Distribution;
use crate::error::DistError;
use crate::source::{DiceSource, SeededDice, SourceError};

/// `count` dice of `sides` sides, summed (`NdS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pool {
    /// Number of dice.
    pub count: u32,
    /// Sides per die.
    pub sides: u32,
}

impl Pool {
    /// `count` d`sides`.
    pub const fn new(count: u32, sides: u32) -> Self {
        Pool { count, sides }
    }

    /// The pool as an expression (`NdS`).
    pub fn expr(&self) -> Expr {
        Expr::Dice(Dice::plain(self.count, self.sides))
    }

    /// Rolls the pool with the seeded source (fast path, cannot fail).
    #[inline]
    pub fn roll(&self, dice: &mut SeededDice) -> u64 {
        dice.roll_sum(self.count, self.sides)
    }

    /// Rolls the pool with any source.
    pub fn roll_with<S: DiceSource + ?Sized>(&self, source: &mut S) -> Result<u64, SourceError> {
        roll_pool(source, self.count, self.sides)
    }

    /// The exact distribution of the sum (default limits).
    pub fn distribution(&self) -> Result<Distribution, DistError> {
        self.expr().distribution()
    }
}

impl std::fmt::Display for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)
    }
}

/// The sum of `count` dice of `sides` sides from `source` (no limits, no allocation).
#[inline]
pub fn roll_pool<S: DiceSource + ?Sized>(
    source: &mut S,
    count: u32,
    sides: u32,
) -> Result<u64, SourceError> {
    let mut total = 0u64;
    for _ in 0..count {
        total += u64::from(source.face(sides)?);
    }
    Ok(total)
}
