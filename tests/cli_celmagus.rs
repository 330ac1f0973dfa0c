//! End-to-end through the real `fray` binary (issue 16, Celesia): the default tactics take the
//! magus's actions (CEL-R9 Spell Combat, CEL-R11 Spellstrike; `magus_tactics.rs`) in seeded
//! fights and in `fray sim`.

use std::process::Command;

fn root() -> &'static str {
    env!("CARGO_MANIFEST_DIR")
}

/// The text log of `fray fight FILE --seed SEED`.
fn fight(file: &str, seed: u64) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["fight", file, "--seed", &seed.to_string()])
        .current_dir(root())
        .output()
        .expect("run fray");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `examples/celesia/magus.toml` with `key = …` lines replaced, in a temporary file.
fn variant(name: &str, replace: &[(&str, &str)]) -> std::path::PathBuf {
    let mut text =
        std::fs::read_to_string(format!("{}/examples/celesia/magus.toml", root())).expect("read");
    text.truncate(text.find("[script]").expect("a script"));
    for (key, line) in replace {
        let start = text.find(&format!("\n{key} = ")).expect("the key") + 1;
        let end = start + text[start..].find('\n').expect("a line end");
        text.replace_range(start..end, line);
    }
    let dir = std::env::temp_dir().join(format!("fray-celmagus-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("magus.toml");
    std::fs::write(&path, text).expect("write");
    path
}

/// Sela's mean damage dealt per fight over `fray sim FILE -n 400 --seed 1 --max-rounds 10`.
fn sela_dealt(file: &str) -> f64 {
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["sim", file, "-n", "400", "--seed", "1", "--threads", "1"])
        .args(["--max-rounds", "10", "--json"])
        .current_dir(root())
        .output()
        .expect("run fray");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    report["combatants"]
        .as_array()
        .expect("combatants")
        .iter()
        .find(|c| c["id"] == "sela")
        .and_then(|c| c["dealt_mean"].as_f64())
        .expect("Sela's damage")
}

/// With a hand free, Sela takes Spell Combat (the rapier at −2, then a spell) in the seeded
/// fights of the example: it names the action, the casting and the slot it spends.
#[test]
fn the_example_magus_takes_spell_combat() {
    let logs: Vec<String> = (1..=3)
        .map(|seed| fight("examples/celesia/magus.toml", seed))
        .collect();
    for log in &logs {
        assert!(log.contains("Sela takes spell combat against"), "{log}");
        assert!(log.contains("-2 spell combat (CEL-R9)"), "{log}");
    }
    assert!(
        logs.iter()
            .any(|l| l.contains("Sela casts in spell combat on")
                && l.contains("Sela spends a spell slot")),
        "{}",
        logs.join("\n")
    );
}

/// With a light shield strapped on she has no hand free for Spell Combat: she delivers
/// shocking grasp with the rapier (Spellstrike) instead.
#[test]
fn a_magus_with_a_shield_spellstrikes() {
    let file = variant(
        "shield",
        &[("weapon", "weapon = \"rapier\"\nshield = \"light shield\"")],
    );
    let logs: Vec<String> = (1..=4)
        .map(|seed| fight(file.to_str().expect("path"), seed))
        .collect();
    assert!(
        logs.iter().any(|l| l
            .contains("Sela strikes with a spell against Orc 1: shocking grasp (level 1): the rapier's attack instead of a touch attack")),
        "{}",
        logs.join("\n")
    );
    assert!(logs.iter().all(|l| !l.contains("spell combat against")));
    let _ = std::fs::remove_dir_all(file.parent().expect("dir"));
}

/// In `fray sim` the spells pay: Sela deals more damage per fight with her slots than with
/// none (`slots = [0, 0]`: she can only strike).
#[test]
fn the_simulator_plays_the_magus_actions() {
    let spent = variant("noslots", &[("slots", "slots = [0, 0]")]);
    let with_spells = sela_dealt("examples/celesia/magus.toml");
    let without = sela_dealt(spent.to_str().expect("path"));
    assert!(
        with_spells > without + 10.0,
        "with slots {with_spells}, without {without}"
    );
    let _ = std::fs::remove_dir_all(spent.parent().expect("dir"));
}
