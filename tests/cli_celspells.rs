//! End-to-end: Legends of Celesia's actions on lasting spells through the real `fray` binary
//! (issue 16, `rules::spell_lasting`, `rules::spell_components`): a concentration spell held
//! with Concentrate (CEL-R11) and ended when its caster does not, a dismissal refused for a
//! spell that is not dismissible (CEL-R9), and the GM's component ruling (CEL-G3) costing acts.

#[path = "support/cli.rs"]
mod cli;
use cli::fray;

/// CEL-R11: held glitter's blindness holds through round 2 (concentrated on) and ends at the
/// end of Ilsa's round 3 turn, before Cato's single-d20 shot.
#[test]
fn a_concentration_spell_lasts_while_concentrated_on() {
    let out = fray(&[
        "fight",
        "--strict",
        "tests/golden/celesia/p02-concentration-held-then-dropped.toml",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let held = text
        .find("Ilsa concentrates to maintain its spell on Bron: held glitter (CEL-R11)")
        .expect("concentrates");
    let second = text[held..]
        .find("advantage: blind target")
        .expect("still blind in round 2");
    let ended = text
        .find("Bron is no longer blinded (CEL-R11)")
        .expect("ends unheld");
    assert!(held + second < ended, "{text}");
    let round3 = text.find("— Round 3 —").expect("round 3");
    assert!(ended > round3, "{text}");
    assert_eq!(text.matches("advantage: blind target").count(), 2, "{text}");
}

/// CEL-R9: `dismiss` on glitterdust is refused naming the rule, exit status 2 (bad input).
#[test]
fn dismissing_a_spell_that_is_not_dismissible_is_refused() {
    let out = fray(&[
        "fight",
        "--strict",
        "tests/golden/celesia/yp0-dismiss-not-dismissible.toml",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "illegal choice `dismiss glitterdust bron` for Ilsa: glitterdust is not \
                      dismissible"
        ),
        "{err}"
    );
    assert!(err.contains("(CEL-R9)"), "{err}");
}

/// CEL-G3: fireball with its component made a simple action takes all 3 acts (no "ends its
/// turn" line for Azar), glitterdust with a free preparation 2.
#[test]
fn a_simple_component_preparation_costs_an_act() {
    let out = fray(&[
        "fight",
        "--strict",
        "tests/golden/celesia/p04-prepare-components-simple.toml",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("Azar prepares a spell component: fireball"),
        "{text}"
    );
    assert!(!text.contains("no acts for Azar"), "{text}");
    assert!(!text.contains("Ilsa prepares"), "{text}");
    assert!(
        text.contains("no acts for Ilsa: ends its turn with 1 left"),
        "{text}"
    );
}

/// Wyn's mean damage dealt per fight over `fray sim FILE -n 400 --seed 1 --threads 1`.
fn wyn_dealt(file: &str) -> f64 {
    let out = fray(&[
        "sim",
        file,
        "-n",
        "400",
        "--seed",
        "1",
        "--threads",
        "1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", cli::stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    report["combatants"]
        .as_array()
        .expect("combatants")
        .iter()
        .find(|c| c["id"] == "wyn")
        .and_then(|c| c["dealt_mean"].as_f64())
        .expect("Wyn's damage")
}

/// The default tactics cast a caster's damaging spells (`caster_tactics`, CEL-R11): in the
/// seeded fight Wyn opens with a fireball on the orcs (out of reach, no friend in the burst),
/// and in `fray sim` she deals far more per fight with her spells than with haste alone (cast on
/// Brom or herself, `support_tactics`: it adds no damage of her own but her dagger's).
#[test]
fn the_default_tactics_cast_damaging_spells() {
    let out = fray(&["fight", "examples/celesia/spells.toml", "--seed", "1"]);
    assert!(out.status.success(), "{}", cli::stderr(&out));
    let log = cli::stdout(&out);
    assert!(
        log.contains("Wyn casts a standard-action spell on Orc: fireball (level 3) (CEL-R11)"),
        "{log}"
    );
    let dir = cli::scratch("haste-only");
    let text = std::fs::read_to_string("examples/celesia/spells.toml").expect("read");
    let line = text
        .lines()
        .find(|l| l.starts_with("spells = "))
        .expect("Wyn's spells");
    let haste_only = dir.join("spells.toml");
    std::fs::write(&haste_only, text.replace(line, "spells = [\"haste\"]")).expect("write");
    let with_spells = wyn_dealt("examples/celesia/spells.toml");
    let without = wyn_dealt(haste_only.to_str().expect("path"));
    assert!(
        with_spells > without + 10.0,
        "with her spells {with_spells}, haste only {without}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
