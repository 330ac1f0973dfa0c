//! Where a move, a step or a charge ends (CEL-R9 Move and Step, CEL-R11 Charge). Ties between
//! equally good squares are broken in the mover's own frame (distance, then straightness, then
//! north before south, then the less forward square), never by file order.

use crate::state::{reaches, State};
use fray_core::{Board, CombatantId, Pos};
use std::sync::Mutex;

/// A ranking of squares: distance, straightness, the mover's frame.
type Key = (i32, i64, (i32, i32));

/// Squared straight-line distance, for straightness tie-breaks.
fn euclid(a: Pos, b: Pos) -> i64 {
    let (dx, dy) = (i64::from(a.x - b.x), i64::from(a.y - b.y));
    dx * dx + dy * dy
}

/// A tie-break key in the mover's frame: north first (mirror matches are east–west), then the
/// square less far forward toward `toward`.
pub(crate) fn frame(from: Pos, toward: Pos, p: Pos) -> (i32, i32) {
    let forward = (p.x - from.x) * (toward.x - from.x).signum();
    (p.y - from.y, forward)
}

/// The first free square, in the order nearest to the mover first (then straightness, then
/// the mover's frame), within `max` squares of `who`'s square from which a melee form of `who`
/// reaches `target` and which `also` accepts. A ridden mount goes where its rider's forms reach
/// (the rider attacks at the end of the mount's move or charge, CEL-R21.6, R21.7: a lance strikes
/// from 10 ft). The key is a total order (it ends with the square): the squares in reach are
/// sorted once, and the costlier tests (`free`, then `also`) run in that order until one passes
/// both.
fn strike_square(
    state: &State,
    who: CombatantId,
    target: CombatantId,
    max: i32,
    free: impl Fn(Pos) -> bool,
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
    // The gaps some melee form reaches, looked up once (no gap in the box exceeds its width).
    let width = far - near + 1;
    let reaches_gap = GapSet::new(width, |gap| {
        state.melee_forms(striker).any(|(_, w)| reaches(w, gap))
    });
    // One pass over the box keeps the squares in reach with their keys; sorted, the first
    // free one `also` accepts is the answer (a refused square gives way to the next in order,
    // without searching the box again).
    let mut candidates: Vec<(Key, Pos)> = Vec::with_capacity((width * width) as usize);
    for dx in near..=far {
        for dy in near..=far {
            let p = Pos::new(at.x + dx, at.y + dy);
            let d = p.squares_to(from);
            if d > max {
                continue;
            }
            let gap = crate::space::gap(p, sides, at, target_side);
            // The gap is at most `reach` (per axis: −dx − (sides − 1) ≤ reach for dx ≥ near,
            // dx − (target_side − 1) ≤ reach for dx ≤ far), below the width 2·reach + sides +
            // target_side − 1: always in the set's range.
            if !reaches_gap.has(gap) {
                continue;
            }
            candidates.push(((d, euclid(p, from), frame(from, at, p)), p));
        }
    }
    candidates.sort_unstable();
    // With obstacles on the map, only a square with a line of effect to the target is one to
    // strike from (`rules::line_of_effect`).
    let walled = state.terrain.has_obstacles();
    candidates.into_iter().map(|(_, p)| p).find(|&p| {
        (p == from || free(p))
            && (!walled || super::line_of_effect::open_from(state, who, p, target))
            && also(p)
    })
}

/// The gaps (in squares, `0..width`) that some weapon reaches, as bits: the strike-square
/// search asks about the same few gaps for every square of its box.
struct GapSet {
    bits: u64,
    width: i32,
}

impl GapSet {
    fn new(width: i32, mut reaches: impl FnMut(i32) -> bool) -> GapSet {
        let width = width.clamp(0, 64);
        let bits = (0..width).fold(0u64, |b, g| if reaches(g) { b | 1 << g } else { b });
        GapSet { bits, width }
    }
    /// Does a weapon reach `gap` (`false` past the width: the caller keeps below it)?
    fn has(&self, gap: i32) -> bool {
        (0..self.width).contains(&gap) && self.bits >> gap & 1 == 1
    }
}

