//! A caster's lasting spells and the actions on them: Dismiss a Spell (CEL-R9, simple, no
//! provocation: "You dismiss the effects of a dismissible spell"), Concentrate to Maintain an
//! Active Spell (CEL-R11, standard, no provocation) and Cease Concentrating on a Spell (CEL-R14,
//! free). The caster keeps a record of each dismissible or concentration spell's effect on each
//! creature it affects (`Fighter::lasting`); one casting is every record with the same round
//! and act clock. A concentration spell lasts while its caster concentrates: cast, it holds
//! through the caster's next turn; each later turn the caster takes Concentrate or the spell
//! ends as that turn ends (`end_of_turn`; a caster whose turn never comes loses it with the
//! round, through the effect's own end).
//!
//! Adopted readings (the seed says only the lines above): a caster dismisses, concentrates on
//! or ceases only its own spells; one action ends or holds one casting (the one that affects
//! WHO, or every casting of the spell when no WHO is named); a record whose effect has gone
//! (ended, or overwritten by another caster's same condition: one entry per condition and
//! cause, CEL-A5) is dropped and ends nothing.

use crate::choice::Choice;
use crate::spell::{Duration, Penalized, Spell};
use crate::state::{Caused, State};
use crate::Celesia;
use fray_core::conditions::{ConditionKind, Expiry, Timed};
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal};
use fray_core::{CombatantId, Table};

/// What a lasting spell left on a creature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lasts {
    /// A condition of the advantage table.
    Condition(Caused),
    /// An ability penalty.
    Penalty(Penalized),
    /// The spell's weapon, attacking the creature (`rules::spell_weapon`). [CEL-R9]
    Weapon,
}

/// One creature's lasting effect of a dismissible or concentration spell, kept by its caster.
/// [CEL-R9, R11, R14]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lasting {
    /// The spell's place in `State::spellbook`.
    pub spell: u8,
    /// The creature it affects.
    pub target: CombatantId,
    /// What it left there.
    pub effect: Lasts,
    /// The casting: the round and the caster's act clock when it took effect.
    pub cast: (u32, u32),
    /// The last round the caster concentrated on it (the round cast, at first).
    pub held: u32,
}

/// The end of a concentration spell's effect while unheld: the end of the caster's next turn
/// (a turn that never comes ends it with its round). [CEL-R11]
pub fn held_until(state: &State, caster: CombatantId) -> Expiry {
    Expiry::EndOfTurn {
        who: caster,
        round: state.round.saturating_add(1),
    }
}

/// Keeps the caster's record of `spell`'s effect on `t` when the spell is dismissible or lasts
/// while concentrated on (any other spell ends by itself). Records whose effect has gone are
/// dropped first, so the list holds at most one record per creature, spell and casting alive.
pub fn record(
    state: &mut State,
    caster: CombatantId,
    spell: &Spell,
    t: CombatantId,
    effect: Lasts,
) {
    if !spell.dismissible && spell.duration != Duration::Concentration {
        return;
    }
    let Some(ix) = state.spellbook.iter().position(|s| s.name == spell.name) else {
        return;
    };
    prune(state, caster);
    let (round, clock) = (state.round, state.f(caster).act_clock);
    let entry = Lasting {
        spell: ix.min(usize::from(u8::MAX)) as u8,
        target: t,
        effect,
        cast: (round, clock),
        held: round,
    };
    let list = &mut state.fm(caster).lasting;
    list.retain(|l| !(l.target == t && l.effect == effect));
    list.push(entry);
}

/// Whether the record's effect is still the caster's on its creature.
fn live(state: &State, caster: CombatantId, l: &Lasting) -> bool {
    let f = state.f(l.target);
    match l.effect {
        Lasts::Condition(c) => f.tricks.get(c).is_some_and(|t| t.source == Some(caster)),
        Lasts::Penalty(p) => f.drained.get(p).is_some_and(|t| t.source == Some(caster)),
        Lasts::Weapon => super::spell_weapon::of(state, caster).is_some_and(|g| g.cast == l.cast),
    }
}

/// Drops the caster's records whose effect has gone.
fn prune(state: &mut State, caster: CombatantId) {
    if state.f(caster).lasting.is_empty() {
        return;
    }
    let kept: Vec<Lasting> = state
        .f(caster)
        .lasting
        .iter()
        .filter(|l| live(state, caster, l))
        .copied()
        .collect();
    state.fm(caster).lasting = kept;
}

