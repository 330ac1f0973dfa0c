//! What the default tactics last found of a combatant's foes, kept for its next decision
//! (issue 16: a turn's second and third acts asked the same searches of a board that had not
//! moved; the bench's ranger shoots three times a turn and asked both every time):
//!
//! - that no foe up stands within the longest reach of anyone ([`FoeSight::nobody_in_reach`]),
//!   with the foes within it that were down;
//! - its nearest standing foe ([`FoeSight::nearest_foe`]), with the foes the search found
//!   fallen on the way — every foe nearer than the answer among them.
//!
//! Both searches read the squares of everyone (and the sizes of their spaces, which a rider
//! takes from its mount), the sides (which never change), who is up or stands, and the radius.
//! Squares and spaces change only through [`State::settle`] (every move, mounting,
//! dismounting), which forgets both ([`FoeSight::forget`]). With the same squares, an answer
//! stays the search's as long as the foes it found down are still down and the nearest foe
//! still stands: that is checked before it is given (a few bits, not the walk). So every
//! answer is the search's on the state as it is now. A copy of the state starts with nothing
//! kept; it takes no part in equality or hashing, since it never changes an answer.

use crate::state::State;
use fray_core::{Board, CombatantId};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The most combatants a fight may have for anything to be kept (one bit each in a word, with
/// the combatant, the answer and a mark beside them).
const MAX_COMBATANTS: usize = 48;

/// The answer field's "no foe" (the nearest search found nobody standing).
const NOBODY: u64 = 63;

/// The default tactics' last two foe searches, one combatant's each (issue 16). Each is one
/// word, read and written at once, since a state may be shared between threads (a session's
/// checkpoints): bits 0–47 the foes found down, 48–53 the combatant, 54–59 the answer (the
/// nearest foe, or the radius searched), bit 63 set when something is kept.
#[derive(Default)]
pub struct FoeSight {
    nearest: AtomicU64,
    unreached: AtomicU64,
}

/// A kept word for `who`: its foes found down and its answer.
fn pack(who: CombatantId, answer: u64, down: u64) -> u64 {
    1 << 63 | answer << 54 | (who.index() as u64) << 48 | down
}

/// The foes found down and the answer kept for `who`, if what is kept is `who`'s.
fn unpack(word: u64, who: CombatantId) -> Option<(u64, u64)> {
    (word >> 63 == 1 && (word >> 48) & 63 == who.index() as u64)
        .then_some((word & ((1 << 48) - 1), (word >> 54) & 63))
}

/// Whether anyone of the roster indices in `mask` passes `test`.
fn any_of(mask: u64, mut test: impl FnMut(CombatantId) -> bool) -> bool {
    let mut rest = mask;
    while rest != 0 {
        let i = rest.trailing_zeros();
        if test(CombatantId(i as u16)) {
            return true;
        }
        rest &= rest - 1;
    }
    false
}

impl FoeSight {
    /// True when it is known that no foe of `who` up stands within `radius` squares
    /// (`State::each_foe_within` would visit nobody): kept from the last search for `who`,
    /// with the same radius, and every foe it found down there still down.
    #[inline]
    pub fn nobody_in_reach(&self, state: &State, who: CombatantId, radius: i32) -> bool {
        let Some((down, r)) = unpack(self.unreached.load(Relaxed), who) else {
            return false;
        };
        r == radius as u64 && !any_of(down, |o| state.up(o))
    }

    /// Keeps that `State::each_foe_within` found no foe of `who` up within `radius`, the foes
    /// within it `down` (roster bits, `State::each_foe_within_noting_down`).
    pub fn note_nobody_in_reach(&self, state: &State, who: CombatantId, radius: i32, down: u64) {
        if state.fighters.len() <= MAX_COMBATANTS && (0..NOBODY as i32).contains(&radius) {
            self.unreached
                .store(pack(who, radius as u64, down), Relaxed);
        }
    }

    /// The standing foe of `who` nearest to it ([`Board::nearest_foe`]): kept from the last
    /// search for `who` while that foe still stands and those it found fallen are still down,
    /// else searched again (and kept).
    pub fn nearest_foe(&self, state: &State, who: CombatantId) -> Option<CombatantId> {
        if let Some((fallen, answer)) = unpack(self.nearest.load(Relaxed), who) {
            let nearest = (answer != NOBODY).then_some(CombatantId(answer as u16));
            if nearest.is_none_or(|t| state.stands(t)) && !any_of(fallen, |o| state.stands(o)) {
                return nearest;
            }
        }
        let (nearest, fallen) = state.nearest_foe_noting_fallen(who);
        if state.fighters.len() <= MAX_COMBATANTS {
            let answer = nearest.map_or(NOBODY, |t| t.index() as u64);
            self.nearest.store(pack(who, answer, fallen), Relaxed);
        }
        nearest
    }

    /// Forgets both (someone's squares changed).
    pub fn forget(&mut self) {
        *self.nearest.get_mut() = 0;
        *self.unreached.get_mut() = 0;
    }
}

impl Clone for FoeSight {
    fn clone(&self) -> Self {
        FoeSight::default()
    }
}

impl PartialEq for FoeSight {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for FoeSight {}

impl std::hash::Hash for FoeSight {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl std::fmt::Debug for FoeSight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FoeSight")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use fray_core::Pos;

    /// The nearest foe kept for a combatant is given only while the search would give it: a
    /// nearer foe that rises, the foe itself falling, anyone moving, another combatant asking,
    /// and a copy of the state each get the search's answer on the state as it is now (issue
    /// 16).
    #[test]
    fn a_kept_nearest_foe_holds_only_while_the_search_would_give_it() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [6, 0], "orc")
            .monster("gob", "orcs", [3, 0], "goblin")
            .state();
        let (hal, orc, gob) = (CombatantId(0), CombatantId(1), CombatantId(2));
        let sight = |s: &State, who| {
            let kept = s.foe_sight.nearest_foe(s, who);
            assert_eq!(kept, s.nearest_foe(who), "always the search's answer");
            kept
        };
        s.fm(gob).hp = -30;
        assert_eq!(
            sight(&s, hal),
            Some(orc),
            "the fallen goblin is passed over"
        );
        assert_ne!(s.foe_sight.nearest.load(Relaxed), 0, "kept");
        assert_eq!(sight(&s, hal), Some(orc));
        s.fm(gob).hp = 5;
        assert_eq!(sight(&s, hal), Some(gob), "the nearer goblin rose");
        s.fm(gob).hp = -30;
        assert_eq!(sight(&s, hal), Some(orc));
        s.fm(orc).hp = -30;
        assert_eq!(sight(&s, hal), None, "the orc fell: nobody stands");
        s.fm(orc).hp = 5;
        assert_eq!(sight(&s, hal), Some(orc), "it rose");
        assert_eq!(sight(&s, orc), Some(hal), "another's search");
        assert_eq!(sight(&s, hal), Some(orc));
        s.fm(gob).hp = 5;
        s.set_square(gob, Pos::new(9, 0));
        assert_eq!(s.foe_sight.nearest.load(Relaxed), 0, "a move forgets");
        assert_eq!(sight(&s, hal), Some(orc));
        s.set_square(gob, Pos::new(1, 1));
        assert_eq!(sight(&s, hal), Some(gob), "the goblin came nearer");
        assert_eq!(
            s.clone().foe_sight.nearest.load(Relaxed),
            0,
            "a copy keeps nothing"
        );
    }

    /// That no foe up stands in reach is kept with the foes found down there, for the same
    /// combatant and radius, while they stay down and nobody moves (issue 16).
    #[test]
    fn nobody_in_reach_holds_while_those_down_stay_down() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [1, 0], "orc")
            .monster("gob", "orcs", [6, 0], "goblin")
            .state();
        let (hal, orc, gob) = (CombatantId(0), CombatantId(1), CombatantId(2));
        let r = s.reach_squares;
        s.fm(orc).hp = -30;
        assert!(!s.foe_sight.nobody_in_reach(&s, hal, r), "nothing kept yet");
        let down = s.each_foe_within_noting_down(hal, r, |t| panic!("{t:?} is not up"));
        assert_eq!(down, 1 << orc.0, "the orc lies within reach");
        s.foe_sight.note_nobody_in_reach(&s, hal, r, down);
        assert!(s.foe_sight.nobody_in_reach(&s, hal, r));
        assert!(!s.foe_sight.nobody_in_reach(&s, gob, r), "another's");
        assert!(
            !s.foe_sight.nobody_in_reach(&s, hal, r + 1),
            "another radius"
        );
        s.fm(orc).hp = 5;
        assert!(!s.foe_sight.nobody_in_reach(&s, hal, r), "the orc rose");
        let mut seen = Vec::new();
        s.each_foe_within(hal, r, |t| seen.push(t));
        assert_eq!(seen, [orc]);
        s.fm(orc).hp = -30;
        assert!(s.foe_sight.nobody_in_reach(&s, hal, r));
        s.set_square(gob, Pos::new(5, 0));
        assert!(!s.foe_sight.nobody_in_reach(&s, hal, r), "a move forgets");
    }
}
