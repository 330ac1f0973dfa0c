//! Initiate Standard Strike (CEL-R11, a standard action, 2 acts): "You initiate a strike
//! maneuver with an initiation action of standard", and Initiate Full-Attack Strike (CEL-R12, a
//! full action, 3 consecutive acts in the same turn): "… with an initiation action of
//! full-attack or full-round". The strike is the GM's data (`crate::initiator::Strike`): its
//! `initiation` chooses the action; `attacks` melee attacks on the foe with the wielded weapon,
//! each at its own attack modifier, its dice and damage added to each hit, and a condition a hit
//! may give. It provokes only if its data says so. A strike is readied until used: each may be
//! used `uses` times a fight (default once; fray's reading of CEL-R15 "a Counter maneuver that
//! you have readied", docs/celesia.md).

use super::attack::{self, Form};
use crate::choice::Choice;
use crate::content::WeaponKind;
use crate::initiator::{Initiation, Strike};
use crate::state::{Cause, Caused, State};
use crate::Celesia;
use fray_core::conditions::{ConditionKind, Expiry, Timed};
use fray_core::event::{AttackResult, Event};
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// The strike `who` is making now, if any (its attack roll and damage read it).
#[inline]
pub fn current(state: &State, who: CombatantId) -> Option<Strike> {
    let m = state.f(who).striking?;
    state.maneuver_book.get(usize::from(m))?.strike()
}

/// Uses left of the strike or counter at place `m` for `who` (0 if it does not know it).
/// [CEL-R11, R15]
pub fn uses_left(state: &State, who: CombatantId, m: u8) -> u8 {
    if !super::stance::knows(state, who, m) {
        return 0;
    }
    let Some(entry) = state.maneuver_book.get(usize::from(m)) else {
        return 0;
    };
    entry
        .uses
        .saturating_sub(state.f(who).maneuvers_spent[usize::from(m)])
}

/// Acts the strike at place `m` takes: 2 for a standard strike, 3 for a full-attack or
/// full-round one. [CEL-R11, R12]
pub fn acts(state: &State, m: u8) -> i32 {
    state
        .maneuver_book
        .get(usize::from(m))
        .and_then(|e| e.strike())
        .map_or(2, |s| s.initiation.acts())
}

/// The rule of the strike at place `m`: CEL-R11 (standard) or CEL-R12 (full-attack, full-round).
fn rule(state: &State, m: u8) -> &'static str {
    state
        .maneuver_book
        .get(usize::from(m))
        .and_then(|e| e.strike())
        .map_or("CEL-R11", |s| s.initiation.rule())
}

/// The melee form a strike is made with: the first usable one that is not an unarmed strike
/// (one with Improved Unarmed Strike). [CEL-R11]
pub fn form(state: &State, who: CombatantId) -> Option<u8> {
    let improved = state.p(who).feats.improved_unarmed;
    state
        .melee_forms(who)
        .find(|(_, w)| w.kind != WeaponKind::Unarmed || improved)
        .map(|(i, _)| i as u8)
}

/// The strikes `who` might initiate on `t` (the legality check filters them). [CEL-R11]
pub fn options(state: &State, who: CombatantId, t: CombatantId, out: &mut Vec<Choice>) {
    if state.p(who).known == 0 {
        return;
    }
    for (i, m) in state.maneuver_book.iter().enumerate() {
        if m.strike().is_some() {
            out.push(Choice::Strike(i as u8, t));
        }
    }
}

/// CEL-R11, R12: `who` may initiate the strike at place `m` on `t`: it knows it, has a use of
/// it left, and could attack `t` with its weapon now (its acts are checked with every action's,
/// `legal::check_action`: a full-attack strike needs 3 in the turn, CEL-R3.1).
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    m: u8,
    t: CombatantId,
) -> Result<(), Illegal> {
    let entry = state.maneuver_book.get(usize::from(m));
    let name = entry.map_or("?", |e| e.name.as_str());
    let rule = rule(state, m);
    if entry.and_then(|e| e.strike()).is_none() {
        return no(explain, rule, || {
            format!("`{name}` is not a strike maneuver")
        });
    }
    if !super::stance::knows(state, who, m) {
        return no(explain, rule, || {
            format!("it does not know the strike {name} (its entry's `maneuvers`)")
        });
    }
    if uses_left(state, who, m) == 0 {
        return no(explain, rule, || {
            format!("{name} is expended: no use of it left this fight")
        });
    }
    let Some(form) = form(state, who) else {
        return no(explain, rule, || {
            "a strike is a melee attack, and it has no usable melee weapon".to_string()
        });
    };
    super::legal::check_deed(explain, state, who, &Choice::Attack(t, form))
}

