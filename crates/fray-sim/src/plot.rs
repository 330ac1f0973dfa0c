//! `--plot FILE.svg`: an SVG picture of the win rates (with their 95% intervals), the rounds
//! histogram (grouped exactly like the text report's) and the survivors distribution, written
//! by hand (no plotting library needed).

use crate::report::{round_groups, round_label, side_wins};
use crate::stats::{mean, Stats};
use crate::wilson::{wilson, Z95};
use fray_core::Roster;
use std::fmt::Write as _;

const WIDTH: f64 = 900.0;
const PANEL: f64 = 340.0;
const MARGIN_LEFT: f64 = 70.0;
const MARGIN_RIGHT: f64 = 30.0;
/// Room above a chart's plot area for its title and, under the title, its legend (the legend
/// is never drawn inside the plot area, so it cannot hide a bar).
const MARGIN_TOP: f64 = 70.0;
const MARGIN_BOTTOM: f64 = 60.0;
/// Height of the win-rate panel's rows.
const WIN_ROW: f64 = 26.0;
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
    // Ticks at round percentages (1, 2, 2.5, 5, 10, 20, 25 or 50% apart), at most 6 of them.
    let step = tick_step(biggest);
    let ticks = ((biggest / step).ceil().max(1.0)) as u32;
    let y_max = step * f64::from(ticks);
    for tick in 0..=ticks {
        let value = step * f64::from(tick);
        let y = y0 - plot_h * value / y_max;
        let _ = writeln!(
            out,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="end">{}%</text>"##,
            left + plot_w,
            left - 6.0,
            y + 4.0,
            tick_text(value * 100.0)
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
        // The legend: one row between the title and the plot area, entries side by side.
        let mut x = left;
        let y = top + 50.0;
        for (s, (name, _)) in chart.series.iter().enumerate() {
            let _ = writeln!(
                out,
                r#"<rect x="{x:.1}" y="{:.1}" width="12" height="12" fill="{}"/><text x="{:.1}" y="{y:.1}" font-size="12">{}</text>"#,
                y - 10.0,
                COLOURS[s % COLOURS.len()],
                x + 18.0,
                escape(name)
            );
            x += 18.0 + 7.0 * name.chars().count() as f64 + 24.0;
        }
    }
}

/// A round step for an axis from 0 to `biggest` (a fraction): at most 6 ticks.
fn tick_step(biggest: f64) -> f64 {
    const STEPS: [f64; 9] = [0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0];
    STEPS
        .into_iter()
        .find(|&step| biggest <= 6.0 * step)
        .unwrap_or(1.0)
}

