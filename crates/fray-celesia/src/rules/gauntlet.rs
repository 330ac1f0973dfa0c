//! Lock or Unlock a Weapon in a Locked Gauntlet (CEL-R11, a standard action, Provoke: "You
//! either lock a weapon into a locked gauntlet or unlock a weapon already fastened to a locked
//! gauntlet"). The seed gives the gauntlet no effect of its own; it calls the locked weapon
//! *fastened*, and the one rule it has for a fastened item is the steal's (CEL-R10.13: "Items
//! fastened to a foe grant the foe a +5 (or higher) bonus to its CMD against this attempt"):
//! a steal of the locked weapon meets the GM's `fastened_cmd` (default +5). A fastened weapon
//! is not let go of: it cannot be dropped (Drop an Item) or sheathed until unlocked. A disarm
//! is the seed's, unchanged ("your foe drops one item of your choice that it's carrying or
//! wielding"): a weapon knocked or stolen away is no longer locked. The gauntlet is the
//! entry's `locked_gauntlet = true`; the default tactics never lock or unlock.

use super::{round, Mods};
use crate::choice::Choice;
use crate::content::WeaponKind;
use crate::state::{Item, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// A combatant's locked gauntlet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Gauntlet {
    /// It wears none.
    #[default]
    None,
    /// It wears one with no weapon locked in it.
    Open,
    /// The melee form locked in it.
    Locked(u8),
}

/// The rule of the action.
const RULE: &str = "CEL-R11";

/// Whether `item` is the weapon locked in `who`'s gauntlet.
pub fn locked(state: &State, who: CombatantId, item: Item) -> bool {
    matches!((state.f(who).gauntlet, item), (Gauntlet::Locked(a), Item::Melee(b)) if a == b)
}

/// The refusal of letting go of a locked weapon (`what`: "drop", "sheathe").
pub fn check_let_go(
    explain: bool,
    state: &State,
    who: CombatantId,
    item: Item,
    what: &str,
) -> Result<(), Illegal> {
    Illegal::unless(!locked(state, who, item), explain, RULE, || {
        format!(
            "that weapon is locked in its locked gauntlet: `unlock {}` before you {what} it",
            item.key()
        )
    })
}

/// A locked weapon no longer held (dropped, stolen, destroyed) is no longer locked.
pub fn let_go(state: &mut State, who: CombatantId, item: Item) {
    if locked(state, who, item) {
        state.fm(who).gauntlet = Gauntlet::Open;
    }
}

/// The steal's CMD modifier for the weapon locked in the foe's gauntlet: fastened (CEL-R10.13,
/// the GM's `fastened_cmd`).
pub fn fastened_defense(state: &State, owner: CombatantId, item: Item, defense: &mut Mods) {
    if locked(state, owner, item) {
        defense.push(
            "locked in a locked gauntlet (fastened)",
            "CEL-R10.13",
            state.options.fastened_cmd,
        );
    }
}

/// Lock and Unlock for `who`, where it wears a locked gauntlet.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    match state.f(who).gauntlet {
        Gauntlet::None => {}
        Gauntlet::Open => {
            let forms = state.p(who).melee.len().min(64) as u8;
            out.extend((0..forms).map(|i| Choice::Lock(Item::Melee(i))));
        }
        Gauntlet::Locked(i) => out.push(Choice::Unlock(Item::Melee(i))),
    }
}

/// Whether Lock (`lock`) or Unlock of `item` is legal for `who` now (acts aside).
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    item: Item,
    lock: bool,
) -> Result<(), Illegal> {
    let gauntlet = state.f(who).gauntlet;
    if gauntlet == Gauntlet::None {
        return no(explain, RULE, || {
            "it wears no locked gauntlet (its entry's `locked_gauntlet = true`)".to_string()
        });
    }
    if !lock {
        return Illegal::unless(locked(state, who, item), explain, RULE, || {
            format!("`{}` is not the weapon locked in its gauntlet", item.key())
        });
    }
    if let Gauntlet::Locked(i) = gauntlet {
        return no(explain, RULE, || {
            format!("its gauntlet holds weapon {i} locked already: unlock it first")
        });
    }
    let melee_weapon = matches!(item, Item::Melee(_))
        && state
            .held(who, item)
            .is_some_and(|w| w.kind == WeaponKind::Melee);
    Illegal::unless(melee_weapon, explain, RULE, || {
        format!(
            "`{}` is not a melee weapon it holds in hand (a melee form number)",
            item.key()
        )
    })
}

