//! Recall Knowledge (CEL-R9, simple, no Provoke: "You attempt a Lore check to recall a detail in
//! one of your fields of study, or to identify a monster and its abilities"). fray plays the
//! monster identification: a Lore check (d20 + the entry's `lore`, default 0: the seed has no
//! skill tables) against the DC the GM rules (the seed gives none; Pathfinder's is 10 + the
//! monster's CR, which fray's bestiary does not keep), asked as for Demoralize
//! (`rules::ruling`). On a success the checker's side learns what the monster is and its
//! abilities — what fray keeps of it that is no state of the moment: its bestiary name, size,
//! speed, attack forms, ranged weapon, immunity to critical hits, spell resistance, spells,
//! feats, a mind or none — in an event for that side only (`Event::Learned`); never its hit
//! points, DV, saves, scores or skills. Identified, it stays known to that side.

use super::aid_check::Skill;
use super::ruling::About;
use crate::choice::Choice;
use crate::content::WeaponKind;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, SideId, Table};
use std::fmt::Write as _;

/// The rule.
pub const RULE: &str = "CEL-R9";

/// The bit of `side` in `Fighter::known_to` (at most 32 sides, `fray_core`'s limit).
fn bit(side: SideId) -> u32 {
    1u32 << (u32::from(side.0) % 32)
}

/// Whether `side` has identified `t`.
pub fn known(state: &State, side: SideId, t: CombatantId) -> bool {
    state.f(t).known_to & bit(side) != 0
}

/// Whether `who` may try to identify `t`: a foe, a monster, not yet identified by its side (the
/// common target checks — itself, absent, no line to it — are `rules::legal`'s). [CEL-R9]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    t: CombatantId,
) -> Result<(), Illegal> {
    let name = || state.roster.key(t).to_string();
    if !state.enemies(who, t) {
        return no(explain, RULE, || {
            format!(
                "{} is no foe: Recall Knowledge identifies a monster it fights",
                name()
            )
        });
    }
    if state.p(t).bestiary.is_none() {
        return no(explain, RULE, || {
            format!(
                "{} is a character of a class, not a monster: Recall Knowledge identifies a \
                 monster and its abilities",
                name()
            )
        });
    }
    Illegal::unless(!known(state, state.f(who).side, t), explain, RULE, || {
        format!(
            "its side knows {} already (identified, it stays known)",
            name()
        )
    })
}

/// Foes of `who` still in the fight that are monsters its side has not identified.
fn unidentified(state: &State, who: CombatantId) -> impl Iterator<Item = CombatantId> + '_ {
    let side = state.f(who).side;
    state.ids().filter(move |&t| {
        state.enemies(who, t)
            && !state.f(t).absent()
            && state.p(t).bestiary.is_some()
            && !known(state, side, t)
    })
}

/// `recall FOE` for each foe monster its side has not identified.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    out.extend(unidentified(state, who).map(Choice::Recall));
}

/// What the monster `t` is and its abilities, in words (see the module summary).
pub fn abilities(state: &State, t: CombatantId) -> String {
    let p = state.p(t);
    let mut s = String::new();
    let _ = write!(
        s,
        "{} ({}, speed {} ft)",
        p.bestiary.as_deref().unwrap_or("a creature"),
        p.size.key(),
        p.speed
    );
    // Every creature has an unarmed strike (CEL-R8): only its own forms are abilities.
    let forms: Vec<String> = p
        .melee
        .iter()
        .filter(|w| w.kind != WeaponKind::Unarmed)
        .map(|w| {
            let mut form = format!("{} {}", w.name, w.damage);
            if w.reach != fray_core::grid::SQUARE_FT {
                let _ = write!(form, " reach {} ft", w.reach);
            }
            if w.secondary {
                form.push_str(" secondary");
            }
            if w.nonlethal {
                form.push_str(" nonlethal");
            }
            form
        })
        .collect();
    if !forms.is_empty() {
        let _ = write!(s, "; attacks: {}", forms.join(", "));
    }
    if let Some(w) = &p.ranged {
        let _ = write!(s, "; ranged: {} {}", w.name, w.damage);
    }
    if p.immune_crit {
        s.push_str("; immune to critical hits, crippling injuries and massive damage");
    }
    if p.spell_resistance > 0 {
        let _ = write!(s, "; spell resistance {}", p.spell_resistance);
    }
    if !p.magic.spells.is_empty() {
        let names: Vec<&str> = p.magic.spells.iter().map(|sp| sp.name.as_str()).collect();
        let _ = write!(s, "; spells: {}", names.join(", "));
    }
    let feats = p.feats.names();
    if !feats.is_empty() {
        let _ = write!(s, "; feats: {}", feats.join(", "));
    }
    let mind = &p.gm_said.feint;
    if mind.mindless {
        s.push_str("; mindless");
    }
    s.push_str(if mind.non_humanoid {
        "; not a humanoid"
    } else {
        "; a humanoid"
    });
    s
}

