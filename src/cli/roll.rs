//! `fray roll EXPR [--seed N] [--dice 6,5,3,1] [--json]`: roll a dice expression and show
//! every die (format in docs/dice.md).

use super::{output, CliError};
use fray_dice::{parse, Roll, ScriptedDice, SeededDice};

/// Arguments of `fray roll`.
#[derive(Debug, clap::Args)]
pub struct RollArgs {
    /// The dice expression, e.g. `4d6kh3` or `2d20kh1+7` (see docs/dice.md).
    #[arg(allow_hyphen_values = true)]
    pub expr: String,
    /// The rest of an unquoted expression: `fray roll 1d20 + 5` rolls `1d20 + 5`.
    #[arg(value_name = "MORE", allow_negative_numbers = true)]
    pub more: Vec<String>,
    /// Seed of the pseudo-random dice, for a reproducible roll (default: from the clock and
    /// the OS's randomness).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub seed: Option<String>,
    /// Use these faces in order instead of random dice, e.g. `--dice 6,5,3,1`.
    #[arg(long, value_name = "FACES", allow_hyphen_values = true)]
    pub dice: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Where the faces came from.
enum Source {
    Seeded(u64),
    Scripted(Vec<u32>),
}

/// Runs `fray roll`.
pub fn run(args: RollArgs) -> Result<(), CliError> {
    let text = std::iter::once(&args.expr)
        .chain(&args.more)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" ");
    let expr = parse(&text).map_err(|e| {
        CliError::Input(if args.json {
            e.to_string()
        } else {
            e.render(&text)
        })
    })?;
    let source = match (&args.seed, &args.dice) {
        (Some(_), Some(_)) => {
            return Err(CliError::Input(
                "--seed and --dice cannot be used together".into(),
            ))
        }
        (Some(s), None) => Source::Seeded(parse_seed(s)?),
        (None, Some(d)) => Source::Scripted(parse_faces(d)?),
        (None, None) => Source::Seeded(fresh_seed()),
    };
    let failed = |e: fray_dice::RollError| CliError::Input(format!("cannot roll {expr}: {e}"));
    let (roll, unused) = match &source {
        Source::Seeded(seed) => (
            expr.roll(&mut SeededDice::new(*seed)).map_err(failed)?,
            vec![],
        ),
        Source::Scripted(faces) => {
            let mut dice = ScriptedDice::new(faces.clone());
            let roll = expr.roll(&mut dice).map_err(failed)?;
            (roll, dice.remaining().to_vec())
        }
    };
    if args.json {
        output::print(&format!("{}\n", to_json(&roll, &source, &unused)))
    } else if let (Source::Seeded(seed), None) = (&source, &args.seed) {
        output::print(&format!(
            "{roll}\nseed {seed} (replay with --seed {seed})\n"
        ))
    } else {
        output::print(&format!("{roll}\n"))
    }
}

fn parse_seed(s: &str) -> Result<u64, CliError> {
    s.trim().parse().map_err(|_| {
        CliError::Input(format!(
            "invalid --seed '{s}': expected a whole number from 0 to {}",
            u64::MAX
        ))
    })
}

fn parse_faces(s: &str) -> Result<Vec<u32>, CliError> {
    s.split(',')
        .map(|f| {
            f.trim()
                .parse::<u32>()
                .ok()
                .filter(|&v| v >= 1)
                .ok_or_else(|| {
                    CliError::Input(format!(
                        "invalid --dice '{s}': expected faces such as 6,5,3,1 (whole numbers \
                         from 1), found '{}'",
                        f.trim()
                    ))
                })
        })
        .collect()
}

/// A seed from the clock mixed with the per-process randomness of the standard library.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(nanos);
    h.write_u32(std::process::id());
    h.finish()
}

fn to_json(roll: &Roll, source: &Source, unused: &[u32]) -> serde_json::Value {
    let mut v = serde_json::json!({
        "schema": 1,
        "expr": roll.expr,
        "total": roll.total,
        "breakdown": roll.breakdown,
        "text": roll.to_string(),
        "dice": roll.dice,
    });
    match source {
        Source::Seeded(seed) => {
            v["source"] = "seeded".into();
            v["seed"] = (*seed).into();
        }
        Source::Scripted(_) => {
            v["source"] = "scripted".into();
            v["unused"] = unused.into();
        }
    }
    v
}