/// The squares of those standing in `who`'s way ([`State::space_free`]'s test: others present,
/// its own rider or mount aside), read once for a search that tests many squares; past
/// [`Blockers::MAX`] squares it asks the state each time.
#[derive(Debug)]
pub struct Blockers {
    who: CombatantId,
    side: i32,
    squares: [Pos; Blockers::MAX],
    len: usize,
    overflow: bool,
}

impl Blockers {
    /// At most this many squares are kept.
    const MAX: usize = 32;

    /// The blockers of `who` now.
    pub fn of(state: &State, who: CombatantId) -> Blockers {
        let f = state.f(who);
        let (rider, mount) = (f.rider, f.riding);
        let mut b = Blockers {
            who,
            side: state.side(who),
            squares: [Pos::new(0, 0); Blockers::MAX],
            len: 0,
            // With obstacles on the map every test asks the state (`rules::terrain`).
            overflow: state.terrain.has_obstacles(),
        };
        // Every occupied square (the whole board is within this radius of any square).
        state.occupancy.each_within(f.pos, i32::MAX / 4, |o, sq| {
            if o == who || Some(o) == rider || Some(o) == mount || state.f(o).absent() {
                return;
            }
            if b.len == Blockers::MAX {
                b.overflow = true;
            } else {
                b.squares[b.len] = sq;
                b.len += 1;
            }
        });
        b
    }

    /// Is `at` free for the mover to stand on? The same answer as [`State::space_free`].
    pub fn free(&self, state: &State, at: Pos) -> bool {
        if self.overflow {
            return state.space_free(at, self.who);
        }
        let s = self.side;
        !self.squares[..self.len]
            .iter()
            .any(|q| (at.x..at.x + s).contains(&q.x) && (at.y..at.y + s).contains(&q.y))
    }

    /// Is the straight line from `from` to `to` free for the mover (the end excluded)? The
    /// same answer as [`clear_line`]: instead of testing each square of the line against every
    /// blocker, each blocker's square is tested against the few squares of the line whose
    /// space could hold it. Along its longer axis the line moves one square a step
    /// ([`Pos::point_on_line`]), so a space `s` across on its `i`-th square holds `q` only for
    /// the `s` steps `i` that put that axis's coordinate within `s − 1` before `q`'s.
    pub fn line_clear(&self, state: &State, from: Pos, to: Pos) -> bool {
        if self.overflow {
            return clear_line(state, self.who, from, to);
        }
        let (n, s) = (from.squares_to(to), self.side);
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        !self.squares[..self.len].iter().any(|q| {
            let (q0, from0, sign) = if dx.abs() >= dy.abs() {
                (q.x, from.x, dx.signum())
            } else {
                (q.y, from.y, dy.signum())
            };
            (0..s).any(|k| {
                let i = (q0 - k - from0) * sign;
                (1..n).contains(&i) && {
                    let at = from.point_on_line(to, i);
                    (at.x..at.x + s).contains(&q.x) && (at.y..at.y + s).contains(&q.y)
                }
            })
        })
    }
}

/// Where a Move toward `target` ends: the nearest square within speed from which `who` can
/// strike it, else the free square within speed nearest to it. `None` if no square is better
/// than where it stands. [CEL-R9 Move]
pub fn approach(state: &State, who: CombatantId, target: CombatantId) -> Option<Pos> {
    state
        .destination
        .recall(state, Search::Approach, who, target, || {
            approach_search(state, who, target)
        })
}

/// The nearest free square, at any distance, from which a melee form of `who` reaches
/// `target` with a line of effect to it (`fray odds` closing in on a map with obstacles);
/// `None` when there is none. [CEL-R9; `rules::line_of_effect`]
pub fn strike_square_anywhere(state: &State, who: CombatantId, target: CombatantId) -> Option<Pos> {
    strike_square(
        state,
        who,
        target,
        i32::MAX,
        |p| state.square_free(p, who),
        |_| true,
    )
}

