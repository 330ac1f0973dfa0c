//! Exact probability distributions of expressions: rational probabilities over one common
//! denominator, with moments, percentiles and the truncated mass.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use crate::ast::{BinOp, Expr};
use crate::die::dice_table;
use crate::error::DistError;
use crate::limits::Limits;
use crate::roll::floor_div;
use crate::table::{Budget, Table};
use crate::wide;

/// The exact distribution of an expression's value.
///
/// Probabilities are exact rationals. They sum to `1 − truncated()`: the truncated mass is the
/// probability that a roll would exceed the reroll/explosion depth limit (such a roll fails
/// with [`crate::RollError::Limit`]). [`Distribution::mean`] and
/// [`Distribution::variance`] are those of the value given that the roll completes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distribution {
    table: Table,
    /// Sum of all counts.
    mass: Vec<u64>,
}

impl Expr {
    /// The exact distribution under the default [`Limits`].
    pub fn distribution(&self) -> Result<Distribution, DistError> {
        self.distribution_with(&Limits::default())
    }

    /// The exact distribution under `limits`.
    pub fn distribution_with(&self, limits: &Limits) -> Result<Distribution, DistError> {
        let mut budget = Budget::new(limits);
        // Every dice term's size is estimated before any term is computed, so an expression
        // is refused in microseconds whichever of its terms is too large.
        estimate_terms(self, &budget)?;
        let table = expr_table(self, &mut budget)?;
        Distribution::from_table(table.trim())
    }
}

fn estimate_terms(e: &Expr, budget: &Budget<'_>) -> Result<(), DistError> {
    match e {
        Expr::Num(_) => Ok(()),
        Expr::Dice(d) => crate::die::estimate(d, budget),
        Expr::Neg(x) => estimate_terms(x, budget),
        Expr::Binary { lhs, rhs, .. } => {
            estimate_terms(lhs, budget)?;
            estimate_terms(rhs, budget)
        }
    }
}

fn expr_table(e: &Expr, budget: &mut Budget<'_>) -> Result<Table, DistError> {
    match e {
        Expr::Num(n) => Ok(Table::constant(*n)),
        Expr::Dice(d) => dice_table(d, budget),
        Expr::Neg(x) => expr_table(x, budget)?.map(budget, i64::checked_neg),
        Expr::Binary { op, lhs, rhs } => {
            let a = expr_table(lhs, budget)?;
            let b = expr_table(rhs, budget)?;
            binary(*op, &a, &b, budget)
        }
    }
}

/// The single value of a table that has only one, if so.
fn single(t: &Table) -> Option<i64> {
    (t.len() == 1).then_some(t.offset)
}

fn binary(op: BinOp, a: &Table, b: &Table, budget: &mut Budget<'_>) -> Result<Table, DistError> {
    match op {
        BinOp::Add => Ok(a.convolve(b, budget)?.trim()),
        BinOp::Sub => {
            let nb = b.map(budget, i64::checked_neg)?;
            Ok(a.convolve(&nb, budget)?.trim())
        }
        BinOp::Mul => match (single(a), single(b)) {
            (_, Some(k)) => scaled(a, b, budget, move |v| v.checked_mul(k)),
            (Some(k), _) => scaled(b, a, budget, move |v| v.checked_mul(k)),
            _ => a.combine(b, budget, |x, y| {
                x.checked_mul(y).ok_or(DistError::Overflow)
            }),
        },
        BinOp::Div => {
            if let Some(k) = single(b) {
                if k == 0 {
                    return Err(DistError::DivisionByZero);
                }
                return scaled(a, b, budget, move |v| floor_div(v, k));
            }
            a.combine(b, budget, |x, y| {
                if y == 0 {
                    return Err(DistError::DivisionByZero);
                }
                floor_div(x, y).ok_or(DistError::Overflow)
            })
        }
    }
}

/// `t` mapped through `f`, then weighted by the single-valued table `k` (its mass and
/// denominator still count: a constant's count may be below its denominator).
fn scaled(
    t: &Table,
    k: &Table,
    budget: &mut Budget<'_>,
    f: impl Fn(i64) -> Option<i64>,
) -> Result<Table, DistError> {
    let mapped = t.map(budget, f)?;
    let unit = Table {
        offset: 0,
        ..k.clone()
    };
    Ok(mapped.convolve(&unit, budget)?.trim())
}

impl Distribution {
    fn from_table(table: Table) -> Result<Self, DistError> {
        let mass = table.mass();
        if wide::is_zero(&mass) {
            return Err(DistError::Unsupported(
                "every outcome exceeds the reroll/explosion depth limit",
            ));
        }
        Ok(Distribution { table, mass })
    }

