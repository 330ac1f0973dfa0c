//! End-to-end: what players see of a Legends of Celesia fight through `fray fight --view`.
//! An invisible creature's moves reach the GM and its own side, never its foes' players
//! (CEL-R4.5 row 8; DESIGN.md "Live sessions, views and audiences").

use std::process::Command;

fn lines(args: &[&str]) -> Vec<serde_json::Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
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

/// The `move` events of `fray fight FILE --json`, seen by the GM or through `--view VIEW`.
fn moves(file: &str, view: Option<&str>) -> Vec<serde_json::Value> {
    let mut args = vec!["fight", file, "--json"];
    if let Some(v) = view {
        args.extend(["--view", v]);
    }
    lines(&args)
        .into_iter()
        .filter(|l| l["type"] == "move")
        .collect()
}

#[test]
fn an_invisible_creatures_moves_are_hidden_from_its_foes() {
    let file = "tests/golden/celesia/r07-invisible-attacker.toml";
    let moves_of_ivy = |view| {
        moves(file, view)
            .iter()
            .filter(|l| l["who"] == "ivy")
            .count()
    };
    assert_eq!(moves_of_ivy(None), 1, "the GM sees Ivy's move");
    assert_eq!(moves_of_ivy(Some("side:heroes")), 1, "her own side sees it");
    assert_eq!(
        moves_of_ivy(Some("side:orcs")),
        0,
        "her foes' players do not"
    );
    // The attack she makes is seen by all (only where she went is hidden).
    let orcs = lines(&["fight", file, "--json", "--view", "side:orcs"]);
    assert!(orcs
        .iter()
        .any(|l| l["type"] == "attack" && l["attacker"] == "ivy"));
}

#[test]
fn an_invisible_riders_moves_and_its_invisible_mounts_are_hidden_from_its_foes() {
    // CEL-R21 with CEL-R4.5 row 8: Ivy (invisible) on Grey (invisible), Tam (invisible) on Bay
    // (seen). A move is hidden when every creature it carries is invisible.
    let file = "tests/golden/celesia/r21-invisible-rider.toml";
    let seen = |view| {
        moves(file, view)
            .iter()
            .map(|l| {
                format!(
                    "{} {}",
                    l["who"].as_str().unwrap(),
                    l["mode"].as_str().unwrap()
                )
            })
            .collect::<Vec<_>>()
    };
    let all = ["grey move", "ivy dismounts", "bay move", "tam dismounts"];
    assert_eq!(seen(None), all, "the GM sees every move");
    assert_eq!(seen(Some("side:heroes")), all, "their own side sees them");
    assert_eq!(
        seen(Some("side:orcs")),
        ["bay move"],
        "the foes see only the visible horse go"
    );
}
