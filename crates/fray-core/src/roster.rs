//! Who is in the fight: the names of sides and combatants, fixed for the whole fight.

use crate::ids::{CombatantId, SideId};
use serde::Serialize;

/// A side (party) of the fight.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct SideInfo {
    /// Key used in files, commands and the event log (e.g. `heroes`).
    pub key: String,
    /// Display name.
    pub name: String,
}

/// One combatant's identity.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct CombatantInfo {
    /// Key used in files, commands and the event log (e.g. `orc-3`).
    pub key: String,
    /// Display name (e.g. `Orc 3`).
    pub name: String,
    /// The side it fights for.
    pub side: SideId,
}

/// Names of every side and combatant; ids index into it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Roster {
    /// Sides in file order.
    pub sides: Vec<SideInfo>,
    /// Combatants in file order.
    pub combatants: Vec<CombatantInfo>,
}

impl Roster {
    /// The combatant's key (`orc-3`).
    pub fn key(&self, id: CombatantId) -> &str {
        &self.combatants[id.index()].key
    }
    /// The combatant's display name.
    pub fn name(&self, id: CombatantId) -> &str {
        &self.combatants[id.index()].name
    }
    /// The side's key.
    pub fn side_key(&self, id: SideId) -> &str {
        &self.sides[id.index()].key
    }
    /// The combatant's side.
    pub fn side_of(&self, id: CombatantId) -> SideId {
        self.combatants[id.index()].side
    }
    /// Finds a combatant by key.
    pub fn find(&self, key: &str) -> Option<CombatantId> {
        self.combatants
            .iter()
            .position(|c| c.key.eq_ignore_ascii_case(key))
            .map(|i| CombatantId(i as u16))
    }
    /// Finds a side by key.
    pub fn find_side(&self, key: &str) -> Option<SideId> {
        self.sides
            .iter()
            .position(|s| s.key == key)
            .map(|i| SideId(i as u8))
    }
    /// All combatant ids in roster order.
    pub fn ids(&self) -> impl Iterator<Item = CombatantId> + '_ {
        (0..self.combatants.len()).map(|i| CombatantId(i as u16))
    }
}
