//! When the default tactics take a one-handed weapon in both hands (`grip two`) and when they
//! let go with one (`grip one`) (seed, Attack, Melee: "add 1.5 times your Strength bonus and
//! 1.5 times your Dexterity"; Power Attack's "+50% ... a one handed weapon using two hands";
//! `rules::grip`). Both are free actions on its own turn, valued in the tactics' currency, the
//! hit points a blow is expected to deal (`maneuver_tactics`):
//!
//! - **Take it** before a plain melee blow with a one-handed (not light) weapon, when the grip
//!   is legal and the blow gains by it: `a·(D + g) > a·D`, `g` the grip's damage
//!   (`grip::blow_gain`: the half again of each positive STR and DEX, Power Attack's ×1.5), so
//!   whenever `g > 0` (a natural 20 always hits: `a > 0`). Only before a blow: an act that
//!   needs the second hand (a spell's somatic component, Spell Combat, drawing a weapon,
//!   strapping a shield on…) is not played with the grip, and a maneuver, a feint or a strike
//!   the tactics preferred to the plain blow is left as it was.
//! - **Let go** when the hand is needed: the act the tactics would choose with the hand free
//!   is illegal with the grip (a somatic component, Spell Combat, a steal), or takes the hand
//!   anyway (drawing a weapon, picking one up, strapping on or picking up a shield).
//!
//! The first is the question the second asks in reverse (the act chosen without the grip is
//! legal with it), so a combatant does not take and release it in one act. Looked at only
//! where, as the fight began, someone held or could take the grip (`State::grip_minded`):
//! fighters with a shield, a second weapon in hand, a light or two-handed weapon pay one test.

use crate::choice::Choice;
use crate::content::{Hands, WeaponKind};
use crate::rules::grip;
use crate::rules::legal::check_action;
use crate::state::{CacheFlag, State};
use fray_core::CombatantId;

/// Works out, on load, whether anyone holds its weapon in both hands or could take it so: a
/// one-handed melee weapon the only weapon in its hands, no strapped shield but a buckler, two
/// intact hands (`grip::refusal`). [Seed, Attack, Melee]
pub fn prepare(state: &mut State) {
    let minded = state.ids().any(|id| {
        state.f(id).grip
            || (grip::refusal(state, id, false).is_none()
                && state
                    .p(id)
                    .melee
                    .iter()
                    .any(|w| w.kind == WeaponKind::Melee && w.hands == Hands::One))
    });
    state.grip_minded = CacheFlag(minded);
}

/// The act the default tactics play instead of `chosen` (the act chosen by `tactics::plan`):
/// `grip two` before a blow the grip strengthens, `grip one` before an act that needs the
/// hand, else `chosen`.
pub fn adjust(state: &State, who: CombatantId, chosen: Choice) -> Choice {
    let pick = if state.f(who).grip {
        release(state, who, chosen)
    } else {
        take(state, who, chosen)
    };
    pick.filter(|c| check_action(false, state, who, c).is_ok())
        .unwrap_or(chosen)
}

/// `grip two` before a plain blow with a one-handed weapon the grip strengthens
/// (`grip::blow_gain` > 0).
fn take(state: &State, who: CombatantId, chosen: Choice) -> Option<Choice> {
    let Choice::Attack(_, form) = chosen else {
        return None;
    };
    let w = state.p(who).melee.get(usize::from(form))?;
    (grip::blow_gain(state, who, w) > 0).then_some(Choice::Grip(true))
}

/// `grip one` before an act that takes the second hand (drawing or picking up a weapon,
/// strapping on or picking up a shield), or when the act the tactics would choose with the
/// hand free is illegal with the grip.
fn release(state: &State, who: CombatantId, chosen: Choice) -> Option<Choice> {
    if takes_the_hand(chosen) {
        return Some(Choice::Grip(false));
    }
    let mut free = state.clone();
    free.fm(who).grip = false;
    let with_a_hand = crate::tactics::plan(&free, who);
    (with_a_hand != chosen && check_action(false, state, who, &with_a_hand).is_err())
        .then_some(Choice::Grip(false))
}

