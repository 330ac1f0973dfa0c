//! End-to-end: Legends of Celesia's initiator actions (CEL-R9 Initiate Boost, CEL-R11 Initiate
//! Standard Strike, CEL-R12 Initiate Full-Attack Strike, CEL-R14 Initiate or Change Stance,
//! CEL-R15 Counter and Use an Immediate-Action Ability) through the real `fray` binary: a counter
//! logged before the attack it answers, with its DV bonus in that attack's DV; a boost's bonus in
//! the attack and damage it boosts and gone after the turn; a full-attack strike's two attacks
//! and the whole turn it takes; an unknown stance refused on load naming file, line and field; and
//! the default tactics' fights of `examples/celesia/initiator.toml`: a stance before the
//! swordmaster's first attack, each strike, boost and counter within its uses, strikes (a
//! full-attack one too), boosts and counters taken, the same seed the same fight.

#[path = "support/cli.rs"]
mod cli;
use cli::{fray, stderr, stdout};

const EXAMPLE: &str = "examples/celesia/initiator.toml";
const COUNTER: &str = "tests/golden/celesia/jp04-counter-before-the-attack.toml";
const UNKNOWN: &str = "tests/golden/celesia/jq03-unknown-stance.toml";
const BOOST: &str = "tests/golden/celesia/jx01-boost-until-end-of-turn.toml";
const FULL: &str = "tests/golden/celesia/jx03-full-attack-strike.toml";

/// The value of the modifier labelled `label` in an attack's or damage's list `field`.
fn modifier(line: &serde_json::Value, field: &str, label: &str) -> Option<i64> {
    line[field]
        .as_array()?
        .iter()
        .find(|m| m["label"] == label)
        .and_then(|m| m["value"].as_i64())
}

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

/// The knight's twin parry (+4 DV) is logged before the orc's attack, whose DV is 17 + 4 = 21
/// (d20 16 + 4 = 20: a miss); the orc's second attack that turn finds no reaction: DV 17.
#[test]
fn a_counter_comes_before_the_attack_it_answers() {
    let lines = events(&["--strict", COUNTER]);
    let counter = lines
        .iter()
        .position(|l| l["type"] == "act" && l["act"] == "counters")
        .expect("a counter");
    assert_eq!(lines[counter]["who"], "knight");
    assert_eq!(lines[counter]["rule"], "CEL-R15");
    let attacks: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i]["type"] == "attack" && lines[i]["attacker"] == "orc")
        .collect();
    assert!(counter < attacks[0]);
    assert_eq!(lines[attacks[0]]["versus"], 21);
    assert_eq!(lines[attacks[0]]["result"], "miss");
    let bonus = lines[attacks[0]]["defense_modifiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["label"] == "counter")
        .expect("the counter's bonus");
    assert_eq!(bonus["value"], 4);
    assert_eq!(lines[attacks[1]]["versus"], 17);
}

/// Sharpened edge (+1 to hit, +1d4 damage until the end of the turn): its +1 in the knight's
/// round-1 attack (16 vs 14) and its 1d4 (3) in the damage (12); ended as the turn ends, before
/// the orc acts; the round-2 attack has neither.
#[test]
fn a_boost_holds_until_the_end_of_the_turn() {
    let lines = events(&["--strict", BOOST]);
    let boost = lines
        .iter()
        .position(|l| l["act"] == "initiates the boost")
        .expect("the boost");
    assert_eq!(lines[boost]["rule"], "CEL-R9");
    let attacks: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i]["type"] == "attack" && lines[i]["attacker"] == "knight")
        .collect();
    assert_eq!(attacks.len(), 2);
    assert!(boost < attacks[0]);
    assert_eq!(modifier(&lines[attacks[0]], "modifiers", "boost"), Some(1));
    assert_eq!(lines[attacks[0]]["total"], 16);
    let damage = lines
        .iter()
        .position(|l| l["type"] == "damage")
        .expect("damage");
    assert_eq!(modifier(&lines[damage], "modifiers", "boost dice"), Some(3));
    assert_eq!(lines[damage]["normal"], 12);
    let ends = lines
        .iter()
        .position(|l| l["act"] == "loses its boost")
        .expect("the boost ends");
    let orc = lines
        .iter()
        .position(|l| l["type"] == "attack" && l["attacker"] == "orc")
        .expect("the orc's attack");
    assert!(attacks[0] < ends && ends < orc);
    assert_eq!(modifier(&lines[attacks[1]], "modifiers", "boost"), None);
}

