//! End-to-end tests of `fray run`, the live tracker, driven through pipes like a person at the
//! table: the GM types the fighters' dice and choices while fray plays the orcs, takes back a
//! mistaken die, saves mid-fight, resumes in a new process and finishes — with the same fight as
//! an uninterrupted session given the same answers.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-run-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The path of `examples/<example>` in this checkout.
fn example(example: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(example);
    path.to_str().expect("a UTF-8 path").to_string()
}

/// `fray run examples/<example> ARGS…` in a folder of its own (named `name`), its first
/// output (up to the first prompt) read: the tracker and that output.
fn example_session(name: &str, example_file: &str, args: &[&str]) -> (Tracker, String) {
    let file = example(example_file);
    let mut all = vec![file.as_str()];
    all.extend_from_slice(args);
    let mut t = Tracker::start(&all, &temp_dir(name));
    let first = t.until_prompt();
    (t, first)
}

/// The head of every Celesia encounter written by these tests: two sides, `heroes` and
/// `foes`, and a two-round limit; the combatants (and devices) follow.
const CELESIA_HEAD: &str = r#"schema = 1
ruleset = "celesia"
name = "a Celesia test fight"
max_rounds = 2

[[sides]]
id = "heroes"

[[sides]]
id = "foes"
"#;

/// `fray run` (no autosave) of a Celesia encounter, [`CELESIA_HEAD`] then `body`, written to
/// a folder of its own (named `name`), with each of `answers` typed at a prompt in turn (the
/// output after the last one read): the tracker at the next prompt.
fn celesia_session(name: &str, body: &str, answers: &[&str]) -> Tracker {
    let dir = temp_dir(name);
    let file = dir.join("fight.toml");
    std::fs::write(&file, format!("{CELESIA_HEAD}\n{body}")).expect("write the encounter");
    let mut t = Tracker::start(&[file.to_str().unwrap(), "--no-autosave"], &dir);
    t.until_prompt();
    for answer in answers {
        t.send(answer);
        t.until_prompt();
    }
    t
}

/// A running `fray run` whose prompts we answer.
struct Tracker {
    child: Child,
    stdin: ChildStdin,
    output: Receiver<u8>,
    transcript: String,
}

impl Tracker {
    fn start(args: &[&str], dir: &PathBuf) -> Tracker {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
            .arg("run")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run fray");
        let stdin = child.stdin.take().expect("stdin");
        let mut stdout = child.stdout.take().expect("stdout");
        let (tx, output) = channel();
        std::thread::spawn(move || {
            let mut byte = [0u8; 1];
            while let Ok(1) = stdout.read(&mut byte) {
                if tx.send(byte[0]).is_err() {
                    break;
                }
            }
        });
        Tracker {
            child,
            stdin,
            output,
            transcript: String::new(),
        }
    }

