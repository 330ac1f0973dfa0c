//! Footprints: the squares a piece covers. Most combatants cover one square; a horse covers two
//! (CEL-R21.3: a Large mount takes a 10-ft space, its rider shares it), a larger beast four.
//!
//! A footprint is `width` squares across and `length` squares deep. It hangs from an *anchor*
//! square (the front-left square, as seen by the piece) and turns with the piece's facing: the
//! length runs back from the anchor, away from the facing, and the width runs to the piece's
//! right. A diagonal facing is treated as the orthogonal one clockwise before it (north-east
//! as north, and so on), so a footprint is always an axis-aligned rectangle on the grid.

use crate::grid::{Direction, Pos};
use crate::occupancy::Occupancy;

/// Largest side of a footprint, in squares.
pub const MAX_SIDE: u8 = 8;

/// A footprint that cannot be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FootprintError {
    /// A side of zero or more than [`MAX_SIDE`] squares.
    #[error("a footprint is 1 to {MAX_SIDE} squares on each side, not {width} × {length}")]
    BadSize {
        /// Squares across.
        width: u8,
        /// Squares deep.
        length: u8,
    },
}

/// The squares a piece covers: `width` across, `length` deep (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Footprint {
    width: u8,
    length: u8,
}

impl Default for Footprint {
    fn default() -> Self {
        Footprint::ONE
    }
}

impl Footprint {
    /// One square (every combatant's footprint unless a rule says otherwise).
    pub const ONE: Footprint = Footprint {
        width: 1,
        length: 1,
    };

    /// A footprint of `width` × `length` squares.
    pub fn new(width: u8, length: u8) -> Result<Footprint, FootprintError> {
        if (1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&length) {
            Ok(Footprint { width, length })
        } else {
            Err(FootprintError::BadSize { width, length })
        }
    }

    /// Squares across.
    pub fn width(self) -> u8 {
        self.width
    }

    /// Squares deep.
    pub fn length(self) -> u8 {
        self.length
    }

    /// How many squares it covers.
    pub fn area(self) -> usize {
        usize::from(self.width) * usize::from(self.length)
    }

    /// The squares it covers with its anchor on `anchor`, facing `facing` (the anchor first).
    pub fn squares(self, anchor: Pos, facing: Direction) -> Vec<Pos> {
        // Forward and right-hand unit steps of the orthogonal facing.
        let (fwd, right) = match facing {
            Direction::North | Direction::NorthEast => ((0, -1), (1, 0)),
            Direction::East | Direction::SouthEast => ((1, 0), (0, 1)),
            Direction::South | Direction::SouthWest => ((0, 1), (-1, 0)),
            Direction::West | Direction::NorthWest => ((-1, 0), (0, -1)),
        };
        let mut out = Vec::with_capacity(self.area());
        for back in 0..i32::from(self.length) {
            for across in 0..i32::from(self.width) {
                out.push(Pos::new(
                    anchor.x - fwd.0 * back + right.0 * across,
                    anchor.y - fwd.1 * back + right.1 * across,
                ));
            }
        }
        out
    }
}

/// Distance in squares between two pieces: between their nearest squares (Chebyshev), so two
/// touching footprints are 1 apart and overlapping ones 0.
pub fn squares_between(a: &[Pos], b: &[Pos]) -> i32 {
    a.iter()
        .flat_map(|p| b.iter().map(move |q| p.squares_to(*q)))
        .min()
        .unwrap_or(i32::MAX)
}

impl Occupancy {
    /// Puts `who` with footprint `footprint` on `anchor`, facing `facing`.
    pub fn place(
        &mut self,
        who: crate::ids::CombatantId,
        footprint: Footprint,
        anchor: Pos,
        facing: Direction,
    ) {
        self.set_squares(who, &footprint.squares(anchor, facing));
    }

