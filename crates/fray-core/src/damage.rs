//! Damage dice `NdS+B`, read with the `fray-dice` parser (one notation for every ruleset).

use fray_dice::{BinOp, Dice, Expr};
use std::fmt;

/// Damage dice: `count`d`sides` plus a flat `bonus` (`count` 0 is a flat amount).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DamageDice {
    /// Number of dice.
    pub count: u16,
    /// Sides per die.
    pub sides: u16,
    /// Flat bonus (may be negative).
    pub bonus: i32,
}

impl DamageDice {
    /// Most dice in one damage expression.
    pub const MAX_COUNT: u16 = 100;
    /// Most sides per die.
    pub const MAX_SIDES: u16 = 1000;
    /// Largest flat bonus or malus.
    pub const MAX_BONUS: i32 = 1000;

    /// Reads `1d8`, `2d4+1`, `1d6-1`, `d3` or a flat `2` (1 to 100 dice of 2 to 1000 sides,
    /// bonus within ±1000); anything else in the dice notation is refused.
    pub fn parse(text: &str) -> Option<DamageDice> {
        let expr = fray_dice::parse(&text.to_ascii_lowercase()).ok()?;
        let (dice, bonus) = match &expr {
            Expr::Num(n) => (None, *n),
            Expr::Dice(d) => (Some(d), 0),
            Expr::Binary { op, lhs, rhs } => match (op, lhs.as_ref(), rhs.as_ref()) {
                (BinOp::Add, Expr::Dice(d), Expr::Num(n)) => (Some(d), *n),
                (BinOp::Sub, Expr::Dice(d), Expr::Num(n)) => (Some(d), -*n),
                _ => return None,
            },
            Expr::Neg(inner) => match inner.as_ref() {
                Expr::Num(n) => (None, -*n),
                _ => return None,
            },
        };
        if bonus.abs() > i64::from(Self::MAX_BONUS) {
            return None;
        }
        let bonus = bonus as i32;
        match dice {
            None => Some(DamageDice {
                count: 0,
                sides: 1,
                bonus,
            }),
            Some(d) if *d == Dice::plain(d.count, d.sides) => {
                let count = u16::try_from(d.count).ok()?;
                let sides = u16::try_from(d.sides).ok()?;
                ((1..=Self::MAX_COUNT).contains(&count) && (2..=Self::MAX_SIDES).contains(&sides))
                    .then_some(DamageDice {
                        count,
                        sides,
                        bonus,
                    })
            }
            Some(_) => None,
        }
    }

    /// Like [`DamageDice::parse`], but at least one die (no flat amount).
    pub fn parse_dice(text: &str) -> Option<DamageDice> {
        DamageDice::parse(text).filter(|d| d.count > 0)
    }

    /// `1d8+4`-style text.
    pub fn text(&self) -> String {
        self.to_string()
    }

    /// Smallest total.
    pub fn min(&self) -> i32 {
        i32::from(self.count) + self.bonus
    }

    /// Largest total.
    pub fn max(&self) -> i32 {
        i32::from(self.count) * i32::from(self.sides) + self.bonus
    }
}

impl fmt::Display for DamageDice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return write!(f, "{}", self.bonus);
        }
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.bonus {
            0 => Ok(()),
            b if b > 0 => write!(f, "+{b}"),
            b => write!(f, "{b}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_usual_forms() {
        let d = |count, sides, bonus| {
            Some(DamageDice {
                count,
                sides,
                bonus,
            })
        };
        assert_eq!(DamageDice::parse("1d8"), d(1, 8, 0));
        assert_eq!(DamageDice::parse("2d4+1"), d(2, 4, 1));
        assert_eq!(DamageDice::parse("1d6-1"), d(1, 6, -1));
        assert_eq!(DamageDice::parse("d3"), d(1, 3, 0));
        assert_eq!(DamageDice::parse("1D6 + 2"), d(1, 6, 2));
        assert_eq!(DamageDice::parse("2"), d(0, 1, 2));
        assert_eq!(DamageDice::parse_dice("2"), None);
        assert_eq!(DamageDice::parse_dice("2d6"), d(2, 6, 0));
        for bad in [
            "", "1d1", "0d6", "101d6", "1d1001", "4d6kh3", "1d6+1d4", "1d6*2", "x",
        ] {
            assert_eq!(DamageDice::parse(bad), None, "{bad}");
        }
        assert_eq!(
            DamageDice::parse("2d4+1").map(|d| d.to_string()),
            Some("2d4+1".into())
        );
        assert_eq!(
            DamageDice::parse("1d6-1").map(|d| d.text()),
            Some("1d6-1".into())
        );
    }
}
