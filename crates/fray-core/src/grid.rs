//! The 5-foot square grid: positions, distance, adjacency, reach, facing (front/flank/rear) and the
//! line a missed missile travels.
//!
//! Distance is measured in feet as 5 × the Chebyshev distance (a diagonal step costs 5 ft like an
//! orthogonal one). Every ruleset shares this metric; see ARCHITECTURE.md.

use serde::{Deserialize, Serialize};

/// Feet per grid square.
pub const SQUARE_FT: i32 = 5;

/// A square on the grid (x grows east, y grows south).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

impl Pos {
    /// A position.
    pub const fn new(x: i32, y: i32) -> Self {
        Pos { x, y }
    }

    /// Distance in squares (Chebyshev).
    #[inline]
    pub fn squares_to(self, other: Pos) -> i32 {
        (self.x - other.x).abs().max((self.y - other.y).abs())
    }

    /// Distance in feet.
    #[inline]
    pub fn feet_to(self, other: Pos) -> i32 {
        self.squares_to(other) * SQUARE_FT
    }

    /// True when the squares touch (including diagonally) and differ.
    #[inline]
    pub fn is_adjacent(self, other: Pos) -> bool {
        self != other && self.squares_to(other) == 1
    }

    /// True when `other` is within `reach_ft` feet (a 5-ft reach covers adjacent squares).
    #[inline]
    pub fn within_reach(self, other: Pos, reach_ft: i32) -> bool {
        self != other && self.feet_to(other) <= reach_ft.max(SQUARE_FT)
    }

    /// The neighbouring square in a direction.
    pub fn step(self, dir: Direction) -> Pos {
        let (dx, dy) = dir.delta();
        Pos::new(self.x + dx, self.y + dy)
    }

    /// The direction from `self` towards `other` (rounded to one of eight), `None` if equal.
    pub fn direction_to(self, other: Pos) -> Option<Direction> {
        let (dx, dy) = (other.x - self.x, other.y - self.y);
        if dx == 0 && dy == 0 {
            return None;
        }
        // Octant of the angle, computed with integers: compare |dx| and |dy| against tan(22.5°) ≈ 5/12.
        let (ax, ay) = (dx.abs() as i64, dy.abs() as i64);
        let sx = dx.signum();
        let sy = dy.signum();
        let (ux, uy) = if ay * 12 <= ax * 5 {
            (sx, 0)
        } else if ax * 12 <= ay * 5 {
            (0, sy)
        } else {
            (sx, sy)
        };
        Direction::from_delta(ux, uy)
    }

    /// Squares on the straight line from `self` through `through` and beyond, up to `max_squares`
    /// from `self` (Bresenham, excluding `self`). Used for missiles that miss and fly on.
    pub fn line_through(self, through: Pos, max_squares: i32) -> Vec<Pos> {
        let (dx, dy) = (through.x - self.x, through.y - self.y);
        let steps = dx.abs().max(dy.abs());
        if steps == 0 {
            return Vec::new();
        }
        (1..=max_squares.max(0))
            .map(|i| self.point_on_line(through, i))
            .collect()
    }

    /// The `i`-th square (`i` ≥ 1) on the straight line from `self` through `through`
    /// (integer rounding, half away from zero). `self` if the two are equal.
    #[inline]
    pub fn point_on_line(self, through: Pos, i: i32) -> Pos {
        let (dx, dy) = (through.x - self.x, through.y - self.y);
        let steps = dx.abs().max(dy.abs());
        if steps == 0 {
            return self;
        }
        Pos::new(
            self.x + div_round(dx * i, steps),
            self.y + div_round(dy * i, steps),
        )
    }
}

#[inline]
fn div_round(num: i32, den: i32) -> i32 {
    let q = (2 * num.abs() + den) / (2 * den);
    if num < 0 {
        -q
    } else {
        q
    }
}

