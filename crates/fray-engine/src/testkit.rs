//! The test kit for rulesets (feature `testkit`): write an encounter in a few lines, fight it
//! with its script, audit its choices, and run golden cases — so a new ruleset's tests are a
//! few lines each.
//!
//! ```
//! use fray_engine::testkit::{run_scripted, EncounterText};
//!
//! let text = EncounterText::new("cnc")
//!     .sides(&["elves", "orcs"])
//!     .combatant("una", "elves", [0, 0], &[("class", "\"fighter\""), ("hp", "10")])
//!     .combatant("orc", "orcs", [1, 0], &[("monster", "\"orc\"")])
//!     .max_rounds(1)
//!     .build();
//! let fight = run_scripted(&text).unwrap();
//! assert!(fight.log.contains("initiative"));
//! ```

pub mod kept_dice;

use crate::{AnyEncounter, FightOptions, FightRecord, Library};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The embedded content, loaded once per test process.
pub fn library() -> &'static Library {
    static LIBRARY: OnceLock<Library> = OnceLock::new();
    LIBRARY.get_or_init(|| Library::embedded().unwrap_or_else(|e| panic!("content: {e}")))
}

/// An encounter file written from parts (values are TOML literals: `"\"orc\""`, `10`).
#[derive(Debug, Clone, Default)]
pub struct EncounterText {
    ruleset: String,
    header: Vec<String>,
    options: Vec<String>,
    sides: Vec<String>,
    combatants: Vec<String>,
    tables: Vec<String>,
    dice: Vec<u32>,
    choices: Vec<String>,
}

impl EncounterText {
    /// An encounter of `ruleset` (its key, e.g. `cnc`).
    pub fn new(ruleset: &str) -> Self {
        EncounterText {
            ruleset: ruleset.to_string(),
            ..EncounterText::default()
        }
    }

    /// The sides, by key.
    pub fn sides(mut self, keys: &[&str]) -> Self {
        self.sides.extend(keys.iter().map(|k| k.to_string()));
        self
    }

    /// One `[[combatants]]` entry with its ruleset's own keys.
    pub fn combatant(mut self, id: &str, side: &str, at: [i32; 2], keys: &[(&str, &str)]) -> Self {
        let mut entry = format!(
            "[[combatants]]\nid = \"{id}\"\nside = \"{side}\"\nat = [{}, {}]\n",
            at[0], at[1]
        );
        for (key, value) in keys {
            let _ = writeln!(entry, "{key} = {value}");
        }
        self.combatants.push(entry);
        self
    }

    /// A top-level key (`max_rounds`, `name`…) as a TOML literal.
    pub fn key(mut self, key: &str, value: &str) -> Self {
        self.header.push(format!("{key} = {value}"));
        self
    }

    /// The round limit.
    pub fn max_rounds(self, rounds: u32) -> Self {
        self.key("max_rounds", &rounds.to_string())
    }

    /// An `[options]` key as a TOML literal.
    pub fn option(mut self, key: &str, value: &str) -> Self {
        self.options.push(format!("{key} = {value}"));
        self
    }

    /// Any other table of the ruleset, written out (e.g. `"[[falls]]\nwho = \"una\"\nfeet = 10"`).
    pub fn table(mut self, toml: &str) -> Self {
        self.tables.push(toml.to_string());
        self
    }

    /// Scripted die faces, in order.
    pub fn dice(mut self, faces: &[u32]) -> Self {
        self.dice.extend_from_slice(faces);
        self
    }

    /// A scripted choice, `who: choice`.
    pub fn choice(mut self, line: &str) -> Self {
        self.choices.push(line.to_string());
        self
    }

    /// The file's text.
    pub fn build(&self) -> String {
        let mut out = format!("schema = 1\nruleset = \"{}\"\n", self.ruleset);
        for line in &self.header {
            let _ = writeln!(out, "{line}");
        }
        if !self.options.is_empty() {
            let _ = writeln!(out, "\n[options]\n{}", self.options.join("\n"));
        }
        for side in &self.sides {
            let _ = writeln!(out, "\n[[sides]]\nid = \"{side}\"");
        }
        for entry in &self.combatants {
            let _ = write!(out, "\n{entry}");
        }
        for table in &self.tables {
            let _ = writeln!(out, "\n{table}");
        }
        if !self.dice.is_empty() || !self.choices.is_empty() {
            let dice: Vec<String> = self.dice.iter().map(u32::to_string).collect();
            let choices: Vec<String> = self.choices.iter().map(|c| format!("{c:?}")).collect();
            let _ = writeln!(
                out,
                "\n[script]\ndice = [{}]\nchoices = [{}]",
                dice.join(", "),
                choices.join(", ")
            );
        }
        out
    }
}

