//! Squares and steps: which squares are free, a 5-ft step toward a target or away from foes, and
//! the 10-ft push of a desperate defender.

use crate::state::State;
use fray_core::{Board, CombatantId, Direction, Pos};

/// Is `pos` free of combatants still up (other than `except`)? Fallen combatants do not block.
pub fn free(state: &State, pos: Pos, except: CombatantId) -> bool {
    state.square_free(pos, except)
}

/// Which of the eight squares around `who` (in `Direction::ALL` order) are free: one pass over
/// the combatants instead of one per square.
fn free_neighbours(state: &State, who: CombatantId) -> [bool; 8] {
    let from = state.f(who).pos;
    let mut open = [true; 8];
    for (i, f) in state.fighters.iter().enumerate() {
        if i == who.index() || f.down || f.pos == from || from.squares_to(f.pos) != 1 {
            continue;
        }
        if let Some(k) = Direction::ALL.iter().position(|&d| from.step(d) == f.pos) {
            open[k] = false;
        }
    }
    open
}

/// The free neighbouring square that brings `who` closest to `to` (ties: the first direction
/// clockwise from north), if any gets closer.
pub fn step_toward(state: &State, who: CombatantId, to: Pos) -> Option<Pos> {
    let from = state.f(who).pos;
    let now = from.squares_to(to);
    let open = free_neighbours(state, who);
    let mut best: Option<(i32, i32, Pos)> = None;
    for (k, dir) in Direction::ALL.into_iter().enumerate() {
        let next = from.step(dir);
        if next == to || !open[k] {
            continue;
        }
        let d = next.squares_to(to);
        // Prefer the true (Euclidean) line as a tie-break so paths look straight.
        let dx = (next.x - to.x) as i64;
        let dy = (next.y - to.y) as i64;
        let e = (dx * dx + dy * dy).min(i32::MAX as i64) as i32;
        if d < now && best.is_none_or(|(bd, be, _)| (d, e) < (bd, be)) {
            best = Some((d, e, next));
        }
    }
    best.map(|(_, _, p)| p)
}

/// The free neighbouring square that takes `who` farthest from its nearest foe still up.
pub fn step_away(state: &State, who: CombatantId) -> Option<Pos> {
    let from = state.f(who).pos;
    let nearest = |p: Pos| {
        state
            .foes_up(who)
            .map(|o| state.f(o).pos.squares_to(p))
            .min()
            .unwrap_or(i32::MAX)
    };
    let now = nearest(from);
    let open = free_neighbours(state, who);
    let mut best: Option<(i32, Pos)> = None;
    for (k, dir) in Direction::ALL.into_iter().enumerate() {
        let next = from.step(dir);
        if !open[k] {
            continue;
        }
        let d = nearest(next);
        if d > now && best.is_none_or(|(bd, _)| d > bd) {
            best = Some((d, next));
        }
    }
    best.map(|(_, p)| p)
}

/// Where a push of up to 10 ft (two squares) in `dir` leaves `target` (it stops at an occupied
/// square). [Seed: Desperate Defense] SJ-R19
pub fn push_destination(state: &State, target: CombatantId, dir: Direction) -> Pos {
    let mut at = state.f(target).pos;
    for _ in 0..2 {
        let next = at.step(dir);
        if !free(state, next, target) {
            break;
        }
        at = next;
    }
    at
}

/// The foe of `who` still up nearest to it (ties: lowest id).
pub fn nearest_foe(state: &State, who: CombatantId) -> Option<CombatantId> {
    state.nearest_foe(who)
}
