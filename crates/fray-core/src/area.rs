//! Areas: squares covered for a while by something that is not a combatant — burning oil
//! (OSR-R25.2: at most 2 rounds), a cloud, a grenade's splash (OSR-A48: the impact square and the
//! eight around it). A ruleset adds them, asks which cover a square, and expires them at the end
//! of a round.

use crate::grid::Pos;
use crate::ids::CombatantId;

/// Largest number of areas in play at once.
pub const MAX_AREAS: usize = 256;

/// An area that cannot be added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AreaError {
    /// An area of no squares.
    #[error("the area `{label}` covers no square")]
    Empty {
        /// Its label.
        label: String,
    },
    /// Too many areas at once.
    #[error("more than {MAX_AREAS} areas at once")]
    TooMany,
}

/// Squares covered until the end of a round.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Area {
    /// The squares it covers.
    pub squares: Vec<Pos>,
    /// The last round it lasts: it ends when that round ends.
    pub last_round: u32,
    /// Who made it, if anyone (the thrower of the oil, the caster of the cloud).
    pub source: Option<CombatantId>,
    /// What it is, in the game's words ("burning oil").
    pub label: String,
}

impl Area {
    /// The square `center` and every square within `radius` squares of it.
    pub fn around(center: Pos, radius: u8) -> Vec<Pos> {
        let r = i32::from(radius);
        (-r..=r)
            .flat_map(|dy| (-r..=r).map(move |dx| Pos::new(center.x + dx, center.y + dy)))
            .collect()
    }

    /// Does it cover `square`?
    pub fn covers(&self, square: Pos) -> bool {
        self.squares.contains(&square)
    }
}

/// The areas in play, in the order they were added.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Areas {
    areas: Vec<Area>,
}

impl Areas {
    /// Adds an area.
    pub fn add(&mut self, area: Area) -> Result<(), AreaError> {
        if area.squares.is_empty() {
            return Err(AreaError::Empty { label: area.label });
        }
        if self.areas.len() >= MAX_AREAS {
            return Err(AreaError::TooMany);
        }
        self.areas.push(area);
        Ok(())
    }

    /// The areas that cover `square`, in the order they were added.
    pub fn covering(&self, square: Pos) -> impl Iterator<Item = &Area> + '_ {
        self.areas.iter().filter(move |a| a.covers(square))
    }

    /// Every area in play.
    pub fn iter(&self) -> impl Iterator<Item = &Area> + '_ {
        self.areas.iter()
    }

    /// How many are in play.
    pub fn len(&self) -> usize {
        self.areas.len()
    }

    /// True when none is.
    pub fn is_empty(&self) -> bool {
        self.areas.is_empty()
    }

    /// At the end of `round`: removes the areas whose last round it was and returns them, in
    /// the order they were added (for the events that say so).
    pub fn expire_end_of_round(&mut self, round: u32) -> Vec<Area> {
        let (ended, kept): (Vec<Area>, Vec<Area>) =
            self.areas.drain(..).partition(|a| a.last_round <= round);
        self.areas = kept;
        ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn oil(at: Pos, last_round: u32) -> Area {
        Area {
            squares: vec![at],
            last_round,
            source: Some(CombatantId(0)),
            label: "burning oil".into(),
        }
    }

    #[test]
    fn burning_oil_lasts_two_rounds() {
        // OSR-R25.2: thrown in round 3, it burns in rounds 3 and 4.
        let mut areas = Areas::default();
        areas.add(oil(Pos::new(2, 2), 4)).unwrap();
        let cloud = Area {
            squares: Area::around(Pos::new(2, 2), 1),
            last_round: 10,
            source: None,
            label: "cloud".into(),
        };
        assert_eq!(cloud.squares.len(), 9);
        areas.add(cloud).unwrap();
        let labels = |areas: &Areas, p: Pos| {
            areas
                .covering(p)
                .map(|a| a.label.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(labels(&areas, Pos::new(2, 2)), ["burning oil", "cloud"]);
        assert_eq!(labels(&areas, Pos::new(3, 3)), ["cloud"]);
        assert!(labels(&areas, Pos::new(4, 4)).is_empty());
        assert!(areas.expire_end_of_round(3).is_empty());
        let ended = areas.expire_end_of_round(4);
        assert_eq!(ended.len(), 1);
        assert_eq!(ended[0].label, "burning oil");
        assert_eq!(labels(&areas, Pos::new(2, 2)), ["cloud"]);
        assert_eq!(
            areas.add(Area {
                squares: Vec::new(),
                last_round: 1,
                source: None,
                label: "nothing".into()
            }),
            Err(AreaError::Empty {
                label: "nothing".into()
            })
        );
    }

    proptest! {
        /// Expiring keeps exactly the areas whose last round is later, in order, and what
        /// covers a square is what a plain search of the kept areas finds.
        #[test]
        fn expiry_and_cover(
            added in proptest::collection::vec((-3i32..3, -3i32..3, 0u8..2, 1u32..6), 0..20),
            round in 0u32..7,
            probe in (-4i32..4, -4i32..4),
        ) {
            let mut areas = Areas::default();
            let all: Vec<Area> = added
                .iter()
                .enumerate()
                .map(|(i, &(x, y, r, last))| Area {
                    squares: Area::around(Pos::new(x, y), r),
                    last_round: last,
                    source: None,
                    label: format!("area {i}"),
                })
                .collect();
            for a in &all {
                areas.add(a.clone()).unwrap();
            }
            let ended = areas.expire_end_of_round(round);
            let expect_ended: Vec<&Area> = all.iter().filter(|a| a.last_round <= round).collect();
            let expect_kept: Vec<&Area> = all.iter().filter(|a| a.last_round > round).collect();
            prop_assert_eq!(ended.iter().collect::<Vec<_>>(), expect_ended);
            prop_assert_eq!(areas.iter().collect::<Vec<_>>(), expect_kept.clone());
            let p = Pos::new(probe.0, probe.1);
            let covering: Vec<&Area> = areas.covering(p).collect();
            let direct: Vec<&Area> = expect_kept
                .into_iter()
                .filter(|a| a.squares.iter().any(|s| (s.x - p.x).abs() + (s.y - p.y).abs() == 0))
                .collect();
            prop_assert_eq!(covering, direct);
        }
    }
}
