//! The fight as it stands at a session's pause: the exact odds of an attack from here are the
//! encounter's own at the start and follow the wounds once blows have landed; refusals name the
//! reason; one run of the rest of the fight is a function of its seed, and a finished fight
//! always ends as it did.

use fray_core::protocol::Answer;
use fray_core::ruleset::Situation;
use fray_core::session::Stop;
use fray_core::{CombatantId, Roster};
use fray_engine::odds::OddsFailure;
use fray_engine::session::{HereError, Session};
use fray_engine::{AnyEncounter, FightOptions, FightRecord, Library, OddsReport};
use std::path::Path;

fn library() -> Library {
    Library::embedded().expect("content")
}

fn example(name: &str) -> (String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("example");
    (path.display().to_string(), text)
}

/// A session in which a person answers everything (so nothing is answered before the first
/// request: the state at the first pause is the encounter's own).
fn manual(path: &str, text: &str, lib: &Library, seed: u64) -> Session {
    let mut s = Session::new(path, text, lib, seed).expect("loads");
    s.set_plays(|_| true, Some(false), false);
    s
}

/// The first combatant of side 0 and the first of side 1.
fn first_pair(roster: &Roster) -> (CombatantId, CombatantId) {
    let first = |side: u8| {
        roster
            .ids()
            .find(|&id| roster.side_of(id).0 == side)
            .expect("a member")
    };
    (first(0), first(1))
}

fn same_odds(a: &OddsReport, b: &OddsReport) -> bool {
    (
        &a.miss,
        &a.hit,
        &a.critical,
        &a.grievous,
        &a.fumble,
        &a.down,
        &a.damage,
    ) == (
        &b.miss,
        &b.hit,
        &b.critical,
        &b.grievous,
        &b.fumble,
        &b.down,
        &b.damage,
    ) && a.assumptions == b.assumptions
}

#[test]
fn at_the_start_the_odds_from_here_are_the_encounters_own() {
    let lib = library();
    for name in [
        "cnc/bench.toml",
        "cnc/skirmish.toml",
        "spelljammer/bench.toml",
        "spelljammer/skirmish.toml",
    ] {
        let (path, text) = example(name);
        let s = manual(&path, &text, &lib, 3);
        assert!(s.log().is_empty(), "{name}: nothing answered yet");
        let encounter = AnyEncounter::from_text(&path, &text, &lib).expect("loads");
        let roster = encounter.roster();
        let (a, t) = first_pair(roster);
        let (a, t) = (roster.key(a), roster.key(t));
        let start = encounter.odds(a, t).expect("odds");
        let here = s.odds(a, t, &Situation::default()).expect("odds from here");
        assert!(same_odds(&start, &here), "{name}: {start:?}\n{here:?}");
        // And the other way round, with a situation set.
        let situation = Situation {
            weapon: None,
            options: vec![("rear".to_string(), String::new())],
        };
        if let Ok(start) = encounter.odds_in(t, a, &situation) {
            let here = s.odds(t, a, &situation).expect("odds from here");
            assert!(same_odds(&start, &here), "{name}: {start:?}\n{here:?}");
        }
    }
}

/// A recorded fight answered through a manual session until `stop` says so; returns the
/// session and the record.
fn answer_until(
    name: &str,
    seed: u64,
    mut stop: impl FnMut(&Session) -> bool,
) -> (Session, FightRecord, AnyEncounter) {
    let lib = library();
    let (path, text) = example(name);
    let encounter = AnyEncounter::from_text(&path, &text, &lib).expect("loads");
    let record = encounter
        .fight(&FightOptions::seeded(seed), false)
        .expect("fight");
    let mut s = manual(&path, &text, &lib, seed);
    for answer in &record.answers {
        if stop(&s) {
            break;
        }
        s.answer(answer.clone()).expect("answer");
    }
    (s, record, encounter)
}

