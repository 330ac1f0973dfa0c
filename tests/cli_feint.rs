//! Celesia Feint (CEL-R11) and the head injury's disadvantage (CEL-R18) through the real
//! `fray` binary: a scripted `fray fight --strict`, where every die and choice comes from the
//! script, and the legal options a human would be offered.

use std::process::{Command, Output};

fn fray(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run fray")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A feint that works, spent by the next attack (the hobgoblin's DEX +2 is gone from its DV),
/// then an attack with it back; `--strict` fails on the first request the script leaves out.
#[test]
fn a_strict_scripted_feint_denies_the_dex_bonus_once() {
    let file = "tests/golden/celesia/f01-feint-meets-the-dc.toml";
    let out = fray(&["fight", file, "--strict"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(
        log.contains(
            "Ann's Feint check (CEL-R11): d20 7 +5 Bluff = 12 vs DC (10 + BAB + WIS) 12: feinted"
        ),
        "{log}"
    );
    assert!(
        log.contains("= 14 vs DV 14 [ +4 armour, shield, natural +2 DEX -2 feinted: no DEX bonus (CEL-R11) ] — hit"),
        "{log}"
    );
    assert!(
        log.contains("= 14 vs DV 16 [ +4 armour, shield, natural +2 DEX ] — miss"),
        "{log}"
    );
    // One die fewer: the second attack's roll is missing, and --strict names the request.
    let short = fray(&["fight", file, "--strict", "--dice", "2,19,7,13,5"]);
    assert_eq!(short.status.code(), Some(2), "{}", text(&short.stderr));
    assert!(
        text(&short.stderr).contains("CEL-R4.5"),
        "{}",
        text(&short.stderr)
    );
}

/// A feint on a mindless creature, or without a Bluff bonus, is refused naming CEL-R11; a head
/// injury rolls the Bluff check with two dice, the lower kept.
#[test]
fn feint_refusals_and_the_head_injury() {
    for (file, why) in [
        (
            "yf0-feint-a-mindless-creature",
            "lacks an Intelligence score",
        ),
        ("yf1-feint-without-bluff", "no `bluff` bonus"),
    ] {
        let out = fray(&[
            "fight",
            &format!("tests/golden/celesia/{file}.toml"),
            "--strict",
        ]);
        assert!(!out.status.success());
        let err = text(&out.stderr);
        assert!(err.contains(why) && err.contains("(CEL-R11)"), "{err}");
    }
    let out = fray(&[
        "fight",
        "tests/golden/celesia/f05-head-injury-bluff-and-intimidate.toml",
        "--strict",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = text(&out.stdout);
    assert!(
        log.contains("2d20kl1 [(15), 6] = 6 (disadvantage: head injury) 6 +5 Bluff = 11"),
        "{log}"
    );
}
