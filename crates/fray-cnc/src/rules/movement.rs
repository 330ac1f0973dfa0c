//! Movement on the grid (CNC-R5): rates and paces, where a combatant ends up when it closes on a
//! foe or withdraws, and the charge's straight-line test (CNC-R6.2).
//!
//! Combatants may pass through occupied squares but never end on one; there is no terrain, so
//! the CK's movement reductions (CNC-G5) are a per-combatant `movement` override in the file.

use crate::state::State;
use fray_core::grid::SQUARE_FT;
use fray_core::{CombatantId, Pos};

/// Squares a combatant may move for `feet` (fractions dropped). [Seed: 4. Movement; CNC-R5.3]
pub fn squares_for(feet: i32) -> i32 {
    feet.max(0) / SQUARE_FT
}

/// Half the movement rate in feet, fractions dropped (CNC-R5.4).
pub fn half_move(state: &State, id: CombatantId) -> i32 {
    state.p(id).movement / 2
}

/// True when the square is free (no living combatant, or only `except`).
pub fn free(state: &State, pos: Pos, except: CombatantId) -> bool {
    // The same rule as `Board::square_free` (C&C: every body but the dead blocks), asked of the
    // occupancy index directly: the strike-square search calls it for every candidate square.
    !state
        .occupancy
        .any_at(pos, |id| id != except && state.f(id).present())
}

/// The nearest free square from which `mover` can strike `target` with reach `reach_ft`, within
/// `budget_ft` of its square; `Some(current square)` if it already can.
pub fn strike_square(
    state: &State,
    mover: CombatantId,
    target: CombatantId,
    reach_ft: i32,
    budget_ft: i32,
) -> Option<Pos> {
    let from = state.f(mover).pos;
    let at = state.f(target).pos;
    if from.within_reach(at, reach_ft) {
        return Some(from);
    }
    let r = squares_for(reach_ft.max(SQUARE_FT));
    let budget = squares_for(budget_ft);
    if from.squares_to(at) - r > budget {
        return None;
    }
    if r == 1 {
        return neighbour_square(state, mover, from, at, budget);
    }
    scan_square(state, mover, from, at, r, reach_ft, budget)
}

/// The general search of [`strike_square`] over every square within `r` of the target.
fn scan_square(
    state: &State,
    mover: CombatantId,
    from: Pos,
    at: Pos,
    r: i32,
    reach_ft: i32,
    budget: i32,
) -> Option<Pos> {
    // Squares near the target that others stand on (usually a handful), found once.
    let mut taken = [Pos::new(0, 0); 12];
    let mut n_taken = 0;
    let mut overflow = false;
    state.occupancy.each_within(at, r, |id, square| {
        if id != mover && state.f(id).present() {
            if n_taken < taken.len() {
                taken[n_taken] = square;
                n_taken += 1;
            } else {
                overflow = true;
            }
        }
    });
    let is_free = |p: Pos| {
        if overflow {
            free(state, p, mover)
        } else {
            !taken[..n_taken].contains(&p)
        }
    };
    let mut best: Option<(Preference, Pos)> = None;
    for dy in -r..=r {
        for dx in -r..=r {
            let p = Pos::new(at.x + dx, at.y + dy);
            // With a 5-ft reach every neighbouring square is within reach.
            if p == at || (r > 1 && !p.within_reach(at, reach_ft)) {
                continue;
            }
            let cost = from.squares_to(p);
            // Cheap tests first: too far, or already beaten on distance.
            if cost > budget || best.is_some_and(|b| b.0 .0 < cost) || !is_free(p) {
                continue;
            }
            let key = preference(from, at, p, cost);
            if best.is_none_or(|b| b.0 > key) {
                best = Some((key, p));
            }
        }
    }
    best.map(|b| b.1)
}

/// A square's rank for [`preference`] (lower is better).
type Preference = (i32, i32, i32, i32, i32);

/// The order in which squares `p` around a target at `at` are preferred by a mover at `from`:
/// the shortest move, then the straightest line, then the square most toward the target, then
/// the lower `y`, then the lower `x`. Every key but the last two is measured in the mover's own
/// frame, so two movers placed as mirror images (east–west) choose mirror-image squares: no side
/// of a symmetric fight gains from the grid's fixed order (fairness, DESIGN).
fn preference(from: Pos, at: Pos, p: Pos, cost: i32) -> Preference {
    let (rx, ry) = (p.x - from.x, p.y - from.y);
    let (hx, hy) = (at.x - from.x, at.y - from.y);
    (cost, rx * rx + ry * ry, -(rx * hx + ry * hy), p.y, p.x)
}

