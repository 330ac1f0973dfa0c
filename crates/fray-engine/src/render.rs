//! Text rendering of a fight's event log, shared by `fray fight` and the golden tests.

use fray_core::{Event, Roster};
use std::fmt::Write as _;

/// The round-by-round text log: a heading per round, one indented line per event.
pub fn text_log(events: &[(u32, Event)], roster: &Roster) -> String {
    let mut out = String::new();
    let mut shown_round = None;
    for (round, event) in events {
        // Markers for front ends, not lines of the log.
        if let Event::RoundStarted
        | Event::SegmentsOver
        | Event::TurnStarted { .. }
        | Event::TurnEnded { .. } = event
        {
            continue;
        }
        if shown_round != Some(*round) {
            if !out.is_empty() {
                out.push('\n');
            }
            if *round == 0 {
                out.push_str("— Before the fight —\n");
            } else {
                let _ = writeln!(out, "— Round {round} —");
            }
            shown_round = Some(*round);
        }
        let _ = writeln!(out, "  {}", event.describe(roster));
    }
    out
}
