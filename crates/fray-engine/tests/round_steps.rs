//! `Ruleset::round_step` is the round cut at its settled points, nothing more (issue 17): for
//! every ruleset that offers points inside a round, stepping through `round_step` to the end of
//! each round gives the same events and the same state as `play_round`, fight after seeded
//! fight, on the example files (ordinary play runs `play_round`; exact odds run `round_step`).

use fray_core::driver::AutoDriver;
use fray_core::event::VecSink;
use fray_core::{Interrupt, Limits, Outcome, Ruleset, Table};
use fray_engine::{AnyEncounter, Library};
use std::path::Path;

/// How one fight compares: the settled points inside its rounds that the stepping met.
fn compare<R: Ruleset>(start: &R::State, limits: &Limits, seed: u64, states: bool) -> usize
where
    R::State: std::fmt::Debug,
{
    let (mut played, mut stepped) = (start.clone(), start.clone());
    let (mut d1, mut d2) = (AutoDriver::new(seed), AutoDriver::new(seed));
    let (mut s1, mut s2) = (VecSink::default(), VecSink::default());
    let mut inner = 0;
    {
        let mut t1 = Table::new(&mut d1, &mut s1, None, limits);
        let mut t2 = Table::new(&mut d2, &mut s2, None, limits);
        let (b1, b2) = (
            R::begin(&mut played, &mut t1),
            R::begin(&mut stepped, &mut t2),
        );
        assert_eq!(format!("{b1:?}"), format!("{b2:?}"));
        for round in 1..=limits.max_rounds {
            if b1.is_err() || !matches!(R::outcome(&played), Outcome::Ongoing) {
                break;
            }
            t1.set_round(round);
            t2.set_round(round);
            let whole = R::play_round(&mut played, &mut t1);
            let mut steps: Result<(), Interrupt> = Ok(());
            for _ in 0..1_000 {
                match R::round_step(&mut stepped, &mut t2) {
                    Ok(true) => break,
                    Ok(false) => inner += 1,
                    Err(e) => {
                        steps = Err(e);
                        break;
                    }
                }
            }
            assert_eq!(
                format!("{whole:?}"),
                format!("{steps:?}"),
                "seed {seed}, round {round}"
            );
            if states {
                assert_eq!(played, stepped, "seed {seed}, round {round}");
            }
            if whole.is_err() {
                break;
            }
        }
    }
    assert_eq!(s1.events, s2.events, "seed {seed}");
    inner
}

/// [`compare`] over `fights` seeded fights of an example file; the points met in all.
fn each_fight(file: &str, fights: u64, states: bool) -> usize {
    let lib = Library::embedded().expect("content");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("example");
    let encounter = AnyEncounter::from_text(file, &text, &lib).expect("loads");
    let mut inner = 0;
    for seed in 0..fights {
        inner += match &encounter {
            AnyEncounter::Cnc(e) => compare::<fray_cnc::Cnc>(&e.state, &e.limits, seed, states),
            AnyEncounter::Spelljammer(e) => {
                compare::<fray_spelljammer::Spelljammer>(&e.state, &e.limits, seed, states)
            }
            AnyEncounter::Osr(e) => compare::<fray_osr::Osr>(&e.state, &e.limits, seed, states),
            AnyEncounter::Odd(e) => compare::<fray_odd::Odd>(&e.state, &e.limits, seed, states),
            AnyEncounter::Celesia(e) => {
                compare::<fray_celesia::Celesia>(&e.state, &e.limits, seed, states)
            }
        };
    }
    inner
}

#[test]
fn cnc_round_steps_are_play_round() {
    for file in [
        "cnc/duel.toml",
        "cnc/skirmish-exact.toml",
        "cnc/skirmish.toml",
    ] {
        assert!(
            each_fight(file, 40, true) > 0,
            "{file}: no point inside a round"
        );
    }
}

#[test]
fn spelljammer_round_steps_are_play_round() {
    for file in [
        "spelljammer/duel.toml",
        "spelljammer/skirmish.toml",
        "spelljammer/skirmish-exact.toml",
    ] {
        assert!(
            each_fight(file, 40, true) > 0,
            "{file}: no point inside a round"
        );
    }
}

#[test]
fn odd_round_steps_are_play_round() {
    for file in ["odd/duel.toml", "odd/skirmish-exact.toml"] {
        assert!(
            each_fight(file, 40, true) > 0,
            "{file}: no point inside a round"
        );
    }
}

/// Celesia's forgetting is its `odds_key` (`rules::odds_key`: the initiative totals, the
/// natural dice once read, the tallies, a dead fighter's record), so its states are compared
/// too; the 2 vs 2 has deaths inside a round and fighters going on after them.
#[test]
fn celesia_round_steps_are_play_round() {
    for file in [
        "celesia/duel-exact.toml",
        "celesia/duel.toml",
        "celesia/skirmish-exact.toml",
    ] {
        assert!(
            each_fight(file, 40, true) > 0,
            "{file}: no point inside a round"
        );
    }
}

/// OSR's forgetting is its `odds_key` (`rules::odds_key`), so its states are compared too. The
/// armed duels' rounds are split at every action as the bare-handed bout's are (a sloppy
/// fumble's chain of free attacks lies inside one step).
#[test]
fn osr_round_steps_are_play_round() {
    let inner: usize = [
        "osr/duel-exact.toml",
        "osr/duel.toml",
        "osr/duel-armed-exact.toml",
    ]
    .iter()
    .map(|file| each_fight(file, 40, true))
    .sum();
    assert!(inner > 0, "no point inside a round");
}
