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

fn skirmish(lib: &Library) -> Session {
    example(lib, "cnc/skirmish.toml")
}

/// The example whose path ends with `suffix`, a person answering everything.
fn example(lib: &Library, suffix: &str) -> Session {
    let (path, text) = examples()
        .into_iter()
        .find(|(p, _)| p.ends_with(suffix))
        .expect(suffix);
    manual(&path, &text, lib)
}

fn parse(line: &str) -> fray_core::intervention::Intervention {
    fray_core::intervention::Intervention::parse(line)
        .expect("an intervention")
        .expect("reads")
}

#[test]
fn a_gm_intervention_is_an_answer_replayed_saved_and_undone() {
    let lib = library();
    let mut s = skirmish(&lib);
    let foe = s.roster().combatants.last().expect("a foe").key.clone();
    let hp_before = s.standings().last().expect("tally").hp;
    let (events, log) = (s.events().to_vec(), s.log().to_vec());
    s.intervene(parse(&format!("hp {foe} -2"))).expect("taken");
    assert_eq!(s.standings().last().unwrap().hp, hp_before - 2);
    let damage = s.events().iter().any(|(_, e)| {
        matches!(
            e,
            fray_core::Event::Damage {
                rule: "GM",
                normal: 2,
                ..
            }
        )
    });
    assert!(
        damage,
        "the adjustment is damage under the rule GM: {:?}",
        s.events()
    );
    assert!(s
        .events()
        .iter()
        .any(|(_, e)| matches!(e, fray_core::Event::Ruling { rule: "GM", .. })));
    // Saved and resumed, the intervention replays.
    let file = temp("intervened.jsonl");
    s.save(&file).expect("save");
    let resumed = Session::resume(&file, &lib).expect("resume");
    assert_eq!(resumed.events(), s.events());
    assert_eq!(resumed.state_hash(), s.state_hash());
    // Undone like a typed die, and redone.
    let after = (s.events().to_vec(), s.state_hash());
    s.undo().expect("undo");
    assert_eq!((s.events().to_vec(), s.log().to_vec()), (events, log));
    s.redo().expect("redo");
    assert_eq!((s.events().to_vec(), s.state_hash()), after);
}

#[test]
fn interventions_the_rules_refuse_or_mid_action_change_nothing() {
    let lib = library();
    let mut s = skirmish(&lib);
    let who = s.roster().combatants[0].key.clone();
    let before = (s.events().to_vec(), s.log().to_vec());
    for bad in [
        format!("cond {who} flying 2"),
        format!("cond {who} -prone"),
        "hp nobody -3".to_string(),
    ] {
        let err = s.intervene(parse(&bad)).unwrap_err().to_string();
        assert!(err.contains("(GM)"), "{bad}: {err}");
        assert_eq!((s.events().to_vec(), s.log().to_vec()), before, "{bad}");
    }
    // A condition the CK can set is taken, and shown.
    s.intervene(parse(&format!("cond {who} prone 1")))
        .expect("prone");
    assert!(s.events().iter().any(|(_, e)| matches!(
        e,
        fray_core::Event::Condition {
            condition: "prone",
            gained: true,
            rule: "GM",
            ..
        }
    )));
    // Once a person has answered a roll inside an action, interventions wait for its end.
    let mut guard = 0;
    loop {
        guard += 1;
        assert!(guard < 500, "no roll mid-action found");
        let roll_mid_action = matches!(s.pending(), Some(fray_core::session::Request::Roll(r))
            if r.purpose == fray_core::protocol::RollPurpose::Damage);
        if roll_mid_action {
            break;
        }
        match s.pending().cloned().expect("asked") {
            fray_core::session::Request::Roll(_) => {
                s.roll_for_me().expect("roll");
            }
            fray_core::session::Request::Choice { options, .. } => {
                let attack = options
                    .iter()
                    .find(|o| o.starts_with("attack"))
                    .unwrap_or(&options[0]);
                s.answer(Answer::Choice(attack.clone())).expect("choice");
            }
        }
    }
    let before = (s.events().to_vec(), s.log().to_vec());
    let err = s
        .intervene(parse(&format!("hp {who} +1")))
        .unwrap_err()
        .to_string();
    assert!(err.contains("under way"), "{err}");
    assert_eq!((s.events().to_vec(), s.log().to_vec()), before);
    // The attack roll just made can be overridden; an impossible result is refused.
    assert!(s.override_roll(Answer::Roll(21)).is_err());
    assert_eq!((s.events().to_vec(), s.log().to_vec()), before);
}

