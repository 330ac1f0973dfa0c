//! Issue 17: `fray fight` of an encounter with a `[script]`, without `--strict`, follows the
//! script as far as it goes and says so when the default tactics answered the rest — never a
//! silent surprise. Through the real binary.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `fray fight ARGS…` in `dir`: (exit code, stdout, stderr).
fn fray_fight(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_fray"))
        .arg("fight")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run fray");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A folder of its own holding `examples/cnc/una-charge.toml` (the spec's CNC-E1: dice
/// `[7, 3, 12, 5]`, choices `una: charge orc`, `orc: none`) as `una.toml`, its `choices` line
/// replaced by `choices`.
fn una_with(name: &str, choices: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-script-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cnc/una-charge.toml"),
    )
    .expect("read una-charge");
    let line = r#"choices = ["una: charge orc", "orc: none"]"#;
    assert!(text.contains(line), "una-charge.toml's script changed");
    std::fs::write(dir.join("una.toml"), text.replace(line, choices)).expect("write");
    dir
}

#[test]
fn a_whole_script_is_followed_without_strict_and_without_a_warning() {
    let dir = una_with("whole", r#"choices = ["una: charge orc", "orc: none"]"#);
    let (code, plain, err) = fray_fight(&dir, &["una.toml"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "", "nothing to warn about");
    let (code, strict, err) = fray_fight(&dir, &["una.toml", "--strict"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(plain, strict, "the same fight as --strict");
    assert!(plain.contains("Una announces charge orc"), "{plain}");
    // `orc: none` (no declaration) was followed: the orc does not charge back.
    assert!(!plain.contains("Orc announces charge"), "{plain}");
}

#[test]
fn a_script_that_stops_short_is_followed_then_the_tactics_answer_with_a_warning() {
    let dir = una_with("short", r#"choices = ["una: charge orc"]"#);
    let (code, out, err) = fray_fight(&dir, &["una.toml"]);
    assert_eq!(code, 0, "{err}");
    // Una's scripted charge is played; the orc's declaration, which no line answers, is the
    // default tactics' (it charges back).
    assert!(out.contains("Una announces charge orc"), "{out}");
    assert!(out.contains("Orc announces charge una"), "{out}");
    assert!(
        err.contains(
            "warning: una.toml: the [script] does not answer every request: the default tactics \
             answered 1 request(s), the first Orc's declaration (CNC-R6.1); `--strict` makes an \
             unanswered request an error"
        ),
        "{err}"
    );
    // `--strict` makes it the error the warning promises.
    let (code, _, err) = fray_fight(&dir, &["una.toml", "--strict"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("no answer for Orc's declaration (CNC-R6.1)"),
        "{err}"
    );
}

#[test]
fn a_script_of_choices_without_dice_says_the_dice_are_frays_and_offers_no_false_replay() {
    let dir = una_with("no-dice", r#"choices = ["una: charge orc", "orc: none"]"#);
    let text = std::fs::read_to_string(dir.join("una.toml")).unwrap();
    let text = text.replace("dice = [7, 3, 12, 5]", "");
    std::fs::write(dir.join("una.toml"), text).unwrap();
    let (code, out, err) = fray_fight(&dir, &["una.toml"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Una announces charge orc"), "{out}");
    assert!(!out.contains("Orc announces charge"), "{out}");
    assert!(
        out.contains("(fray's dice: the [script] gives choices, no dice;"),
        "{out}"
    );
    assert!(!out.contains("replay with --seed"), "{out}");
    // Fray's dice may carry the fight past the script's round: its warning then says so.
    assert!(
        err.is_empty() || err.contains("the default tactics answered"),
        "{err}"
    );
}
