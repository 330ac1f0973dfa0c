//! Wilson score intervals for a proportion (win rates, draw rates).
//!
//! The Wilson interval stays inside [0, 1] and behaves well for rates near 0 or 1 and for small
//! samples, unlike the normal ("Wald") approximation.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;
/// z for a two-sided 99.9% interval.
pub const Z999: f64 = 3.290_526_731_491_926;

/// A confidence interval for a proportion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower bound (≥ 0).
    pub low: f64,
    /// Upper bound (≤ 1).
    pub high: f64,
}

impl Interval {
    /// `high - low`.
    pub fn width(&self) -> f64 {
        self.high - self.low
    }

    /// Whether `p` lies inside the interval (bounds included).
    pub fn contains(&self, p: f64) -> bool {
        self.low <= p && p <= self.high
    }
}

/// The Wilson score interval of `successes` out of `trials` for the normal quantile `z`
/// ([`Z95`], [`Z999`]). With no trials it is the whole of [0, 1].
pub fn wilson(successes: u64, trials: u64, z: f64) -> Interval {
    if trials == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    Interval {
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // 50 of 100: the textbook Wilson 95% interval is [0.4038, 0.5962].
        let i = wilson(50, 100, Z95);
        assert!((i.low - 0.4038).abs() < 1e-4, "{i:?}");
        assert!((i.high - 0.5962).abs() < 1e-4, "{i:?}");
        // 0 of 10: [0, 0.2775].
        let i = wilson(0, 10, Z95);
        assert_eq!(i.low, 0.0);
        assert!((i.high - 0.2775).abs() < 1e-4, "{i:?}");
        assert_eq!(wilson(0, 0, Z95).width(), 1.0);
    }

    #[test]
    fn narrows_with_more_trials_and_stays_in_bounds() {
        let mut last = 1.0;
        for n in [10u64, 100, 1_000, 10_000, 100_000] {
            let i = wilson(n / 3, n, Z95);
            assert!(i.width() < last);
            assert!(i.low >= 0.0 && i.high <= 1.0);
            assert!(i.contains(1.0 / 3.0));
            last = i.width();
        }
        let all = wilson(10, 10, Z999);
        assert_eq!(all.high, 1.0);
        assert!(all.low > 0.4);
    }
}
