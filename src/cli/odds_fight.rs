//! `fray odds FILE --routine|--round|--fight`: the state-merging exact odds (see docs/odds.md),
//! as text (each probability in per cent and as an exact fraction) or JSON (`"schema": 1`,
//! numbers, and the fractions under `exact`).

use super::odds::{situation, OddsArgs};
use super::{output, CliError};
use fray_engine::fight_odds::{FightReport, RoundReport};
use fray_engine::odds::to_f64;
use fray_engine::routine_odds::RoutineReport;
use fray_engine::AnyEncounter;
use num_rational::BigRational;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Most joint outcomes the text of `--round` lists (JSON lists them all).
const ROUND_LINES: usize = 20;

/// Runs `fray odds` with `--routine`, `--round` or `--fight`.
pub fn run(encounter: &AnyEncounter, args: &OddsArgs) -> Result<(), CliError> {
    let failed = |e: fray_engine::odds::OddsFailure| CliError::Input(format!("{}: {e}", args.file));
    let ruleset = encounter.ruleset().key();
    let out = if args.routine {
        let situation = situation(args.weapon.clone(), &args.situations);
        let (attacker, target) = (
            args.attacker.as_deref().unwrap_or_default(),
            args.target.as_deref().unwrap_or_default(),
        );
        let report = encounter
            .routine_odds(attacker, target, &situation, args.max_states as usize)
            .map_err(failed)?;
        if args.json {
            format!("{}\n", routine_json(ruleset, &report))
        } else {
            routine_text(encounter, &report)
        }
    } else {
        if args.weapon.is_some() || !args.situations.is_empty() {
            return Err(CliError::Input(
                "--weapon and --situation set up one attack: they do not go with --round or --fight"
                    .into(),
            ));
        }
        if args.round {
            let report = encounter
                .round_odds(args.max_states as usize)
                .map_err(failed)?;
            if args.json {
                format!("{}\n", round_json(ruleset, &report))
            } else {
                round_text(encounter, &report)
            }
        } else {
            let report = encounter
                .fight_odds(
                    args.max_states as usize,
                    args.max_rounds,
                    args.max_work as usize,
                )
                .map_err(failed)?;
            if args.json {
                format!("{}\n", fight_json(ruleset, &report))
            } else {
                fight_text(encounter, &report)
            }
        }
    };
    output::print(&out)
}

/// `12.34%  (7/57)`.
fn pct(p: &BigRational) -> String {
    format!("{:6.2}%  ({})", 100.0 * to_f64(p), p)
}

/// `[value, decimal]` pairs and `[value, "fraction"]` pairs of a distribution.
fn pmf_json<K: serde::Serialize>(pmf: &[(K, BigRational)]) -> (Value, Value) {
    (
        pmf.iter().map(|(k, p)| json!([k, to_f64(p)])).collect(),
        pmf.iter().map(|(k, p)| json!([k, p.to_string()])).collect(),
    )
}

fn title(encounter: &AnyEncounter, what: &str) -> String {
    format!("{what} ({})", encounter.ruleset().name())
}

fn routine_text(encounter: &AnyEncounter, report: &RoutineReport) -> String {
    let roster = encounter.roster();
    let name = |key: &str| {
        roster
            .find(key)
            .map_or(key.to_string(), |id| roster.name(id).to_string())
    };
    let mut out = String::new();
    let what = format!(
        "{}'s whole action against {}",
        name(&report.attacker),
        name(&report.target)
    );
    let _ = writeln!(out, "{}", title(encounter, &what));
    let _ = writeln!(
        out,
        "  {} blows at most; {} distinct states between blows, {} branches",
        report.blows, report.states, report.branches
    );
    let _ = writeln!(
        out,
        "  target at or below 0 hp afterwards  {}",
        pct(&report.down)
    );
    let _ = writeln!(out, "  total damage to the target:");
    for (d, p) in &report.damage {
        let bar = "#".repeat((to_f64(p) * 50.0).round() as usize);
        let _ = writeln!(out, "    {d:>4}  {}  {bar}", pct(p));
    }
    out
}

fn routine_json(ruleset: &str, report: &RoutineReport) -> Value {
    let (damage, exact_damage) = pmf_json(&report.damage);
    json!({
        "schema": 1,
        "ruleset": ruleset,
        "attacker": report.attacker,
        "target": report.target,
        "down": to_f64(&report.down),
        "damage": damage,
        "exact": { "down": report.down.to_string(), "damage": exact_damage },
        "blows": report.blows,
        "states": report.states,
        "branches": report.branches,
    })
}