/// [`strike_square`] for a 5-ft reach: the best of the target's eight neighbours, found with one
/// query of the occupancy index and no inner loops (this runs for most decisions of every
/// simulated fight). Same preference order ([`preference`]).
fn neighbour_square(
    state: &State,
    mover: CombatantId,
    from: Pos,
    at: Pos,
    budget: i32,
) -> Option<Pos> {
    // Bit (dx + 1) * 3 + (dy + 1) is set when that neighbour of the target is occupied.
    let mut occupied: u16 = 1 << 4; // the target's own square
    state.occupancy.each_within(at, 1, |id, square| {
        let (dx, dy) = (square.x - at.x, square.y - at.y);
        if id != mover && state.f(id).present() {
            occupied |= 1 << ((dx + 1) * 3 + (dy + 1));
        }
    });
    let mut best: Option<(Preference, Pos)> = None;
    for index in 0..9i32 {
        if occupied & (1 << index) != 0 {
            continue;
        }
        let p = Pos::new(at.x + index / 3 - 1, at.y + index % 3 - 1);
        let cost = from.squares_to(p);
        if cost > budget {
            continue;
        }
        let key = preference(from, at, p, cost);
        if best.is_none_or(|b| key < b.0) {
            best = Some((key, p));
        }
    }
    best.map(|b| b.1)
}

/// Where `mover` ends when it moves up to `budget_ft` toward `goal` (stopping adjacent if it
/// gets there), on a free square.
pub fn toward(state: &State, mover: CombatantId, goal: Pos, budget_ft: i32) -> Pos {
    let from = state.f(mover).pos;
    let budget = squares_for(budget_ft);
    let dist = from.squares_to(goal);
    let steps = budget.min((dist - 1).max(0));
    let mut p = from;
    for _ in 0..steps {
        let dx = (goal.x - p.x).signum();
        let dy = (goal.y - p.y).signum();
        p = Pos::new(p.x + dx, p.y + dy);
    }
    nearest_free(state, mover, p, from, goal)
}

/// Where `mover` ends when it moves up to `budget_ft` away from the nearest of `threats`.
pub fn away_from(state: &State, mover: CombatantId, threats: &[Pos], budget_ft: i32) -> Pos {
    let from = state.f(mover).pos;
    if threats.is_empty() {
        return from;
    }
    let (sx, sy) = threats.iter().fold((0, 0), |(x, y), t| (x + t.x, y + t.y));
    let n = threats.len() as i32;
    let (cx, cy) = (from.x * n - sx, from.y * n - sy);
    let (dx, dy) = if cx == 0 && cy == 0 {
        (1, 0)
    } else {
        (cx.signum(), cy.signum())
    };
    let budget = squares_for(budget_ft);
    let goal = Pos::new(from.x + dx * budget, from.y + dy * budget);
    nearest_free(state, mover, goal, from, goal)
}

/// `ideal` if free; otherwise the free square nearest to it that is no farther from `from` than
/// `ideal` is, preferring squares close to `goal`; `from` if none.
fn nearest_free(state: &State, mover: CombatantId, ideal: Pos, from: Pos, goal: Pos) -> Pos {
    if free(state, ideal, mover) {
        return ideal;
    }
    let limit = from.squares_to(ideal);
    for ring in 1..=2 {
        let mut best: Option<((i32, i32, i32, i32), Pos)> = None;
        for dy in -ring..=ring {
            for dx in -ring..=ring {
                let p = Pos::new(ideal.x + dx, ideal.y + dy);
                if p.squares_to(ideal) != ring
                    || from.squares_to(p) > limit
                    || !free(state, p, mover)
                {
                    continue;
                }
                // Nearest the goal, then in the mover's frame (mirror-fair, see `preference`).
                let (rx, ry) = (p.x - from.x, p.y - from.y);
                let (hx, hy) = (goal.x - from.x, goal.y - from.y);
                let key = (p.squares_to(goal), -(rx * hx + ry * hy), p.y, p.x);
                if best.is_none_or(|b| b.0 > key) {
                    best = Some((key, p));
                }
            }
        }
        if let Some((_, p)) = best {
            return p;
        }
    }
    from
}

