//! `--plot FILE.svg`: an SVG picture of the rounds histogram and the survivors distribution,
//! written by hand (two bar charts; no plotting library needed).

use crate::stats::{mean, Stats};
use fray_core::Roster;
use std::fmt::Write as _;

const WIDTH: f64 = 900.0;
const PANEL: f64 = 340.0;
const MARGIN_LEFT: f64 = 70.0;
const MARGIN_RIGHT: f64 = 30.0;
const MARGIN_TOP: f64 = 50.0;
const MARGIN_BOTTOM: f64 = 60.0;
/// Most bars in the rounds chart (wider ranges are grouped).
const MAX_BARS: usize = 60;
const COLOURS: [&str; 6] = [
    "#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2",
];

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A grouped bar chart: one group per category, one bar per series in each group.
struct Chart<'a> {
    title: &'a str,
    x_title: &'a str,
    categories: Vec<String>,
    /// (series name, one value per category, as a fraction of fights).
    series: Vec<(String, Vec<f64>)>,
}

fn draw(out: &mut String, chart: &Chart<'_>, top: f64) {
    let left = MARGIN_LEFT;
    let plot_w = WIDTH - MARGIN_LEFT - MARGIN_RIGHT;
    let plot_h = PANEL - MARGIN_TOP - MARGIN_BOTTOM;
    let y0 = top + MARGIN_TOP + plot_h;
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="16" font-weight="bold" text-anchor="middle">{}</text>"#,
        WIDTH / 2.0,
        top + 28.0,
        escape(chart.title)
    );
    let biggest = chart
        .series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(0.0f64, f64::max);
    // Round the axis up to a multiple of 5%.
    let y_max = ((biggest * 20.0).ceil() / 20.0).clamp(0.05, 1.0);
    for tick in 0..=4 {
        let value = y_max * f64::from(tick) / 4.0;
        let y = y0 - plot_h * value / y_max;
        let _ = writeln!(
            out,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end">{:.1}%</text>"##,
            left + plot_w,
            left - 6.0,
            y + 4.0,
            value * 100.0
        );
    }
    let groups = chart.categories.len().max(1);
    let group_w = plot_w / groups as f64;
    let bars = chart.series.len().max(1);
    let bar_w = (group_w * 0.8 / bars as f64).max(0.5);
    let label_every = groups.div_ceil(20);
    for (g, category) in chart.categories.iter().enumerate() {
        let gx = left + group_w * g as f64 + group_w * 0.1;
        for (s, (name, values)) in chart.series.iter().enumerate() {
            let value = values.get(g).copied().unwrap_or(0.0);
            let h = plot_h * value / y_max;
            let _ = writeln!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="{bar_w:.1}" height="{h:.1}" fill="{}"><title>{}: {} {:.2}%</title></rect>"#,
                gx + bar_w * s as f64,
                y0 - h,
                COLOURS[s % COLOURS.len()],
                escape(name),
                escape(category),
                value * 100.0
            );
        }
        if g % label_every == 0 {
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}</text>"#,
                left + group_w * (g as f64 + 0.5),
                y0 + 16.0,
                escape(category)
            );
        }
    }
    let _ = writeln!(
        out,
        r#"<line x1="{left}" y1="{y0:.1}" x2="{:.1}" y2="{y0:.1}" stroke="black"/><line x1="{left}" y1="{:.1}" x2="{left}" y2="{y0:.1}" stroke="black"/>"#,
        left + plot_w,
        top + MARGIN_TOP
    );
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}</text><text x="18" y="{:.1}" font-size="12" text-anchor="middle" transform="rotate(-90 18 {:.1})">% of fights</text>"#,
        left + plot_w / 2.0,
        y0 + 38.0,
        escape(chart.x_title),
        top + MARGIN_TOP + plot_h / 2.0,
        top + MARGIN_TOP + plot_h / 2.0
    );
    if chart.series.len() > 1 {
        for (s, (name, _)) in chart.series.iter().enumerate() {
            let x = left + plot_w - 180.0;
            let y = top + MARGIN_TOP + 8.0 + 18.0 * s as f64;
            let _ = writeln!(
                out,
                r#"<rect x="{x:.1}" y="{:.1}" width="12" height="12" fill="{}"/><text x="{:.1}" y="{y:.1}" font-size="12">{}</text>"#,
                y - 10.0,
                COLOURS[s % COLOURS.len()],
                x + 18.0,
                escape(name)
            );
        }
    }
}

/// The SVG document for a simulation's figures.
pub fn svg(stats: &Stats, roster: &Roster, title: &str) -> String {
    let runs = stats.runs;
    let frac = |n: u64| mean(n as f64, runs);
    // Rounds: the range that has fights, grouped to at most MAX_BARS bars.
    let low = stats.rounds.iter().position(|&n| n > 0).unwrap_or(0);
    let high = stats.rounds.iter().rposition(|&n| n > 0).unwrap_or(0);
    let step = (high - low + 1).div_ceil(MAX_BARS).max(1);
    let mut categories = Vec::new();
    let mut values = Vec::new();
    for start in (low..=high).step_by(step) {
        let end = (start + step - 1).min(high);
        categories.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        values.push(frac(stats.rounds[start..=end].iter().sum()));
    }
    let rounds = Chart {
        title: "Rounds to finish",
        x_title: "rounds",
        categories,
        series: vec![("fights".to_string(), values)],
    };
    let most = stats
        .sides
        .iter()
        .map(|s| s.standing.len())
        .max()
        .unwrap_or(1);
    let survivors = Chart {
        title: "Survivors: members standing at the end",
        x_title: "members standing",
        categories: (0..most).map(|k| k.to_string()).collect(),
        series: stats
            .sides
            .iter()
            .enumerate()
            .map(|(i, side)| {
                let name = roster
                    .sides
                    .get(i)
                    .map_or(format!("side {i}"), |s| s.name.clone());
                (name, side.standing.iter().map(|&n| frac(n)).collect())
            })
            .collect(),
    };
    let height = 2.0 * PANEL + 40.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(
        out,
        r#"<rect width="100%" height="100%" fill="white"/><text x="{}" y="24" font-size="18" text-anchor="middle">{} ({runs} runs)</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    draw(&mut out, &rounds, 30.0);
    draw(&mut out, &survivors, 30.0 + PANEL);
    out.push_str("</svg>\n");
    out
}
