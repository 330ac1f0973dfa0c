//! Celesia Feint (CEL-R11) and the head injury's disadvantage (CEL-R18) through the real
//! `fray` binary: a scripted `fray fight --strict`, where every die and choice comes from the
//! script, and the legal options a human would be offered.

#[path = "support/cli.rs"]
mod cli;
use cli::fray;

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

/// Wil, a wizard with a dagger (d20 − 1) and Bluff +10, against Fox (fighter 3: feint DC
/// 10 + 3 + 0 = 13; DEX 18, +4; armour `dv_bonus`), who has had its turn (not flat-footed).
fn nimble_fox(dv_bonus: i32) -> String {
    format!(
        r#"schema = 1
ruleset = "celesia"
name = "the default tactics feint a nimble foe"
max_rounds = 1
[[sides]]
id = "heroes"
[[sides]]
id = "foes"
[[combatants]]
id = "wil"
name = "Wil"
side = "heroes"
at = [0, 0]
class = "wizard"
level = 1
hp = 40
scores = {{ str = 8, dex = 10, con = 10, cha = 10 }}
weapon = "dagger"
bluff = 10
[[combatants]]
id = "fox"
name = "Fox"
side = "foes"
at = [1, 0]
class = "fighter"
level = 3
hp = 40
scores = {{ str = 10, dex = 18, con = 12, wis = 10 }}
dv_bonus = {dv_bonus}
weapon = "longsword"
[script]
choices = ["fox: end"]
"#
    )
}

/// The default tactics (issue 16, CEL-R11; docs/celesia.md "Feints in the default tactics"):
/// against DV 20 (10 + 6 + DEX 4) Wil's dagger hits only on a natural 20 (a = 0.05), and on 17
/// or more without the DEX bonus (a′ = 0.20); Bluff +10 fools Fox on 3 or more (p = 0.9): the
/// feint gains (0.9 · 0.15 − 2 · 0.05) · 1.5 > 0, so fray feints (a 7: 17 ≥ 13) and strikes
/// DV 16 (a 17 − 1 = 16 hits, d4 3 − 1 = 2). Against DV 14 (no armour) the dagger hits on 15
/// or more (0.3): two blows beat the feint (0.9 · 0.2 < 0.6), and fray strikes three times.
#[test]
fn the_default_tactics_feint_a_foe_they_hit_only_on_a_natural_20() {
    let dir = std::env::temp_dir().join(format!("fray-feint-tactics-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let armoured = dir.join("armoured.toml");
    std::fs::write(&armoured, nimble_fox(6)).expect("write");
    let file = armoured.to_str().expect("path");
    // Initiative: Wil 2, Fox 19 + 4 (Fox first: it ends its turn, and is not flat-footed).
    let out = fray(&["fight", file, "--dice", "2,19,7,17,3"]);
    let log = text(&out.stdout);
    assert!(out.status.success(), "{}{log}", text(&out.stderr));
    for line in [
        "Wil's Feint check (CEL-R11): d20 7 +10 Bluff = 17 vs DC (10 + BAB + WIS) 13: feinted",
        "= 16 vs DV 16 [ +6 armour, shield, natural +4 DEX -4 feinted: no DEX bonus (CEL-R11) ] — hit",
        "38 hp left",
    ] {
        assert!(log.contains(line), "{line}:\n{log}");
    }
    let bare = dir.join("bare.toml");
    std::fs::write(&bare, nimble_fox(0)).expect("write");
    let out = fray(&[
        "fight",
        bare.to_str().expect("path"),
        "--dice",
        "2,19,5,5,5",
    ]);
    let log = text(&out.stdout);
    assert!(out.status.success(), "{}{log}", text(&out.stderr));
    assert!(!log.contains("Feint"), "{log}");
    assert_eq!(log.matches("Wil attacks Fox").count(), 3, "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}
