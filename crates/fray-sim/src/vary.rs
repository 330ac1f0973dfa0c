//! Sweeps: `--vary KEY=VALUES` specifications and the encounter variants they make.
//!
//! `KEY` is `GROUP.FIELD` — the `id` of a `[[combatants]]` entry, a dot, and a field of it
//! (dotted further for nested tables: `fighter.scores.str`) — or a top-level key of the file
//! (`max_rounds`, or a dotted path into a top-level table). `VALUES` is an inclusive integer
//! range `A..B` (also `A..=B`), or a comma-separated list `a,b,c` of integers, decimals,
//! `true`/`false` or words (strings). Several `--vary` flags combine into every combination.
//!
//! A variant is made by editing the TOML document (never the loaded encounter), so it works for
//! every ruleset: the edited document is serialized back to text and loaded as usual. When a
//! combatant's `count` changes and its `at` lists one square per member, the list is cut short
//! or extended by repeating the step between its last two squares (one square east if it has
//! only one), so `orc.count=4..12` works on a file that places eight orcs square by square.

pub use toml::{Table, Value};

/// Most values one `--vary` may list.
pub const MAX_VALUES: usize = 1000;
/// Most variants a sweep may run (the product of every `--vary`'s values).
pub const MAX_VARIANTS: usize = 1000;

/// What is wrong with a `--vary` specification or its use on a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VaryError {
    /// No `=`, empty key or empty values.
    #[error(
        "--vary `{spec}`: expected KEY=VALUES, e.g. `orc.count=4..12` or `max_rounds=10,20,50`"
    )]
    Syntax {
        /// The specification.
        spec: String,
    },
    /// A key segment is empty or has odd characters.
    #[error("--vary `{spec}`: `{key}` is not a key; write GROUP.FIELD (`orc.count`) or a top-level key (`max_rounds`)")]
    BadKey {
        /// The specification.
        spec: String,
        /// The key.
        key: String,
    },
    /// A range that is not `A..B` with integers `A ≤ B`.
    #[error(
        "--vary `{spec}`: bad range `{range}`; write A..B with whole numbers A ≤ B (inclusive)"
    )]
    BadRange {
        /// The specification.
        spec: String,
        /// The range text.
        range: String,
    },
    /// An empty item in a list.
    #[error("--vary `{spec}`: empty value in the list")]
    EmptyValue {
        /// The specification.
        spec: String,
    },
    /// Too many values in one specification.
    #[error("--vary `{spec}`: {count} values; at most {MAX_VALUES}")]
    TooManyValues {
        /// The specification.
        spec: String,
        /// How many.
        count: u128,
    },
    /// Too many combinations.
    #[error("the --vary flags make {count} variants; at most {MAX_VARIANTS}")]
    TooManyVariants {
        /// How many.
        count: u128,
    },
    /// A value outside the limit the encounter file itself has for that key (checked before
    /// any variant is built, so a huge `count` allocates nothing).
    #[error("--vary `{spec}`: `{value}` is out of range for `{key}`; expected {expected}")]
    OutOfRange {
        /// The specification.
        spec: String,
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// What the file format accepts there.
        expected: String,
    },
    /// The same key twice.
    #[error("--vary `{key}` is given twice")]
    Duplicate {
        /// The key.
        key: String,
    },
    /// `GROUP.FIELD` names no combatant group (and no top-level table).
    #[error("--vary `{spec}`: no combatant `{group}` in the file (combatants: {known})")]
    UnknownCombatant {
        /// The specification.
        spec: String,
        /// The group id asked for.
        group: String,
        /// The ids in the file.
        known: String,
    },
    /// The path goes through something that is not a table.
    #[error("--vary `{spec}`: `{at}` is not a table, so `{key}` cannot be set inside it")]
    NotATable {
        /// The specification.
        spec: String,
        /// The part of the key that is not a table.
        at: String,
        /// The whole key.
        key: String,
    },
    /// The file is not TOML.
    #[error("{path}: not a TOML document: {message}")]
    NotToml {
        /// The file.
        path: String,
        /// The parser's message.
        message: String,
    },
}

