//! Conditions with durations: a small list of `(condition, expiry)` pairs per combatant.

use serde::Serialize;

/// When a condition ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Expiry {
    /// At the end of the given round.
    EndOfRound(u32),
    /// At the start of the given round.
    StartOfRound(u32),
    /// Until removed by a rule.
    Indefinite,
}

/// A kind of condition with a small index (below 64), so that presence is a bit test.
pub trait ConditionKind: Copy + PartialEq {
    /// A distinct index below 64.
    fn bit(self) -> u32;
}

/// A set of conditions of kind `K`, each with an expiry. Presence tests are a bit test; the
/// expiries live in a small list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Conditions<K> {
    mask: u64,
    entries: Vec<(K, Expiry)>,
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
            .fold(0, |m, (k, _)| m | 1u64 << (k.bit() & 63));
    }

    /// True when the condition is present.
    pub fn has(&self, kind: K) -> bool {
        self.mask & (1u64 << (kind.bit() & 63)) != 0
    }

    /// True when no condition is present.
    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }

    /// Adds (or replaces the expiry of) a condition. Returns true if it was new.
    pub fn add(&mut self, kind: K, expiry: Expiry) -> bool {
        if let Some(entry) = self.entries.iter_mut().find(|(k, _)| *k == kind) {
            entry.1 = expiry;
            false
        } else {
            self.entries.push((kind, expiry));
            self.recompute();
            true
        }
    }

    /// Removes a condition. Returns true if it was present.
    pub fn remove(&mut self, kind: K) -> bool {
        let before = self.entries.len();
        self.entries.retain(|(k, _)| *k != kind);
        self.recompute();
        before != self.entries.len()
    }

    /// Removes every condition that expires at the end of `round`, calling `on_expire` for each.
    pub fn expire_end_of_round(&mut self, round: u32, mut on_expire: impl FnMut(K)) {
        if self.mask == 0 {
            return;
        }
        self.entries.retain(|(k, e)| {
            let gone = matches!(e, Expiry::EndOfRound(r) if *r <= round);
            if gone {
                on_expire(*k);
            }
            !gone
        });
        self.recompute();
    }

    /// Removes every condition that expires at the start of `round`.
    pub fn expire_start_of_round(&mut self, round: u32, mut on_expire: impl FnMut(K)) {
        self.entries.retain(|(k, e)| {
            let gone = matches!(e, Expiry::StartOfRound(r) if *r <= round);
            if gone {
                on_expire(*k);
            }
            !gone
        });
        self.recompute();
    }

    /// Iterates over the present conditions.
    pub fn iter(&self) -> impl Iterator<Item = K> + '_ {
        self.entries.iter().map(|(k, _)| *k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl ConditionKind for &'static str {
        fn bit(self) -> u32 {
            self.len() as u32
        }
    }

    #[test]
    fn conditions_expire_at_their_round() {
        let mut c = Conditions::default();
        assert!(c.add("prone", Expiry::EndOfRound(2)));
        assert!(c.add("held", Expiry::Indefinite));
        assert!(!c.add("prone", Expiry::EndOfRound(3)));
        let mut gone = vec![];
        c.expire_end_of_round(2, |k| gone.push(k));
        assert!(gone.is_empty());
        c.expire_end_of_round(3, |k| gone.push(k));
        assert_eq!(gone, vec!["prone"]);
        assert!(c.has("held") && !c.has("prone"));
        assert!(c.remove("held"));
        assert!(!c.remove("held"));
    }
}
