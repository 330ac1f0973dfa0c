//! The report of one simulation: text for people, versioned JSON (`"schema": 1`) for programs.
//!
//! Both are functions of the integer statistics only (never of timing or thread count), so the
//! same seed gives byte-identical reports with any number of threads.

use crate::run::{SimResult, Stop};
use crate::seeds::{run_seed, MIXING};
use crate::stats::{mean, Stats};
use crate::wilson::{wilson, Interval, Z95};
use fray_engine::AnyEncounter;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Version of the JSON report; bumped when a field changes meaning or goes away.
pub const SCHEMA: u32 = 1;

/// Most rows of the rounds histogram, in the text report and the SVG alike (wider ranges are
/// grouped).
pub const HISTOGRAM_ROWS: usize = 30;

/// The rounds histogram grouped into at most [`HISTOGRAM_ROWS`] groups of equal width:
/// `(first round, last round, fights)`. The text report and the SVG both draw these groups.
pub fn round_groups(s: &Stats) -> Vec<(usize, usize, u64)> {
    let (Some(low), Some(high)) = (
        s.rounds.iter().position(|&n| n > 0),
        s.rounds.iter().rposition(|&n| n > 0),
    ) else {
        return Vec::new();
    };
    let step = (high - low + 1).div_ceil(HISTOGRAM_ROWS).max(1);
    (low..=high)
        .step_by(step)
        .map(|start| {
            let end = (start + step - 1).min(high);
            (start, end, s.rounds[start..=end].iter().sum())
        })
        .collect()
}

/// The label of a group of rounds: `7`, or `10-14`.
pub fn round_label(start: usize, end: usize) -> String {
    if start == end {
        format!("{start}")
    } else {
        format!("{start}-{end}")
    }
}

/// "The party wins", "The orcs win": a side's name with the verb agreeing (a name ending in
/// a plural `s` takes "win").
pub fn side_wins(name: &str) -> String {
    let plural = name.ends_with('s') && !name.ends_with("ss");
    format!("{name} {}", if plural { "win" } else { "wins" })
}

/// A side's name inside a sentence: "The fighters" becomes "the fighters".
pub fn side_in_sentence(name: &str) -> String {
    match name.strip_prefix("The ") {
        Some(rest) => format!("the {rest}"),
        None => name.to_string(),
    }
}

/// What the report needs besides the figures.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The encounter file as named on the command line.
    pub file: &'a str,
    /// The encounter.
    pub encounter: &'a AnyEncounter,
    /// The base seed.
    pub seed: u64,
    /// Runs asked for (the cap with `--target-ci`).
    pub requested_runs: u64,
    /// `--max-rounds`, if given (the replay command repeats it).
    pub max_rounds_flag: Option<u32>,
    /// `--target-ci`, if given.
    pub target_ci: Option<f64>,
    /// Whether `fray fight FILE --seed` replays a run (false for a sweep's edited variants).
    pub replayable: bool,
}

