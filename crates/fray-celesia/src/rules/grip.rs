//! A one-handed weapon wielded in two hands (seed, Attack, Melee: "When you wield a weapon of
//! the same size category as you or larger with two hands, add 1.5 times your Strength bonus
//! and 1.5 times your Dexterity to the damage rolls on melee attacks ... Using two hands to
//! wield a light weapon gives no advantage on damage"; Special Attacks › Power Attack: "+50% if
//! you are making an attack with a two-handed weapon, a one handed weapon using two hands").
//! The grip is taken from the start (`two_handed_grip = true`) or by a free action on its own
//! turn (`grip two`, released by `grip one`: Pathfinder's free change of grip, a reading). It
//! needs the one manufactured weapon in hand to be a light or one-handed melee weapon and a
//! second intact hand free of weapons and of a strapped shield (CEL-R9, R18); it is lost when
//! that hand is taken.

use crate::choice::Choice;
use crate::content::{Hands, Weapon, WeaponKind};
use crate::state::{Item, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal};
use fray_core::{CombatantId, Table};

/// The rule a grip's refusals name (seed, Attack, Melee: 1.5 × STR and DEX with two hands).
pub const RULE: &str = "CEL-R5.1";

/// Why `who` cannot hold its weapon in both hands now (the rule and, when `explain`, the
/// reason in words: none is written otherwise), or `None`. Untracked hands (no `in_hand`) hold
/// every weapon of the entry; a strapped shield takes a hand unless it leaves the arm free to
/// wield (a buckler, `hand = false`).
pub fn refusal(state: &State, who: CombatantId, explain: bool) -> Option<(&'static str, String)> {
    let words = |why: &dyn Fn() -> String| if explain { why() } else { String::new() };
    let p = state.p(who);
    let mut held = (0..p.melee.len().min(64))
        .map(|i| Item::Melee(i as u8))
        .chain(p.ranged.iter().map(|_| Item::Ranged))
        .filter_map(|item| state.held(who, item))
        .filter(|w| w.kind != WeaponKind::NaturalRanged);
    let Some(w) = held.next() else {
        return Some((
            RULE,
            words(&|| "it holds no weapon to take in both hands".to_string()),
        ));
    };
    if let Some(other) = held.next() {
        return Some((
            RULE,
            words(&|| {
                format!(
                    "it holds a second weapon, the {}: both hands are on weapons",
                    other.name
                )
            }),
        ));
    }
    if w.kind != WeaponKind::Melee || w.hands == Hands::Two {
        return Some((
            RULE,
            words(&|| format!("the {} is not a light or one-handed melee weapon", w.name)),
        ));
    }
    // CEL-A34: a grappled creature takes no action that needs two hands.
    if state.grappled(who) {
        return Some((
            "CEL-A34",
            words(&|| "a grappled creature takes no action that needs two hands".to_string()),
        ));
    }
    let f = state.f(who);
    let shield =
        f.shield == super::shield::ShieldAt::Strapped && p.shield.as_ref().is_some_and(|s| s.hand);
    if shield {
        let name = p.shield.as_ref().map_or("shield", |s| s.name.as_str());
        return Some((
            "CEL-R9",
            words(&|| format!("its strapped {name} takes the other hand (`drop shield` frees it)")),
        ));
    }
    if super::wield::hands(state, who) < 2 {
        let arm = f.injuries.arms.lost() > 0;
        return Some((
            "CEL-R18",
            words(&|| {
                format!(
                    "one intact hand and arm is left (\"{}\")",
                    if arm {
                        "cannot use two-handed items if only one intact arm and intact hand \
                         remaining"
                    } else {
                        "cannot use two-handed items if only one intact hand remaining"
                    }
                )
            }),
        ));
    }
    None
}

/// Whether `w`, in `who`'s hands, is wielded with two hands for damage and Power Attack: a
/// two-handed melee weapon (a double weapon's main end in Multiweapon Fighting is one-handed),
/// or a one-handed one held in both hands (not a light one: "gives no advantage on damage").
/// [CEL-R5.1, R16.6]
pub fn two_handed_blow(state: &State, who: CombatantId, w: &Weapon) -> bool {
    let f = state.f(who);
    match w.hands {
        Hands::Two => w.kind == WeaponKind::Melee && !(w.double.is_some() && f.hand.is_some()),
        // CEL-R21.4: a rider's second hand is on the reins unless it guides with its knees.
        Hands::One => {
            w.kind == WeaponKind::Melee
                && f.grip
                && f.hand.is_none()
                && !(f.riding.is_some() && f.knees != Some(true))
                && refusal(state, who, false).is_none()
        }
        Hands::Light => false,
    }
}

