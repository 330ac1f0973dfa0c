//! Test-only encounter builder: the sides and combatants of a unit test's fight, written as an
//! encounter file and loaded through the real loader (so every fixture is a valid file and the
//! tests see the state a fight would start from). Sides are declared in the order their first
//! combatant names them; combatant ids follow the order they are added.

use crate::content::Content;
use crate::state::State;
use std::fmt::Write;

/// A fighter 3 with a longsword and 30 hp: the usual hero of a unit test.
pub const FIGHTER: &str = "class = \"fighter\"\nlevel = 3\nhp = 30\nweapon = \"longsword\"";

/// An encounter being built.
#[derive(Debug, Clone, Default)]
pub struct Fixture {
    sides: Vec<String>,
    combatants: String,
}

impl Fixture {
    /// No sides, no combatants.
    pub fn new() -> Fixture {
        Fixture::default()
    }

    /// Adds combatant `id` of `side` at `at`, with its other keys as TOML lines
    /// (`class = "fighter"`, `monster = "orc"`, …).
    pub fn with(mut self, id: &str, side: &str, at: [i32; 2], keys: &str) -> Fixture {
        if !self.sides.iter().any(|s| s == side) {
            self.sides.push(side.to_string());
        }
        let _ = write!(
            self.combatants,
            "[[combatants]]\nid = \"{id}\"\nside = \"{side}\"\nat = [{}, {}]\n{keys}\n",
            at[0], at[1]
        );
        self
    }

    /// Adds a creature from the content (`monster = NAME`).
    pub fn monster(self, id: &str, side: &str, at: [i32; 2], monster: &str) -> Fixture {
        self.with(id, side, at, &format!("monster = \"{monster}\""))
    }

    /// The encounter file.
    pub fn text(&self) -> String {
        let mut text = String::from("schema = 1\nruleset = \"celesia\"\nname = \"test\"\n");
        for side in &self.sides {
            let _ = writeln!(text, "[[sides]]\nid = \"{side}\"");
        }
        text + &self.combatants
    }

    /// The fight's state before it begins.
    pub fn state(&self) -> State {
        let content = Content::embedded().expect("content");
        crate::encounter::load("t.toml", &self.text(), &content)
            .unwrap_or_else(|e| panic!("{e}\n{}", self.text()))
            .state
    }
}
