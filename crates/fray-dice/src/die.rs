//! Exact distribution of one dice term: the face after rerolls, the value after `mi`/`ma`,
//! explosion chains (exact up to the depth limit; deeper chains are truncated mass), then the
//! pool (sum, keep/drop, success count).

use num_bigint::BigUint;
use num_traits::One;

use crate::ast::Dice;
use crate::error::DistError;
use crate::keep::keep;
use crate::limits::Limit;
use crate::table::{Budget, Table};
use crate::wide;

/// The distribution of a whole dice term.
pub(crate) fn dice_table(d: &Dice, budget: &mut Budget<'_>) -> Result<Table, DistError> {
    // Trees built by hand skip the parser's checks: repeat the ones that bound the work.
    let limits = budget.limits;
    if d.sides == 0 {
        return Err(DistError::Unsupported("a die needs at least 1 side"));
    }
    for (limit, value, max) in [
        (Limit::Dice, d.count, limits.max_dice),
        (Limit::Sides, d.sides, limits.max_sides),
    ] {
        if value > max {
            return Err(DistError::Limit {
                limit,
                needed: u64::from(value),
                max: u64::from(max),
            });
        }
    }
    if d.count == 0 {
        return Ok(Table::constant(0));
    }
    estimate(d, budget)?;
    let score = |v: i64| match d.success {
        Some(t) => i64::from(t.matches(v)),
        None => v,
    };
    let faces = face_table(d, budget)?;
    let separate = d.explode.as_ref().is_some_and(|e| !e.compound);
    // The unit the pool is made of: one roll, or one `!!` chain; with `!` (separate dice)
    // the unit is a chain of already-scored rolls.
    let unit = match &d.explode {
        None => split(d, &faces, budget, |_| true)?.1,
        Some(_) => {
            let (ex, term) = split(d, &faces, budget, |f| !d.explodes(f))?;
            let (ex, term) = if separate {
                (
                    ex.map(budget, |v| Some(score(v)))?,
                    term.map(budget, |v| Some(score(v)))?,
                )
            } else {
                (ex, term)
            };
            chain(&ex, &term, &faces.denom, budget)?
        }
    };
    if let Some(sel) = d.select {
        if separate {
            return Err(DistError::Unsupported(
                "keep/drop on dice that explode into separate dice ('!'); '!!' (compounding) is supported",
            ));
        }
        let (high, kept) = sel.kept(d.count as usize);
        let kept = kept as u32;
        if kept == 0 {
            // Nothing kept: the value is 0 whenever no die is truncated.
            let mass = wide::to_big(&unit.mass());
            let mut t = Table::zeros(0, 1, 1, unit.denom.pow(d.count));
            let w = t.width;
            t.count_mut(0)
                .copy_from_slice(&wide::from_big(&mass.pow(d.count), w));
            return Ok(t);
        }
        if kept < d.count {
            return keep(&unit, d.count, kept, high, score, budget);
        }
    }
    let scored = if separate {
        unit
    } else {
        unit.map(budget, |v| Some(score(v)))?
    };
    scored.power(d.count, budget)
}

/// The size of the pool's final table (values × count width), estimated from the notation
/// alone and checked against the support and memory limits before any work is done, so that
/// e.g. `1000d1000!!` is refused in microseconds rather than after the explosion chain.
pub(crate) fn estimate(d: &Dice, budget: &Budget<'_>) -> Result<(), DistError> {
    if d.success.is_some() {
        // Success counts are small (at most one per roll); the tables themselves are checked.
        return Ok(());
    }
    let depth = f64::from(budget.limits.max_depth);
    let rolls_per_die = if d.explode.is_some() {
        depth + 1.0
    } else {
        1.0
    };
    // Largest value one die can show (its chain of explosions included), smallest is 1.
    let top = f64::from(d.sides) * rolls_per_die;
    let summed = match d.select {
        Some(sel) => sel.kept(d.count as usize).1 as f64,
        None => f64::from(d.count),
    };
    let values = summed * (top - 1.0) + 1.0;
    budget.size(values as u128)?;
    // The denominator: sides^(rolls) per die, more with rerolls.
    let rerolls = match &d.reroll {
        None => 1.0,
        Some(r) if r.once => 2.0,
        Some(_) => depth + 1.0,
    };
    let bits = f64::from(d.sides).log2() * rerolls * rolls_per_die * f64::from(d.count);
    let width = (bits / 64.0).ceil().max(1.0);
    budget.words(values as usize, width.min(usize::MAX as f64) as usize)?;
    // Keep/drop: the dynamic programme of `keep` costs about faces · Σ_j (j·span + 1)(k − j)
    // · width² and holds k² binomials; refuse it now rather than after building the unit.
    if let Some(sel) = d.select {
        let kept = sel.kept(d.count as usize).1 as f64;
        if kept > 0.0 && kept < f64::from(d.count) {
            let span = top - 1.0;
            let states: f64 = (0..kept as u64)
                .map(|j| (j as f64 * span + 1.0) * (kept - j as f64))
                .sum();
            let work = states * top * width * width;
            if work > budget.limits.max_work as f64 {
                return Err(DistError::Limit {
                    limit: crate::limits::Limit::Work,
                    needed: work.min(u64::MAX as f64) as u64,
                    max: budget.limits.max_work,
                });
            }
            budget.words((kept * kept) as usize, width as usize)?;
        }
    }
    Ok(())
}

