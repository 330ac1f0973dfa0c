//! `fray rulesets [--json]`: the rule systems fray knows and how much of each is built.

use super::{output, CliError};
use std::fmt::Write as _;

/// Arguments of `fray rulesets`.
#[derive(Debug, clap::Args)]
pub struct RulesetsArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fray rulesets`.
pub fn run(args: RulesetsArgs) -> Result<(), CliError> {
    let infos = fray_engine::rulesets();
    if args.json {
        let list: Vec<_> = infos
            .iter()
            .map(|i| {
                serde_json::json!({
                    "id": i.id.key(), "name": i.id.name(), "seed": i.id.seed_file(), "seed_title": seed_title(i.id),
                    "rules_implemented": i.implemented, "rules": i.rules,
                })
            })
            .collect();
        output::print(&format!(
            "{}\n",
            serde_json::json!({"schema": 1, "rulesets": list})
        ))
    } else {
        let mut out = format!("{:<12} {:<30} {:<34} rules\n", "id", "name", "seed");
        for i in &infos {
            let _ = writeln!(
                out,
                "{:<12} {:<30} {:<34} {}/{}",
                i.id.key(),
                i.id.name(),
                seed_title(i.id),
                i.implemented,
                i.rules
            );
        }
        output::print(&out)
    }
}

/// The title of the seed document a ruleset comes from (its first heading), as a reader knows it.
fn seed_title(id: fray_core::RulesetId) -> &'static str {
    use fray_core::RulesetId;
    match id {
        RulesetId::Cnc => "Castles & Crusades Combat Rules",
        RulesetId::Spelljammer => "Spelljammer: Combat",
        RulesetId::Osr => "17 Combat",
        RulesetId::Odd => "OD&D house rules: Combat",
        RulesetId::Celesia => "Combat in Legends of Celesia",
    }
}
