//! A discrete distribution as integer counts over one common denominator: the engine of exact
//! distributions. Value `i` of the table is `offset + stride·i`; its probability is
//! `count[i] / denom`. Counts may sum to less than `denom`: the rest is truncated mass.

use num_bigint::BigUint;
use num_integer::Integer;

use crate::error::DistError;
use crate::limits::{Limit, Limits};
use crate::wide;

/// Tracks work done against [`Limits::max_work`] and sizes against [`Limits::max_support`].
#[derive(Debug)]
pub(crate) struct Budget<'a> {
    pub limits: &'a Limits,
    used: u64,
}

impl<'a> Budget<'a> {
    pub fn new(limits: &'a Limits) -> Self {
        Budget { limits, used: 0 }
    }

    /// Accounts for `work` limb multiplications, failing if the total would pass the limit.
    pub fn charge(&mut self, work: u128) -> Result<(), DistError> {
        let total = u128::from(self.used) + work;
        if total > u128::from(self.limits.max_work) {
            return Err(DistError::Limit {
                limit: Limit::Work,
                needed: u64::try_from(total).unwrap_or(u64::MAX),
                max: self.limits.max_work,
            });
        }
        self.used = total as u64;
        Ok(())
    }

    /// Fails if a table of `len` entries of `width` words each would pass the memory limit
    /// (called before the table is allocated).
    pub fn words(&self, len: usize, width: usize) -> Result<(), DistError> {
        let words = len as u128 * width as u128;
        if words > self.limits.max_words as u128 {
            return Err(DistError::Limit {
                limit: Limit::Memory,
                needed: u64::try_from(words).unwrap_or(u64::MAX),
                max: self.limits.max_words as u64,
            });
        }
        Ok(())
    }

    /// Fails if a table of `len` entries is larger than the support limit.
    pub fn size(&self, len: u128) -> Result<usize, DistError> {
        if len > self.limits.max_support as u128 {
            return Err(DistError::Limit {
                limit: Limit::Support,
                needed: u64::try_from(len).unwrap_or(u64::MAX),
                max: self.limits.max_support as u64,
            });
        }
        Ok(len as usize)
    }
}

/// Counts over a common denominator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Table {
    /// Value of entry 0.
    pub offset: i64,
    /// Distance between consecutive values (at least 1).
    pub stride: i64,
    /// Limbs per count.
    pub width: usize,
    /// `len · width` limbs.
    pub data: Vec<u64>,
    /// The common denominator.
    pub denom: BigUint,
}

impl Table {
    /// The constant `value` with probability 1.
    pub fn constant(value: i64) -> Table {
        Table {
            offset: value,
            stride: 1,
            width: 1,
            data: vec![1],
            denom: BigUint::from(1u32),
        }
    }

    /// An all-zero table for values `offset + stride·i`, `i < len`, over `denom`.
    pub fn zeros(offset: i64, stride: i64, len: usize, denom: BigUint) -> Table {
        let width = wide::limbs_of(&denom);
        Table {
            offset,
            stride,
            width,
            data: vec![0; len * width],
            denom,
        }
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.data.len() / self.width
    }

