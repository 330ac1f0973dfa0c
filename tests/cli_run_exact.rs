//! End-to-end tests of `fray run`'s `exact` (issue 17: "odds from here" with the exact
//! enumerator): at a round's end the live session's answer is the `fray odds FILE --fight`
//! programme's on the same state — before the first round, the file's own; after a round in
//! which both duellists missed (nothing changed but the round), the file's with one round fewer
//! to go. Inside a round it says so; a player's view and a finished fight are refused.

use std::io::Write;
use std::process::{Command, Stdio};
#[path = "support/wilson.rs"]
mod wilson;
use wilson::wilson_999;

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

/// `fray run file` fed `lines` (fray rolls nothing: the GM types every answer); its output.
fn run_file(file: &str, extra: &[&str], lines: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["run", file, "--seed", "1", "--no-autosave"])
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
    exact_in(DUEL, extra, before, &[])
}

/// The reply to the `exact` typed in `fray run file` after `before` answers, then what the
/// commands `after` print.
fn exact_in(file: &str, extra: &[&str], before: &[&str], after: &[&str]) -> String {
    let mut lines = before.to_vec();
    lines.push("exact");
    lines.extend_from_slice(after);
    let out = run_file(file, extra, &lines);
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

/// Spelljammer's duel: both marines declare an attack, West wins the initiative (5 to 3) and
/// misses (90 on the d100).
const SJ_DUEL: &str = "examples/spelljammer/duel.toml";
const SJ_WEST_MISSES: &[&str] = &["attack e-marine", "attack w-marine", "5", "3", "90"];

/// Inside a Spelljammer round, after West's strike (a settled point: `round_step` pauses after
/// every action of a segment), `exact` answers from there; its chances lie inside the 99.9%
/// intervals of 20,000 runs of the rest of the fight from the same pause (`sim`).
#[test]
fn exact_at_a_settled_point_inside_a_round_answers_from_there() {
    let out = exact_in(SJ_DUEL, &[], SJ_WEST_MISSES, &["sim 20000 --seed 3"]);
    assert!(
        out.starts_with("From here (inside round 1, at a settled point), fray playing everyone:"),
        "{out}"
    );
    let exact = chances(&out);
    let fights = |label: &str| -> u64 {
        let line = out
            .lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no `{label}` in {out}"));
        line[label.len()..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    for (side, label) in [("West win", "West wins"), ("East win", "East wins")] {
        let (_, fraction) = exact.iter().find(|(w, _)| w == side).expect(side);
        let (n, d) = fraction.split_once('/').expect("a fraction");
        let p = n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap();
        let (lo, hi) = wilson_999(fights(label), 20_000);
        assert!(
            lo <= p && p <= hi,
            "{side}: {p} exactly, sim {lo}–{hi}\n{out}"
        );
    }
}

/// Between the two initiative rolls the rules hold the round's locals on the stack: not a
/// settled point (the first one inside the round comes after both initiatives, SJ-R2), so
/// `exact` still says the fight is in the middle of the round.
#[test]
fn exact_between_settled_points_inside_a_round_says_so() {
    let here = exact_in(SJ_DUEL, &[], &SJ_WEST_MISSES[..3], &[]);
    assert!(
        here.starts_with("! the fight is in the middle of round 1 (3 answer(s) since it began)"),
        "{here}"
    );
}

/// A budget Spelljammer's duel at 20 hp a marine over 2 rounds does not fit (it needs 371,576
/// units since its d100s are read by class, SJ-R9).
const PARTWAY_WORK: &str = "250000";

/// A fight the probes let through but that will not fit within [`PARTWAY_WORK`]: Spelljammer's
/// duel at 20 hp a marine over 2 rounds, refused at a settled point (docs/odds.md, "Limits");
/// its name and text.
fn partway_file() -> (&'static str, String) {
    let text = std::fs::read_to_string(SJ_DUEL)
        .expect("the duel")
        .replace("\nhp = 1\n", "\nhp = 20\n")
        .replace("\nmax_rounds = 3\n", "\nmax_rounds = 2\n");
    assert_eq!(text.matches("\nhp = 20\n").count(), 2, "both marines");
    assert!(text.contains("\nmax_rounds = 2\n"));
    ("duel-20hp.toml", text)
}

/// "Odds from here" is refused as `fray odds --fight` refuses. [`partway_file`]'s fight is let
/// through by the probes but will not fit: before its first answer `exact` gives the
/// programme's own refusal, partway through the fight (projected past the budget at a settled
/// point, some units of work spent), word for word as `fray odds FILE --fight` gives it, and
/// points at `sim`.
#[test]
fn exact_is_refused_partway_as_fray_odds_refuses() {
    let dir = std::env::temp_dir().join(format!("fray-run-exact-{}-partway", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let (file, text) = partway_file();
    let path = dir.join(file);
    std::fs::write(&path, text).expect("scratch file");
    let file = path.display().to_string();
    let odds = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["odds", &file, "--fight", "--max-work", PARTWAY_WORK])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("fray odds");
    let err = String::from_utf8_lossy(&odds.stderr);
    assert_eq!(odds.status.code(), Some(2), "{err}");
    let reason = err
        .trim_end()
        .strip_prefix(&format!("error: {file}: "))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(reason.contains("projected from the"), "{reason}");
    assert!(!reason.contains("(0 spent"), "partway: {reason}");
    let command = format!("exact --max-work {PARTWAY_WORK}");
    let out = run_file(&file, &[], &[command.as_str()]);
    let echo = format!("> {command}\n");
    let here = &out[out.rfind(&echo).expect("the exact command echoed") + echo.len()..];
    assert!(
        here.starts_with(&format!(
            "! no exact answer: {reason}; the Monte Carlo answer still answers from here \
             (`sim` plays the rest of the fight many times)"
        )),
        "{here}\n{reason}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

// oddbudget3

/// `exact --max-work N` weighs the programme against N units of work, as `fray odds --fight
/// --max-work N` does: within a budget the duel fits (twice its branches: the probes' estimate,
/// 2,725, must stay under 1.5 times the budget) the answer is
/// the default's, word for word; past a tiny one, the refusal is `fray odds`'s own, word for
/// word, with the way out; a budget out of range (0, past the default) or not a number is
/// refused with the usage, and nothing else follows `exact`.
#[test]
fn exact_within_max_work_answers_or_refuses_as_fray_odds_does() {
    let json = odds_fight(&["--json"]);
    let branches = serde_json::from_str::<serde_json::Value>(&json).expect("json")["branches"]
        .as_u64()
        .expect("branches");
    let within = format!("exact --max-work {}", 2 * branches);
    let default = exact_after(&[], &[]);
    let out = run_file(DUEL, &[], &[within.as_str()]);
    let echo = format!("> {within}\n");
    let start = out.rfind(&echo).expect("the exact command echoed") + echo.len();
    assert_eq!(
        out[start..],
        default,
        "within a budget it fits, the default's answer"
    );
    let odds = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["odds", DUEL, "--fight", "--max-work", "10"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("fray odds");
    let err = String::from_utf8_lossy(&odds.stderr);
    assert_eq!(odds.status.code(), Some(2), "{err}");
    let reason = err
        .trim_end()
        .strip_prefix(&format!("error: {DUEL}: "))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(reason.contains("at most 10)"), "{reason}");
    let out = run_file(DUEL, &[], &["exact --max-work 10"]);
    assert!(
        out.contains(&format!(
            "! no exact answer: {reason}; the Monte Carlo answer still answers from here \
             (`sim` plays the rest of the fight many times)"
        )),
        "{out}\n{reason}"
    );
    for bad in [
        "exact --max-work 0",
        "exact --max-work 5000001",
        "exact --max-work many",
    ] {
        let out = run_file(DUEL, &[], &[bad]);
        let word = bad.rsplit(' ').next().unwrap();
        assert!(
            out.contains(&format!(
                "! --max-work: `{word}` is not a number of units of work from 1 to 5000000; \
                 exact [--max-work N]"
            )),
            "{bad}: {out}"
        );
    }
    for bad in ["exact --max-work", "exact now"] {
        let out = run_file(DUEL, &[], &[bad]);
        assert!(out.contains("exact [--max-work N]\n"), "{bad}: {out}");
        assert!(!out.contains("From here"), "{bad}: {out}");
    }
}
