//! Identify a Spell Being Cast (CEL-R14): a free action, taken even off one's own turn, with
//! the Spellcraft skill, as a foe's casting begins and before the spell takes effect.
//!
//! Adopted readings (the seed says only "You use Spellcraft to identify a spell being cast";
//! docs/celesia.md, *Spells and 1-round actions*): only a combatant whose entry gives a
//! `spellcraft` bonus tries (the seed has no skill table); it tries on every casting by a foe
//! while it is up (the action is free and costs nothing, so taking it decides nothing else);
//! the DC is the parent game's 15 + the spell's level (the seed gives none); the result is
//! logged to everyone (fray's fights have no hidden spells).

use super::CheckKind;
use crate::spell::Spell;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::Interrupt;
use fray_core::{CombatantId, Table};

/// CEL-R14 Identify a Spell Being Cast: the DC, 15 + the spell's level (adopted: the parent
/// game's number; the seed gives none).
pub fn dc(spell: &Spell) -> i32 {
    15 + spell.level
}

/// Each foe of `caster` that is up and has a `spellcraft` bonus tries, in initiative order, to
/// identify `spell` as its casting begins; returns those who did. [CEL-R14]
pub fn attempts(
    state: &State,
    table: &mut Table<'_, Celesia>,
    caster: CombatantId,
    spell: &Spell,
) -> Result<Vec<CombatantId>, Interrupt> {
    let mut knew = Vec::new();
    for o in state.order.clone() {
        if o == caster || !state.enemies(o, caster) || !state.up(o) {
            continue;
        }
        let Some(bonus) = state.p(o).gm_said.spellcraft else {
            continue;
        };
        let identified = super::D20Check {
            purpose: "identify a spell being cast",
            modifier: "Spellcraft",
            bonus,
            dc: dc(spell),
            kind: CheckKind::Skill { physical: false },
            results: ("identified", "not identified"),
            rule: "CEL-R14",
        }
        .roll(state, table, o)?;
        if identified {
            table.emit(|| Event::Acted {
                who: o,
                act: "identifies the spell being cast by",
                on: Some(caster),
                detail: format!("{} (level {})", spell.name, spell.level),
                rule: "CEL-R14",
            });
            knew.push(o);
        }
    }
    Ok(knew)
}