fn shell_word(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:=,@".contains(c))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The command that replays the run with dice seed `seed`.
pub fn replay_command(file: &str, seed: u64, max_rounds: Option<u32>) -> String {
    let mut command = format!("fray fight {} --seed {seed}", shell_word(file));
    if let Some(r) = max_rounds {
        let _ = write!(command, " --max-rounds {r}");
    }
    command
}

fn interval_json(i: Interval) -> Value {
    json!([i.low, i.high])
}

fn percent(p: f64) -> String {
    format!("{:.2}%", 100.0 * p)
}

fn rate(count: u64, runs: u64) -> f64 {
    mean(count as f64, runs)
}

/// One notable run: its index and dice seed, or null.
fn first_json(ctx: &Context<'_>, run: Option<u64>) -> Value {
    match run {
        Some(run) => {
            let seed = run_seed(ctx.seed, run);
            let replay = ctx
                .replayable
                .then(|| replay_command(ctx.file, seed, ctx.max_rounds_flag));
            json!({"run": run, "seed": seed, "replay": replay})
        }
        None => Value::Null,
    }
}

/// The report as JSON (see docs/sim.md for the schema).
pub fn json(ctx: &Context<'_>, result: &SimResult) -> Value {
    let mut value = body_json(ctx, result);
    if let Value::Object(map) = &mut value {
        map.insert("schema".to_string(), json!(SCHEMA));
        map.insert("kind".to_string(), json!("sim"));
    }
    value
}

/// The report without `schema` and `kind` (a sweep nests one per variant).
pub fn body_json(ctx: &Context<'_>, result: &SimResult) -> Value {
    let s = &result.stats;
    let roster = ctx.encounter.roster();
    let runs = s.runs;
    let sides: Vec<Value> = s
        .sides
        .iter()
        .enumerate()
        .map(|(i, side)| {
            let info = &roster.sides[i];
            let members = side.standing.len().saturating_sub(1);
            json!({
                "id": info.key,
                "name": info.name,
                "members": members,
                "wins": side.wins,
                "win_rate": rate(side.wins, runs),
                "win_ci95": interval_json(wilson(side.wins, runs, Z95)),
                "wins_by_kill": side.wins - side.wins_by_rout,
                "win_by_kill_rate": rate(side.wins - side.wins_by_rout, runs),
                "wins_by_rout": side.wins_by_rout,
                "win_by_rout_rate": rate(side.wins_by_rout, runs),
                "standing_mean": mean(side.standing_sum as f64, runs),
                "standing_histogram": side.standing,
                "hp_left_mean": mean(side.hp_left_sum as f64, runs),
                "max_hp": if runs == 0 { 0 } else { side.max_hp_sum / runs as i64 },
                "first_win": first_json(ctx, side.first_win),
                "first_loss": first_json(ctx, side.first_loss),
            })
        })
        .collect();
    let combatants: Vec<Value> = s
        .combatants
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let info = &roster.combatants[i];
            json!({
                "id": info.key,
                "name": info.name,
                "side": roster.sides[info.side.index()].key,
                "dealt_mean": mean(c.dealt_sum as f64, runs),
                "taken_mean": mean(c.taken_sum as f64, runs),
                "hp_left_mean": mean(c.hp_left_sum as f64, runs),
                "down": c.down,
                "down_rate": rate(c.down, runs),
                "dead": c.dead,
                "dead_rate": rate(c.dead, runs),
                "fled": c.fled,
                "fled_rate": rate(c.fled, runs),
                "surrendered": c.surrendered,
                "surrendered_rate": rate(c.surrendered, runs),
                "captured": c.captured,
                "captured_rate": rate(c.captured, runs),
                "figures": c.figures,
                "figures_left_mean": mean(c.figures_left_sum as f64, runs),
            })
        })
        .collect();
    let histogram: Vec<Value> = s
        .rounds
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(r, &n)| json!([r, n]))
        .collect();
    json!({
        "file": ctx.file,
        "encounter": ctx.encounter.name(),
        "ruleset": ctx.encounter.ruleset().key(),
        "seed": ctx.seed,
        "seed_mixing": MIXING,
        "runs": runs,
        "requested_runs": ctx.requested_runs,
        "stopped": result.stop.key(),
        "interrupted": result.stop == Stop::Interrupted,
        "target_ci": ctx.target_ci,
        "max_rounds": result.round_limit,
        "sides": sides,
        "draws": {
            "round_limit": s.round_limit,
            "round_limit_rate": rate(s.round_limit, runs),
            "round_limit_ci95": interval_json(wilson(s.round_limit, runs, Z95)),
            "first_round_limit": first_json(ctx, s.first_round_limit),
            "none_standing": s.none_standing,
            "none_standing_rate": rate(s.none_standing, runs),
            "none_standing_ci95": interval_json(wilson(s.none_standing, runs, Z95)),
            "first_none_standing": first_json(ctx, s.first_none_standing),
        },
        "rounds": {
            "mean": s.rounds_mean(),
            "median": s.rounds_percentile(50),
            "p90": s.rounds_percentile(90),
            "max": s.rounds_max(),
            "histogram": histogram,
        },
        "combatants": combatants,
    })
}