/// The damage a two-handed grip would add to each blow of `who` with `w` (0 where the grip
/// counts for nothing: a light or two-handed weapon, Multiweapon Fighting, a rider guiding
/// with the reins): the half again of each positive STR and DEX, and Power Attack's ×1.5
/// while it is in use. [Seed, Attack, Melee; CEL-R5.1, R16.6, R21.4]
pub fn blow_gain(state: &State, who: CombatantId, w: &Weapon) -> i32 {
    use super::attack::one_and_a_half;
    let f = state.f(who);
    if w.kind != WeaponKind::Melee
        || w.hands != Hands::One
        || f.hand.is_some()
        || (f.riding.is_some() && f.knees != Some(true))
    {
        return 0;
    }
    let half_again = |m: i32| one_and_a_half(m) - m;
    let (s, d) = (
        state.m(who, crate::state::STR),
        state.m(who, crate::state::DEX),
    );
    let power = if f.specials.has(crate::state::Special::PowerAttack) {
        super::special::step_of(state, who, crate::state::Special::PowerAttack)
    } else {
        0
    };
    half_again(s) + half_again(d) + power
}

/// The hand a grip takes besides the weapon's own (1 while `who` holds its weapon in both
/// hands): no hand is free for a somatic component, Spell Combat, a steal or a sleight of
/// hand until it lets go (`grip one`). [Seed, Attack, Melee: "a one handed weapon using two
/// hands"; CEL-R9]
pub fn hand_taken(state: &State, who: CombatantId) -> i32 {
    i32::from(state.f(who).grip)
}

/// The grip options of `who`: take it where it may, release it where it holds one.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if state.f(who).grip {
        out.push(Choice::Grip(false));
    } else if refusal(state, who, false).is_none() {
        out.push(Choice::Grip(true));
    }
}

/// Whether `who` may take (`two`) or release its two-handed grip now.
pub fn check(explain: bool, state: &State, who: CombatantId, two: bool) -> Result<(), Illegal> {
    let gripping = state.f(who).grip;
    if !two {
        return Illegal::unless(gripping, explain, RULE, || {
            "it holds no weapon in both hands".to_string()
        });
    }
    if gripping {
        return no(explain, RULE, || {
            "it already holds its weapon in both hands".to_string()
        });
    }
    match refusal(state, who, explain) {
        Some((rule, why)) => no(explain, rule, || why),
        None => Ok(()),
    }
}

/// `who` takes its weapon in both hands (`two`) or lets go with one.
pub fn take(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId, two: bool) {
    state.fm(who).grip = two;
    if two {
        state.gripped = crate::state::CacheFlag(true);
    }
    table.emit(|| Event::Acted {
        who,
        act: if two {
            "takes its weapon in both hands"
        } else {
            "holds its weapon in one hand again"
        },
        on: None,
        detail: "a free action".to_string(),
        rule: RULE,
    });
}

/// Ends every grip whose second hand has been taken (a shield readied, a weapon drawn, a hand
/// or arm injury): the grip is not taken back without `grip two`.
#[inline]
pub fn settle(state: &mut State, table: &mut Table<'_, Celesia>) {
    // Run after every action: nothing to do while no one has gripped this fight (this test
    // inline in the caller, the rest out of line: issue 16).
    if state.gripped.0 {
        settle_grips(state, table);
    }
}

