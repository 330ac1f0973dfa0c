//! Mirror matches are fair, in every ruleset (DESIGN: "Fair and faithful"): for each
//! `examples/<ruleset>/mirror*.toml` — two identical sides placed symmetrically — each side's
//! win rate is within 1.5 percentage points of the other's over 40,000 simulated fights, in the
//! file's order and with the `[[sides]]` and the `[[combatants]]` blocks each reversed.
//!
//! Every ruleset in `RulesetId::ALL` must have at least one mirror file, so a new ruleset is
//! checked the day it lands. Run it with `cargo test --release` (it takes seconds there).

use fray_core::RulesetId;
use fray_engine::{AnyEncounter, Library};
use fray_sim::{simulate, SimOptions, Stats};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// Fights per file order.
const RUNS: u64 = 40_000;
/// Largest allowed gap between the two sides' win rates.
const MAX_GAP: f64 = 0.015;

fn examples_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// The mirror files of one ruleset.
fn mirror_files(ruleset: RulesetId) -> Vec<PathBuf> {
    let dir = examples_root().join(ruleset.key());
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .map(|e| e.expect("dir entry").path())
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "toml")
                        && p.file_name()
                            .is_some_and(|n| n.to_string_lossy().starts_with("mirror"))
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The file's text with the `key` array of tables reversed.
fn reversed(text: &str, keys: &[&str]) -> String {
    let mut doc: toml::Table = toml::from_str(text).expect("mirror file parses");
    for key in keys {
        if let Some(toml::Value::Array(items)) = doc.get_mut(*key) {
            items.reverse();
        }
    }
    toml::to_string(&doc).expect("serialises")
}

/// Wins of each side, by side key.
fn wins_by_side(encounter: &AnyEncounter, stats: &Stats) -> Vec<(String, u64)> {
    let roster = encounter.roster();
    let mut out: Vec<(String, u64)> = roster
        .sides
        .iter()
        .zip(&stats.sides)
        .map(|(side, s)| (side.key.clone(), s.wins))
        .collect();
    out.sort();
    out
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "240,000+ simulated fights: run with `cargo test --release`"
)]
fn mirror_matches_are_fair_in_every_ruleset() {
    let library = Library::embedded().expect("content loads");
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let mut report = Vec::new();
    let mut failures = Vec::new();
    // Every ruleset with rules implemented (the planned ones have none yet).
    let built: Vec<RulesetId> = fray_engine::rulesets()
        .into_iter()
        .filter(|r| r.implemented > 0)
        .map(|r| r.id)
        .collect();
    for ruleset in built {
        let files = mirror_files(ruleset);
        assert!(
            !files.is_empty(),
            "examples/{}/ needs a mirror*.toml (two identical sides placed symmetrically)",
            ruleset.key()
        );
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            let name = file.display().to_string();
            for (order, text) in [
                ("file order", text.clone()),
                ("sides reversed", reversed(&text, &["sides"])),
                ("combatants reversed", reversed(&text, &["combatants"])),
            ] {
                let encounter = AnyEncounter::from_text(&name, &text, &library)
                    .unwrap_or_else(|e| panic!("{name} ({order}): {e}"));
                let options = SimOptions {
                    runs: RUNS,
                    seed: 0x6d69_7272_6f72,
                    threads,
                    max_rounds: None,
                    target_ci: None,
                    keep_rows: false,
                };
                let result = simulate(
                    &encounter,
                    &options,
                    &AtomicBool::new(false),
                    &mut |_, _| Ok(()),
                )
                .unwrap_or_else(|e| panic!("{name} ({order}): {e}"));
                let wins = wins_by_side(&encounter, &result.stats);
                assert_eq!(wins.len(), 2, "{name}: a mirror match has two sides");
                let runs = result.stats.runs as f64;
                let (a, b) = (wins[0].1 as f64 / runs, wins[1].1 as f64 / runs);
                let line = format!(
                    "{name} ({order}): {} {:.2}%, {} {:.2}%",
                    wins[0].0,
                    100.0 * a,
                    wins[1].0,
                    100.0 * b
                );
                eprintln!("{line}");
                if (a - b).abs() > MAX_GAP {
                    failures.push(line.clone());
                }
                report.push(line);
            }
        }
    }
    assert!(!report.is_empty(), "no ruleset was checked");
    assert!(
        failures.is_empty(),
        "mirror matches are not fair (gap over {:.1} points):\n{}",
        100.0 * MAX_GAP,
        failures.join("\n")
    );
}