/// The stop line of a report, if it stopped early.
pub fn stop_note(stop: Stop, runs: u64, requested: u64, target_ci: Option<f64>) -> Option<String> {
    match stop {
        Stop::Completed => None,
        Stop::Interrupted => Some(format!(
            "INTERRUPTED (Ctrl-C or SIGTERM) after {runs} of {requested} runs: the figures below are those so far"
        )),
        Stop::TargetCi => Some(format!(
            "stopped after {runs} runs: every side's 95% win-rate interval is narrower than {}",
            target_ci.unwrap_or(0.0)
        )),
    }
}

/// The outcome table of a report: each side's wins (split by kill and by rout once any fight
/// was won by rout), stalemates and fights with nobody left standing, each with its count,
/// rate and 95% Wilson interval.
pub fn outcome_table(out: &mut String, roster: &fray_core::Roster, s: &Stats) {
    let runs = s.runs;
    let width = roster
        .sides
        .iter()
        .map(|s| side_wins(&s.name).chars().count())
        .chain(["Stalemate (a limit reached)".len()])
        .max()
        .unwrap_or(27);
    let _ = writeln!(
        out,
        "{:<width$} {:>10} {:>8}   95% interval",
        "Outcome", "fights", "rate"
    );
    let mut outcome = |label: String, count: u64| {
        let i = wilson(count, runs, Z95);
        let _ = writeln!(
            out,
            "{label:<width$} {count:>10} {:>8}   {} – {}",
            percent(rate(count, runs)),
            percent(i.low),
            percent(i.high)
        );
    };
    // The split by kind is shown once any fight was won by rout (never in systems without
    // morale); the JSON always has it.
    let any_rout = s.sides.iter().any(|side| side.wins_by_rout > 0);
    for (i, side) in s.sides.iter().enumerate() {
        outcome(side_wins(&roster.sides[i].name), side.wins);
        if any_rout {
            outcome("  by kill".to_string(), side.wins - side.wins_by_rout);
            outcome("  by rout".to_string(), side.wins_by_rout);
        }
    }
    outcome("Stalemate (a limit reached)".to_string(), s.round_limit);
    outcome("Nobody left standing".to_string(), s.none_standing);
}

