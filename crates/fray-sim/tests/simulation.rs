//! Statistical and determinism properties of the simulator, on small encounters whose answers
//! are known exactly: the simulated frequencies converge on `fray odds` and on a hand-computed
//! Markov chain (each checked against a 99.9% Wilson interval with fixed seeds, so the tests
//! are deterministic), and the figures do not depend on the number of threads.

use fray_engine::{AnyEncounter, FightOptions, Library};
use fray_sim::report::{self, Context};
use fray_sim::rows::RunRows;
use fray_sim::wilson::{wilson, Z999};
use fray_sim::{simulate, SimOptions, Stats, Stop, CHUNK_RUNS};
use num_traits::ToPrimitive;
use std::sync::atomic::AtomicBool;

/// A brute orc (200 hp, so nothing in a few rounds can fell it) beside a target orc with
/// `target_hp` hit points and armour class `target_ac`.
fn duel(max_rounds: u32, target_hp: i32, target_ac: i32) -> AnyEncounter {
    let text = format!(
        r#"
schema = 1
ruleset = "cnc"
name = "Duel"
max_rounds = {max_rounds}

[[sides]]
id = "a"
name = "Side A"

[[sides]]
id = "b"
name = "Side B"

[[combatants]]
id = "brute"
side = "a"
at = [0, 0]
monster = "orc"
hp = 200

[[combatants]]
id = "target"
side = "b"
at = [1, 0]
monster = "orc"
hp = {target_hp}
ac = {target_ac}
"#
    );
    let library = Library::embedded().expect("embedded content loads");
    AnyEncounter::from_text("duel.toml", &text, &library).expect("the duel loads")
}

fn bench() -> AnyEncounter {
    let library = Library::embedded().expect("embedded content loads");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/cnc/bench.toml");
    AnyEncounter::load(path, &library).expect("bench.toml loads")
}

fn options(runs: u64, seed: u64, threads: usize) -> SimOptions {
    SimOptions {
        runs,
        seed,
        threads,
        max_rounds: None,
        target_ci: None,
        keep_rows: false,
    }
}

fn run(encounter: &AnyEncounter, options: &SimOptions) -> fray_sim::SimResult {
    let stop = AtomicBool::new(false);
    simulate(encounter, options, &stop, &mut |_, _| Ok(())).expect("the simulation runs")
}

fn assert_within(successes: u64, trials: u64, exact: f64, what: &str) {
    let interval = wilson(successes, trials, Z999);
    assert!(
        interval.contains(exact),
        "{what}: {successes}/{trials} = {:.5}, 99.9% interval [{:.5}, {:.5}] misses the exact {exact:.5}",
        successes as f64 / trials as f64,
        interval.low,
        interval.high
    );
}

#[test]
fn one_attack_frequency_converges_on_the_exact_odds() {
    // One round: the brute attacks the target exactly once, and the target cannot fell the
    // brute, so "target down after round 1" is exactly the single-attack event of `fray odds`.
    for (seed, ac) in [(1u64, 13), (2, 16), (3, 19)] {
        let encounter = duel(1, 5, ac);
        let exact = encounter
            .odds("brute", "target")
            .expect("odds")
            .down
            .to_f64()
            .expect("a probability");
        let result = run(&encounter, &options(40_000, seed, 2));
        let target = &result.stats.combatants[1];
        assert_within(target.down, result.stats.runs, exact, &format!("AC {ac}"));
        // Only side A can win, and only by felling the target.
        assert_eq!(result.stats.sides[0].wins, target.down);
        assert_eq!(result.stats.sides[1].wins, 0);
    }
}

#[test]
fn multi_round_win_rate_matches_the_markov_chain() {
    // The brute fells the one-hit-point target with each hit (probability p per round, from the
    // exact odds), and the target cannot fell the brute within the limit: a two-state chain, so
    // P(A wins within R rounds) = 1 - (1 - p)^R and P(stalemate) = (1 - p)^R, and the fight
    // lasts r rounds with probability (1 - p)^(r-1) p.
    let rounds = 5u32;
    let encounter = duel(rounds, 1, 16);
    let p = encounter
        .odds("brute", "target")
        .expect("odds")
        .down
        .to_f64()
        .expect("a probability");
    assert!(p > 0.1 && p < 0.9, "p = {p}");
    let result = run(&encounter, &options(60_000, 77, 2));
    let s = &result.stats;
    let stalemate = (1.0 - p).powi(rounds as i32);
    assert_within(s.sides[0].wins, s.runs, 1.0 - stalemate, "A wins");
    assert_within(s.round_limit, s.runs, stalemate, "round limit");
    for r in 1..=rounds {
        let exact = (1.0 - p).powi(r as i32 - 1) * p;
        let ended_in_r = s.rounds[r as usize] - if r == rounds { s.round_limit } else { 0 };
        assert_within(ended_in_r, s.runs, exact, &format!("won in round {r}"));
    }
}