    /// Count of entry `i`.
    #[inline]
    pub fn count(&self, i: usize) -> &[u64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    #[inline]
    pub fn count_mut(&mut self, i: usize) -> &mut [u64] {
        &mut self.data[i * self.width..(i + 1) * self.width]
    }

    /// Value of entry `i`.
    #[inline]
    pub fn value(&self, i: usize) -> i64 {
        self.offset + self.stride * i as i64
    }

    /// Largest value.
    pub fn last_value(&self) -> i64 {
        self.value(self.len().saturating_sub(1))
    }

    /// Sum of all counts (the mass not truncated), as `width` limbs.
    pub fn mass(&self) -> Vec<u64> {
        let mut m = vec![0; self.width];
        for i in 0..self.len() {
            wide::add(&mut m, self.count(i));
        }
        m
    }

    /// Σ over non-zero counts of their significant limbs: the cost of a convolution with this
    /// table is about the product of this for both tables.
    fn nonzero_limbs(&self) -> u128 {
        (0..self.len())
            .map(|i| wide::sig_len(self.count(i)) as u128)
            .sum()
    }

    /// Whether every count is equal to one (a fair die, possibly shifted and scaled).
    fn is_uniform_ones(&self) -> bool {
        (0..self.len()).all(|i| {
            let c = self.count(i);
            c[0] == 1 && wide::sig_len(c) == 1
        })
    }

    /// Drops zero entries at both ends and widens the stride to the gcd of the gaps.
    pub fn trim(mut self) -> Table {
        let n = self.len();
        let first = (0..n).find(|&i| !wide::is_zero(self.count(i)));
        let Some(first) = first else {
            self.data.truncate(self.width);
            self.data.iter_mut().for_each(|l| *l = 0);
            return self;
        };
        let last = (0..n)
            .rev()
            .find(|&i| !wide::is_zero(self.count(i)))
            .unwrap_or(first);
        let mut g = 0usize;
        for i in first..=last {
            if !wide::is_zero(self.count(i)) {
                g = g.gcd(&(i - first));
            }
        }
        let g = g.max(1);
        if first == 0 && last + 1 == n && g == 1 {
            return self;
        }
        let w = self.width;
        let mut data = Vec::with_capacity(((last - first) / g + 1) * w);
        for i in (first..=last).step_by(g) {
            data.extend_from_slice(self.count(i));
        }
        Table {
            offset: self.value(first),
            stride: self.stride * g as i64,
            width: w,
            data,
            denom: self.denom,
        }
    }

    /// Re-buckets values through `f` (which may merge values); `None` from `f` is an overflow.
    pub fn map(
        &self,
        budget: &mut Budget<'_>,
        f: impl Fn(i64) -> Option<i64>,
    ) -> Result<Table, DistError> {
        let nz: Vec<usize> = (0..self.len())
            .filter(|&i| !wide::is_zero(self.count(i)))
            .collect();
        let mapped: Vec<i64> = nz
            .iter()
            .map(|&i| f(self.value(i)).ok_or(DistError::Overflow))
            .collect::<Result<_, _>>()?;
        let (lo, stride, len) = layout(budget, mapped.iter().copied())?;
        budget.words(len, self.width)?;
        let mut out = Table::zeros(lo, stride, len, self.denom.clone());
        for (&i, &v) in nz.iter().zip(&mapped) {
            let j = ((v - lo) / stride) as usize;
            wide::add(out.count_mut(j), self.count(i));
        }
        Ok(out.trim())
    }

    /// The distribution of `a ∘ b` for independent `a` (self) and `b`, by enumerating pairs.
    pub fn combine(
        &self,
        other: &Table,
        budget: &mut Budget<'_>,
        f: impl Fn(i64, i64) -> Result<i64, DistError>,
    ) -> Result<Table, DistError> {
        let na: Vec<usize> = (0..self.len())
            .filter(|&i| !wide::is_zero(self.count(i)))
            .collect();
        let nb: Vec<usize> = (0..other.len())
            .filter(|&i| !wide::is_zero(other.count(i)))
            .collect();
        budget.charge((na.len() * nb.len()) as u128 * (self.width * other.width) as u128)?;
        let mut values = Vec::with_capacity(na.len() * nb.len());
        for &i in &na {
            for &j in &nb {
                values.push(f(self.value(i), other.value(j))?);
            }
        }
        let (lo, stride, len) = layout(budget, values.iter().copied())?;
        let denom = &self.denom * &other.denom;
        budget.words(len, wide::limbs_of(&denom))?;
        let mut out = Table::zeros(lo, stride, len, denom);
        let mut k = 0;
        for &i in &na {
            for &j in &nb {
                let idx = ((values[k] - lo) / stride) as usize;
                k += 1;
                let (a, b) = (self.count(i), other.count(j));
                wide::mul_add(out.count_mut(idx), a, b);
            }
        }
        Ok(out.trim())
    }

    /// The distribution of the sum of independent `self` and `other`.
    pub fn convolve(&self, other: &Table, budget: &mut Budget<'_>) -> Result<Table, DistError> {
        self.convolve_width(other, budget, None, true)
    }

    /// [`Table::convolve`], optionally with a given (wider) count width.
    pub(crate) fn convolve_width(
        &self,
        other: &Table,
        budget: &mut Budget<'_>,
        width: Option<usize>,
        charge: bool,
    ) -> Result<Table, DistError> {
        let (a, b) = (self, other);
        let g = if a.len() == 1 {
            b.stride
        } else if b.len() == 1 {
            a.stride
        } else {
            a.stride.gcd(&b.stride)
        };
        let span =
            (a.len() as i128 - 1) * a.stride as i128 + (b.len() as i128 - 1) * b.stride as i128;
        let len = budget.size((span / g as i128 + 1) as u128)?;
        let offset = a.offset.checked_add(b.offset).ok_or(DistError::Overflow)?;
        offset
            .checked_add(i64::try_from(span).map_err(|_| DistError::Overflow)?)
            .ok_or(DistError::Overflow)?;
        let denom = &a.denom * &b.denom;
        let width = width.unwrap_or_else(|| wide::limbs_of(&denom));
        budget.words(len, width)?;
        if charge {
            budget.charge(a.nonzero_limbs() * b.nonzero_limbs())?;
        }
        let mut out = Table {
            offset,
            stride: g,
            width,
            data: vec![0; len * width],
            denom,
        };
        let (sa, sb) = ((a.stride / g) as usize, (b.stride / g) as usize);
        for i in 0..a.len() {
            let ca = a.count(i);
            if wide::is_zero(ca) {
                continue;
            }
            for j in 0..b.len() {
                let idx = i * sa + j * sb;
                let acc = &mut out.data[idx * width..(idx + 1) * width];
                wide::mul_add(acc, ca, b.count(j));
            }
        }
        Ok(out)
    }

    /// The distribution of the sum of `n` independent copies of `self`.
    pub fn power(&self, n: u32, budget: &mut Budget<'_>) -> Result<Table, DistError> {
        if n == 0 {
            return Ok(Table::constant(0));
        }
        if n == 1 {
            return Ok(self.clone());
        }
        let denom = self.denom.pow(n);
        let width = wide::limbs_of(&denom);
        let m = self.len();
        let len = budget.size((m as u128 - 1) * u128::from(n) + 1)?;
        budget.words(len, width)?;
        let offset = self
            .offset
            .checked_mul(i64::from(n))
            .ok_or(DistError::Overflow)?;
        self.last_value()
            .checked_mul(i64::from(n))
            .ok_or(DistError::Overflow)?;
        if self.is_uniform_ones() {
            // Sliding window: adding one fair die sums a window of `m` counts.
            budget.charge(len as u128 * u128::from(n) * width as u128 * 2)?;
            let mut cur = vec![0u64; len * width];
            for i in 0..m {
                cur[i * width] = 1;
            }
            let mut next = vec![0u64; len * width];
            let mut window = vec![0u64; width];
            for k in 2..=n as usize {
                let top = (m - 1) * k + 1;
                window.iter_mut().for_each(|l| *l = 0);
                for i in 0..top {
                    if i < (m - 1) * (k - 1) + 1 {
                        wide::add(&mut window, &cur[i * width..(i + 1) * width]);
                    }
                    if i >= m {
                        wide::sub(&mut window, &cur[(i - m) * width..(i - m + 1) * width]);
                    }
                    next[i * width..(i + 1) * width].copy_from_slice(&window);
                }
                std::mem::swap(&mut cur, &mut next);
            }
            return Ok(Table {
                offset,
                stride: self.stride,
                width,
                data: cur,
                denom,
            });
        }
        // Charge the whole job up front, so an impossible one fails at once.
        let bits = self.denom.bits().max(1) as u128;
        let limbs = |k: u128| (k * bits).div_ceil(64);
        let lens = |k: u128| (m as u128 - 1) * k + 1;
        if m <= 32 {
            // One die at a time: cheap because the die's counts are short.
            let own = self.nonzero_limbs();
            budget.charge((1..u128::from(n)).map(|k| lens(k) * limbs(k) * own).sum())?;
            let mut acc = self.clone();
            for _ in 1..n {
                acc = acc.convolve_width(self, budget, Some(width), false)?;
            }
            return Ok(acc.trim());
        }
        let mut estimate = 0u128;
        let (mut have, mut base_k, mut e) = (0u128, 1u128, n);
        while e > 0 {
            if e & 1 == 1 {
                if have > 0 {
                    estimate += lens(have) * limbs(have) * lens(base_k) * limbs(base_k);
                }
                have += base_k;
            }
            e >>= 1;
            if e > 0 {
                estimate += (lens(base_k) * limbs(base_k)).pow(2);
                base_k *= 2;
            }
        }
        budget.charge(estimate)?;
        // Square and multiply.
        let mut result: Option<Table> = None;
        let mut base = self.clone();
        let mut e = n;
        while e > 0 {
            if e & 1 == 1 {
                result = Some(match result {
                    None => base.clone(),
                    Some(r) => r.convolve_width(&base, budget, None, false)?.trim(),
                });
            }
            e >>= 1;
            if e > 0 {
                base = base.convolve_width(&base, budget, None, false)?.trim();
            }
        }
        Ok(result.unwrap_or_else(|| Table::constant(0)))
    }

    /// The table with every count multiplied by `factor` and the denominator too (same
    /// probabilities, larger denominator), widened to hold the new denominator.
    pub fn scale_denom(&self, factor: &BigUint) -> Table {
        let denom = &self.denom * factor;
        let width = wide::limbs_of(&denom);
        let f = wide::from_big(factor, width);
        let mut data = vec![0; self.len() * width];
        for i in 0..self.len() {
            wide::mul_add(&mut data[i * width..(i + 1) * width], self.count(i), &f);
        }
        Table {
            offset: self.offset,
            stride: self.stride,
            width,
            data,
            denom,
        }
    }

    /// The sum of the counts of two tables over the same denominator (a mixture of disjoint
    /// events), on the union of their values.
    pub fn add(&self, other: &Table, budget: &mut Budget<'_>) -> Result<Table, DistError> {
        debug_assert_eq!(self.denom, other.denom);
        let values = (0..self.len())
            .map(|i| self.value(i))
            .chain((0..other.len()).map(|i| other.value(i)));
        let (lo, stride, len) = layout(budget, values)?;
        budget.words(len, self.width.max(other.width))?;
        let mut out = Table::zeros(lo, stride, len, self.denom.clone());
        for t in [self, other] {
            for i in 0..t.len() {
                let j = ((t.value(i) - lo) / stride) as usize;
                wide::add(out.count_mut(j), t.count(i));
            }
        }
        Ok(out)
    }
}

/// The dense layout `(lowest, stride, len)` covering `values`.
fn layout(
    budget: &Budget<'_>,
    values: impl Iterator<Item = i64> + Clone,
) -> Result<(i64, i64, usize), DistError> {
    let lo = values.clone().min().unwrap_or(0);
    let hi = values.clone().max().unwrap_or(0);
    let mut g: i128 = 0;
    for v in values {
        g = g.gcd(&(i128::from(v) - i128::from(lo)));
    }
    let g = g.max(1);
    let len = budget.size(((i128::from(hi) - i128::from(lo)) / g + 1) as u128)?;
    Ok((lo, i64::try_from(g).map_err(|_| DistError::Overflow)?, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn die(sides: u64) -> Table {
        Table {
            offset: 1,
            stride: 1,
            width: 1,
            data: vec![1; sides as usize],
            denom: BigUint::from(sides),
        }
    }

    #[test]
    fn power_paths_agree() {
        let limits = Limits::default();
        let mut b = Budget::new(&limits);
        let d6 = die(6);
        let fast = d6.power(7, &mut b).unwrap();
        let mut slow = d6.clone();
        for _ in 1..7 {
            slow = slow.convolve(&d6, &mut b).unwrap();
        }
        assert_eq!(fast.trim(), slow.trim());
        // Non-uniform: squaring vs one at a time.
        let mut skew = die(40);
        skew.data[3] = 5;
        let a = skew.power(5, &mut b).unwrap().trim();
        let mut c = skew.clone();
        for _ in 1..5 {
            c = c.convolve(&skew, &mut b).unwrap();
        }
        assert_eq!(a, c.trim());
    }
}
