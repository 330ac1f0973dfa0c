//! CEL-R9 Ready or Drop a Shield (simple, 1 act, Provoke): "You either strap a shield to your
//! arm to gain its shield bonus to DV or unstrap and drop the shield. If you have a base attack
//! bonus of +1 or higher, you can do either of these as a free action when you take the Move
//! simple action." A character's shield (its entry's `shield`) is strapped on at the start
//! unless the entry says `shield_strapped = false` (carried, e.g. slung on its back); its bonus
//! counts only while strapped on. A dropped shield lies on the square it was dropped on (as a
//! disarmed weapon does): Manipulate an Item (`pick-up shield`, simple, 1 act, Provoke) picks
//! it up, standing on or next to that square, and it is carried, not strapped on, until
//! `ready shield`. While its hands are tracked (`in_hand`), a strapped shield takes its hand
//! (but a buckler, `hand = false`): see [`hands_taken`].

use super::round;
use crate::choice::Choice;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Pos, Table};

/// Where a character's shield is. [CEL-R9]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ShieldAt {
    /// Strapped to its arm: its shield bonus counts.
    #[default]
    Strapped,
    /// Carried, not strapped on: `ready shield` straps it on.
    Carried,
    /// Unstrapped and dropped on this square: Manipulate an Item picks it up.
    Dropped(Pos),
}

const RULE: &str = "CEL-R9";

/// Acts readying or dropping the shield costs now: none right after a Move with BAB +1 (the
/// same moment as a draw combined with a Move, `wield::draws_with_move`), else 1. [CEL-R9]
pub fn acts(state: &State, who: CombatantId) -> i32 {
    if super::wield::draws_with_move(state, who) {
        0
    } else {
        1
    }
}

/// The Ready or Drop a Shield option of `who`, if it has a shield to ready or drop.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if state.p(who).shield.is_none() {
        return;
    }
    match state.f(who).shield {
        ShieldAt::Strapped => out.push(Choice::DropShield),
        ShieldAt::Carried => out.push(Choice::ReadyShield),
        ShieldAt::Dropped(_) => {
            if check_pick_up(false, state, who).is_ok() {
                out.push(Choice::PickUpShield);
            }
        }
    }
}

/// Hands `who`'s shield takes now: one while strapped on and its hands are tracked (`in_hand`),
/// unless the shield leaves its arm free to wield (a buckler, `hand = false`). Pathfinder's
/// light shield lets its hand carry but not wield, and the heavy and tower shields take it
/// for everything: fray asks a hand only to wield, to grapple, to steal or for a somatic
/// component, so every shield but the buckler takes it (a reading, docs/celesia.md). [CEL-R9]
pub fn hands_taken(state: &State, who: CombatantId) -> i32 {
    let takes = state.f(who).hands_tracked
        && state.f(who).shield == ShieldAt::Strapped
        && state.p(who).shield.as_ref().is_some_and(|s| s.hand);
    i32::from(takes)
}

/// Whether `who` may pick its dropped shield up (CEL-R9 Manipulate an Item): on or next to
/// its square, with a hand free to take it while its hands are tracked.
pub fn check_pick_up(explain: bool, state: &State, who: CombatantId) -> Result<(), Illegal> {
    let Some(shield) = state.p(who).shield.as_ref() else {
        return no(explain, RULE, || "it has no shield".to_string());
    };
    let ShieldAt::Dropped(at) = state.f(who).shield else {
        return no(explain, RULE, || {
            format!("its {} is not on the ground", shield.name)
        });
    };
    let pos = state.f(who).pos;
    if pos != at && !pos.is_adjacent(at) {
        return no(explain, RULE, || {
            format!(
                "its {} lies at {} {}: stand on or next to it",
                shield.name, at.x, at.y
            )
        });
    }
    Illegal::unless(
        super::wield::free_hands(state, who) >= 1,
        explain,
        RULE,
        || "its hands are full: sheathe or drop a weapon first".to_string(),
    )
}

/// Picks the dropped shield up (Manipulate an Item, which provokes first): carried, not
/// strapped on. [CEL-R9]
pub fn pick_up(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    if !round::provoke(state, table, who, None)? {
        return Ok(());
    }
    hold_picked_up(state, table, who);
    Ok(())
}

