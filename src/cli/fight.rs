//! `fray fight FILE [--seed N] [--dice LIST] [--strict] [--json] [--view gm|side:ID]`: resolves
//! an encounter (its `[script]`, the default tactics for what no script answers) and prints a
//! round-by-round log (or JSON Lines events). Output is written only once the whole fight has
//! resolved, so an error leaves nothing half-printed.

use super::{encounter_arg, output, CliError};
use fray_core::audience::Viewer;
use fray_engine::FightOptions;
use std::fmt::Write as _;

/// Arguments of `fray fight`.
#[derive(Debug, clap::Args)]
pub struct FightArgs {
    /// The encounter file (TOML).
    pub file: String,
    /// Seed for the dice and use the default tactics (ignores the file's `[script]`); the same
    /// file and seed give the same fight. Without it: the file's script if any (the default
    /// tactics answer what it does not, with a warning), else a random seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Die faces to use in order, e.g. `7,3,12,5` (overrides the file's script and the seed).
    #[arg(long, value_delimiter = ',')]
    pub dice: Option<Vec<u32>>,
    /// Round limit (default: the file's `max_rounds`, else 100).
    #[arg(long)]
    pub max_rounds: Option<u32>,
    /// JSON Lines events instead of text.
    #[arg(long)]
    pub json: bool,
    /// Every request must be answered by the script (the file's `[script]` or `--dice`): the
    /// first die or choice it does not answer is an error naming that request.
    #[arg(long, conflicts_with = "seed")]
    pub strict: bool,
    /// Whose view of the fight to print: `gm` (everything, the default) or `side:ID` (what that
    /// side's players may see: no foe's hit points or armour class, no GM rolls or rulings).
    #[arg(long, default_value = "gm")]
    pub view: String,
}

/// A seed from the clock, for when none is given.
pub fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| {
            d.as_nanos() as u64 ^ (u64::from(std::process::id()) << 32)
        })
}

/// Runs `fray fight`.
pub fn run(args: FightArgs) -> Result<(), CliError> {
    let encounter = encounter_arg::load(&args.file)?;
    let seed = args.seed.unwrap_or_else(fresh_seed);
    if let Some(r) = args.max_rounds {
        if r == 0 || r > fray_core::Limits::MAX_ROUNDS_CEILING {
            return Err(CliError::Input(format!(
                "--max-rounds must be between 1 and {}",
                fray_core::Limits::MAX_ROUNDS_CEILING
            )));
        }
    }
    let options = FightOptions {
        seed,
        // An explicit seed means "this seeded fight" (exactly `fray sim`'s run with that seed):
        // the file's script is then not used.
        script: args.seed.is_none(),
        dice: args.dice.clone(),
        max_rounds: args.max_rounds,
        strict: args.strict,
    };
    if args.seed.is_some() && encounter.has_script() {
        output::warn(&format!(
            "warning: {}: --seed plays the seeded fight with the default tactics; the file's \
             [script] (dice and choices) is ignored",
            args.file
        ));
    }
    let record = encounter
        .fight(&options, true)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.file)))?;
    let roster = encounter.roster();
    let viewer =
        Viewer::parse(&args.view, roster).map_err(|e| CliError::Input(format!("--view: {e}")))?;
    let mut out = String::new();
    if args.json {
        let header = serde_json::json!({
            "schema": fray_core::event::EVENT_SCHEMA,
            "type": "start",
            "round": 0,
            "encounter": encounter.name(),
            "ruleset": encounter.ruleset().key(),
            "seed": record.seeded.then_some(seed),
            "view": args.view,
            "combatants": roster.combatants.iter().map(|c| serde_json::json!({
                "id": c.key, "name": c.name, "side": roster.sides[c.side.index()].key,
                "group": c.group, "controller": c.controller,
            })).collect::<Vec<_>>(),
        });
        let _ = writeln!(out, "{header}");
        for line in fray_core::audience::view_json_lines(viewer, &record.events, roster) {
            let _ = writeln!(out, "{line}");
        }
    } else {
        let _ = writeln!(out, "{} — {}", encounter.name(), encounter.ruleset().name());
        if record.seeded && options.script && encounter.has_script() {
            // `--seed` would drop the script's choices: no replay command to offer.
            let _ = writeln!(
                out,
                "seed {seed} (fray's dice: the [script] gives choices, no dice; `--seed {seed}` \
                 would play the default tactics instead)"
            );
        } else if record.seeded {
            let _ = writeln!(out, "seed {seed} (replay with --seed {seed})");
        }
        out.push('\n');
        out.push_str(&fray_engine::render::text_log_for(
            viewer,
            &record.events,
            roster,
        ));
    }
    output::print(&out)?;
    if record.unused_dice > 0 {
        output::warn(&format!(
            "warning: {}: {} scripted die result(s) were never used (the fight ended first)",
            args.file, record.unused_dice
        ));
    }
    // Issue 17: a script that does not answer every request is followed as far as it goes; the
    // default tactics choose the rest, and say so (`--strict` makes it an error instead).
    if let (true, None, (n @ 1.., Some((chooser, question, rule)))) =
        (encounter.has_script(), args.seed, record.by_tactics)
    {
        let who = match chooser {
            fray_core::protocol::Chooser::Gm => "the GM".to_string(),
            fray_core::protocol::Chooser::Combatant(id) => roster.name(id).to_string(),
        };
        output::warn(&format!(
            "warning: {}: the [script] does not answer every request: the default tactics \
             answered {n} request(s), the first {who}'s {} ({rule}); `--strict` makes an \
             unanswered request an error",
            args.file,
            super::run::word(&question)
        ));
    }
    if !record.unused_choices.is_empty() {
        output::warn(&format!(
            "warning: {}: {} scripted choice(s) were never asked for (a line answers its \
             combatant's next request of its kind): {}",
            args.file,
            record.unused_choices.len(),
            record.unused_choices.join("; ")
        ));
    }
    Ok(())
}
