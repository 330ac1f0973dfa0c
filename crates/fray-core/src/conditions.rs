//! Conditions with durations: per combatant, a small list of timed conditions — each with the
//! moment it ends (the start or end of a round, or of a given combatant's turn), its source and
//! its magnitude — and one [`Conditions::expire`] that ends what is due at a moment and emits
//! the events.

use crate::event::Event;
use crate::ids::CombatantId;
use crate::ruleset::Ruleset;
use crate::runner::Table;
use serde::Serialize;

/// A moment of the fight at which conditions can end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Moment {
    /// The start of a round.
    StartOfRound(u32),
    /// The start of a combatant's turn in a round.
    StartOfTurn(CombatantId, u32),
    /// The end of a combatant's turn in a round.
    EndOfTurn(CombatantId, u32),
    /// The end of a round.
    EndOfRound(u32),
}

impl Moment {
    /// The round, and the place within it (start of round, turns, end of round), for ordering.
    fn order(self) -> (u32, u8) {
        match self {
            Moment::StartOfRound(r) => (r, 0),
            Moment::StartOfTurn(_, r) => (r, 1),
            Moment::EndOfTurn(_, r) => (r, 2),
            Moment::EndOfRound(r) => (r, 3),
        }
    }
}

/// When a condition ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Expiry {
    /// At the end of the given round.
    EndOfRound(u32),
    /// At the start of the given round.
    StartOfRound(u32),
    /// At the start of `who`'s turn in `round` (or the end of that round if `who` has no turn).
    StartOfTurn {
        /// Whose turn.
        who: CombatantId,
        /// In which round.
        round: u32,
    },
    /// At the end of `who`'s turn in `round` (or the end of that round if `who` has no turn).
    EndOfTurn {
        /// Whose turn.
        who: CombatantId,
        /// In which round.
        round: u32,
    },
    /// Until removed by a rule.
    Indefinite,
}

impl Expiry {
    /// Whether the condition ends at `moment` (or has ended already).
    pub fn due(self, moment: Moment) -> bool {
        let passed = |r: u32, place: u8| (r, place) <= moment.order();
        match self {
            Expiry::Indefinite => false,
            Expiry::StartOfRound(r) => passed(r, 0),
            Expiry::EndOfRound(r) => passed(r, 3),
            Expiry::StartOfTurn { who, round } => match moment {
                Moment::StartOfTurn(w, r) | Moment::EndOfTurn(w, r) if w == who => round <= r,
                // A turn that never came (the combatant was down or skipped) ends with its round.
                _ => passed(round, 3),
            },
            Expiry::EndOfTurn { who, round } => match moment {
                Moment::EndOfTurn(w, r) if w == who => round <= r,
                Moment::StartOfTurn(w, r) if w == who => round < r,
                _ => passed(round, 3),
            },
        }
    }

    /// The latest moment it can last to, for comparing durations (`Indefinite` is last).
    fn horizon(self) -> (u32, u8) {
        match self {
            Expiry::StartOfRound(r) => (r, 0),
            Expiry::StartOfTurn { round, .. } => (round, 1),
            Expiry::EndOfTurn { round, .. } => (round, 2),
            Expiry::EndOfRound(r) => (r, 3),
            Expiry::Indefinite => (u32::MAX, u8::MAX),
        }
    }
}

/// A kind of condition with a small index (below 64), so that presence is a bit test.
pub trait ConditionKind: Copy + PartialEq {
    /// A distinct index below 64.
    fn bit(self) -> u32;
    /// Its name in events (`prone`).
    fn key(self) -> &'static str;
    /// The rule it comes from.
    fn rule(self) -> &'static str;
    /// True when its end is not worth a line of the log (an announcement made for one round).
    fn ends_quietly(self) -> bool {
        false
    }
}

/// One condition on a combatant: what, until when, from whom, how strong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Timed<K> {
    /// The condition.
    pub kind: K,
    /// When it ends.
    pub expiry: Expiry,
    /// Who or what caused it, if a combatant (the foe being evaded, the grappler…).
    pub source: Option<CombatantId>,
    /// Its size where it has one (an AC penalty, a number of attacks…); 0 when it has none.
    pub magnitude: i32,
}