    /// Distance in squares between the nearest squares of two combatants.
    pub fn squares_between(&self, a: crate::ids::CombatantId, b: crate::ids::CombatantId) -> i32 {
        let a: Vec<Pos> = self.squares_of(a).collect();
        let b: Vec<Pos> = self.squares_of(b).collect();
        squares_between(&a, &b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::CombatantId;
    use proptest::prelude::*;

    #[test]
    fn a_horse_lies_behind_its_anchor() {
        let horse = Footprint::new(1, 2).unwrap();
        let at = Pos::new(5, 5);
        assert_eq!(horse.squares(at, Direction::East), vec![at, Pos::new(4, 5)]);
        assert_eq!(
            horse.squares(at, Direction::North),
            vec![at, Pos::new(5, 6)]
        );
        assert_eq!(Footprint::ONE.squares(at, Direction::West), vec![at]);
        let big = Footprint::new(2, 2).unwrap();
        let mut squares = big.squares(at, Direction::South);
        squares.sort();
        assert_eq!(
            squares,
            vec![
                Pos::new(4, 4),
                Pos::new(4, 5),
                Pos::new(5, 4),
                Pos::new(5, 5)
            ]
        );
        assert_eq!(
            Footprint::new(0, 2),
            Err(FootprintError::BadSize {
                width: 0,
                length: 2
            })
        );
        assert!(Footprint::new(MAX_SIDE + 1, 1).is_err());
    }

    #[test]
    fn the_index_holds_every_square_of_a_footprint() {
        // A rider and its horse: the horse covers two squares, the rider shares the front one.
        let mut index = Occupancy::new([Pos::new(0, 0), Pos::new(0, 0), Pos::new(3, 0)]);
        let (rider, horse, foe) = (CombatantId(0), CombatantId(1), CombatantId(2));
        index.place(
            horse,
            Footprint::new(1, 2).unwrap(),
            Pos::new(0, 0),
            Direction::West,
        );
        assert_eq!(
            index.squares_of(horse).collect::<Vec<_>>(),
            vec![Pos::new(0, 0), Pos::new(1, 0)]
        );
        assert_eq!(index.first_at(Pos::new(1, 0), |_| true), Some(horse));
        assert_eq!(index.first_at(Pos::new(0, 0), |_| true), Some(rider));
        assert_eq!(
            index.squares_between(horse, foe),
            2,
            "from the horse's rear square"
        );
        assert_eq!(index.squares_between(rider, foe), 3);
        // Turned to face east, the horse's rear is now on the other side.
        index.place(
            horse,
            Footprint::new(1, 2).unwrap(),
            Pos::new(0, 0),
            Direction::East,
        );
        assert!(!index.any_at(Pos::new(1, 0), |_| true));
        assert_eq!(index.first_at(Pos::new(-1, 0), |_| true), Some(horse));
        let near = index.nearest(Pos::new(-3, 0), i32::MAX, |w, _| (w == horse).then_some(()));
        assert_eq!(near.map(|n| (n.0, n.2)), Some((2, horse)));
    }

    proptest! {
        /// Footprints cover width × length distinct squares, anchor first, all within reach of
        /// the anchor; and the distance between two placed pieces is that of their nearest
        /// squares, whatever their size and facing, also through the index.
        #[test]
        fn footprints_and_distances(
            sizes in proptest::collection::vec((1u8..4, 1u8..4, 0usize..8, -20i32..20, -20i32..20), 2..40),
        ) {
            let mut index = Occupancy::new(sizes.iter().map(|_| Pos::new(0, 0)));
            let mut placed = Vec::new();
            for (i, &(w, l, f, x, y)) in sizes.iter().enumerate() {
                let fp = Footprint::new(w, l).unwrap();
                let squares = fp.squares(Pos::new(x, y), Direction::ALL[f]);
                prop_assert_eq!(squares[0], Pos::new(x, y));
                let mut distinct = squares.clone();
                distinct.sort();
                distinct.dedup();
                prop_assert_eq!(distinct.len(), fp.area());
                prop_assert!(squares.iter().all(|s| s.squares_to(Pos::new(x, y)) < i32::from(w.max(l))));
                index.place(CombatantId(i as u16), fp, Pos::new(x, y), Direction::ALL[f]);
                placed.push(squares);
            }
            for (i, a) in placed.iter().enumerate() {
                for (j, b) in placed.iter().enumerate() {
                    let direct = a.iter().flat_map(|p| b.iter().map(move |q| p.squares_to(*q))).min().unwrap();
                    prop_assert_eq!(squares_between(a, b), direct);
                    prop_assert_eq!(index.squares_between(CombatantId(i as u16), CombatantId(j as u16)), direct);
                }
                // Every square of every piece is found in the index.
                for s in a {
                    prop_assert!(index.any_at(*s, |w| w == CombatantId(i as u16)));
                }
            }
        }
    }
}
