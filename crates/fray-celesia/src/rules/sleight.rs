//! Sleight of Hand (CEL-R11, standard, Provoke; "you can attempt this as a simple action by
//! taking a –20 penalty on the check. In either case, if your check fails by 5 or more, you
//! provoke an attack of opportunity from any creature from which you are trying to take an
//! object with this action"; CEL-R3.12 names this attack). fray plays its one use in a fight:
//! taking an item (`items` or `stored` in its entry: a potion, a wand) or a rope (`rope`, the
//! tie-up ropes, moved as a steal moves one: `belonging::transfer`) from a creature next to
//! the thief, with a hand free. Weapons and shields are taken by Steal (CEL-R10.13). The seed gives no DC: the GM's `sleight_dc`, by default
//! Pathfinder's 20 for taking an object from a creature (a reading; the victim's Perception,
//! which opposes it in Pathfinder, is not played: fray has no Perception).

use super::belonging::{self, Belonging};
use super::D20Check;
use crate::choice::Choice;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// The rule.
pub const RULE: &str = "CEL-R11";

/// Pathfinder's DC to take an object from a creature (the default of `sleight_dc`).
pub const DEFAULT_DC: i32 = 20;

/// CEL-R11 Sleight of Hand as a simple action: "a –20 penalty on the check".
pub const QUICK_PENALTY: i32 = -20;

/// CEL-R11 Sleight of Hand: "if your check fails by 5 or more, you provoke".
pub const FUMBLE_MARGIN: i32 = 5;

/// Whether `victim` has `object`: an item of `State::gear_book` with a use left, at hand or
/// stored, or a rope at hand.
fn carries(state: &State, victim: CombatantId, object: Belonging) -> bool {
    let f = state.f(victim);
    match object {
        Belonging::Gear(book) => f
            .gear
            .iter()
            .chain(&f.packed)
            .any(|&(b, uses)| b == book && uses > 0),
        Belonging::Rope => f.ropes > 0,
        Belonging::Weapon(_) | Belonging::Shield => false,
    }
}

/// The Sleight of Hand options of `who`: each item with a use left, and a rope, of each other
/// creature next to it, as a standard and as a simple action.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    for victim in state.near(who, 1, |o| o != who) {
        let f = state.f(victim);
        let items = f
            .gear
            .iter()
            .chain(&f.packed)
            .filter(|&&(_, uses)| uses > 0);
        let objects = items
            .map(|&(book, _)| Belonging::Gear(book))
            .chain((f.ropes > 0).then_some(Belonging::Rope));
        for object in objects {
            let take = Choice::Sleight(object, victim, false);
            if !out.contains(&take) {
                out.push(take);
                out.push(Choice::Sleight(object, victim, true));
            }
        }
    }
}

/// Whether `who` may take `object` (an item or a rope) from `victim`: another creature still in
/// the fight, next to it (a reading: the seed names no reach), carrying the item with a use
/// left or a rope at hand, and a hand free to take it (CEL-R10.13 Steal's "at least one hand
/// free", a reading). [CEL-R11]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    object: Belonging,
    victim: CombatantId,
) -> Result<(), Illegal> {
    let name = || state.roster.key(victim).to_string();
    if matches!(object, Belonging::Weapon(_) | Belonging::Shield) {
        return no(explain, RULE, || {
            "Sleight of Hand takes an item (`item NAME`) or a rope; a weapon or a shield is \
             taken by Steal (CEL-R10.13)"
                .to_string()
        });
    }
    if victim == who {
        return no(explain, RULE, || {
            "Sleight of Hand takes an object from another creature".to_string()
        });
    }
    if state.f(victim).absent() {
        return no(explain, RULE, || {
            format!("{} is no longer in the fight", name())
        });
    }
    if !carries(state, victim, object) {
        return no(explain, RULE, || match object {
            Belonging::Rope => format!("{} has no rope at hand", name()),
            _ => format!("{} carries no such item with a use left", name()),
        });
    }
    if state.gap(who, victim) != 1 {
        return no(explain, RULE, || {
            format!(
                "{} is not next to it: an object is taken from a creature at hand",
                name()
            )
        });
    }
    super::line_of_effect::check(explain, state, who, victim, RULE)?;
    Illegal::unless(super::wield::hand_free(state, who), explain, RULE, || {
        "it needs a free hand (it wields a two-handed weapon, its hands hold weapons or a \
         strapped shield, or it has none)"
            .to_string()
    })
}

