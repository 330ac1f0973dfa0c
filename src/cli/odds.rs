//! `fray odds FILE --attacker ID --target ID [--json]`: the exact distribution of one attack's
//! outcome from the encounter's starting state (its text report is also what `odds` prints in
//! `fray run`, from the state at the pause); `--routine` the attacker's whole action;
//! `--round` the fight after its first round and `--fight` each side's chance to win
//! (`odds_fight.rs`). See docs/odds.md.

use super::{encounter_arg, output, CliError};
use fray_engine::odds::to_f64;
use fray_engine::OddsReport;
use num_rational::BigRational;
use std::fmt::Write as _;

/// Arguments of `fray odds`.
#[derive(Debug, clap::Args)]
pub struct OddsArgs {
    /// The encounter file (TOML).
    pub file: String,
    /// The attacking combatant's id (e.g. `fighter-1`).
    #[arg(long, required_unless_present_any = ["round", "fight"])]
    pub attacker: Option<String>,
    /// The target's id (e.g. `orc-3`).
    #[arg(long, required_unless_present_any = ["round", "fight"])]
    pub target: Option<String>,
    /// The attacker's whole action: every blow of its routine (a multi-attack monster's claws
    /// and bite), with the distribution of the total damage.
    #[arg(long, conflicts_with_all = ["round", "fight"])]
    pub routine: bool,
    /// The exact distribution of the fight after its first round (each combatant's hit points
    /// and standing), the default tactics choosing.
    #[arg(long, conflicts_with_all = ["fight", "attacker", "target"])]
    pub round: bool,
    /// The exact chance that each side wins the whole fight (and of a stalemate at the round
    /// limit), the default tactics choosing. For small fights: past --max-states it is refused.
    #[arg(long, conflicts_with_all = ["attacker", "target"])]
    pub fight: bool,
    /// Most distinct states held at once (between blows, or at a round's end).
    #[arg(long, value_name = "N", default_value_t = fray_core::distinct::MAX_STATES as u64,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_states: u64,
    /// Most units of work for --fight (a branch played, an answer count's outcome carried):
    /// the budget its refusals are weighed against, at most the default.
    #[arg(long, value_name = "N", requires = "fight",
          default_value_t = fray_core::fight_odds::MAX_FIGHT_BRANCHES as u64,
          value_parser = clap::value_parser!(u64).range(1..=fray_core::fight_odds::MAX_FIGHT_BRANCHES as u64))]
    pub max_work: u64,
    /// Round limit for --fight; a fight that reaches it is a stalemate [default: the file's, else 100].
    #[arg(long, value_name = "R", requires = "fight")]
    pub max_rounds: Option<u32>,
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
    if args.round || args.fight || args.routine {
        return super::odds_fight::run(&encounter, &args);
    }
    let situation = situation(args.weapon.clone(), &args.situations);
    let (attacker, target) = (
        args.attacker.as_deref().unwrap_or_default(),
        args.target.as_deref().unwrap_or_default(),
    );
    let report = encounter
        .odds_in(attacker, target, &situation)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.file)))?;
    let out = if args.json {
        format!("{}\n", report_json(encounter.ruleset().key(), &report))
    } else {
        titled_text(&encounter, &report)
    };
    output::print(&out)
}

/// The situation `--weapon` and the `--situation NAME[=VALUE]` flags set.
pub(super) fn situation(
    weapon: Option<String>,
    situations: &[String],
) -> fray_core::ruleset::Situation {
    fray_core::ruleset::Situation {
        weapon,
        options: situations
            .iter()
            .map(|s| match s.split_once('=') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => (s.trim().to_string(), String::new()),
            })
            .collect(),
    }
}

/// The odds as text under the title "Una attacks Orc 2 (Castles & Crusades)": what `fray odds`
/// prints, and `odds` in `fray run`.
pub(super) fn titled_text(encounter: &fray_engine::AnyEncounter, report: &OddsReport) -> String {
    let roster = encounter.roster();
    let name = |key: &str| {
        roster
            .find(key)
            .map_or(key.to_string(), |id| roster.name(id).to_string())
    };
    let title = format!(
        "{} attacks {} ({})",
        name(&report.attacker),
        name(&report.target),
        encounter.ruleset().name()
    );
    report_text(&title, report)
}

/// The odds as JSON: probabilities as numbers, and exactly (as fractions) under `exact`.
/// `critical`, `grievous` and `fumble` are null where the system has no such result.
fn report_json(ruleset: &str, report: &OddsReport) -> serde_json::Value {
    let frac = |p: &BigRational| p.to_string();
    serde_json::json!({
        "schema": 1,
        "ruleset": ruleset,
        "attacker": report.attacker,
        "target": report.target,
        "miss": to_f64(&report.miss),
        "hit": to_f64(&report.hit),
        "critical": report.critical.as_ref().map(to_f64),
        "grievous": report.grievous.as_ref().map(to_f64),
        "fumble": report.fumble.as_ref().map(to_f64),
        "down": to_f64(&report.down),
        "damage": report.damage.iter().map(|(d, p)| serde_json::json!([d, to_f64(p)])).collect::<Vec<_>>(),
        "exact": {
            "miss": frac(&report.miss),
            "hit": frac(&report.hit),
            "critical": report.critical.as_ref().map(frac),
            "grievous": report.grievous.as_ref().map(frac),
            "fumble": report.fumble.as_ref().map(frac),
            "down": frac(&report.down),
            "damage": report.damage.iter().map(|(d, p)| serde_json::json!([d, frac(p)])).collect::<Vec<_>>(),
        },
        "branches": report.branches,
        "assumptions": report.assumptions,
    })
}

/// The odds as text under `title`: one line per result the system has (critical, grievous and
/// fumble only where it has them), then the damage distribution.
fn report_text(title: &str, report: &OddsReport) -> String {
    let mut out = String::new();
    let pct = |p: &BigRational| format!("{:6.2}%  ({})", 100.0 * to_f64(p), p);
    let _ = writeln!(out, "{title}");
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
    if let Some(f) = &report.fumble {
        let _ = writeln!(out, "  fumble    {}", pct(f));
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
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(fumble: Option<BigRational>) -> OddsReport {
        let p = |n: i64| BigRational::new(n.into(), 20.into());
        OddsReport {
            attacker: "hero".into(),
            target: "gob".into(),
            miss: p(10),
            hit: p(10),
            critical: Some(p(1)),
            grievous: None,
            fumble,
            damage: vec![(0, p(10)), (6, p(10))],
            down: p(10),
            branches: 20,
            assumptions: Vec::new(),
        }
    }

    #[test]
    fn a_system_with_fumbles_shows_their_probability() {
        let with = report(Some(BigRational::new(1.into(), 20.into())));
        let text = report_text("hero attacks gob", &with);
        assert!(text.contains("  fumble      5.00%  (1/20)\n"), "{text}");
        let json = report_json("osr", &with);
        assert_eq!(json["fumble"], 0.05);
        assert_eq!(json["exact"]["fumble"], "1/20");
    }

    #[test]
    fn a_system_without_fumbles_shows_no_fumble_line() {
        let without = report(None);
        let text = report_text("hero attacks gob", &without);
        assert!(!text.contains("fumble"), "{text}");
        assert!(text.contains("  critical    5.00%  (1/20)\n"), "{text}");
        let json = report_json("cnc", &without);
        assert!(json["fumble"].is_null());
        assert!(json["exact"]["fumble"].is_null());
    }
}
