//! A distribution over distinct states: where the branches of an exact enumeration arrive,
//! each state kept once with the exact probability of all the branches that reach it.
//!
//! Two states are the same when they are equal (`Eq`): every ruleset's state derives
//! `PartialEq`, which compares every field (profiles behind an `Arc` included, by pointer
//! first), so equal states have the same future (rules are pure functions of the state and the
//! answers). Only indexes that are derived from compared fields and never change a result (the
//! occupancy index, compared by squares; C&C's `HoldsSeen`) may compare equal while their
//! layout differs: ARCHITECTURE.md keeps that invariant. `Hash` only buckets them (a ruleset's
//! `Hash` may skip fields; that costs comparisons, never soundness). The comparison costs one
//! `==` per state in the bucket, no text: the `Debug` text compared before cost about 14 µs a
//! branch on Spelljammer's duel.
//!
//! The fight programme ([`crate::fight_odds`]) adds a ruleset's canonical key of each state
//! that reaches a settled point, not the state itself ([`crate::Ruleset::odds_key`]: the state
//! with what no rule reads again forgotten, default the state itself), so states that differ
//! only in such fields (damage tallies, a dead combatant's hit points) are one entry here.

use num_rational::BigRational;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Most distinct states one step of an exact computation may hold by default.
pub const MAX_STATES: usize = 100_000;

/// Distinct states with their exact probabilities, in the order first reached (deterministic).
#[derive(Debug, Clone)]
pub struct Distinct<S> {
    states: Vec<(S, BigRational)>,
    /// Positions in `states` by the state's hash.
    index: HashMap<u64, Vec<usize>>,
    limit: usize,
    overflowed: bool,
}

impl<S: Clone + Eq + Hash> Distinct<S> {
    /// An empty distribution that holds at most `limit` distinct states.
    pub fn new(limit: usize) -> Self {
        Distinct {
            states: Vec::new(),
            index: HashMap::new(),
            limit,
            overflowed: false,
        }
    }

    /// Adds `probability` to `state` (a copy is kept the first time it is reached) and returns
    /// its position ([`Distinct::add_at`]). Past the limit a new state is not kept, `None` is
    /// returned and [`Distinct::overflowed`] turns true.
    pub fn add(&mut self, state: &S, probability: &BigRational) -> Option<usize> {
        let mut hasher = DefaultHasher::new();
        state.hash(&mut hasher);
        let bucket = self.index.entry(hasher.finish()).or_default();
        if let Some(&at) = bucket.iter().find(|&&at| self.states[at].0 == *state) {
            self.states[at].1 += probability;
            return Some(at);
        }
        if self.states.len() >= self.limit {
            self.overflowed = true;
            return None;
        }
        bucket.push(self.states.len());
        self.states.push((state.clone(), probability.clone()));
        Some(self.states.len() - 1)
    }

    /// Adds `probability` to the state at `position` (as [`Distinct::add`] returned it).
    pub fn add_at(&mut self, position: usize, probability: &BigRational) {
        self.states[position].1 += probability;
    }

    /// True when a state was refused for want of room: the distribution is incomplete.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The most distinct states it holds.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Number of distinct states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// No state at all.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Each state with its probability, in the order first reached.
    pub fn iter(&self) -> impl Iterator<Item = (&S, &BigRational)> {
        self.states.iter().map(|(s, p)| (s, p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn third() -> BigRational {
        BigRational::new(1.into(), 3.into())
    }

    #[test]
    fn equal_states_merge_and_different_ones_do_not() {
        let mut d = Distinct::new(10);
        d.add(&(1, "a"), &third());
        d.add(&(2, "a"), &third());
        d.add(&(1, "a"), &third());
        assert_eq!(d.len(), 2);
        let got: Vec<_> = d.iter().map(|(s, p)| (*s, p.clone())).collect();
        assert_eq!(got[0], ((1, "a"), BigRational::new(2.into(), 3.into())));
        assert_eq!(got[1], ((2, "a"), third()));
    }

    /// A hash that ignores a field (as OSR's state's does) only puts states in one bucket.
    #[derive(Debug, Clone, PartialEq, Eq)]
    struct Partial(u8, u8);
    impl Hash for Partial {
        fn hash<H: Hasher>(&self, h: &mut H) {
            self.0.hash(h);
        }
    }

    #[test]
    fn a_partial_hash_never_merges_different_states() {
        let mut d = Distinct::new(10);
        d.add(&Partial(1, 1), &third());
        d.add(&Partial(1, 2), &third());
        d.add(&Partial(1, 1), &third());
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn past_the_limit_new_states_are_refused_and_reported() {
        let mut d = Distinct::new(1);
        d.add(&1, &third());
        d.add(&1, &third());
        assert!(!d.overflowed());
        d.add(&2, &third());
        assert!(d.overflowed());
        assert_eq!(d.len(), 1);
    }
}
