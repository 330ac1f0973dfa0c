//! `fray odds FILE --attacker ID --target ID [--json]`: the exact distribution of one attack's
//! outcome from the encounter's starting state.

use super::{encounter_arg, output, CliError};
use fray_engine::odds::to_f64;
use std::fmt::Write as _;

/// Arguments of `fray odds`.
#[derive(Debug, clap::Args)]
pub struct OddsArgs {
    /// The encounter file (TOML).
    pub file: String,
    /// The attacking combatant's id (e.g. `fighter-1`).
    #[arg(long)]
    pub attacker: String,
    /// The target's id (e.g. `orc-3`).
    #[arg(long)]
    pub target: String,
    /// The attack form or weapon to use (e.g. `long sword`, `long bow`); the others are set aside.
    #[arg(long)]
    pub weapon: Option<String>,
    /// A situation to set first, repeatable: `flank`, `rear`, `cover=half`, `prone`… (each
    /// ruleset accepts its own: an unknown one is refused with the list; see the README).
    #[arg(long = "situation", value_name = "NAME[=VALUE]")]
    pub situations: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fray odds`.
pub fn run(args: OddsArgs) -> Result<(), CliError> {
    let encounter = encounter_arg::load(&args.file)?;
    let situation = fray_core::ruleset::Situation {
        weapon: args.weapon.clone(),
        options: args
            .situations
            .iter()
            .map(|s| match s.split_once('=') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => (s.trim().to_string(), String::new()),
            })
            .collect(),
    };
    let report = encounter
        .odds_in(&args.attacker, &args.target, &situation)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.file)))?;
    let roster = encounter.roster();
    let name = |key: &str| {
        roster
            .find(key)
            .map_or(key.to_string(), |id| roster.name(id).to_string())
    };
    let mut out = String::new();
    if args.json {
        let frac = |p: &num_rational::BigRational| p.to_string();
        let value = serde_json::json!({
            "schema": 1,
            "ruleset": encounter.ruleset().key(),
            "attacker": report.attacker,
            "target": report.target,
            "miss": to_f64(&report.miss),
            "hit": to_f64(&report.hit),
            "critical": report.critical.as_ref().map(to_f64),
            "grievous": report.grievous.as_ref().map(to_f64),
            "down": to_f64(&report.down),
            "damage": report.damage.iter().map(|(d, p)| serde_json::json!([d, to_f64(p)])).collect::<Vec<_>>(),
            "exact": {
                "miss": frac(&report.miss),
                "hit": frac(&report.hit),
                "critical": report.critical.as_ref().map(frac),
                "grievous": report.grievous.as_ref().map(frac),
                "down": frac(&report.down),
                "damage": report.damage.iter().map(|(d, p)| serde_json::json!([d, frac(p)])).collect::<Vec<_>>(),
            },
            "branches": report.branches,
            "assumptions": report.assumptions,
        });
        let _ = writeln!(out, "{value}");
    } else {
        let pct = |p: &num_rational::BigRational| format!("{:6.2}%  ({})", 100.0 * to_f64(p), p);
        let _ = writeln!(
            out,
            "{} attacks {} ({})",
            name(&report.attacker),
            name(&report.target),
            encounter.ruleset().name()
        );
        for line in &report.assumptions {
            let _ = writeln!(out, "  assumes   {line}");
        }
        let _ = writeln!(out, "  miss      {}", pct(&report.miss));
        let _ = writeln!(out, "  hit       {}", pct(&report.hit));
        if let Some(c) = &report.critical {
            let _ = writeln!(out, "  critical  {}", pct(c));
        }
        if let Some(g) = &report.grievous {
            let _ = writeln!(out, "  grievous  {}", pct(g));
        }
        let _ = writeln!(
            out,
            "  target at or below 0 hp afterwards  {}",
            pct(&report.down)
        );
        let _ = writeln!(out, "  damage to the target:");
        for (d, p) in &report.damage {
            let bar = "#".repeat((to_f64(p) * 50.0).round() as usize);
            let _ = writeln!(out, "    {d:>4}  {:6.2}%  {bar}", 100.0 * to_f64(p));
        }
    }
    output::print(&out)
}
