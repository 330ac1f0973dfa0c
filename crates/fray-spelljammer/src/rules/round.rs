//! The round (spec §1): declarations, per-attack initiative, the segment count with movement
//! between segments 10 and 1, end of round.

use crate::state::State;
use crate::Spelljammer;
use fray_core::{Interrupt, Table};

/// Before round 1: the ambush and its surprise round.
pub fn begin(state: &mut State, table: &mut Table<'_, Spelljammer>) -> Result<(), Interrupt> {
    let _ = (state, table);
    Ok(())
}

/// One round.
pub fn play_round(state: &mut State, table: &mut Table<'_, Spelljammer>) -> Result<(), Interrupt> {
    let _ = (state, table);
    Ok(())
}