/// An act that puts something in the grip's second hand (the grip would end with it).
fn takes_the_hand(c: Choice) -> bool {
    matches!(
        c,
        Choice::Draw(_) | Choice::PickUp(_) | Choice::ReadyShield | Choice::PickUpShield
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::Fixture;
    use crate::tactics::action;

    const HAL: CombatantId = CombatantId(0);
    const ORC: CombatantId = CombatantId(1);

    use crate::rules::grip::tests::hal;

    /// A longsword and nothing else: the grip adds 1 (STR +3 → 4) + 1 (DEX +2 → 3) to each
    /// blow, so it is taken before the blow, and then the blow is struck.
    #[test]
    fn a_lone_longsword_is_taken_in_both_hands_before_the_blow() {
        let mut s = hal("longsword", "");
        assert!(s.grip_minded.0);
        let w = s.p(HAL).melee[0].clone();
        assert_eq!(grip::blow_gain(&s, HAL, &w), 2);
        assert_eq!(action(&s, HAL), Choice::Grip(true));
        s.fm(HAL).grip = true;
        assert_eq!(action(&s, HAL), Choice::Attack(ORC, 0));
    }

    /// Nothing to gain or no second hand, no grip: a light weapon ("gives no advantage on
    /// damage"), STR and DEX +1 at most (1.5 × 1 rounds down to 1), a heavy shield (and then
    /// nobody in the fight could grip: the flag is off), a second weapon in hand.
    #[test]
    fn no_grip_without_a_gain_or_a_hand() {
        let s = hal("short sword", "");
        assert!(matches!(action(&s, HAL), Choice::Attack(ORC, _)));
        let s = Fixture::new()
            .with(
                "hal",
                "h",
                [0, 0],
                "class = \"fighter\"\nlevel = 3\nhp = 30\nweapon = \"longsword\"\n\
                 scores = { str = 13, dex = 12, con = 14 }",
            )
            .monster("orc", "f", [1, 0], "orc")
            .state();
        let w = s.p(HAL).melee[0].clone();
        assert_eq!(grip::blow_gain(&s, HAL, &w), 0);
        let mut s2 = s.clone();
        s2.fm(HAL).acts_left = 3;
        assert!(matches!(action(&s2, HAL), Choice::Attack(ORC, _)));
        let s = hal("longsword", "shield = \"heavy shield\"");
        assert!(!s.grip_minded.0, "only the orc's falchion besides");
        assert!(matches!(action(&s, HAL), Choice::Attack(ORC, _)));
        let s = hal("longsword", "ranged = \"javelin\"");
        assert!(!s.grip_minded.0, "the javelin is in hand too");
        let s = hal("longsword", "shield = \"buckler\"");
        assert_eq!(
            action(&s, HAL),
            Choice::Grip(true),
            "a buckler leaves it free"
        );
    }

    /// Vela, a cleric 3 with a longsword (STR 16, DEX 14) and cure light wounds, Brom dying
    /// next to her (−12 hp, CON 10: the dying band): holding the grip, she lets go first (the
    /// somatic component needs the hand), then heals; with no one to heal she keeps the grip
    /// and strikes. [CEL-R9, R17.4; seed, Attack, Melee]
    #[test]
    fn the_grip_is_let_go_for_a_somatic_component() {
        let mut s = Fixture::new()
            .with(
                "vela",
                "h",
                [0, 0],
                "class = \"cleric\"\nlevel = 3\nhp = 20\nweapon = \"longsword\"\n\
                 scores = { str = 16, dex = 14, con = 12, wis = 16 }\n\
                 spells = [\"cure light wounds\"]\ncaster_level = 3\nslots = [3]",
            )
            .with("brom", "h", [0, 1], crate::fixture::FIGHTER)
            .monster("orc", "f", [1, 0], "orc")
            .state();
        let (vela, brom, orc) = (CombatantId(0), CombatantId(1), CombatantId(2));
        s.fm(vela).acts_left = 3;
        s.fm(vela).turns = 1;
        s.fm(vela).grip = true;
        assert_eq!(action(&s, vela), Choice::Attack(orc, 0), "nobody to heal");
        s.fm(brom).hp = -12;
        assert_eq!(s.band(brom), crate::state::Band::Dying);
        assert_eq!(action(&s, vela), Choice::Grip(false));
        s.fm(vela).grip = false;
        assert!(
            matches!(action(&s, vela), Choice::Cast(_, Some(t), _) if t == brom),
            "{:?}",
            action(&s, vela)
        );
    }
}
