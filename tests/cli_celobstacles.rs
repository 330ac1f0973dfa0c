//! End-to-end: Legends of Celesia maps with obstacles and difficult terrain through the real
//! `fray` binary (issue 16, `rules::terrain`): a strict scripted fight moves around a wall and
//! refuses a move through it, and the default tactics never end a move on an obstacle square.

#[path = "support/cli.rs"]
mod cli;
use cli::{fray, scratch, stderr, stdout};

/// CEL-R9 Move: `fray fight --strict` plays the scripted move around the wall's end, 25 ft of
/// path for a square 20 ft away as the crow flies, and refuses the move through the wall.
#[test]
fn a_strict_fight_moves_around_a_wall_and_not_through_it() {
    let out = fray(&[
        "fight",
        "--strict",
        "tests/golden/celesia/o02-move-around-a-wall.toml",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("Hal moves 25 ft (move) from (0,0) to (3,4) (CEL-R9)"),
        "{text}"
    );
    let out = fray(&[
        "fight",
        "--strict",
        "tests/golden/celesia/yo0-move-through-a-wall.toml",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("illegal choice `move 4 0` for Hal: no path around the obstacles"),
        "{err}"
    );
}

/// The corridor example's obstacle squares: every `[x, y]` pair of its `[[obstacle]]` tables.
fn corridor_walls() -> Vec<(i64, i64)> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/celesia/corridor.toml"),
    )
    .expect("corridor example");
    let mut walls = Vec::new();
    let mut in_obstacle = false;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        // A table's header: `[name]` or `[[name]]`.
        if line.starts_with('[')
            && line
                .trim_start_matches('[')
                .starts_with(char::is_alphabetic)
        {
            in_obstacle = line == "[[obstacle]]";
            continue;
        }
        if !in_obstacle {
            continue;
        }
        for pair in line.split('[').skip(1) {
            let nums: Vec<i64> = pair
                .split([',', ']'])
                .filter_map(|n| n.trim().parse().ok())
                .collect();
            if let [x, y] = nums[..] {
                walls.push((x, y));
            }
        }
    }
    walls
}

/// The default tactics on the corridor map: over several seeded fights nobody's move, step,
/// charge or push ends on a wall square, and some moves are made (the fight is not idle).
#[test]
fn the_default_tactics_never_end_a_move_on_a_wall() {
    let walls = corridor_walls();
    assert!(walls.len() > 30);
    let mut moves = 0;
    for seed in ["1", "2", "3", "4", "5", "6"] {
        let out = fray(&[
            "fight",
            "examples/celesia/corridor.toml",
            "--seed",
            seed,
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
            if v["type"] != "move" {
                continue;
            }
            let to = (v["to"][0].as_i64().unwrap(), v["to"][1].as_i64().unwrap());
            assert!(
                !walls.contains(&to),
                "seed {seed}: a move onto a wall: {line}"
            );
            moves += 1;
        }
    }
    assert!(moves > 10, "only {moves} moves");
}

/// `fray sim` plays the corridor example to its end, both sides winning some fights.
#[test]
fn fray_sim_runs_the_corridor_example() {
    let out = fray(&[
        "sim",
        "examples/celesia/corridor.toml",
        "-n",
        "200",
        "--seed",
        "7",
        "--threads",
        "1",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert_eq!(report["runs"], 200, "{report}");
}

/// `fray odds` on Legends of Celesia (CEL-R9, `rules::line_of_effect`): the orc stands
/// diagonally next to Hal across the corner where two obstacles meet (golden `o12`), so the
/// longsword in reach has no line of effect: the odds close in to the nearest free square with a
/// line, (2, 0), instead of striking across the wall from (0, 0).
#[test]
fn celesia_odds_close_in_around_a_diagonal_wall() {
    let out = fray(&[
        "odds",
        "tests/golden/celesia/o12-no-opportunity-across-a-diagonal-wall.toml",
        "--attacker",
        "hal",
        "--target",
        "orc",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        text.contains("it has closed in: from (0, 0) to (2, 0), 5 ft from the target"),
        "{text}"
    );
}

/// `fray odds` on Legends of Celesia: an orc walled in on every side but the diagonal corner
/// Hal stands at (no line across it) leaves Hal no blow and no shot: refused, naming CEL-R9 and
/// the wall, with no odds printed.
#[test]
fn celesia_odds_refuse_an_attack_with_no_line_of_effect() {
    let dir = scratch("walled-in");
    let file = dir.join("walled-in.toml");
    std::fs::write(
        &file,
        r#"schema = 1
ruleset = "celesia"
name = "an orc walled in"

[[sides]]
id = "heroes"

[[sides]]
id = "orcs"

[[obstacle]]
squares = [[1, 0], [0, 1], [2, 0], [0, 2], [2, 1], [1, 2], [2, 2]]

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
ranged = "longbow"

[[combatants]]
id = "orc"
name = "Orc"
side = "orcs"
at = [1, 1]
monster = "orc"
hp = 40
"#,
    )
    .expect("write encounter");
    let out = fray(&[
        "odds",
        file.to_str().expect("path"),
        "--attacker",
        "hal",
        "--target",
        "orc",
    ]);
    let err = stderr(&out);
    assert!(!out.status.success(), "{}", stdout(&out));
    assert!(
        err.contains(
            "an obstacle blocks every line from hal to orc (no line of effect or sight), and no \
             free square from which a blow reaches orc has one (CEL-R9)"
        ),
        "{err}"
    );
    assert!(!stdout(&out).contains("hit "), "{}", stdout(&out));
}
