//! C&C sums its modifiers with the shared accumulator (`fray_core::modifiers`).

pub use fray_core::modifiers::Modifiers as Mods;
