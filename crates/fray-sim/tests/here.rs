//! "Who wins from here" (`fray_sim::here`) against the session it starts from and against
//! `fray sim`: the same session, runs and seed give the same figures with any number of
//! threads; a finished fight is its own winner every time; from the start, with fray playing
//! everyone, the win rates agree with `fray sim`'s; and a fight going badly for a side shows in
//! its chances from there.

use fray_engine::session::Session;
use fray_engine::{AnyEncounter, FightOptions, Library};
use fray_sim::here::{simulate_from_here, text, MAX_HERE_RUNS};
use fray_sim::wilson::{wilson, Z999};
use fray_sim::{simulate, SimError, SimOptions};
use std::sync::atomic::AtomicBool;

fn example(name: &str) -> (String, String) {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("example");
    (path, text)
}

/// A session in which a person answers everything: nothing is answered before the first
/// request, so the rest of the fight "from here" is the whole fight.
fn manual(name: &str, seed: u64) -> Session {
    let (path, text) = example(name);
    let lib = Library::embedded().expect("content");
    let mut s = Session::new(&path, &text, &lib, seed).expect("loads");
    s.set_plays(|_| true, Some(false), false);
    s
}

/// A manual session answered with the answers of the seeded fight `seed`, `answers` of them
/// (all, when more).
fn answered(name: &str, seed: u64, answers: usize) -> (Session, fray_engine::FightRecord) {
    let (path, text) = example(name);
    let lib = Library::embedded().expect("content");
    let record = AnyEncounter::from_text(&path, &text, &lib)
        .expect("loads")
        .fight(&FightOptions::seeded(seed), false)
        .expect("fight");
    let mut s = manual(name, seed);
    for answer in record.answers.iter().take(answers) {
        s.answer(answer.clone()).expect("answer");
    }
    (s, record)
}

#[test]
fn the_same_session_runs_and_seed_give_the_same_figures_on_any_number_of_threads() {
    let (s, _) = answered("cnc/bench.toml", 3, 30);
    let one = simulate_from_here(&s, 300, 8, 1).expect("sim");
    let two = simulate_from_here(&s, 300, 8, 2).expect("sim");
    assert_eq!(one.stats, two.stats);
    assert_eq!(text(&s, &one), text(&s, &two));
    let other = simulate_from_here(&s, 300, 9, 2).expect("sim");
    assert_ne!(one.stats, other.stats, "another seed, other fights");
    assert_eq!(one.stats.runs, 300);
    assert_eq!(one.round_now, s.round());
}

#[test]
fn runs_are_limited() {
    let s = manual("cnc/skirmish.toml", 1);
    for runs in [0, MAX_HERE_RUNS + 1] {
        let err = simulate_from_here(&s, runs, 1, 1).unwrap_err();
        assert!(matches!(err, SimError::Runs { .. }), "{err}");
        assert!(err.to_string().contains("100000"), "{err}");
    }
}

#[test]
fn a_finished_fight_is_won_by_its_winner_every_time() {
    for name in ["cnc/bench.toml", "spelljammer/bench.toml"] {
        let (s, record) = answered(name, 21, usize::MAX);
        assert!(s.pending().is_none(), "{name}: the fight is over");
        let winner = record.end.winner.expect("someone won").index();
        let result = simulate_from_here(&s, 50, 1, 2).expect("sim");
        let stats = &result.stats;
        assert_eq!(stats.sides[winner].wins, 50, "{name}");
        assert_eq!(stats.rounds[record.end.rounds as usize], 50, "{name}");
        assert_eq!(result.rounds_left_mean(), 0.0, "{name}");
        let shown = text(&s, &result);
        assert!(shown.contains(" 50  100.00%"), "{name}:\n{shown}");
    }
}

/// The pooled two-proportion test at 99.9%: `a` of `n` and `b` of `n` could be one rate.
fn one_rate(a: u64, b: u64, n: u64) -> bool {
    let pooled = (a + b) as f64 / (2 * n) as f64;
    let spread = (pooled * (1.0 - pooled) * 2.0 / n as f64).sqrt();
    ((a as f64 - b as f64) / n as f64).abs() <= 3.290_526_731_491_926 * spread.max(1e-9)
}

#[test]
fn from_the_start_with_fray_playing_everyone_the_win_rates_are_fray_sims() {
    let lib = Library::embedded().expect("content");
    let runs = 2000;
    for name in [
        "cnc/bench.toml",
        "spelljammer/bench.toml",
        "cnc/skirmish.toml",
    ] {
        let s = manual(name, 17);
        assert!(s.log().is_empty(), "{name}");
        let here = simulate_from_here(&s, runs, 17, 2).expect("sim from here");
        let (path, text) = example(name);
        let encounter = AnyEncounter::from_text(&path, &text, &lib).expect("loads");
        let options = SimOptions {
            runs,
            seed: 17,
            threads: 2,
            max_rounds: None,
            target_ci: None,
            keep_rows: false,
        };
        let sim = simulate(
            &encounter,
            &options,
            &AtomicBool::new(false),
            &mut |_, _| Ok(()),
        )
        .expect("fray sim");
        for (i, (a, b)) in here.stats.sides.iter().zip(&sim.stats.sides).enumerate() {
            assert!(
                one_rate(a.wins, b.wins, runs),
                "{name}: side {i} wins {} of {runs} from here, {} in fray sim",
                a.wins,
                b.wins
            );
        }
        // Not the same fights (other dice streams), but the same lengths on average.
        assert_ne!(here.stats, sim.stats, "{name}");
        let (h, f) = (here.stats.rounds_mean(), sim.stats.rounds_mean());
        assert!(
            (h - f).abs() < 0.15 * f.max(1.0),
            "{name}: {h} vs {f} rounds"
        );
    }
}

#[test]
fn a_fight_going_badly_shows_in_the_chances_from_there() {
    // A bench fight the orcs won (they rarely do): from four fifths of the way, their chances
    // are far above their chances at the start.
    let name = "cnc/bench.toml";
    let lib = Library::embedded().expect("content");
    let (path, text) = example(name);
    let encounter = AnyEncounter::from_text(&path, &text, &lib).expect("loads");
    let seed = (0..1000)
        .find(|&seed| {
            let end = encounter
                .fight(&FightOptions::seeded(seed), false)
                .expect("fight")
                .end;
            end.winner.is_some_and(|w| w.index() == 1)
        })
        .expect("the orcs win one of the first 1000 fights");
    let record = encounter
        .fight(&FightOptions::seeded(seed), false)
        .expect("fight");
    let start = simulate_from_here(&manual(name, seed), 1000, 5, 2).expect("sim");
    let (late, _) = answered(name, seed, record.answers.len() * 4 / 5);
    assert!(late.pending().is_some(), "still going");
    let there = simulate_from_here(&late, 1000, 5, 2).expect("sim");
    let at_start = wilson(start.stats.sides[1].wins, 1000, Z999);
    let from_there = wilson(there.stats.sides[1].wins, 1000, Z999);
    assert!(
        from_there.low > at_start.high,
        "the orcs win {} of 1000 from there, {} from the start",
        there.stats.sides[1].wins,
        start.stats.sides[1].wins
    );
    assert!(there.round_now > 0 && there.rounds_left_mean() < start.rounds_left_mean());
}
