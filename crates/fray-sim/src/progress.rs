//! The progress bar (with ETA) on stderr, shown only when stderr is a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

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
            "{msg} [{bar:32}] {human_pos}/{human_len} runs, {per_sec}, ETA {eta}",
        ) {
            bar.set_style(style.progress_chars("=> "));
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
