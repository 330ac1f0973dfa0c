//! End-to-end through the real `fray` binary (issue 16, Celesia): the default tactics help
//! allies (`support_tactics.rs`): a wizard casts haste on the fighter, who then has an extra
//! act each round (CEL-R3.4), and a squire whose dagger needs a natural 20 aids the fighter's
//! attack instead (CEL-R9 Aid Another). `examples/celesia/support.toml`.

use std::process::Command;

/// The text log of `fray fight examples/celesia/support.toml --seed SEED`.
fn fight(seed: u64) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["fight", "examples/celesia/support.toml", "--seed"])
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

/// Whatever the dice, Wyn casts haste on Brom (no foe in her reach, his blow the strongest),
/// and from his next turn Brom has 4 acts: `+1 haste (CEL-R3.4)`; she never hastes the knight,
/// and never a creature hasted already (each `hastes X` follows `X is now hasted`).
#[test]
fn the_wizard_hastes_the_fighter_who_gets_an_extra_act() {
    for seed in 1..=5 {
        let log = fight(seed);
        let lines: Vec<&str> = log.lines().map(str::trim).collect();
        let cast = lines
            .iter()
            .position(|l| l.starts_with("Wyn casts a standard-action spell on Brom: haste"))
            .unwrap_or_else(|| panic!("seed {seed}: no haste on Brom\n{log}"));
        assert!(
            lines[cast..]
                .iter()
                .any(|l| l.starts_with("Brom has acts: 4 acts: +1 haste (CEL-R3.4)")),
            "seed {seed}: Brom's extra act\n{log}"
        );
        for (i, l) in lines.iter().enumerate() {
            if let Some(rest) = l.strip_prefix("Wyn hastes ") {
                let who = rest.split(':').next().unwrap_or_default();
                assert_ne!(who, "Knight", "seed {seed}: a foe hasted");
                assert_eq!(
                    lines[i - 1],
                    format!("{who} is now hasted (CEL-R3.4)"),
                    "seed {seed}: {who} was hasted already\n{log}"
                );
            }
        }
    }
}

/// Pip, whose dagger needs a natural 20 against the knight's DV 24, aids Brom's attack on it
/// (`Pip aids Brom: +1 on the next attack roll against Knight`) in the first seeds; Brom, who
/// hits on a 15, never aids.
#[test]
fn the_squire_aids_the_fighter() {
    let mut aided = 0;
    for seed in 1..=5 {
        let log = fight(seed);
        assert!(
            !log.contains("Brom aids"),
            "seed {seed}: Brom strikes\n{log}"
        );
        aided += log
            .matches("Pip aids Brom: +1 on the next attack roll against Knight")
            .count();
    }
    assert!(aided > 0, "no aid in five fights");
}
