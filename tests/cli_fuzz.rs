//! Fuzz-style tests on stable Rust (issue 11): random and mutated dice expressions, and mutated
//! encounter files, run through the real `fray` binary. Every run must end in one of two ways:
//!
//! - exit 0 with output on stdout, or
//! - exit 2 with a message on stderr and nothing on stdout,
//!
//! within a bounded time (killed after 60 s: a hang guard, not a speed check — a case that needs 0.8 s of CPU took over 20 s of wall time on a machine at load 20) and memory (`ulimit -v`, 2 GB of address space).
//! The generator is seeded, so every run of the suite tries the same cases; set
//! `FRAY_FUZZ_SEED` and `FRAY_FUZZ_CASES` to explore further (the seed of a failure is printed).

use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Seconds before a run is killed (and the test fails).
const TIMEOUT_S: u32 = 60;
/// Address-space limit of a run, in KiB.
const MEMORY_KB: u32 = 2_000_000;
/// Worker threads running cases.
const WORKERS: usize = 4;

/// SplitMix64: small, seeded and the same everywhere.
#[derive(Debug, Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    fn word(&mut self, items: &[&'static str]) -> &'static str {
        items[self.below(items.len())]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

fn seed() -> u64 {
    std::env::var("FRAY_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x0000_F2A7_1100)
}

fn cases(default: usize) -> usize {
    std::env::var("FRAY_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Runs fray under the time and memory bounds, with `stdin` closed (the arguments are passed
/// to `sh` as arguments, never spliced into the script).
fn bounded(args: &[String]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {MEMORY_KB}; exec timeout -s KILL {TIMEOUT_S} \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs")
}

/// The contract every run must keep; `None` when kept, else what went wrong. With `--json`,
/// an error is `{"schema":1,"error":…}` on stdout instead of text on stderr.
fn breach(o: &Output, json: bool) -> Option<String> {
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    let json_error = || {
        serde_json::from_str::<serde_json::Value>(out.trim()).is_ok_and(|v| {
            v["schema"] == 1 && v["error"].as_str().is_some_and(|m| !m.trim().is_empty())
        })
    };
    match o.status.code() {
        _ if err.contains("panicked") => Some(format!("panic: {:.600}", err)),
        Some(0) if !out.trim().is_empty() => None,
        Some(0) => Some("exit 0 with nothing on stdout".into()),
        Some(2) if json && json_error() => None,
        Some(2) if !json && out.is_empty() && !err.trim().is_empty() => None,
        Some(2) => Some(format!(
            "exit 2 must come with its message (stderr, or JSON on stdout with --json) and \
             nothing else on stdout; stdout: {:.200}; stderr: {:.300}",
            out, err
        )),
        Some(137) | None => Some(format!("killed: over {TIMEOUT_S} s or out of memory")),
        Some(code) => Some(format!("exit {code}; stderr: {:.600}", err)),
    }
}

/// Runs every case on a few threads and fails with every breach found.
fn run_all(label: &str, cases: Vec<(String, Vec<String>)>) {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((what, args)) = cases.get(i) else {
                    break;
                };
                let o = bounded(args);
                if let Some(problem) = breach(&o, args.iter().any(|a| a == "--json")) {
                    failures.lock().unwrap().push(format!(
                        "{what}\n    fray {}\n    {problem}",
                        args.join(" ")
                    ));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{label} (FRAY_FUZZ_SEED={}): {} of {} runs broke the contract:\n{}",
        seed(),
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// A random dice expression from the grammar's pieces, sometimes nonsense.
fn random_expression(rng: &mut Rng) -> String {
    let counts = [
        "",
        "1",
        "2",
        "3",
        "4",
        "10",
        "0",
        "100",
        "10000",
        "10001",
        "99999999999",
    ];
    let sides = [
        "2", "4", "6", "8", "10", "20", "100", "1", "0", "1000", "1000000", "1000001", "%", "F",
    ];
    let modifiers = [
        "", "", "kh1", "kl2", "dh1", "dl1", "k3", "r1", "ro1", "r<3", "r>1", "!", "!!", "!>5",
        "mi2", "ma5", ">4", "<2", "=6", "r1!!kh1", "kh", "r", "!!!", "r<7",
    ];
    let ops = ["+", "-", "*", "/", " + ", "++", "", "(", ")"];
    let mut text = String::new();
    let terms = 1 + rng.below(4);
    for t in 0..terms {
        if t > 0 {
            text.push_str(rng.word(&ops));
        }
        if rng.chance(15) {
            text.push('(');
        }
        if rng.chance(20) {
            text.push_str(&rng.below(1000).to_string());
        } else {
            text.push_str(rng.word(&counts));
            text.push(if rng.chance(95) { 'd' } else { 'D' });
            text.push_str(rng.word(&sides));
            text.push_str(rng.word(&modifiers));
        }
        if rng.chance(15) {
            text.push(')');
        }
    }
    text
}

/// `text` with a few characters inserted, deleted or replaced.
fn mutate_chars(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let alphabet: Vec<char> = "0123456789dDkhlr!<>=+-*/() %F.,xé\u{7}\u{1b}-"
        .chars()
        .collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(chars.len() + 1);
        match rng.below(3) {
            0 => chars.insert(at, *rng.pick(&alphabet)),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = *rng.pick(&alphabet),
            _ => chars.push(*rng.pick(&alphabet)),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn random_and_mutated_dice_expressions_keep_the_contract() {
    let mut rng = Rng(seed());
    let known = [
        "3d6",
        "4d6kh3",
        "2d20kh1+7",
        "1d1000000",
        "1d1000000r1",
        "2d1000000r1kh1",
        "10d6!",
        "8d6!!",
        "6d10>7",
        "1d6/0",
        "1d%",
        "4dF",
        "(1d6+2)*3",
        "-1d4",
        "1000d1000!!",
    ];
    let mut list = Vec::new();
    for i in 0..cases(400) {
        let expr = if i % 2 == 0 {
            random_expression(&mut rng)
        } else {
            let base = rng.word(&known);
            mutate_chars(&mut rng, base)
        };
        let roll = vec![
            "roll".to_string(),
            "--seed".to_string(),
            i.to_string(),
            "--".to_string(),
            expr.clone(),
        ];
        let mut dist = vec!["dist".to_string()];
        if rng.chance(30) {
            dist.push("--json".to_string());
        }
        dist.extend(["--".to_string(), expr.clone()]);
        list.push((format!("roll {expr:?}"), roll));
        list.push((format!("dist {expr:?}"), dist));
    }
    run_all("dice expressions", list);
}

/// Numbers a mutation may write in place of another.
const NUMBERS: [&str; 16] = [
    "0",
    "-1",
    "1",
    "99999999999",
    "2147483648",
    "-2147483649",
    "9223372036854775807",
    "1.5",
    "1e308",
    "nan",
    "\"seven\"",
    "500",
    "501",
    "10000",
    "10001",
    "[]",
];

/// `text` after one line-level mutation.
fn mutate_file(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.is_empty() {
        return text.to_string();
    }
    let at = rng.below(lines.len());
    match rng.below(9) {
        // Delete a line.
        0 => {
            lines.remove(at);
        }
        // Duplicate a line.
        1 => {
            let line = lines[at].clone();
            lines.insert(at, line);
        }
        // Replace a number on a line that has one.
        2 | 3 => {
            let with_number: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].contains('=') && lines[i].chars().any(|c| c.is_ascii_digit()))
                .collect();
            if let Some(&i) = with_number.get(rng.below(with_number.len().max(1))) {
                let line = lines[i].clone();
                let (key, _) = line.split_once('=').unwrap_or((&line, ""));
                let value = rng.word(&NUMBERS);
                lines[i] = if rng.chance(70) {
                    format!("{key}= {value}")
                } else {
                    // Only the first number of the value (inside arrays too).
                    let start = line.find(|c: char| c.is_ascii_digit()).unwrap_or(0);
                    let end = line[start..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map_or(line.len(), |e| start + e);
                    format!("{}{value}{}", &line[..start], &line[end..])
                };
            }
        }
        // Replace an id or a side with another name.
        4 => {
            let ids: Vec<usize> = (0..lines.len())
                .filter(|&i| {
                    let l = lines[i].trim_start();
                    l.starts_with("id =") || l.starts_with("side =") || l.starts_with("monster =")
                })
                .collect();
            if let Some(&i) = ids.get(rng.below(ids.len().max(1))) {
                let names = [
                    "\"\"",
                    "\"a b\"",
                    "\"-x\"",
                    "\"orc\"",
                    "\"goblin\"",
                    "\"fighter\"",
                    "\"x\"",
                    "\"Üñí\"",
                    "\"\\u001b[31mred\"",
                    "\"line\\nbreak\"",
                    "42",
                ];
                let key = lines[i].split('=').next().unwrap_or("id ").to_string();
                lines[i] = format!("{key}= {}", rng.word(&names));
            }
        }
        // Counts and rounds at and past the limits.
        5 => {
            let value = rng.word(&["500", "501", "250", "0", "10000", "10001", "100000"]);
            let key = if rng.chance(70) {
                "count"
            } else {
                "max_rounds"
            };
            let found = (0..lines.len()).find(|&i| lines[i].trim_start().starts_with(key));
            match found {
                Some(i) => lines[i] = format!("{key} = {value}"),
                None if key == "count" => {
                    if let Some(i) = (0..lines.len())
                        .rev()
                        .find(|&i| lines[i].starts_with("side ="))
                    {
                        lines.insert(i + 1, format!("count = {value}"));
                    }
                }
                None => lines.insert(3.min(lines.len()), format!("max_rounds = {value}")),
            }
        }
        // Swap two lines.
        6 => {
            let other = rng.below(lines.len());
            lines.swap(at, other);
        }
        // Truncate.
        7 => {
            let mut s = lines.join("\n");
            let cut = rng.below(s.len() + 1);
            let mut cut = cut;
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.truncate(cut);
            return s;
        }
        // Random characters (control characters too) inserted into a line.
        _ => {
            let junk: String = (0..1 + rng.below(8))
                .map(|_| char::from(rng.below(127) as u8 + 1))
                .collect();
            let line = &mut lines[at];
            let mut pos = rng.below(line.len() + 1);
            while !line.is_char_boundary(pos) {
                pos -= 1;
            }
            line.insert_str(pos, &junk);
        }
    }
    lines.join("\n") + "\n"
}

/// The `id`s of combatants in `text` (for `fray odds`).
fn combatant_ids(text: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut in_combatant = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            in_combatant = l == "[[combatants]]";
        } else if in_combatant && l.starts_with("id =") {
            ids.push(
                l.trim_start_matches("id =")
                    .trim()
                    .trim_matches('"')
                    .to_string(),
            );
        }
    }
    ids
}

#[test]
fn mutated_encounter_files_keep_the_contract() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut originals = Vec::new();
    for dir in ["examples/cnc", "examples/spelljammer"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("examples")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        for f in files {
            originals.push(std::fs::read_to_string(&f).expect("example"));
        }
    }
    let dir = std::env::temp_dir().join(format!("fray-cli-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let mut rng = Rng(seed() ^ 0xE7C0_0E7E);
    let mut list = Vec::new();
    for i in 0..cases(400) {
        let original = rng.pick(&originals).clone();
        let mut text = original;
        for _ in 0..1 + rng.below(3) {
            text = mutate_file(&mut rng, &text);
        }
        // Now and then a file of random bytes instead.
        let path = dir.join(format!("case-{i}.toml"));
        if rng.chance(3) {
            let bytes: Vec<u8> = (0..rng.below(400)).map(|_| rng.next() as u8).collect();
            std::fs::write(&path, bytes).expect("write case");
        } else {
            std::fs::write(&path, &text).expect("write case");
        }
        let file = path.display().to_string();
        let seed = i.to_string();
        let args: Vec<String> = match rng.below(10) {
            0..=5 => vec!["fight".into(), file, "--seed".into(), seed],
            6 => vec!["fight".into(), file, "--json".into()],
            7 | 8 => vec![
                "sim".into(),
                file,
                "-n".into(),
                "20".into(),
                "--seed".into(),
                seed,
                "--threads".into(),
                "1".into(),
            ],
            _ => {
                let ids = combatant_ids(&text);
                let attacker = ids.first().cloned().unwrap_or_else(|| "a".into());
                let target = ids.last().cloned().unwrap_or_else(|| "b".into());
                vec![
                    "odds".into(),
                    file,
                    "--attacker".into(),
                    attacker,
                    "--target".into(),
                    target,
                ]
            }
        };
        list.push((format!("case {i} ({})", path.display()), args));
    }
    run_all("mutated encounter files", list);
    let _ = std::fs::remove_dir_all(&dir);
}