/// CEL-R11, R12: `who` initiates the strike at place `m` on `t` (its acts paid): provoking first
/// if its data says so, then its `attacks` melee attacks at its modifiers, each counted as an
/// attack of the turn (CEL-R3.10, A13: the GM's `multiple_attack_penalty`); each hit gives its
/// condition. The attacks left when `t` can no longer be attacked (out of the fight, out of
/// reach) are lost.
pub fn strike(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    m: u8,
    t: CombatantId,
) -> Result<(), Interrupt> {
    let Some(entry) = state.maneuver_book.get(usize::from(m)).cloned() else {
        return Ok(());
    };
    let Some(s) = entry.strike() else {
        return Ok(());
    };
    // CEL-R3.12: a Provoke action's attacks of opportunity come before it starts.
    if s.provoke && !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    let Some(form) = form(state, who) else {
        return Ok(());
    };
    let rule = s.initiation.rule();
    state.fm(who).maneuvers_spent[usize::from(m)] += 1;
    let left = uses_left(state, who, m);
    table.emit(|| Event::Acted {
        who,
        act: "initiates a strike on",
        on: Some(t),
        detail: format!(
            "{}: {}; {left} of {} use{} left",
            entry.name,
            words(s),
            entry.uses,
            if entry.uses == 1 { "" } else { "s" }
        ),
        rule,
    });
    for n in 0..s.attacks {
        if n > 0 && super::legal::check_deed(false, state, who, &Choice::Attack(t, form)).is_err() {
            let lost = s.attacks - n;
            table.emit(|| Event::Forgone {
                who,
                what: "attack",
                on: Some(t),
                reason: format!(
                    "{}: {lost} of its {} attacks lost, {} can no longer be attacked",
                    entry.name,
                    s.attacks,
                    state.roster.name(t)
                ),
                rule,
            });
            break;
        }
        state.fm(who).striking = Some(m);
        super::stance::refresh(state, who);
        let out = attack::attack(
            state,
            table,
            who,
            t,
            Form::Melee(usize::from(form)),
            None,
            rule,
        );
        state.fm(who).striking = None;
        super::stance::refresh(state, who);
        if out?.result != AttackResult::Miss {
            hit(state, table, who, (m, s), t, form);
        }
        if !state.up(who) {
            break;
        }
    }
    Ok(())
}

/// A hit of the strike at place `m`: a cleave may follow (CEL-R16.1); its condition on `t`.
/// [CEL-R11, R12]
fn hit(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    (m, s): (u8, Strike),
    t: CombatantId,
    form: u8,
) {
    let rule = s.initiation.rule();
    // CEL-R16.1: a hit of a melee attack action may be followed by a cleave.
    let f = state.fm(who);
    f.cleave_from = Some((t, form));
    f.cleave_chain.push(t);
    if state.f(t).absent() {
        return;
    }
    let Some(trick) = s.condition else {
        return;
    };
    let until = state.round + u32::from(s.rounds);
    let caused = Caused {
        trick,
        cause: Cause::Strike,
    };
    let timed = Timed::new(caused, Expiry::StartOfTurn { who, round: until }).from(who);
    state.fm(t).tricks.add_timed(timed);
    table.emit(|| Event::Condition {
        who: t,
        condition: ConditionKind::key(trick),
        gained: true,
        rule,
    });
    table.emit(|| Event::Acted {
        who,
        act: "leaves its strike's mark on",
        on: Some(t),
        detail: format!(
            "{}: {} for {} round{}: until the start of {}'s turn in round {until}",
            state.maneuver_book[usize::from(m)].name,
            ConditionKind::key(trick),
            s.rounds,
            if s.rounds == 1 { "" } else { "s" },
            state.roster.name(who)
        ),
        rule,
    });
}

