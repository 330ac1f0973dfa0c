//! Movement on the 5-ft grid: steps toward a square and away from foes, with ties broken the
//! same way for mirrored fights (by the world's north–south axis, never by handedness or file
//! order), and the straight line of a charge (OSR-R14.2).

use crate::state::State;
use fray_core::{CombatantId, Direction, Pos};

/// The free neighbouring square that brings `who` closest to `to` (ties: the nearer by
/// straight line, then the smaller north–south offset from `to`, then north), if any gets
/// closer.
pub fn step_toward(state: &State, who: CombatantId, to: Pos) -> Option<Pos> {
    let from = state.f(who).pos;
    let now = from.squares_to(to);
    let mut best: Option<((i32, i64, i32, i32), Pos)> = None;
    for dir in Direction::ALL {
        let next = from.step(dir);
        let d = next.squares_to(to);
        // The distance first: it is cheap, and most squares around do not get closer.
        if next == to || d >= now || !state.free(next, who) {
            continue;
        }
        let (dx, dy) = (i64::from(next.x - to.x), i64::from(next.y - to.y));
        let key = (d, dx * dx + dy * dy, (next.y - to.y).abs(), next.y - to.y);
        if best.is_none_or(|(b, _)| key < b) {
            best = Some((key, next));
        }
    }
    best.map(|(_, p)| p)
}

/// The free neighbouring square that takes `who` farthest from its nearest standing foe (ties:
/// the smaller north–south step, then north), if any takes it farther.
pub fn step_away(state: &State, who: CombatantId) -> Option<Pos> {
    let from = state.f(who).pos;
    let nearest = |at: Pos| {
        state
            .ids()
            .filter(|&o| state.foes(who, o) && state.f(o).is_up())
            .map(|o| state.f(o).pos.squares_to(at))
            .min()
            .unwrap_or(i32::MAX)
    };
    let now = nearest(from);
    let mut best: Option<((i32, i32, i32), Pos)> = None;
    for dir in Direction::ALL {
        let next = from.step(dir);
        if !state.free(next, who) {
            continue;
        }
        let d = nearest(next);
        if d <= now {
            continue;
        }
        let key = (-d, (next.y - from.y).abs(), next.y - from.y);
        if best.is_none_or(|(b, _)| key < b) {
            best = Some((key, next));
        }
    }
    best.map(|(_, p)| p)
}

/// The straight-line squares of a charge from `from` at `target`: every square up to the first
/// within 5 ft of it (OSR-R14.5, OSR-A36). Empty if already within 5 ft.
pub fn charge_line(from: Pos, target: Pos) -> Vec<Pos> {
    let mut out = Vec::new();
    if from.squares_to(target) <= 1 {
        return out;
    }
    for i in 1..=from.squares_to(target) {
        let p = from.point_on_line(target, i);
        out.push(p);
        if p.squares_to(target) <= 1 {
            break;
        }
    }
    out
}

/// Why a charge by `who` at `target` is not possible now, if it is not (OSR-R14.2, OSR-R13.4,
/// OSR-E15).
pub fn charge_problem(state: &State, who: CombatantId, target: CombatantId) -> Option<String> {
    let (f, p) = (state.f(who), state.p(who));
    if !state.options.charges {
        return Some("the GM allows no charges here (OSR-G2)".into());
    }
    if f.fatigued {
        return Some("fatigued: it may only walk (OSR-R13.2)".into());
    }
    let weapon_ok = p.melee.iter().any(|w| w.charge) || (p.monster && p.charges);
    if !weapon_ok {
        return Some("it has no weapon suitable for a charge (spear, lance, pole arm)".into());
    }
    let line = charge_line(f.pos, state.f(target).pos);
    let feet = line.len() as i32 * 5;
    if feet < 10 {
        return Some(format!("a {feet}-ft move; a charge needs at least 10 ft"));
    }
    if feet > 2 * p.movement {
        return Some(format!(
            "a {feet}-ft move; at most double its movement ({} ft)",
            2 * p.movement
        ));
    }
    if line.iter().any(|&sq| !state.free(sq, who)) {
        return Some("the straight path to the target is not clear".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charge_lines_end_within_five_feet() {
        // OSR-E15: 70 ft away (14 squares) is a 65-ft move; 15 ft away a 10-ft move.
        assert_eq!(charge_line(Pos::new(0, 0), Pos::new(14, 0)).len(), 13);
        assert_eq!(charge_line(Pos::new(0, 0), Pos::new(13, 0)).len(), 12);
        assert_eq!(charge_line(Pos::new(0, 0), Pos::new(3, 0)).len(), 2);
        assert_eq!(charge_line(Pos::new(0, 0), Pos::new(2, 0)).len(), 1);
        assert!(charge_line(Pos::new(0, 0), Pos::new(1, 1)).is_empty());
    }
}
