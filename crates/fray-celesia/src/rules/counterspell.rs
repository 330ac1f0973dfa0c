//! Counterspell (CEL-R15): a reaction of the Provoke subtype against a foe's spell as its
//! casting begins.
//!
//! Adopted readings (the seed says only "Counterspelling an opponent's spell requires a
//! reaction", subtype Provoke; docs/celesia.md, *Spells and 1-round actions*): only a foe that
//! has just identified the spell (CEL-R14) may counter it, with the same spell, which it knows
//! and has a slot of its level for, with the caster within that spell's range (a personal
//! spell: any distance); it is asked (a choice, never a guess); it spends its reaction and a
//! slot of that level; as a Provoke reaction it draws attacks of opportunity first (the seed's
//! chain of reactions), and if it is still up the spell is countered with no roll (the seed
//! gives no check): the caster's acts and slot stay spent. A counterspeller that is disabled
//! takes 1 damage for the reaction (CEL-R17.2, `injury::strain`, as for an attack of
//! opportunity or a readied action), after it, whether or not the attacks of opportunity let
//! it counter.

use super::{injury, legal, one_round, round, spell};
use crate::choice::Choice;
use crate::spell::{Range, Spell};
use crate::state::{Asking, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::Interrupt;
use fray_core::{CombatantId, Table};

/// Whether `reactor` (a foe, `spell_identify::foes_reacting`) can counter `caster`'s `spell`
/// now: a reaction left, still up, not performing a 1-round action, the same spell known with a
/// slot for it, the caster within its range. [CEL-R15, R3.7]
fn can_counter(state: &State, reactor: CombatantId, caster: CombatantId, sp: &Spell) -> bool {
    state.f(reactor).reactions > 0
        && state.up(reactor)
        && !one_round::performing(state, reactor)
        && state
            .p(reactor)
            .magic
            .spells
            .iter()
            .any(|s| s.name == sp.name)
        && spell::has_slot(state, reactor, sp.level)
        && match sp.range {
            Range::Personal => true,
            Range::Touch => state.gap(reactor, caster) <= 1,
            Range::Feet(ft) => state.feet_between(reactor, caster) <= ft,
        }
}

/// Each foe in `identified` (initiative order) that can counter `caster`'s `sp` is asked; the
/// first that does spends its reaction and a slot, provokes, and, still up, counters the spell;
/// one dropped by the attacks of opportunity counters nothing, and the next foe is asked.
/// Returns whether the spell was countered. [CEL-R15 Counterspell]
pub fn offer(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    caster: CombatantId,
    sp: &Spell,
    identified: &[CombatantId],
) -> Result<bool, Interrupt> {
    for reactor in super::spell_identify::foes_reacting(state, caster, identified) {
        if !can_counter(state, reactor, caster, sp) {
            continue;
        }
        let spell = state
            .spellbook
            .iter()
            .position(|s| s.name == sp.name)
            .map_or(u8::MAX, |i| i.min(usize::from(u8::MAX)) as u8);
        let asking = Asking::Counterspell {
            reactor,
            caster,
            spell,
        };
        if legal::ask(state, table, asking, "CEL-R15")? != Choice::Counterspell(caster) {
            table.emit(|| Event::Forgone {
                who: reactor,
                what: "counterspell",
                on: Some(caster),
                reason: "declined".into(),
                rule: "CEL-R15",
            });
            continue;
        }
        state.fm(reactor).reactions -= 1;
        spell::spend_slot(state, table, reactor, sp.level);
        table.emit(|| Event::Acted {
            who: reactor,
            act: "counterspells",
            on: Some(caster),
            detail: format!("{} (level {}), a reaction", sp.name, sp.level),
            rule: "CEL-R15",
        });
        let countered = round::provoke(state, table, reactor, None)? && state.up(reactor);
        if countered {
            table.emit(|| Event::Forgone {
                who: caster,
                what: "spell",
                on: None,
                reason: format!("{} is countered by {}", sp.name, state.roster.name(reactor)),
                rule: "CEL-R15",
            });
        }
        // CEL-R17.2: a reaction used while disabled deals 1 damage, after it, as an act's does.
        injury::strain(state, table, reactor, 1);
        if countered {
            return Ok(true);
        }
    }
    Ok(false)
}