impl<K> Timed<K> {
    /// A condition with no source or magnitude.
    pub fn new(kind: K, expiry: Expiry) -> Self {
        Timed {
            kind,
            expiry,
            source: None,
            magnitude: 0,
        }
    }

    /// The same, caused by `source`.
    pub fn from(mut self, source: CombatantId) -> Self {
        self.source = Some(source);
        self
    }

    /// The same, of `magnitude`.
    pub fn of(mut self, magnitude: i32) -> Self {
        self.magnitude = magnitude;
        self
    }
}

/// What [`Conditions::add`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    /// The condition is new.
    New,
    /// It was present; it now lasts longer (and takes the new source and magnitude).
    Extended,
    /// It was present and lasts at least as long already: its duration is kept, never
    /// shortened (the new source and magnitude are taken).
    Kept,
}

/// A set of conditions of kind `K`, each timed. Presence tests are a bit test; the entries live
/// in a small list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Conditions<K> {
    mask: u64,
    entries: Vec<Timed<K>>,
}

impl<K> Default for Conditions<K> {
    fn default() -> Self {
        Conditions {
            mask: 0,
            entries: Vec::new(),
        }
    }
}

impl<K: ConditionKind> Conditions<K> {
    fn recompute(&mut self) {
        self.mask = self
            .entries
            .iter()
            .fold(0, |m, t| m | 1u64 << (t.kind.bit() & 63));
    }

    /// True when the condition is present.
    pub fn has(&self, kind: K) -> bool {
        self.mask & (1u64 << (kind.bit() & 63)) != 0
    }