/// [`settle`], once someone has gripped.
#[inline(never)]
fn settle_grips(state: &mut State, table: &mut Table<'_, Celesia>) {
    for id in state.ids().collect::<Vec<_>>() {
        if !state.f(id).grip {
            continue;
        }
        if let Some((rule, why)) = refusal(state, id, true) {
            state.fm(id).grip = false;
            table.emit(|| Event::Acted {
                who: id,
                act: "loses its two-handed grip",
                on: None,
                detail: why,
                rule,
            });
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::fixture::Fixture;
    use crate::rules::legal::check_action;
    use crate::rules::Mods;

    const HAL: CombatantId = CombatantId(0);

    /// A fighter 3 (STR 16, DEX 14) with `weapon` and more entry keys, beside an orc (also
    /// `grip_tactics`' fixture).
    pub(crate) fn hal(weapon: &str, more: &str) -> State {
        let mut s = Fixture::new()
            .with(
                "hal",
                "h",
                [0, 0],
                &format!(
                    "class = \"fighter\"\nlevel = 3\nhp = 30\nweapon = \"{weapon}\"\n\
                     scores = {{ str = 16, dex = 14, con = 14 }}\n{more}"
                ),
            )
            .monster("orc", "f", [1, 0], "orc")
            .state();
        s.fm(HAL).acts_left = 3;
        s.fm(HAL).turns = 1;
        s
    }

    /// Hal's ability damage with his first melee weapon.
    fn damage(s: &State) -> i32 {
        let w = s.p(HAL).melee[0].clone();
        let mut m = Mods::default();
        crate::rules::attack::ability_damage(s, HAL, &w, &mut m);
        m.total()
    }

    /// Seed, Attack, Melee: a longsword in two hands adds floor(1.5 x 3) + floor(1.5 x 2) = 7
    /// (5 in one hand); `grip one` and `grip two` are offered and legal in turn.
    #[test]
    fn a_longsword_in_two_hands_adds_half_again() {
        let mut s = hal("longsword", "");
        assert_eq!(damage(&s), 5);
        let mut offered = Vec::new();
        options(&s, HAL, &mut offered);
        assert_eq!(offered, vec![Choice::Grip(true)]);
        assert!(check_action(false, &s, HAL, &Choice::Grip(false)).is_err());
        s.fm(HAL).grip = true;
        assert_eq!(damage(&s), 7);
        let w = s.p(HAL).melee[0].clone();
        assert!(two_handed_blow(&s, HAL, &w));
        assert!(check_action(false, &s, HAL, &Choice::Grip(false)).is_ok());
        let err = check_action(true, &s, HAL, &Choice::Grip(true)).unwrap_err();
        assert!(err.reason.contains("already"), "{}", err.reason);
    }

    /// A light weapon in two hands: no 1.5 x ("gives no advantage on damage").
    #[test]
    fn a_light_weapon_gains_nothing() {
        let mut s = hal("short sword", "two_handed_grip = true");
        assert!(s.f(HAL).grip);
        assert_eq!(damage(&s), 5);
        s.fm(HAL).grip = false;
        assert_eq!(damage(&s), 5);
    }

    /// A strapped shield (CEL-R9) or a lost hand (CEL-R18) leaves no second hand: `grip two`
    /// is refused naming the rule, and a grip held counts for nothing.
    #[test]
    fn no_second_hand_no_grip() {
        let mut s = hal("longsword", "shield = \"heavy shield\"");
        let err = check_action(true, &s, HAL, &Choice::Grip(true)).unwrap_err();
        assert_eq!(err.rule, "CEL-R9");
        s.fm(HAL).grip = true;
        assert_eq!(damage(&s), 5);
        let s = hal("longsword", "injuries = [\"hand\"]");
        let err = check_action(true, &s, HAL, &Choice::Grip(true)).unwrap_err();
        assert_eq!(err.rule, "CEL-R18");
        let s = hal("longsword", "shield = \"buckler\"");
        assert!(check_action(false, &s, HAL, &Choice::Grip(true)).is_ok());
    }

    /// A grappled creature takes no action that needs two hands (CEL-A34): `grip two` is
    /// refused, and a grip held counts for nothing while the grapple lasts.
    #[test]
    fn no_grip_in_a_grapple() {
        let mut s = hal("longsword", "");
        s.fm(HAL).held_by = Some(CombatantId(1));
        let err = check_action(true, &s, HAL, &Choice::Grip(true)).unwrap_err();
        assert_eq!(err.rule, "CEL-A34");
        s.fm(HAL).grip = true;
        let w = s.p(HAL).melee[0].clone();
        assert!(!two_handed_blow(&s, HAL, &w));
        s.fm(HAL).held_by = None;
        assert!(two_handed_blow(&s, HAL, &w));
    }
}