/// The report as text.
pub fn text(ctx: &Context<'_>, result: &SimResult) -> String {
    let s = &result.stats;
    let roster = ctx.encounter.roster();
    let runs = s.runs;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — {}",
        ctx.encounter.name(),
        ctx.encounter.ruleset().name()
    );
    // How run seeds derive from the base seed is in docs/sim.md (and the JSON), not here.
    let _ = writeln!(
        out,
        "{runs} runs, seed {}, round limit {}",
        ctx.seed, result.round_limit
    );
    if let Some(note) = stop_note(result.stop, runs, ctx.requested_runs, ctx.target_ci) {
        let _ = writeln!(out, "{note}");
    }
    out.push('\n');
    outcome_table(&mut out, roster, s);
    out.push('\n');
    let show = |r: Option<u32>| r.map_or("-".to_string(), |r| r.to_string());
    let _ = writeln!(
        out,
        "Rounds to finish: mean {:.2}, median {}, p90 {}, longest {}",
        s.rounds_mean(),
        show(s.rounds_percentile(50)),
        show(s.rounds_percentile(90)),
        show(s.rounds_max())
    );
    rounds_histogram(&mut out, s);

    out.push('\n');
    let _ = writeln!(
        out,
        "Survivors (members standing at the end, hit points left)"
    );
    for (i, side) in s.sides.iter().enumerate() {
        let members = side.standing.len().saturating_sub(1);
        let max_hp = if runs == 0 {
            0
        } else {
            side.max_hp_sum / runs as i64
        };
        let _ = writeln!(
            out,
            "  {}: {:.2} of {members} standing, {:.1} of {max_hp} hp left (means)",
            roster.sides[i].name,
            mean(side.standing_sum as f64, runs),
            mean(side.hp_left_sum as f64, runs)
        );
        let mut line = String::from("    standing");
        for (k, &n) in side.standing.iter().enumerate() {
            let _ = write!(line, "  {k}: {}", percent(rate(n, runs)));
        }
        let _ = writeln!(out, "{line}");
    }

    out.push('\n');
    let name_width = roster
        .combatants
        .iter()
        .map(|c| c.name.chars().count())
        .chain([9])
        .max()
        .unwrap_or(9);
    let side_width = roster
        .sides
        .iter()
        .map(|s| s.key.chars().count())
        .chain([4])
        .max()
        .unwrap_or(4);
    // Columns for routs and for units' figures appear only when some fight had them.
    let routs = s.combatants.iter().any(|c| c.routed() > 0);
    let units = s.combatants.iter().any(|c| c.figures > 1);
    let _ = writeln!(
        out,
        "Combatants (means per fight; how often {} at the end)",
        if routs {
            "down, dead, fled, surrendered or captured"
        } else {
            "down or dead"
        }
    );
    let mut header = format!(
        "  {:<name_width$} {:<side_width$} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "combatant", "side", "dealt", "taken", "hp left", "down", "dead"
    );
    if routs {
        let _ = write!(
            header,
            " {:>8} {:>11} {:>8}",
            "fled", "surrendered", "captured"
        );
    }
    if units {
        let _ = write!(header, " {:>12}", "figures left");
    }
    let _ = writeln!(out, "{header}");
    for (i, c) in s.combatants.iter().enumerate() {
        let info = &roster.combatants[i];
        let mut line = format!(
            "  {:<name_width$} {:<side_width$} {:>8.1} {:>8.1} {:>8.1} {:>8} {:>8}",
            info.name,
            roster.sides[info.side.index()].key,
            mean(c.dealt_sum as f64, runs),
            mean(c.taken_sum as f64, runs),
            mean(c.hp_left_sum as f64, runs),
            percent(rate(c.down, runs)),
            percent(rate(c.dead, runs))
        );
        if routs {
            let _ = write!(
                line,
                " {:>8} {:>11} {:>8}",
                percent(rate(c.fled, runs)),
                percent(rate(c.surrendered, runs)),
                percent(rate(c.captured, runs))
            );
        }
        if units {
            let figures = format!(
                "{:.1} of {}",
                mean(c.figures_left_sum as f64, runs),
                c.figures
            );
            let _ = write!(line, " {figures:>12}");
        }
        let _ = writeln!(out, "{line}");
    }

    out.push('\n');
    let _ = writeln!(
        out,
        "Replay a run with `fray fight FILE --seed <its seed>`:"
    );
    let mut first = |what: String, run: Option<u64>| {
        let line = match run {
            Some(run) => {
                let seed = run_seed(ctx.seed, run);
                format!(
                    "run {run}: {}",
                    replay_command(ctx.file, seed, ctx.max_rounds_flag)
                )
            }
            None => "none".to_string(),
        };
        let _ = writeln!(out, "  {what}: {line}");
    };
    for (i, side) in s.sides.iter().enumerate() {
        first(
            format!(
                "first fight {} lost or drew",
                side_in_sentence(&roster.sides[i].name)
            ),
            side.first_loss,
        );
    }
    first(
        "first stalemate (a limit reached)".to_string(),
        s.first_round_limit,
    );
    first(
        "first fight with nobody left standing".to_string(),
        s.first_none_standing,
    );
    out
}

