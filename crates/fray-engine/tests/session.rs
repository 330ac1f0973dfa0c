//! Live sessions over every example encounter: answering every request through the session
//! from a recorded fight's log gives the same events and state; undo then redo, and save then
//! resume, at any pause change nothing; a refused answer loses nothing; a saved log whose
//! encounter or content changed is refused.

use fray_core::protocol::Answer;
use fray_core::session::Stop;
use fray_engine::session::{Session, SessionError};
use fray_engine::{AnyEncounter, FightOptions, Library};
use std::path::{Path, PathBuf};

fn library() -> Library {
    Library::embedded().expect("content")
}

fn examples() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(root).expect("examples/") {
        let dir = dir.expect("entry").path();
        for f in std::fs::read_dir(&dir).expect("ruleset dir") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|x| x == "toml") {
                let text = std::fs::read_to_string(&f).expect("read");
                out.push((f.display().to_string(), text));
            }
        }
    }
    out.sort();
    out
}

/// A session in which a person answers everything.
fn manual(path: &str, text: &str, lib: &Library) -> Session {
    let mut s = Session::new(path, text, lib, 1).expect("loads");
    s.set_plays(|_| true, Some(false), false);
    s
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-session-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn answering_a_recorded_log_through_the_session_replays_the_fight() {
    let lib = library();
    for (path, text) in examples() {
        let e = AnyEncounter::from_text(&path, &text, &lib).expect("loads");
        let record = e.fight(&FightOptions::seeded(42), true).expect("fight");
        let mut s = manual(&path, &text, &lib);
        for (i, answer) in record.answers.iter().enumerate() {
            assert!(s.pending().is_some(), "{path}: asked for answer {i}");
            s.answer(answer.clone())
                .unwrap_or_else(|err| panic!("{path}: answer {i} {answer:?}: {err}"));
        }
        assert!(matches!(s.stop(), Stop::Ended(_)), "{path}: {:?}", s.stop());
        assert_eq!(s.events(), record.events.as_slice(), "{path}");
        assert_eq!(s.state_hash(), record.state_hash, "{path}");
    }
}

#[test]
fn undo_then_redo_and_save_then_resume_change_nothing() {
    let lib = library();
    for (path, text) in examples() {
        let e = AnyEncounter::from_text(&path, &text, &lib).expect("loads");
        let record = e.fight(&FightOptions::seeded(7), true).expect("fight");
        let mut s = manual(&path, &text, &lib);
        let file = temp("undo-redo.jsonl");
        let step = (record.answers.len() / 12).max(1);
        for (i, answer) in record.answers.iter().enumerate() {
            s.answer(answer.clone()).expect("answer");
            if i % step != 0 {
                continue;
            }
            let (events, hash) = (s.events().to_vec(), s.state_hash());
            s.undo().expect("undo");
            assert_eq!(
                s.log().len(),
                i,
                "{path}: undo takes back exactly one answer"
            );
            s.redo().expect("redo");
            assert_eq!(
                (s.events(), s.state_hash()),
                (events.as_slice(), hash),
                "{path}"
            );
            s.save(&file).expect("save");
            let resumed = Session::resume(&file, &lib).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(resumed.events(), events.as_slice(), "{path}");
            assert_eq!(resumed.state_hash(), hash, "{path}");
            assert_eq!(resumed.log(), s.log(), "{path}");
        }
    }
}

#[test]
fn fray_plays_whom_it_is_told_and_its_dice_follow_the_seed() {
    let lib = library();
    let (path, text) = examples()
        .into_iter()
        .find(|(p, _)| p.ends_with("cnc/bench.toml"))
        .expect("bench");
    let auto = |seed| {
        let mut s = Session::new(&path, &text, &lib, seed).expect("loads");
        s.set_plays(|_| true, Some(true), true);
        s
    };
    let (a, b, c) = (auto(5), auto(5), auto(6));
    assert!(
        matches!(a.stop(), Stop::Ended(_)),
        "fray played the whole fight"
    );
    assert_eq!(a.events(), b.events());
    assert_ne!(a.events(), c.events(), "another seed, other dice");
    // Fray plays the orcs; the fighters' requests come to a person.
    let mut s = Session::new(&path, &text, &lib, 5).expect("loads");
    let roster = s.roster().clone();
    s.set_plays(|id| roster.side_of(id).0 == 1, Some(true), true);
    s.set_plays(|id| roster.side_of(id).0 == 0, None, false);
    let asked = s.pending().expect("a fighter is asked").asked();
    match asked {
        fray_core::session::Asked::Combatant(id) => assert_eq!(roster.side_of(id).0, 0),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_refused_answer_loses_nothing_and_names_the_rule() {
    let lib = library();
    let (path, text) = examples()
        .into_iter()
        .find(|(p, _)| p.ends_with("cnc/skirmish.toml"))
        .expect("skirmish");
    let mut s = manual(&path, &text, &lib);
    // Answer until a choice is asked, then give an illegal one; and an impossible die.
    for _ in 0..200 {
        let before = (s.log().to_vec(), s.events().to_vec());
        match s.pending().cloned().expect("asked") {
            fray_core::session::Request::Roll(r) => {
                let err = s.answer(Answer::Roll(r.max_total() + 1)).unwrap_err();
                assert!(matches!(err, SessionError::Refused(_)));
                assert!(err.to_string().contains(r.rule), "{err}");
                assert_eq!((s.log().to_vec(), s.events().to_vec()), before);
                s.roll_for_me().expect("roll");
            }
            fray_core::session::Request::Choice { options, .. } => {
                let err = s
                    .answer(Answer::Choice("attack nobody-at-all".into()))
                    .unwrap_err();
                assert!(matches!(err, SessionError::Refused(_)), "{err}");
                assert_eq!((s.log().to_vec(), s.events().to_vec()), before);
                s.answer(Answer::Choice(options[0].clone()))
                    .expect("option");
                return;
            }
        }
    }
    panic!("no choice was asked");
}

#[test]
fn a_saved_log_for_other_content_is_refused() {
    let lib = library();
    let (path, text) = examples()
        .into_iter()
        .find(|(p, _)| p.ends_with("cnc/skirmish.toml"))
        .expect("skirmish");
    let mut s = manual(&path, &text, &lib);
    for _ in 0..5 {
        if let Some(fray_core::session::Request::Roll(_)) = s.pending() {
            s.roll_for_me().expect("roll");
        } else if let Some(fray_core::session::Request::Choice { options, .. }) =
            s.pending().cloned()
        {
            s.answer(Answer::Choice(options[0].clone()))
                .expect("choice");
        }
    }
    let file = temp("changed.jsonl");
    s.save(&file).expect("save");
    let saved = std::fs::read_to_string(&file).expect("read");
    // The same log with the content hash of another setup.
    let header: serde_json::Value = serde_json::from_str(saved.lines().next().unwrap()).unwrap();
    let changed = saved.replacen(header["content"].as_str().unwrap(), "0123456789abcdef", 1);
    std::fs::write(&file, changed).expect("write");
    let err = Session::resume(&file, &lib).unwrap_err().to_string();
    assert!(err.contains("content changed"), "{err}");
    // A log whose answer no longer fits its request is refused at that answer.
    let mut lines: Vec<String> = saved.lines().map(str::to_string).collect();
    let mut first: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    first["fingerprint"] = serde_json::json!(12345);
    lines[1] = first.to_string();
    std::fs::write(&file, lines.join("\n")).expect("write");
    let err = Session::resume(&file, &lib).unwrap_err().to_string();
    assert!(err.contains("answer 1 of"), "{err}");
}
