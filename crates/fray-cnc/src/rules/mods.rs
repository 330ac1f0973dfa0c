//! A list of named modifiers and their sum. In the simulator's hot path (no events kept) only the
//! sum is kept, so building modifiers costs no allocation and no copying.

use fray_core::event::Modifier;

/// Named modifiers (when recording) and their sum.
#[derive(Debug, Clone, Default)]
pub struct Mods {
    total: i32,
    list: Option<Vec<Modifier>>,
    sum_only: bool,
}

impl Mods {
    /// Keeps the names when `record` is set (for events), else only the sum.
    pub fn recording(record: bool) -> Self {
        Mods {
            total: 0,
            list: None,
            sum_only: !record,
        }
    }

    /// Adds a modifier (zero values are skipped).
    pub fn add(&mut self, label: &'static str, rule: &'static str, value: i32) {
        if value == 0 {
            return;
        }
        self.total += value;
        if !self.sum_only {
            self.list
                .get_or_insert_with(Vec::new)
                .push(Modifier::new(label, rule, value));
        }
    }

    /// The sum.
    pub fn total(&self) -> i32 {
        self.total
    }

    /// The named modifiers (empty when only the sum is kept).
    pub fn as_slice(&self) -> &[Modifier] {
        self.list.as_deref().unwrap_or(&[])
    }

    /// The named modifiers, owned (for events).
    pub fn to_vec(&self) -> Vec<Modifier> {
        self.as_slice().to_vec()
    }
}