    /// Everything printed up to the next prompt (`… > `).
    fn until_prompt(&mut self) -> String {
        let mut bytes = Vec::new();
        loop {
            let b = self
                .output
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no prompt; so far:\n{}", self.transcript));
            bytes.push(b);
            if bytes.ends_with(b"> ") {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                self.transcript.push_str(&text);
                return text;
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.transcript.push_str(line);
        self.transcript.push('\n');
    }

    fn finish(mut self) -> String {
        drop(self.stdin);
        let status = self.child.wait().expect("wait");
        while let Ok(b) = self.output.recv_timeout(Duration::from_secs(10)) {
            self.transcript.push(b as char);
        }
        assert!(status.success(), "fray run failed:\n{}", self.transcript);
        self.transcript
    }
}

/// The request shown last (`? …`) in a chunk of output.
fn request(chunk: &str) -> Option<&str> {
    chunk.lines().rev().find_map(|l| l.strip_prefix("? "))
}

/// The answer a careful GM types for the `i`-th request: the dice her players rolled (each die
/// of a pool), or the first option of a choice.
fn typed(i: usize, request: &str) -> String {
    if let Some(rest) = request.split(": roll ").nth(1) {
        let dice = rest.split_whitespace().next().expect("dice");
        let (count, sides) = dice.split_once('d').expect("NdS");
        let (count, sides): (usize, u32) = (count.parse().unwrap(), sides.parse().unwrap());
        let faces: Vec<String> = (0..count)
            .map(|k| ((i as u32 * 7 + k as u32 * 3) % sides + 1).to_string())
            .collect();
        return faces.join(" ");
    }
    let options: Vec<&str> = request
        .split(" — ")
        .nth(1)
        .expect("options")
        .split(" | ")
        .filter(|o| !o.starts_with('…'))
        .collect();
    options[i % options.len().min(3)].to_string()
}

/// Answers requests until the fight ends (or `limit` answers); returns how many were answered.
fn answer_until_over(
    t: &mut Tracker,
    first: usize,
    limit: usize,
    mut chunk: String,
) -> (usize, String) {
    let mut i = first;
    while i < limit {
        if chunk.contains("The fight is over.") {
            break;
        }
        let asked = request(&chunk)
            .unwrap_or_else(|| panic!("no request in:\n{chunk}"))
            .to_string();
        t.send(&typed(i, &asked));
        i += 1;
        chunk = t.until_prompt();
        assert!(!chunk.contains("! "), "refused:\n{chunk}");
    }
    (i, chunk)
}

#[test]
fn cnc_a_gm_types_her_dice_undoes_a_mistake_saves_resumes_and_finishes_the_same_fight() {
    gm_runs_the_bench("cnc", "1d20");
}

#[test]
fn spelljammer_a_gm_types_her_dice_undoes_a_mistake_saves_resumes_and_finishes_the_same_fight() {
    gm_runs_the_bench("spelljammer", "1d100");
}

fn gm_runs_the_bench(ruleset: &str, mistaken_die: &str) {
    let dir = temp_dir(ruleset);
    let bench = example(&format!("{ruleset}/bench.toml"));
    let bench = bench.as_str();

    // The uninterrupted session.
    let mut c = Tracker::start(&[bench, "--seed", "9", "--autosave", "c.jsonl"], &dir);
    c.until_prompt();
    c.send("auto side:orcs");
    let chunk = c.until_prompt();
    let (answered, end) = answer_until_over(&mut c, 0, 5000, chunk);
    assert!(end.contains("The fight is over."), "{end}");
    assert!(
        answered > 30,
        "the fighters' players answered {answered} requests"
    );
    c.send("log");
    let log_c = c.until_prompt();
    c.send("quit");
    c.finish();

    // The same fight with a mistaken die taken back, saved mid-fight, and resumed.
    let mut a = Tracker::start(&[bench, "--seed", "9", "--autosave", "a.jsonl"], &dir);
    a.until_prompt();
    a.send("auto side:orcs");
    let mut chunk = a.until_prompt();
    let mut i = 0;
    let mut mistake_made = false;
    while i < 20 {
        let asked = request(&chunk).expect("request").to_string();
        if !mistake_made && asked.contains(&format!(": roll {mistaken_die}")) {
            // The wrong die goes in, is seen, and is taken back.
            a.send(&format!("{} 1", mistaken_die.trim_start_matches('1')));
            let after = a.until_prompt();
            assert!(!after.contains("! "), "{after}");
            a.send("undo");
            chunk = a.until_prompt();
            assert!(chunk.contains("taken back"), "{chunk}");
            assert_eq!(request(&chunk), Some(asked.as_str()), "asked again");
            mistake_made = true;
            continue;
        }
        a.send(&typed(i, &asked));
        i += 1;
        chunk = a.until_prompt();
    }
    assert!(mistake_made);
    a.send("save mid.jsonl");
    assert!(a.until_prompt().contains("saved to mid.jsonl"));
    a.send("quit");
    a.finish();

    let mut b = Tracker::start(&["--resume", "mid.jsonl", "--autosave", "b.jsonl"], &dir);
    let chunk = b.until_prompt();
    let (answered_b, end) = answer_until_over(&mut b, i, 5000, chunk);
    assert_eq!(answered_b, answered);
    assert!(end.contains("The fight is over."));
    b.send("log");
    let log_b = b.until_prompt();
    b.send("quit");
    b.finish();

    let fight = |text: &str| -> String {
        text.lines()
            .filter(|l| l.starts_with("  ") || l.starts_with("— "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(fight(&log_c).contains("win after"), "{log_c}");
    assert_eq!(fight(&log_b), fight(&log_c));
    // The saved answer logs agree too (header aside: the same encounter, seed and content).
    let answers = |f: &str| -> Vec<String> {
        std::fs::read_to_string(dir.join(f))
            .expect("saved")
            .lines()
            .skip(1)
            .map(str::to_string)
            .collect()
    };
    assert_eq!(answers("b.jsonl"), answers("c.jsonl"));

    // The same fight as a scripted `fray fight --strict`: the saved answers, read as the
    // encounter's `[script]` (every die in order, every choice as `who: choice`), give the
    // same log, line for line.
    let mut faces = Vec::new();
    let mut choices = Vec::new();
    for line in answers("b.jsonl") {
        let logged: serde_json::Value = serde_json::from_str(&line).expect("answer");
        let answer = &logged["answer"];
        if let Some(total) = answer.get("roll") {
            faces.push(total.as_u64().expect("a face"));
        } else if let Some(dice) = answer.get("dice") {
            faces.extend(
                dice.as_array()
                    .expect("dice")
                    .iter()
                    .map(|d| d.as_u64().unwrap()),
            );
        } else if let Some(choice) = answer.get("choice") {
            let who = logged["asked"].as_str().expect("whose choice");
            choices.push(format!("{who}: {}", choice.as_str().unwrap()));
        } else {
            panic!("an answer a script cannot give: {line}");
        }
    }
    let text = std::fs::read_to_string(bench).expect("bench");
    let script = format!(
        "{text}\n[script]\ndice = {faces:?}\nchoices = {}\n",
        serde_json::to_string(&choices).expect("choices")
    );
    std::fs::write(dir.join("scripted.toml"), script).expect("write");
    let scripted = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["fight", "scripted.toml", "--strict"])
        .current_dir(&dir)
        .output()
        .expect("fray fight");
    assert!(
        scripted.status.success(),
        "{}",
        String::from_utf8_lossy(&scripted.stderr)
    );
    assert_eq!(
        fight(&String::from_utf8_lossy(&scripted.stdout)),
        fight(&log_b),
        "fray fight --strict with the saved answers as its script"
    );
}

#[test]
fn bad_input_at_the_prompt_is_a_message_and_the_prompt_again() {
    let (mut t, first) = example_session(
        "bad",
        "cnc/skirmish.toml",
        &["--seed", "1", "--no-autosave"],
    );
    let asked = request(&first).expect("request").to_string();
    for bad in [
        "fly to the moon",
        "auto nobody",
        "save",
        "undo",
        "redo",
        "d6 3",
        "99999999999",
    ] {
        t.send(bad);
        let chunk = t.until_prompt();
        assert!(chunk.contains("! "), "`{bad}` gets a message:\n{chunk}");
    }
    t.send("status");
    let status = t.until_prompt();
    assert!(status.contains("hp"), "{status}");
    t.send(&typed(0, &asked));
    let after = t.until_prompt();
    assert!(!after.contains("! "), "{after}");
    // End of input ends the session quietly.
    let transcript = t.finish();
    assert!(transcript.contains("1 answers (1 typed)"), "{transcript}");
}

#[test]
fn a_changed_encounter_refuses_the_saved_session() {
    let dir = temp_dir("changed");
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cnc/skirmish.toml"),
    )
    .expect("read");
    std::fs::write(dir.join("fight.toml"), &text).expect("write");
    let mut t = Tracker::start(
        &["fight.toml", "--seed", "2", "--autosave", "s.jsonl"],
        &dir,
    );
    let chunk = t.until_prompt();
    t.send(&typed(0, request(&chunk).unwrap()));
    t.until_prompt();
    t.send("quit");
    t.finish();
    let saved = std::fs::read_to_string(dir.join("s.jsonl")).expect("saved");
    // Someone edits the saved encounter text: the answers no longer belong to it.
    let mut header: serde_json::Value =
        serde_json::from_str(saved.lines().next().unwrap()).unwrap();
    header["encounter"] = serde_json::json!(format!("{text}\n# edited after the fight began\n"));
    let rest: Vec<&str> = saved.lines().skip(1).collect();
    std::fs::write(
        dir.join("s.jsonl"),
        format!("{header}\n{}\n", rest.join("\n")),
    )
    .expect("write");
    let o = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["run", "--resume", "s.jsonl"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("s.jsonl") && err.contains("changed"), "{err}");
}

#[test]
fn the_gm_intervenes_at_the_prompt_and_takes_it_back() {
    let (mut t, _) = example_session(
        "intervene",
        "cnc/bench.toml",
        &["--seed", "3", "--no-autosave"],
    );
    // The bench's fighters have a player, so fray plays the orcs: the GM takes them back.
    t.send("manual side:orcs");
    t.until_prompt();
    t.send("hp orc-3 -2");
    let chunk = t.until_prompt();
    assert!(chunk.contains("GM intervention: hp orc-3 -2"), "{chunk}");
    assert!(chunk.contains("Orc 3 takes damage (GM)"), "{chunk}");
    t.send("status");
    assert!(t.until_prompt().contains("orc-3        orcs          3/5"));
    t.send("cond orc-3 flying 2");
    let refused = t.until_prompt();
    assert!(
        refused.contains("! ") && refused.contains("not a condition"),
        "{refused}"
    );
    t.send("move orc-3 0 0");
    let taken = t.until_prompt();
    assert!(taken.contains("! ") && taken.contains("taken"), "{taken}");
    t.send("rule the orcs' banner is down");
    assert!(t
        .until_prompt()
        .contains("GM intervention: rule the orcs' banner is down"));
    t.send("undo");
    t.until_prompt();
    t.send("undo");
    t.until_prompt();
    t.send("status");
    assert!(t.until_prompt().contains("orc-3        orcs          5/5"));
    t.send("cond orc-3 prone 2");
    t.until_prompt();
    t.send("status");
    let status = t.until_prompt();
    assert!(status.contains("(asked)  [prone]"), "{status}");
    t.send("quit");
    t.finish();
}

/// Issue 17: a GM intervention typed at the prompt is printed once — its log line (the GM
/// ruling), not an echo of it as well — in every ruleset; a side's view, which hides GM
/// rulings, still says once that it was taken.
#[test]
fn a_gm_intervention_is_printed_once() {
    let once = |chunk: &str, text: &str| {
        let lines = chunk
            .lines()
            .filter(|l| l.contains(&format!("GM intervention: {text}")))
            .count();
        assert_eq!(lines, 1, "`{text}` printed {lines} times:\n{chunk}");
    };
    for (example_file, view, answers, target) in [
        ("cnc/bench.toml", "gm", &["manual side:orcs"][..], "orc-3"),
        (
            "cnc/bench.toml",
            "side:fighters",
            &["manual side:orcs"][..],
            "orc-3",
        ),
        ("celesia/duel.toml", "gm", &["r", "r"][..], "e-fighter"),
        ("osr/duel.toml", "gm", &[][..], "e-fighter"),
        ("spelljammer/duel.toml", "gm", &[][..], ""),
    ] {
        let name = format!("once-{}", example_file.replace('/', "-"));
        let (mut t, _) = example_session(
            &name,
            example_file,
            &["--seed", "3", "--no-autosave", "--view", view],
        );
        for answer in answers {
            t.send(answer);
            t.until_prompt();
        }
        t.send("rule the ground is slick");
        once(&t.until_prompt(), "rule the ground is slick");
        if !target.is_empty() {
            t.send(&format!("hp {target} -1"));
            once(&t.until_prompt(), &format!("hp {target} -1"));
        }
        t.send("quit");
        t.finish();
    }
}

/// Issue 13: the GM adds a combatant mid-fight (a reinforcement) at the prompt; a bad entry is a
/// message; undo sends it back to the reserve and `add ID` brings it in again; the saved session
/// resumes with it.
#[test]
fn the_gm_adds_a_reinforcement_at_the_prompt() {
    let (mut t, _) = example_session(
        "reinforce",
        "cnc/bench.toml",
        &["--seed", "3", "--no-autosave"],
    );
    t.send("add ogre monster=ogrre side=orcs at=[14,0]");
    let refused = t.until_prompt();
    assert!(
        refused.contains("! the new combatant does not load") && refused.contains("ogre"),
        "{refused}"
    );
    t.send("add ogre monster=ogre side=orcs at=[14, 0] name=\"Grok the Ogre\"");
    let added = t.until_prompt();
    assert!(added.contains("GM intervention: add ogre"), "{added}");
    assert!(
        added.contains("Grok the Ogre arrives at (14, 0) (GM)"),
        "{added}"
    );
    t.send("status");
    assert!(t.until_prompt().contains("ogre         orcs         20/20"));
    t.send("undo");
    t.until_prompt();
    t.send("status");
    let status = t.until_prompt();
    assert!(status.contains("20/20   hp reserve"), "{status}");
    t.send("add ogre 14 1");
    assert!(t
        .until_prompt()
        .contains("Grok the Ogre arrives at (14, 1) (GM)"));
    t.send("add ogre");
    let again = t.until_prompt();
    assert!(
        again.contains("! ") && again.contains("not in reserve"),
        "{again}"
    );
    t.send("save fight.jsonl");
    t.until_prompt();
    t.send("quit");
    t.finish();
    let mut t = Tracker::start(
        &["--resume", "fight.jsonl", "--no-autosave"],
        &temp_dir("reinforce"),
    );
    t.until_prompt();
    t.send("status");
    assert!(t
        .until_prompt()
        .contains("ogre         orcs         20/20   hp  "));
    t.send("quit");
    t.finish();
}

#[test]
fn any_input_at_the_prompt_is_answered_never_a_crash() {
    // A fixed pseudo-random mix of commands, dice, choices, interventions and noise, piped in
    // one go: fray answers each and ends normally at the end of input.
    let words = [
        "r",
        "14",
        "d20 3",
        "3 5",
        "0",
        "-1",
        "99999999999999",
        "undo",
        "redo",
        "status",
        "log",
        "options",
        "auto all",
        "auto orc-*",
        "manual all",
        "manual gm",
        "auto side:orcs",
        "hp orc-1 -2",
        "hp orc-1 +2",
        "hp fighter-9 -1",
        "cond orc-2 prone 1",
        "cond orc-2 -prone",
        "cond orc-2 stunned 9999",
        "move orc-3 1 1",
        "move orc-3 999999999 0",
        "remove orc-4",
        "remove orc-4 fled",
        "remove fighter-1 captured",
        "override 1",
        "override 1 2 3",
        "rule the ground is slick",
        "save",
        "charge orc-1",
        "attack orc-2",
        "none",
        "yes",
        "no",
        "fighter-1: dodge",
        "gm: yes",
        "\u{1b}[31mred",
        "ä ö ü",
        "attack",
        "run to 3 4",
        "help",
    ];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut input = String::new();
    for _ in 0..400 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        input.push_str(words[(state % words.len() as u64) as usize]);
        input.push('\n');
    }
    input.push_str("r\n".repeat(50).as_str());
    let dir = temp_dir("noise");
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cnc/bench.toml");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args([
            "run",
            file.to_str().unwrap(),
            "--seed",
            "5",
            "--autosave",
            "noise.jsonl",
        ])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "exit {:?}\n{stderr}\n{stdout}",
        out.status
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stdout.contains('\u{1b}'), "no escape reaches the terminal");
    assert!(stdout.contains("answers (") && stdout.contains("saved in noise.jsonl"));
    // Whatever happened, the autosaved session resumes to the same place.
    let resumed = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["run", "--resume", "noise.jsonl", "--no-autosave"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("resume");
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
}