/// One `--vary` flag: a key and the values it takes.
#[derive(Debug, Clone, PartialEq)]
pub struct Vary {
    /// The flag as given.
    pub spec: String,
    /// The key's dotted path.
    pub key: Vec<String>,
    /// The values, in order.
    pub values: Vec<Value>,
}

/// One variant of a sweep: a value for each `--vary` key.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// `orc.count=5 fighter.level=2`.
    pub label: String,
    /// (dotted key, value) for each `--vary`, in flag order.
    pub settings: Vec<(String, Value)>,
}

fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn parse_value(text: &str) -> Value {
    let t = text.trim();
    if let Ok(i) = t.parse::<i64>() {
        return Value::Integer(i);
    }
    if let Ok(f) = t.parse::<f64>() {
        if f.is_finite() {
            return Value::Float(f);
        }
    }
    match t {
        "true" => Value::Boolean(true),
        "false" => Value::Boolean(false),
        _ => Value::String(t.trim_matches('"').to_string()),
    }
}

/// Reads one `--vary` specification.
pub fn parse(spec: &str) -> Result<Vary, VaryError> {
    let syntax = || VaryError::Syntax {
        spec: spec.to_string(),
    };
    let (key_text, values_text) = spec.split_once('=').ok_or_else(syntax)?;
    let key_text = key_text.trim();
    let values_text = values_text.trim();
    if key_text.is_empty() || values_text.is_empty() {
        return Err(syntax());
    }
    let key: Vec<String> = key_text.split('.').map(|s| s.trim().to_string()).collect();
    let good = |s: &String| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if !key.iter().all(good) {
        return Err(VaryError::BadKey {
            spec: spec.to_string(),
            key: key_text.to_string(),
        });
    }
    let values: Vec<Value> = if let Some((a, b)) = values_text.split_once("..") {
        let bad = || VaryError::BadRange {
            spec: spec.to_string(),
            range: values_text.to_string(),
        };
        let b = b.strip_prefix('=').unwrap_or(b);
        let low: i64 = a.trim().parse().map_err(|_| bad())?;
        let high: i64 = b.trim().parse().map_err(|_| bad())?;
        if low > high {
            return Err(bad());
        }
        let count = (i128::from(high) - i128::from(low) + 1) as u128;
        if count > MAX_VALUES as u128 {
            return Err(VaryError::TooManyValues {
                spec: spec.to_string(),
                count,
            });
        }
        (low..=high).map(Value::Integer).collect()
    } else {
        let items: Vec<&str> = values_text.split(',').collect();
        if items.len() > MAX_VALUES {
            return Err(VaryError::TooManyValues {
                spec: spec.to_string(),
                count: items.len() as u128,
            });
        }
        if items.iter().any(|i| i.trim().is_empty()) {
            return Err(VaryError::EmptyValue {
                spec: spec.to_string(),
            });
        }
        items.into_iter().map(parse_value).collect()
    };
    check_limits(spec, &key, &values)?;
    Ok(Vary {
        spec: spec.to_string(),
        key,
        values,
    })
}

/// The range a whole-number key must stay in, as the encounter files have it: a group's
/// `count` (1 to [`MAX_COMBATANTS`](fray_core::encounter::MAX_COMBATANTS)) and `max_rounds`
/// (1 to [`MAX_ROUNDS_CEILING`](fray_core::Limits::MAX_ROUNDS_CEILING)).
fn limit_of(key: &[String]) -> Option<(i64, i64)> {
    match key {
        [_, field] if field == "count" => Some((1, fray_core::encounter::MAX_COMBATANTS as i64)),
        [field] if field == "max_rounds" => {
            Some((1, i64::from(fray_core::Limits::MAX_ROUNDS_CEILING)))
        }
        _ => None,
    }
}