/// CEL-R11 Sleight of Hand: the action provokes (every foe threatening the thief); then
/// d20 + `sleight_of_hand` (−20 as a simple action) against the GM's DC (default 20), a
/// Dexterity skill check (CEL-R4.5). Success: the item is in the thief's hand (at hand:
/// drunk or used as its own), a rope one more of its ropes. Failure by 5 or more: an attack of opportunity from the victim,
/// if it is a foe that threatens the thief and has a reaction left.
pub fn take(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    (object, victim): (Belonging, CombatantId),
    quick: bool,
) -> Result<(), Interrupt> {
    if !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    if !carries(state, victim, object) || state.f(victim).absent() {
        return Ok(());
    }
    let (modifier, penalty) = if quick {
        (
            "Sleight of Hand with the simple action's -20",
            QUICK_PENALTY,
        )
    } else {
        ("Sleight of Hand", 0)
    };
    let (taken, total, dc) = D20Check {
        purpose: "Sleight of Hand (take an object)",
        modifier,
        bonus: state.p(who).sleight_of_hand + penalty,
        dc: state.options.sleight_dc,
        kind: super::CheckKind::Crippling(super::Crippled::SleightOfHand),
        results: ("takes it", "fails"),
        rule: RULE,
    }
    .roll_aided(state, table, who, 0)?;
    let item = object.name(state, victim);
    if taken {
        if !take_object(state, who, object, victim) {
            return Ok(());
        }
        table.emit(|| Event::Acted {
            who,
            act: "takes from",
            on: Some(victim),
            detail: format!("the {item} (Sleight of Hand), to hand"),
            rule: RULE,
        });
        return Ok(());
    }
    if total <= dc - FUMBLE_MARGIN {
        table.emit(|| Event::Acted {
            who,
            act: "is caught reaching for",
            on: Some(victim),
            detail: format!("the {item}: failed by 5 or more, it provokes"),
            rule: "CEL-R3.12",
        });
        super::round::provoke(state, table, who, Some(victim))?;
    }
    Ok(())
}

