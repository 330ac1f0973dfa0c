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
    /// Who plays its members unless a member says otherwise (`[[sides]] player`).
    pub controller: Controller,
}

/// Who controls a combatant: the game master, or a named player (`player = "alice"`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Default)]
#[serde(rename_all = "snake_case", tag = "kind", content = "name")]
pub enum Controller {
    /// The GM (the default).
    #[default]
    Gm,
    /// A player, by name (an id: `alice`).
    Player(String),
}

impl Controller {
    /// True for the GM.
    pub fn is_gm(&self) -> bool {
        matches!(self, Controller::Gm)
    }
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
    /// The `[[combatants]]` entry it came from (its `id`: `orc` for `orc-1` … `orc-3`), which
    /// groups it with the others of that entry (e.g. initiative "per group of foes").
    pub group: String,
    /// Who controls it.
    pub controller: Controller,
    /// Held in reserve at the start (`reserve = true`): off the map until the GM's `add`.
    pub reserve: bool,
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
    /// The combatant's group (the `[[combatants]]` entry it came from).
    pub fn group(&self, id: CombatantId) -> &str {
        &self.combatants[id.index()].group
    }
    /// Who controls the combatant.
    pub fn controller(&self, id: CombatantId) -> &Controller {
        &self.combatants[id.index()].controller
    }
    /// The members of a group, in roster order.
    pub fn group_members<'a>(&'a self, group: &'a str) -> impl Iterator<Item = CombatantId> + 'a {
        self.ids().filter(move |id| self.group(*id) == group)
    }
    /// All combatant ids in roster order.
    pub fn ids(&self) -> impl Iterator<Item = CombatantId> + '_ {
        (0..self.combatants.len()).map(|i| CombatantId(i as u16))
    }
}
