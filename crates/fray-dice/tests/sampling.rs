//! Sampled rolls agree with exact distributions: every roll is a possible value, sample means
//! converge on exact means, and frequencies pass a chi-square test against the exact pmf.

use fray_dice::{parse, Distribution, Limit, Limits, RollError, ScriptedDice, SeededDice};
use proptest::prelude::*;

fn small_expr() -> impl Strategy<Value = String> {
    let term = (
        1u32..=6,
        prop_oneof![Just(2u32), Just(4), Just(6), Just(8), Just(10), Just(20)],
        0usize..8,
    )
        .prop_map(|(n, s, m)| {
            let modifier = match m {
                0 => String::new(),
                1 => format!("kh{}", n.div_ceil(2)),
                2 => "dl1".into(),
                3 => "r1".into(),
                4 => "ro<2".into(),
                5 => "!!".into(),
                6 => format!(">={}", s.div_ceil(2)),
                _ => format!("mi{}", s / 2),
            };
            format!("{n}d{s}{modifier}")
        });
    (term.clone(), 0usize..5, term, 0i64..10).prop_map(|(a, op, b, k)| match op {
        0 => format!("{a}+{b}"),
        1 => format!("{a}-{b}"),
        2 => format!("{a}*{k}"),
        3 => format!("{a}/{}", k + 1),
        _ => format!("-{a}+{k}"),
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Every sampled total has non-zero exact probability (so lies in [min, max]), and the
    /// breakdown roll and the fast total agree.
    #[test]
    fn samples_lie_in_the_support(e in small_expr(), seed in any::<u64>()) {
        let expr = parse(&e).unwrap();
        // A smaller depth keeps exploding pools cheap; rolls beyond it are truncated mass.
        let limits = Limits { max_depth: 12, ..Limits::default() };
        let d = expr.distribution_with(&limits).unwrap();
        let mut a = SeededDice::new(seed);
        let mut b = SeededDice::new(seed);
        for _ in 0..50 {
            let full = expr.roll_with(&mut a, &limits);
            let fast = expr.roll_total_with(&mut b, &limits);
            if let Err(RollError::Limit { limit: Limit::Depth, .. }) = fast {
                prop_assert!(d.truncated_f64() > 0.0);
                prop_assert_eq!(full.map(|r| r.total), fast);
                continue;
            }
            let (full, fast) = (full.unwrap(), fast.unwrap());
            prop_assert_eq!(full.total, fast, "{}", e);
            prop_assert!(d.min() <= fast && fast <= d.max(), "{} rolled {}", e, fast);
            prop_assert!(d.probability_f64(fast) > 0.0, "{} rolled impossible {}", e, fast);
        }
    }

    /// Replaying a roll's own faces through a script reproduces it exactly.
    #[test]
    fn scripted_replay_reproduces(e in small_expr(), seed in any::<u64>()) {
        let expr = parse(&e).unwrap();
        let Ok(roll) = expr.roll(&mut SeededDice::new(seed)) else { return Ok(()) };
        let faces: Vec<u32> = roll.dice.iter().map(|d| d.face).collect();
        let again = expr.roll(&mut ScriptedDice::new(faces)).unwrap();
        prop_assert_eq!(roll, again);
    }
}

const CASES: [&str; 8] = [
    "3d6",
    "4d6kh3",
    "2d20kh1+7",
    "2d20kl1",
    "4d6r1",
    "5d10>=7",
    "2d6*2+1d4",
    "3d6!!dl1",
];

#[test]
fn sample_means_converge() {
    let n = 200_000;
    for (i, e) in CASES.iter().enumerate() {
        let expr = parse(e).unwrap();
        let d = expr.distribution().unwrap();
        let mut dice = SeededDice::new(1000 + i as u64);
        let sum: f64 = (0..n)
            .map(|_| expr.roll_total(&mut dice).unwrap() as f64)
            .sum();
        let mean = sum / n as f64;
        let tolerance = 5.0 * d.std_dev() / (n as f64).sqrt();
        assert!(
            (mean - d.mean_f64()).abs() < tolerance,
            "{e}: sample mean {mean}, exact {}",
            d.mean_f64()
        );
    }
}

/// Upper critical value of chi-square with `df` degrees of freedom at significance 1e-4
/// (Wilson–Hilferty approximation, z = 3.719).
fn chi2_critical(df: usize) -> f64 {
    let k = df as f64;
    let z = 3.719;
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

/// Chi-square statistic of `counts` (value → observed) against `d`, merging values into
/// bins of expected count at least 10. Returns (statistic, degrees of freedom).
fn chi2(d: &Distribution, samples: &[i64]) -> (f64, usize) {
    let n = samples.len() as f64;
    let pmf = d.pmf_f64();
    let mut observed = vec![0f64; pmf.len()];
    for &s in samples {
        let i = pmf
            .binary_search_by(|p| p.0.cmp(&s))
            .expect("possible value");
        observed[i] += 1.0;
    }
    let (mut stat, mut bins) = (0.0, 0);
    let (mut e_acc, mut o_acc) = (0.0, 0.0);
    for (i, (_, p)) in pmf.iter().enumerate() {
        e_acc += p * n;
        o_acc += observed[i];
        let rest: f64 = pmf[i + 1..].iter().map(|q| q.1 * n).sum();
        if e_acc >= 10.0 && rest >= 10.0 || i + 1 == pmf.len() {
            stat += (o_acc - e_acc).powi(2) / e_acc;
            bins += 1;
            e_acc = 0.0;
            o_acc = 0.0;
        }
    }
    (stat, bins - 1)
}

#[test]
fn chi_square_against_exact_pmf() {
    let n = 100_000;
    for (i, e) in CASES.iter().enumerate() {
        let expr = parse(e).unwrap();
        let d = expr.distribution().unwrap();
        let mut dice = SeededDice::new(77 + i as u64);
        let samples: Vec<i64> = (0..n)
            .map(|_| expr.roll_total(&mut dice).unwrap())
            .collect();
        let (stat, df) = chi2(&d, &samples);
        assert!(df >= 1, "{e}: too few bins");
        let crit = chi2_critical(df);
        assert!(
            stat < crit,
            "{e}: chi-square {stat:.1} with {df} df exceeds {crit:.1}"
        );
    }
}

#[test]
fn wrong_distribution_fails_chi_square() {
    // The test has power: 4d6kh3 samples do not fit the 3d6 pmf.
    let expr = parse("4d6kh3").unwrap();
    let d = parse("3d6").unwrap().distribution().unwrap();
    let mut dice = SeededDice::new(5);
    let samples: Vec<i64> = (0..100_000)
        .map(|_| expr.roll_total(&mut dice).unwrap())
        .collect();
    let (stat, df) = chi2(&d, &samples);
    assert!(stat > chi2_critical(df));
}