fn rounds_histogram(out: &mut String, s: &Stats) {
    let bins = round_groups(s);
    let biggest = bins.iter().map(|b| b.2).max().unwrap_or(1).max(1);
    for (start, end, n) in bins {
        let label = round_label(start, end);
        let bar = "#".repeat(((n as f64 / biggest as f64) * 40.0).round() as usize);
        let _ = writeln!(out, "  {label:>9}  {:>7}  {bar}", percent(rate(n, s.runs)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Shape;
    use fray_core::{EndReason, FightEnd, SideId, Standing, Tally};
    use fray_engine::Library;

    const ENCOUNTER: &str = "schema = 1\nruleset = \"cnc\"\nname = \"Rout test\"\n\
        [[sides]]\nid = \"heroes\"\nname = \"The heroes\"\n\
        [[sides]]\nid = \"goblins\"\nname = \"The goblins\"\n\
        [[combatants]]\nid = \"hero\"\nname = \"Hero\"\nside = \"heroes\"\nat = [0, 0]\nmonster = \"orc\"\n\
        [[combatants]]\nid = \"gob\"\nname = \"Goblin band\"\nside = \"goblins\"\nat = [0, 3]\nmonster = \"orc\"\n";

    /// Reports of four fights: the heroes win twice by rout (a ten-figure goblin unit flees,
    /// then surrenders), once by kill, and the goblins once by kill.
    fn reports(routs: bool) -> (String, Value) {
        let library = Library::embedded().expect("content loads");
        let encounter = AnyEncounter::from_text("rout.toml", ENCOUNTER, &library).expect("loads");
        let mut stats = Stats::new(&Shape::new(encounter.roster(), 10));
        let hero = |standing| Tally::single(SideId(0), 5, 10, standing);
        let unit = |standing, left| Tally {
            figures: 10,
            figures_left: left,
            ..Tally::single(SideId(1), 4, 30, standing)
        };
        let end = |winner, reason| FightEnd {
            winner: Some(SideId(winner)),
            rounds: 3,
            reason,
            limit: None,
        };
        let (first, second) = if routs {
            (Standing::Fled, Standing::Surrendered)
        } else {
            (Standing::Dead, Standing::Dead)
        };
        let by = if routs {
            EndReason::Routed
        } else {
            EndReason::Defeated
        };
        let fights = [
            (end(0, by), [hero(Standing::Up), unit(first, 6)]),
            (end(0, by), [hero(Standing::Up), unit(second, 2)]),
            (
                end(0, EndReason::Defeated),
                [hero(Standing::Up), unit(Standing::Dead, 0)],
            ),
            (
                end(1, EndReason::Defeated),
                [hero(Standing::Dead), unit(Standing::Up, 4)],
            ),
        ];
        for (run, (end, tallies)) in fights.iter().enumerate() {
            stats.record(run as u64, end, tallies);
        }
        let result = SimResult {
            stats,
            stop: Stop::Completed,
            round_limit: 10,
        };
        let ctx = Context {
            file: "rout.toml",
            encounter: &encounter,
            seed: 1,
            requested_runs: 4,
            max_rounds_flag: None,
            target_ci: None,
            replayable: true,
        };
        (text(&ctx, &result), json(&ctx, &result))
    }

    #[test]
    fn wins_are_split_by_kill_and_by_rout() {
        let (text, json) = reports(true);
        let heroes = &json["sides"][0];
        assert_eq!(heroes["wins"], 3);
        assert_eq!(heroes["wins_by_kill"], 1);
        assert_eq!(heroes["wins_by_rout"], 2);
        assert_eq!(heroes["win_by_rout_rate"], 0.5);
        assert_eq!(json["sides"][1]["wins_by_kill"], 1);
        let unit = &json["combatants"][1];
        assert_eq!(unit["fled"], 1);
        assert_eq!(unit["fled_rate"], 0.25);
        assert_eq!(unit["surrendered"], 1);
        assert_eq!(unit["captured"], 0);
        assert_eq!(unit["figures"], 10);
        assert_eq!(unit["figures_left_mean"], 3.0);
        assert_eq!(json["combatants"][0]["figures"], 1);
        let line = |start: &str| {
            text.lines()
                .find(|l| l.trim_start().starts_with(start))
                .unwrap_or_else(|| panic!("no line {start:?} in\n{text}"))
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert!(line("The heroes win").starts_with("The heroes win 3 75.00%"));
        assert!(line("by kill").starts_with("by kill 1 25.00%"));
        assert!(line("by rout").starts_with("by rout 2 50.00%"));
        assert!(text.contains("down, dead, fled, surrendered or captured"));
        assert!(line("combatant").ends_with("fled surrendered captured figures left"));
        assert!(
            line("Goblin band").ends_with("25.00% 25.00% 0.00% 3.0 of 10"),
            "{text}"
        );
    }

    #[test]
    fn without_routs_or_units_the_text_has_no_extra_lines_or_columns() {
        let (text, json) = reports(false);
        assert!(!text.contains("by rout"), "{text}");
        assert!(!text.contains("fled"), "{text}");
        // The unit still has its figures column; the JSON always has every field.
        assert!(text.contains("figures left"), "{text}");
        assert_eq!(json["sides"][0]["wins_by_rout"], 0);
        assert_eq!(json["sides"][0]["wins_by_kill"], 3);
        assert_eq!(json["combatants"][1]["fled_rate"], 0.0);
    }
}
