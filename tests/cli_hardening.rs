//! End-to-end hardening tests (issue 11), running the real binary: a closed stdout never
//! panics, every input source is read with a hard limit, `--vary` values are checked before
//! anything is built, output files never clobber the input, and `--json` errors are JSON.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
#[path = "support/cli.rs"]
mod cli;
use cli::{fray, scratch, stderr, stdout};

const CNC_BENCH: &str = "examples/cnc/bench.toml";
const SJ_BENCH: &str = "examples/spelljammer/bench.toml";

/// A fresh scratch directory for one test.
/// Runs fray with stdout a pipe whose reader is gone before fray writes (so the write fails
/// with `EPIPE` whatever the output's size): the command must end quietly (exit 0, nothing
/// on stderr), never panic or report an error.
fn assert_quiet_on_closed_stdout(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fray starts");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("fray ends");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: a closed stdout must end quietly; stderr: {}",
        stderr(&o)
    );
    assert!(
        !stderr(&o).contains("panicked") && !stderr(&o).contains("Broken pipe"),
        "{args:?}: {}",
        stderr(&o)
    );
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    // Like `| head -1`: every command that prints, text and JSON.
    let cases: &[&[&str]] = &[
        &["dist", "1d1000"],
        &["dist", "1d1000", "--json"],
        &["dist", "40d6"],
        &["roll", "100d6", "--seed", "1"],
        &["fight", CNC_BENCH, "--seed", "1"],
        &["fight", CNC_BENCH, "--seed", "1", "--json"],
        &["fight", SJ_BENCH, "--seed", "1"],
        &[
            "odds",
            CNC_BENCH,
            "--attacker",
            "fighter-1",
            "--target",
            "orc-1",
        ],
        &["rulesets"],
        &["sim", CNC_BENCH, "-n", "200", "--seed", "1"],
    ];
    for args in cases {
        assert_quiet_on_closed_stdout(args);
    }
    // And through a real shell pipe, as a user types it.
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' dist 1d1000 | head -1; echo \"status ${{PIPESTATUS:-0}}\"",
            env!("CARGO_BIN_EXE_fray")
        ))
        .output()
        .expect("sh runs");
    assert_eq!(stdout(&o).lines().next(), Some("1d1000"));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

