//! Exact distribution of the kept dice of a pool (keep/drop highest/lowest) by dynamic
//! programming over face values, never enumerating outcomes.
//!
//! Faces are visited from the most preferred (highest for "keep highest") to the least. The
//! state is (`n` dice placed on the faces visited so far, `s` their total score), only for
//! `n < k`: those dice are all kept. Placing `t` more dice on face `f` (count `c`, `L` the
//! total count of the faces still to visit, `r = N − n` dice left) multiplies the ways by
//! `C(r, t)·c^t`. As soon as `n + t ≥ k`, the kept score is settled at `s + (k − n)·g(f)` and
//! the other `r − t` dice only need to land on later faces, so all such `t` together weigh
//! `Σ_{t ≥ k−n} C(r,t) c^t L^(r−t) = (c + L)^r − Σ_{t < k−n} C(r,t) c^t L^(r−t)`.
//! The work is about `faces · k² · (k · span)` big-number operations, independent of how
//! many dice are dropped beyond `k`.

use num_bigint::BigUint;

use crate::error::DistError;
use crate::table::{Budget, Table};
use crate::wide;

/// The distribution of the total score of the `k` most preferred of `n` independent dice
/// distributed as `unit`, where a die showing `v` scores `score(v)`. `high` prefers high
/// values. Requires `0 < k < n`.
pub(crate) fn keep(
    unit: &Table,
    n: u32,
    k: u32,
    high: bool,
    score: impl Fn(i64) -> i64,
    budget: &mut Budget<'_>,
) -> Result<Table, DistError> {
    debug_assert!(0 < k && k < n);
    let (n, k) = (n as usize, k as usize);
    // The width of the result, estimated from the bits of the unit's denominator before the
    // power is computed (a huge denominator is refused without being built).
    let unit_bits = unit.denom.bits().max(1);
    budget.words(
        unit.len(),
        usize::try_from((unit_bits * n as u64).div_ceil(64)).unwrap_or(usize::MAX),
    )?;
    let denom = unit.denom.pow(n as u32);
    let w = wide::limbs_of(&denom);
    // Faces in visiting order with their scores and counts (at width w).
    let mut faces: Vec<(i64, Vec<u64>)> = (0..unit.len())
        .filter(|&i| !wide::is_zero(unit.count(i)))
        .map(|i| {
            let mut c = unit.count(i).to_vec();
            c.resize(w, 0);
            (score(unit.value(i)), c)
        })
        .collect();
    if high {
        faces.reverse();
    }
    if faces.is_empty() {
        return Ok(Table::zeros(0, 1, 1, denom));
    }
    let gmin = faces.iter().map(|f| f.0).min().unwrap_or(0);
    let gmax = faces.iter().map(|f| f.0).max().unwrap_or(0);
    let span =
        usize::try_from(i128::from(gmax) - i128::from(gmin)).map_err(|_| DistError::Overflow)?;
    let out_len = budget.size(k as u128 * span as u128 + 1)?;
    budget.words(out_len, w)?;
    // The state tables `ways[j]` together hold about k²·span/2 counts.
    let state_counts = (0..k).map(|j| (j * span + 1) as u128).sum::<u128>();
    budget.words(usize::try_from(state_counts).unwrap_or(usize::MAX), w)?;
    // Work estimate: per face, every state times its transitions.
    let states: u128 = (0..k)
        .map(|j| (j * span + 1) as u128 * (k - j) as u128)
        .sum();
    budget.charge(states * faces.len() as u128 * (w * w) as u128)?;
    // The binomial table below holds k² counts.
    budget.words(k.saturating_mul(k), w)?;
    // Binomials C(n - j, t) for j, t < k (exact: they are below 2^n ≤ denom unless d = 1,
    // and arithmetic is mod 2^(64w) anyway, exact for the final counts).
    let binom: Vec<Vec<Vec<u64>>> = (0..k)
        .map(|j| {
            let r = n - j;
            let mut row = Vec::with_capacity(k);
            let mut c = BigUint::from(1u32);
            for t in 0..k {
                row.push(wide::from_big(&c, w));
                // C(r, t) is 0 from t = r + 1 on (saturating: no underflow when k > r).
                c = c * BigUint::from(r.saturating_sub(t)) / BigUint::from(t + 1);
            }
            row
        })
        .collect();
    // ways[j]: indexed by s - j*gmin, length j*span + 1.
    let mut ways: Vec<Vec<u64>> = (0..k).map(|j| vec![0; (j * span + 1) * w]).collect();
    ways[0][0] = 1;
    let mut out = Table::zeros(
        (k as i64).checked_mul(gmin).ok_or(DistError::Overflow)?,
        1,
        out_len,
        denom,
    );
    // Total count of the faces not yet visited (after the current one).
    let mut low = vec![0u64; w];
    for f in &faces {
        wide::add(&mut low, &f.1);
    }
    let mut term = vec![0u64; w];
    let mut coef = vec![0u64; w];
    for (fi, (g, c)) in faces.iter().enumerate() {
        wide::sub(&mut low, c);
        let last = fi + 1 == faces.len();
        let mut p = low.clone();
        wide::add(&mut p, c);
        let dg = (g - gmin) as usize;
        // Powers of c (t < k), and of `low` and `p` for exponents r - t >= n - k + 1.
        let base = n - k + 1;
        let mut cpow = Vec::with_capacity(k);
        let mut x = vec![0u64; w];
        x[0] = 1;
        for _ in 0..k {
            cpow.push(x.clone());
            x = wide::mul(&x, c, w);
        }
        let lpow = powers(&low, base, k, w);
        let ppow = powers(&p, base, k, w);
        for j in (0..k).rev() {
            if wide::is_zero(&ways[j]) {
                continue;
            }
            let r = n - j;
            // Weight of "at least k - j more dice here, the rest on later faces".
            term.copy_from_slice(&ppow[r - base]);
            for t in 0..k - j {
                // C(r,t) c^t low^(r-t), subtracted.
                let ct = wide::mul(&binom[j][t], &cpow[t], w);
                let sub = wide::mul(&ct, &lpow[r - t - base], w);
                wide::sub(&mut term, &sub);
            }
            let src = std::mem::take(&mut ways[j]);
            if !wide::is_zero(&term) {
                let shift = (k - j) * dg;
                for idx in 0..=j * span {
                    let wv = &src[idx * w..(idx + 1) * w];
                    if wide::is_zero(wv) {
                        continue;
                    }
                    wide::mul_add(out.count_mut(idx + shift), wv, &term);
                }
            }
            if !last {
                for t in 1..k - j {
                    coef.iter_mut().for_each(|l| *l = 0);
                    wide::mul_add(&mut coef, &binom[j][t], &cpow[t]);
                    if wide::is_zero(&coef) {
                        continue;
                    }
                    let dst = &mut ways[j + t];
                    let shift = t * dg;
                    for idx in 0..=j * span {
                        let wv = &src[idx * w..(idx + 1) * w];
                        if wide::is_zero(wv) {
                            continue;
                        }
                        let d = idx + shift;
                        wide::mul_add(&mut dst[d * w..(d + 1) * w], wv, &coef);
                    }
                }
            }
            ways[j] = src;
        }
    }
    Ok(out.trim())
}

/// `x^e` for `e` in `base .. base + k`.
fn powers(x: &[u64], base: usize, k: usize, w: usize) -> Vec<Vec<u64>> {
    let mut out = Vec::with_capacity(k);
    let mut cur = wide::pow(x, base as u64, w);
    for _ in 0..k {
        out.push(cur.clone());
        cur = wide::mul(&cur, x, w);
    }
    out
}
