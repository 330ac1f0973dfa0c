//! Fixed-width unsigned integers as little-endian `u64` limb slices, with wrapping
//! (mod 2^(64·len)) arithmetic and no allocation.
//!
//! Distributions keep every count below one common denominator, so a width that holds the
//! final denominator holds every final count; since `+ - ×` mod 2^k are exact whenever the
//! true result fits, intermediate values may wrap freely.

use num_bigint::BigUint;

/// Number of limbs needed to hold `x`.
pub(crate) fn limbs_of(x: &BigUint) -> usize {
    (x.bits() as usize).div_ceil(64).max(1)
}

/// `x` as exactly `width` limbs (truncated mod 2^(64·width)).
pub(crate) fn from_big(x: &BigUint, width: usize) -> Vec<u64> {
    let mut out = x.to_u64_digits();
    out.resize(width, 0);
    out
}

/// The number held by `a`.
pub(crate) fn to_big(a: &[u64]) -> BigUint {
    let mut digits = Vec::with_capacity(a.len() * 2);
    for &l in &a[..sig_len(a)] {
        digits.push(l as u32);
        digits.push((l >> 32) as u32);
    }
    BigUint::new(digits)
}

/// Length without high zero limbs (0 for zero).
#[inline]
pub(crate) fn sig_len(a: &[u64]) -> usize {
    let mut n = a.len();
    while n > 0 && a[n - 1] == 0 {
        n -= 1;
    }
    n
}

/// Whether `a` is zero.
#[inline]
pub(crate) fn is_zero(a: &[u64]) -> bool {
    a.iter().all(|&l| l == 0)
}

/// `acc += x` (mod 2^(64·acc.len())).
#[inline]
pub(crate) fn add(acc: &mut [u64], x: &[u64]) {
    let mut carry = false;
    let n = acc.len();
    for i in 0..n {
        let xi = if i < x.len() { x[i] } else { 0 };
        if !carry && i >= x.len() {
            return;
        }
        let (s1, c1) = acc[i].overflowing_add(xi);
        let (s2, c2) = s1.overflowing_add(u64::from(carry));
        acc[i] = s2;
        carry = c1 || c2;
    }
}

/// `acc -= x` (mod 2^(64·acc.len())).
#[inline]
pub(crate) fn sub(acc: &mut [u64], x: &[u64]) {
    let mut borrow = false;
    let n = acc.len();
    for i in 0..n {
        let xi = if i < x.len() { x[i] } else { 0 };
        if !borrow && i >= x.len() {
            return;
        }
        let (s1, b1) = acc[i].overflowing_sub(xi);
        let (s2, b2) = s1.overflowing_sub(u64::from(borrow));
        acc[i] = s2;
        borrow = b1 || b2;
    }
}

/// `acc += a * b` (mod 2^(64·acc.len())).
#[inline]
pub(crate) fn mul_add(acc: &mut [u64], a: &[u64], b: &[u64]) {
    let n = acc.len();
    let la = sig_len(a).min(n);
    let lb = sig_len(b).min(n);
    if lb == 1 {
        return mul_small_add(acc, &a[..la], b[0]);
    }
    if la == 1 {
        return mul_small_add(acc, &b[..lb], a[0]);
    }
    for i in 0..la {
        let ai = u128::from(a[i]);
        if ai == 0 {
            continue;
        }
        let mut carry: u128 = 0;
        let top = lb.min(n - i);
        for j in 0..top {
            let t = u128::from(acc[i + j]) + ai * u128::from(b[j]) + carry;
            acc[i + j] = t as u64;
            carry = t >> 64;
        }
        let mut k = i + top;
        while carry != 0 && k < n {
            let t = u128::from(acc[k]) + carry;
            acc[k] = t as u64;
            carry = t >> 64;
            k += 1;
        }
    }
}

/// `acc += a * m` (mod 2^(64·acc.len())).
#[inline]
pub(crate) fn mul_small_add(acc: &mut [u64], a: &[u64], m: u64) {
    if m == 0 {
        return;
    }
    let n = acc.len();
    let m = u128::from(m);
    let mut carry: u128 = 0;
    let top = sig_len(a).min(n);
    for j in 0..top {
        let t = u128::from(acc[j]) + m * u128::from(a[j]) + carry;
        acc[j] = t as u64;
        carry = t >> 64;
    }
    let mut k = top;
    while carry != 0 && k < n {
        let t = u128::from(acc[k]) + carry;
        acc[k] = t as u64;
        carry = t >> 64;
        k += 1;
    }
}