/// Runs `fray ARGS` with `/usr/bin/time` semantics approximated: it must finish within
/// `seconds` (else killed and failed) and exit 2 with a message.
fn assert_refused_quickly(args: &[&str], seconds: u64, message: &str) -> Duration {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fray starts");
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(seconds) {
            let _ = child.kill();
            panic!("{args:?} took more than {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = child.wait_with_output().expect("fray ends");
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
    start.elapsed()
}

#[test]
fn endless_and_oversized_inputs_are_refused_at_the_limit() {
    let limit = limits::value("encounter file size");
    for source in ["/dev/zero", "/dev/urandom"] {
        for command in ["fight", "sim", "odds"] {
            let mut args = vec![command, source];
            if command == "odds" {
                args.extend(["--attacker", "a", "--target", "b"]);
            }
            assert_refused_quickly(&args, 20, &format!("larger than the {limit}-byte limit"));
        }
    }
    // A FIFO fed without end (like `<(yes)`), and a regular file one byte over the limit.
    let dir = scratch("inputs");
    let fifo = dir.join("endless.toml");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let mut writer = Command::new("sh")
        .arg("-c")
        .arg(format!("yes > '{}' 2>/dev/null", fifo.display()))
        .spawn()
        .expect("writer starts");
    assert_refused_quickly(&["sim", fifo.to_str().unwrap()], 20, "byte limit");
    let _ = writer.kill();
    let _ = writer.wait();
    let big = dir.join("big.toml");
    let mut text =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(CNC_BENCH))
            .expect("bench");
    while text.len() as u64 <= limit {
        text.push_str("# padding padding padding padding padding padding padding padding\n");
    }
    std::fs::write(&big, &text).unwrap();
    for command in ["fight", "sim"] {
        assert_refused_quickly(&[command, big.to_str().unwrap()], 20, "byte limit");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn vary_values_past_the_file_limits_are_refused_before_anything_is_built() {
    let combatants = limits::value("combatants per encounter");
    let rounds = limits::value("rounds per fight (ceiling)");
    let huge = i64::MAX.to_string();
    for value in [
        huge.as_str(),
        &(combatants + 1).to_string(),
        "0",
        "-1",
        "2.5",
        "many",
    ] {
        let spec = format!("orc.count={value}");
        let took = assert_refused_quickly(
            &["sim", CNC_BENCH, "-n", "10", "--vary", &spec],
            20,
            "out of range",
        );
        assert!(took < Duration::from_secs(5), "{spec}: {took:?}");
    }
    let spec = format!("max_rounds={}", rounds + 1);
    assert_refused_quickly(&["sim", CNC_BENCH, "--vary", &spec], 20, "out of range");
    // At the limit itself, the value is accepted by --vary (the loader judges the total).
    let o = fray(&[
        "sim",
        CNC_BENCH,
        "-n",
        "10",
        "--seed",
        "1",
        "--vary",
        &format!("max_rounds=1,{rounds}"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn output_files_never_overwrite_the_input_and_a_failure_keeps_the_old_file() {
    let dir = scratch("outputs");
    let input = dir.join("v.toml");
    let original =
        std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(CNC_BENCH)).expect("bench");
    std::fs::write(&input, &original).unwrap();
    std::fs::hard_link(&input, dir.join("hard.toml")).unwrap();
    std::os::unix::fs::symlink(&input, dir.join("soft.toml")).unwrap();
    let i = input.to_str().unwrap();
    let same = [
        i.to_string(),
        format!("{}/./v.toml", dir.display()),
        dir.join("hard.toml").display().to_string(),
        dir.join("soft.toml").display().to_string(),
    ];
    for flag in ["--csv", "--plot"] {
        for out in &same {
            let o = fray(&["sim", i, "-n", "10", flag, out]);
            assert_eq!(o.status.code(), Some(2), "{flag} {out}: {}", stderr(&o));
            assert!(
                stderr(&o).contains("is the encounter file"),
                "{}",
                stderr(&o)
            );
            assert_eq!(std::fs::read(&input).unwrap(), original, "{flag} {out}");
        }
    }
    // A failed run leaves an existing output file as it was (fray did not create it).
    let csv = dir.join("runs.csv");
    std::fs::write(&csv, "keep me").unwrap();
    let o = fray(&["sim", i, "-n", "0", "--csv", csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "keep me");
    // A successful run replaces it, and leaves no temporary file behind.
    let plot = dir.join("p.svg");
    let o = fray(&[
        "sim",
        i,
        "-n",
        "10",
        "--seed",
        "1",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 11);
    assert!(std::fs::read_to_string(&plot).unwrap().starts_with("<svg"));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains(".tmp")), "{names:?}");
    // --csv and --plot naming one file.
    let o = fray(&["sim", i, "--csv", "x.out", "--plot", "x.out"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn with_json_every_error_is_json_including_argument_errors() {
    let cases: &[&[&str]] = &[
        &["roll", "--json"],
        &["roll", "1d20", "--json", "--bogus"],
        &["dist", "--json"],
        &["dist", "1d", "--json"],
        &["fight", "--json"],
        &["fight", "no-such-file.toml", "--json"],
        &["fight", CNC_BENCH, "--json", "--seed", "x"],
        &["odds", CNC_BENCH, "--json", "--attacker", "-x"],
        &["sim", CNC_BENCH, "--json", "-n", "-5"],
        &["rulesets", "--json", "extra"],
        &["--json"],
    ];
    for args in cases {
        let o = fray(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", stdout(&o)));
        assert_eq!(v["schema"], 1, "{args:?}");
        assert!(
            v["error"].as_str().is_some_and(|m| !m.is_empty()),
            "{args:?}"
        );
    }
    // Help and version are not errors, with or without --json.
    for args in [
        &["--help"][..],
        &["--version"],
        &["roll", "--help", "--json"],
    ] {
        let o = fray(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
    }
    // Without --json, argument errors stay text on stderr, exit 2.
    let o = fray(&["roll"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("EXPR"), "{}", stderr(&o));
}

#[test]
fn an_unquoted_expression_is_joined() {
    let o = fray(&["roll", "1d20", "+", "5", "--dice", "7"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1d20+5 = [7] + 5 = 12\n");
    let o = fray(&["roll", "2d6", "-1", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("2d6-1 = "), "{}", stdout(&o));
    let o = fray(&["roll", "4d6", "kh3", "--json", "--dice", "1,2,3,4"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["expr"], "4d6kh3");
    assert_eq!(v["total"], 9);
    let o = fray(&["dist", "1d6", "+", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["min"], 2);
}

#[test]
fn a_roll_without_seed_prints_the_seed_that_replays_it() {
    let o = fray(&["roll", "10d20"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let mut lines = text.lines();
    let roll = lines.next().expect("the roll");
    let seed_line = lines.next().expect("the seed line");
    let seed = seed_line
        .strip_prefix("seed ")
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_else(|| panic!("{seed_line}"));
    let again = fray(&["roll", "10d20", "--seed", seed]);
    assert_eq!(
        stdout(&again),
        format!("{roll}\n"),
        "replaying with the printed seed"
    );
    let o = fray(&["roll", "10d20", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let seed = v["seed"].as_u64().expect("the seed in JSON").to_string();
    let again = fray(&["roll", "10d20", "--seed", &seed, "--json"]);
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).expect("JSON");
    assert_eq!(v["total"], w["total"]);
}

#[test]
fn rulesets_show_the_seed_title_not_its_file_name() {
    let o = fray(&["rulesets"]);
    let text = stdout(&o);
    assert!(text.contains("Castles & Crusades Combat Rules"), "{text}");
    assert!(text.contains("Combat in Legends of Celesia"), "{text}");
    assert!(!text.contains(".txt"), "{text}");
    let o = fray(&["rulesets", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        v["rulesets"][0]["seed_title"],
        "Castles & Crusades Combat Rules"
    );
}

/// The limits table in docs/limits.md, read by the tests so a limit cannot change silently.
mod limits {
    /// The value of the limit named `name` in docs/limits.md (first column, exact match).
    pub fn value(name: &str) -> u64 {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/limits.md");
        let text = std::fs::read_to_string(path).expect("docs/limits.md");
        for line in text.lines() {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            if cells.len() > 3 && cells[1] == name {
                let digits: String = cells[2].chars().filter(|c| c.is_ascii_digit()).collect();
                return digits
                    .parse()
                    .unwrap_or_else(|_| panic!("{name}: {}", cells[2]));
            }
        }
        panic!("docs/limits.md has no limit `{name}`")
    }
}

#[test]
fn dist_refuses_oversized_work_before_doing_it() {
    for expr in [
        "1d1000000r1",
        "2d1000000r1kh1",
        "1000d1000!!",
        "1d1000000r1+1",
    ] {
        for json in [false, true] {
            let mut args = vec!["dist", expr];
            if json {
                args.push("--json");
            }
            let start = Instant::now();
            let o = fray(&args);
            let took = start.elapsed();
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert!(took < Duration::from_secs(3), "{args:?} took {took:?}");
            if json {
                let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
                assert!(v["error"].as_str().unwrap().contains("limit"), "{v}");
            } else {
                assert!(o.stdout.is_empty());
                assert!(stderr(&o).contains("limit"), "{}", stderr(&o));
            }
        }
    }
}

#[test]
fn dist_tables_are_capped_unless_full() {
    let max_rows = limits::value("dist rows printed") as usize;
    for expr in ["1d1000", "1d100000", "3d100", "1d201", "1d200"] {
        let o = fray(&["dist", expr]);
        assert_eq!(o.status.code(), Some(0), "{expr}: {}", stderr(&o));
        let text = stdout(&o);
        let rows = text
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("value"))
            .skip(1)
            .count();
        assert!(rows <= max_rows, "{expr}: {rows} rows");
        if expr == "1d200" {
            assert_eq!(rows, 200, "at the cap nothing is grouped");
            assert!(!text.contains("grouped"));
        } else {
            assert!(text.contains("--full prints every value"), "{expr}");
        }
    }
    let o = fray(&["dist", "1d1000", "--full"]);
    let rows = stdout(&o)
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("value"))
        .skip(1)
        .count();
    assert_eq!(rows, 1000);
    // Grouped rows still add up: the last row's P(<= value) is 100%.
    let o = fray(&["dist", "1d1000"]);
    let last = stdout(&o).lines().last().unwrap().to_string();
    assert!(
        last.contains("996..1000") && last.contains("100.0000%"),
        "{last}"
    );
}

/// Runs `fray ARGS` under a 1 GB address-space limit (`ulimit -v`), killed after `seconds`.
fn fray_bounded(args: &[&str], seconds: u64) -> Output {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let script = format!(
        "ulimit -v 1000000; exec timeout -s KILL {seconds} '{}' {}",
        env!("CARGO_BIN_EXE_fray"),
        quoted.join(" ")
    );
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("sh runs")
}

/// An encounter with `attacker` and `target` (monsters) side by side and `crowd` orcs.
fn odds_file(
    dir: &std::path::Path,
    name: &str,
    attacker: &str,
    target: &str,
    crowd: u32,
) -> String {
    let mut text = format!(
        "schema = 1\nruleset = \"cnc\"\nname = \"{name}\"\n[[sides]]\nid = \"a\"\n[[sides]]\nid = \"b\"\n\
         [[combatants]]\nid = \"attacker\"\nside = \"a\"\nat = [0, 0]\nmonster = \"{attacker}\"\n\
         [[combatants]]\nid = \"target\"\nside = \"b\"\nat = [1, 0]\nmonster = \"{target}\"\n"
    );
    if crowd > 0 {
        text.push_str(&format!(
            "[[combatants]]\nid = \"crowd\"\nside = \"b\"\ncount = {crowd}\nat = [10, 10]\nmonster = \"orc\"\n"
        ));
    }
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn odds_memory_stays_bounded_whatever_the_roster() {
    let dir = scratch("odds");
    // A shot whose miss flies on past a row of 10 bystanders (stray missiles).
    let shot = dir.join("shot.toml");
    std::fs::write(
        &shot,
        "schema = 1\nruleset = \"cnc\"\nname = \"Shot\"\n[[sides]]\nid = \"a\"\n[[sides]]\nid = \"b\"\n\
         [[combatants]]\nid = \"archer\"\nside = \"a\"\nat = [0, 0]\nclass = \"ranger\"\nlevel = 3\n\
         hp = 22\nscores = { str = 13, dex = 17 }\nweapon = \"short sword\"\nranged = \"long bow\"\n\
         [[combatants]]\nid = \"target\"\nside = \"b\"\nat = [2, 0]\nmonster = \"orc\"\n\
         [[combatants]]\nid = \"by\"\nside = \"b\"\ncount = 10\nat = [3, 0]\nmonster = \"orc\"\n",
    )
    .unwrap();
    let shot = shot.display().to_string();
    let big_bear = odds_file(&dir, "bear-crowd", "brown bear", "brown bear", 490);
    for (file, attacker) in [(&shot, "archer"), (&big_bear, "attacker")] {
        let start = Instant::now();
        let o = fray_bounded(
            &["odds", file, "--attacker", attacker, "--target", "target"],
            60,
        );
        assert_eq!(o.status.code(), Some(2), "{file}: {}", stderr(&o));
        assert!(stderr(&o).contains("too complex"), "{}", stderr(&o));
        assert!(o.stdout.is_empty());
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{file}: {:?}",
            start.elapsed()
        );
    }
    // Three attacks of a brown bear on an orc amid a crowd of 100: exact, within the bound.
    let bear = odds_file(&dir, "bear-orc", "brown bear", "orc", 100);
    let o = fray_bounded(
        &[
            "odds",
            &bear,
            "--attacker",
            "attacker",
            "--target",
            "target",
            "--json",
        ],
        120,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let branches = v["branches"].as_u64().unwrap();
    assert!(branches > 10_000, "{branches}");
    let total: f64 = v["damage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d[1].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    // Past the branch limit after exploring it all (slow in a debug build: release only).
    if !cfg!(debug_assertions) {
        let bears = odds_file(&dir, "bears", "brown bear", "brown bear", 100);
        let o = fray_bounded(
            &[
                "odds",
                &bears,
                "--attacker",
                "attacker",
                "--target",
                "target",
            ],
            60,
        );
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("too complex"), "{}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_answers_limit_inside_a_legal_fight_is_a_stalemate_with_its_reason() {
    let answers = limits::value("answers per fight");
    let rounds = limits::value("rounds per fight (ceiling)");
    let dir = scratch("answers");
    // 30 against 30, too far apart to meet within the round limit: the answers run out first.
    let file = dir.join("far.toml");
    std::fs::write(
        &file,
        format!(
            "schema = 1\nruleset = \"cnc\"\nname = \"Far apart\"\nmax_rounds = {rounds}\n\
             [[sides]]\nid = \"a\"\n[[sides]]\nid = \"b\"\n\
             [[combatants]]\nid = \"x\"\nside = \"a\"\ncount = 30\nat = [0, 0]\nmonster = \"orc\"\n\
             [[combatants]]\nid = \"y\"\nside = \"b\"\ncount = 30\nat = [0, 1000000]\nmonster = \"orc\"\n"
        ),
    )
    .unwrap();
    let file = file.display().to_string();
    let o = fray(&["fight", &file, "--seed", "1", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 1000, "the log is printed");
    let end: serde_json::Value = serde_json::from_str(lines[lines.len() - 1]).expect("JSON");
    assert_eq!(end["type"], "end");
    assert_eq!(end["stalemate"], true);
    assert_eq!(end["reason"], "answers per fight limit");
    assert!(end["rounds"].as_u64().unwrap() < rounds);
    // The limit is the documented one: the fight used exactly that many answers.
    let rolls_and_choices = lines
        .iter()
        .filter(|l| l.contains("\"type\":\"start\""))
        .count();
    assert_eq!(rolls_and_choices, 1);
    assert!(
        answers >= 1_000_000,
        "the test's fight is sized for {answers} answers"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sim_report_reads_well_and_the_svg_matches_it() {
    let dir = scratch("svg");
    let plot = dir.join("p.svg");
    let o = fray(&[
        "sim",
        "examples/cnc/skirmish.toml",
        "-n",
        "2000",
        "--seed",
        "3",
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    // No seed-derivation internals in the header; sentences that agree.
    let header: Vec<&str> = text.lines().take(2).collect();
    assert!(!header[1].contains("splitmix"), "{}", header[1]);
    assert!(text.contains("The party wins"), "{text}");
    assert!(text.contains("The raiders win "), "{text}");
    assert!(
        text.contains("first fight the party lost or drew"),
        "{text}"
    );
    // The text histogram's groups are the SVG's bars, in order.
    let text_groups: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("Rounds to finish"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    let svg = std::fs::read_to_string(&plot).expect("svg");
    let svg_groups: Vec<String> = svg
        .split("<title>fights: ")
        .skip(1)
        .map(|t| t.split(' ').next().unwrap().to_string())
        .collect();
    assert!(!text_groups.is_empty());
    assert_eq!(text_groups, svg_groups);
    // Win rates with their intervals, as in the text.
    for line in text.lines().filter(|l| l.contains(" win")) {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let rate = cells[cells.len() - 4];
        assert!(svg.contains(&format!(">{rate} (")), "{rate} not in the SVG");
    }
    let _ = std::fs::remove_dir_all(dir);
}
