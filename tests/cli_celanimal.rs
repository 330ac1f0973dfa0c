//! End-to-end: Legends of Celesia's Handle an Animal (CEL-R9) and Push an Animal (CEL-R12)
//! through the real `fray` binary: a scripted command and the wolf's bite it allows, a refused
//! command, and the default tactics' fights, in which no trained animal ever attacks before its
//! handler's check has given it a command, and the same seed gives the same fight.

#[path = "support/cli.rs"]
mod cli;
use cli::{fray, stderr, stdout};

const EXAMPLE: &str = "examples/celesia/animal.toml";
const ATTACKS: &str = "tests/golden/celesia/jd1-handle-an-animal-attacks-on-command.toml";
const UNKNOWN: &str = "tests/golden/celesia/yz0-handle-a-trick-it-does-not-know.toml";

/// The JSON lines of `fray fight ARGS --json`.
fn events(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["fight"];
    all.extend(args);
    all.push("--json");
    let out = fray(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Rhea's Handle Animal check (d20 8 + 2 CHA = 10 vs DC 10) makes Grey obey `attack orc`, and
/// only then does Grey bite the orc (18 vs DV 14, 8 damage).
#[test]
fn a_command_then_the_bite_it_allows() {
    let lines = events(&["--strict", ATTACKS]);
    let at = |pred: &dyn Fn(&serde_json::Value) -> bool| {
        lines
            .iter()
            .position(pred)
            .expect("the event is in the log")
    };
    let check = at(&|l| l["type"] == "check" && l["purpose"] == "Handle an Animal");
    assert_eq!(lines[check]["total"], 10);
    assert_eq!(lines[check]["target"], 10);
    assert_eq!(lines[check]["success"], true);
    let obeys = at(&|l| l["type"] == "act" && l["act"] == "obeys" && l["who"] == "grey");
    let bite = at(&|l| l["type"] == "attack" && l["attacker"] == "grey");
    assert!(check < obeys && obeys < bite);
    assert_eq!(lines[bite]["attack"], "bite");
    assert_eq!(lines[bite]["total"], 18);
}

/// `handle grey come` for a wolf that knows only `attack` is refused naming Push an Animal.
#[test]
fn an_unknown_trick_is_refused_naming_the_push() {
    let out = fray(&["fight", "--strict", UNKNOWN]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("grey does not know `come`: push it (CEL-R12 Push an Animal) (CEL-R9)"),
        "{err}"
    );
}

/// Over several seeded fights of the example, the default tactics command the wolves and they
/// attack, but never before their first command: a trained animal does not act on its own.
/// The same seed twice gives the same fight, byte for byte.
#[test]
fn animals_attack_only_once_commanded_and_fights_repeat() {
    let mut commanded_attacks = 0;
    for seed in 1..=12 {
        let seed = seed.to_string();
        let lines = events(&[EXAMPLE, "--seed", &seed]);
        for wolf in ["grey", "ash"] {
            let first_command = lines
                .iter()
                .position(|l| l["type"] == "act" && l["act"] == "obeys" && l["who"] == wolf);
            let first_attack = lines
                .iter()
                .position(|l| l["type"] == "attack" && l["attacker"] == wolf);
            if let Some(a) = first_attack {
                let c = first_command.expect("an animal that attacked had a command");
                assert!(c < a, "seed {seed}: {wolf} attacked before any command");
                commanded_attacks += 1;
            }
        }
        let again = events(&[EXAMPLE, "--seed", &seed]);
        assert_eq!(lines, again, "seed {seed}: the same seed, another fight");
    }
    assert!(commanded_attacks > 0, "no wolf ever attacked on command");
}
