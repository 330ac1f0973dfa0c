//! End-to-end: Legends of Celesia's one-handed weapon in two hands (seed, Attack, Melee; Power
//! Attack's ×1.5) through the real `fray` binary: the damage of a longsword held in both hands
//! and then in one, a grip lost when a shield is strapped on, and the refusals of a grip with a
//! strapped shield (an action) and with one intact hand (an entry, on load, naming file, line
//! and field); the default tactics taking the grip, and a hand injury ending it.

#[path = "support/cli.rs"]
mod cli;
use cli::{fray, stderr, stdout};

const TWO_HANDS: &str = "tests/golden/celesia/jt01-longsword-in-two-hands.toml";
const SHIELD_READIED: &str = "tests/golden/celesia/jt05-shield-readied-ends-grip.toml";
const SHIELD: &str = "tests/golden/celesia/ju01-no-grip-with-a-shield.toml";
const HAND: &str = "tests/golden/celesia/ju02-no-grip-with-a-hand-injury.toml";

/// The JSON lines of `fray fight --strict FILE --json`.
fn events(file: &str) -> Vec<serde_json::Value> {
    let out = fray(&["fight", "--strict", file, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Each damage event's dealt damage and its modifier labels.
fn damages(lines: &[serde_json::Value]) -> Vec<(i64, Vec<String>)> {
    lines
        .iter()
        .filter(|l| l["type"] == "damage")
        .map(|l| {
            let labels = l["modifiers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["label"].as_str().unwrap().to_string())
                .collect();
            (l["normal"].as_i64().unwrap(), labels)
        })
        .collect()
}

/// STR 16, DEX 14: roll 5 + 4 + 3 = 12 in both hands, 5 + 3 + 2 = 10 after `grip one`.
#[test]
fn a_longsword_in_both_hands_then_one() {
    let lines = events(TWO_HANDS);
    let d = damages(&lines);
    assert_eq!(d.len(), 2);
    assert_eq!(d[0], (12, vec!["1.5 × STR".into(), "1.5 × DEX".into()]));
    assert_eq!(d[1], (10, vec!["STR".into(), "DEX".into()]));
    assert!(lines
        .iter()
        .any(|l| l["act"] == "holds its weapon in one hand again" && l["rule"] == "CEL-R5.1"));
}

/// Strapping the heavy shield on takes the second hand: the grip is lost (CEL-R9), and the
/// next blow adds STR and DEX once.
#[test]
fn a_shield_strapped_on_ends_the_grip() {
    let lines = events(SHIELD_READIED);
    let lost = lines
        .iter()
        .position(|l| l["act"] == "loses its two-handed grip")
        .expect("the grip lost");
    assert_eq!(lines[lost]["rule"], "CEL-R9");
    let d = damages(&lines);
    assert_eq!((d[0].0, d[1].0), (12, 10));
}

/// `grip two` with a strapped heavy shield is refused naming CEL-R9; a hand injury refuses the
/// entry's `two_handed_grip` on load with its place and CEL-R18.
#[test]
fn no_grip_without_a_free_intact_hand() {
    let out = fray(&["fight", SHIELD]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("illegal choice `grip two`") && err.contains("(CEL-R9)"),
        "{err}"
    );
    let out = fray(&["fight", HAND]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("ju02-no-grip-with-a-hand-injury.toml:36")
            && err.contains("combatants[1].two_handed_grip")
            && err.contains("(CEL-R18)"),
        "{err}"
    );
}

/// The default tactics take the grip (issue 16, `grip_tactics`): in `examples/celesia/duel.toml`
/// the West fighter (a lone longsword, STR 15: +2, 3 in both hands) takes it in both hands (a
/// free action) before its first blow, and each of its hits then adds 1.5 × STR; the East
/// fighter's short sword is light (nothing to gain): it never grips. The same seed gives the same fight byte for byte.
#[test]
fn the_default_tactics_take_the_grip_before_a_blow() {
    let run = || {
        let out = fray(&[
            "fight",
            "examples/celesia/duel.toml",
            "--seed",
            "1",
            "--json",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let text = run();
    assert_eq!(text, run(), "the same fight");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let grip = lines
        .iter()
        .position(|l| l["act"] == "takes its weapon in both hands")
        .expect("a grip taken");
    assert_eq!(lines[grip]["who"], "w-fighter");
    let first_blow = lines
        .iter()
        .position(|l| l["type"] == "attack" && l["attacker"] == "w-fighter")
        .expect("a blow");
    assert!(grip < first_blow, "the grip comes before the blow");
    assert!(!lines
        .iter()
        .any(|l| l["act"] == "takes its weapon in both hands" && l["who"] == "e-fighter"));
    let west_hits: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["type"] == "damage" && l["target"] == "e-fighter")
        .collect();
    assert!(!west_hits.is_empty());
    for hit in west_hits {
        let labels = hit["modifiers"].as_array().unwrap();
        assert!(labels.iter().any(|m| m["label"] == "1.5 × STR"), "{hit}");
    }
}

/// A hand injury taken in place of damage ends the grip at once (CEL-R18, golden `jv04`):
/// 12 with the grip, then 10 without.
#[test]
fn a_hand_injury_ends_the_grip() {
    let lines = events("tests/golden/celesia/jv04-grip-lost-to-a-hand-injury.toml");
    assert!(lines
        .iter()
        .any(|l| l["act"] == "loses its two-handed grip" && l["rule"] == "CEL-R18"));
    let d: Vec<i64> = damages(&lines).iter().map(|(n, _)| *n).collect();
    assert_eq!(d, vec![12, 0, 10]);
}
