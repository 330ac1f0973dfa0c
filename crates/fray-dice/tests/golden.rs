//! Golden tests of the grammar: `tests/golden/grammar.txt` holds lines
//! `input => canonical text | tree` or `input => error at col N: message`.
//! Lines starting with `#` and blank lines are ignored. Run with `FRAY_BLESS=1` to rewrite
//! the expected side from the current parser (then review the diff).

use std::fmt::Write;

fn render(input: &str) -> String {
    match fray_dice::parse(input) {
        Ok(e) => {
            // The canonical text must re-parse to the same tree.
            let again = fray_dice::parse(&e.to_string()).expect("canonical text re-parses");
            assert_eq!(again, e, "canonical text of {input:?} changes the tree");
            format!("{e} | {}", e.tree())
        }
        Err(err) => format!("error at col {}: {}", err.column, err.kind),
    }
}

#[test]
fn grammar_golden() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/grammar.txt");
    let text = std::fs::read_to_string(path).expect("golden file");
    let bless = std::env::var_os("FRAY_BLESS").is_some();
    let mut failures = String::new();
    let mut blessed = String::new();
    let mut cases = 0;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            blessed.push_str(line);
            blessed.push('\n');
            continue;
        }
        let Some((input, expected)) = line.split_once(" => ") else {
            panic!("line {}: missing ' => ': {line}", n + 1);
        };
        cases += 1;
        let got = render(input);
        let _ = writeln!(blessed, "{input} => {got}");
        if got != expected.trim() {
            let _ = writeln!(
                failures,
                "line {}: {input}\n  expected: {expected}\n  got:      {got}",
                n + 1
            );
        }
    }
    if bless {
        std::fs::write(path, blessed).expect("write golden file");
        return;
    }
    assert!(cases > 50, "too few golden cases: {cases}");
    assert!(failures.is_empty(), "golden mismatches:\n{failures}");
}