/// What fray answered to a line (its echo, the first line of the chunk, left out).
fn reply(chunk: &str) -> &str {
    chunk.split_once('\n').map_or(chunk, |(_, rest)| rest)
}

/// The lines of a `sim` report that carry figures: `(label, fights)`.
fn sim_rows(chunk: &str) -> Vec<(String, u64)> {
    chunk
        .lines()
        .filter(|l| l.contains('%') && !l.starts_with("Outcome"))
        .filter_map(|l| {
            let (label, rest) = l.split_at(l.find(|c: char| c.is_ascii_digit())?);
            let fights = rest.split_whitespace().next()?.parse().ok()?;
            Some((label.trim().to_string(), fights))
        })
        .collect()
}

#[test]
fn odds_and_sim_from_here_at_a_pause() {
    let dir = temp_dir("here");
    let bench = example("cnc/bench.toml");
    let bench = bench.as_str();
    let fray_odds = |attacker: &str, target: &str| -> String {
        let o = Command::new(env!("CARGO_BIN_EXE_fray"))
            .args(["odds", bench, "--attacker", attacker, "--target", target])
            .output()
            .expect("fray odds");
        assert!(o.status.success());
        String::from_utf8(o.stdout).expect("utf-8")
    };
    let mut t = Tracker::start(&[bench, "--seed", "9", "--no-autosave"], &dir);
    t.until_prompt();
    t.send("auto side:orcs");
    let chunk = t.until_prompt();
    assert!(
        request(&chunk).unwrap().starts_with("Fighter 1:"),
        "{chunk}"
    );

    // Before anything happened, the odds from here are `fray odds`, word for word; without an
    // attacker, the one asked attacks.
    let start = fray_odds("fighter-1", "orc-1");
    for command in ["odds fighter-1 orc-1", "odds orc-1"] {
        t.send(command);
        let chunk = t.until_prompt();
        let report = chunk
            .split_once("From here: ")
            .unwrap_or_else(|| panic!("{chunk}"))
            .1;
        assert!(
            report.starts_with(&start),
            "{command}:\n{report}\nvs\n{start}"
        );
        assert!(report.contains("  hit        65.00%  (13/20)"), "{report}");
        assert!(
            request(&chunk).unwrap().starts_with("Fighter 1:"),
            "asked again"
        );
    }
    for bad in [
        "odds",
        "odds nobody orc-1",
        "odds fighter-1 orc-1 --weapon spoon",
        "odds fighter-1 orc-1 --situation",
        "odds fighter-1 fighter-1",
        "sim 0",
        "sim 100001",
        "sim many",
        "sim 10 --fast",
    ] {
        t.send(bad);
        let chunk = t.until_prompt();
        assert!(
            reply(&chunk).starts_with("! "),
            "`{bad}` gets a message:\n{chunk}"
        );
    }

    // Who wins from here: every fight counted once, each rate with its interval; the same
    // command gives the same figures.
    t.send("sim 200");
    let sim = t.until_prompt();
    assert!(
        reply(&sim).starts_with("From here (in round 1), fray playing everyone: 200 runs, seed 9,"),
        "{sim}"
    );
    let rows = sim_rows(&sim);
    let labels: Vec<&str> = rows.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(
        labels,
        [
            "The fighters win",
            "The orcs win",
            "Stalemate (a limit reached)",
            "Nobody left standing"
        ],
        "{sim}"
    );
    assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), 200, "{sim}");
    assert!(
        rows[0].1 > rows[1].1,
        "the fighters are the favourites:\n{sim}"
    );
    let fighters = sim
        .lines()
        .find(|l| l.starts_with("The fighters win"))
        .unwrap();
    let figures: Vec<f64> = fighters
        .split_whitespace()
        .filter_map(|w| w.strip_suffix('%')?.parse().ok())
        .collect();
    let [rate, low, high] = figures[..] else {
        panic!("rate and interval: {fighters}")
    };
    assert_eq!(rate, 100.0 * rows[0].1 as f64 / 200.0, "{fighters}");
    assert!(low < rate && rate < high, "{fighters}");
    assert!(sim.contains("Rounds left after this one: mean "), "{sim}");
    t.send("sim 200");
    assert_eq!(t.until_prompt(), sim, "the same figures again");
    t.send("sim 200 --seed 10");
    assert_ne!(t.until_prompt(), sim, "another seed");

    // Some way into the fight, every fight from there is counted and the session is untouched.
    let mut chunk = sim;
    for i in 0..25 {
        let asked = request(&chunk).expect("request").to_string();
        t.send(&typed(i, &asked));
        chunk = t.until_prompt();
    }
    t.send("status");
    let before = t.until_prompt();
    t.send("sim 100");
    let later = t.until_prompt();
    assert_eq!(sim_rows(&later).iter().map(|(_, n)| n).sum::<u64>(), 100);
    t.send("status");
    assert_eq!(t.until_prompt(), before, "sim changes nothing");
    t.send("quit");
    t.finish();

    // A player's view is not shown the GM's figures.
    let mut p = Tracker::start(
        &[
            bench,
            "--seed",
            "9",
            "--no-autosave",
            "--view",
            "side:fighters",
        ],
        &dir,
    );
    p.until_prompt();
    p.send("odds fighter-1 orc-1");
    let chunk = p.until_prompt();
    assert!(
        reply(&chunk).starts_with("! ") && chunk.contains("GM"),
        "{chunk}"
    );
    p.send("quit");
    p.finish();
}

