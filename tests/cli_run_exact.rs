//! End-to-end tests of `fray run`'s `exact` (issue 17: "odds from here" with the exact
//! enumerator): at a round's end the live session's answer is the `fray odds FILE --fight`
//! programme's on the same state — before the first round, the file's own; after a round in
//! which both duellists missed (nothing changed but the round), the file's with one round fewer
//! to go. Inside a round it says so; a player's view and a finished fight are refused.

use std::io::Write;
use std::process::{Command, Stdio};

const DUEL: &str = "examples/cnc/duel.toml";

/// Round 1 of the C&C duel with both duellists missing: declarations, initiative, each one's
/// attack and its natural 1.
const ROUND_OF_MISSES: &[&str] = &[
    "none",
    "none",
    "5",
    "5",
    "attack kobold",
    "1",
    "attack goblin",
    "1",
];

/// `fray run DUEL` fed `lines` (fray rolls nothing: the GM types every answer); its output.
fn run(extra: &[&str], lines: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!("fray-run-exact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["run", DUEL, "--seed", "1", "--no-autosave"])
        .args(extra)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fray");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for line in lines {
            writeln!(stdin, "{line}").expect("write");
        }
    }
    let out = child.wait_with_output().expect("fray run");
    assert!(out.status.success(), "fray run failed: {out:?}");
    String::from_utf8(out.stdout).expect("utf-8")
}

/// `fray odds DUEL --fight` with `extra` flags; its output.
fn odds_fight(extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["odds", DUEL, "--fight"])
        .args(extra)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("fray odds");
    assert!(out.status.success(), "fray odds failed: {out:?}");
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The chances of a `--fight` report: (what, exact fraction) for each side's win, nobody
/// standing and the stalemate (its round limit left out of the label).
fn chances(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| {
            let fraction = line.trim_end().strip_suffix(')')?.rsplit_once('(')?.1;
            let label = line.trim_start();
            let what = if label.starts_with("stalemate") {
                "stalemate".to_string()
            } else if label.starts_with("nobody") || label.contains(" win ") {
                label.split("  ").next()?.trim().to_string()
            } else {
                return None;
            };
            Some((what, fraction.to_string()))
        })
        .collect()
}

/// The rounds the fight ends in: (round, exact fraction).
fn ends(text: &str) -> Vec<(u32, String)> {
    text.lines()
        .skip_while(|l| !l.contains("the fight ends in round:"))
        .skip(1)
        .map_while(|line| {
            let (round, rest) = line.trim().split_once(' ')?;
            let fraction = rest.trim_end().strip_suffix(')')?.rsplit_once('(')?.1;
            Some((round.parse().ok()?, fraction.to_string()))
        })
        .collect()
}

/// The reply to the `exact` typed after `before` answers.
fn exact_after(extra: &[&str], before: &[&str]) -> String {
    let mut lines = before.to_vec();
    lines.push("exact");
    let out = run(extra, &lines);
    let start = out.rfind("> exact\n").expect("the exact command echoed") + "> exact\n".len();
    out[start..].to_string()
}

#[test]
fn exact_before_the_first_round_is_the_files_fight_odds() {
    let here = exact_after(&[], &[]);
    assert!(
        here.starts_with("From here (before round 1), fray playing everyone:"),
        "{here}"
    );
    let file = odds_fight(&[]);
    let got = chances(&here);
    assert_eq!(
        got.len(),
        4,
        "two sides, nobody standing, stalemate: {here}"
    );
    assert_eq!(got, chances(&file), "\n{here}\n{file}");
    assert_eq!(ends(&here), ends(&file));
    // The known exact answer of the duel (docs/odds.md).
    assert!(got.contains(&("West win".to_string(), "364871/829440".to_string())));
}

#[test]
fn exact_at_the_end_of_a_round_of_misses_is_the_fight_with_a_round_fewer() {
    let here = exact_after(&[], ROUND_OF_MISSES);
    assert!(
        here.starts_with("From here (at the end of round 1), fray playing everyone:"),
        "{here}"
    );
    // Both missed: the state is the start's but one round of the four is spent.
    let file = odds_fight(&["--max-rounds", "3"]);
    assert_eq!(chances(&here), chances(&file), "\n{here}\n{file}");
    // The same chances, counted from the session's round 2 on.
    let shifted: Vec<(u32, String)> = ends(&file).into_iter().map(|(r, p)| (r + 1, p)).collect();
    assert!(!shifted.is_empty());
    assert_eq!(ends(&here), shifted, "\n{here}\n{file}");
    // …and it differs from the answer before the round (the round limit came closer).
    assert_ne!(chances(&here), chances(&odds_fight(&[])));
}

#[test]
fn exact_inside_a_round_says_so_and_points_at_sim() {
    let here = exact_after(&[], &ROUND_OF_MISSES[..3]);
    assert!(
        here.starts_with(
            "! the fight is in the middle of round 1 (3 answer(s) since it began): the exact odds \
             start from the end of a round"
        ),
        "{here}"
    );
    assert!(here.contains("`sim`"), "{here}");
}

#[test]
fn exact_is_the_gms_only() {
    let here = exact_after(&["--view", "side:west"], &[]);
    assert!(
        here.starts_with("! exact odds read GM-only facts"),
        "{here}"
    );
}

#[test]
fn exact_after_the_fight_is_refused() {
    // The goblin (first: initiative 10 to 1) hits the 1-hp kobold with a natural 20.
    let here = exact_after(
        &[],
        &["none", "none", "1", "10", "attack kobold", "20", "6"],
    );
    assert!(
        here.starts_with("! the fight is over after round 1: nothing is left to compute\n"),
        "{here}"
    );
}
