//! The space a combatant fills (CEL-R21.3): a Large creature takes a 10-ft space (2 × 2
//! squares), a Huge one 15 ft (3 × 3, the parent game's space: the seed names only the horse's),
//! others one square. A file's `at` names the space's north-west square. A rider shares its
//! mount's space. Distances between combatants run between their nearest squares, so a Large
//! ogre's club reaches every square next to any of its four.

use crate::content::Size;
use fray_core::footprint::Footprint;
use fray_core::grid::Direction;
use fray_core::Pos;

/// The facing that hangs a [`Footprint`] from its north-west square (east and south of it).
pub const FACING: Direction = Direction::North;

/// Squares on each side of the space of a creature of `size`. [CEL-R21.3]
#[inline]
pub fn side(size: Size) -> i32 {
    match size {
        Size::Small | Size::Medium => 1,
        Size::Large => 2,
        Size::Huge => 3,
    }
}

/// The footprint of a creature of `size` (square, `side` squares across).
pub fn footprint(size: Size) -> Footprint {
    let s = side(size) as u8;
    Footprint::new(s, s).unwrap_or(Footprint::ONE)
}

/// Squares between the nearest squares of a space `sa` squares across with its north-west
/// square on `a` and one `sb` across on `b` (Chebyshev): 0 when they overlap, 1 when they touch.
#[inline]
pub fn gap(a: Pos, sa: i32, b: Pos, sb: i32) -> i32 {
    let dx = (b.x - (a.x + sa - 1)).max(a.x - (b.x + sb - 1)).max(0);
    let dy = (b.y - (a.y + sa - 1)).max(a.y - (b.y + sb - 1)).max(0);
    dx.max(dy)
}

/// The nearest squares of two spaces (as for [`gap`]): the square of the space `sa` across on
/// `a` nearest to the space `sb` across on `b`, and that space's square nearest to it. Where the
/// spaces overlap along an axis both take the same coordinate there (the nearest of the
/// overlap to `a`'s north-west square), so the line between the two runs straight along the
/// other axis. Bull rush and overrun measure from them (CEL-R10.2, R10.4).
pub fn nearest(a: Pos, sa: i32, b: Pos, sb: i32) -> (Pos, Pos) {
    let axis = |a0: i32, sa: i32, b0: i32, sb: i32| {
        let (a1, b1) = (a0 + sa - 1, b0 + sb - 1);
        if a1 < b0 {
            (a1, b0)
        } else if b1 < a0 {
            (a0, b1)
        } else {
            let c = a0.max(b0);
            (c, c)
        }
    };
    let (ax, bx) = axis(a.x, sa, b.x, sb);
    let (ay, by) = axis(a.y, sa, b.y, sb);
    (Pos::new(ax, ay), Pos::new(bx, by))
}

/// The squares of a space `s` across with its north-west square on `at`.
pub fn squares(at: Pos, s: i32) -> impl Iterator<Item = Pos> {
    (0..s).flat_map(move |dy| (0..s).map(move |dx| Pos::new(at.x + dx, at.y + dy)))
}

/// The north-west squares of the spaces `outer` across that touch a space `inner` across on
/// `at`, clockwise from the one north of `at` (for two one-square spaces: the order of
/// [`Direction::ALL`], north first).
pub fn ring(at: Pos, inner: i32, outer: i32) -> impl Iterator<Item = Pos> {
    let (s, w) = (inner, outer);
    let top = (at.x - w + 1..=at.x + s).map(move |x| Pos::new(x, at.y - w));
    let east = (at.y - w + 1..=at.y + s).map(move |y| Pos::new(at.x + s, y));
    let bottom = (at.x - w..at.x + s)
        .rev()
        .map(move |x| Pos::new(x, at.y + s));
    let west = (at.y - w..at.y + s)
        .rev()
        .map(move |y| Pos::new(at.x - w, y));
    top.chain(east).chain(bottom).chain(west)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nearest squares: an orc east of an ogre's east column faces the ogre's square on
    /// its own row, not the ogre's north-west corner.
    #[test]
    fn nearest_squares_face_each_other() {
        let ogre = Pos::new(0, 0);
        assert_eq!(
            nearest(Pos::new(2, 1), 1, ogre, 2),
            (Pos::new(2, 1), Pos::new(1, 1))
        );
        assert_eq!(
            nearest(Pos::new(3, 3), 1, ogre, 2),
            (Pos::new(3, 3), Pos::new(1, 1))
        );
        assert_eq!(
            nearest(Pos::new(-1, 0), 1, ogre, 2),
            (Pos::new(-1, 0), Pos::new(0, 0))
        );
        assert_eq!(
            nearest(Pos::new(5, 5), 1, Pos::new(2, 2), 1),
            (Pos::new(5, 5), Pos::new(2, 2))
        );
    }

    #[test]
    fn a_large_space_is_two_by_two_from_its_north_west_square() {
        let at = Pos::new(3, 4);
        let mut fp = footprint(Size::Large).squares(at, FACING);
        fp.sort();
        let mut ours: Vec<Pos> = squares(at, 2).collect();
        ours.sort();
        assert_eq!(fp, ours);
        assert_eq!(
            ours,
            vec![
                Pos::new(3, 4),
                Pos::new(3, 5),
                Pos::new(4, 4),
                Pos::new(4, 5)
            ]
        );
        // A foe east of the ogre's east column is adjacent; one two squares east is not.
        assert_eq!(gap(at, 2, Pos::new(5, 5), 1), 1);
        assert_eq!(gap(at, 2, Pos::new(6, 5), 1), 2);
        assert_eq!(gap(Pos::new(6, 5), 1, at, 2), 2);
        assert_eq!(gap(at, 2, Pos::new(4, 5), 1), 0);
    }

    #[test]
    fn the_ring_touches_the_space_clockwise_from_north() {
        let at = Pos::new(2, 3);
        let one: Vec<Pos> = ring(at, 1, 1).collect();
        let around: Vec<Pos> = Direction::ALL.into_iter().map(|d| at.step(d)).collect();
        assert_eq!(one, around);
        for (inner, outer) in [(2, 1), (1, 2), (2, 2), (3, 1)] {
            let r: Vec<Pos> = ring(at, inner, outer).collect();
            assert_eq!(r.len() as i32, 4 * (inner + outer));
            assert!(r.iter().all(|&p| gap(p, outer, at, inner) == 1));
            let mut distinct = r.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), r.len());
        }
    }

    /// The gap is the core's nearest-square distance between the two footprints, for every
    /// pair of sizes and offsets within 6 squares.
    #[test]
    fn the_gap_is_the_distance_between_nearest_squares() {
        for za in Size::ALL {
            for zb in Size::ALL {
                let a = footprint(za).squares(Pos::new(0, 0), FACING);
                for bx in -6..=6 {
                    for by in -6..=6 {
                        let b = footprint(zb).squares(Pos::new(bx, by), FACING);
                        assert_eq!(
                            gap(Pos::new(0, 0), side(za), Pos::new(bx, by), side(zb)),
                            fray_core::footprint::squares_between(&a, &b),
                            "{za:?} at 0,0 and {zb:?} at {bx},{by}"
                        );
                    }
                }
            }
        }
    }
}