#[test]
fn a_players_status_hides_the_foes_hit_points() {
    let (mut t, _) = example_session(
        "player-status",
        "cnc/bench.toml",
        &["--seed", "3", "--no-autosave", "--view", "side:fighters"],
    );
    t.send("status");
    let status = t.until_prompt();
    assert!(
        status.contains("fighter-1    fighters     24/24"),
        "{status}"
    );
    let orcs: Vec<&str> = status.lines().filter(|l| l.starts_with("  orc-")).collect();
    assert_eq!(orcs.len(), 8, "{status}");
    assert!(orcs.iter().all(|l| l.contains("?/?")), "{status}");
    assert!(!status.contains("5/5"), "{status}");
    t.send("quit");
    t.finish();
}

/// Issue 16, CEL-G11 and G13: in a Celesia fight the GM adjusts a combatant's DV at the prompt
/// (`cond WHO dv+N`: cover, whose values the seed does not give, or any ruling); the status
/// shows it, a bad number is refused with the form to type, `cond WHO -dv` ends it, and undo
/// takes it back.
#[test]
fn the_gm_adjusts_a_celesia_dv_at_the_prompt() {
    let (mut t, _) = example_session(
        "celesia-dv",
        "celesia/duel.toml",
        &["--seed", "3", "--no-autosave"],
    );
    // The two initiative dice (fray rolls them); the GM's interventions come once round 1 is
    // under way.
    t.send("r");
    t.until_prompt();
    t.send("r");
    t.until_prompt();
    t.send("cond e-fighter dv+4");
    let chunk = t.until_prompt();
    assert!(
        chunk.contains("GM intervention: cond e-fighter dv+4"),
        "{chunk}"
    );
    assert!(
        chunk.contains("East fighter is now DV-adjusted (GM)"),
        "{chunk}"
    );
    t.send("status");
    let status = t.until_prompt();
    assert!(status.contains("DV +4 (GM)"), "{status}");
    t.send("cond e-fighter dv+99");
    let refused = t.until_prompt();
    assert!(
        refused.contains("! ") && refused.contains("dv+N"),
        "{refused}"
    );
    t.send("cond e-fighter -dv");
    let ended = t.until_prompt();
    assert!(
        ended.contains("GM intervention: cond e-fighter -dv"),
        "{ended}"
    );
    t.send("status");
    assert!(!t.until_prompt().contains("(GM)"));
    t.send("undo");
    t.until_prompt();
    t.send("status");
    assert!(t.until_prompt().contains("DV +4 (GM)"));
    t.send("quit");
    t.finish();
}

