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
    /// Print every value of the text table (by default at most 200 rows: larger tables group
    /// neighbouring values).
    #[arg(long)]
    pub full: bool,
}

/// Most rows of the text table without `--full` (docs/limits.md, "dist rows printed").
pub const MAX_ROWS: usize = 200;

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
        to_json(&expr.to_string(), &dist)
    } else {
        to_text(&expr.to_string(), &dist, args.full)
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

fn to_text(expr: &str, d: &Distribution, full: bool) -> String {
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
    let first = pmf.iter().position(|p| p.1 >= TAIL).unwrap_or(0);
    let last = pmf
        .iter()
        .rposition(|p| p.1 >= TAIL)
        .unwrap_or(pmf.len().saturating_sub(1));
    let shown = &pmf[first..=last.min(pmf.len() - 1)];
    // Rows of `group` neighbouring values each, so that at most MAX_ROWS rows are printed.
    let group = if full {
        1
    } else {
        shown.len().div_ceil(MAX_ROWS).max(1)
    };
    let rows: Vec<(String, f64, f64)> = shown
        .chunks(group)
        .enumerate()
        .map(|(k, chunk)| {
            let (lo, hi) = (chunk[0].0, chunk[chunk.len() - 1].0);
            let label = if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}..{hi}")
            };
            let p: f64 = chunk.iter().map(|e| e.1).sum();
            (label, p, cdf[first + k * group + chunk.len() - 1].1)
        })
        .collect();
    let pmax = rows.iter().map(|r| r.1).fold(0.0, f64::max);
    let width = rows
        .iter()
        .map(|r| r.0.len())
        .chain(pmf.iter().map(|p| p.0.to_string().len()))
        .max()
        .unwrap_or(1)
        .max(5);
    if group > 1 {
        let _ = write!(
            out,
            "\n({} values grouped {group} to a row to fit {MAX_ROWS} rows; --full prints every value)",
            shown.len()
        );
    }
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
    for (label, p, at_most) in &rows {
        let _ = write!(
            out,
            "\n{label:>width$}  {:>11}  {:>11}",
            percent(*p),
            percent(*at_most)
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

/// The JSON report, written straight into one string (no JSON tree of a million values).
fn to_json(expr: &str, d: &Distribution) -> String {
    let percentiles: serde_json::Map<String, serde_json::Value> = PERCENTILES
        .iter()
        .map(|&p| (p.to_string(), d.percentile(p).into()))
        .collect();
    let head = serde_json::json!({
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
        "truncated": d.truncated().to_string(),
        "truncated_f64": d.truncated_f64(),
    })
    .to_string();
    // `head` is an object: reopen it to append the two long arrays.
    let mut out = head[..head.len() - 1].to_string();
    out.push_str(",\"pmf\":[");
    for (i, (v, p)) in d.pmf_f64().into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "[{v},{}]", serde_json::Value::from(p));
    }
    out.push_str("],\"exact\":[");
    for (i, (v, p)) in d.pmf().into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "[{v},\"{p}\"]");
    }
    out.push_str("]}");
    out
}