/// The castings of spell `ix` by `caster` with an effect alive: the one affecting `on`, or
/// all of them when `on` is `None`.
fn castings(
    state: &State,
    caster: CombatantId,
    ix: u8,
    on: Option<CombatantId>,
) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for l in &state.f(caster).lasting {
        if l.spell == ix
            && on.is_none_or(|t| t == l.target)
            && live(state, caster, l)
            && !out.contains(&l.cast)
        {
            out.push(l.cast);
        }
    }
    out
}

/// Dismiss, Concentrate and Cease for each casting of `who` alive, named by the first creature
/// it affects (only legal ones are kept by the caller).
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    let mut seen: Vec<(u8, (u32, u32))> = Vec::new();
    for l in &state.f(who).lasting {
        if seen.contains(&(l.spell, l.cast)) || !live(state, who, l) {
            continue;
        }
        seen.push((l.spell, l.cast));
        let on = Some(l.target);
        out.extend([
            Choice::Dismiss(l.spell, on),
            Choice::Concentrate(l.spell, on),
            Choice::Cease(l.spell, on),
        ]);
    }
}

/// Whether `who` may dismiss, concentrate on or cease `choice`'s spell: the spell is
/// dismissible (Dismiss, CEL-R9) or lasts while concentrated on (Concentrate, CEL-R11; Cease,
/// CEL-R14), it has an effect of it alive (on WHO when named), and (Concentrate) it has not
/// concentrated on that casting this turn.
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let (ix, on, rule) = match *choice {
        Choice::Dismiss(ix, on) => (ix, on, "CEL-R9"),
        Choice::Concentrate(ix, on) => (ix, on, "CEL-R11"),
        Choice::Cease(ix, on) => (ix, on, "CEL-R14"),
        _ => return Ok(()),
    };
    let Some(spell) = state.spellbook.get(usize::from(ix)) else {
        return no(explain, rule, || "no such spell".to_string());
    };
    match choice {
        Choice::Dismiss(..) if !spell.dismissible => {
            return no(explain, rule, || {
                format!(
                    "{} is not dismissible: Dismiss a Spell ends \"the effects of a dismissible \
                     spell\"",
                    spell.name
                )
            })
        }
        Choice::Concentrate(..) | Choice::Cease(..)
            if spell.duration != Duration::Concentration =>
        {
            return no(explain, rule, || {
                format!(
                    "{} does not last while its caster concentrates: there is nothing to {}",
                    spell.name,
                    if rule == "CEL-R11" {
                        "maintain"
                    } else {
                        "cease"
                    }
                )
            })
        }
        _ => {}
    }
    let alive = castings(state, who, ix, on);
    if alive.is_empty() {
        return no(explain, rule, || {
            format!(
                "it has no lasting effect of {} it cast{} (a caster ends or maintains only its \
                 own spells)",
                spell.name,
                on.map_or(String::new(), |t| format!(" on {}", state.roster.key(t)))
            )
        });
    }
    if matches!(choice, Choice::Concentrate(..)) {
        let round = state.round;
        let unheld = state
            .f(who)
            .lasting
            .iter()
            .any(|l| l.spell == ix && alive.contains(&l.cast) && l.held < round);
        return Illegal::unless(unheld, explain, rule, || {
            format!(
                "it already concentrates on {} this turn (cast or maintained)",
                spell.name
            )
        });
    }
    Ok(())
}

