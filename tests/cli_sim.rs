//! End-to-end tests of `fray sim`: the real binary, every output format (text, `--json`,
//! `--csv`, `--plot`), sweeps, replaying a reported run with `fray fight`, and every user error.

use std::process::Command;
#[path = "support/cli.rs"]
mod cli;
use cli::{fray, scratch, stderr, stdout};

const BENCH: &str = "examples/cnc/bench.toml";

fn ok(args: &[&str]) -> String {
    let o = fray(args);
    assert!(o.status.success(), "fray {args:?} failed: {}", stderr(&o));
    stdout(&o)
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).expect("valid JSON")
}

/// A fresh scratch directory for one test.
/// The last line of `fray fight FILE --seed S --json`: its winner and rounds.
fn fight_end(seed: &str, extra: &[&str]) -> (serde_json::Value, u64) {
    let mut args = vec!["fight", BENCH, "--seed", seed, "--json"];
    args.extend_from_slice(extra);
    let out = ok(&args);
    let last: serde_json::Value =
        serde_json::from_str(out.lines().last().expect("a last line")).expect("JSON line");
    assert_eq!(last["type"], "end");
    (
        last["winner"].clone(),
        last["rounds"].as_u64().expect("rounds"),
    )
}

#[test]
fn text_report_has_every_section() {
    let out = ok(&["sim", BENCH, "-n", "3000", "--seed", "11"]);
    for needle in [
        "Four fighters against eight orcs",
        "3000 runs, seed 11",
        "The fighters win",
        "The orcs win",
        "Stalemate (a limit reached)",
        "Nobody left standing",
        "Rounds to finish: mean",
        "median",
        "p90",
        "Survivors",
        "hp left",
        "Combatants",
        "Fighter 1",
        "Orc 8",
        "dealt",
        "taken",
        "down",
        "dead",
        "fray fight examples/cnc/bench.toml --seed ",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in:\n{out}");
    }
}

#[test]
fn one_and_two_threads_print_byte_identical_reports() {
    for extra in [&[][..], &["--json"][..]] {
        let mut a = vec![
            "sim",
            BENCH,
            "-n",
            "4500",
            "--seed",
            "123",
            "--threads",
            "1",
        ];
        a.extend_from_slice(extra);
        let mut b = vec![
            "sim",
            BENCH,
            "-n",
            "4500",
            "--seed",
            "123",
            "--threads",
            "2",
        ];
        b.extend_from_slice(extra);
        assert_eq!(ok(&a), ok(&b), "{extra:?}");
    }
}

