//! Where a move, a step or a charge ends (CEL-R9 Move and Step, CEL-R11 Charge). Ties between
//! equally good squares are broken in the mover's own frame (distance, then straightness, then
//! north before south, then the less forward square), never by file order.

use crate::state::{reaches, State};
use fray_core::{Board, CombatantId, Pos};

/// A ranking of squares: distance, straightness, the mover's frame.
type Key = (i32, i64, (i32, i32));

/// Squared straight-line distance, for straightness tie-breaks.
fn euclid(a: Pos, b: Pos) -> i64 {
    let (dx, dy) = (i64::from(a.x - b.x), i64::from(a.y - b.y));
    dx * dx + dy * dy
}

/// A tie-break key in the mover's frame: north first (mirror matches are east–west), then the
/// square less far forward toward `toward`.
fn frame(from: Pos, toward: Pos, p: Pos) -> (i32, i32) {
    let forward = (p.x - from.x) * (toward.x - from.x).signum();
    (p.y - from.y, forward)
}

/// The first free square, in the order nearest to the mover first (then straightness, then
/// the mover's frame), within `max` squares of `who`'s square from which a melee form of `who`
/// reaches `target` and which `also` accepts. A ridden mount goes where its rider's forms reach
/// (the rider attacks at the end of the mount's move or charge, CEL-R21.6, R21.7: a lance strikes
/// from 10 ft). A search for the least key, without a sorted list: the key is a total order (it
/// ends with the square), so the least square passing every test is the first of the sorted
/// list; the costlier tests run only for a square that would beat the best so far, and `also`
/// only for the best one (if it refuses it, the search runs again without it).
fn strike_square(
    state: &State,
    who: CombatantId,
    target: CombatantId,
    max: i32,
    mut also: impl FnMut(Pos) -> bool,
) -> Option<Pos> {
    let from = state.f(who).pos;
    let at = state.f(target).pos;
    let striker = state
        .f(who)
        .rider
        .filter(|&r| state.up(r) && state.p(r).armed())
        .unwrap_or(who);
    let reach = state
        .melee_forms(striker)
        .map(|(_, w)| w.reach / fray_core::grid::SQUARE_FT)
        .max()
        .unwrap_or(1)
        .clamp(1, 6);
    // CEL-R21.3: the squares around the target's whole space, for the mover's whole space.
    // `State::gap_from` with the two sides looked up once.
    let (sides, target_side) = (state.side(who), state.side(target));
    let (near, far) = (-reach - (sides - 1), reach + target_side - 1);
    let mut refused: Vec<Pos> = Vec::new();
    loop {
        let mut best: Option<(Key, Pos)> = None;
        for dx in near..=far {
            for dy in near..=far {
                let p = Pos::new(at.x + dx, at.y + dy);
                let d = p.squares_to(from);
                if d > max {
                    continue;
                }
                let key = (d, euclid(p, from), frame(from, at, p));
                if best.is_some_and(|b| (key, p) >= b) || refused.contains(&p) {
                    continue;
                }
                let gap = crate::space::gap(p, sides, at, target_side);
                if !state.melee_forms(striker).any(|(_, w)| reaches(w, gap)) {
                    continue;
                }
                if p != from && !state.square_free(p, who) {
                    continue;
                }
                best = Some((key, p));
            }
        }
        let (_, p) = best?;
        if also(p) {
            return Some(p);
        }
        refused.push(p);
    }
}

/// Where a Move toward `target` ends: the nearest square within speed from which `who` can
/// strike it, else the free square within speed nearest to it. `None` if no square is better
/// than where it stands. [CEL-R9 Move]
pub fn approach(state: &State, who: CombatantId, target: CombatantId) -> Option<Pos> {
    let from = state.f(who).pos;
    let at = state.f(target).pos;
    let speed = state.speed_squares(who);
    if let Some(p) = strike_square(state, who, target, speed, |_| true) {
        return (p != from).then_some(p);
    }
    let now = state.gap(who, target);
    // `State::gap_from` with the two sides looked up once.
    let (sides, target_side) = (state.side(who), state.side(target));
    for ring in (1..=speed).rev() {
        let mut best: Option<(Key, Pos)> = None;
        for k in -ring..=ring {
            for p in [
                Pos::new(from.x + k, from.y - ring),
                Pos::new(from.x + k, from.y + ring),
                Pos::new(from.x - ring, from.y + k),
                Pos::new(from.x + ring, from.y + k),
            ] {
                // The free test (the costly one) only for a square that would be the best.
                let key = (
                    crate::space::gap(p, sides, at, target_side),
                    euclid(p, at),
                    frame(from, at, p),
                );
                if key.0 < now && best.is_none_or(|(b, _)| key < b) && state.square_free(p, who) {
                    best = Some((key, p));
                }
            }
        }
        if let Some((_, p)) = best {
            return Some(p);
        }
    }
    None
}

/// Is the straight line from `from` to `to` free of others' squares (the end excluded)?
pub fn clear_line(state: &State, who: CombatantId, from: Pos, to: Pos) -> bool {
    let steps = from.squares_to(to);
    (1..steps).all(|i| state.square_free(from.point_on_line(to, i), who))
}

/// Where a charge at `target` ends: the closest square within twice speed from which `who` can
/// strike it, along a clear straight line; `None` if there is none or the foe is nearer than
/// 10 ft. [CEL-R11 Charge]
pub fn charge(state: &State, who: CombatantId, target: CombatantId) -> Option<Pos> {
    let from = state.f(who).pos;
    if state.gap(who, target) < 2 {
        return None;
    }
    let max = 2 * state.speed_squares(who);
    strike_square(state, who, target, max, |p| {
        p != from && clear_line(state, who, from, p)
    })
}