/// Dismisses or ceases the casting(s) of the choice's spell (each creature's effect ends), or
/// concentrates on them (they hold through its next turn). [CEL-R9, R11, R14]
pub fn perform(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    choice: Choice,
) {
    let (ix, on, act, rule) = match (choice, choice_on(choice)) {
        (Choice::Dismiss(ix, on), true) => (ix, on, "dismisses its spell on", "CEL-R9"),
        (Choice::Dismiss(ix, on), false) => (ix, on, "dismisses its spell", "CEL-R9"),
        (Choice::Concentrate(ix, on), true) => {
            (ix, on, "concentrates to maintain its spell on", "CEL-R11")
        }
        (Choice::Concentrate(ix, on), false) => {
            (ix, on, "concentrates to maintain its spell", "CEL-R11")
        }
        (Choice::Cease(ix, on), true) => {
            (ix, on, "ceases concentrating on its spell on", "CEL-R14")
        }
        (Choice::Cease(ix, on), false) => (ix, on, "ceases concentrating on its spell", "CEL-R14"),
        _ => return,
    };
    let name = state.spellbook[usize::from(ix)].name.clone();
    let alive = castings(state, who, ix, on);
    table.emit(|| Event::Acted {
        who,
        act,
        on,
        detail: name.clone(),
        rule,
    });
    if matches!(choice, Choice::Concentrate(..)) {
        let (round, until) = (state.round, held_until(state, who));
        let records: Vec<Lasting> = state.f(who).lasting.clone();
        for l in records
            .iter()
            .filter(|l| l.spell == ix && alive.contains(&l.cast))
        {
            hold(state, who, l, until);
        }
        for l in state.fm(who).lasting.iter_mut() {
            if l.spell == ix && alive.contains(&l.cast) {
                l.held = round;
            }
        }
        return;
    }
    let why = if rule == "CEL-R9" {
        "dismissed"
    } else {
        "its caster ceases concentrating"
    };
    end(
        state,
        table,
        who,
        |l| l.spell == ix && alive.contains(&l.cast),
        (why, rule),
    );
}

/// Whether the choice names the creature whose casting it means.
fn choice_on(choice: Choice) -> bool {
    matches!(
        choice,
        Choice::Dismiss(_, Some(_)) | Choice::Concentrate(_, Some(_)) | Choice::Cease(_, Some(_))
    )
}

/// The record's effect lasts to `until` (through the caster's next turn).
fn hold(state: &mut State, caster: CombatantId, l: &Lasting, until: Expiry) {
    let f = state.fm(l.target);
    match l.effect {
        Lasts::Condition(c) => {
            f.tricks.add_timed(Timed::new(c, until).from(caster));
        }
        Lasts::Penalty(p) => {
            let m = f.drained.get(p).map_or(0, |t| t.magnitude);
            f.drained.add_timed(Timed::new(p, until).from(caster).of(m));
        }
        // A spell's weapon lasts rounds, never while concentrated on (spells.toml refuses it).
        Lasts::Weapon => {}
    }
}

/// At the end of `caster`'s turn: each concentration spell it did not concentrate on this turn
/// (and did not cast this turn) ends. [CEL-R11 Concentrate to Maintain an Active Spell]
#[inline]
pub fn end_of_turn(state: &mut State, table: &mut Table<'_, Celesia>, caster: CombatantId) {
    // At every turn's end: this test inline in the caller, the rest out of line (issue 16).
    if state.f(caster).lasting.is_empty() {
        return;
    }
    end_concentration(state, table, caster);
}

/// [`end_of_turn`], for a caster with lasting effects.
#[inline(never)]
fn end_concentration(state: &mut State, table: &mut Table<'_, Celesia>, caster: CombatantId) {
    let round = state.round;
    let book = state.spellbook.clone();
    end(
        state,
        table,
        caster,
        |l| book[usize::from(l.spell)].duration == Duration::Concentration && l.held < round,
        ("its caster did not concentrate this turn", "CEL-R11"),
    );
}

/// Ends the caster's lasting effects whose record `which` picks, each logged with `why`.
fn end(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    caster: CombatantId,
    which: impl Fn(&Lasting) -> bool,
    (why, rule): (&'static str, &'static str),
) {
    prune(state, caster);
    let (gone, kept): (Vec<Lasting>, Vec<Lasting>) =
        state.f(caster).lasting.iter().partition(|l| which(l));
    state.fm(caster).lasting = kept;
    for l in gone {
        let t = l.target;
        let name = state.spellbook[usize::from(l.spell)].name.clone();
        match l.effect {
            Lasts::Condition(c) => {
                state.fm(t).tricks.remove(c);
                table.emit(|| Event::Condition {
                    who: t,
                    condition: ConditionKind::key(c),
                    gained: false,
                    rule,
                });
            }
            Lasts::Penalty(p) => {
                let before = (state.band(t), state.knocked_out(t), state.staggered(t));
                state.fm(t).drained.remove(p);
                super::spell::penalty_ended(state, table, t, p.ability);
                super::injury::settle(state, table, t, before);
            }
            Lasts::Weapon => {
                super::spell_weapon::end(state, table, caster, why);
                continue;
            }
        }
        table.emit(|| Event::Acted {
            who: t,
            act: "is rid of a spell",
            on: None,
            detail: format!("{name}: {why}"),
            rule,
        });
    }
}
