//! Counter and Use an Immediate-Action Ability (CEL-R15, reactions): "You perform a Counter
//! maneuver that you have readied", and "You can use an ability that can be used as an
//! immediate action … This reaction's subtype varies on the description of the ability."
//! Both are the GM's data (`crate::initiator::Counter`) with one trigger, "a foe attacks you":
//! when a foe declares an attack on a combatant that knows one with a use left and has a
//! reaction, it is asked (`counter NAME` / `decline`) before the attack resolves; the counter
//! spends the reaction and a use (readied until used, fray's reading) and adds its bonus to
//! the DV against that attack. An immediate-action ability of the Provoke subtype then draws
//! the attacks of opportunity of the foes threatening it.

use super::legal;
use crate::choice::Choice;
use crate::state::{Asking, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// The counters `who` has a use left of, as places in the book.
fn readied(state: &State, who: CombatantId) -> impl Iterator<Item = u8> + '_ {
    state
        .maneuver_book
        .iter()
        .enumerate()
        .filter(move |(i, m)| {
            m.counter().is_some() && super::strike::uses_left(state, who, *i as u8) > 0
        })
        .map(|(i, _)| i as u8)
}

/// May `who` counter now: up, a reaction left, not in a 1-round action (CEL-R3.7), and a
/// counter readied.
fn can_counter(state: &State, who: CombatantId) -> bool {
    let f = state.f(who);
    state.p(who).known != 0
        && f.reactions > 0
        && f.one_round.is_none()
        && state.up(who)
        && readied(state, who).next().is_some()
}

/// The options of `Asking::Counter`: each readied counter, then `decline`. [CEL-R15]
pub fn options(state: &State, reactor: CombatantId, out: &mut Vec<Choice>) {
    out.extend(readied(state, reactor).map(Choice::Counter));
    out.push(Choice::Decline);
}

/// CEL-R15: `who` may use the counter at place `m`: it is a counter it knows with a use left.
pub fn check(explain: bool, state: &State, who: CombatantId, m: u8) -> Result<(), Illegal> {
    let entry = state.maneuver_book.get(usize::from(m));
    let name = entry.map_or("?", |e| e.name.as_str());
    if entry.and_then(|e| e.counter()).is_none() {
        return no(explain, "CEL-R15", || {
            format!("`{name}` is not a counter or an immediate-action ability")
        });
    }
    if !super::stance::knows(state, who, m) {
        return no(explain, "CEL-R15", || {
            format!("it does not know {name} (its entry's `maneuvers`)")
        });
    }
    Illegal::unless(
        super::strike::uses_left(state, who, m) > 0,
        explain,
        "CEL-R15",
        || format!("{name} is expended: no longer readied this fight"),
    )
}

/// CEL-R15: `attacker` declares the attack `choice`: its target, if it may counter
/// ([`can_counter`]), is asked first. Returns whether the attack can still be made (a counter
/// that provokes may have dropped the attacker, or its target).
#[inline]
pub fn before_attack(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    choice: &Choice,
) -> Result<bool, Interrupt> {
    // Before every action: this test inline in the caller, the rest out of line (issue 16).
    // Exact: [`can_counter`] needs a target that knows some maneuver.
    match super::ready::attacked(choice) {
        Some(target) if state.p(target).known != 0 => {
            counter_first(state, table, attacker, target, choice)
        }
        _ => Ok(true),
    }
}

/// [`before_attack`], on a target that knows maneuvers.
#[inline(never)]
fn counter_first(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    attacker: CombatantId,
    target: CombatantId,
    choice: &Choice,
) -> Result<bool, Interrupt> {
    if !state.enemies(target, attacker) || !can_counter(state, target) {
        return Ok(true);
    }
    let asking = Asking::Counter {
        reactor: target,
        foe: attacker,
    };
    let Choice::Counter(m) = legal::ask(state, table, asking, "CEL-R15")? else {
        table.emit(|| Event::Forgone {
            who: target,
            what: "counter",
            on: Some(attacker),
            reason: "declined (it stays readied)".into(),
            rule: "CEL-R15",
        });
        return Ok(true);
    };
    let Some(entry) = state.maneuver_book.get(usize::from(m)).cloned() else {
        return Ok(true);
    };
    let Some(c) = entry.counter() else {
        return Ok(true);
    };
    {
        let f = state.fm(target);
        f.reactions -= 1;
        f.maneuvers_spent[usize::from(m)] += 1;
        f.countering = Some((attacker, c.dv));
    }
    let left = super::strike::uses_left(state, target, m);
    table.emit(|| Event::Acted {
        who: target,
        act: if c.immediate {
            "uses an immediate-action ability against"
        } else {
            "counters"
        },
        on: Some(attacker),
        detail: format!(
            "{}: DV {:+} against this attack (its reaction{}); {left} of {} use{} left",
            entry.name,
            c.dv,
            if c.provoke { ", Provoke" } else { "" },
            entry.uses,
            if entry.uses == 1 { "" } else { "s" }
        ),
        rule: "CEL-R15",
    });
    if c.provoke {
        // CEL-R3.12: a reaction of the Provoke subtype draws attacks of opportunity first.
        super::round::provoke(state, table, target, None)?;
    }
    let still = state.up(attacker) && legal::check_deed(false, state, attacker, choice).is_ok();
    if !still && state.up(attacker) {
        table.emit(|| Event::Forgone {
            who: attacker,
            what: "attack",
            on: Some(target),
            reason: "no longer possible after the counter".into(),
            rule: "CEL-R15",
        });
    }
    Ok(still)
}

/// The counter's DV bonus `target` holds against `attacker`'s attack, spent by it (0: none).
/// [CEL-R15]
#[inline]
pub fn take(state: &mut State, target: CombatantId, attacker: CombatantId) -> i32 {
    match state.f(target).countering {
        Some((foe, dv)) if foe == attacker => {
            state.fm(target).countering = None;
            dv
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::stance::tests::initiator;

    /// CEL-R15: with a reaction and a readied counter the counter is offered (then decline);
    /// without a reaction, or once expended, nothing is asked; a strike is no counter; the
    /// bonus is taken by the attack of the foe it answers only.
    #[test]
    fn a_counter_needs_a_reaction_and_a_use() {
        let kay = CombatantId(0);
        let orc = CombatantId(1);
        let mut s = initiator();
        let parry = s
            .maneuver_book
            .iter()
            .position(|m| m.key() == "deflecting-parry")
            .unwrap() as u8;
        let cut = parry - 1;
        assert!(!can_counter(&s, kay), "no reaction before its turn ends");
        s.fm(kay).reactions = 1;
        assert!(can_counter(&s, kay));
        let mut offered = Vec::new();
        options(&s, kay, &mut offered);
        assert_eq!(offered, vec![Choice::Counter(parry), Choice::Decline]);
        assert!(check(false, &s, kay, parry).is_ok());
        let err = check(true, &s, kay, cut).unwrap_err();
        assert_eq!(err.rule, "CEL-R15");
        assert!(!can_counter(&s, orc));
        s.fm(kay).countering = Some((orc, 4));
        assert_eq!(take(&mut s, kay, CombatantId(0)), 0, "another attacker");
        assert_eq!(take(&mut s, kay, orc), 4);
        assert_eq!(take(&mut s, kay, orc), 0, "spent by that attack");
        s.fm(kay).maneuvers_spent[usize::from(parry)] = 1;
        assert!(!can_counter(&s, kay));
        assert!(check(true, &s, kay, parry)
            .unwrap_err()
            .reason
            .contains("expended"));
    }
}