/// CEL-G13, R4.5: the GM sets a condition of the advantage table at the prompt (`cond WHO
/// shaken`), the status shows it, setting it twice and naming no condition of the table are
/// refused (with the list), `cond WHO -shaken` ends it, and undo brings it back.
#[test]
fn the_gm_sets_and_ends_a_celesia_table_condition_at_the_prompt() {
    let (mut t, _) = example_session(
        "celesia-cond",
        "celesia/duel.toml",
        &["--seed", "3", "--no-autosave"],
    );
    t.send("r");
    t.until_prompt();
    t.send("r");
    t.until_prompt();
    t.send("status");
    assert!(!t.until_prompt().contains("shaken"));
    t.send("cond e-fighter shaken");
    let chunk = t.until_prompt();
    assert!(
        chunk.contains("GM intervention: cond e-fighter shaken"),
        "{chunk}"
    );
    assert!(chunk.contains("East fighter is now shaken"), "{chunk}");
    t.send("status");
    let status = t.until_prompt();
    assert!(status.contains("shaken"), "{status}");
    t.send("cond e-fighter shaken");
    let twice = t.until_prompt();
    assert!(
        twice.contains("! ") && twice.contains("shaken already"),
        "{twice}"
    );
    t.send("cond e-fighter dazed");
    let unknown = t.until_prompt();
    assert!(
        unknown.contains("! ") && unknown.contains("stunned, panicked"),
        "{unknown}"
    );
    t.send("cond e-fighter -shaken");
    let ended = t.until_prompt();
    assert!(
        ended.contains("East fighter is no longer shaken"),
        "{ended}"
    );
    t.send("status");
    assert!(!t.until_prompt().contains("shaken"));
    t.send("undo");
    t.until_prompt();
    t.send("status");
    assert!(t.until_prompt().contains("shaken"));
    t.send("quit");
    t.finish();
}

/// A Celesia wizard with burning hands next to a kobold (the prompt tests of its save).
const CONE: &str = r#"[[combatants]]
id = "kell"
side = "heroes"
at = [0, 0]
class = "wizard"
level = 3
hp = 18
spells = ["burning hands"]
caster_level = 3
spell_dc = 14

[[combatants]]
id = "kobold"
side = "foes"
at = [2, 0]
monster = "kobold"
"#;

/// `fray run` of [`CONE`], initiative typed (kell 15, the kobold 2), at kell's first action.
fn cone_at_kells_action(name: &str) -> Tracker {
    celesia_session(name, CONE, &["15", "2"])
}

/// CEL-G13 ("manual adjustment of any roll, DC, DV or HP"): the GM's `cond WHO dc+N` moves the
/// DC of WHO's saves too: the kobold's Reflex save against burning hands is made against DC 14 +
/// 5, and the save's degrees count from it (CEL-R6.2).
#[test]
fn the_gm_adjusts_a_celesia_save_dc_at_the_prompt() {
    let mut t = cone_at_kells_action("celesia-save-dc");
    t.send("cond kobold dc+5");
    let chunk = t.until_prompt();
    assert!(chunk.contains("is now DC-adjusted (GM"), "{chunk}");
    t.send("cast burning-hands kobold");
    t.until_prompt();
    // d20 15: it would save against DC 14, not against the GM's 19.
    t.send("15");
    let save = t.until_prompt();
    assert!(save.contains("vs GM-adjusted DC 19"), "{save}");
    assert!(save.contains("burning hands (full effect)"), "{save}");
    t.send("quit");
    t.finish();
}

/// CEL-R6.2 (and the GM's interventions): the GM gives a Celesia combatant a lasting ability
/// penalty mid-fight (`cond WHO dex-N`): its Reflex save against the spell that follows feels
/// the lower Dexterity; a bad N is refused naming the form; `-dex` ends it.
#[test]
fn the_gm_gives_a_celesia_ability_penalty_at_the_prompt() {
    let mut t = cone_at_kells_action("celesia-penalty");
    t.send("cond kobold dex-0");
    let refused = t.until_prompt();
    assert!(
        refused.contains("! ") && refused.contains("dex-N"),
        "{refused}"
    );
    t.send("cond kobold dex-6");
    let chunk = t.until_prompt();
    assert!(
        chunk.contains("Kobold is now under a Dexterity penalty"),
        "{chunk}"
    );
    t.send("cast burning-hands kobold");
    t.until_prompt();
    // DEX 13 (+1) falls to 7 (-2): its Reflex +1 becomes -2, and a 13 no longer saves.
    t.send("13");
    let save = t.until_prompt();
    assert!(
        save.contains("d20 13 -2 Reflex = 11 vs DC 14: burning hands (full effect)"),
        "{save}"
    );
    t.send("3");
    t.until_prompt();
    t.send("cond kobold -dex");
    assert!(t
        .until_prompt()
        .contains("Kobold is no longer under a Dexterity penalty"));
    t.send("quit");
    t.finish();
}

/// CEL-R17.9: the GM's Constitution damage at the prompt (`rule con WHO -N`): the kobold's
/// CON 10 falls to 0 and it dies at full hit points; a bad N is refused with the form to type;
/// undo takes the damage back, and the status shows what stays.
#[test]
fn the_gm_deals_celesia_constitution_damage_and_takes_it_back() {
    let mut t = cone_at_kells_action("celesia-con");
    t.send("rule con kobold 3");
    let refused = t.until_prompt();
    assert!(
        refused.contains("! ") && refused.contains("rule con WHO -N"),
        "{refused}"
    );
    t.send("rule con kobold -4 drain");
    let chunk = t.until_prompt();
    assert!(
        chunk.contains("GM intervention: rule con kobold -4 drain"),
        "{chunk}"
    );
    assert!(
        chunk.contains("suffers Constitution drain") && chunk.contains("Constitution 10 → 6"),
        "{chunk}"
    );
    t.send("status");
    let status = t.until_prompt();
    assert!(status.contains("Constitution drain 4"), "{status}");
    t.send("rule con kobold -6");
    let dead = t.until_prompt();
    assert!(
        dead.contains("Constitution 6 → 0") && dead.contains("Kobold is dead"),
        "{dead}"
    );
    t.send("undo");
    t.until_prompt();
    t.send("status");
    let status = t.until_prompt();
    assert!(
        status.contains("Constitution drain 4") && !status.contains("dead"),
        "{status}"
    );
    t.send("quit");
    t.finish();
}