/// Refuses a value past the file format's own limits, before anything is built from it.
fn check_limits(spec: &str, key: &[String], values: &[Value]) -> Result<(), VaryError> {
    let Some((low, high)) = limit_of(key) else {
        return Ok(());
    };
    for value in values {
        let fits = matches!(value, Value::Integer(n) if (low..=high).contains(n));
        if !fits {
            return Err(VaryError::OutOfRange {
                spec: spec.to_string(),
                key: key.join("."),
                value: value_text(value),
                expected: format!("a whole number from {low} to {high}"),
            });
        }
    }
    Ok(())
}

/// Every combination of the flags' values (the last flag varies fastest).
pub fn variants(flags: &[Vary]) -> Result<Vec<Variant>, VaryError> {
    let mut seen = std::collections::BTreeSet::new();
    let mut count: u128 = 1;
    for flag in flags {
        let key = flag.key.join(".");
        if !seen.insert(key.clone()) {
            return Err(VaryError::Duplicate { key });
        }
        count = count.saturating_mul(flag.values.len() as u128);
    }
    if count > MAX_VARIANTS as u128 {
        return Err(VaryError::TooManyVariants { count });
    }
    let mut out = vec![Vec::new()];
    for flag in flags {
        let key = flag.key.join(".");
        let mut next = Vec::with_capacity(out.len() * flag.values.len());
        for prefix in &out {
            for value in &flag.values {
                let mut settings: Vec<(String, Value)> = prefix.clone();
                settings.push((key.clone(), value.clone()));
                next.push(settings);
            }
        }
        out = next;
    }
    Ok(out
        .into_iter()
        .map(|settings| Variant {
            label: settings
                .iter()
                .map(|(k, v)| format!("{k}={}", value_text(v)))
                .collect::<Vec<_>>()
                .join(" "),
            settings,
        })
        .collect())
}

/// Parses an encounter file's text as a TOML table.
pub fn parse_document(path: &str, text: &str) -> Result<Table, VaryError> {
    text.parse::<Table>().map_err(|e| VaryError::NotToml {
        path: path.to_string(),
        message: e.message().to_string(),
    })
}

/// Checks that every flag's key can be set in `doc` (its combatant group exists, its path runs
/// through tables), so a typo is reported before anything runs.
pub fn check(doc: &Table, flags: &[Vary]) -> Result<(), VaryError> {
    for flag in flags {
        if let Some(value) = flag.values.first() {
            let mut copy = doc.clone();
            set(&mut copy, flag, value)?;
        }
    }
    Ok(())
}

/// The text of `doc` with the variant's settings applied.
pub fn apply(doc: &Table, flags: &[Vary], variant: &Variant) -> Result<String, VaryError> {
    let mut copy = doc.clone();
    for (flag, (_, value)) in flags.iter().zip(&variant.settings) {
        set(&mut copy, flag, value)?;
    }
    toml::to_string(&copy).map_err(|e| VaryError::NotToml {
        path: variant.label.clone(),
        message: e.to_string(),
    })
}