/// CEL-R9 Recall Knowledge on the foe monster `t`: a Lore check (an Intelligence skill,
/// CEL-A34) against the DC the GM rules; on a success `who`'s side learns what `t` is and its
/// abilities, and knows it from then on.
pub fn recall(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    t: CombatantId,
) -> Result<(), Interrupt> {
    table.emit(|| Event::Acted {
        who,
        act: "recalls what it knows of",
        on: Some(t),
        detail: "Recall Knowledge (Lore; the DC is the GM's)".into(),
        rule: RULE,
    });
    let bonus = Skill::Lore.bonus(state, who).unwrap_or(0);
    let check = (Skill::Lore, bonus, ("identifies it", "does not"));
    if !super::ruling::ruled_check(state, table, who, About::RecallDc(t), check, RULE)? {
        return Ok(());
    }
    let side = state.f(who).side;
    state.fm(t).known_to |= bit(side);
    table.emit(|| Event::Learned {
        who,
        about: t,
        facts: abilities(state, t),
        at: None,
        rule: RULE,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use fray_core::driver::{ScriptedChoice, ScriptedDriver};
    use fray_core::event::VecSink;
    use fray_core::runner::Limits;

    const ANN: CombatantId = CombatantId(0);
    const BO: CombatantId = CombatantId(1);
    const TROLL: CombatantId = CombatantId(2);
    const CAT: CombatantId = CombatantId(3);

    /// Ann (Lore +4) and Bo on one side; a troll and Cat (a fighter) on the other.
    fn fight() -> State {
        Fixture::new()
            .with("ann", "heroes", [0, 0], &format!("{FIGHTER}\nlore = 4"))
            .with("bo", "heroes", [0, 1], FIGHTER)
            .monster("troll", "foes", [5, 0], "troll")
            .with("cat", "foes", [5, 3], FIGHTER)
            .state()
    }

    /// Plays `recall` with the GM's DC `dc` and the d20 `die`; the events.
    fn recall_with(state: &mut State, who: CombatantId, dc: u8, die: u32) -> Vec<Event> {
        let gm = ScriptedChoice::parse(&format!("gm: dc {dc}")).expect("a choice");
        let mut driver = ScriptedDriver::new(vec![die], vec![gm]);
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        recall(state, &mut table, who, TROLL).expect("scripted");
        drop(table);
        sink.events.into_iter().map(|(_, e)| e).collect()
    }

    /// The troll's abilities are its bestiary entry's forms and nature, not its hit points.
    #[test]
    fn a_trolls_abilities() {
        let s = fight();
        assert_eq!(
            abilities(&s, TROLL),
            "Troll (large, speed 30 ft); attacks: claw 1d6 reach 10 ft, bite 1d8 reach 10 ft; \
             a humanoid"
        );
    }

    /// d20 10 + 4 = 14 fails DC 15 (nothing learned, still offered); 11 + 4 = 15 identifies
    /// it: its side knows it (Bo too: refused, not offered), the other side does not.
    #[test]
    fn identified_by_a_success_and_known_to_the_side() {
        let mut s = fight();
        let events = recall_with(&mut s, ANN, 15, 10);
        assert!(!events.iter().any(|e| matches!(e, Event::Learned { .. })));
        assert!(check(false, &s, ANN, TROLL).is_ok());
        let events = recall_with(&mut s, ANN, 15, 11);
        let learned: Vec<_> = events
            .iter()
            .filter(|e| matches!(e, Event::Learned { about, .. } if *about == TROLL))
            .collect();
        assert_eq!(learned.len(), 1, "{events:?}");
        assert!(known(&s, s.f(ANN).side, TROLL) && !known(&s, s.f(CAT).side, TROLL));
        for who in [ANN, BO] {
            assert!(check(true, &s, who, TROLL)
                .unwrap_err()
                .reason
                .contains("knows troll already"));
            let mut out = Vec::new();
            options(&s, who, &mut out);
            assert!(out.is_empty(), "{out:?}");
        }
    }

    /// An aid on Lore (CEL-R9 Aid Another) is legal typed, and never offered.
    #[test]
    fn an_aid_on_lore_is_typed_not_offered() {
        let s = fight();
        assert!(super::super::aid_check::check_skill_aid(false, &s, BO, ANN, Skill::Lore).is_ok());
        let mut out = Vec::new();
        super::super::aid_check::options(&s, BO, &mut out);
        assert!(
            !out.iter()
                .any(|c| matches!(c, Choice::AidSkill(_, Skill::Lore | Skill::Perception))),
            "{out:?}"
        );
    }

    /// Only a foe, only a monster.
    #[test]
    fn refusals() {
        let s = fight();
        let ally = check(true, &s, ANN, BO).unwrap_err();
        assert!(ally.reason.contains("no foe"), "{ally}");
        let character = check(true, &s, ANN, CAT).unwrap_err();
        assert!(character.reason.contains("not a monster"), "{character}");
        let mut out = Vec::new();
        options(&s, ANN, &mut out);
        assert_eq!(out, vec![Choice::Recall(TROLL)]);
    }
}
