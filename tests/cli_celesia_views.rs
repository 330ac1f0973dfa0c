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

#[test]
fn an_invisible_creatures_moves_are_hidden_from_its_foes() {
    let file = "tests/golden/celesia/r07-invisible-attacker.toml";
    let moves_of_ivy = |view: Option<&str>| {
        let mut args = vec!["fight", file, "--json"];
        if let Some(v) = view {
            args.extend(["--view", v]);
        }
        lines(&args)
            .iter()
            .filter(|l| l["type"] == "move" && l["who"] == "ivy")
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