/// Moves `object` from `victim` to `who`'s hand: a rope as a steal moves it
/// (`belonging::transfer`), an item from those at hand first, else out of its container.
/// Returns whether anything moved.
fn take_object(
    state: &mut State,
    who: CombatantId,
    object: Belonging,
    victim: CombatantId,
) -> bool {
    let Belonging::Gear(book) = object else {
        return belonging::transfer(state, who, victim, object);
    };
    if belonging::transfer(state, who, victim, object) {
        return true;
    }
    let f = state.fm(victim);
    let Some(i) = f.packed.iter().position(|&(b, n)| b == book && n > 0) else {
        return false;
    };
    let entry = f.packed.remove(i);
    state.fm(who).gear.push(entry);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use fray_core::driver::ScriptedDriver;
    use fray_core::event::VecSink;
    use fray_core::runner::Limits;

    const RUE: CombatantId = CombatantId(0);
    const ANN: CombatantId = CombatantId(1);

    /// Rue (Sleight of Hand +6) next to her ally Ann, who carries a potion and a stored wand;
    /// no foe is near (nothing provokes).
    fn fight() -> State {
        Fixture::new()
            .with(
                "rue",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nsleight_of_hand = 6"),
            )
            .with(
                "ann",
                "heroes",
                [1, 0],
                &format!(
                    "{FIGHTER}\nitems = [\"potion of cure light wounds\"]\n\
                     stored = [\"wand of cure light wounds\"]"
                ),
            )
            .monster("orc", "orcs", [9, 0], "orc")
            .state()
    }

    fn book(state: &State, name: &str) -> Belonging {
        Belonging::Gear(
            state
                .gear_book
                .iter()
                .position(|g| g.name == name)
                .expect("item") as u8,
        )
    }

    fn take_with(state: &mut State, dice: Vec<u32>, item: Belonging, quick: bool) {
        let mut driver = ScriptedDriver::new(dice, Vec::new());
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        take(state, &mut table, RUE, (item, ANN), quick).expect("scripted dice");
    }

    fn uses_left(state: &State, who: CombatantId, item: Belonging) -> u8 {
        let Belonging::Gear(book) = item else {
            panic!("an item")
        };
        super::super::item::uses_left(state, who, book)
    }

    /// DC 20 by default: d20 14 + 6 = 20 takes the potion, to hand; the stored wand comes out
    /// of its container; a failed check leaves the item where it was.
    #[test]
    fn taking_an_item_against_dc_20() {
        let mut s = fight();
        let (potion, wand) = (
            book(&s, "potion of cure light wounds"),
            book(&s, "wand of cure light wounds"),
        );
        assert_eq!(s.options.sleight_dc, 20);
        take_with(&mut s, vec![13], potion, false);
        assert!(carries(&s, ANN, potion), "d20 13 + 6 = 19 < 20");
        take_with(&mut s, vec![14], potion, false);
        assert!(!carries(&s, ANN, potion) && uses_left(&s, RUE, potion) == 1);
        assert!(
            check(false, &s, RUE, potion, ANN).is_err(),
            "nothing left to take"
        );
        // Simple action: −20. d20 20 + 6 − 20 = 6 fails; the stored wand stays.
        take_with(&mut s, vec![20], wand, true);
        assert!(carries(&s, ANN, wand));
        std::sync::Arc::make_mut(&mut s.options).sleight_dc = 6;
        take_with(&mut s, vec![20], wand, true);
        assert!(!carries(&s, ANN, wand) && uses_left(&s, RUE, wand) == 5);
    }

    /// Offered for each item of each creature next to it, standard and simple; legal ones only
    /// while adjacent; a creature is not its own victim.
    #[test]
    fn options_and_refusals() {
        let mut s = fight();
        let potion = book(&s, "potion of cure light wounds");
        let mut out = Vec::new();
        options(&s, RUE, &mut out);
        assert_eq!(out.len(), 4, "{out:?}");
        assert!(out.contains(&Choice::Sleight(potion, ANN, true)));
        assert!(check(false, &s, RUE, potion, ANN).is_ok());
        assert!(check(false, &s, RUE, potion, RUE).is_err());
        s.set_square(ANN, fray_core::Pos::new(2, 0));
        assert!(check(false, &s, RUE, potion, ANN).is_err());
        let mut out = Vec::new();
        options(&s, RUE, &mut out);
        assert!(out.is_empty());
    }

    /// CEL-R11: a rope is taken as an item is: offered while the creature next to it has one,
    /// taken on a success (one more rope of the thief's, one fewer of the victim's), refused
    /// when it has none left; a weapon or a shield is never Sleight of Hand's (Steal's).
    #[test]
    fn taking_a_rope() {
        let mut s = fight();
        assert!(
            check(false, &s, RUE, Belonging::Rope, ANN).is_err(),
            "no rope"
        );
        s.fm(ANN).ropes = 2;
        let mut out = Vec::new();
        options(&s, RUE, &mut out);
        assert!(out.contains(&Choice::Sleight(Belonging::Rope, ANN, false)));
        assert!(out.contains(&Choice::Sleight(Belonging::Rope, ANN, true)));
        // Each option reads back from its text; an item by its bare name or as `item NAME`.
        for option in &out {
            let text = crate::choice::text(&s, option);
            assert_eq!(
                crate::choice::parse(&s, &text).as_ref(),
                Ok(option),
                "{text}"
            );
        }
        let potion = book(&s, "potion of cure light wounds");
        for typed in [
            "sleight potion-of-cure-light-wounds ann",
            "sleight item potion-of-cure-light-wounds ann",
        ] {
            assert_eq!(
                crate::choice::parse(&s, typed),
                Ok(Choice::Sleight(potion, ANN, false))
            );
        }
        assert_eq!(
            crate::choice::parse(&s, "sleight rope ann quick"),
            Ok(Choice::Sleight(Belonging::Rope, ANN, true))
        );
        assert!(check(false, &s, RUE, Belonging::Rope, ANN).is_ok());
        take_with(&mut s, vec![13], Belonging::Rope, false);
        assert_eq!((s.f(RUE).ropes, s.f(ANN).ropes), (0, 2), "19 < 20");
        take_with(&mut s, vec![14], Belonging::Rope, false);
        assert_eq!((s.f(RUE).ropes, s.f(ANN).ropes), (1, 1));
        take_with(&mut s, vec![15], Belonging::Rope, false);
        assert_eq!((s.f(RUE).ropes, s.f(ANN).ropes), (2, 0));
        let none = check(true, &s, RUE, Belonging::Rope, ANN).unwrap_err();
        assert!(none.reason.contains("no rope"), "{none}");
        for object in [
            Belonging::Weapon(crate::state::Item::Melee(0)),
            Belonging::Shield,
        ] {
            let refused = check(true, &s, RUE, object, ANN).unwrap_err();
            assert_eq!(refused.rule, RULE);
            assert!(refused.reason.contains("taken by Steal"), "{refused}");
        }
    }
}