    /// The value of entry `i` and its count, skipping values of probability zero.
    fn entries(&self) -> impl Iterator<Item = (i64, &[u64])> + '_ {
        (0..self.table.len())
            .map(|i| (self.table.value(i), self.table.count(i)))
            .filter(|(_, c)| !wide::is_zero(c))
    }

    /// The smallest value with non-zero probability.
    pub fn min(&self) -> i64 {
        self.table.offset
    }

    /// The largest value with non-zero probability.
    pub fn max(&self) -> i64 {
        self.table.last_value()
    }

    /// The common denominator of all probabilities (not reduced).
    pub fn denominator(&self) -> BigUint {
        self.table.denom.clone()
    }

    /// The numerator of `P(value)` over [`Distribution::denominator`].
    pub fn count(&self, value: i64) -> BigUint {
        self.index(value)
            .map_or_else(BigUint::zero, |i| wide::to_big(self.table.count(i)))
    }

    fn index(&self, value: i64) -> Option<usize> {
        let d = i128::from(value) - i128::from(self.table.offset);
        let s = i128::from(self.table.stride);
        (d >= 0 && d % s == 0 && d / s < self.table.len() as i128).then(|| (d / s) as usize)
    }

    fn ratio(&self, num: BigUint) -> BigRational {
        BigRational::new(BigInt::from(num), BigInt::from(self.table.denom.clone()))
    }

    /// `P(value)`, exact and reduced.
    pub fn probability(&self, value: i64) -> BigRational {
        self.ratio(self.count(value))
    }

    /// `P(value)` as a float.
    pub fn probability_f64(&self, value: i64) -> f64 {
        self.index(value).map_or(0.0, |i| {
            wide::ratio_f64(self.table.count(i), &self.table.denom.to_u64_digits())
        })
    }

    /// Every value of non-zero probability with its exact, reduced probability, ascending.
    pub fn pmf(&self) -> Vec<(i64, BigRational)> {
        self.entries()
            .map(|(v, c)| (v, self.ratio(wide::to_big(c))))
            .collect()
    }

    /// Every value of non-zero probability with its probability as a float, ascending.
    pub fn pmf_f64(&self) -> Vec<(i64, f64)> {
        let den = self.table.denom.to_u64_digits();
        self.entries()
            .map(|(v, c)| (v, wide::ratio_f64(c, &den)))
            .collect()
    }

    /// Every value of non-zero probability with `P(X ≤ value)` as a float, ascending.
    pub fn cdf_f64(&self) -> Vec<(i64, f64)> {
        let den = self.table.denom.to_u64_digits();
        let mut acc = vec![0u64; self.table.width];
        self.entries()
            .map(|(v, c)| {
                wide::add(&mut acc, c);
                (v, wide::ratio_f64(&acc, &den))
            })
            .collect()
    }

    /// The probability mass lost to the reroll/explosion depth limit (0 if none).
    pub fn truncated(&self) -> BigRational {
        let mass = wide::to_big(&self.mass);
        self.ratio(&self.table.denom - mass)
    }

    /// [`Distribution::truncated`] as a float.
    pub fn truncated_f64(&self) -> f64 {
        let den = self.table.denom.to_u64_digits();
        let mut rest = den.clone();
        rest.resize(self.table.width, 0);
        wide::sub(&mut rest, &self.mass);
        wide::ratio_f64(&rest, &den)
    }

    /// `(Σ count·v, Σ count·v², mass)` as big integers.
    fn moments(&self) -> (BigInt, BigInt, BigInt) {
        let mut s1 = BigInt::zero();
        let mut s2 = BigInt::zero();
        for (v, c) in self.entries() {
            let c = BigInt::from(wide::to_big(c));
            let cv = c * v;
            s2 += &cv * v;
            s1 += cv;
        }
        (s1, s2, BigInt::from(wide::to_big(&self.mass)))
    }

    /// The exact mean (given that the roll completes).
    pub fn mean(&self) -> BigRational {
        let (s1, _, m) = self.moments();
        BigRational::new(s1, m)
    }

    /// The exact variance (given that the roll completes).
    pub fn variance(&self) -> BigRational {
        let (s1, s2, m) = self.moments();
        BigRational::new(&m * s2 - &s1 * &s1, &m * &m)
    }

    /// The mean as a float.
    pub fn mean_f64(&self) -> f64 {
        to_f64(&self.mean())
    }

    /// The variance as a float.
    pub fn variance_f64(&self) -> f64 {
        to_f64(&self.variance())
    }

    /// The standard deviation as a float.
    pub fn std_dev(&self) -> f64 {
        self.variance_f64().max(0.0).sqrt()
    }

    /// The `p`-th percentile (`p` in 0..=100): the smallest value `v` with
    /// `P(X ≤ v) ≥ p/100` (relative to the completed rolls), computed exactly.
    pub fn percentile(&self, p: u32) -> i64 {
        let p = u64::from(p.min(100));
        let w = self.table.width + 1;
        let mut target = vec![0u64; w];
        wide::mul_small_add(&mut target, &self.mass, p);
        let mut acc = vec![0u64; self.table.width];
        let mut scaled = vec![0u64; w];
        for (v, c) in self.entries() {
            wide::add(&mut acc, c);
            scaled.iter_mut().for_each(|l| *l = 0);
            wide::mul_small_add(&mut scaled, &acc, 100);
            if wide::cmp(&scaled, &target) != std::cmp::Ordering::Less {
                return v;
            }
        }
        self.max()
    }
}

/// A rational as the nearest float (handles numerators and denominators beyond `f64`).
pub(crate) fn to_f64(r: &BigRational) -> f64 {
    let (n, d) = (r.numer(), r.denom());
    let sign = if n.sign() == num_bigint::Sign::Minus {
        -1.0
    } else {
        1.0
    };
    let n = n.magnitude().to_u64_digits();
    let d = d.magnitude().to_u64_digits();
    if let (Some(a), Some(b)) = (r.numer().to_f64(), r.denom().to_f64()) {
        if a.is_finite() && b.is_finite() && b != 0.0 {
            return a / b;
        }
    }
    sign * wide::ratio_f64(&n, &d)
}