/// The dropped shield is in its hands, carried (the provocation done; or the GM's complex acts
/// all in, CEL-G3 `pick_up_acts`). [CEL-R9]
pub fn hold_picked_up(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) {
    let Some(shield) = state.p(who).shield.clone() else {
        return;
    };
    state.fm(who).shield = ShieldAt::Carried;
    table.emit(|| Event::Acted {
        who,
        act: "picks up",
        on: None,
        detail: format!(
            "{}, not strapped on (`ready shield` straps it on)",
            shield.name
        ),
        rule: RULE,
    });
}

/// Whether `who` may strap its shield on (`ready`) or unstrap and drop it now. [CEL-R9]
pub fn check(explain: bool, state: &State, who: CombatantId, ready: bool) -> Result<(), Illegal> {
    let Some(shield) = state.p(who).shield.as_ref() else {
        return no(explain, RULE, || {
            "it has no shield (a character's comes with its entry's `shield`)".to_string()
        });
    };
    match (state.f(who).shield, ready) {
        (ShieldAt::Dropped(_), _) => no(explain, RULE, || {
            format!(
                "it dropped its {}: pick it up first (`pick-up shield`)",
                shield.name
            )
        }),
        (ShieldAt::Strapped, true) => no(explain, RULE, || {
            format!("its {} is strapped on already", shield.name)
        }),
        (ShieldAt::Carried, false) => no(explain, RULE, || {
            format!(
                "its {} is not strapped on: `ready shield` straps it on",
                shield.name
            )
        }),
        // A strapped shield takes its hand (`hands_taken`): none free, none to strap it on.
        (ShieldAt::Carried, true) if shield.hand && super::wield::free_hands(state, who) < 1 => {
            no(explain, RULE, || {
                format!(
                    "its hands are full: the {} takes a hand (sheathe or drop a weapon first)",
                    shield.name
                )
            })
        }
        _ => Ok(()),
    }
}

/// Straps the shield on (`ready`) or unstraps and drops it: the action provokes first, unless
/// it is a free part of a Move (`free`), which has provoked already (as a draw combined with a
/// Move, CEL-R9). [CEL-R9]
pub fn ready_or_drop(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    ready: bool,
    free: bool,
) -> Result<(), Interrupt> {
    if !free && !round::provoke(state, table, who, None)? {
        return Ok(());
    }
    let Some(shield) = state.p(who).shield.clone() else {
        return Ok(());
    };
    let f = state.fm(who);
    if ready {
        f.shield = ShieldAt::Strapped;
        f.shield_dv = shield.dv;
    } else {
        f.shield = ShieldAt::Dropped(f.pos);
        f.shield_dv = 0;
    }
    table.emit(|| Event::Acted {
        who,
        act: if ready {
            "straps on its shield"
        } else {
            "unstraps and drops its shield"
        },
        on: None,
        detail: format!(
            "{}{}",
            shield.name,
            if free {
                ", a free action with its Move (BAB +1)"
            } else {
                ""
            }
        ),
        rule: RULE,
    });
    Ok(())
}

/// The default tactics' use of it: a dropped shield is picked up (Manipulate an Item, 1 act,
/// Provoke) and a carried one strapped on, each while no foe threatens it (so nothing is
/// provoked), strapping also when that costs no act (right after a Move, BAB +1). Picking it
/// up never comes free, and under threat its act goes to the fight. [CEL-R9]
#[inline(always)]
pub fn tactic(state: &State, who: CombatantId) -> Option<Choice> {
    // At every decision: this test inline in the caller, the rest out of line (issue 16).
    if matches!(state.f(who).shield, ShieldAt::Strapped) || state.p(who).shield.is_none() {
        return None;
    }
    shield_tactic(state, who)
}

