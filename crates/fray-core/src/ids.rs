//! Small copyable identifiers for combatants and sides (indices into the [`crate::Roster`]).

use serde::Serialize;

/// Index of a combatant in its fight's roster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct CombatantId(pub u16);

/// Index of a side in its fight's roster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Default)]
pub struct SideId(pub u8);

impl CombatantId {
    /// The index as `usize`, for slices.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl SideId {
    /// The index as `usize`, for slices.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