    /// True when no condition is present.
    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }

    /// The condition's entry, if present.
    pub fn get(&self, kind: K) -> Option<&Timed<K>> {
        if !self.has(kind) {
            return None;
        }
        self.entries.iter().find(|t| t.kind == kind)
    }

    /// Adds a condition until `expiry` (see [`Conditions::add_timed`]).
    pub fn add(&mut self, kind: K, expiry: Expiry) -> Added {
        self.add_timed(Timed::new(kind, expiry))
    }

    /// Adds a condition. One already present keeps the longer of its two durations: adding
    /// never shortens a condition (remove it first to shorten it).
    pub fn add_timed(&mut self, timed: Timed<K>) -> Added {
        if let Some(entry) = self.entries.iter_mut().find(|t| t.kind == timed.kind) {
            entry.source = timed.source;
            entry.magnitude = timed.magnitude;
            if timed.expiry.horizon() > entry.expiry.horizon() {
                entry.expiry = timed.expiry;
                Added::Extended
            } else {
                Added::Kept
            }
        } else {
            self.entries.push(timed);
            self.recompute();
            Added::New
        }
    }

    /// Removes a condition. Returns true if it was present.
    pub fn remove(&mut self, kind: K) -> bool {
        let before = self.entries.len();
        self.entries.retain(|t| t.kind != kind);
        self.recompute();
        before != self.entries.len()
    }

    /// Ends every condition due at `moment`, calling `on_expire` for each, in the order they
    /// were added.
    pub fn expire_each(&mut self, moment: Moment, mut on_expire: impl FnMut(&Timed<K>)) {
        if self.mask == 0 {
            return;
        }
        self.entries.retain(|t| {
            let gone = t.expiry.due(moment);
            if gone {
                on_expire(t);
            }
            !gone
        });
        self.recompute();
    }

    /// Ends every condition of `who` due at `moment` and emits a [`Event::Condition`] (lost)
    /// for each, except those that end quietly.
    pub fn expire<R: Ruleset>(
        &mut self,
        who: CombatantId,
        moment: Moment,
        table: &mut Table<'_, R>,
    ) {
        self.expire_each(moment, |t| {
            if !t.kind.ends_quietly() {
                let kind = t.kind;
                table.emit(|| Event::Condition {
                    who,
                    condition: kind.key(),
                    gained: false,
                    rule: kind.rule(),
                });
            }
        });
    }

    /// Iterates over the present conditions.
    pub fn iter(&self) -> impl Iterator<Item = K> + '_ {
        self.entries.iter().map(|t| t.kind)
    }

    /// Iterates over the present conditions with their timing.
    pub fn timed(&self) -> impl Iterator<Item = &Timed<K>> + '_ {
        self.entries.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl ConditionKind for &'static str {
        fn bit(self) -> u32 {
            self.len() as u32
        }
        fn key(self) -> &'static str {
            self
        }
        fn rule(self) -> &'static str {
            "TEST"
        }
    }

    const UNA: CombatantId = CombatantId(0);
    const ORC: CombatantId = CombatantId(1);

    #[test]
    fn conditions_expire_at_their_round() {
        let mut c = Conditions::default();
        assert_eq!(c.add("prone", Expiry::EndOfRound(2)), Added::New);
        assert_eq!(c.add("held", Expiry::Indefinite), Added::New);
        assert_eq!(c.add("prone", Expiry::EndOfRound(3)), Added::Extended);
        let mut gone = vec![];
        c.expire_each(Moment::EndOfRound(2), |t| gone.push(t.kind));
        assert!(gone.is_empty());
        c.expire_each(Moment::EndOfRound(3), |t| gone.push(t.kind));
        assert_eq!(gone, vec!["prone"]);
        assert!(c.has("held") && !c.has("prone"));
        assert!(c.remove("held"));
        assert!(!c.remove("held"));
    }

    #[test]
    fn adding_never_shortens_a_duration() {
        let mut c = Conditions::default();
        c.add("stunned", Expiry::EndOfRound(4));
        assert_eq!(
            c.add_timed(Timed::new("stunned", Expiry::EndOfRound(2)).of(3)),
            Added::Kept
        );
        let kept = c.get("stunned").copied().unwrap();
        assert_eq!(kept.expiry, Expiry::EndOfRound(4));
        assert_eq!(kept.magnitude, 3);
        assert_eq!(c.add("stunned", Expiry::Indefinite), Added::Extended);
        assert_eq!(c.add("stunned", Expiry::EndOfRound(9)), Added::Kept);
    }

    #[test]
    fn turn_expiries_end_at_their_combatants_turn() {
        let mut c = Conditions::default();
        c.add_timed(
            Timed::new("dazed", Expiry::StartOfTurn { who: UNA, round: 2 })
                .from(ORC)
                .of(-2),
        );
        c.add("guarded", Expiry::EndOfTurn { who: UNA, round: 2 });
        let mut gone = vec![];
        // Another combatant's turn, and Una's turn of round 1, end nothing.
        c.expire_each(Moment::StartOfTurn(ORC, 2), |t| gone.push(t.kind));
        c.expire_each(Moment::EndOfTurn(UNA, 1), |t| gone.push(t.kind));
        assert!(gone.is_empty());
        assert_eq!(c.get("dazed").unwrap().source, Some(ORC));
        c.expire_each(Moment::StartOfTurn(UNA, 2), |t| gone.push(t.kind));
        assert_eq!(gone, vec!["dazed"]);
        c.expire_each(Moment::EndOfTurn(UNA, 2), |t| gone.push(t.kind));
        assert_eq!(gone, vec!["dazed", "guarded"]);
    }

    #[test]
    fn a_turn_that_never_comes_ends_with_its_round() {
        let mut c = Conditions::default();
        c.add("dazed", Expiry::StartOfTurn { who: UNA, round: 1 });
        let mut gone = vec![];
        c.expire_each(Moment::StartOfRound(1), |t| gone.push(t.kind));
        assert!(gone.is_empty());
        c.expire_each(Moment::EndOfRound(1), |t| gone.push(t.kind));
        assert_eq!(gone, vec!["dazed"]);
    }

    #[test]
    fn round_moments_are_ordered_within_a_round() {
        assert!(Expiry::StartOfRound(2).due(Moment::StartOfRound(2)));
        assert!(!Expiry::EndOfRound(2).due(Moment::StartOfRound(2)));
        assert!(!Expiry::EndOfRound(2).due(Moment::EndOfTurn(UNA, 2)));
        assert!(Expiry::EndOfRound(2).due(Moment::StartOfRound(3)));
        assert!(!Expiry::Indefinite.due(Moment::EndOfRound(u32::MAX)));
    }
}