#[test]
fn json_report_is_versioned_and_complete() {
    let v = json(&["sim", BENCH, "-n", "2000", "--seed", "5", "--json"]);
    assert_eq!(v["schema"], 1);
    assert_eq!(v["kind"], "sim");
    assert_eq!(v["runs"], 2000);
    assert_eq!(v["seed"], 5);
    assert_eq!(v["interrupted"], false);
    assert_eq!(v["stopped"], "completed");
    let sides = v["sides"].as_array().expect("sides");
    assert_eq!(sides.len(), 2);
    let wins: u64 = sides.iter().map(|s| s["wins"].as_u64().unwrap()).sum();
    let draws =
        v["draws"]["round_limit"].as_u64().unwrap() + v["draws"]["none_standing"].as_u64().unwrap();
    assert_eq!(wins + draws, 2000);
    for side in sides {
        let ci = side["win_ci95"].as_array().unwrap();
        let rate = side["win_rate"].as_f64().unwrap();
        assert!(ci[0].as_f64().unwrap() <= rate && rate <= ci[1].as_f64().unwrap());
        assert_eq!(
            side["standing_histogram"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap())
                .sum::<u64>(),
            2000
        );
    }
    assert_eq!(v["combatants"].as_array().unwrap().len(), 12);
    assert!(v["rounds"]["median"].as_u64().is_some());
    let histogram: u64 = v["rounds"]["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[1].as_u64().unwrap())
        .sum();
    assert_eq!(histogram, 2000);
}

#[test]
fn a_reported_seed_replays_with_fray_fight() {
    // The report names the first fight the fighters lost; `fray fight --seed` replays it.
    let v = json(&["sim", BENCH, "-n", "2000", "--seed", "8", "--json"]);
    let lost = &v["sides"][0]["first_loss"];
    let seed = lost["seed"]
        .as_u64()
        .expect("the fighters lost at least once")
        .to_string();
    assert_eq!(lost["replay"], format!("fray fight {BENCH} --seed {seed}"));
    let (winner, _) = fight_end(&seed, &[]);
    assert_ne!(winner, "fighters");
}

#[test]
fn csv_rows_match_fray_fight_replays() {
    let dir = scratch("csv");
    let csv = dir.join("runs.csv");
    let csv_path = csv.to_str().unwrap();
    let report = ok(&[
        "sim",
        BENCH,
        "-n",
        "1500",
        "--seed",
        "99",
        "--csv",
        csv_path,
        "--max-rounds",
        "6",
        "--json",
    ]);
    let text = std::fs::read_to_string(&csv).expect("the CSV file");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("run,seed,winner,rounds,stalemate,none_standing,standing_fighters,standing_orcs,hp_left_fighters,hp_left_orcs,ending")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 1500);
    // Counts in the CSV agree with the report.
    let v: serde_json::Value = serde_json::from_str(&report).unwrap();
    let fighter_wins = rows.iter().filter(|r| r[2] == "fighters").count() as u64;
    assert_eq!(v["sides"][0]["wins"].as_u64(), Some(fighter_wins));
    let stalemates = rows.iter().filter(|r| r[4] == "true").count() as u64;
    assert_eq!(v["draws"]["round_limit"].as_u64(), Some(stalemates));
    assert!(stalemates > 0, "six rounds leave some fights unfinished");
    // `ending` agrees with `stalemate`; C&C has no morale, so every other fight ended by kill.
    for r in &rows {
        let expected = if r[4] == "true" { "limit" } else { "defeated" };
        assert_eq!(r[10], expected, "{r:?}");
    }
    // Replay a few runs of each kind with `fray fight --seed <seed> --max-rounds 6`.
    let mut picked: Vec<&Vec<&str>> = Vec::new();
    for kind in ["fighters", "orcs", ""] {
        picked.extend(rows.iter().filter(|r| r[2] == kind).take(2));
    }
    assert!(picked.len() >= 4);
    for row in picked {
        let (winner, rounds) = fight_end(row[1], &["--max-rounds", "6"]);
        let expected = if row[2].is_empty() {
            serde_json::Value::Null
        } else {
            row[2].into()
        };
        assert_eq!(winner, expected, "run {}", row[0]);
        assert_eq!(rounds.to_string(), row[3], "run {}", row[0]);
    }
    // The first stalemate named in the report carries --max-rounds in its replay command.
    let first = &v["draws"]["first_round_limit"];
    assert!(first["replay"]
        .as_str()
        .unwrap()
        .ends_with("--max-rounds 6"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn plot_writes_an_svg() {
    let dir = scratch("plot");
    let svg = dir.join("fight.svg");
    ok(&[
        "sim",
        BENCH,
        "-n",
        "1000",
        "--seed",
        "1",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).expect("the SVG file");
    assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(text.contains("Rounds to finish"));
    assert!(text.contains("Survivors"));
    assert!(text.contains("The fighters") && text.contains("The orcs"));
    assert!(text.matches("<rect").count() > 10);
    assert!(text.trim_end().ends_with("</svg>"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sweep_prints_a_table_of_variants() {
    let out = ok(&[
        "sim",
        BENCH,
        "-n",
        "1000",
        "--seed",
        "3",
        "--vary",
        "orc.count=4..6",
    ]);
    for needle in [
        "variant",
        "orc.count=4",
        "orc.count=5",
        "orc.count=6",
        "The fighters win (95% CI)",
        "mean rounds",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in:\n{out}");
    }
    let v = json(&[
        "sim",
        BENCH,
        "-n",
        "1000",
        "--seed",
        "3",
        "--vary",
        "orc.count=4,12",
        "--vary",
        "max_rounds=3,50",
        "--json",
    ]);
    assert_eq!(v["schema"], 1);
    assert_eq!(v["kind"], "sweep");
    let variants = v["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 4);
    assert_eq!(variants[0]["variant"], "orc.count=4 max_rounds=3");
    assert_eq!(variants[3]["settings"]["orc.count"], 12);
    assert_eq!(variants[3]["combatants"].as_array().unwrap().len(), 16);
    assert_eq!(variants[0]["max_rounds"], 3);
    // More orcs: the fighters win less often.
    let win = |i: usize| variants[i]["sides"][0]["win_rate"].as_f64().unwrap();
    assert!(win(1) > win(3));
    // CSV rows of a sweep name their variant.
    let dir = scratch("sweep");
    let csv = dir.join("sweep.csv");
    ok(&[
        "sim",
        BENCH,
        "-n",
        "1000",
        "--seed",
        "3",
        "--vary",
        "orc.count=4,5",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("variant,run,seed,"));
    assert_eq!(text.lines().count(), 2001);
    assert!(text
        .lines()
        .nth(1001)
        .unwrap()
        .starts_with("orc.count=5,0,"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn target_ci_stops_early_and_says_so() {
    let out = ok(&["sim", BENCH, "--seed", "2", "--target-ci", "0.05"]);
    assert!(out.contains("narrower than 0.05"), "{out}");
    let v = json(&["sim", BENCH, "--seed", "2", "--target-ci", "0.05", "--json"]);
    assert_eq!(v["stopped"], "target_ci");
    assert!(v["runs"].as_u64().unwrap() < 10_000);
}

fn assert_input_error(args: &[&str], message: &str) {
    let o = fray(args);
    assert_eq!(o.status.code(), Some(2), "fray {args:?}: {}", stderr(&o));
    assert!(stdout(&o).is_empty(), "nothing on stdout: {}", stdout(&o));
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(message),
        "{:?} lacks {message:?}",
        stderr(&o)
    );
    // With --json the error is a JSON object on stdout.
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let o = fray(&with_json);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("a JSON error");
    assert_eq!(v["schema"], 1);
    assert!(v["error"].as_str().unwrap().contains(message));
}

#[test]
fn errors_exit_with_status_2_and_a_clear_message() {
    assert_input_error(&["sim", "no/such/file.toml"], "no/such/file.toml");
    assert_input_error(
        &["sim", BENCH, "-n", "0"],
        "number of runs must be between 1 and",
    );
    assert_input_error(&["sim", BENCH, "-n", "100000001"], "number of runs");
    assert_input_error(&["sim", BENCH, "--threads", "0"], "--threads");
    assert_input_error(&["sim", BENCH, "--target-ci", "2"], "--target-ci");
    assert_input_error(&["sim", BENCH, "--max-rounds", "0"], "--max-rounds");
    assert_input_error(
        &["sim", BENCH, "--vary", "orc.count"],
        "expected KEY=VALUES",
    );
    assert_input_error(&["sim", BENCH, "--vary", "orc.count=9..4"], "bad range");
    assert_input_error(
        &["sim", BENCH, "--vary", "goblin.count=1..3"],
        "no combatant `goblin`",
    );
    assert_input_error(
        &["sim", BENCH, "--vary", "orc.count=1..1001"],
        "at most 1000",
    );
    assert_input_error(
        &["sim", BENCH, "--vary", "orc.monster=dragon"],
        "orc.monster=dragon",
    );
    assert_input_error(
        &["sim", BENCH, "--vary", "orc.count=4", "--plot", "x.svg"],
        "--plot",
    );
}

#[test]
fn a_failed_run_leaves_no_csv_file() {
    let dir = scratch("failed");
    let csv = dir.join("runs.csv");
    let o = fray(&["sim", BENCH, "-n", "0", "--csv", csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!csv.exists());
    let o = fray(&[
        "sim",
        BENCH,
        "--csv",
        dir.join("missing/dir/runs.csv").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("could not write"));
    let _ = std::fs::remove_dir_all(dir);
}

/// SIGINT (Ctrl-C), SIGTERM and SIGHUP all stop the simulation at the next chunk: the partial
/// report is printed, the CSV keeps the rows so far, and the exit status is 130.
#[test]
fn a_signal_prints_the_figures_so_far_and_exits_130() {
    for signal in ["INT", "TERM", "HUP"] {
        let dir = scratch(&format!("signal-{signal}"));
        let csv = dir.join("runs.csv");
        let child = Command::new(env!("CARGO_BIN_EXE_fray"))
            .args([
                "sim",
                BENCH,
                "-n",
                "100000000",
                "--seed",
                "4",
                "--threads",
                "1",
                "--json",
                "--csv",
                csv.to_str().unwrap(),
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("fray starts");
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let o = child.wait_with_output().expect("fray ends");
        assert_eq!(o.status.code(), Some(130), "SIG{signal}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("a JSON report");
        assert_eq!(v["interrupted"], true);
        assert_eq!(v["stopped"], "interrupted");
        let runs = v["runs"].as_u64().unwrap();
        assert!(runs > 0 && runs < 100_000_000 && runs % 1000 == 0, "{runs}");
        let rows = std::fs::read_to_string(&csv).expect("the CSV is kept");
        assert_eq!(
            rows.lines().count() as u64,
            runs + 1,
            "SIG{signal}: header + one row per run"
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The JSON report splits each side's wins by kill and by rout and gives each combatant's
/// fled, surrendered and captured rates and figures. C&C has no morale: every win is by kill.
#[test]
fn json_report_splits_wins_by_kind_and_counts_routs() {
    let v = json(&["sim", BENCH, "-n", "2000", "--seed", "5", "--json"]);
    for side in v["sides"].as_array().expect("sides") {
        let wins = side["wins"].as_u64().expect("wins");
        assert_eq!(side["wins_by_kill"].as_u64(), Some(wins), "{side}");
        assert_eq!(side["wins_by_rout"].as_u64(), Some(0), "{side}");
        assert_eq!(side["win_by_kill_rate"], side["win_rate"], "{side}");
        assert_eq!(side["win_by_rout_rate"].as_f64(), Some(0.0), "{side}");
    }
    let fighters_won = v["sides"][0]["wins"].as_u64().expect("wins");
    assert!(fighters_won > 0, "the bench's fighters win some fights");
    for c in v["combatants"].as_array().expect("combatants") {
        for key in ["fled", "surrendered", "captured"] {
            assert_eq!(c[key].as_u64(), Some(0), "{key}: {c}");
            assert_eq!(c[&format!("{key}_rate")].as_f64(), Some(0.0), "{key}: {c}");
        }
        assert_eq!(c["figures"].as_u64(), Some(1), "{c}");
        let left = c["figures_left_mean"].as_f64().expect("figures_left_mean");
        let dead = c["dead_rate"].as_f64().expect("dead_rate");
        assert!((left - (1.0 - dead)).abs() < 1e-9, "alive unless dead: {c}");
    }
    // The text report shows no split and no rout columns when nothing routed.
    let text = ok(&["sim", BENCH, "-n", "2000", "--seed", "5"]);
    assert!(
        !text.contains("by rout") && !text.contains("fled"),
        "{text}"
    );
}
