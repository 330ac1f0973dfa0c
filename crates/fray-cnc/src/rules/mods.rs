//! A fixed-capacity list of named modifiers (no allocation on the simulator's hot path).

use fray_core::event::Modifier;

/// Up to 16 named modifiers and their sum.
#[derive(Debug, Clone, Copy)]
pub struct Mods {
    items: [Modifier; 16],
    len: usize,
}

impl Default for Mods {
    fn default() -> Self {
        Mods {
            items: [Modifier::new("", "", 0); 16],
            len: 0,
        }
    }
}

impl Mods {
    /// Adds a modifier (zero values are skipped; beyond 16 they still count in the sum slot 15).
    pub fn add(&mut self, label: &'static str, rule: &'static str, value: i32) {
        if value == 0 {
            return;
        }
        if self.len < self.items.len() {
            self.items[self.len] = Modifier::new(label, rule, value);
            self.len += 1;
        } else {
            self.items[self.len - 1].value += value;
        }
    }

    /// The sum.
    pub fn total(&self) -> i32 {
        self.items[..self.len].iter().map(|m| m.value).sum()
    }

    /// The list.
    pub fn as_slice(&self) -> &[Modifier] {
        &self.items[..self.len]
    }

    /// The list, owned (for events).
    pub fn to_vec(&self) -> Vec<Modifier> {
        self.as_slice().to_vec()
    }

    /// True when a modifier with this label is present.
    pub fn has(&self, label: &str) -> bool {
        self.as_slice().iter().any(|m| m.label == label)
    }
}
