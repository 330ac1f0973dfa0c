//! The report of a sweep (`--vary`): one line per variant with each side's win rate and 95%
//! interval, mean rounds and draws; and its JSON (`"kind": "sweep"`), which nests each
//! variant's full report.

use crate::report::{body_json, Context, SCHEMA};
use crate::run::{SimResult, Stop};
use crate::seeds::MIXING;
use crate::wilson::{wilson, Z95};
use fray_engine::AnyEncounter;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// One variant's outcome.
#[derive(Debug, Clone)]
pub struct VariantResult {
    /// `orc.count=5`.
    pub label: String,
    /// The (key, value) settings.
    pub settings: Vec<(String, toml::Value)>,
    /// The edited encounter.
    pub encounter: AnyEncounter,
    /// Its simulation.
    pub result: SimResult,
}

/// What the whole sweep was asked to do.
#[derive(Debug, Clone, Copy)]
pub struct SweepContext<'a> {
    /// The file.
    pub file: &'a str,
    /// The `--vary` flags as given.
    pub vary: &'a [String],
    /// Base seed (the same for every variant: common random numbers make variants comparable).
    pub seed: u64,
    /// Runs per variant asked for.
    pub requested_runs: u64,
    /// `--max-rounds`, if given.
    pub max_rounds_flag: Option<u32>,
    /// `--target-ci`, if given.
    pub target_ci: Option<f64>,
    /// Variants planned (more than were played if interrupted).
    pub planned: usize,
}

fn interrupted(results: &[VariantResult], planned: usize) -> bool {
    results.len() < planned || results.iter().any(|v| v.result.stop == Stop::Interrupted)
}

fn context<'a>(ctx: &SweepContext<'a>, v: &'a VariantResult) -> Context<'a> {
    Context {
        file: ctx.file,
        encounter: &v.encounter,
        seed: ctx.seed,
        requested_runs: ctx.requested_runs,
        max_rounds_flag: ctx.max_rounds_flag,
        target_ci: ctx.target_ci,
        replayable: false,
    }
}

/// The sweep as JSON (see docs/sim.md).
pub fn json(ctx: &SweepContext<'_>, results: &[VariantResult]) -> Value {
    let variants: Vec<Value> = results
        .iter()
        .map(|v| {
            let mut body = body_json(&context(ctx, v), &v.result);
            if let Value::Object(map) = &mut body {
                let settings: serde_json::Map<String, Value> = v
                    .settings
                    .iter()
                    .map(|(k, value)| (k.clone(), toml_to_json(value)))
                    .collect();
                map.insert("variant".to_string(), json!(v.label));
                map.insert("settings".to_string(), Value::Object(settings));
            }
            body
        })
        .collect();
    json!({
        "schema": SCHEMA,
        "kind": "sweep",
        "file": ctx.file,
        "vary": ctx.vary,
        "seed": ctx.seed,
        "seed_mixing": MIXING,
        "requested_runs": ctx.requested_runs,
        "target_ci": ctx.target_ci,
        "variants_planned": ctx.planned,
        "interrupted": interrupted(results, ctx.planned),
        "variants": variants,
    })
}

fn toml_to_json(value: &toml::Value) -> Value {
    match value {
        toml::Value::String(s) => json!(s),
        toml::Value::Integer(i) => json!(i),
        toml::Value::Float(f) => json!(f),
        toml::Value::Boolean(b) => json!(b),
        other => json!(other.to_string()),
    }
}

/// The sweep as a text table.
pub fn text(ctx: &SweepContext<'_>, results: &[VariantResult]) -> String {
    let mut out = String::new();
    let title = results
        .first()
        .map_or(String::new(), |v| v.encounter.name().to_string());
    let _ = writeln!(out, "{title} — sweep of {}", ctx.file);
    let _ = writeln!(
        out,
        "{} variants, up to {} runs each, seed {} (the same run seeds in every variant)",
        ctx.planned, ctx.requested_runs, ctx.seed
    );
    if interrupted(results, ctx.planned) {
        let _ = writeln!(
            out,
            "INTERRUPTED (Ctrl-C or SIGTERM) after {} of {} variants: the figures below are those so far",
            results.len(),
            ctx.planned
        );
    }
    out.push('\n');
    let sides: Vec<String> = results
        .first()
        .map(|v| {
            v.encounter
                .roster()
                .sides
                .iter()
                .map(|s| format!("{} (95% CI)", crate::report::side_wins(&s.name)))
                .collect()
        })
        .unwrap_or_default();
    let cell = |wins: u64, runs: u64| {
        let i = wilson(wins, runs, Z95);
        let rate = if runs == 0 {
            0.0
        } else {
            wins as f64 / runs as f64
        };
        format!(
            "{:.1}% ({:.1}–{:.1})",
            100.0 * rate,
            100.0 * i.low,
            100.0 * i.high
        )
    };
    let label_width = results
        .iter()
        .map(|v| v.label.chars().count())
        .chain([7])
        .max()
        .unwrap_or(7);
    let side_width: Vec<usize> = sides.iter().map(|s| s.chars().count().max(20)).collect();
    let mut header = format!("{:<label_width$} {:>9}", "variant", "runs");
    for (s, w) in sides.iter().zip(&side_width) {
        let _ = write!(header, "  {s:>w$}");
    }
    let _ = write!(
        header,
        "  {:>11} {:>8} {:>8}",
        "mean rounds", "limit", "none"
    );
    let _ = writeln!(out, "{header}");
    for v in results {
        let s = &v.result.stats;
        let mut line = format!("{:<label_width$} {:>9}", v.label, s.runs);
        for (i, w) in side_width.iter().enumerate() {
            let wins = s.sides.get(i).map_or(0, |side| side.wins);
            let _ = write!(line, "  {:>w$}", cell(wins, s.runs));
        }
        let _ = write!(
            line,
            "  {:>11.2} {:>8} {:>8}",
            s.rounds_mean(),
            s.round_limit,
            s.none_standing
        );
        if v.result.stop == Stop::Interrupted {
            line.push_str("  (interrupted)");
        }
        let _ = writeln!(out, "{line}");
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "limit: stalemates (the round limit, or another limit, reached); none: fights with nobody left standing"
    );
    out
}
