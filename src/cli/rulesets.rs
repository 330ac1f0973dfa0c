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
                    "rules_missing": missing(i.id),
                    "rules_partial": partial(i.id),
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
            let _ = write!(
                out,
                "{:<12} {:<30} {:<34} {}/{}",
                i.id.key(),
                i.id.name(),
                seed_title(i.id),
                i.implemented,
                i.rules
            );
            // A ruleset built in parts names the rules it does not implement yet.
            let missing = missing(i.id);
            if i.implemented > 0 && !missing.is_empty() {
                let _ = write!(out, " (not yet: {})", missing.join(", "));
            }
            let partial = partial(i.id);
            if !partial.is_empty() {
                let _ = write!(out, " (in part: {})", partial.join(", "));
            }
            out.push('\n');
        }
        output::print(&out)
    }
}

/// The spec's rule ids a built ruleset does not implement yet (none for one not built).
fn missing(id: fray_core::RulesetId) -> Vec<String> {
    fray_engine::rule_status(id).map_or_else(Vec::new, |status| {
        status
            .rules()
            .filter_map(|(rule, done)| (!done).then_some(rule))
            .collect()
    })
}

/// The spec's rule ids a built ruleset implements only in part (its doc says which parts).
fn partial(id: fray_core::RulesetId) -> Vec<String> {
    fray_engine::rule_status(id).map_or_else(Vec::new, |status| status.partial_rules())
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