fn round_text(encounter: &AnyEncounter, report: &RoundReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        title(encounter, "The fight after its first round")
    );
    let _ = writeln!(
        out,
        "  {} distinct end states, {} branches",
        report.states, report.branches
    );
    let _ = writeln!(out, "  fight over after the round  {}", pct(&report.over));
    for c in &report.combatants {
        let _ = writeln!(out, "  {} ({}), {} hp before:", c.key, c.side, c.hp_before);
        for (s, p) in &c.standing {
            let _ = writeln!(out, "    {s:<12} {}", pct(p));
        }
        for (h, p) in &c.hp {
            let _ = writeln!(out, "    {h:>4} hp     {}", pct(p));
        }
    }
    let keys: Vec<&str> = report.combatants.iter().map(|c| c.key.as_str()).collect();
    let _ = writeln!(
        out,
        "  most likely outcomes (hp and standing of {}):",
        keys.join(", ")
    );
    for (outcome, p) in report.outcomes.iter().take(ROUND_LINES) {
        let each: Vec<String> = outcome.iter().map(|(h, s)| format!("{h} {s}")).collect();
        let _ = writeln!(out, "    {}  {}", pct(p), each.join(", "));
    }
    if report.outcomes.len() > ROUND_LINES {
        let _ = writeln!(
            out,
            "    … {} more (--json lists them all)",
            report.outcomes.len() - ROUND_LINES
        );
    }
    out
}

fn round_json(ruleset: &str, report: &RoundReport) -> Value {
    let combatants: Vec<Value> = report
        .combatants
        .iter()
        .map(|c| {
            let (hp, exact_hp) = pmf_json(&c.hp);
            let (standing, exact_standing) = pmf_json(&c.standing);
            json!({
                "id": c.key,
                "side": c.side,
                "hp_before": c.hp_before,
                "hp": hp,
                "standing": standing,
                "exact": { "hp": exact_hp, "standing": exact_standing },
            })
        })
        .collect();
    let outcomes: Vec<Value> = report
        .outcomes
        .iter()
        .map(|(o, p)| {
            json!({
                "combatants": o.iter().map(|(h, s)| json!({"hp": h, "standing": s})).collect::<Vec<_>>(),
                "probability": to_f64(p),
                "exact": p.to_string(),
            })
        })
        .collect();
    json!({
        "schema": 1,
        "ruleset": ruleset,
        "round": 1,
        "over": to_f64(&report.over),
        "exact": { "over": report.over.to_string() },
        "combatants": combatants,
        "outcomes": outcomes,
        "states": report.states,
        "branches": report.branches,
    })
}

pub(super) fn fight_text(encounter: &AnyEncounter, report: &FightReport) -> String {
    let roster = encounter.roster();
    let mut out = String::new();
    let _ = writeln!(out, "{}", title(encounter, "The whole fight"));
    let _ = writeln!(
        out,
        "  {} distinct settled states (at most {} at once), {} branches",
        report.states, report.peak_states, report.branches
    );
    for (side, p) in &report.wins {
        let name = roster
            .sides
            .iter()
            .find(|s| &s.key == side)
            .map_or(side.as_str(), |s| s.name.as_str());
        let _ = writeln!(
            out,
            "  {name} win{:<w$} {}",
            "",
            pct(p),
            w = 20usize.saturating_sub(name.len())
        );
    }
    let _ = writeln!(
        out,
        "  nobody left standing     {}",
        pct(&report.none_standing)
    );
    let _ = writeln!(
        out,
        "  stalemate ({} rounds)    {}",
        report.max_rounds,
        pct(&report.stalemate)
    );
    let _ = writeln!(out, "  the fight ends in round:");
    for (r, p) in &report.ends_in_round {
        let _ = writeln!(out, "    {r:>4}  {}", pct(p));
    }
    out
}

fn fight_json(ruleset: &str, report: &FightReport) -> Value {
    let wins: serde_json::Map<String, Value> = report
        .wins
        .iter()
        .map(|(s, p)| (s.clone(), json!(to_f64(p))))
        .collect();
    let exact_wins: serde_json::Map<String, Value> = report
        .wins
        .iter()
        .map(|(s, p)| (s.clone(), json!(p.to_string())))
        .collect();
    let (rounds, exact_rounds) = pmf_json(&report.ends_in_round);
    json!({
        "schema": 1,
        "ruleset": ruleset,
        "wins": wins,
        "none_standing": to_f64(&report.none_standing),
        "stalemate": to_f64(&report.stalemate),
        "max_rounds": report.max_rounds,
        "ends_in_round": rounds,
        "exact": {
            "wins": exact_wins,
            "none_standing": report.none_standing.to_string(),
            "stalemate": report.stalemate.to_string(),
            "ends_in_round": exact_rounds,
        },
        "states": report.states,
        "peak_states": report.peak_states,
        "branches": report.branches,
    })
}
