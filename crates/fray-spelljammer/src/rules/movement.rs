//! Squares and steps: which squares are free, a 5-ft step toward a target or away from foes, and
//! the 10-ft push of a desperate defender.

use crate::state::State;
use fray_core::{Board, CombatantId, Direction, Pos};

/// Is `pos` free of combatants still up (other than `except`)? Fallen combatants do not block.
pub fn free(state: &State, pos: Pos, except: CombatantId) -> bool {
    state.square_free(pos, except)
}

/// The free neighbouring square that brings `who` closest to `to`, if any gets closer
/// (`Board::step_toward`).
pub fn step_toward(state: &State, who: CombatantId, to: Pos) -> Option<Pos> {
    state.step_toward(who, to)
}

/// The free neighbouring square that takes `who` farthest from its nearest foe still up
/// (`Board::step_away`).
pub fn step_away(state: &State, who: CombatantId) -> Option<Pos> {
    state.step_away(who)
}

/// Where a push of up to 10 ft (two squares) in `dir` leaves `target` (it stops at an occupied
/// square). [Seed: Desperate Defense] SJ-R19
pub fn push_destination(state: &State, target: CombatantId, dir: Direction) -> Pos {
    state.push_destination(target, dir, 2)
}

/// The foe of `who` still up nearest to it (ties: lowest id).
pub fn nearest_foe(state: &State, who: CombatantId) -> Option<CombatantId> {
    state.nearest_foe(who)
}
