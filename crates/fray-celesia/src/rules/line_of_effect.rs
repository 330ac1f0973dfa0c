//! Line of effect across the map's obstacles (CEL-R7.1: a ranged attack's target must be "in
//! line of sight"; CEL-R11: a charge's foe "within your line of sight"; Demoralize: a foe "that
//! can see and hear you"). The seed says no more; fray reads it as Pathfinder draws it (the
//! parent game, whose line of effect also bounds melee blows, reach and spells): a line runs
//! from a corner of a square of the one space to a corner of a square of the other, and the
//! target is in line of effect when at least one such line passes through no obstacle. A line
//! passes through an obstacle when it crosses the inside of an obstacle square, runs along the
//! edge between two obstacle squares (inside a wall two squares thick), or passes the point where
//! two obstacle squares touch at their corners (a diagonal wall is still a wall, as for moves:
//! `rules::terrain`); grazing one obstacle's edge or corner does not block it. Others' squares
//! never block (Pathfinder's creatures give cover, not a wall; the seed's only cover is the stray
//! shot's +4, CEL-R7.3, and other cover is the GM's, CEL-G11). A map without obstacles costs one
//! test: every line is open.

use super::terrain::Terrain;
use crate::state::State;
use fray_core::protocol::Illegal;
use fray_core::{CombatantId, Pos};

/// Has `who` a line of effect to `target` from where each stands? Always, on a map without
/// obstacles. [CEL-R7.1, R11; Pathfinder's line of effect]
#[inline]
pub fn open(state: &State, who: CombatantId, target: CombatantId) -> bool {
    !state.terrain.has_obstacles() || open_from(state, who, state.f(who).pos, target)
}

/// Refuses an action on `target` that `who` has no line of effect to, naming `rule` (the
/// action's). [CEL-R7.1, R11; Pathfinder's line of effect]
#[inline]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    target: CombatantId,
    rule: &'static str,
) -> Result<(), Illegal> {
    Illegal::unless(open(state, who, target), explain, rule, || {
        format!(
            "an obstacle blocks every line from {} to {} (no line of effect or sight)",
            state.roster.key(who),
            state.roster.key(target)
        )
    })
}

/// [`open`] with `who` standing on `at`.
pub fn open_from(state: &State, who: CombatantId, at: Pos, target: CombatantId) -> bool {
    let t = &state.terrain;
    !t.has_obstacles()
        || between(
            t,
            (at, state.side(who)),
            (state.f(target).pos, state.side(target)),
        )
}

/// Is there a line from a corner of the space `a.1` across on `a.0` to a corner of the space
/// `b.1` across on `b.0` that passes through no obstacle?
pub fn between(t: &Terrain, a: (Pos, i32), b: (Pos, i32)) -> bool {
    if !t.has_obstacles() || !any_obstacle_near(t, a, b) {
        return true;
    }
    let corners = |(at, side): (Pos, i32)| {
        (0..=side).flat_map(move |i| (0..=side).map(move |j| Pos::new(at.x + i, at.y + j)))
    };
    corners(a).any(|p| corners(b).any(|q| line_clear(t, p, q)))
}

/// Is any obstacle square within the rectangle the two spaces span, grown by one square (every
/// square a line between their corners can touch)? Each row is a binary search.
fn any_obstacle_near(t: &Terrain, (a, sa): (Pos, i32), (b, sb): (Pos, i32)) -> bool {
    let (x0, x1) = ((a.x).min(b.x) - 1, (a.x + sa).max(b.x + sb));
    let (y0, y1) = ((a.y).min(b.y) - 1, (a.y + sa).max(b.y + sb));
    let obstacles = t.obstacles();
    (y0..=y1).any(|y| {
        let i = obstacles.partition_point(|p| (p.y, p.x) < (y, x0));
        obstacles.get(i).is_some_and(|p| p.y == y && p.x <= x1)
    })
}

/// Do the two squares on a diagonal through the corner point `c` (the squares whose corners
/// are `c`: north-west `(c.x − 1, c.y − 1)`, north-east `(c.x, c.y − 1)`, south-west, south-east)
/// both hold obstacles, on either diagonal?
fn pinch(t: &Terrain, c: Pos) -> bool {
    let o = |dx: i32, dy: i32| t.obstacle(Pos::new(c.x + dx, c.y + dy));
    (o(-1, -1) && o(0, 0)) || (o(0, -1) && o(-1, 0))
}

