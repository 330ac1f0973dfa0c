//! The board: what the shared geometry needs to know of a fight's combatants (side, square,
//! up, blocks), and the helpers every ruleset uses on top of it — free squares, the nearest
//! foe, and who has won.
//!
//! *Blocking* is each ruleset's to define, explicitly: in C&C a fallen body still fills its
//! square (only the dead are cleared away), in Spelljammer only combatants still up block.
//!
//! Every query goes through the fight's [`Occupancy`] index (which the ruleset keeps up to date
//! on every move), never through a scan of every combatant: a turn costs the same in a battle
//! of 12 as of 500.

use crate::grid::{Direction, Pos};
use crate::ids::{CombatantId, SideId};
use crate::occupancy::Occupancy;
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
    /// The occupancy index (it must agree with every piece's square).
    fn occupancy(&self) -> &Occupancy;

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
        !self
            .occupancy()
            .any_at(pos, |who| who != except && self.piece(who).blocks)
    }

    /// The standing foe of `who` nearest to it (ties: lowest id).
    fn nearest_foe(&self, who: CombatantId) -> Option<CombatantId> {
        let me = self.piece(who);
        self.occupancy()
            .nearest(me.square, i32::MAX, |other, _| {
                let p = self.piece(other);
                (p.side != me.side && p.stands).then_some(())
            })
            .map(|(_, (), id)| id)
    }

    /// Distance in squares from `at` to the nearest standing foe of `who`, if any.
    fn nearest_foe_distance(&self, who: CombatantId, at: Pos) -> Option<i32> {
        let side = self.piece(who).side;
        self.occupancy()
            .nearest(at, i32::MAX, |other, _| {
                let p = self.piece(other);
                (p.side != side && p.stands).then_some(())
            })
            .map(|(d, (), _)| d)
    }

    /// Which of the eight squares around `who` (in `Direction::ALL` order) are free.
    fn free_neighbours(&self, who: CombatantId) -> [bool; 8] {
        let from = self.piece(who).square;
        self.occupancy()
            .open_neighbours(from, |other| other != who && self.piece(other).blocks)
    }

    /// The free neighbouring square that brings `who` closest to `to` (ties: the straighter
    /// line, then the first direction clockwise from north), if any gets closer.
    fn step_toward(&self, who: CombatantId, to: Pos) -> Option<Pos> {
        let from = self.piece(who).square;
        let now = from.squares_to(to);
        let open = self.free_neighbours(who);
        let mut best: Option<(i32, i32, Pos)> = None;
        for (k, dir) in Direction::ALL.into_iter().enumerate() {
            let next = from.step(dir);
            if next == to || !open[k] {
                continue;
            }
            let d = next.squares_to(to);
            // Prefer the true (Euclidean) line as a tie-break so paths look straight.
            let dx = i64::from(next.x - to.x);
            let dy = i64::from(next.y - to.y);
            let e = (dx * dx + dy * dy).min(i64::from(i32::MAX)) as i32;
            if d < now && best.is_none_or(|(bd, be, _)| (d, e) < (bd, be)) {
                best = Some((d, e, next));
            }
        }
        best.map(|(_, _, p)| p)
    }

    /// The free neighbouring square that takes `who` farthest from its nearest standing foe, if
    /// any takes it farther.
    fn step_away(&self, who: CombatantId) -> Option<Pos> {
        let me = self.piece(who);
        let nearest = |at: Pos| self.nearest_foe_distance(who, at).unwrap_or(i32::MAX);
        let now = nearest(me.square);
        let open = self.free_neighbours(who);
        let mut best: Option<(i32, Pos)> = None;
        for (k, dir) in Direction::ALL.into_iter().enumerate() {
            let next = me.square.step(dir);
            if !open[k] {
                continue;
            }
            let d = nearest(next);
            if d > now && best.is_none_or(|(bd, _)| d > bd) {
                best = Some((d, next));
            }
        }
        best.map(|(_, p)| p)
    }

    /// The free square within `reach` squares of `target` that is nearest to `mover` (ties:
    /// the lowest square), from which `mover` can strike it; `None` if every such square is
    /// taken.
    fn strike_square(&self, mover: CombatantId, target: CombatantId, reach: i32) -> Option<Pos> {
        let (from, at) = (self.piece(mover).square, self.piece(target).square);
        let reach = reach.clamp(1, 64);
        let mut best: Option<(i32, Pos)> = None;
        for dx in -reach..=reach {
            for dy in -reach..=reach {
                let p = Pos::new(at.x + dx, at.y + dy);
                if p == at || !self.square_free(p, mover) {
                    continue;
                }
                let key = (p.squares_to(from), p);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// Where a push of up to `squares` in `dir` leaves `target`: it stops before a square that
    /// is not free.
    fn push_destination(&self, target: CombatantId, dir: Direction, squares: u32) -> Pos {
        let mut at = self.piece(target).square;
        for _ in 0..squares {
            let next = at.step(dir);
            if !self.square_free(next, target) {
                break;
            }
            at = next;
        }
        at
    }

    /// Where a combatant stands: up while it [`Board::stands`], else down. A ruleset with more
    /// than up and down (dead, or morale: fled, surrendered, captured) overrides it; it must be
    /// [`Standing::Up`](crate::Standing::Up) exactly when the piece stands.
    fn standing(&self, who: CombatantId) -> crate::Standing {
        if self.stands(who) {
            crate::Standing::Up
        } else {
            crate::Standing::Down
        }
    }

    /// Over when at most one side has anyone standing. The fight is won by rout
    /// ([`EndReason::Routed`](crate::EndReason::Routed)) when any combatant out of it fled,
    /// surrendered or was captured ([`Board::standing`]), else by beating the foes down.
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
        // Over: only now ask how the losers left (the hot path of an ongoing fight never does).
        let routed = (0..self.combatant_count() as u16).any(|i| {
            let who = CombatantId(i);
            debug_assert_eq!(self.standing(who).is_up(), self.stands(who), "{who:?}");
            Some(self.side_of(who)) != standing && self.standing(who).has_routed()
        });
        let reason = crate::EndReason::of_losers(routed);
        match standing {
            Some(side) => Outcome::Won(side, reason),
            None => Outcome::NoneStanding(reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EndReason, Standing};

    /// (side, square, stands, blocks) per combatant, and their index.
    struct Toy(Vec<(u8, Pos, bool, bool)>, Occupancy);

    /// A toy board of pieces (side, square, stands, blocks).
    fn toy(pieces: Vec<(u8, Pos, bool, bool)>) -> Toy {
        let index = Occupancy::new(pieces.iter().map(|p| p.1));
        Toy(pieces, index)
    }

    impl Board for Toy {
        fn occupancy(&self) -> &Occupancy {
            &self.1
        }
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
        let board = toy(vec![
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
        let won = toy(vec![(0, p(0, 0), true, true), (1, p(1, 0), false, true)]);
        assert_eq!(
            won.outcome_by_side(),
            Outcome::Won(SideId(0), EndReason::Defeated)
        );
        let none = toy(vec![(0, p(0, 0), false, true)]);
        assert_eq!(
            none.outcome_by_side(),
            Outcome::NoneStanding(EndReason::Defeated)
        );
    }

    /// A board whose pieces carry a full standing (a ruleset with morale).
    struct Morale(Vec<(u8, Standing)>, Occupancy);

    /// A morale board of pieces (side, standing), each on its own square of a row.
    fn morale(pieces: Vec<(u8, Standing)>) -> Morale {
        let index = Occupancy::new((0..pieces.len()).map(|i| Pos::new(i as i32, 0)));
        Morale(pieces, index)
    }

    impl Board for Morale {
        fn occupancy(&self) -> &Occupancy {
            &self.1
        }
        fn combatant_count(&self) -> usize {
            self.0.len()
        }
        fn piece(&self, who: CombatantId) -> Piece {
            let (side, standing) = self.0[who.index()];
            let square = Pos::new(i32::from(who.0), 0);
            Piece::new(SideId(side), square, standing.is_up(), standing.is_up())
        }
        fn standing(&self, who: CombatantId) -> Standing {
            self.0[who.index()].1
        }
    }

    #[test]
    fn a_fight_is_won_by_rout_when_a_foe_left_without_falling() {
        use Standing::{Captured, Dead, Down, Fled, Surrendered, Up};
        let won = |side| Outcome::Won(SideId(side), EndReason::Routed);
        // Every goblin fled.
        assert_eq!(
            morale(vec![(0, Up), (1, Fled), (1, Fled)]).outcome_by_side(),
            won(0)
        );
        // A mix where none fights: one dead, one surrendered, one captured.
        assert_eq!(
            morale(vec![(1, Dead), (0, Up), (1, Surrendered), (1, Captured)]).outcome_by_side(),
            won(0)
        );
        // All fell: a win by kill, even if one of the winners fled.
        assert_eq!(
            morale(vec![(0, Up), (0, Fled), (1, Dead), (1, Down)]).outcome_by_side(),
            Outcome::Won(SideId(0), EndReason::Defeated)
        );
        // One goblin still fights while the others fled: not over.
        assert_eq!(
            morale(vec![(0, Up), (1, Fled), (1, Up)]).outcome_by_side(),
            Outcome::Ongoing
        );
        // Nobody fights: one side dead, the other fled.
        assert_eq!(
            morale(vec![(0, Dead), (1, Fled)]).outcome_by_side(),
            Outcome::NoneStanding(EndReason::Routed)
        );
        assert_eq!(
            morale(vec![(0, Dead), (1, Down)]).outcome_by_side(),
            Outcome::NoneStanding(EndReason::Defeated)
        );
    }

    #[test]
    fn steps_toward_away_and_pushes() {
        let p = Pos::new;
        // A mover at the origin, a foe three squares east, a blocker on the square between.
        let board = toy(vec![
            (0, p(0, 0), true, true),
            (1, p(3, 0), true, true),
            (0, p(1, 0), true, true),
        ]);
        let me = CombatantId(0);
        let toward = board.step_toward(me, p(3, 0)).expect("a step");
        assert_eq!(toward.squares_to(p(3, 0)), 2, "closer");
        assert_ne!(toward, p(1, 0), "not onto the blocker");
        let away = board.step_away(me).expect("a step");
        assert_eq!(away.x, -1, "west, away from the foe");
        assert_eq!(
            board.push_destination(CombatantId(1), Direction::West, 2),
            p(2, 0)
        );
        assert_eq!(
            board.push_destination(CombatantId(1), Direction::East, 2),
            p(5, 0)
        );
    }
}