/// `a * b` as `width` limbs.
pub(crate) fn mul(a: &[u64], b: &[u64], width: usize) -> Vec<u64> {
    let mut out = vec![0; width];
    mul_add(&mut out, a, b);
    out
}

/// `a^e` as `width` limbs.
pub(crate) fn pow(a: &[u64], mut e: u64, width: usize) -> Vec<u64> {
    let mut result = vec![0; width];
    result[0] = 1;
    let mut base = a.to_vec();
    base.resize(width, 0);
    while e > 0 {
        if e & 1 == 1 {
            result = mul(&result, &base, width);
        }
        e >>= 1;
        if e > 0 {
            base = mul(&base, &base, width);
        }
    }
    result
}

/// Compares two numbers of any widths.
pub(crate) fn cmp(a: &[u64], b: &[u64]) -> std::cmp::Ordering {
    let la = sig_len(a);
    let lb = sig_len(b);
    if la != lb {
        return la.cmp(&lb);
    }
    for i in (0..la).rev() {
        if a[i] != b[i] {
            return a[i].cmp(&b[i]);
        }
    }
    std::cmp::Ordering::Equal
}

/// `a` as `(m, e)` with `a ≈ m · 2^e` (`m` from the top 128 bits).
fn to_parts(a: &[u64]) -> (f64, i64) {
    let n = sig_len(a);
    match n {
        0 => (0.0, 0),
        1 => (a[0] as f64, 0),
        _ => {
            let m = a[n - 1] as f64 * 18_446_744_073_709_551_616.0 + a[n - 2] as f64;
            (m, 64 * (n as i64 - 2))
        }
    }
}

/// `num / den` as the nearest `f64` (relative error about 2^-52); 0 if `den` is zero.
pub(crate) fn ratio_f64(num: &[u64], den: &[u64]) -> f64 {
    let (mn, en) = to_parts(num);
    let (md, ed) = to_parts(den);
    if md == 0.0 || mn == 0.0 {
        return 0.0;
    }
    let e = (en - ed).clamp(-4000, 4000) as i32;
    let mut r = mn / md;
    // Apply 2^e in steps that cannot overflow or underflow prematurely.
    let mut e = e;
    while e > 0 {
        let s = e.min(1000);
        r *= 2f64.powi(s);
        e -= s;
    }
    while e < 0 {
        let s = (-e).min(1000);
        r /= 2f64.powi(s);
        e += s;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(v: &[u64]) -> BigUint {
        to_big(v)
    }

    proptest! {
        #[test]
        fn mul_add_matches_biguint(a in prop::collection::vec(any::<u64>(), 1..5),
                                   b in prop::collection::vec(any::<u64>(), 1..5),
                                   c in prop::collection::vec(any::<u64>(), 1..5)) {
            let width = 10;
            let mut acc = c.clone();
            acc.resize(width, 0);
            mul_add(&mut acc, &a, &b);
            prop_assert_eq!(big(&acc), big(&c) + big(&a) * big(&b));
        }

        #[test]
        fn add_sub_round_trip(a in prop::collection::vec(any::<u64>(), 1..5),
                              b in prop::collection::vec(any::<u64>(), 1..5)) {
            let mut acc = a.clone();
            acc.resize(6, 0);
            add(&mut acc, &b);
            prop_assert_eq!(big(&acc), big(&a) + big(&b));
            sub(&mut acc, &b);
            prop_assert_eq!(big(&acc), big(&a));
        }
    }

    #[test]
    fn pow_and_ratio() {
        let six = [6u64];
        let p = pow(&six, 100, 5);
        assert_eq!(big(&p), BigUint::from(6u32).pow(100));
        assert!((ratio_f64(&[1], &p) - 6f64.powi(-100)).abs() < 1e-90);
        assert_eq!(ratio_f64(&[0], &p), 0.0);
        assert!((ratio_f64(&[27], &[216]) - 0.125).abs() < 1e-15);
    }
}
