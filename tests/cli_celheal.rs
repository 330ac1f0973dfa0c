//! End-to-end through the real `fray` binary (issue 16, Celesia): the default tactics heal a
//! dying ally by spell first (CEL-R17.4, R17.8; `heal_tactics`), on the example
//! `examples/celesia/healer.toml`, and the same seed gives the same fight byte for byte.

use std::process::Command;

/// The stdout of `fray fight examples/celesia/healer.toml --seed SEED --json`.
fn fight(seed: u64) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["fight", "examples/celesia/healer.toml", "--json", "--seed"])
        .arg(seed.to_string())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run fray");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Whatever the initiative, Sera's first deed of the fight is cure light wounds on Brom, who
/// is dying (−12 hp, CON 12) next to her: the next event is his healing (1d8 + 3, so 4 to 11),
/// which makes him stable at −8 to −1 hp (disabled). No orc is ever healed by her.
#[test]
fn the_cleric_heals_the_dying_fighter_first() {
    for seed in 1..=4 {
        let text = fight(seed);
        assert_eq!(text, fight(seed), "seed {seed}: the same fight");
        let events: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON line"))
            .collect();
        let sera_deeds: Vec<usize> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                e["who"] == "sera"
                    && e["type"] == "act"
                    && !["has acts", "spends a spell slot"]
                        .contains(&e["act"].as_str().unwrap_or(""))
            })
            .map(|(i, _)| i)
            .collect();
        let first = sera_deeds[0];
        let cast = &events[first];
        assert_eq!(
            cast["act"], "casts a standard-action spell on",
            "seed {seed}: {cast}"
        );
        // Plainly, or defensively where an orc got next to her first (seed 4).
        let detail = cast["detail"].as_str().unwrap_or("");
        assert!(
            detail.starts_with("cure light wounds (level 1)"),
            "seed {seed}: {detail}"
        );
        assert_eq!(cast["on"], "brom", "seed {seed}");
        let heal = &events[first + 1];
        assert_eq!(heal["type"], "heal", "seed {seed}: {heal}");
        assert_eq!(heal["who"], "brom", "seed {seed}");
        let amount = heal["amount"].as_i64().expect("amount");
        assert!((4..=11).contains(&amount), "seed {seed}: {amount}");
        assert_eq!(heal["hp"].as_i64(), Some(-12 + amount), "seed {seed}");
        for &i in &sera_deeds {
            let e = &events[i];
            if e["detail"]
                .as_str()
                .is_some_and(|d| d.starts_with("cure light wounds"))
            {
                assert_ne!(e["on"].as_str().map(|o| o.starts_with("orc")), Some(true));
            }
        }
    }
}