/// Charge distance test: at least the movement rate, at most the jogging rate (2 ×), measured
/// to the target. [Seed: 4.1 Charging; CNC-R6.2, CNC-A21, CNC-E1]
pub fn charge_distance_ok(rate_ft: i32, distance_ft: i32) -> bool {
    rate_ft <= distance_ft && distance_ft <= 2 * rate_ft
}

/// The straight charge lane from `charger` to `target` is clear of other combatants. [CNC-R6.2]
pub fn charge_lane_clear(state: &State, charger: CombatantId, target: CombatantId) -> bool {
    let from = state.f(charger).pos;
    let to = state.f(target).pos;
    let steps = from.squares_to(to);
    // A combatant blocks the lane if it stands on the line's square at its own distance. The
    // `k`-th square of the line is `k` squares from the charger, so asking the index about each
    // square of the line is the same test; a lane longer than the crowd is scanned instead.
    if (steps as usize) < state.fighters.len() {
        return (1..steps).all(|k| {
            !state.occupancy.any_at(from.point_on_line(to, k), |id| {
                id != charger && id != target && state.f(id).present()
            })
        });
    }
    state.fighters.iter().enumerate().all(|(i, f)| {
        if i == charger.index() || i == target.index() || !f.present() {
            return true;
        }
        let k = from.squares_to(f.pos);
        !(k >= 1 && k < steps && from.point_on_line(to, k) == f.pos)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cnc_e1_una_charge_distances() {
        // Una: movement 30, jog 60.
        assert!(!charge_distance_ok(30, 25));
        assert!(charge_distance_ok(30, 30));
        assert!(charge_distance_ok(30, 60));
        assert!(!charge_distance_ok(30, 61));
    }

    proptest::proptest! {
        /// The fast 5-ft-reach search agrees with the general search.
        #[test]
        fn neighbour_search_matches_the_general_scan(
            others in proptest::collection::vec((-3i32..4, -3i32..4), 0..8),
            from in (-6i32..7, -6i32..7),
            budget in 0i32..5,
        ) {
            let mut text = String::from(
                "schema = 1\nruleset = \"cnc\"\n[[sides]]\nid = \"a\"\n[[sides]]\nid = \"b\"\n\
                 [[combatants]]\nid = \"t\"\nside = \"b\"\nat = [0, 0]\nmonster = \"orc\"\n",
            );
            let mut used = vec![(0, 0)];
            if used.contains(&from) {
                return Ok(());
            }
            used.push(from);
            text.push_str(&format!(
                "[[combatants]]\nid = \"m\"\nside = \"a\"\nat = [{}, {}]\nmonster = \"orc\"\n",
                from.0, from.1
            ));
            for (i, o) in others.iter().enumerate() {
                if used.contains(o) {
                    continue;
                }
                used.push(*o);
                text.push_str(&format!(
                    "[[combatants]]\nid = \"o{i}\"\nside = \"a\"\nat = [{}, {}]\nmonster = \"orc\"\n",
                    o.0, o.1
                ));
            }
            let content = crate::Content::embedded().expect("content");
            let e = crate::load("t.toml", &text, &content).expect("loads");
            let (t, m) = (CombatantId(0), CombatantId(1));
            let state = &e.state;
            let (f, at) = (state.f(m).pos, state.f(t).pos);
            let fast = neighbour_square(state, m, f, at, budget);
            let general = scan_square(state, m, f, at, 1, 5, budget);
            proptest::prop_assert_eq!(fast, general);
            // The direct loop of `free` keeps the shared board's rule.
            let mut state = state.clone();
            state.fighters[0].dead = budget % 2 == 0;
            for x in -4..5 {
                for y in -4..5 {
                    let pos = Pos::new(x, y);
                    proptest::prop_assert_eq!(
                        free(&state, pos, m),
                        fray_core::Board::square_free(&state, pos, m)
                    );
                }
            }
        }
    }

    #[test]
    fn fractions_of_squares_drop() {
        assert_eq!(squares_for(15), 3);
        assert_eq!(squares_for(12), 2);
        assert_eq!(squares_for(4), 0);
    }
}
