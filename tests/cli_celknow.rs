//! End-to-end: Legends of Celesia's Recall Knowledge and Search (CEL-R9) through the real `fray`
//! binary. What a check taught its side (a monster's abilities, an invisible foe's square)
//! reaches that side's players and the GM, never the other side's: the other side's stream is
//! byte-identical whether the check succeeded or not; an invisible foe found by Search moves
//! hidden again; and a GM plays a recall at the `fray run` prompt.

#[path = "support/cli.rs"]
mod cli;
use cli::{fray, scratch, stderr, stdout};
use std::io::Write;
use std::process::{Command, Stdio};

/// The JSON lines of `fray fight --strict FILE --json [--view VIEW]`.
fn view(file: &str, view: Option<&str>) -> Vec<serde_json::Value> {
    let mut args = vec!["fight", "--strict", file, "--json"];
    if let Some(v) = view {
        args.extend(["--view", v]);
    }
    let out = fray(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn of_type<'a>(lines: &'a [serde_json::Value], kind: &str) -> Vec<&'a serde_json::Value> {
    lines.iter().filter(|l| l["type"] == kind).collect()
}

const IDENTIFIES: &str = "tests/golden/celesia/ka1-recall-knowledge-identifies.toml";
const FAILS: &str = "tests/golden/celesia/ka2-recall-knowledge-fails.toml";
const SEARCH: &str = "tests/golden/celesia/ka3-search-finds-an-invisible-orc.toml";

/// Ana's side learns the troll's abilities; the trolls' players see the act, never the check nor
/// what it taught, and their stream is the same byte for byte when the check fails.
#[test]
fn what_recall_knowledge_teaches_is_its_sides_only() {
    let heroes = view(IDENTIFIES, Some("side:heroes"));
    let learned = of_type(&heroes, "learn");
    assert_eq!(learned.len(), 1, "{heroes:?}");
    assert_eq!(learned[0]["about"], "troll");
    let facts = learned[0]["facts"].as_str().expect("facts");
    assert!(facts.starts_with("Troll (large, speed 30 ft)"), "{facts}");
    assert!(!facts.contains("hp") && !facts.contains("DV"), "{facts}");
    assert_eq!(of_type(&view(IDENTIFIES, None), "learn").len(), 1, "the GM");
    let trolls = view(IDENTIFIES, Some("side:trolls"));
    assert!(of_type(&trolls, "learn").is_empty() && of_type(&trolls, "check").is_empty());
    assert!(
        trolls
            .iter()
            .any(|l| l["type"] == "act" && l["act"] == "recalls what it knows of"),
        "the act itself is seen by all"
    );
    assert_eq!(
        stdout(&fray(&[
            "fight",
            "--strict",
            IDENTIFIES,
            "--json",
            "--view",
            "side:trolls"
        ])),
        stdout(&fray(&[
            "fight",
            "--strict",
            FAILS,
            "--json",
            "--view",
            "side:trolls"
        ])),
        "the trolls' stream does not tell a success from a failure"
    );
    assert_ne!(
        stdout(&fray(&[
            "fight",
            "--strict",
            IDENTIFIES,
            "--view",
            "side:heroes"
        ])),
        stdout(&fray(&[
            "fight",
            "--strict",
            FAILS,
            "--view",
            "side:heroes"
        ])),
        "the heroes' own stream does"
    );
    assert!(of_type(&view(FAILS, Some("side:heroes")), "learn").is_empty());
}

/// Search tells Sam's side where the invisible Sneak is (not Lurker, 40 ft off); Sneak's move
/// afterwards is hidden from the heroes again; the orcs see neither the check nor the find.
#[test]
fn search_shows_an_invisible_foes_square_to_the_searchers_side_only() {
    let heroes = view(SEARCH, Some("side:heroes"));
    let found: Vec<_> = of_type(&heroes, "learn")
        .iter()
        .map(|l| (l["about"].clone(), l["at"].clone()))
        .collect();
    assert_eq!(
        found,
        vec![(serde_json::json!("sneak"), serde_json::json!([6, 0]))]
    );
    assert!(
        of_type(&heroes, "move").is_empty(),
        "Sneak's later move is hidden again"
    );
    let orcs = view(SEARCH, Some("side:orcs"));
    assert!(of_type(&orcs, "learn").is_empty() && of_type(&orcs, "check").is_empty());
    assert_eq!(of_type(&orcs, "move").len(), 1, "their own side sees it");
}

/// A GM at the `fray run` prompt: Ana recalls what she knows of the troll, the GM rules the DC
/// and types the die; the log says what her side learned.
#[test]
fn a_gm_plays_recall_knowledge_at_the_prompt() {
    let dir = scratch("celknow-run");
    // The golden's encounter without its script: the GM types every answer.
    let golden = std::fs::read_to_string(IDENTIFIES).expect("the golden");
    let encounter = golden.split("[script]").next().expect("the encounter");
    std::fs::write(dir.join("fight.toml"), encounter).expect("write");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["run", "fight.toml", "--no-autosave"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fray");
    // Initiative 15 and 2; Ana: recall troll; the GM: DC 15; the Lore d20: 11.
    let typed = "15\n2\nrecall troll\ndc 15\n11\nquit\n";
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(typed.as_bytes())
        .expect("type");
    let out = child.wait_with_output().expect("fray run");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(
        text.contains("Ana's Lore check (CEL-R9): d20 11 +4 Lore = 15 vs DC 15: identifies it"),
        "{text}"
    );
    assert!(
        text.contains("Ana learns of Troll: Troll (large, speed 30 ft); attacks: claw 1d6"),
        "{text}"
    );
}
