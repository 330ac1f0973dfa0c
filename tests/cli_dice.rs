//! End-to-end tests of `fray roll` and `fray dist`, running the real binary.

use std::process::Output;
use std::time::{Duration, Instant};
#[path = "support/cli.rs"]
mod cli;
use cli::{fray, stderr, stdout};

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

#[test]
fn roll_with_scripted_dice_shows_the_breakdown() {
    let o = fray(&["roll", "4d6kh3", "--dice", "6,5,3,1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "4d6kh3 = [6, 5, 3, (1)] = 14\n");

    let o = fray(&["roll", "2d6r1!+3", "--dice", "1,6,4,2"]);
    assert_eq!(stdout(&o), "2d6r1!+3 = [~1~, 6!, 4, 2] + 3 = 15\n");
}

#[test]
fn roll_normalises_the_expression() {
    let o = fray(&["roll", "4D6 KH3", "--dice", "1,2,3,4"]);
    assert_eq!(stdout(&o), "4d6kh3 = [(1), 2, 3, 4] = 9\n");
    let o = fray(&["roll", "-1d4", "--dice", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "-1d4 = -[3] = -3\n");
}

#[test]
fn roll_with_a_seed_is_reproducible_and_random_without() {
    let a = fray(&["roll", "10d20", "--seed", "42"]);
    let b = fray(&["roll", "10d20", "--seed", "42"]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(stdout(&a), stdout(&b));
    let o = fray(&["roll", "1d20+5"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    let line = text.lines().next().unwrap();
    let total: i64 = line.trim().rsplit(" = ").next().unwrap().parse().unwrap();
    assert!((6..=25).contains(&total), "{line}");
}

#[test]
fn roll_json() {
    let o = fray(&["roll", "4d6kh3", "--dice", "6,5,3,1,2", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    assert_eq!(v["schema"], 1);
    assert_eq!(v["expr"], "4d6kh3");
    assert_eq!(v["total"], 14);
    assert_eq!(v["source"], "scripted");
    assert_eq!(v["unused"], serde_json::json!([2]));
    let dice = v["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 4);
    assert_eq!(dice[0]["sides"], 6);
    assert_eq!(dice[0]["value"], 6);
    assert_eq!(dice[0]["kept"], true);
    assert_eq!(dice[3]["kept"], false);

    let o = fray(&["roll", "1d20", "--json"]);
    let v = json(&o);
    assert!(v["seed"].is_u64());
    let seed = v["seed"].as_u64().unwrap().to_string();
    let again = json(&fray(&["roll", "1d20", "--json", "--seed", &seed]));
    assert_eq!(again["total"], v["total"]);
}

#[test]
fn syntax_error_shows_a_caret() {
    let o = fray(&["roll", "2d6+*3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert_eq!(
        stderr(&o),
        "error: expected a number, a die or '(', found '*' at column 5\n  2d6+*3\n      ^\n"
    );
    let o = fray(&["dist", "3d"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("expected the number of sides"));
    assert!(stderr(&o).ends_with("  3d\n    ^\n"), "{}", stderr(&o));
}

#[test]
fn limits_fail_fast_with_status_2() {
    let start = Instant::now();
    for args in [
        &["roll", "999999999d6"][..],
        &["dist", "999999999d6"][..],
        &["roll", "1d99999999"][..],
        &["dist", "2d1000000"][..],
        &["dist", "10000d6"][..],
    ] {
        let o = fray(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("limit exceeded"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    assert!(start.elapsed() < Duration::from_secs(10));
    let o = fray(&["roll", "999999999d6"]);
    assert!(stderr(&o).contains("dice per expression limit exceeded: 999999999 > 10000"));
}

#[test]
fn division_by_zero_is_an_error() {
    let o = fray(&["roll", "1d6/0", "--dice", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("division by zero"), "{}", stderr(&o));
    let o = fray(&["roll", "6/(1d2-1)", "--dice", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("division by zero"));
    let o = fray(&["dist", "1d6/(1d2-1)"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("division by zero"));
}

#[test]
fn bad_dice_scripts() {
    let o = fray(&["roll", "4d6", "--dice", "6,5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("exhausted"), "{}", stderr(&o));
    let o = fray(&["roll", "2d6", "--dice", "6,7"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("die #2 was given face 7, but a d6 has faces 1 to 6"),
        "{}",
        stderr(&o)
    );
    let o = fray(&["roll", "2d6", "--dice", "6,x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid --dice"));
    let o = fray(&["roll", "2d6", "--dice", "6,0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = fray(&["roll", "2d6", "--seed", "-1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid --seed"));
    let o = fray(&["roll", "2d6", "--seed", "1", "--dice", "1,2"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn errors_as_json() {
    for args in [
        &["roll", "2d6+*3", "--json"][..],
        &["roll", "999999999d6", "--json"][..],
        &["roll", "4d6", "--dice", "6", "--json"][..],
        &["dist", "1d6/0", "--json"][..],
        &["dist", "((", "--json"][..],
    ] {
        let o = fray(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let v = json(&o);
        assert_eq!(v["schema"], 1);
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    }
    let v = json(&fray(&["roll", "2d6+*3", "--json"]));
    assert_eq!(
        v["error"],
        "expected a number, a die or '(', found '*' at column 5"
    );
}

#[test]
fn dist_text() {
    let o = fray(&["dist", "3d6"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "3d6");
    assert!(
        lines[1].starts_with("min 3  max 18  mean 10.5000 (= 21/2)  sd 2.9580"),
        "{out}"
    );
    assert!(lines[2].contains("50%: 10"), "{out}");
    let row10 = lines
        .iter()
        .find(|l| l.trim_start().starts_with("10 "))
        .unwrap();
    assert!(
        row10.contains("12.5000%") && row10.contains("50.0000%"),
        "{row10}"
    );
    assert!(row10.contains("####"));
    assert_eq!(lines.len(), 4 + 16);
}

#[test]
fn dist_json() {
    let o = fray(&["dist", "3d6", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    assert_eq!(v["schema"], 1);
    assert_eq!(v["expr"], "3d6");
    assert_eq!(v["min"], 3);
    assert_eq!(v["max"], 18);
    assert_eq!(v["mean"], 10.5);
    assert_eq!(v["variance"], 8.75);
    assert_eq!(v["mean_exact"], "21/2");
    assert_eq!(v["truncated"], "0");
    assert_eq!(v["exact"][0], serde_json::json!([3, "1/216"]));
    assert_eq!(v["exact"][7], serde_json::json!([10, "1/8"]));
    let p3 = v["pmf"][0][1].as_f64().unwrap();
    assert!((p3 - 1.0 / 216.0).abs() < 1e-15);
    assert_eq!(v["pmf"].as_array().unwrap().len(), 16);

    let v = json(&fray(&["dist", "2d20kh1", "--json"]));
    assert_eq!(v["exact"][19], serde_json::json!([20, "39/400"]));
    let v = json(&fray(&["dist", "4d6kh3", "--json"]));
    assert_eq!(v["mean_exact"], "15869/1296");
}

#[test]
fn dist_reports_truncation_and_big_pools() {
    let v = json(&fray(&["dist", "3d6!", "--json"]));
    let t = v["truncated"].as_str().unwrap();
    assert_ne!(t, "0");
    assert!(t.starts_with("1/") || t.contains('/'));
    assert!(v["truncated_f64"].as_f64().unwrap() > 0.0);
    let o = fray(&["dist", "3d6!"]);
    assert!(stdout(&o).contains("truncated by the depth limit"));

    for e in ["100d6", "100d6kh10"] {
        let o = fray(&["dist", e]);
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).contains("each below 0.0001%"), "{e}");
    }
}
