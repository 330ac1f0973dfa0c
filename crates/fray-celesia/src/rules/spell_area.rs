//! Who a spell's area catches (burst, cone, line) on fray's grid. The seed gives no areas
//! (only "The change in caster level does not affect the spell or spell-like ability's range
//! or area", CEL-R6.2); the shapes are Pathfinder's, measured as fray measures (5-ft squares,
//! Chebyshev distance): a burst reaches every creature whose space is within its radius of the
//! aimed creature's space; a cone is a quarter circle from the caster toward the aim (within
//! 45° of that direction and its length of the caster); a line is 5 ft wide from the caster's
//! centre through the aim's. A creature is caught when any square of its space is. Cones and
//! lines start at the caster and do not catch it; a burst catches it when it stands inside.
//! Everyone caught is affected, allies included, in initiative order. An area stops at the
//! map's obstacles as Pathfinder's does: it catches only a creature with a line of effect from
//! its origin (the aimed creature for a burst, the caster for a cone or line;
//! `rules::line_of_effect`).

use crate::spell::Area;
use crate::state::State;
use fray_core::grid::SQUARE_FT;
use fray_core::{CombatantId, Pos};

/// The centre of a space `side` squares across on `at`, in half squares.
fn centre(at: Pos, side: i32) -> (i64, i64) {
    (
        i64::from(2 * at.x + side - 1),
        i64::from(2 * at.y + side - 1),
    )
}

/// Is the square `sq` in a cone or line of `len` squares from `from` toward `to` (half-square
/// coordinates)?
fn in_shape(area: Area, from: (i64, i64), to: (i64, i64), sq: Pos, len: i64) -> bool {
    let d = (to.0 - from.0, to.1 - from.1);
    let v = (2 * i64::from(sq.x) - from.0, 2 * i64::from(sq.y) - from.1);
    let dot = v.0 * d.0 + v.1 * d.1;
    let dd = d.0 * d.0 + d.1 * d.1;
    let vv = v.0 * v.0 + v.1 * v.1;
    if dot <= 0 || dd == 0 {
        return false;
    }
    match area {
        // Within 45°: cos² ≥ ½.
        Area::Cone(_) => 2 * dot * dot >= vv * dd,
        // Along it no farther than its length, and at most half a square (1 half-square unit)
        // from its middle.
        Area::Line(_) => {
            let cross = v.0 * d.1 - v.1 * d.0;
            dot * dot <= (2 * len) * (2 * len) * dd && cross * cross <= dd
        }
        Area::Burst(_) => false,
    }
}

/// The creatures (not absent) the area aimed at `aim` by `caster` catches, in initiative
/// order. [CEL-R6.2, adopted reading]
pub fn creatures(
    state: &State,
    caster: CombatantId,
    aim: CombatantId,
    area: Area,
) -> Vec<CombatantId> {
    let origin = centre(state.f(caster).pos, state.side(caster));
    let toward = centre(state.f(aim).pos, state.side(aim));
    state
        .order
        .iter()
        .copied()
        .filter(|&c| !state.f(c).absent())
        .filter(|&c| match area {
            Area::Burst(ft) => {
                state.gap(aim, c) * SQUARE_FT <= ft && super::line_of_effect::open(state, aim, c)
            }
            Area::Cone(ft) | Area::Line(ft) => {
                c != caster
                    && state.gap(caster, c) * SQUARE_FT <= ft
                    && crate::space::squares(state.f(c).pos, state.side(c))
                        .any(|sq| in_shape(area, origin, toward, sq, i64::from(ft / SQUARE_FT)))
                    && super::line_of_effect::open(state, caster, c)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cone is a quarter circle: straight ahead and 45° off it are in, 90° off is out; a line
    /// is one square wide and its length long.
    #[test]
    fn cones_and_lines() {
        let from = centre(Pos::new(0, 0), 1);
        let to = centre(Pos::new(3, 0), 1);
        let cone = Area::Cone(15);
        assert!(in_shape(cone, from, to, Pos::new(2, 0), 3));
        assert!(in_shape(cone, from, to, Pos::new(2, 2), 3), "45°");
        assert!(!in_shape(cone, from, to, Pos::new(1, 2), 3), "beyond 45°");
        assert!(!in_shape(cone, from, to, Pos::new(0, 1), 3), "beside");
        let line = Area::Line(20);
        assert!(in_shape(line, from, to, Pos::new(4, 0), 4));
        assert!(
            !in_shape(line, from, to, Pos::new(5, 0), 4),
            "beyond its length"
        );
        assert!(!in_shape(line, from, to, Pos::new(2, 1), 4), "beside it");
        assert!(!in_shape(line, from, to, Pos::new(-1, 0), 4), "behind");
        let diagonal = centre(Pos::new(3, 3), 1);
        assert!(in_shape(line, from, diagonal, Pos::new(2, 2), 4));
        assert!(!in_shape(line, from, diagonal, Pos::new(2, 1), 4));
    }
}