/// Loads an encounter from text (named `test.toml` in errors).
pub fn load(text: &str) -> Result<AnyEncounter, String> {
    AnyEncounter::from_text("test.toml", text, library()).map_err(|e| e.to_string())
}

/// A fight played from its script.
#[derive(Debug, Clone)]
pub struct ScriptedFight {
    /// The encounter.
    pub encounter: AnyEncounter,
    /// What happened.
    pub record: FightRecord,
    /// The text log, as `fray fight` prints it.
    pub log: String,
}

/// Loads and fights an encounter with its script (dice run out → an error naming the request).
pub fn run_scripted(text: &str) -> Result<ScriptedFight, String> {
    let encounter = load(text)?;
    let record = encounter
        .fight(&FightOptions::default(), true)
        .map_err(|e| e.to_string())?;
    let log = crate::render::text_log(&record.events, encounter.roster());
    Ok(ScriptedFight {
        encounter,
        record,
        log,
    })
}

/// Plays a seeded fight checking every option offered: each passes the legality check, its
/// text reads back as the same choice, and the tactics choose legally. Returns how many options
/// were checked.
pub fn assert_choices_round_trip(encounter: &AnyEncounter, seed: u64) -> usize {
    encounter
        .audit_choices(seed)
        .unwrap_or_else(|e| panic!("{}: {e}", encounter.name()))
}

/// Runs one golden case: the encounter's text log (`log`) or its error (`err`). Cases run
/// strictly: every die and every choice comes from the script, so a case shows exactly what it
/// says.
pub fn golden_case(path: &Path) -> (String, &'static str) {
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().to_string());
    let full = path.display().to_string();
    let encounter = match AnyEncounter::load(&full, library()) {
        Ok(e) => e,
        Err(e) => return (format!("{e}\n").replace(&full, &name), "err"),
    };
    let options = FightOptions {
        strict: true,
        ..FightOptions::default()
    };
    match encounter.fight(&options, true) {
        Ok(record) => {
            let mut log = crate::render::text_log(&record.events, encounter.roster());
            // A script line no request used means the case does not show what it says it does.
            for line in &record.unused_choices {
                let _ = writeln!(log, "unused script choice: {line}");
            }
            if record.unused_dice > 0 {
                let _ = writeln!(log, "unused script dice: {}", record.unused_dice);
            }
            (log, "log")
        }
        Err(e) => (format!("{e}\n"), "err"),
    }
}

/// Runs every golden case under `root` (`root/<ruleset>/NAME.toml` against `NAME.log` or
/// `NAME.err`) and returns how many ran and the failures. With `update`, rewrites the
/// expectations instead (review the diff: the seeds' worked examples are among them).
pub fn golden_cases(root: &Path, update: bool) -> (usize, Vec<String>) {
    let mut cases = 0;
    let mut failures = Vec::new();
    for dir in sorted(root, |p| p.is_dir()) {
        for file in sorted(&dir, |p| p.extension().is_some_and(|x| x == "toml")) {
            cases += 1;
            let (actual, kind) = golden_case(&file);
            let expected_path = file.with_extension(kind);
            let other = file.with_extension(if kind == "log" { "err" } else { "log" });
            if update {
                std::fs::write(&expected_path, &actual).expect("write golden");
                let _ = std::fs::remove_file(&other);
                continue;
            }
            match std::fs::read_to_string(&expected_path) {
                Ok(expected) if expected == actual => {}
                Ok(expected) => failures.push(format!(
                    "{}: output differs\n--- expected\n{expected}\n--- actual\n{actual}",
                    file.display()
                )),
                Err(_) => failures.push(format!(
                    "{}: expected a .{kind} file; got\n{actual}",
                    file.display()
                )),
            }
        }
    }
    (cases, failures)
}

fn sorted(dir: &Path, keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| keep(p))
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_a_file_every_ruleset_reads() {
        let text = EncounterText::new("spelljammer")
            .sides(&["crew", "raiders"])
            .combatant("kira", "crew", [0, 0], &[("monster", "\"orc\"")])
            .combatant("scro", "raiders", [1, 0], &[("monster", "\"scro\"")])
            .max_rounds(2)
            .build();
        let encounter = load(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(encounter.roster().combatants.len(), 2);
        assert!(assert_choices_round_trip(&encounter, 7) > 0);
    }
}