/// One of the eight compass directions a combatant can face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// y − 1
    North,
    /// x + 1, y − 1
    NorthEast,
    /// x + 1
    East,
    /// x + 1, y + 1
    SouthEast,
    /// y + 1
    South,
    /// x − 1, y + 1
    SouthWest,
    /// x − 1
    West,
    /// x − 1, y − 1
    NorthWest,
}

/// Where an attacker stands relative to the defender's facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Bearing {
    /// In front or to the side (the defender sees it).
    Front,
    /// Left-rear or right-rear.
    Flank,
    /// Directly behind.
    Rear,
}

impl Direction {
    /// All eight, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    fn index(self) -> i32 {
        // Declaration order is clockwise from north, matching `ALL`.
        self as i32
    }

    /// The unit step of this direction.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (0, -1),
            Direction::NorthEast => (1, -1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, 1),
            Direction::South => (0, 1),
            Direction::SouthWest => (-1, 1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, -1),
        }
    }

    /// The direction of a unit step.
    pub fn from_delta(dx: i32, dy: i32) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.delta() == (dx, dy))
    }

    /// Octants between two directions, 0..=4.
    pub fn octants_from(self, other: Direction) -> i32 {
        let d = (self.index() - other.index()).rem_euclid(8);
        d.min(8 - d)
    }

    /// Where a creature at `from` stands relative to a defender at `defender` facing `self`:
    /// within 2 octants of the facing is the front (sides included), 3 octants is a flank
    /// (left-rear or right-rear), 4 octants is the rear.
    pub fn bearing_of(self, defender: Pos, from: Pos) -> Bearing {
        match defender.direction_to(from) {
            None => Bearing::Front,
            Some(dir) => match dir.octants_from(self) {
                0..=2 => Bearing::Front,
                3 => Bearing::Flank,
                _ => Bearing::Rear,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_chebyshev_in_feet() {
        assert_eq!(Pos::new(0, 0).feet_to(Pos::new(3, 1)), 15);
        assert!(Pos::new(0, 0).is_adjacent(Pos::new(1, 1)));
        assert!(!Pos::new(0, 0).is_adjacent(Pos::new(2, 0)));
        assert!(Pos::new(0, 0).within_reach(Pos::new(2, 0), 10));
        assert!(!Pos::new(0, 0).within_reach(Pos::new(3, 0), 10));
    }

    #[test]
    fn bearings_follow_facing() {
        let d = Pos::new(5, 5);
        // Facing north: attacker to the north is in front, to the south is rear,
        // south-east and south-west are flanks, east is still front (side).
        assert_eq!(
            Direction::North.bearing_of(d, Pos::new(5, 4)),
            Bearing::Front
        );
        assert_eq!(
            Direction::North.bearing_of(d, Pos::new(6, 5)),
            Bearing::Front
        );
        assert_eq!(
            Direction::North.bearing_of(d, Pos::new(6, 6)),
            Bearing::Flank
        );
        assert_eq!(
            Direction::North.bearing_of(d, Pos::new(4, 6)),
            Bearing::Flank
        );
        assert_eq!(
            Direction::North.bearing_of(d, Pos::new(5, 6)),
            Bearing::Rear
        );
    }

    #[test]
    fn missile_line_continues_past_target() {
        let line = Pos::new(0, 0).line_through(Pos::new(2, 0), 4);
        assert_eq!(
            line,
            vec![
                Pos::new(1, 0),
                Pos::new(2, 0),
                Pos::new(3, 0),
                Pos::new(4, 0)
            ]
        );
        let diag = Pos::new(0, 0).line_through(Pos::new(2, 1), 4);
        assert_eq!(diag[1], Pos::new(2, 1));
        assert_eq!(diag[3], Pos::new(4, 2));
    }

    #[test]
    fn directions_round_to_octants() {
        let o = Pos::new(0, 0);
        assert_eq!(o.direction_to(Pos::new(5, 1)), Some(Direction::East));
        assert_eq!(o.direction_to(Pos::new(3, 3)), Some(Direction::SouthEast));
        assert_eq!(o.direction_to(Pos::new(-1, -4)), Some(Direction::North));
    }
}
