//! The progress bar (with ETA) on stderr, shown only when stderr is a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A progress bar, or nothing when stderr is not a terminal (pipes and tests stay clean).
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `total` runs, if stderr is a terminal.
    pub fn new(total: u64) -> Progress {
        Progress::with_terminal(total, std::io::stderr().is_terminal())
    }

    /// A bar over `total` runs when `terminal`, else a silent one.
    pub fn with_terminal(total: u64, terminal: bool) -> Progress {
        if !terminal {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(
            "{msg} [{bar:32}] {human_pos}/{human_len} runs, {rate}, ETA {eta_mean}",
        ) {
            let style = style
                .progress_chars("=> ")
                .with_key(
                    "rate",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{} runs/s", whole_rate(state.pos(), state.elapsed()));
                    },
                )
                .with_key(
                    "eta_mean",
                    |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let total = state.len().unwrap_or(0);
                        let _ = w.write_str(&eta_text(state.pos(), total, state.elapsed()));
                    },
                );
            bar.set_style(style);
        }
        Progress { bar: Some(bar) }
    }

    /// Sets the runs done so far.
    pub fn set(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }

    /// Sets the label (a sweep's variant).
    pub fn label(&self, text: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(text.to_string());
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Runs per second since the start, as a whole number (the runs arrive in chunks, so the
/// average since the start is steadier than a recent-window estimate).
pub fn whole_rate(done: u64, elapsed: Duration) -> u64 {
    let seconds = elapsed.as_secs_f64();
    if seconds <= 0.0 {
        0
    } else {
        (done as f64 / seconds).round() as u64
    }
}

/// The time left at the mean rate since the start: `--` before the first runs are done,
/// `1h 02m`, `3m 05s` or `12s` after, `> 99h` beyond.
pub fn eta_text(done: u64, total: u64, elapsed: Duration) -> String {
    if done == 0 || elapsed.is_zero() {
        return "--".to_string();
    }
    let left = total.saturating_sub(done) as f64 * elapsed.as_secs_f64() / done as f64;
    let secs = left.round() as u64;
    match secs {
        s if s >= 99 * 3600 => "> 99h".to_string(),
        s if s >= 3600 => format!("{}h {:02}m", s / 3600, (s % 3600) / 60),
        s if s >= 60 => format!("{}m {:02}s", s / 60, s % 60),
        s => format!("{s}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_is_whole_and_eta_is_readable() {
        assert_eq!(whole_rate(12_345, Duration::from_millis(1500)), 8230);
        assert_eq!(whole_rate(5, Duration::ZERO), 0);
        assert_eq!(eta_text(0, 100, Duration::from_secs(3)), "--");
        assert_eq!(eta_text(50, 100, Duration::from_secs(12)), "12s");
        assert_eq!(eta_text(10, 100, Duration::from_secs(20)), "3m 00s");
        assert_eq!(eta_text(1, 10_000, Duration::from_secs(3)), "8h 19m");
        assert_eq!(eta_text(1, 10_000_000, Duration::from_secs(60)), "> 99h");
        assert_eq!(eta_text(100, 100, Duration::from_secs(5)), "0s");
    }
}