#[test]
fn the_gm_overrides_the_last_roll() {
    let lib = library();
    let mut s = skirmish(&lib);
    assert!(s.override_roll(Answer::Roll(1)).is_err(), "no roll yet");
    for _ in 0..500 {
        match s.pending().cloned().expect("asked") {
            fray_core::session::Request::Roll(r) if r.count == 1 => {
                s.roll_for_me().expect("roll");
                let at = s.log().len() - 1;
                let before = (s.events().to_vec(), s.log().to_vec());
                // An impossible result is refused and changes nothing.
                let too_high = u32::from(r.sides) + 1;
                assert!(s.override_roll(Answer::Roll(too_high)).is_err());
                assert_eq!((s.events().to_vec(), s.log().to_vec()), before);
                s.override_roll(Answer::Roll(1)).expect("override");
                assert_eq!(s.log()[at].answer, Answer::Roll(1));
                assert_eq!(s.log()[at].by, fray_core::session::By::Person);
                assert!(
                    s.events()
                        .iter()
                        .any(|(_, e)| format!("{e:?}").contains("roll: 1,")),
                    "the fight now has the 1"
                );
                return;
            }
            fray_core::session::Request::Roll(_) => {
                s.roll_for_me().expect("roll");
            }
            fray_core::session::Request::Choice { options, .. } => {
                s.answer(Answer::Choice(options[0].clone()))
                    .expect("choice");
            }
        }
    }
    panic!("no one-die roll was asked");
}

#[test]
fn spelljammer_takes_hit_points_and_refuses_conditions_by_name() {
    let lib = library();
    let (path, text) = examples()
        .into_iter()
        .find(|(p, _)| p.ends_with("spelljammer/skirmish.toml"))
        .expect("skirmish");
    let mut s = manual(&path, &text, &lib);
    let who = s.roster().combatants[0].key.clone();
    let hp = s.standings()[0].hp;
    s.intervene(parse(&format!("hp {who} -1"))).expect("hp");
    assert_eq!(s.standings()[0].hp, hp - 1);
    let err = s
        .intervene(parse(&format!("cond {who} prone")))
        .unwrap_err()
        .to_string();
    assert!(err.contains("no conditions"), "{err}");
}

#[test]
fn foes_the_gm_removes_leave_the_map_and_the_fight_ends_in_a_rout() {
    let lib = library();
    for suffix in ["cnc/skirmish.toml", "spelljammer/skirmish.toml"] {
        removed_foes_leave_the_map(&lib, suffix);
    }
}

fn removed_foes_leave_the_map(lib: &Library, suffix: &str) {
    let mut s = example(lib, suffix);
    let roster = s.roster().clone();
    let raiders: Vec<_> = roster
        .ids()
        .filter(|&id| roster.side_of(id).0 == 1)
        .collect();
    // One fled before the fight; the rest surrender after a round.
    s.intervene(parse(&format!("remove {} fled", roster.key(raiders[0]))))
        .expect("fled");
    assert!(s
        .intervene(parse(&format!("remove {} fled", roster.key(raiders[0]))))
        .unwrap_err()
        .to_string()
        .contains("not up"));
    let gone_at = s.events().len();
    s.set_plays(|_| true, Some(true), true);
    let ended_by_fighting = matches!(s.stop(), Stop::Ended(_));
    assert!(ended_by_fighting, "fray played to the end");
    // The one who fled never acts nor is attacked again.
    let key = roster.key(raiders[0]).to_string();
    for (_, e) in &s.events()[gone_at..] {
        let line = e.describe(&roster);
        assert!(
            !line.contains(roster.name(raiders[0])) || matches!(e, fray_core::Event::End { .. }),
            "{key} left the fight, yet: {line}"
        );
    }
    assert_eq!(
        s.standings()[raiders[0].index()].standing,
        fray_core::Standing::Fled,
        "{suffix}"
    );
    // Every raider gone without falling: the party wins by rout.
    let mut s = example(lib, suffix);
    for &r in &raiders {
        s.intervene(parse(&format!("remove {} surrendered", roster.key(r))))
            .expect("surrendered");
    }
    // The round under way is played out (the party's turns), then the fight is over.
    s.set_plays(|_| true, Some(true), true);
    let end = s
        .events()
        .iter()
        .find_map(|(_, e)| match e {
            fray_core::Event::End { winner, reason, .. } => Some((*winner, *reason)),
            _ => None,
        })
        .expect("the fight ended");
    assert_eq!(
        end,
        (
            Some(fray_core::SideId(0)),
            fray_core::ruleset::EndReason::Routed
        ),
        "{suffix}"
    );
}

/// Answers requests as a person would (fray's dice for rolls, the first option offered) until
/// round `round` asks its first question.
fn answer_until_round(s: &mut Session, round: u32) {
    for _ in 0..10_000 {
        if s.round() >= round {
            return;
        }
        match s.pending().cloned() {
            Some(fray_core::session::Request::Roll(_)) => {
                s.roll_for_me().expect("roll");
            }
            Some(fray_core::session::Request::Choice { options, .. }) => {
                s.answer(Answer::Choice(options[0].clone()))
                    .expect("choice");
            }
            None => return,
        }
    }
}