/// [`approach`]'s search.
fn approach_search(state: &State, who: CombatantId, target: CombatantId) -> Option<Pos> {
    let from = state.f(who).pos;
    let at = state.f(target).pos;
    let speed = state.speed_squares(who);
    // With obstacles on the map, only the squares a path around them reaches within speed.
    let reach = state
        .terrain
        .has_obstacles()
        .then(|| super::terrain::Reach::of(state, who, from, speed));
    let reached = |p: Pos| reach.as_ref().is_none_or(|r| r.to(p).is_some());
    let free = |p| state.square_free(p, who) && reached(p);
    if let Some(p) = strike_square(state, who, target, speed, free, |_| true) {
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
                if key.0 < now && best.is_none_or(|(b, _)| key < b) && free(p) {
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
/// strike it, along a clear straight line, nearer the foe than where it starts ("directly
/// toward a designated foe": a reach weapon 10 ft from it has no such square, and no sideways
/// step makes a charge); `None` if there is none or the foe is nearer than 10 ft.
/// [CEL-R11 Charge]
pub fn charge(state: &State, who: CombatantId, target: CombatantId) -> Option<Pos> {
    if state.gap(who, target) < 2 {
        return None;
    }
    state
        .destination
        .recall(state, Search::Charge, who, target, || {
            charge_search(state, who, target)
        })
}

/// [`charge`]'s search.
fn charge_search(state: &State, who: CombatantId, target: CombatantId) -> Option<Pos> {
    let from = state.f(who).pos;
    let max = 2 * state.speed_squares(who);
    let blockers = Blockers::of(state, who);
    let free = |p| blockers.free(state, p);
    let side = state.side(who);
    let (now, at, target_side) = (
        state.gap(who, target),
        state.f(target).pos,
        state.side(target),
    );
    strike_square(state, who, target, max, free, |p| {
        p != from
            && crate::space::gap(p, side, at, target_side) < now
            && blockers.line_clear(state, from, p)
            && super::terrain::line_open(state, side, from, p)
            && !super::terrain::line_hindered(state, side, from, p)
    })
}

/// Which search a remembered destination answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Search {
    Charge,
    Approach,
}

/// A destination worked out, with what it was asked for: the search, the mover and its square,
/// the target and its square.
type Remembered = (Search, CombatantId, Pos, CombatantId, Pos, Option<Pos>);

/// The last charge or approach destination worked out (issue 16: the default tactics' legality
/// check and then `perform` ran the same search on the same state). It holds only between a
/// question and the next one: [`crate::rules::legal::ask`] and [`State::set_square`] forget it.
/// Between the action's question and `perform`'s charge or Move, nothing the searches read
/// changes without a question first (the acts paid, the cleave and Move notes, a mount's saddle
/// count do not; an attack of opportunity, a readied action, a mount's increment are asked). A
/// copy of the state starts with nothing remembered; it takes no part in equality or hashing,
/// since it never changes an answer. A lock, since a state may be shared between threads (a
/// session's checkpoints); a search that finds it taken just runs.
#[derive(Default)]
pub struct LastDestination(Mutex<Option<Remembered>>);

impl LastDestination {
    /// The remembered destination for this search, else `search()`'s, remembered.
    fn recall(
        &self,
        state: &State,
        what: Search,
        who: CombatantId,
        target: CombatantId,
        search: impl FnOnce() -> Option<Pos>,
    ) -> Option<Pos> {
        let (from, at) = (state.f(who).pos, state.f(target).pos);
        let Ok(mut last) = self.0.try_lock() else {
            return search();
        };
        if let Some((w, m, f, t, a, dest)) = *last {
            if (w, m, f, t, a) == (what, who, from, target, at) {
                return dest;
            }
        }
        let dest = search();
        *last = Some((what, who, from, target, at, dest));
        dest
    }

    /// Forgets the destination (a new question, a move).
    #[inline]
    pub fn forget(&mut self) {
        *self.0.get_mut().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

impl Clone for LastDestination {
    fn clone(&self) -> Self {
        LastDestination::default()
    }
}

impl PartialEq for LastDestination {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for LastDestination {}

impl std::hash::Hash for LastDestination {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl std::fmt::Debug for LastDestination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LastDestination")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    /// A remembered charge destination is forgotten when someone moves, and a copy of the
    /// state remembers nothing: the answer is always the search's on the state as it is now
    /// (CEL-R11 Charge; issue 16).
    #[test]
    fn a_remembered_charge_is_forgotten_when_someone_moves() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [6, 0], "orc")
            .monster("gob", "orcs", [0, 6], "goblin")
            .state();
        let (hal, orc, gob) = (CombatantId(0), CombatantId(1), CombatantId(2));
        let first = charge(&s, hal, orc);
        assert_eq!(first, Some(Pos::new(5, 0)));
        assert_eq!(charge(&s, hal, orc), first, "remembered");
        // The goblin steps into the charge's line: the straight path is no longer clear.
        s.set_square(gob, Pos::new(3, 0));
        let after = charge(&s, hal, orc);
        assert_eq!(after, charge_search(&s, hal, orc));
        assert_ne!(after, first);
        let copy = s.clone();
        assert_eq!(charge(&copy, hal, gob), charge_search(&copy, hal, gob));
        assert_eq!(copy, s, "no part of equality");
    }

    /// CEL-R11 Charge "directly toward a designated foe, ending the move in the closest space
    /// from which you can attack that foe": a longspear 30 ft away stops 10 ft from the foe;
    /// 10 ft away, a step aside that keeps the 10 ft is no charge: the nearer spaces are next
    /// to the foe, too close for the longspear but not for its unarmed strike (CEL-R8).
    #[test]
    fn a_charge_goes_toward_the_foe() {
        let spear =
            format!("{FIGHTER}\nweapon = \"longspear\"").replace("weapon = \"longsword\"\n", "");
        let far = Fixture::new()
            .with("bo", "heroes", [0, 0], &spear)
            .monster("orc", "orcs", [6, 0], "orc")
            .state();
        let (bo, orc) = (CombatantId(0), CombatantId(1));
        assert_eq!(charge(&far, bo, orc), Some(Pos::new(4, 0)));
        let near = Fixture::new()
            .with("bo", "heroes", [0, 0], &spear)
            .monster("orc", "orcs", [2, 0], "orc")
            .state();
        assert_eq!(charge(&near, bo, orc), Some(Pos::new(1, 0)));
    }

    /// The charge's line test from the blockers' squares gives [`clear_line`]'s answer on every
    /// line out to 8 squares, for a one-square mover and a Large one among one-square and Large
    /// others (CEL-R11 Charge, CEL-R21.3).
    #[test]
    fn the_blockers_line_test_agrees_with_clear_line() {
        let s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("ogre", "ogres", [3, 1], "ogre")
            .monster("orc", "ogres", [-2, 4], "orc")
            .monster("gob", "ogres", [1, -3], "goblin")
            .monster("horse", "heroes", [-4, -2], "light horse")
            .state();
        let mut blocked = 0;
        for who in [CombatantId(0), CombatantId(1)] {
            let from = s.f(who).pos;
            let blockers = Blockers::of(&s, who);
            for dx in -8..=8 {
                for dy in -8..=8 {
                    let to = Pos::new(from.x + dx, from.y + dy);
                    let clear = clear_line(&s, who, from, to);
                    assert_eq!(
                        blockers.line_clear(&s, from, to),
                        clear,
                        "{who:?} from {from:?} to {to:?}"
                    );
                    blocked += usize::from(!clear);
                }
            }
        }
        assert!(blocked > 20, "many lines are blocked: {blocked}");
    }
}
