//! Kept-dice requests end to end, on the test ruleset `fray_engine::testkit::kept_dice` (an
//! archer shooting 1d20, 2d20kh1 or 3d20kl1): scripted dice pick the right kept die, typed
//! answers are read and checked, logs with `dice` answers replay identically, and the exact
//! odds of a kept roll are `fray-dice`'s keep distribution — the one `fray dist` prints.

use fray_core::driver::{ReplayDriver, ScriptedChoice};
use fray_core::odds::enumerate_with;
use fray_core::{
    parse_roll_answer, Answer, AnswerError, AutoDriver, Interrupt, Limits, NullSink, Rolled,
    ScriptedDriver, Table, VecSink,
};
use fray_core::{Fault, Pause};
use fray_dice::{BigInt, BigRational};
use fray_engine::testkit::kept_dice::{shoot, KeptDice, KeptState, Stance};
use std::collections::BTreeMap;
use std::process::Command;

/// Plays a fight with `driver`, returning its end state, its answer log and how it stopped.
fn fight(
    mut state: KeptState,
    driver: &mut dyn fray_core::Driver<KeptDice>,
) -> (
    KeptState,
    Vec<Answer>,
    Result<fray_core::FightEnd, Interrupt>,
) {
    let mut log = Vec::new();
    let end = fray_core::run_fight::<KeptDice>(
        &mut state,
        driver,
        &mut NullSink,
        Some(&mut log),
        &Limits::default(),
    );
    (state, log, end)
}

/// A scripted fight: die faces and `archer: stance` lines.
fn scripted(state: KeptState, faces: &[u32], stances: &[&str]) -> (KeptState, Vec<Answer>) {
    let choices = stances
        .iter()
        .map(|s| ScriptedChoice::parse(&format!("archer: {s}")).expect("line"))
        .collect();
    let mut driver = ScriptedDriver::new(faces.to_vec(), choices).strict();
    let (state, log, end) = fight(state, &mut driver);
    end.unwrap_or_else(|i| panic!("{i:?}"));
    assert_eq!(driver.faces_left(), 0, "every scripted die is used");
    (state, log)
}

fn kept(rolled: &Rolled) -> Vec<u16> {
    rolled.kept().collect()
}

#[test]
fn scripted_dice_keep_the_right_die() {
    // Advantage on 3 and 17 keeps the 17 (a hit on 15); the second die is the kept one.
    let (state, log) = scripted(KeptState::new(1, 15), &[3, 17], &["advantage"]);
    let (stance, rolled) = state.rolls[0];
    assert_eq!(stance, Stance::Advantage);
    assert_eq!((rolled.total(), rolled.faces()), (17, &[3, 17][..]));
    assert!(!rolled.is_kept(0) && rolled.is_kept(1));
    assert!(state.hit());
    assert_eq!(rolled.to_string(), "[(3), 17] = 17");
    // The log holds the choice, then every die (a total could not say which was kept).
    assert_eq!(
        log,
        vec![
            Answer::Choice("advantage".into()),
            Answer::Dice(vec![3, 17])
        ]
    );

    // Disadvantage on 12, 5, 9 keeps the 5: a miss, whatever the other dice.
    let (state, _) = scripted(KeptState::new(1, 15), &[12, 5, 19], &["disadvantage"]);
    let rolled = state.rolls[0].1;
    assert_eq!((rolled.total(), kept(&rolled)), (5, vec![5]));
    assert!(rolled.is_kept(1) && !rolled.is_kept(0) && !rolled.is_kept(2));
    assert!(!state.hit());

    // Among equal dice the earlier one is kept, as `fray roll` does.
    let (state, _) = scripted(KeptState::new(1, 15), &[7, 7], &["advantage"]);
    assert!(state.rolls[0].1.is_kept(0) && !state.rolls[0].1.is_kept(1));

    // Plain rolls are still logged as their total.
    let (state, log) = scripted(
        KeptState::new(2, 20),
        &[4, 6, 2, 1],
        &["plain", "disadvantage"],
    );
    assert_eq!(
        log,
        vec![
            Answer::Choice("plain".into()),
            Answer::Roll(4),
            Answer::Choice("disadvantage".into()),
            Answer::Dice(vec![6, 2, 1]),
        ]
    );
    assert_eq!(state.rolls[1].1.total(), 1);
}

