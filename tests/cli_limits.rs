//! The limits table of docs/limits.md is the truth the code must match: every row is checked
//! against the constant that enforces it, and every enforced limit must have a row. A limit
//! cannot change without this test (and the end-to-end tests that read the table) noticing.

use std::collections::BTreeMap;

/// `name → value` from the table in docs/limits.md (first two columns, digits only).
fn table() -> BTreeMap<String, u64> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/limits.md");
    let text = std::fs::read_to_string(path).expect("docs/limits.md");
    let mut rows = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 || cells[1] == "limit" || cells[1].starts_with("---") {
            continue;
        }
        let digits: String = cells[2].chars().filter(char::is_ascii_digit).collect();
        let value = digits
            .parse()
            .unwrap_or_else(|_| panic!("limit `{}`: no number in `{}`", cells[1], cells[2]));
        assert!(
            rows.insert(cells[1].to_string(), value).is_none(),
            "limit `{}` is listed twice",
            cells[1]
        );
    }
    rows
}

#[test]
fn every_documented_limit_is_the_one_the_code_enforces() {
    let dice = fray_dice::Limits::default();
    let fight = fray_core::Limits::default();
    let code: BTreeMap<&str, u64> = [
        ("encounter file size", fray_engine::MAX_FILE_BYTES),
        (
            "combatants per encounter",
            fray_core::encounter::MAX_COMBATANTS as u64,
        ),
        (
            "rounds per fight (ceiling)",
            u64::from(fray_core::Limits::MAX_ROUNDS_CEILING),
        ),
        ("rounds per fight (default)", u64::from(fight.max_rounds)),
        (
            "sides per encounter",
            fray_core::encounter::MAX_SIDES as u64,
        ),
        (
            "problems reported",
            fray_core::span::MAX_REPORTED_ERRORS as u64,
        ),
        ("id length", fray_core::loader::MAX_ID_CHARS as u64),
        ("name length", fray_core::loader::MAX_NAME_CHARS as u64),
        ("grid coordinate", fray_core::loader::MAX_COORDINATE as u64),
        (
            "dice per kept-dice request",
            fray_core::MAX_POOL_DICE as u64,
        ),
        ("answers per fight", u64::from(fight.max_answers)),
        ("odds branches", fray_core::odds::MAX_BRANCHES as u64),
        ("odds work", fray_core::odds::MAX_WORK as u64),
        ("odds pending branches", fray_core::odds::MAX_PENDING as u64),
        (
            "odds distinct states",
            fray_core::distinct::MAX_STATES as u64,
        ),
        (
            "odds branches in one round",
            fray_core::odds::MAX_BRANCHES as u64,
        ),
        (
            "odds branches in one fight",
            fray_core::fight_odds::MAX_FIGHT_BRANCHES as u64,
        ),
        (
            "blows in one routine",
            fray_core::routine_odds::MAX_BLOWS as u64,
        ),
        (
            "ranked roll dice",
            fray_core::ranked::MAX_RANKED_DICE as u64,
        ),
        (
            "ranked roll face tuples",
            fray_core::ranked::MAX_RANKED_TUPLES,
        ),
        (
            "settled points in one round",
            fray_core::fight_odds::MAX_STEPS as u64,
        ),
        (
            "exact computations at once",
            fray_serve::api::MAX_EXACT_JOBS as u64,
        ),
        (
            "Celesia squares per terrain ruling",
            fray_celesia::rules::terrain::MAX_RULING_SQUARES as u64,
        ),
        (
            "Celesia terrain squares",
            fray_celesia::rules::terrain::MAX_SQUARES as u64,
        ),
        (
            "Celesia path length",
            fray_celesia::rules::terrain::MAX_PATH as u64,
        ),
        (
            "Celesia hazardous squares",
            fray_celesia::rules::hazard::MAX_HAZARDS as u64,
        ),
        (
            "Celesia hazard name length",
            fray_celesia::rules::hazard::MAX_NAME as u64,
        ),
        (
            "Celesia feints kept ready",
            fray_celesia::rules::feint::MAX_FEINTS as u64,
        ),
        (
            "Celesia component rulings",
            fray_celesia::rules::spell_components::MAX_RULINGS as u64,
        ),
        (
            "Celesia ropes at hand",
            u64::from(fray_celesia::rules::belonging::MAX_ROPES),
        ),
        (
            "Celesia fire dice",
            u64::from(fray_celesia::rules::fire::MAX_FIRE_DICE),
        ),
        (
            "Celesia Constitution per GM change",
            fray_celesia::rules::con_loss::MAX_CHANGE as u64,
        ),
        ("simulation runs", fray_sim::MAX_RUNS),
        ("simulation runs from here", fray_sim::here::MAX_HERE_RUNS),
        ("simulation threads", fray_sim::MAX_THREADS as u64),
        ("values per --vary", fray_sim::vary::MAX_VALUES as u64),
        ("variants per sweep", fray_sim::vary::MAX_VARIANTS as u64),
        ("expression length", dice.max_expr_len as u64),
        ("dice per expression", u64::from(dice.max_dice)),
        ("sides per die", u64::from(dice.max_sides)),
        ("reroll/explosion depth", u64::from(dice.max_depth)),
        ("nesting depth", u64::from(dice.max_nesting)),
        ("distribution size", dice.max_support as u64),
        ("distribution work", dice.max_work),
        ("distribution memory", dice.max_words as u64),
        // Enforced by the binary (src/cli/dist.rs); tests/cli_hardening.rs checks it end to end.
        ("dist rows printed", 200),
    ]
    .into_iter()
    .collect();
    let docs = table();
    for (name, value) in &code {
        assert_eq!(
            docs.get(*name),
            Some(value),
            "docs/limits.md: `{name}` should be {value}"
        );
    }
    for name in docs.keys() {
        assert!(
            code.contains_key(name.as_str()),
            "docs/limits.md lists `{name}`, which no test checks"
        );
    }
}

#[test]
fn the_dice_limit_names_match_the_table() {
    // The names the errors print are the names in the table, so a user can look them up.
    let docs = table();
    for limit in [
        fray_dice::Limit::ExprLen,
        fray_dice::Limit::Dice,
        fray_dice::Limit::Sides,
        fray_dice::Limit::Depth,
        fray_dice::Limit::Nesting,
        fray_dice::Limit::Support,
        fray_dice::Limit::Work,
        fray_dice::Limit::Memory,
    ] {
        assert!(docs.contains_key(limit.name()), "{}", limit.name());
    }
}

#[test]
fn from_text_refuses_text_over_the_file_limit_before_parsing() {
    let library = fray_engine::Library::embedded().expect("content");
    let limit = table()["encounter file size"] as usize;
    let bench = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cnc/bench.toml"),
    )
    .expect("bench");
    let mut text = bench.clone();
    text.push_str(&"#".repeat(limit - text.len()));
    assert!(fray_engine::AnyEncounter::from_text("at-limit", &text, &library).is_ok());
    text.push('#');
    let error = fray_engine::AnyEncounter::from_text("over", &text, &library)
        .expect_err("one byte over the limit");
    assert!(error.to_string().contains("byte limit"), "{error}");
}
