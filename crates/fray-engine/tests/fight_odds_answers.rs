//! The limit on answers per fight counts the whole fight in `fray odds --fight` (the exact
//! programme plays one round at a time, merging equal states reached with different counts),
//! as it does in a simulated fight.

use fray_cnc::Cnc;
use fray_core::fight_odds::fight_odds;
use fray_core::ruleset::RulesetBundle;
use fray_core::{AutoDriver, EndReason, Limits, NullSink};
use num_rational::BigRational;
use num_traits::ToPrimitive;

/// The C&C duel of two 1-hp monsters, with `max_answers` answers per fight.
fn duel(max_answers: u32) -> (fray_cnc::State, Limits) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/cnc/duel.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let content = Cnc::embedded_content().unwrap();
    let encounter = Cnc::load(path, &text, &content).unwrap();
    let mut limits = encounter.limits;
    limits.max_answers = max_answers;
    (encounter.state, limits)
}

/// P(stalemate) of `runs` simulated fights: the round limit, or the answers running out.
fn simulated_stalemate(state: &fray_cnc::State, limits: &Limits, runs: u64) -> u64 {
    (0..runs)
        .filter(|&seed| {
            let mut s = state.clone();
            let mut driver = AutoDriver::new(seed);
            let end = fray_core::run_fight::<Cnc>(&mut s, &mut driver, &mut NullSink, None, limits)
                .unwrap();
            end.reason == EndReason::Limit
        })
        .count() as u64
}

/// 99.9% Wilson interval of a proportion.
fn wilson_999(hits: u64, runs: u64) -> (f64, f64) {
    let (n, z) = (runs as f64, 3.2905_f64);
    let p = hits as f64 / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

#[test]
fn the_answer_limit_counts_the_whole_fight() {
    let (state, unlimited) = duel(1_000_000);
    let free = fight_odds::<Cnc>(&state, &unlimited, 1000).unwrap();
    // Enough answers for any first round, not for every second one (each round rolls two
    // initiatives and the blows): the count must carry over from round to round (were it to
    // restart, no round would run out and the stalemate would be the round limit's alone).
    let (state, limits) = duel(16);
    let odds = fight_odds::<Cnc>(&state, &limits, 1000).unwrap();
    let total: BigRational =
        odds.wins.iter().sum::<BigRational>() + &odds.none_standing + &odds.stalemate;
    assert_eq!(total, BigRational::from_integer(1.into()));
    assert_eq!(free.ends_in_round[1], odds.ends_in_round[1], "round 1 fits");
    assert!(
        odds.stalemate > free.stalemate,
        "{} vs {}",
        odds.stalemate,
        free.stalemate
    );
    let one = BigRational::from_integer(1.into());
    assert!(
        odds.stalemate < one - &odds.ends_in_round[1],
        "some second rounds fit"
    );
    let runs = 20_000;
    let (lo, hi) = wilson_999(simulated_stalemate(&state, &limits, runs), runs);
    let p = odds.stalemate.to_f64().unwrap();
    assert!(lo <= p && p <= hi, "exact {p}, simulated {lo}–{hi}");
}