/// Does the line between the corner points `p` and `q` (square `(x, y)` spans the points
/// `x..x+1` by `y..y+1`) pass through no obstacle? It is followed from grid line to grid line:
/// between two crossings it is inside one square (or, running along a grid line, between two);
/// where it crosses both at once it passes a corner point.
pub fn line_clear(t: &Terrain, p: Pos, q: Pos) -> bool {
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    let (sx, sy) = (dx.signum(), dy.signum());
    if dx == 0 || dy == 0 {
        // Along a grid line: its corner points, and each unit edge between two squares.
        let n = dx.abs().max(dy.abs());
        return (0..=n).all(|k| !pinch(t, Pos::new(p.x + sx * k, p.y + sy * k)))
            && (0..n).all(|k| {
                let (x, y) = (p.x + sx * k + sx.min(0), p.y + sy * k + sy.min(0));
                // The two squares on either side of the edge from (x, y) one square on.
                let (a, b) = if dy == 0 {
                    (Pos::new(x, p.y - 1), Pos::new(x, p.y))
                } else {
                    (Pos::new(p.x - 1, y), Pos::new(p.x, y))
                };
                !(t.obstacle(a) && t.obstacle(b))
            });
    }
    let (ax, ay) = (i64::from(dx.abs()), i64::from(dy.abs()));
    // In steps of 1 / (ax · ay) of the line: it crosses a column line every `ay` steps and a
    // row line every `ax` steps.
    let end = ax * ay;
    let (mut i, mut j, mut at) = (0i64, 0i64, 0i64);
    if pinch(t, p) {
        return false;
    }
    while at < end {
        // Inside the square after `i` column lines and `j` row lines.
        let square = Pos::new(
            p.x + if sx > 0 { i as i32 } else { -(i as i32) - 1 },
            p.y + if sy > 0 { j as i32 } else { -(j as i32) - 1 },
        );
        if t.obstacle(square) {
            return false;
        }
        let (next_x, next_y) = ((i + 1) * ay, (j + 1) * ax);
        at = next_x.min(next_y);
        if next_x == at {
            i += 1;
        }
        if next_y == at {
            j += 1;
        }
        if next_x == next_y && pinch(t, Pos::new(p.x + sx * i as i32, p.y + sy * j as i32)) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walls(squares: &[(i32, i32)]) -> Terrain {
        Terrain::new(
            squares.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
            Vec::new(),
        )
    }

    fn sees(t: &Terrain, a: (i32, i32), b: (i32, i32)) -> bool {
        between(t, (Pos::new(a.0, a.1), 1), (Pos::new(b.0, b.1), 1))
    }

    /// A wall between two squares blocks every line; a gap in it lets one through; without
    /// obstacles every line is open. [CEL-R7.1]
    #[test]
    fn a_wall_blocks_and_a_gap_opens() {
        let none = Terrain::default();
        assert!(sees(&none, (0, 0), (9, 3)));
        let wall: Vec<(i32, i32)> = (-5..=5).map(|y| (3, y)).collect();
        let t = walls(&wall);
        assert!(!sees(&t, (0, 0), (6, 0)));
        assert!(!sees(&t, (0, 0), (6, 4)));
        assert!(sees(&t, (0, 0), (2, 5)), "on the same side");
        let gap: Vec<(i32, i32)> = wall.iter().copied().filter(|&p| p != (3, 0)).collect();
        let t = walls(&gap);
        assert!(sees(&t, (0, 0), (6, 0)), "straight through the gap");
        assert!(sees(&t, (0, 0), (6, 1)), "a slant through the gap");
        assert!(!sees(&t, (0, 0), (6, 5)), "too steep for a one-square gap");
    }

    /// Grazing one obstacle's corner or edge leaves a line (reach past a pillar, a blow around
    /// one corner); a diagonal wall (two obstacles touching at a corner) and a wall two squares
    /// thick along the line block it. [Pathfinder's line of effect]
    #[test]
    fn corners_and_diagonal_walls() {
        let pillar = walls(&[(1, 1)]);
        assert!(
            sees(&pillar, (0, 0), (2, 2)),
            "past a single pillar's corner"
        );
        assert!(
            sees(&pillar, (1, 0), (1, 2)),
            "a lone pillar between two squares in a row: lines graze its sides"
        );
        let row = walls(&[(0, 1), (1, 1), (2, 1)]);
        assert!(!sees(&row, (1, 0), (1, 2)), "a wall three squares wide");
        let corner = walls(&[(1, 0)]);
        assert!(sees(&corner, (0, 0), (1, 1)), "around one corner");
        let diagonal = walls(&[(1, 0), (0, 1)]);
        assert!(
            !sees(&diagonal, (0, 0), (1, 1)),
            "between two touching corners"
        );
        assert!(!sees(&diagonal, (0, 0), (3, 3)));
        // A corridor one square wide: the foe next along it is in line.
        let corridor: Vec<(i32, i32)> = (-3..=6).flat_map(|x| [(x, -1), (x, 1)]).collect();
        let t = walls(&corridor);
        assert!(sees(&t, (0, 0), (1, 0)));
        assert!(sees(&t, (0, 0), (5, 0)));
        assert!(!sees(&t, (0, 0), (0, 2)), "beyond the corridor's wall");
        // Along the edge between two rows of a thick wall.
        let thick: Vec<(i32, i32)> = (0..=4).flat_map(|x| [(x, 0), (x, 1)]).collect();
        assert!(!line_clear(&walls(&thick), Pos::new(0, 1), Pos::new(5, 1)));
        assert!(
            line_clear(&walls(&thick), Pos::new(0, 0), Pos::new(5, 0)),
            "its edge"
        );
    }

    /// A Large space sees from any of its squares' corners: a wall hiding one of its squares
    /// does not hide the other. [CEL-R21.3]
    #[test]
    fn a_large_space_sees_from_any_corner() {
        let t = walls(&[(2, 0), (2, -1), (2, -2)]);
        assert!(!between(&t, (Pos::new(0, -1), 1), (Pos::new(4, -1), 1)));
        assert!(between(&t, (Pos::new(0, 0), 2), (Pos::new(4, -1), 1)));
    }
}