#[test]
fn rolled_dice_read_like_fray_roll() {
    // The same faces through `fray roll EXPR --dice …` and through a request: same breakdown.
    for (stance, faces) in [
        (Stance::Advantage, "3,17"),
        (Stance::Advantage, "7,7"),
        (Stance::Disadvantage, "12,5,9"),
        (Stance::Disadvantage, "4,20,4"),
    ] {
        let state = KeptState::new(1, 30);
        let request = state.request(stance);
        let numbers: Vec<u32> = faces.split(',').map(|f| f.parse().expect("face")).collect();
        let rolled = Rolled::from_faces(&request, &numbers).expect("fits");
        let out = Command::new(env!("CARGO_BIN_EXE_fray"))
            .args(["roll", &request.dice_text(), "--dice", faces])
            .output()
            .expect("run fray");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("{} = {rolled}\n", request.dice_text())
        );
    }
}

#[test]
fn bad_scripted_dice_stop_the_fight_naming_the_roll() {
    let state = KeptState::new(1, 15);
    let line = || vec![ScriptedChoice::parse("archer: advantage").expect("line")];
    // A face out of range.
    let mut driver = ScriptedDriver::new(vec![3, 21], line());
    let (state_after, _, end) = fight(state.clone(), &mut driver);
    let interrupt = end.expect_err("21 is no d20 face");
    assert!(
        matches!(
            interrupt,
            Interrupt::Error(Fault::BadRoll { value: 21, .. })
        ),
        "{interrupt:?}"
    );
    let message = fray_engine::explain(&interrupt, &state_after.roster);
    assert!(message.contains("2d20kh1"), "{message}");
    // Too few faces: the script ran out in the middle of the pool.
    let mut driver = ScriptedDriver::new(vec![3], line());
    let (_, _, end) = fight(state, &mut driver);
    match end {
        Err(Interrupt::Pause(Pause::Roll(request))) => assert_eq!(request.dice_text(), "2d20kh1"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn typed_answers_are_read_against_the_request_and_replayed() {
    // A live table: the person types the choice and the dice; the answers are the log.
    let state = KeptState::new(3, 15);
    let mut answers = Vec::new();
    for (stance, typed) in [
        (Stance::Plain, "14"),
        (Stance::Advantage, "2d20 3 9"),
        (Stance::Disadvantage, "d20 18, 16, 20"),
    ] {
        answers.push(Answer::Choice(stance.text().into()));
        answers.push(parse_roll_answer(&state.request(stance), typed).expect(typed));
    }
    let mut replayed = state.clone();
    let end =
        fray_core::replay::<KeptDice>(&mut replayed, &answers, &mut NullSink, &Limits::default())
            .expect("the typed answers fit the fight");
    assert_eq!(end.winner, Some(fray_core::SideId(0)), "16 hits on 15");
    let totals: Vec<u32> = replayed.rolls.iter().map(|(_, r)| r.total()).collect();
    assert_eq!(totals, vec![14, 9, 16]);

    // What a person may get wrong, each refused with the request named.
    let advantage = state.request(Stance::Advantage);
    for (typed, message) in [
        ("14", "2d20kh1 needs 2 dice between 1 and 20; got 1 die"),
        (
            "3 17 5",
            "2d20kh1 needs 2 dice between 1 and 20; got 3 dice",
        ),
        (
            "3 0",
            "2d20kh1 needs 2 dice between 1 and 20; 0 is not a face of a d20",
        ),
        (
            "2d6 3 4",
            "2d20kh1 needs 2 dice between 1 and 20; got dice for 2d6",
        ),
        (
            "3 x",
            "2d20kh1 needs 2 dice between 1 and 20; `x` is not a number",
        ),
    ] {
        let error = parse_roll_answer(&advantage, typed).expect_err(typed);
        assert_eq!(error.to_string(), message);
        assert_eq!(error.request(), &advantage);
    }
}

#[test]
fn seeded_fights_replay_identically_from_their_logs() {
    for seed in 0..50 {
        let mut driver = AutoDriver::new(seed);
        let (end_state, log, end) = fight(KeptState::new(6, 18), &mut driver);
        let end = end.expect("a seeded fight ends");
        // Every kept roll is logged die by die, every plain one by its total.
        for (answer, (stance, rolled)) in log.iter().skip(1).step_by(2).zip(&end_state.rolls) {
            match stance {
                Stance::Plain => assert_eq!(answer, &Answer::Roll(rolled.total())),
                _ => assert_eq!(
                    answer,
                    &Answer::Dice(rolled.faces().iter().map(|&f| u32::from(f)).collect())
                ),
            }
        }
        // Saved as JSON and loaded again, the log replays to the same state.
        let saved = serde_json::to_string(&log).expect("log");
        let loaded: Vec<Answer> = serde_json::from_str(&saved).expect("log");
        let mut replayed = KeptState::new(6, 18);
        let again = fray_core::replay::<KeptDice>(
            &mut replayed,
            &loaded,
            &mut NullSink,
            &Limits::default(),
        )
        .expect("replay");
        assert_eq!((replayed, again), (end_state, end), "seed {seed}");
    }
}

#[test]
fn the_log_format_is_compact_and_stable() {
    let log = vec![
        Answer::Choice("advantage".into()),
        Answer::Dice(vec![3, 17]),
        Answer::Roll(14),
    ];
    assert_eq!(
        serde_json::to_string(&log).expect("log"),
        r#"[{"choice":"advantage"},{"dice":[3,17]},{"roll":14}]"#
    );
}

#[test]
fn a_log_that_does_not_fit_a_kept_roll_is_refused() {
    let state = KeptState::new(1, 15);
    let refused = |roll: Answer| {
        let answers = vec![Answer::Choice("advantage".into()), roll];
        let mut replayed = state.clone();
        let mut driver = ReplayDriver::new(&answers);
        let end = fray_core::run_fight::<KeptDice>(
            &mut replayed,
            &mut driver,
            &mut NullSink,
            None,
            &Limits::default(),
        );
        match end {
            Err(Interrupt::Error(Fault::BadAnswer(error))) => error,
            other => panic!("{other:?}"),
        }
    };
    let advantage = state.request(Stance::Advantage);
    assert_eq!(
        refused(Answer::Roll(17)),
        AnswerError::DiceNeeded {
            request: advantage,
            total: 17
        }
    );
    assert_eq!(
        refused(Answer::Dice(vec![17])),
        AnswerError::WrongCount {
            request: advantage,
            got: 1
        }
    );
    assert_eq!(
        refused(Answer::Dice(vec![3, 25])),
        AnswerError::FaceOutOfRange {
            request: advantage,
            face: 25
        }
    );
    let message = fray_engine::explain(
        &Interrupt::Error(Fault::BadAnswer(refused(Answer::Roll(17)))),
        &state.roster,
    );
    assert!(
        message.contains("archer") && message.contains("KEPT-1") && message.contains("2d20kh1"),
        "{message}"
    );
}

#[test]
fn a_kept_pool_over_the_limit_ends_the_fight_with_its_reason() {
    // The seeded tactics shoot `plain` first: make that roll a large kept pool.
    let limit = fray_core::MAX_POOL_DICE as u16;
    let mut state = KeptState::new(1, 15);
    state.requests[0] = state.request(Stance::Advantage);
    state.requests[0].count = limit;
    let (after, log, end) = fight(state.clone(), &mut AutoDriver::new(1));
    assert_eq!(end.expect("ends").limit, None, "{limit} dice are allowed");
    assert_eq!(after.rolls[0].1.faces().len(), usize::from(limit));
    assert!(matches!(&log[1], Answer::Dice(dice) if dice.len() == usize::from(limit)));
    state.requests[0].count = limit + 1;
    let (_, _, end) = fight(state, &mut AutoDriver::new(1));
    let end = end.expect("a limit inside a fight is a stalemate, not an error");
    assert!(end.stalemate());
    assert_eq!(end.limit, Some("dice per kept-dice request"));
}

#[test]
fn plain_pools_draw_exactly_what_they_drew_before() {
    // The seeded driver rolls a plain pool face by face, like `SeededDice::roll_sum`, so every
    // seed reproduces the fights it produced before kept dice existed.
    let mut driver = AutoDriver::new(99);
    let mut totals_only = AutoDriver::new(99);
    let mut reference = fray_dice::SeededDice::new(99);
    let mut state = KeptState::new(1, 30);
    for (count, sides) in [(1, 20), (2, 6), (3, 6), (1, 100), (55, 6), (32, 4), (1, 2)] {
        state.requests[0] = fray_core::RollRequest::new(
            count,
            sides,
            None,
            fray_core::protocol::RollPurpose::Damage,
            "T",
        );
        let rolled =
            fray_core::Driver::<KeptDice>::roll(&mut driver, &state.requests[0]).expect("seeded");
        let expected = reference.roll_sum(u32::from(count), u32::from(sides));
        assert_eq!(u64::from(rolled.total()), expected, "{count}d{sides}");
        // The total-only path (what `Table::roll` asks for) draws the same.
        let total = fray_core::Driver::<KeptDice>::roll_total(&mut totals_only, &state.requests[0])
            .expect("seeded");
        assert_eq!(u64::from(total), expected, "{count}d{sides}");
        // The dice are known up to the limit.
        assert_eq!(
            rolled.faces().len(),
            if count <= 32 { usize::from(count) } else { 0 }
        );
    }
}

/// The exact probability of each total of `stance`'s roll, enumerated through the table.
fn enumerated(stance: Stance) -> BTreeMap<i64, BigRational> {
    let start = KeptState::new(1, 15);
    let mut pmf = BTreeMap::new();
    let branches = enumerate_with::<KeptDice>(
        &start,
        1,
        |state, table: &mut Table<'_, KeptDice>| shoot(state, table, stance),
        |probability, state, _events| {
            let total = i64::from(state.rolls[0].1.total());
            *pmf.entry(total)
                .or_insert_with(|| BigRational::from_integer(0.into())) += probability;
        },
    )
    .expect("enumerates");
    // One branch per possible total (plus the root), never one per face combination.
    assert_eq!(branches, pmf.len() + 1);
    pmf
}

/// `fray dist EXPR --json`'s exact probabilities.
fn fray_dist(expr: &str) -> BTreeMap<i64, BigRational> {
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["dist", expr, "--json"])
        .output()
        .expect("run fray");
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    json["exact"]
        .as_array()
        .expect("exact")
        .iter()
        .map(|row| {
            let value = row[0].as_i64().expect("value");
            let text = row[1].as_str().expect("fraction");
            let (n, d) = text.split_once('/').unwrap_or((text, "1"));
            let ratio = BigRational::new(
                n.parse::<BigInt>().expect("numerator"),
                d.parse::<BigInt>().expect("denominator"),
            );
            (value, ratio)
        })
        .collect()
}

#[test]
fn exact_odds_of_kept_rolls_are_fray_dist() {
    for stance in Stance::ALL {
        let expr = KeptState::new(1, 15).request(stance).dice_text();
        let odds = enumerated(stance);
        let library: BTreeMap<i64, BigRational> = fray_dice::parse(&expr)
            .expect("notation")
            .distribution()
            .expect("distribution")
            .pmf()
            .into_iter()
            .collect();
        assert_eq!(odds, library, "{expr}: the enumerator and fray-dice");
        assert_eq!(
            odds,
            fray_dist(&expr),
            "{expr}: the enumerator and `fray dist`"
        );
        assert_eq!(odds.len(), 20, "{expr}");
    }
    // Sanity, worked by hand: advantage rolls a 20 with 1 − (19/20)² = 39/400, and 3d20kl1
    // rolls a 1 with 1 − (19/20)³ = 1141/8000.
    assert_eq!(
        enumerated(Stance::Advantage)[&20],
        BigRational::new(39.into(), 400.into())
    );
    assert_eq!(
        enumerated(Stance::Disadvantage)[&1],
        BigRational::new(1141.into(), 8000.into())
    );
}

#[test]
fn monte_carlo_agrees_with_the_exact_odds_of_advantage() {
    // P(2d20kh1 ≥ 15) = 1 − (14/20)² = 0.51.
    let runs = 20_000;
    let mut hits = 0;
    for seed in 0..runs {
        let mut state = KeptState::new(1, 15);
        let mut driver = AutoDriver::new(seed);
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        shoot(&mut state, &mut table, Stance::Advantage).expect("seeded");
        hits += u32::from(state.hit());
    }
    let rate = f64::from(hits) / runs as f64;
    assert!((rate - 0.51).abs() < 0.015, "{rate}");
}

#[test]
fn a_plain_pool_read_die_by_die_logs_and_replays_its_dice() {
    // The archer's `plain` roll made 2d6, read with `Table::roll_pool`: its dice are logged,
    // so the replay hands the rules the same dice, not only the same total.
    let mut state = KeptState::new(1, 30);
    state.requests[0] =
        fray_core::RollRequest::new(2, 6, None, fray_core::protocol::RollPurpose::Other, "T");
    let (after, log) = scripted(state.clone(), &[5, 2], &["plain"]);
    assert_eq!(log[1], Answer::Dice(vec![5, 2]));
    let mut replayed = state.clone();
    fray_core::replay::<KeptDice>(&mut replayed, &log, &mut NullSink, &Limits::default())
        .expect("replay");
    assert_eq!(replayed.rolls[0].1.faces(), &[5, 2]);
    assert_eq!(replayed, after);
    // A person may still answer such a pool with its total: the rules then see no dice.
    let typed = vec![
        Answer::Choice("plain".into()),
        parse_roll_answer(&state.requests[0], "7").expect("a total"),
    ];
    let mut replayed = state;
    fray_core::replay::<KeptDice>(&mut replayed, &typed, &mut NullSink, &Limits::default())
        .expect("replay");
    let rolled = replayed.rolls[0].1;
    assert_eq!((rolled.total(), rolled.has_faces()), (7, false));
}
