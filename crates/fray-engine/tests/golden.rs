//! Golden tests for every ruleset: each `tests/golden/<ruleset>/NAME.toml` encounter (with its
//! scripted dice and choices) is fought, and the text log must equal `NAME.log`, or the error must
//! equal `NAME.err`. One runner serves every ruleset. `UPDATE_GOLDEN=1` rewrites the expectations
//! (review the diff: the seeds' worked examples are among the cases). Cases run `--strict`:
//! every die and every choice comes from the script, so a case shows exactly what it says.

use fray_engine::{AnyEncounter, FightOptions, Library};
use std::path::{Path, PathBuf};

fn golden_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden")
}

fn run_case(path: &Path, library: &Library) -> (String, &'static str) {
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().to_string());
    let full = path.display().to_string();
    let encounter = match AnyEncounter::load(&full, library) {
        Ok(e) => e,
        Err(e) => return (format!("{e}\n").replace(&full, &name), "err"),
    };
    // Cases run strictly: every die and every choice comes from the script.
    let options = FightOptions {
        strict: true,
        ..FightOptions::default()
    };
    match encounter.fight(&options, true) {
        Ok(record) => {
            let mut log = fray_engine::render::text_log(&record.events, encounter.roster());
            // A script line no request used means the case does not show what it says it does.
            for line in &record.unused_choices {
                log.push_str(&format!("unused script choice: {line}\n"));
            }
            if record.unused_dice > 0 {
                log.push_str(&format!("unused script dice: {}\n", record.unused_dice));
            }
            (log, "log")
        }
        Err(e) => (format!("{e}\n"), "err"),
    }
}

#[test]
fn golden_cases_match() {
    let library = Library::embedded().expect("content loads");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut cases = 0;
    let mut failures = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(golden_root())
        .expect("tests/golden exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("ruleset dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        for file in files {
            cases += 1;
            let (actual, kind) = run_case(&file, &library);
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
    assert!(cases >= 10, "only {cases} golden cases found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
