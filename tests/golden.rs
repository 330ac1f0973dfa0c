//! Golden tests for every ruleset: each `tests/golden/<ruleset>/NAME.toml` encounter (with its
//! scripted dice and choices) is fought, and the text log must equal `NAME.log`, or the error must
//! equal `NAME.err`. One runner (`fray_engine::testkit::golden_cases`) serves every ruleset.
//! `UPDATE_GOLDEN=1` rewrites the expectations (review the diff: the seeds' worked examples are
//! among the cases). Cases run strictly: every die and every choice comes from the script.

use fray_engine::testkit::golden_cases;
use std::path::Path;

#[test]
fn golden_cases_match() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let (cases, failures) = golden_cases(&root, update);
    assert!(cases >= 10, "only {cases} golden cases found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