/// CEL-G13: the GM adjusts the DC of a Celesia combatant's skill checks mid-fight (`cond WHO
/// dc+N`): the Disable Device check that follows is made against the adjusted DC; `-dc` ends it
/// and `undo` takes that back.
#[test]
fn the_gm_adjusts_a_celesia_skill_dc_at_the_prompt() {
    let mut t = celesia_session(
        "celesia-dc",
        r#"[[combatants]]
id = "rogue"
side = "heroes"
at = [0, 0]
class = "rogue"
level = 3
hp = 18
weapon = "dagger"
disable_device = 10

[[combatants]]
id = "kobold"
side = "foes"
at = [30, 0]
monster = "kobold"

[[device]]
id = "lock"
name = "the lock"
at = [1, 0]
acts = 3
dc = 20
"#,
        &["15", "2"],
    );
    t.send("cond rogue dc+5");
    let chunk = t.until_prompt();
    assert!(chunk.contains("is now DC-adjusted (GM"), "{chunk}");
    t.send("status");
    assert!(t.until_prompt().contains("save and check DCs +5 (GM)"));
    t.send("cond rogue dc+0");
    let refused = t.until_prompt();
    assert!(
        refused.contains("! ") && refused.contains("dc+N"),
        "{refused}"
    );
    t.send("disable lock");
    t.until_prompt();
    // d20 12 + 10 = 22: it would open a DC 20 lock, not the GM's 25.
    t.send("12");
    let check = t.until_prompt();
    assert!(
        check.contains("= 22 vs GM-adjusted DC 25: not disabled"),
        "{check}"
    );
    t.send("cond rogue -dc");
    assert!(t.until_prompt().contains("is no longer DC-adjusted"));
    t.send("status");
    assert!(!t.until_prompt().contains("check DCs"));
    t.send("undo");
    t.until_prompt();
    t.send("status");
    assert!(t.until_prompt().contains("save and check DCs +5 (GM)"));
    t.send("quit");
    t.finish();
}

/// CEL-R11 Escape from a Net: the seed gives no way to throw a net, so the GM says who one
/// entangles (`cond WHO netted`); the status shows it, `escape net` is a DC 20 Escape Artist
/// check, and success ends it.
#[test]
fn the_gm_nets_a_celesia_combatant_who_escapes() {
    let mut t = celesia_session(
        "celesia-net",
        r#"[[combatants]]
id = "rogue"
side = "heroes"
at = [0, 0]
class = "rogue"
level = 3
hp = 18
weapon = "dagger"
escape_artist = 4

[[combatants]]
id = "kobold"
side = "foes"
at = [30, 0]
monster = "kobold"
"#,
        &["15", "2"],
    );
    t.send("escape net");
    let refused = t.until_prompt();
    assert!(refused.contains("no net entangles it"), "{refused}");
    t.send("cond rogue netted");
    let chunk = t.until_prompt();
    assert!(chunk.contains("is now entangled (net)"), "{chunk}");
    t.send("status");
    assert!(t.until_prompt().contains("entangled (net)"));
    t.send("escape net");
    t.until_prompt();
    // d20 16 + 4 = 20 against the seed's DC 20.
    t.send("16");
    let check = t.until_prompt();
    assert!(check.contains("= 20 vs DC 20: free"), "{check}");
    t.send("status");
    assert!(!t.until_prompt().contains("entangled (net)"));
    t.send("quit");
    t.finish();
}

/// CEL-R11 Extinguish Flames: the seed has no rule for catching fire, so the GM says who is on
/// fire (`cond WHO on-fire`, `-on-fire`); the status shows it, `extinguish` is the fire's save
/// (default Reflex DC 15, *Readings*) at +4, and success puts it out.
#[test]
fn the_gm_sets_a_celesia_combatant_on_fire() {
    let mut t = celesia_session(
        "celesia-fire",
        r#"[[combatants]]
id = "rogue"
side = "heroes"
at = [0, 0]
class = "rogue"
level = 3
hp = 18
weapon = "dagger"
reflex = 3

[[combatants]]
id = "kobold"
side = "foes"
at = [30, 0]
monster = "kobold"
"#,
        &["15", "2"],
    );
    t.send("extinguish");
    let refused = t.until_prompt();
    assert!(refused.contains("it is not on fire (CEL-R11)"), "{refused}");
    t.send("cond rogue on-fire");
    let chunk = t.until_prompt();
    assert!(chunk.contains("is now on fire"), "{chunk}");
    t.send("status");
    assert!(t.until_prompt().contains("on fire"));
    t.send("cond rogue -on-fire");
    let chunk = t.until_prompt();
    assert!(chunk.contains("is no longer on fire"), "{chunk}");
    t.send("cond rogue on-fire");
    t.until_prompt();
    t.send("extinguish");
    t.until_prompt();
    // d20 8 + 3 Reflex + 4 = 15 against the default DC 15.
    t.send("8");
    let check = t.until_prompt();
    assert!(
        check.contains("= 15 vs DC 15: the fire goes out"),
        "{check}"
    );
    t.send("status");
    assert!(!t.until_prompt().contains("on fire"));
    t.send("quit");
    t.finish();
}

/// CEL-R11 Treat a Wound through `fray run`: the orc's blow severs Cat's leg (a third leg
/// injury: it bleeds 2 a turn, shown in the status); Ana's Treat a Wound on the orc, which is
/// not bleeding, is refused naming the rule and nothing changes (no answer counted, Cat still
/// bleeding); on Cat, d20 11 + Heal 5 = 16 against the default DC 15 stops the bleeding and
/// spends 2 acts; undone, Cat bleeds again and the die is asked anew.
#[test]
fn a_celesia_cleric_treats_a_severed_leg_and_takes_it_back() {
    let mut t = celesia_session(
        "celesia-treat-wound",
        r#"[[combatants]]
id = "ana"
side = "heroes"
at = [0, 0]
class = "cleric"
level = 3
hp = 24
scores = { str = 12, dex = 14, con = 12, wis = 16 }
weapon = "light mace"
heal = 5

[[combatants]]
id = "cat"
side = "heroes"
at = [1, 0]
class = "fighter"
level = 3
hp = 30
scores = { str = 16, dex = 10, con = 14 }
weapon = "longsword"
start_hp = 3
injuries = ["leg", "leg"]

[[combatants]]
id = "orc"
side = "foes"
at = [2, 0]
monster = "orc"
"#,
        // Initiative: Orc, Ana, Cat; the orc's blow 9 + 4 = 13 hits DV 10 for 3 + 3 + 4.
        &["10", "5", "15", "attack cat", "9 4", "3 3"],
    );
    t.send("injury leg");
    let chunk = t.until_prompt();
    assert!(
        chunk.contains("the part is severed: bleeds 2 a turn"),
        "{chunk}"
    );
    t.send("end");
    t.until_prompt();
    t.send("status");
    let before = t.until_prompt();
    assert!(before.contains("bleeding 2"), "{before}");
    t.send("treat-wound orc");
    let refused = t.until_prompt();
    assert!(
        refused.contains("Treat a Wound stops bleeding, and orc is not bleeding (CEL-R11)"),
        "{refused}"
    );
    t.send("status");
    assert_eq!(t.until_prompt(), before, "a refusal changes nothing");
    t.send("treat-wound cat");
    t.until_prompt();
    t.send("11");
    let check = t.until_prompt();
    assert!(
        check.contains("d20 11 +5 Heal = 16 vs DC 15: the bleeding stops"),
        "{check}"
    );
    assert!(
        check.contains("cat is no longer bleeding (CEL-R11)"),
        "{check}"
    );
    t.send("status");
    let after = t.until_prompt();
    assert!(!after.contains("bleeding"), "{after}");
    assert!(after.contains("1 acts left"), "{after}");
    t.send("undo");
    let undone = t.until_prompt();
    assert!(undone.contains("roll 1d20 for check (CEL-R11)"), "{undone}");
    t.send("status");
    assert!(t.until_prompt().contains("bleeding 2"));
    t.send("quit");
    t.finish();
}