/// A strike's numbers in words (`attack +2, +1d6 damage`; a full-attack one `full-attack, 2
/// attacks, attack +2`).
pub fn words(s: Strike) -> String {
    let mut parts = Vec::new();
    if s.initiation != Initiation::Standard {
        parts.push(s.initiation.key().to_string());
    }
    if s.attacks > 1 {
        parts.push(format!("{} attacks", s.attacks));
    }
    if s.attack != 0 {
        parts.push(format!("attack {:+}", s.attack));
    }
    if let Some(d) = s.dice {
        parts.push(format!("+{d} damage"));
    }
    if s.damage != 0 {
        parts.push(format!("damage {:+}", s.damage));
    }
    if let Some(c) = s.condition {
        parts.push(format!("{} on a hit", ConditionKind::key(c)));
    }
    if s.provoke {
        parts.push("provokes".into());
    }
    if parts.is_empty() {
        "a plain attack".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::legal::check_action;
    use crate::rules::stance::tests::initiator;

    /// CEL-R11: a known strike with a use left on a foe in reach is legal (2 acts); spent, it
    /// is refused as expended; out of reach or with one act left it is refused too.
    #[test]
    fn a_strike_is_legal_until_expended() {
        let kay = CombatantId(0);
        let orc = CombatantId(1);
        let mut s = initiator();
        let cut = s
            .maneuver_book
            .iter()
            .position(|m| m.key() == "sapphire-cut")
            .unwrap() as u8;
        assert_eq!(Choice::Strike(cut, orc).acts(), 2);
        assert!(check_action(false, &s, kay, &Choice::Strike(cut, orc)).is_ok());
        let mut offered = Vec::new();
        options(&s, kay, orc, &mut offered);
        assert_eq!(offered, vec![Choice::Strike(cut, orc)]);
        s.fm(kay).acts_left = 1;
        let err = check_action(true, &s, kay, &Choice::Strike(cut, orc)).unwrap_err();
        assert_eq!(err.rule, "CEL-R3.1");
        s.fm(kay).acts_left = 3;
        s.fm(kay).maneuvers_spent[usize::from(cut)] = 1;
        assert_eq!(uses_left(&s, kay, cut), 0);
        let err = check_action(true, &s, kay, &Choice::Strike(cut, orc)).unwrap_err();
        assert_eq!(err.rule, "CEL-R11");
        assert!(err.reason.contains("expended"), "{}", err.reason);
        assert_eq!(uses_left(&s, orc, cut), 0, "the orc does not know it");
    }

    #[test]
    fn a_strike_in_words() {
        let s = Strike {
            attack: 2,
            dice: fray_core::DamageDice::parse_dice("1d6"),
            damage: 0,
            condition: Some(crate::state::Trick::Dazzled),
            rounds: 1,
            provoke: true,
            initiation: Initiation::Standard,
            attacks: 1,
        };
        assert_eq!(
            words(s),
            "attack +2, +1d6 damage, dazzled on a hit, provokes"
        );
        let full = Strike {
            initiation: Initiation::FullAttack,
            attacks: 2,
            condition: None,
            provoke: false,
            ..s
        };
        assert_eq!(
            words(full),
            "full-attack, 2 attacks, attack +2, +1d6 damage"
        );
    }

    /// CEL-R12, R3.1: a full-attack strike takes 3 acts: legal with all 3, refused naming
    /// CEL-R3.1 once an act is spent; a staggered striker is refused naming CEL-R20.2; the
    /// standard strike beside it still takes 2.
    #[test]
    fn a_full_attack_strike_takes_the_whole_turn() {
        let (kay, orc) = (CombatantId(0), CombatantId(1));
        let mut s = crate::fixture::Fixture::new()
            .with(
                "kay",
                "h",
                [0, 0],
                "class = \"fighter\"\nlevel = 3\nhp = 28\nweapon = \"longsword\"\n\
                 maneuvers = [\"storm of blades\", \"sapphire cut\"]",
            )
            .monster("orc", "f", [1, 0], "orc")
            .state();
        s.fm(kay).acts_left = 3;
        let place = |key: &str| s.maneuver_book.iter().position(|m| m.key() == key).unwrap() as u8;
        let (storm, cut) = (place("storm-of-blades"), place("sapphire-cut"));
        assert_eq!(acts(&s, storm), 3);
        assert_eq!(acts(&s, cut), 2);
        let full = Choice::Strike(storm, orc);
        assert_eq!(crate::rules::complex::cost(&s, kay, &full), 3);
        assert!(check_action(false, &s, kay, &full).is_ok());
        s.fm(kay).acts_left = 2;
        let err = check_action(true, &s, kay, &full).unwrap_err();
        assert_eq!(err.rule, "CEL-R3.1");
        assert!(err.reason.contains("costs 3 acts"), "{}", err.reason);
        assert!(check_action(false, &s, kay, &Choice::Strike(cut, orc)).is_ok());
        s.fm(kay).acts_left = 3;
        s.fm(kay).maneuvers_spent[usize::from(storm)] = 1;
        let err = check_action(true, &s, kay, &full).unwrap_err();
        assert_eq!(err.rule, "CEL-R12");
        assert!(err.reason.contains("expended"), "{}", err.reason);
    }
}