/// Storm of blades (full-attack, 2 attacks at +1): both attacks under CEL-R12, and the knight's
/// turn ends with them (3 acts: no other action is asked).
#[test]
fn a_full_attack_strike_takes_the_turn_with_its_attacks() {
    let lines = events(&["--strict", FULL]);
    let strike = lines
        .iter()
        .position(|l| l["act"] == "initiates a strike on")
        .expect("the strike");
    assert_eq!(lines[strike]["rule"], "CEL-R12");
    let attacks: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["type"] == "attack" && l["attacker"] == "knight")
        .collect();
    assert_eq!(attacks.len(), 2);
    for a in &attacks {
        assert_eq!(a["rule"], "CEL-R12");
        assert_eq!(modifier(a, "modifiers", "strike"), Some(1));
    }
    let ended = lines
        .iter()
        .position(|l| l["type"] == "turn_ended" && l["who"] == "knight")
        .expect("the knight's turn ends");
    // No act was left over to forgo (a standard action would leave one).
    assert!(lines[strike..ended]
        .iter()
        .all(|l| !(l["type"] == "forgo" && l["what"] == "acts" && l["who"] == "knight")));
}

/// `stances = ["iron gaurd"]` is refused on load with its place and the near name.
#[test]
fn an_unknown_stance_is_refused_on_load() {
    let out = fray(&["fight", UNKNOWN]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("jq03-unknown-stance.toml:25")
            && err.contains("combatants[0].stances[0]")
            && err.contains("did you mean `iron-guard`"),
        "{err}"
    );
}

/// Eight seeded fights of the example under the default tactics.
#[test]
fn the_default_tactics_take_stances_strikes_and_counters() {
    let (mut strikes, mut counters, mut full, mut boosts) = (0, 0, 0, 0);
    for seed in 1..=8 {
        let seed = seed.to_string();
        let lines = events(&["--seed", &seed, EXAMPLE]);
        let again = events(&["--seed", &seed, EXAMPLE]);
        assert_eq!(lines, again, "seed {seed}: the same fight");
        let first = |pred: &dyn Fn(&serde_json::Value) -> bool| lines.iter().position(pred);
        let stance = first(&|l| l["act"] == "initiates the stance" && l["who"] == "swordmaster");
        let attack = first(&|l| {
            l["type"] == "attack" && l["attacker"] == "swordmaster" && l["attack"] == "longsword"
        });
        if let Some(attack) = attack {
            assert!(stance.is_some_and(|s| s < attack), "seed {seed}");
        }
        let count = |act: &str, name: &str| {
            lines
                .iter()
                .filter(|l| {
                    l["act"] == act && l["detail"].as_str().is_some_and(|d| d.starts_with(name))
                })
                .count()
        };
        // Each within its uses: mountain hammer 1, storm of blades 1, stone skin 2, deflecting
        // parry 1, shield snap 2.
        assert!(
            count("initiates a strike on", "mountain hammer") <= 1,
            "seed {seed}"
        );
        assert!(
            count("initiates a strike on", "storm of blades") <= 1,
            "seed {seed}"
        );
        assert!(
            count("initiates the boost", "stone skin") <= 2,
            "seed {seed}"
        );
        full += count("initiates a strike on", "storm of blades");
        boosts += count("initiates the boost", "");
        assert!(count("counters", "deflecting parry") <= 1, "seed {seed}");
        let snap = "uses an immediate-action ability against";
        assert!(count(snap, "shield snap") <= 2, "seed {seed}");
        strikes += count("initiates a strike on", "");
        counters += count("counters", "") + count(snap, "");
    }
    assert!(
        strikes > 0 && counters > 0 && full > 0 && boosts > 0,
        "{strikes} strikes ({full} full-attack), {boosts} boosts, {counters} counters"
    );
}