/// The GM raises a wall mid-fight (`rule obstacle X Y …`, docs/celesia.md *Obstacles and
/// difficult terrain*): a bad ruling is refused with its usage, a wall on a combatant's square
/// with the reason; the status lists the obstacles; Hal's shot through the wall is refused with
/// the rule (CEL-R7.1, no line of sight); undone, the wall is gone and the shot is asked for its
/// die; `rule clear` takes a wall down.
#[test]
fn the_gm_raises_a_celesia_wall_and_takes_it_down() {
    let mut t = celesia_session(
        "celesia-wall",
        r#"[[combatants]]
id = "hal"
side = "heroes"
at = [0, 0]
class = "fighter"
level = 3
hp = 30
weapon = "longsword"
ranged = "shortbow"

[[combatants]]
id = "orc"
side = "foes"
at = [3, 0]
monster = "orc"
hp = 40
"#,
        &["18", "5"],
    );
    t.send("rule obstacle 1");
    let refused = t.until_prompt();
    assert!(refused.contains("`rule obstacle X Y`"), "{refused}");
    t.send("rule obstacle 2 -1 3 0");
    let refused = t.until_prompt();
    assert!(refused.contains("(3, 0) is under orc's space"), "{refused}");
    t.send("status");
    assert!(!t.until_prompt().contains("map: obstacles"));
    t.send("rule obstacle 2 -1 2 0 2 1");
    let raised = t.until_prompt();
    assert!(
        raised.contains("GM intervention: rule obstacle 2 -1 2 0 2 1"),
        "{raised}"
    );
    // The change itself, a public event (the map is in plain sight).
    assert!(
        raised.contains("Obstacles now stand at (2, -1), (2, 0), (2, 1) (GM)"),
        "{raised}"
    );
    t.send("status");
    let status = t.until_prompt();
    assert!(
        status.contains("map: obstacles at 2 -1, 2 0, 2 1"),
        "{status}"
    );
    t.send("shoot orc");
    let refused = t.until_prompt();
    assert!(
        refused.contains("an obstacle blocks every line from hal to orc")
            && refused.contains("CEL-R7.1"),
        "{refused}"
    );
    t.send("undo");
    t.until_prompt();
    t.send("status");
    assert!(!t.until_prompt().contains("map: obstacles"));
    t.send("shoot orc");
    let asked = t.until_prompt();
    assert!(!asked.contains("obstacle"), "{asked}");
    assert!(asked.contains("d20"), "{asked}");
    t.send("undo");
    t.until_prompt();
    t.send("rule difficult 1 1");
    t.until_prompt();
    t.send("status");
    let status = t.until_prompt();
    assert!(status.contains("map: difficult terrain at 1 1"), "{status}");
    t.send("rule clear 1 1");
    let cleared = t.until_prompt();
    assert!(
        cleared.contains("Plain ground again at (1, 1) (GM)"),
        "{cleared}"
    );
    t.send("rule clear 1 1");
    let again = t.until_prompt();
    assert!(
        again.contains("(1, 1) is neither an obstacle nor difficult terrain"),
        "{again}"
    );
    t.send("quit");
    t.finish();
}

/// CEL-R9 Ready or Drop a Shield in `fray run`: a carried shield's `ready shield` is on the
/// options list (so is a nonlethal coup de grace on a helpless foe, CEL-R12); strapping it on
/// costs an act (nobody threatens the rogue: nothing provoked), and the status no longer says
/// it is carried.
#[test]
fn a_celesia_rogue_straps_on_her_shield_at_the_prompt() {
    let mut t = celesia_session(
        "celesia-shield",
        r#"[[combatants]]
id = "rogue"
side = "heroes"
at = [0, 0]
class = "rogue"
level = 3
hp = 18
weapon = "dagger"
shield = "light shield"
shield_strapped = false

[[combatants]]
id = "orc"
side = "foes"
at = [1, 0]
monster = "orc"
hp = 40
nonlethal = 41

[[combatants]]
id = "kobold"
side = "foes"
at = [30, 0]
monster = "kobold"
"#,
        &["15", "5", "2"],
    );
    t.send("status");
    let status = t.until_prompt();
    assert!(
        status.contains("light shield carried, not strapped on"),
        "{status}"
    );
    t.send("options");
    let options = t.until_prompt();
    for offered in ["ready shield", "coup-de-grace orc nonlethal"] {
        assert!(options.contains(offered), "{offered}: {options}");
    }
    assert!(!options.contains("drop shield"), "{options}");
    t.send("drop shield");
    let refused = t.until_prompt();
    assert!(refused.contains("not strapped on"), "{refused}");
    t.send("ready shield");
    let strapped = t.until_prompt();
    assert!(
        strapped.contains("straps on its shield: light shield"),
        "{strapped}"
    );
    t.send("status");
    let status = t.until_prompt();
    assert!(!status.contains("light shield carried"), "{status}");
    assert!(status.contains("2 acts"), "{status}");
    t.send("quit");
    t.finish();
}

/// A [`celesia_session`] in which Hal (fighter 3, STR 16) wins initiative (18 against 5) and
/// grapples the orc next to him (a d20 of 15 beats its CMD), and Hal's and the orc's turns are
/// ended: the tracker at Hal's next prompt, the orc held.
fn hal_grapples_the_orc(name: &str) -> Tracker {
    celesia_session(
        name,
        r#"[[combatants]]
id = "hal"
side = "heroes"
at = [0, 0]
class = "fighter"
level = 3
hp = 30
scores = { str = 16, dex = 14, con = 14 }
weapon = "longsword"

[[combatants]]
id = "orc"
side = "foes"
at = [1, 0]
monster = "orc"
hp = 40
"#,
        &["18", "5", "grapple orc", "15", "end", "end"],
    )
}

/// CEL-R10.9: the GM's `move WHO X Y` taking a held orc away from its grappler ends the
/// grapple in the intervention itself: the "no longer grapples" line comes right after the
/// move, before anything else is asked (it used to wait for the next action).
#[test]
fn the_gm_moving_a_celesia_grappled_foe_away_ends_the_grapple_at_once() {
    let mut t = hal_grapples_the_orc("celesia-move-grapple");
    t.send("status");
    let status = t.until_prompt();
    assert!(status.contains("grappl"), "{status}");
    t.send("move orc 4 0");
    let moved = t.until_prompt();
    let placed = moved.find("placed by the GM").expect(&moved);
    let ended = moved.find("no longer grapples").expect(&moved);
    assert!(placed < ended, "{moved}");
    assert!(moved.contains("no longer next to each other"), "{moved}");
    // The very next question is Hal's action, no grapple to continue.
    t.send("options");
    let options = t.until_prompt();
    assert!(!options.contains("maintain"), "{options}");
    t.send("undo");
    let undone = t.until_prompt();
    assert!(!undone.contains("error"), "{undone}");
    t.send("options");
    let options = t.until_prompt();
    assert!(
        options.contains("maintain"),
        "undo restores the hold: {options}"
    );
    t.send("quit");
    t.finish();
}