/// Faces `1..=sides` after rerolls, as counts over a common denominator.
fn face_table(d: &Dice, budget: &mut Budget<'_>) -> Result<Table, DistError> {
    let s = d.sides;
    let len = budget.size(u128::from(s))?;
    let q = (1..=s).filter(|&f| d.rerolls(f)).count() as u64;
    let sides = BigUint::from(s);
    let (denom, keep_count, rerolled_count) = match &d.reroll {
        None => (sides.clone(), BigUint::one(), BigUint::ZERO),
        Some(_) if q == 0 => (sides.clone(), BigUint::one(), BigUint::ZERO),
        Some(r) if r.once => (&sides * &sides, &sides + q, BigUint::from(q)),
        Some(_) => {
            // Σ_{j=0..D} q^j S^(D-j): reroll j times (all matching), then a non-matching face.
            let depth = budget.limits.max_depth;
            let qb = BigUint::from(q);
            let mut exact = BigUint::ZERO;
            let mut qp = BigUint::one();
            let mut sp = sides.pow(depth);
            for _ in 0..=depth {
                exact += &qp * &sp;
                qp *= &qb;
                sp /= &sides;
            }
            (sides.pow(depth + 1), exact, BigUint::ZERO)
        }
    };
    // Checked before anything is allocated: e.g. `1d1000000r1` needs 32 words per face.
    budget.words(len, wide::limbs_of(&denom))?;
    let mut t = Table::zeros(1, 1, len, denom);
    let w = t.width;
    let kc = wide::from_big(&keep_count, w);
    let rc = wide::from_big(&rerolled_count, w);
    budget.charge(len as u128 * w as u128)?;
    for f in 1..=s {
        let c = if d.rerolls(f) { &rc } else { &kc };
        t.count_mut((f - 1) as usize).copy_from_slice(c);
    }
    Ok(t)
}

/// Splits the faces into (faces where `stop` is false, faces where it is true), each keyed by
/// the value after `mi`/`ma`.
fn split(
    d: &Dice,
    faces: &Table,
    budget: &mut Budget<'_>,
    stop: impl Fn(u32) -> bool,
) -> Result<(Table, Table), DistError> {
    let mut go = faces.clone();
    let mut end = faces.clone();
    for f in 1..=d.sides {
        let i = (f - 1) as usize;
        let zero = if stop(f) {
            go.count_mut(i)
        } else {
            end.count_mut(i)
        };
        zero.iter_mut().for_each(|l| *l = 0);
    }
    let clamp = |v: i64| Some(i64::from(d.clamp(v as u32)));
    Ok((go.map(budget, clamp)?, end.map(budget, clamp)?))
}

/// The chain "exploding rolls then a final roll", summed: `Σ_{j=0..D} ex^{*j} * end`, over
/// the denominator `denom^(D+1)`. Chains longer than the depth limit are truncated mass.
fn chain(
    ex: &Table,
    end: &Table,
    denom: &BigUint,
    budget: &mut Budget<'_>,
) -> Result<Table, DistError> {
    // Horner: V_0 = end; V_m = end · denom^m + ex * V_{m-1}.
    let depth = budget.limits.max_depth;
    // Charge up front: step m convolves `ex` with V_(m-1), whose values span at most
    // end's span plus (m-1) times ex's largest value, with counts of about m·bits(denom) bits.
    let bits = u128::from(denom.bits().max(1));
    let ex_cost: u128 = (0..ex.len())
        .map(|i| wide::sig_len(ex.count(i)) as u128)
        .sum();
    let end_span = (i128::from(end.last_value()) - i128::from(end.offset)).unsigned_abs();
    let ex_top = i128::from(ex.last_value()).unsigned_abs() + 1;
    let estimate: u128 = (1..=u128::from(depth))
        .map(|m| (end_span + (m - 1) * ex_top + 1) * (m * bits).div_ceil(64) * ex_cost.max(1))
        .sum();
    budget.charge(estimate)?;
    let mut v = end.clone();
    let mut end_scaled = end.clone();
    for _ in 0..depth {
        end_scaled = end_scaled.scale_denom(denom);
        let grown = ex.convolve_width(&v, budget, None, false)?;
        v = grown.add(&end_scaled, budget)?.trim();
    }
    Ok(v)
}
