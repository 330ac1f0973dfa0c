//! Prepare Spell Components or a Spell Focus (CEL-R14, free: "While casting a spell, you
//! prepare a material spell component or a spell focus. If this component or spell focus is
//! particularly large or unwieldy, your GM might rule that this instead takes a simple action,
//! or even an advanced action"). A spell with a material component or focus (`material` or
//! `focus` in spells.toml) prepares it as part of every casting by its caster, at no cost; the
//! GM's `prepare_components = { SPELL = "simple" | "advanced" }` (CEL-G3) makes it 1 act or 2
//! (an advanced action is a standard one, CEL-A27), added to the casting's acts (Cast, Spell
//! Combat, Spellstrike, a readied cast). A spell cast from an item prepares nothing (its
//! caster is the item). Adopted readings: the free preparation is part of the casting and is
//! not counted against the GM's free-action limit (CEL-G2); a 1-round spell's casting takes
//! the round (CEL-R3.7), so the GM's ruling is refused for one at load.

use crate::choice::Choice;
use crate::spell::Spell;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::{CombatantId, Table};

/// The words of `prepare_components` and the acts each costs. [CEL-R14, CEL-G3, CEL-A27]
/// The most spells the GM's `prepare_components` may name (a limit of fray's).
pub const MAX_RULINGS: usize = 64;

pub const RULINGS: [(&str, u8); 3] = [("free", 0), ("simple", 1), ("advanced", 2)];

/// The acts preparing `spell`'s component or focus takes, by the GM's ruling (0: free).
pub fn acts_for(state: &State, spell: &Spell) -> i32 {
    if !spell.material {
        return 0;
    }
    state
        .options
        .prepare_components
        .iter()
        .find(|(name, _)| *name == spell.name)
        .map_or(0, |(_, acts)| i32::from(*acts))
}

/// The acts a casting choice adds for its component (Cast, Spell Combat, Spellstrike).
pub fn extra_acts(state: &State, choice: &Choice) -> i32 {
    let ix = match *choice {
        Choice::Cast(i, ..)
        | Choice::SpellCombat(_, _, i, ..)
        | Choice::Spellstrike(_, _, i, _) => i,
        _ => return 0,
    };
    state
        .spellbook
        .get(usize::from(ix))
        .map_or(0, |s| acts_for(state, s))
}

/// Logs the preparation the GM made an action of, as the casting begins. [CEL-R14, CEL-G3]
pub fn prepare(state: &State, table: &mut Table<'_, Celesia>, who: CombatantId, spell: &Spell) {
    let acts = acts_for(state, spell);
    if acts == 0 {
        return;
    }
    table.emit(|| Event::Acted {
        who,
        act: "prepares a spell component",
        on: None,
        detail: format!(
            "{}: {} (the GM's ruling), {acts} act{} of the casting's",
            spell.name,
            if acts == 1 {
                "a simple action"
            } else {
                "an advanced action (a standard action, CEL-A27)"
            },
            if acts == 1 { "" } else { "s" }
        ),
        rule: "CEL-G3",
    });
}