#[test]
fn same_seed_same_figures_with_one_or_two_threads() {
    let encounter = bench();
    let one = run(&encounter, &options(5_500, 42, 1));
    let two = run(&encounter, &options(5_500, 42, 2));
    let three = run(&encounter, &options(5_500, 42, 3));
    assert_eq!(one.stats, two.stats);
    assert_eq!(one.stats, three.stats);
    assert_eq!(one.stats.runs, 5_500);
    let text = |r: &fray_sim::SimResult| {
        let ctx = Context {
            file: "bench.toml",
            encounter: &encounter,
            seed: 42,
            requested_runs: 5_500,
            max_rounds_flag: None,
            target_ci: None,
            replayable: true,
        };
        (report::text(&ctx, r), report::json(&ctx, r).to_string())
    };
    assert_eq!(text(&one), text(&two));
    // A different seed gives different figures.
    let other = run(&encounter, &options(5_500, 43, 2));
    assert_ne!(one.stats, other.stats);
}

#[test]
fn target_ci_stops_at_the_same_chunk_whatever_the_threads() {
    let encounter = bench();
    let mut stops = Vec::new();
    for threads in [1, 2, 4] {
        let mut o = options(1_000_000, 9, threads);
        o.target_ci = Some(0.03);
        let result = run(&encounter, &o);
        assert_eq!(result.stop, Stop::TargetCi);
        assert_eq!(result.stats.runs % CHUNK_RUNS, 0);
        stops.push(result.stats);
    }
    assert_eq!(stops[0], stops[1]);
    assert_eq!(stops[0], stops[2]);
    // One chunk fewer would not have been narrow enough.
    assert!(stops[0].runs < 1_000_000);
}

#[test]
fn rows_replay_with_fray_fight_seeds() {
    let encounter = bench();
    let mut o = options(2_300, 5, 2);
    o.keep_rows = true;
    let mut rows: Vec<RunRows> = Vec::new();
    let stop = AtomicBool::new(false);
    let result = simulate(
        &encounter,
        &o,
        &stop,
        &mut |_: &Stats, chunk: Option<&RunRows>| {
            rows.extend(chunk.cloned());
            Ok(())
        },
    )
    .expect("runs");
    assert_eq!(result.stop, Stop::Completed);
    let all: Vec<_> = rows
        .iter()
        .flat_map(|r| r.iter().map(|row| (row.run, row.seed, row.end)))
        .collect();
    assert_eq!(all.len(), 2_300);
    for (i, &(run, seed, end)) in all.iter().enumerate() {
        assert_eq!(run, i as u64, "rows come in run order");
        assert_eq!(seed, fray_sim::seeds::run_seed(5, run));
        if run % 97 == 0 {
            let fight = encounter
                .fight(
                    &FightOptions {
                        seed,
                        ..FightOptions::default()
                    },
                    false,
                )
                .expect("the fight replays");
            assert_eq!(fight.end, end, "run {run}");
        }
    }
}

#[test]
fn a_stop_request_reports_the_runs_so_far() {
    let encounter = bench();
    let stop = AtomicBool::new(false);
    let o = options(50_000, 1, 2);
    let mut chunks = 0;
    let result = simulate(&encounter, &o, &stop, &mut |_, _| {
        chunks += 1;
        if chunks == 3 {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(())
    })
    .expect("runs");
    assert_eq!(result.stop, Stop::Interrupted);
    assert!(result.stats.runs >= 3 * CHUNK_RUNS && result.stats.runs < 50_000);
    assert_eq!(result.stats.runs % CHUNK_RUNS, 0);
}

#[test]
fn limits_are_checked() {
    let encounter = bench();
    let stop = AtomicBool::new(false);
    for bad in [
        options(0, 1, 1),
        options(fray_sim::MAX_RUNS + 1, 1, 1),
        options(10, 1, 0),
        SimOptions {
            target_ci: Some(0.0),
            ..options(10, 1, 1)
        },
        SimOptions {
            max_rounds: Some(0),
            ..options(10, 1, 1)
        },
    ] {
        assert!(
            simulate(&encounter, &bad, &stop, &mut |_, _| Ok(())).is_err(),
            "{bad:?}"
        );
    }
    // A round limit of 1 makes every unfinished fight a stalemate, never a hang.
    let r = run(
        &encounter,
        &SimOptions {
            max_rounds: Some(1),
            ..options(500, 1, 1)
        },
    );
    assert_eq!(r.round_limit, 1);
    assert_eq!(
        r.stats.round_limit
            + r.stats.sides.iter().map(|s| s.wins).sum::<u64>()
            + r.stats.none_standing,
        500
    );
    assert!(r.stats.round_limit > 0);
}