/// CEL-R10.10 Grapple, Continued, Move: the GM marks a hazardous square during the fight
/// (`rule hazard X Y NAME`); a grappler placing its foe there asks the foe first (free itself as
/// a reaction at +4), and, still held, the log says what the hazard does is the GM's. A bad
/// marking is refused with its usage; `rule safe X Y` takes the mark off.
#[test]
fn the_gm_marks_a_celesia_hazard_a_grappler_places_its_foe_on() {
    let mut t = hal_grapples_the_orc("celesia-hazard");
    t.send("rule hazard 3");
    let refused = t.until_prompt();
    assert!(
        refused.contains("`rule hazard X Y NAME` marks"),
        "{refused}"
    );
    t.send("rule hazard 3 1 burning oil");
    t.until_prompt();
    t.send("maintain move 3 0 place 3 1");
    t.until_prompt();
    // Grapple, Continued: d20 10 + 8 + 5 − 4 = 19 against CMD 14; the orc declines its attack of
    // opportunity on the Move.
    t.send("10");
    t.until_prompt();
    t.send("decline");
    let asked = t.until_prompt();
    assert!(
        asked.contains("free-itself | free-itself artist | decline"),
        "{asked}"
    );
    t.send("free-itself");
    t.until_prompt();
    // d20 6 + 4 CMB + 4 (hazard) = 14 against Hal's CMD 18: still held, placed in the oil.
    t.send("6");
    let placed = t.until_prompt();
    assert!(
        placed.contains("+4 hazardous placement (CEL-R10.10) = 14 vs CMD 18"),
        "{placed}"
    );
    assert!(
        placed.contains("Orc is placed in a hazard: burning oil at 3 1: what it does is the GM's"),
        "{placed}"
    );
    t.send("rule safe 3 1");
    t.until_prompt();
    t.send("rule safe 3 1");
    let again = t.until_prompt();
    assert!(again.contains("(3, 1) is no hazard"), "{again}");
    t.send("quit");
    t.finish();
}

/// CEL-A34, CEL-G13: the GM confuses a Celesia combatant mid-fight (`cond WHO confused`): its
/// turn opens with the d% (a 1d100 typed at the prompt); 80 binds it to attack the nearest
/// creature, so `end` is refused naming CEL-A34 while it can move to the rogue; the GM takes the
/// confusion back (`-confused`) and `end` is taken. Three head injuries' confusion cannot be
/// taken back (CEL-R18), and that veteran's turn opens with its own d%.
#[test]
fn the_gm_confuses_a_celesia_combatant_at_the_prompt() {
    let mut t = celesia_session(
        "celesia-confused",
        r#"[[combatants]]
id = "rogue"
side = "heroes"
at = [0, 0]
class = "rogue"
level = 3
hp = 18
weapon = "dagger"

[[combatants]]
id = "vet"
side = "heroes"
at = [-3, 0]
class = "fighter"
level = 3
hp = 30
weapon = "longsword"
head_injuries = 3

[[combatants]]
id = "kobold"
side = "foes"
at = [8, 0]
monster = "kobold"
"#,
        // The veteran, sickened by its head injuries, rolls initiative with disadvantage
        // (CEL-R1.1, R4.5 row 16): 2d20kl1, both dice typed on one line, 2 and 20, the 2 kept.
        &["15", "2 20", "10"],
    );
    t.send("cond vet -confused");
    let refused = t.until_prompt();
    assert!(
        refused.contains("! ") && refused.contains("permanent"),
        "{refused}"
    );
    t.send("cond kobold confused");
    let chunk = t.until_prompt();
    assert!(chunk.contains("Kobold is now confused"), "{chunk}");
    t.send("cond kobold confused");
    assert!(t.until_prompt().contains("confused already"));
    t.send("status");
    assert!(t.until_prompt().contains("confused"));
    t.send("end");
    t.until_prompt();
    t.send("80");
    let roll = t.until_prompt();
    assert!(
        roll.contains("d% 80: attacks the nearest creature"),
        "{roll}"
    );
    t.send("end");
    let refused = t.until_prompt();
    assert!(
        refused.contains("! ") && refused.contains("CEL-A34"),
        "{refused}"
    );
    t.send("cond kobold -confused");
    assert!(t.until_prompt().contains("Kobold is no longer confused"));
    t.send("end");
    t.until_prompt();
    // The veteran's turn: its own d%, 10: it acts normally.
    t.send("10");
    let own = t.until_prompt();
    assert!(own.contains("d% 10: acts normally"), "{own}");
    t.send("quit");
    t.finish();
}

/// CEL-R9 Aid Another on a skill check, and Ready with a standard action, through `fray run`:
/// the menu offers Bo's aid on Ann's Bluff and a readied charge; an aid on a skill Bo lacks is
/// refused naming the rule; the aid's roll typed, undone and typed again; Ann's feint then
/// carries the aid (d20 17 + 3 = 20 against DC 10: +2; her 5 + 5 + 2 = 12 meets DC 12).
#[test]
fn a_celesia_friend_aids_a_bluff_check_at_the_prompt() {
    let mut t = celesia_session(
        "celesia-aid-skill",
        r#"[[combatants]]
id = "ann"
side = "heroes"
at = [0, 0]
class = "fighter"
hp = 40
scores = { str = 10, dex = 10 }
weapon = "longsword"
bluff = 5

[[combatants]]
id = "bo"
side = "heroes"
at = [0, 1]
class = "fighter"
hp = 40
scores = { str = 10, dex = 10 }
weapon = "longsword"
bluff = 3

[[combatants]]
id = "h"
side = "foes"
at = [1, 0]
monster = "hobgoblin"
hp = 200
"#,
        &["10", "15", "19", "end"],
    );
    t.send("options");
    let options = t.until_prompt();
    for offered in [
        "aid ann bluff",
        "ready foe-attacks charge",
        "ready foe-adjacent grapple",
    ] {
        assert!(options.contains(offered), "{offered}: {options}");
    }
    assert!(!options.contains("aid ann intimidate"), "{options}");
    t.send("aid ann intimidate");
    let refused = t.until_prompt();
    assert!(
        refused.contains("no `intimidate` bonus") && refused.contains("CEL-R9"),
        "{refused}"
    );
    t.send("aid ann bluff");
    t.until_prompt();
    t.send("4");
    let weak = t.until_prompt();
    assert!(weak.contains("fails to help"), "{weak}");
    t.send("undo");
    t.until_prompt();
    t.send("17");
    let aided = t.until_prompt();
    assert!(
        aided.contains("+2 on its next Bluff check until the start of its next turn"),
        "{aided}"
    );
    t.send("end");
    t.until_prompt();
    t.send("feint h");
    t.until_prompt();
    t.send("5");
    let feint = t.until_prompt();
    assert!(
        feint.contains("+2 aid another (CEL-R9)") && feint.contains("feinted"),
        "{feint}"
    );
    t.send("quit");
    t.finish();
}
