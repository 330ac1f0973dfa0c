//! Text rendering of a fight's event log, shared by `fray fight` and the golden tests.

use fray_core::audience::{view_text, Viewer};
use fray_core::{Event, Roster};
use std::fmt::Write as _;

/// The round-by-round text log: a heading per round, one indented line per event.
pub fn text_log(events: &[(u32, Event)], roster: &Roster) -> String {
    text_log_for(Viewer::Gm, events, roster)
}

/// The text log as `viewer` may see it (see `fray_core::audience`): events not for them are
/// left out, private fields of other sides' combatants are not shown.
pub fn text_log_for(viewer: Viewer, events: &[(u32, Event)], roster: &Roster) -> String {
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
        let Some(line) = view_text(viewer, event, roster) else {
            continue;
        };
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
        let _ = writeln!(out, "  {line}");
    }
    out
}