/// Issue 13: a combatant added mid-fight (a reinforcement) comes in at the last intervention
/// point, its entry held in reserve in the session's encounter text; the fight so far is
/// unchanged, save and resume keep it, undo sends it back to the reserve, and an entry that does
/// not load is refused with nothing changed.
#[test]
fn a_reinforcement_joins_mid_fight_in_every_ruleset() {
    let lib = library();
    for (suffix, entry) in [
        (
            "cnc/skirmish.toml",
            "monster = \"ogre\"\nside = \"raiders\"\nat = [30, 30]\n",
        ),
        (
            "spelljammer/skirmish.toml",
            "monster = \"orc\"\nside = \"slavers\"\nat = [30, 30]\n",
        ),
        (
            "osr/bench.toml",
            "monster = \"ogre\"\nside = \"orcs\"\nat = [30, 30]\n",
        ),
    ] {
        let mut s = example(&lib, suffix);
        answer_until_round(&mut s, 2);
        assert_eq!(s.round(), 2, "{suffix}");
        let before = (s.events().to_vec(), s.log().to_vec(), s.standings().len());
        // An entry that does not load changes nothing, and says why.
        let err = s
            .reinforce(
                "id = \"brute\"\nmonster = \"nosuchthing\"\nside = \"x\"\nat = [30, 30]\n",
                &lib,
            )
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not load"), "{suffix}: {err}");
        assert_eq!(
            (s.events().to_vec(), s.log().to_vec(), s.standings().len()),
            before,
            "{suffix}"
        );
        // The reinforcement arrives; what happened before is untouched.
        let added = s
            .reinforce(&format!("id = \"brute\"\n{entry}"), &lib)
            .expect(suffix);
        assert_eq!(added, ["brute"], "{suffix}");
        let brute = s.roster().find("brute").expect("on the roster");
        assert_eq!(s.standings().len(), before.2 + 1);
        assert_eq!(
            s.standings()[brute.index()].standing,
            fray_core::Standing::Up
        );
        assert!(
            s.events().iter().any(|(_, e)| matches!(e,
                fray_core::Event::Arrived { who, .. } if *who == brute)),
            "{suffix}: no arrival"
        );
        assert_eq!(
            s.events()[..before.0.len()],
            before.0[..],
            "{suffix}: the past changed"
        );
        // Saved and resumed: the same fight (the saved text holds the new entry).
        let file = temp(&format!("reinforced-{}.jsonl", suffix.replace('/', "-")));
        s.save(&file).expect("save");
        let resumed = Session::resume(&file, &lib).expect("resume");
        assert_eq!(resumed.state_hash(), s.state_hash(), "{suffix}");
        assert_eq!(resumed.events(), s.events(), "{suffix}");
        // Undone: back in reserve, and the fight is as it was.
        s.undo().expect("undo");
        assert_eq!(
            s.standings()[brute.index()].standing,
            fray_core::Standing::Reserve
        );
        assert_eq!(s.log(), &before.1[..], "{suffix}");
        // Brought in again from the reserve, then everyone played to the end.
        s.intervene(parse("add brute 31 30"))
            .expect("add from reserve");
        assert!(s.intervene(parse("add brute")).is_err(), "already in");
        s.set_plays(|_| true, Some(true), true);
        assert!(
            matches!(s.stop(), Stop::Ended(_)),
            "{suffix}: {:?}",
            s.stop()
        );
    }
}

/// Issue 13: a session replays from the last checkpoint (the end of a round) its log still leads
/// to. Whatever a person does — answers, undo, redo, interventions, overrides — every pause is
/// exactly the one a replay from the start gives (events and state), in every example.
#[test]
fn checkpoints_never_change_what_a_replay_from_the_start_gives() {
    let lib = library();
    for (path, text) in examples() {
        let mut s = manual(&path, &text, &lib);
        let mut rng = 0x5eed_u64 ^ path.len() as u64;
        let mut next = || {
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (rng >> 33) as usize
        };
        let file = temp(&format!("checkpoints-{}.jsonl", path.replace('/', "-")));
        let mut most = 0;
        for step in 0..160 {
            most = most.max(s.checkpoints());
            let Some(request) = s.pending().cloned() else {
                break;
            };
            match next() % 10 {
                0 if step > 3 => {
                    let _ = s.undo();
                }
                1 => {
                    let _ = s.redo();
                }
                2 => {
                    let who = s.roster().combatants[next() % s.roster().combatants.len()]
                        .key
                        .clone();
                    let _ = s.intervene(parse(&format!("hp {who} -1")));
                }
                _ => match request {
                    fray_core::session::Request::Roll(_) => {
                        s.roll_for_me().expect("roll");
                    }
                    fray_core::session::Request::Choice { options, .. } => {
                        let pick = options[next() % options.len()].clone();
                        s.answer(Answer::Choice(pick)).expect("an offered option");
                    }
                },
            }
            if step % 8 == 7 {
                s.save(&file).expect("save");
                let fresh = Session::resume(&file, &lib).expect("resume");
                assert_eq!(fresh.events(), s.events(), "{path} step {step}");
                assert_eq!(fresh.state_hash(), s.state_hash(), "{path} step {step}");
                assert_eq!(fresh.stop(), s.stop(), "{path} step {step}");
            }
        }
        if s.round() > 2 {
            assert!(most > 0, "{path}: no checkpoint was kept");
        }
    }
}
