//! End-to-end through the real `fray` binary (issue 16, Celesia): the tracker's `status` shows
//! the map's hazards to the GM only and ability penalties to the GM and the combatant's own
//! side (CEL-R10.10 Move, CEL-R6.2); a hazard's fight seen by a player carries no GM-only event;
//! the default tactics of a grappler and of an untier (CEL-R10.10).

use std::io::Write;
use std::process::{Command, Stdio};

/// A fight with a hazard and lasting ability penalties on both sides.
const ENCOUNTER: &str = r#"
schema = 1
ruleset = "celesia"
name = "status of hazards and penalties"

[[sides]]
id = "heroes"

[[sides]]
id = "orcs"

[[hazard]]
name = "fire pit"
squares = [[3, 1]]
damage = "1d6"

[[combatants]]
id = "hal"
name = "Hal"
side = "heroes"
at = [0, 0]
class = "fighter"
level = 3
hp = 30
scores = { str = 16, dex = 14, con = 14 }
ability_penalty = { dex = 2 }
weapon = "longsword"

[[combatants]]
id = "orc"
side = "orcs"
at = [1, 0]
monster = "orc"
ability_penalty = { str = 3 }
"#;

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-ct2-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("fight.toml");
    std::fs::write(&path, text).expect("write encounter");
    path
}

/// `fray run FILE ARGS…` answering `lines`, its whole output.
fn run(file: &std::path::Path, args: &[&str], lines: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .arg("run")
        .arg(file)
        .args(["--seed", "1", "--no-autosave"])
        .args(args)
        .current_dir(file.parent().expect("dir"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fray");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(lines.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The status block: the lines after `status` up to the GM dice line.
fn status(output: &str) -> String {
    let start = output.find("round ").expect("a status");
    output[start..]
        .lines()
        .take_while(|l| !l.contains("GM dice and rulings"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_status_shows_hazards_to_the_gm_and_penalties_to_their_side() {
    let file = temp_file("status", ENCOUNTER);
    let gm = status(&run(&file, &[], "status\nquit\n"));
    assert!(
        gm.contains("map: hazard: fire pit at 3 1 (1d6 damage)"),
        "{gm}"
    );
    assert!(gm.contains("Dexterity -2 (lasting)"), "{gm}");
    assert!(gm.contains("Strength -3 (lasting)"), "{gm}");
    let heroes = status(&run(&file, &["--view", "side:heroes"], "status\nquit\n"));
    assert!(heroes.contains("Dexterity -2 (lasting)"), "{heroes}");
    assert!(!heroes.contains("Strength -3"), "a foe's penalty: {heroes}");
    assert!(
        !heroes.contains("fire pit"),
        "the map is the GM's: {heroes}"
    );
    let orcs = status(&run(&file, &["--view", "side:orcs"], "status\nquit\n"));
    assert!(orcs.contains("Strength -3 (lasting)"), "{orcs}");
    assert!(!orcs.contains("Dexterity -2"), "{orcs}");
    let _ = std::fs::remove_dir_all(file.parent().expect("dir"));
}

/// The JSON lines of `fray fight FILE --json ARGS…`.
fn fight_json(file: &str, args: &[&str]) -> Vec<serde_json::Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["fight", file, "--json"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run fray");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// A hazard's placement (CEL-R10.10 Move) seen by each side's players: the public `act` line
/// naming the hazard and the orc's check reach both; no `ruling` and no foe's check reaches the
/// other side.
#[test]
fn a_hazard_placement_shows_players_no_gm_only_fact() {
    let file = "tests/golden/celesia/r10-hazard-still-held.toml";
    let gm = fight_json(file, &[]);
    let placed = |lines: &[serde_json::Value]| {
        lines.iter().any(|l| {
            l["type"] == "act"
                && l["act"] == "is placed in a hazard"
                && l["detail"].as_str().is_some_and(|d| d.contains("fire pit"))
        })
    };
    assert!(placed(&gm));
    for (view, foe) in [("side:heroes", "orc"), ("side:orcs", "hal")] {
        let seen = fight_json(file, &["--view", view]);
        assert!(placed(&seen), "{view}");
        assert!(seen.iter().all(|l| l["type"] != "ruling"), "{view}");
        assert!(
            seen.iter()
                .all(|l| !(l["type"] == "check" && l["who"] == foe)),
            "{view} sees no check of {foe}"
        );
        assert!(
            seen.len() <= gm.len(),
            "{view}: a player never sees more than the GM"
        );
    }
}

/// A grapple started by the script; fray plays the rest (`fray fight` without `--strict`).
const GRAPPLE: &str = r#"
schema = 1
ruleset = "celesia"
name = "a grappler places its foe on a hazard"
max_rounds = 2

[[sides]]
id = "heroes"

[[sides]]
id = "orcs"

[[hazard]]
name = "fire pit"
squares = [[3, 1], [4, 1]]
damage = "1d6"

[[combatants]]
id = "hal"
name = "Hal"
side = "heroes"
at = [0, 0]
class = "fighter"
level = 3
hp = 30
scores = { str = 16, dex = 14, con = 14 }
weapon = "longsword"

[[combatants]]
id = "orc"
side = "orcs"
at = [1, 0]
monster = "orc"
hp = 40

[script]
dice = [18, 5, 15, 10, 5, 4, 3, 2, 2]
choices = ["hal: grapple orc", "hal: end", "orc: end"]
"#;

/// CEL-R10.10 Move, the default tactics: the script's grapple holds, and on its next turn Hal
/// (played by fray) continues it with the shortest Move that places the orc on the fire pit;
/// the orc, its reaction spent on the attack of opportunity, cannot free itself; on its own turn,
/// still held with only its two-handed falchion, it tries to escape the grapple while the check
/// can succeed (2 + 4 = 6, then 2 + 4 − 5 = 1 against CMD 18); the third try, at −10, could reach
/// 20 + 4 − 10 = 14 at best, and total defense takes two acts: it ends its turn with one left.
#[test]
fn the_default_tactics_place_a_grappled_foe_on_a_hazard() {
    let file = temp_file("grapple", GRAPPLE);
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .arg("fight")
        .arg(&file)
        .output()
        .expect("run fray");
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{log}");
    for line in [
        "Hal attacks Orc with grapple, continued",
        "Hal moves 10 ft (move) from (0,0) to (2,0)",
        "Orc moves 10 ft (carried) from (1,0) to (3,1)",
        "Orc is placed in a hazard: fire pit at 3 1, 1d6 damage (the encounter's)",
        "+3 hazard (CEL-R10.10) → 3 normal; 37 hp left",
        "Orc attacks Hal with escape a grapple (CEL-R9): d20 2 +1 BAB (CEL-R10.1) +3 STR (CEL-R10.1) = 6 vs CMD 18",
        "-5 escape attempts this turn (CEL-R9) = 1 vs CMD 18",
        "no acts for Orc: ends its turn with 1 left",
    ] {
        assert!(log.contains(line), "{line}:\n{log}");
    }
    assert!(!log.contains("-10 escape attempts"), "{log}");
    let _ = std::fs::remove_dir_all(file.parent().expect("dir"));
}