#[test]
fn a_wounded_target_is_likelier_to_drop_from_here_than_at_the_start() {
    for name in ["cnc/bench.toml", "spelljammer/bench.toml"] {
        let lib = library();
        let (path, text) = example(name);
        let encounter = AnyEncounter::from_text(&path, &text, &lib).expect("loads");
        let roster = encounter.roster().clone();
        // The odds of every blow at the start, as the encounter gives them.
        let mut start = std::collections::BTreeMap::new();
        for a in roster.ids() {
            for t in roster
                .ids()
                .filter(|&t| roster.side_of(t) != roster.side_of(a))
            {
                if let Ok(report) = encounter.odds(roster.key(a), roster.key(t)) {
                    start.insert((a, t), report);
                }
            }
        }
        // Answer until a combatant up is hurt so that a blow of a foe up, which could not fell
        // it at the start, now can (read from the start's damage and the hit points now).
        let telling = |s: &Session| {
            start.iter().find_map(|(&(a, t), report)| {
                let (attacker, target) = (&s.standings()[a.index()], &s.standings()[t.index()]);
                let now_only = report
                    .damage
                    .iter()
                    .any(|(d, p)| *p > num_zero() && *d >= target.hp && *d < target.max_hp);
                (attacker.is_up() && target.is_up() && target.hp < target.max_hp && now_only)
                    .then_some((a, t))
            })
        };
        let (s, _, _) = answer_until(name, 11, |s| telling(s).is_some());
        let (a, t) = telling(&s).unwrap_or_else(|| panic!("{name}: no telling wound"));
        let (ak, tk) = (roster.key(a), roster.key(t));
        let here = s.odds(ak, tk, &Situation::default()).expect("odds");
        let before = &start[&(a, t)];
        assert!(
            here.down > before.down,
            "{name}: {tk} has {} of {} hp; P({ak} fells it) from here {} vs {} at the start",
            s.standings()[t.index()].hp,
            s.standings()[t.index()].max_hp,
            here.down,
            before.down
        );
    }
}

fn num_zero() -> num_rational::BigRational {
    num_rational::BigRational::from_integer(0.into())
}

#[test]
fn odds_from_here_refuse_a_fallen_attacker_and_name_unknown_ids() {
    // Answer until someone is down or dead.
    let down = |s: &Session| s.standings().iter().position(|t| !t.is_up());
    let (s, _, _) = answer_until("cnc/bench.toml", 4, |s| down(s).is_some());
    let fallen = down(&s).expect("someone fell");
    let roster = s.roster();
    let fallen_key = roster.key(CombatantId(fallen as u16));
    let foe = roster
        .ids()
        .find(|&id| {
            roster.side_of(id) != roster.side_of(CombatantId(fallen as u16))
                && s.standings()[id.index()].is_up()
        })
        .expect("a foe up");
    let err = s
        .odds(fallen_key, roster.key(foe), &Situation::default())
        .unwrap_err();
    assert!(matches!(err, HereError::AttackerOut { .. }), "{err}");
    assert!(err.to_string().contains("cannot attack"), "{err}");
    // Nor can it be attacked: it is already out of the fight.
    let err = s
        .odds(roster.key(foe), fallen_key, &Situation::default())
        .unwrap_err();
    assert!(matches!(err, HereError::TargetOut { .. }), "{err}");
    assert!(err.to_string().contains("out of the fight"), "{err}");
    let err = s
        .odds("fighter-9", roster.key(foe), &Situation::default())
        .unwrap_err();
    assert!(
        matches!(err, HereError::Odds(OddsFailure::Unknown(..))),
        "{err}"
    );
}

#[test]
fn a_run_from_here_is_a_function_of_its_seed_and_a_finished_fight_ends_as_it_did() {
    let (s, record, _) = answer_until("spelljammer/bench.toml", 5, |s| s.log().len() >= 40);
    assert!(s.pending().is_some(), "paused mid-fight");
    let log = s.log().to_vec();
    let play = |seed| {
        let mut tallies = Vec::new();
        let end = s.play_from_here(seed, &mut tallies).expect("run");
        (end, tallies)
    };
    assert_eq!(play(1), play(1));
    let ends: std::collections::BTreeSet<String> =
        (0..20).map(|seed| format!("{:?}", play(seed))).collect();
    assert!(ends.len() > 1, "other seeds, other fights");
    assert_eq!(s.log(), log.as_slice(), "the session is untouched");

    // The same fight answered to its end: every run from here is that fight's end.
    let (s, _, _) = answer_until("spelljammer/bench.toml", 5, |_| false);
    let Stop::Ended(end) = s.stop().clone() else {
        panic!("the fight is over: {:?}", s.stop())
    };
    assert_eq!(end, record.end);
    for seed in 0..5 {
        assert_eq!(play_end(&s, seed), end);
    }
    assert_eq!(s.log().len(), record.answers.len());
    let _: &[Answer] = &record.answers;
}

fn play_end(s: &Session, seed: u64) -> fray_core::FightEnd {
    let mut tallies = Vec::new();
    let end = s.play_from_here(seed, &mut tallies).expect("run");
    assert_eq!(tallies, s.standings(), "the final standings");
    end
}