/// CEL-R11 Lock or Unlock a Weapon in a Locked Gauntlet (standard, 2 acts, Provoke: its acts
/// are paid by `round::perform`).
pub fn perform(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    item: Item,
    lock: bool,
) -> Result<(), Interrupt> {
    if !round::provoke(state, table, who, None)? {
        return Ok(());
    }
    // An attack of opportunity may have made it drop the weapon.
    if lock && check(false, state, who, item, true).is_err() {
        return Ok(());
    }
    let Some(name) = state.held(who, item).map(|w| w.name.clone()) else {
        return Ok(());
    };
    state.fm(who).gauntlet = match (lock, item) {
        (true, Item::Melee(i)) => Gauntlet::Locked(i),
        _ => Gauntlet::Open,
    };
    table.emit(|| Event::Acted {
        who,
        act: if lock {
            "locks a weapon in its locked gauntlet"
        } else {
            "unlocks the weapon in its locked gauntlet"
        },
        on: None,
        detail: if lock {
            format!("{name}: fastened (it cannot drop or sheathe it until unlocked)")
        } else {
            name
        },
        rule: RULE,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use crate::rules::legal::check_action;

    const HAL: CombatantId = CombatantId(0);
    const ORC: CombatantId = CombatantId(1);
    const SWORD: Item = Item::Melee(0);

    /// Hal with `keys` (his longsword in hand), the orc next to him.
    fn fight(keys: &str) -> State {
        let mut s = Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nin_hand = [\"0\"]\n{keys}"),
            )
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        s.fm(HAL).acts_left = 3;
        s
    }

    fn refusal(s: &State, choice: Choice) -> Illegal {
        check_action(true, s, HAL, &choice).expect_err("refused")
    }

    /// No gauntlet, no lock; with one, the sword in hand may be locked (2 acts), nothing else.
    #[test]
    fn only_a_locked_gauntlet_locks_a_melee_weapon_in_hand() {
        let bare = fight("");
        assert_eq!(refusal(&bare, Choice::Lock(SWORD)).rule, RULE);
        let mut offered = Vec::new();
        options(&bare, HAL, &mut offered);
        assert!(offered.is_empty());
        let mut s = fight("locked_gauntlet = true");
        assert!(check_action(true, &s, HAL, &Choice::Lock(SWORD)).is_ok());
        assert!(check_action(true, &s, HAL, &Choice::Unlock(SWORD)).is_err());
        assert!(check_action(true, &s, HAL, &Choice::Lock(Item::Ranged)).is_err());
        s.fm(HAL).acts_left = 1;
        assert_eq!(
            refusal(&s, Choice::Lock(SWORD)).rule,
            "CEL-R3.1",
            "a standard action: 2 acts"
        );
    }

    /// Locked, the sword is not dropped nor sheathed (refused naming CEL-R11) until unlocked;
    /// a steal of it meets +5 CMD (fastened); once it leaves his hand it is no longer locked.
    #[test]
    fn a_locked_weapon_is_fastened() {
        let mut s = fight("locked_gauntlet = true");
        s.fm(HAL).gauntlet = Gauntlet::Locked(0);
        for choice in [Choice::DropItem(SWORD), Choice::Sheathe(SWORD)] {
            let refused = refusal(&s, choice);
            assert_eq!(refused.rule, RULE);
            assert!(refused.reason.contains("`unlock 0`"), "{refused:?}");
        }
        assert!(check_action(true, &s, HAL, &Choice::Unlock(SWORD)).is_ok());
        assert!(refusal(&s, Choice::Lock(SWORD)).reason.contains("already"));
        let mut defense = Mods::default();
        fastened_defense(&s, HAL, SWORD, &mut defense);
        assert_eq!(defense.total(), 5);
        let mut mods = Mods::default();
        fastened_defense(&s, ORC, SWORD, &mut mods);
        assert_eq!(mods.total(), 0);
        s.drop_item(HAL, SWORD);
        assert_eq!(s.f(HAL).gauntlet, Gauntlet::Open);
    }
}
