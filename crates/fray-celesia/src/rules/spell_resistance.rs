//! Spell resistance (CEL-R9 Lower or Reactivate Spell Resistance: "You lower any spell
//! resistance that is active, or reactivate a spell resistance that has been lowered."). The
//! seed names spell resistance and defines no check: fray plays Pathfinder's (CEL-A34, the seed
//! defers to its parent system): a spell that allows it (`spell_resistance = true` in
//! spells.toml) affects a creature with spell resistance (`spell_resistance = N` on its
//! encounter entry) only if the caster's caster level check, d20 + caster level, is at least N;
//! else it has no effect on that creature (each creature of an area alone). The check comes
//! after a touch spell's attack roll hits and before any save; its margin gives no degree
//! (CEL-R6 gives degrees to attack rolls and saves only), and it uses the caster level before
//! CEL-R6.3's change. A creature's own spells never meet its own spell resistance
//! (Pathfinder's). Lowered, it lets every spell through until reactivated (the seed's words;
//! not Pathfinder's "until your next turn"). A foe's number is the GM's: the check's event goes
//! to the resisting creature's side only, the outcome to everyone.

use crate::choice::Choice;
use crate::spell::Spell;
use crate::state::State;
use crate::Celesia;
use fray_core::event::{Event, Modifier, Subject};
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

const RULE: &str = "CEL-R9";

/// Whether `spell` cast by `caster` must overcome `t`'s spell resistance: the spell allows it,
/// `t` has some, active, and `t` is not the caster. [CEL-R9]
pub fn applies(state: &State, caster: CombatantId, t: CombatantId, spell: &Spell) -> bool {
    spell.spell_resistance
        && caster != t
        && state.p(t).spell_resistance > 0
        && !state.f(t).sr_lowered
}

/// The caster level check against `t`'s spell resistance, where it applies: whether the spell
/// goes through (true where no spell resistance applies). Failed, the spell has no effect on
/// `t`. [CEL-R9; Pathfinder's caster level check, CEL-A34]
pub fn overcome(
    state: &State,
    table: &mut Table<'_, Celesia>,
    caster: CombatantId,
    t: CombatantId,
    spell: &Spell,
    caster_level: i32,
) -> Result<bool, Interrupt> {
    if !applies(state, caster, t, spell) {
        return Ok(true);
    }
    let sr = state.p(t).spell_resistance;
    // A caster level check is a check: the caster's conditions give it disadvantage (CEL-R4.5).
    let (roll, dice) =
        super::roll_check_die(state, table, caster, super::CheckKind::Ability, RULE)?;
    let total = roll as i32 + caster_level;
    let through = total >= sr;
    table.emit(|| Event::Check {
        // The resisting creature's side (and the GM) see its number, as a foe's DV is kept.
        who: Subject::Combatant(t),
        purpose: "spell resistance",
        dice,
        roll,
        modifiers: vec![Modifier::new("caster level", "", caster_level)],
        total,
        against: "SR",
        target: sr,
        under: false,
        success: Some(through),
        result: format!(
            "{}'s {} {}",
            state.roster.name(caster),
            spell.name,
            if through {
                "gets through"
            } else {
                "is resisted"
            }
        ),
        rule: RULE,
    });
    if through {
        table.emit(|| Event::Acted {
            who: caster,
            act: "overcomes the spell resistance of",
            on: Some(t),
            detail: format!(
                "{}: caster level check {total} (d20 {roll} + caster level {caster_level})",
                spell.name
            ),
            rule: RULE,
        });
    } else {
        table.emit(|| Event::Forgone {
            who: caster,
            what: "spell",
            on: Some(t),
            reason: format!(
                "{} has no effect: its spell resistance holds against the caster level check \
                 {total} (d20 {roll} + caster level {caster_level})",
                spell.name
            ),
            rule: RULE,
        });
    }
    Ok(through)
}

/// The Lower or Reactivate Spell Resistance option of `who`, if it has spell resistance.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if state.p(who).spell_resistance > 0 {
        out.push(Choice::SpellResistance(!state.f(who).sr_lowered));
    }
}

/// Whether `who` may lower (`lower`) or reactivate its spell resistance now. [CEL-R9]
pub fn check(explain: bool, state: &State, who: CombatantId, lower: bool) -> Result<(), Illegal> {
    if state.p(who).spell_resistance == 0 {
        return no(explain, RULE, || {
            "it has no spell resistance (an entry's `spell_resistance`)".to_string()
        });
    }
    match (state.f(who).sr_lowered, lower) {
        (true, true) => no(explain, RULE, || {
            "its spell resistance is lowered already: `spell-resistance reactivate`".to_string()
        }),
        (false, false) => no(explain, RULE, || {
            "its spell resistance is active: only a lowered one is reactivated".to_string()
        }),
        _ => Ok(()),
    }
}

/// Lowers or reactivates it: a simple action that provokes nothing (the table's "no"). [CEL-R9]
pub fn lower_or_reactivate(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    lower: bool,
) {
    state.fm(who).sr_lowered = lower;
    table.emit(|| Event::Acted {
        who,
        act: if lower {
            "lowers its spell resistance"
        } else {
            "reactivates its spell resistance"
        },
        on: None,
        detail: if lower {
            "spells get through until it reactivates it".into()
        } else {
            "spells must overcome it again".into()
        },
        rule: RULE,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    fn duel(sr: &str) -> State {
        Fixture::new()
            .with("hero", "heroes", [0, 0], FIGHTER)
            .with("orc", "orcs", [2, 0], &format!("monster = \"orc\"\n{sr}"))
            .state()
    }

    fn spell(name: &str) -> Spell {
        let content = crate::content::Content::embedded().expect("content");
        content.spells.get(name).cloned().expect("a sample spell")
    }

    /// CEL-R9: spell resistance applies to a spell that allows it, against a creature with
    /// some that has not lowered it, never to the caster's own spell on itself.
    #[test]
    fn spell_resistance_applies_until_lowered() {
        let (hero, orc) = (CombatantId(0), CombatantId(1));
        let mut s = duel("spell_resistance = 11");
        assert_eq!(s.p(orc).spell_resistance, 11);
        let fireball = spell("fireball");
        let glitterdust = spell("glitterdust");
        assert!(applies(&s, hero, orc, &fireball));
        assert!(!applies(&s, hero, orc, &glitterdust), "glitterdust: SR no");
        assert!(!applies(&s, orc, orc, &fireball), "its own spell");
        assert!(!applies(&s, orc, hero, &fireball), "the hero has none");
        let offered = |s: &State| {
            let mut out = Vec::new();
            options(s, orc, &mut out);
            out
        };
        assert_eq!(offered(&s), vec![Choice::SpellResistance(true)]);
        assert!(check(false, &s, orc, true).is_ok());
        assert!(check(false, &s, orc, false).is_err());
        assert!(check(false, &s, hero, true).is_err(), "no spell resistance");
        s.fm(orc).sr_lowered = true;
        assert!(
            !applies(&s, hero, orc, &fireball),
            "lowered: it gets through"
        );
        assert_eq!(offered(&s), vec![Choice::SpellResistance(false)]);
        assert!(check(false, &s, orc, true).is_err());
        assert!(check(false, &s, orc, false).is_ok());
        let mut none = Vec::new();
        options(&s, hero, &mut none);
        assert!(none.is_empty());
    }
}