fn combatant_ids(doc: &Table) -> Vec<String> {
    match doc.get("combatants") {
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(|c| c.get("id").and_then(Value::as_str).map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

fn set(doc: &mut Table, flag: &Vary, value: &Value) -> Result<(), VaryError> {
    let key = &flag.key;
    let not_table = |at: &[String]| VaryError::NotATable {
        spec: flag.spec.clone(),
        at: at.join("."),
        key: key.join("."),
    };
    let Some((first, _)) = key.split_first() else {
        return Err(VaryError::Syntax {
            spec: flag.spec.clone(),
        });
    };
    // GROUP.FIELD…: a combatant group.
    if key.len() >= 2 {
        if let Some(Value::Array(list)) = doc.get_mut("combatants") {
            let group = list.iter_mut().find_map(|c| match c {
                Value::Table(t) if t.get("id").and_then(Value::as_str) == Some(first.as_str()) => {
                    Some(t)
                }
                _ => None,
            });
            if let Some(table) = group {
                set_path(table, &key[1..], value, key, &not_table)?;
                if key[1..] == ["count".to_string()] {
                    if let Value::Integer(n) = value {
                        fit_squares(table, *n);
                    }
                }
                return Ok(());
            }
        }
        if !matches!(doc.get(first.as_str()), Some(Value::Table(_))) {
            let known = combatant_ids(doc);
            return Err(VaryError::UnknownCombatant {
                spec: flag.spec.clone(),
                group: first.clone(),
                known: if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                },
            });
        }
    }
    set_path(doc, key, value, key, &not_table)
}

fn set_path(
    table: &mut Table,
    path: &[String],
    value: &Value,
    whole: &[String],
    not_table: &dyn Fn(&[String]) -> VaryError,
) -> Result<(), VaryError> {
    let Some((last, parents)) = path.split_last() else {
        return Ok(());
    };
    let mut here = table;
    let offset = whole.len() - path.len();
    for (i, part) in parents.iter().enumerate() {
        let entry = here
            .entry(part.clone())
            .or_insert_with(|| Value::Table(Table::new()));
        here = match entry {
            Value::Table(t) => t,
            _ => return Err(not_table(&whole[..offset + i + 1])),
        };
    }
    here.insert(last.clone(), value.clone());
    Ok(())
}

/// Makes a square-by-square `at` list as long as the new `count`.
fn fit_squares(group: &mut Table, count: i64) {
    // `parse` already refused counts past the limit; never allocate for one regardless.
    let Ok(count) = usize::try_from(count) else {
        return;
    };
    if count > fray_core::encounter::MAX_COMBATANTS {
        return;
    }
    let Some(Value::Array(squares)) = group.get_mut("at") else {
        return;
    };
    let square = |v: &Value| -> Option<(i64, i64)> {
        match v.as_array()?.as_slice() {
            [x, y] => Some((x.as_integer()?, y.as_integer()?)),
            _ => None,
        }
    };
    // A single square `[x, y]` (two integers) is a starting square: nothing to do.
    if squares.is_empty() || squares.iter().any(|v| square(v).is_none()) {
        return;
    }
    if count <= squares.len() {
        squares.truncate(count.max(1));
        return;
    }
    let points: Vec<(i64, i64)> = squares.iter().filter_map(square).collect();
    let last = points[points.len() - 1];
    let step = if points.len() >= 2 {
        let before = points[points.len() - 2];
        (last.0 - before.0, last.1 - before.1)
    } else {
        (1, 0)
    };
    let step = if step == (0, 0) { (1, 0) } else { step };
    for k in 1..=(count - points.len()) as i64 {
        squares.push(Value::Array(vec![
            Value::Integer(last.0 + step.0 * k),
            Value::Integer(last.1 + step.1 * k),
        ]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"
schema = 1
ruleset = "cnc"
max_rounds = 100
[[combatants]]
id = "fighter"
side = "a"
at = [0, 0]
scores = { str = 16 }
[[combatants]]
id = "orc"
side = "b"
count = 3
at = [[5, 0], [5, 1], [5, 2]]
"#;

    #[test]
    fn values_past_the_file_limits_are_refused_when_parsed() {
        for spec in [
            "orc.count=9223372036854775807",
            "orc.count=0",
            "orc.count=-1",
            "orc.count=501",
            "orc.count=2.5",
            "orc.count=many",
            "orc.count=499..501",
            "max_rounds=10001",
            "max_rounds=0",
        ] {
            assert!(
                matches!(parse(spec), Err(VaryError::OutOfRange { .. })),
                "{spec}: {:?}",
                parse(spec)
            );
        }
        assert!(parse("orc.count=1,500").is_ok());
        assert!(parse("max_rounds=1,10000").is_ok());
        assert!(
            parse("orc.hp=9223372036854775807").is_ok(),
            "the loader judges other keys"
        );
    }

    #[test]
    fn parses_ranges_and_lists() {
        let v = parse("orc.count=4..6").unwrap();
        assert_eq!(v.key, vec!["orc", "count"]);
        assert_eq!(
            v.values,
            vec![Value::Integer(4), Value::Integer(5), Value::Integer(6)]
        );
        assert_eq!(parse("orc.count=4..=5").unwrap().values.len(), 2);
        let v = parse("max_rounds=10,20").unwrap();
        assert_eq!(v.key, vec!["max_rounds"]);
        assert_eq!(v.values, vec![Value::Integer(10), Value::Integer(20)]);
        let v = parse("fighter.weapon=long sword,battle axe").unwrap();
        assert_eq!(v.values[1], Value::String("battle axe".into()));
        assert_eq!(
            parse("x.y=true").unwrap().values,
            vec![Value::Boolean(true)]
        );
    }

    #[test]
    fn rejects_bad_specifications() {
        for bad in [
            "orc.count",
            "=3",
            "orc.count=",
            "orc..count=3",
            "orc.count=5..4",
            "orc.count=a..b",
            "orc.count=1,,2",
            "orc.count=1..5000",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let a = parse("orc.count=1..100").unwrap();
        let b = parse("fighter.level=1..20").unwrap();
        assert!(matches!(
            variants(&[a.clone(), b]),
            Err(VaryError::TooManyVariants { count: 2000 })
        ));
        assert!(matches!(
            variants(&[a.clone(), a]),
            Err(VaryError::Duplicate { .. })
        ));
    }

    #[test]
    fn combines_flags() {
        let a = parse("orc.count=1..2").unwrap();
        let b = parse("max_rounds=5,6").unwrap();
        let v = variants(&[a, b]).unwrap();
        let labels: Vec<&str> = v.iter().map(|v| v.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "orc.count=1 max_rounds=5",
                "orc.count=1 max_rounds=6",
                "orc.count=2 max_rounds=5",
                "orc.count=2 max_rounds=6"
            ]
        );
    }

    #[test]
    fn edits_the_document() {
        let doc = parse_document("t.toml", DOC).unwrap();
        let flags = [
            parse("orc.count=5").unwrap(),
            parse("max_rounds=7").unwrap(),
            parse("fighter.scores.str=18").unwrap(),
        ];
        let v = variants(&flags).unwrap();
        let text = apply(&doc, &flags, &v[0]).unwrap();
        let edited: Table = text.parse().unwrap();
        assert_eq!(edited["max_rounds"].as_integer(), Some(7));
        let combatants = edited["combatants"].as_array().unwrap();
        let orc = combatants[1].as_table().unwrap();
        assert_eq!(orc["count"].as_integer(), Some(5));
        let at: Vec<Value> = orc["at"].as_array().unwrap().clone();
        assert_eq!(at.len(), 5);
        assert_eq!(
            at[4],
            Value::Array(vec![Value::Integer(5), Value::Integer(4)])
        );
        assert_eq!(combatants[0]["scores"]["str"].as_integer(), Some(18));
        // Fewer: cut short. A starting square is left alone.
        let fewer = [
            parse("orc.count=2").unwrap(),
            parse("fighter.count=3").unwrap(),
        ];
        let text = apply(&doc, &fewer, &variants(&fewer).unwrap()[0]).unwrap();
        let edited: Table = text.parse().unwrap();
        assert_eq!(edited["combatants"][1]["at"].as_array().unwrap().len(), 2);
        assert_eq!(edited["combatants"][0]["at"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn reports_unknown_combatants_and_non_tables() {
        let doc = parse_document("t.toml", DOC).unwrap();
        let err = check(&doc, &[parse("goblin.count=3").unwrap()]).unwrap_err();
        assert!(err.to_string().contains("no combatant `goblin`"), "{err}");
        assert!(err.to_string().contains("fighter, orc"), "{err}");
        let err = check(&doc, &[parse("orc.count.x=3").unwrap()]).unwrap_err();
        assert!(matches!(err, VaryError::NotATable { .. }), "{err}");
        assert!(parse_document("t.toml", "not = = toml").is_err());
    }
}
