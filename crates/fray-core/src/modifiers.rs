//! The modifier accumulator every ruleset uses for a roll or a value: each modifier with its
//! label and rule, listed only when events are kept (the simulator only sums, allocating
//! nothing), zero values skipped.

use crate::event::Modifier;
use std::borrow::Cow;

/// Modifiers summed for one roll or value.
#[derive(Debug, Clone)]
pub struct Modifiers {
    total: i32,
    list: Vec<Modifier>,
    keep: bool,
}

impl Default for Modifiers {
    /// Keeps the list (nothing is lost unless the hot path asks for sums only).
    fn default() -> Self {
        Modifiers::recording(true)
    }
}

impl Modifiers {
    /// Keeps the list when `keep` is set (events are kept), else only the sum.
    pub fn recording(keep: bool) -> Self {
        Modifiers {
            total: 0,
            list: Vec::new(),
            keep,
        }
    }

    /// Adds a modifier (a zero value is skipped). The label is a fixed word (`"STR"`) or a
    /// text made at run time (a GM's reason); the latter is only built into the list when kept.
    pub fn add(&mut self, label: impl Into<Cow<'static, str>>, rule: &'static str, value: i32) {
        if value == 0 {
            return;
        }
        self.total += value;
        if self.keep {
            self.list.push(Modifier {
                label: label.into(),
                rule,
                value,
            });
        }
    }

    /// Adds a modifier whose label is costly to build: `label` runs only when the list is kept.
    pub fn add_with(&mut self, label: impl FnOnce() -> String, rule: &'static str, value: i32) {
        if value == 0 {
            return;
        }
        self.total += value;
        if self.keep {
            self.list.push(Modifier::owned(label(), rule, value));
        }
    }

    /// The sum.
    pub fn total(&self) -> i32 {
        self.total
    }

    /// Whether the list is kept.
    pub fn keeps_list(&self) -> bool {
        self.keep
    }

    /// The named modifiers (empty when only the sum is kept).
    pub fn as_slice(&self) -> &[Modifier] {
        &self.list
    }

    /// The named modifiers, owned (for events).
    pub fn to_vec(&self) -> Vec<Modifier> {
        self.list.clone()
    }

    /// The named modifiers, moved out (for events).
    pub fn into_vec(self) -> Vec<Modifier> {
        self.list
    }

    /// The named modifiers, taken out (the sum stays).
    pub fn take_list(&mut self) -> Vec<Modifier> {
        std::mem::take(&mut self.list)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_always_and_lists_only_when_kept() {
        let mut kept = Modifiers::recording(true);
        kept.add("STR", "R1", 2);
        kept.add("nothing", "R2", 0);
        kept.add_with(|| "GM: high ground".to_string(), "G4", 1);
        assert_eq!(kept.total(), 3);
        let labels: Vec<&str> = kept.as_slice().iter().map(|m| m.label.as_ref()).collect();
        assert_eq!(labels, ["STR", "GM: high ground"]);
        let mut summed = Modifiers::recording(false);
        summed.add("STR", "R1", 2);
        summed.add_with(|| unreachable!("not built when only summing"), "G4", 1);
        assert_eq!((summed.total(), summed.as_slice().len()), (3, 0));
    }
}
