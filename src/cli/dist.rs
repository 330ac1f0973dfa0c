//! `fray dist EXPR [--json]`: the exact probability distribution of a dice expression —
//! summary statistics and a table with a text bar chart (format in docs/dice.md).

use std::fmt::Write;

use super::{output, CliError};
use fray_dice::{parse, BigRational, Distribution};

/// Arguments of `fray dist`.
#[derive(Debug, clap::Args)]
pub struct DistArgs {
    /// The dice expression, e.g. `3d6` or `4d6kh3` (see docs/dice.md).
    #[arg(allow_hyphen_values = true)]
    pub expr: String,
    /// The rest of an unquoted expression: `fray roll 1d20 + 5` rolls `1d20 + 5`.
    #[arg(value_name = "MORE", allow_negative_numbers = true)]
    pub more: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Percentiles shown and reported.
const PERCENTILES: [u32; 5] = [5, 25, 50, 75, 95];

/// Rows whose probability is below this (as a fraction) are left out of the text table at
/// both ends (they would print as `<0.0001%`).
const TAIL: f64 = 5e-7;

/// Width of the longest bar.
const BAR: f64 = 40.0;

/// Runs `fray dist`.
pub fn run(args: DistArgs) -> Result<(), CliError> {
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
    let dist = expr
        .distribution()
        .map_err(|e| CliError::Input(format!("cannot compute the distribution of {expr}: {e}")))?;
    let text = if args.json {
        to_json(&expr.to_string(), &dist).to_string()
    } else {
        to_text(&expr.to_string(), &dist)
    };
    output::print(&format!("{text}\n"))
}

/// A fraction if it is short, else nothing.
fn short(r: &BigRational) -> Option<String> {
    let s = r.to_string();
    (s.len() <= 24).then_some(s)
}

fn percent(p: f64) -> String {
    if p > 0.0 && p < 5e-7 {
        "<0.0001%".into()
    } else {
        format!("{:.4}%", p * 100.0)
    }
}

fn to_text(expr: &str, d: &Distribution) -> String {
    let mut out = String::new();
    let mean = d.mean();
    let variance = d.variance();
    let _ = write!(
        out,
        "{expr}\nmin {}  max {}  mean {:.4}",
        d.min(),
        d.max(),
        d.mean_f64()
    );
    if let Some(m) = short(&mean).filter(|m| m.contains('/')) {
        let _ = write!(out, " (= {m})");
    }
    let _ = write!(
        out,
        "  sd {:.4}  variance {:.4}",
        d.std_dev(),
        d.variance_f64()
    );
    if let Some(v) = short(&variance).filter(|v| v.contains('/')) {
        let _ = write!(out, " (= {v})");
    }
    out.push_str("\npercentiles:");
    for p in PERCENTILES {
        let _ = write!(out, " {p}%: {}", d.percentile(p));
    }
    let truncated = d.truncated_f64();
    if truncated > 0.0 {
        let _ = write!(
            out,
            "\ntruncated by the depth limit: {truncated:.3e} (exact: {})",
            short(&d.truncated()).unwrap_or_else(|| "see --json".into())
        );
    }
    let pmf = d.pmf_f64();
    let cdf = d.cdf_f64();
    let pmax = pmf.iter().map(|p| p.1).fold(0.0, f64::max);
    let first = pmf.iter().position(|p| p.1 >= TAIL).unwrap_or(0);
    let last = pmf
        .iter()
        .rposition(|p| p.1 >= TAIL)
        .unwrap_or(pmf.len().saturating_sub(1));
    let width = pmf
        .iter()
        .map(|p| p.0.to_string().len())
        .max()
        .unwrap_or(1)
        .max(5);
    let _ = write!(
        out,
        "\n{:>width$}  {:>11}  {:>11}",
        "value", "probability", "P(<= value)"
    );
    if first > 0 {
        let below: f64 = pmf[..first].iter().map(|p| p.1).sum();
        let _ = write!(
            out,
            "\n{:>width$}  {:>11}  ({} values from {} to {}, each below 0.0001%)",
            "...",
            percent(below),
            first,
            pmf[0].0,
            pmf[first - 1].0
        );
    }
    for i in first..=last.min(pmf.len() - 1) {
        let (v, p) = pmf[i];
        let _ = write!(
            out,
            "\n{v:>width$}  {:>11}  {:>11}",
            percent(p),
            percent(cdf[i].1)
        );
        let bar = (p / pmax * BAR).round() as usize;
        if bar > 0 {
            let _ = write!(out, "  {}", "#".repeat(bar));
        }
    }
    if last + 1 < pmf.len() {
        let above: f64 = pmf[last + 1..].iter().map(|p| p.1).sum();
        let _ = write!(
            out,
            "\n{:>width$}  {:>11}  ({} values from {} to {}, each below 0.0001%)",
            "...",
            percent(above),
            pmf.len() - last - 1,
            pmf[last + 1].0,
            pmf[pmf.len() - 1].0
        );
    }
    out
}

fn to_json(expr: &str, d: &Distribution) -> serde_json::Value {
    let pmf: Vec<serde_json::Value> = d
        .pmf_f64()
        .into_iter()
        .map(|(v, p)| serde_json::json!([v, p]))
        .collect();
    let exact: Vec<serde_json::Value> = d
        .pmf()
        .into_iter()
        .map(|(v, p)| serde_json::json!([v, p.to_string()]))
        .collect();
    let percentiles: serde_json::Map<String, serde_json::Value> = PERCENTILES
        .iter()
        .map(|&p| (p.to_string(), d.percentile(p).into()))
        .collect();
    serde_json::json!({
        "schema": 1,
        "expr": expr,
        "min": d.min(),
        "max": d.max(),
        "mean": d.mean_f64(),
        "variance": d.variance_f64(),
        "sd": d.std_dev(),
        "mean_exact": d.mean().to_string(),
        "variance_exact": d.variance().to_string(),
        "percentiles": percentiles,
        "pmf": pmf,
        "exact": exact,
        "truncated": d.truncated().to_string(),
        "truncated_f64": d.truncated_f64(),
    })
}
