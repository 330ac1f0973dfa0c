//! Architecture invariants that can be checked mechanically (see ARCHITECTURE.md):
//! rulesets do no I/O and own no randomness; rulesets never import each other; the lower layers
//! never import a ruleset.

use std::path::{Path, PathBuf};

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn ruleset_crates() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(crates_dir())
        .expect("crates/")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            // Every crate except the layers that are not rulesets (and the server, a front end).
            ![
                "fray-dice",
                "fray-core",
                "fray-engine",
                "fray-sim",
                "fray-serve",
            ]
            .contains(&name.as_str())
        })
        .collect();
    out.sort();
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn rules_do_no_io_and_own_no_randomness() {
    let forbidden = [
        "std::fs",
        "std::io",
        "std::net",
        "std::env",
        "println!",
        "eprintln!",
        "print!(",
        "rand::",
        "thread_rng",
        "SystemTime",
        "Instant",
        "SeededDice",
        "std::thread",
    ];
    let crates = ruleset_crates();
    assert!(!crates.is_empty());
    for krate in crates {
        let mut files = Vec::new();
        rust_files(&krate.join("src"), &mut files);
        assert!(!files.is_empty());
        for file in files {
            let text = std::fs::read_to_string(&file).expect("read");
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for word in forbidden {
                    assert!(
                        !code.contains(word),
                        "{}:{}: rules must not use `{word}`",
                        file.display(),
                        n + 1
                    );
                }
            }
        }
    }
}

fn dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).expect("Cargo.toml");
    let mut deps = Vec::new();
    let mut in_deps = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps {
            if let Some((name, _)) = line.split_once(['=', '.']) {
                deps.push(name.trim().to_string());
            }
        }
    }
    deps
}

#[test]
fn rulesets_never_import_each_other_and_lower_layers_import_none() {
    let rulesets: Vec<String> = ruleset_crates()
        .iter()
        .map(|p| p.file_name().expect("name").to_string_lossy().to_string())
        .collect();
    for krate in &rulesets {
        let deps = dependencies(&crates_dir().join(krate).join("Cargo.toml"));
        for other in &rulesets {
            assert!(!deps.contains(other), "{krate} depends on ruleset {other}");
        }
        assert!(
            !deps.iter().any(|d| d == "fray-engine" || d == "fray-sim"),
            "{krate} imports upward"
        );
    }
    for lower in ["fray-dice", "fray-core"] {
        let deps = dependencies(&crates_dir().join(lower).join("Cargo.toml"));
        for r in &rulesets {
            assert!(!deps.contains(r), "{lower} depends on ruleset {r}");
        }
        assert!(
            !deps.iter().any(|d| d == "fray-engine" || d == "fray-sim"),
            "{lower} imports upward"
        );
    }
    let dice_deps = dependencies(&crates_dir().join("fray-dice").join("Cargo.toml"));
    assert!(
        !dice_deps.iter().any(|d| d.starts_with("fray-")),
        "fray-dice depends on no fray crate"
    );
}