/// [`tactic`], for a combatant with a shield not strapped on.
#[inline(never)]
fn shield_tactic(state: &State, who: CombatantId) -> Option<Choice> {
    let pick = match state.f(who).shield {
        ShieldAt::Strapped => return None,
        ShieldAt::Carried => Choice::ReadyShield,
        ShieldAt::Dropped(_) => Choice::PickUpShield,
    };
    state.p(who).shield.as_ref()?;
    let threatened = state
        .ids()
        .any(|o| state.enemies(o, who) && state.up(o) && state.threatens(o, who));
    let free = pick == Choice::ReadyShield && acts(state, who) == 0;
    ((free || !threatened) && super::legal::check_action(false, state, who, &pick).is_ok())
        .then_some(pick)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    fn duel(entry: &str) -> State {
        Fixture::new()
            .with("hero", "heroes", [0, 0], entry)
            .monster("orc", "orcs", [6, 0], "orc")
            .state()
    }

    /// CEL-R9: the shield bonus counts only while the shield is strapped on; readying it is
    /// offered while it is carried, dropping it while it is strapped on, neither once dropped.
    #[test]
    fn the_shield_bonus_counts_while_strapped_on() {
        let hero = CombatantId(0);
        let strapped = duel(&format!("{FIGHTER}\nshield = \"heavy shield\""));
        let carried = duel(&format!(
            "{FIGHTER}\nshield = \"heavy shield\"\nshield_strapped = false"
        ));
        let dv = |s: &State| super::super::attack::defense(s, hero).total();
        assert_eq!(dv(&strapped) - dv(&carried), 2, "a heavy shield: +2 DV");
        let offered = |s: &State| {
            let mut out = Vec::new();
            options(s, hero, &mut out);
            out
        };
        assert_eq!(offered(&strapped), vec![Choice::DropShield]);
        assert_eq!(offered(&carried), vec![Choice::ReadyShield]);
        assert!(check(false, &carried, hero, true).is_ok());
        assert!(check(false, &carried, hero, false).is_err());
        assert!(check(false, &strapped, hero, true).is_err());
        let mut dropped = strapped.clone();
        dropped.fm(hero).shield = ShieldAt::Dropped(dropped.f(hero).pos);
        dropped.fm(hero).shield_dv = 0;
        assert_eq!(offered(&dropped), vec![Choice::PickUpShield]);
        assert!(
            check(false, &dropped, hero, true).is_err(),
            "pick it up first"
        );
        dropped.fm(hero).pos = Pos::new(2, 0);
        assert!(offered(&dropped).is_empty(), "two squares away");
        assert!(check_pick_up(false, &dropped, hero).is_err());
        assert_eq!(dv(&dropped), dv(&carried));
        let none = duel(FIGHTER);
        assert!(check(false, &none, hero, true).is_err());
        assert!(offered(&none).is_empty());
    }

    /// CEL-R9: free right after a Move with BAB +1, else one act.
    #[test]
    fn free_with_a_move_at_bab_one() {
        let hero = CombatantId(0);
        let mut s = duel(&format!(
            "{FIGHTER}\nshield = \"light shield\"\nshield_strapped = false"
        ));
        assert!(s.p(hero).bab >= 1);
        assert_eq!(acts(&s, hero), 1);
        let f = s.fm(hero);
        f.move_at = Some((f.turns, f.act_clock));
        assert_eq!(acts(&s, hero), 0);
        s.fm(hero).act_clock += 1;
        assert_eq!(
            acts(&s, hero),
            1,
            "an act between: no longer part of the Move"
        );
    }

    /// The default tactics pick a dropped shield up while no foe threatens them, then strap it
    /// on; threatened, they leave it lying (picking it up would provoke). [CEL-R9]
    #[test]
    fn the_tactics_pick_a_dropped_shield_up_then_strap_it_on() {
        let hero = CombatantId(0);
        let orc = CombatantId(1);
        let mut s = duel(&format!("{FIGHTER}\nshield = \"heavy shield\""));
        s.fm(hero).acts_left = 3;
        assert_eq!(tactic(&s, hero), None, "strapped on already");
        s.fm(hero).shield = ShieldAt::Dropped(Pos::new(1, 0));
        s.fm(hero).shield_dv = 0;
        assert_eq!(
            tactic(&s, hero),
            Some(Choice::PickUpShield),
            "orc 6 squares off"
        );
        s.fm(hero).shield = ShieldAt::Carried;
        assert_eq!(tactic(&s, hero), Some(Choice::ReadyShield));
        s.fm(hero).shield = ShieldAt::Dropped(Pos::new(1, 0));
        s.set_square(orc, Pos::new(1, 1));
        assert!(s.threatens(orc, hero));
        assert_eq!(tactic(&s, hero), None, "the orc threatens it");
        s.set_square(orc, Pos::new(6, 0));
        s.fm(hero).shield = ShieldAt::Dropped(Pos::new(3, 0));
        assert_eq!(tactic(&s, hero), None, "out of reach: two squares away");
    }
}
