//! The board: what the shared geometry needs to know of a fight's combatants (side, square,
//! up, blocks), and the helpers every ruleset uses on top of it — free squares, the nearest
//! foe, and who has won.
//!
//! *Blocking* is each ruleset's to define, explicitly: in C&C a fallen body still fills its
//! square (only the dead are cleared away), in Spelljammer only combatants still up block.

use crate::grid::Pos;
use crate::ids::{CombatantId, SideId};
use crate::ruleset::Outcome;

/// One combatant as the shared geometry sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// Its side.
    pub side: SideId,
    /// Its square.
    pub square: Pos,
    /// Still able to fight (counts for the outcome; a foe worth approaching).
    pub stands: bool,
    /// Fills its square, so that nobody else may end a move there.
    pub blocks: bool,
}

impl Piece {
    /// A piece.
    pub fn new(side: SideId, square: Pos, stands: bool, blocks: bool) -> Self {
        Piece {
            side,
            square,
            stands,
            blocks,
        }
    }
}

/// A fight's combatants as the shared geometry sees them (indices in roster order).
pub trait Board {
    /// How many combatants.
    fn combatant_count(&self) -> usize;
    /// One combatant.
    fn piece(&self, who: CombatantId) -> Piece;

    /// A combatant's side.
    fn side_of(&self, who: CombatantId) -> SideId {
        self.piece(who).side
    }
    /// A combatant's square.
    fn square_of(&self, who: CombatantId) -> Pos {
        self.piece(who).square
    }
    /// Still able to fight.
    fn stands(&self, who: CombatantId) -> bool {
        self.piece(who).stands
    }
    /// Fills its square.
    fn blocks(&self, who: CombatantId) -> bool {
        self.piece(who).blocks
    }

    /// Is `pos` free of blocking combatants other than `except`?
    fn square_free(&self, pos: Pos, except: CombatantId) -> bool {
        (0..self.combatant_count() as u16).all(|i| {
            let p = self.piece(CombatantId(i));
            CombatantId(i) == except || !p.blocks || p.square != pos
        })
    }

    /// The standing foe of `who` nearest to it (ties: lowest id).
    fn nearest_foe(&self, who: CombatantId) -> Option<CombatantId> {
        let me = self.piece(who);
        let mut best: Option<(i32, CombatantId)> = None;
        for i in 0..self.combatant_count() as u16 {
            let p = self.piece(CombatantId(i));
            if p.side != me.side && p.stands {
                let d = p.square.squares_to(me.square);
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, CombatantId(i)));
                }
            }
        }
        best.map(|(_, id)| id)
    }

    /// Over when at most one side has anyone standing.
    fn outcome_by_side(&self) -> Outcome {
        let mut standing: Option<SideId> = None;
        for i in 0..self.combatant_count() as u16 {
            let p = self.piece(CombatantId(i));
            if p.stands {
                match standing {
                    None => standing = Some(p.side),
                    Some(s) if s != p.side => return Outcome::Ongoing,
                    Some(_) => {}
                }
            }
        }
        match standing {
            Some(side) => Outcome::Won(side),
            None => Outcome::NoneStanding,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (side, square, stands, blocks) per combatant.
    struct Toy(Vec<(u8, Pos, bool, bool)>);

    impl Board for Toy {
        fn combatant_count(&self) -> usize {
            self.0.len()
        }
        fn piece(&self, who: CombatantId) -> Piece {
            let (side, square, stands, blocks) = self.0[who.index()];
            Piece {
                side: SideId(side),
                square,
                stands,
                blocks,
            }
        }
    }

    #[test]
    fn free_squares_nearest_foes_and_outcomes() {
        let p = Pos::new;
        let board = Toy(vec![
            (0, p(0, 0), true, true),
            (1, p(3, 0), true, true),
            (1, p(1, 0), false, true),
            (1, p(2, 2), false, false),
        ]);
        assert!(
            !board.square_free(p(1, 0), CombatantId(0)),
            "a fallen body that blocks"
        );
        assert!(
            board.square_free(p(2, 2), CombatantId(0)),
            "a body that does not block"
        );
        assert!(
            board.square_free(p(0, 0), CombatantId(0)),
            "one's own square"
        );
        assert_eq!(board.nearest_foe(CombatantId(0)), Some(CombatantId(1)));
        assert_eq!(board.outcome_by_side(), Outcome::Ongoing);
        let won = Toy(vec![(0, p(0, 0), true, true), (1, p(1, 0), false, true)]);
        assert_eq!(won.outcome_by_side(), Outcome::Won(SideId(0)));
        let none = Toy(vec![(0, p(0, 0), false, true)]);
        assert_eq!(none.outcome_by_side(), Outcome::NoneStanding);
    }
}
