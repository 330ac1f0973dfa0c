//! `fray rulesets [--json]`: the rule systems fray knows and how much of each is built.

use super::CliError;

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
                    "id": i.id.key(), "name": i.id.name(), "seed": i.id.seed_file(),
                    "rules_implemented": i.implemented, "rules": i.rules,
                })
            })
            .collect();
        println!("{}", serde_json::json!({"schema": 1, "rulesets": list}));
    } else {
        println!("{:<12} {:<30} {:<26} rules", "id", "name", "seed");
        for i in &infos {
            println!(
                "{:<12} {:<30} {:<26} {}/{}",
                i.id.key(),
                i.id.name(),
                i.id.seed_file(),
                i.implemented,
                i.rules
            );
        }
    }
    Ok(())
}