/// A tick's percentage without needless decimals: `5`, `2.5`.
fn tick_text(percent: f64) -> String {
    let text = format!("{percent:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

/// One outcome of the win-rate panel: its label, count and colour.
struct Outcome {
    label: String,
    count: u64,
    colour: &'static str,
}

/// The win-rate panel: one horizontal bar per outcome with its 95% Wilson interval as an
/// error bar and the figures written beside it. Returns the panel's height.
fn draw_outcomes(out: &mut String, outcomes: &[Outcome], runs: u64, top: f64) -> f64 {
    let label_w = 220.0;
    let left = MARGIN_LEFT + label_w;
    let plot_w = WIDTH - left - MARGIN_RIGHT - 170.0;
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="16" font-weight="bold" text-anchor="middle">Outcomes (bars: rate; whiskers: 95% interval)</text>"#,
        WIDTH / 2.0,
        top + 28.0
    );
    let plot_top = top + 44.0;
    let plot_h = WIN_ROW * outcomes.len() as f64;
    for tick in 0..=4 {
        let value = 0.25 * f64::from(tick);
        let x = left + plot_w * value;
        let _ = writeln!(
            out,
            r##"<line x1="{x:.1}" y1="{plot_top:.1}" x2="{x:.1}" y2="{:.1}" stroke="#ddd"/><text x="{x:.1}" y="{:.1}" font-size="11" text-anchor="middle">{}%</text>"##,
            plot_top + plot_h,
            plot_top + plot_h + 14.0,
            tick_text(value * 100.0)
        );
    }
    for (k, o) in outcomes.iter().enumerate() {
        let y = plot_top + WIN_ROW * k as f64;
        let rate = mean(o.count as f64, runs);
        let interval = wilson(o.count, runs, Z95);
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end">{}</text>"#,
            left - 8.0,
            y + WIN_ROW / 2.0 + 4.0,
            escape(&o.label)
        );
        let _ = writeln!(
            out,
            r#"<rect x="{left:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {:.2}%</title></rect>"#,
            y + 5.0,
            plot_w * rate,
            WIN_ROW - 10.0,
            o.colour,
            escape(&o.label),
            100.0 * rate
        );
        let (x1, x2, ym) = (
            left + plot_w * interval.low,
            left + plot_w * interval.high,
            y + WIN_ROW / 2.0,
        );
        let _ = writeln!(
            out,
            r#"<path d="M{x1:.1} {ym:.1} H{x2:.1} M{x1:.1} {:.1} V{:.1} M{x2:.1} {:.1} V{:.1}" stroke="black" fill="none"/>"#,
            ym - 5.0,
            ym + 5.0,
            ym - 5.0,
            ym + 5.0
        );
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-size="12">{:.2}% ({:.2}–{:.2}%)</text>"#,
            left + plot_w + 10.0,
            ym + 4.0,
            100.0 * rate,
            100.0 * interval.low,
            100.0 * interval.high
        );
    }
    let _ = writeln!(
        out,
        r#"<line x1="{left:.1}" y1="{plot_top:.1}" x2="{left:.1}" y2="{:.1}" stroke="black"/>"#,
        plot_top + plot_h
    );
    44.0 + plot_h + 30.0
}

/// The SVG document for a simulation's figures.
pub fn svg(stats: &Stats, roster: &Roster, title: &str) -> String {
    let runs = stats.runs;
    let frac = |n: u64| mean(n as f64, runs);
    let mut outcomes: Vec<Outcome> = stats
        .sides
        .iter()
        .enumerate()
        .map(|(i, side)| Outcome {
            label: side_wins(
                &roster
                    .sides
                    .get(i)
                    .map_or(format!("side {i}"), |s| s.name.clone()),
            ),
            count: side.wins,
            colour: COLOURS[i % COLOURS.len()],
        })
        .collect();
    outcomes.push(Outcome {
        label: "Stalemate (a limit reached)".to_string(),
        count: stats.round_limit,
        colour: "#999999",
    });
    outcomes.push(Outcome {
        label: "Nobody left standing".to_string(),
        count: stats.none_standing,
        colour: "#cccccc",
    });
    // Rounds: the same groups as the text report's histogram.
    let groups = round_groups(stats);
    let rounds = Chart {
        title: "Rounds to finish",
        x_title: "rounds",
        categories: groups.iter().map(|&(a, b, _)| round_label(a, b)).collect(),
        series: vec![(
            "fights".to_string(),
            groups.iter().map(|&(_, _, n)| frac(n)).collect(),
        )],
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
    let mut body = String::new();
    let outcomes_h = draw_outcomes(&mut body, &outcomes, runs, 30.0);
    draw(&mut body, &rounds, 30.0 + outcomes_h);
    draw(&mut body, &survivors, 30.0 + outcomes_h + PANEL);
    let height = 30.0 + outcomes_h + 2.0 * PANEL + 10.0;
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
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_numbers() {
        for (biggest, step) in [
            (0.03, 0.01),
            (0.11, 0.02),
            (0.14, 0.025),
            (0.29, 0.05),
            (0.96, 0.2),
        ] {
            assert_eq!(tick_step(biggest), step, "{biggest}");
        }
        assert_eq!(tick_text(2.5), "2.5");
        assert_eq!(tick_text(20.0), "20");
    }
}
