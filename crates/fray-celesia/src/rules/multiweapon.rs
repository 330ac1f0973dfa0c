//! CEL-R9 Multiweapon Fighting (simple, 1 act, no Provoke): one attack with the main hand and
//! one with the off hand (CEL-A19: one per off-hand weapon; fray's combatants wield at most two
//! forms at once), each with its penalty from the seed's table; the off-hand attack adds half
//! the positive STR and DEX to damage (CEL-R5.1) and halves Power Attack's and Precision
//! Strike's bonus (CEL-R16.6, R16.7). Natural attacks count as light weapons (CEL-R5.2). Once
//! a turn; with the Multiweapon Fighting feat more often where the GM allows it
//! (`multiweapon_repeat`, the seed's "certain requirements"). A double weapon (a weapon with
//! `double` dice) held in both hands attacks with both ends (`multiweapon WHO N N`): the main
//! end as a one-handed weapon, the other end as a light off-hand weapon (Pathfinder's reading;
//! the seed names double weapons and no more).

use super::attack::{self, Form};
use super::wield::{hands, hands_for, manufactured};
use crate::choice::Choice;
use crate::content::{Hands, Weapon, WeaponKind};
use crate::state::{reaches_plus, State};
use crate::Celesia;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// Half a positive modifier, rounded down; a penalty in full. [CEL-R5.1, A31]
pub fn half(m: i32) -> i32 {
    if m > 0 {
        m / 2
    } else {
        m
    }
}

/// A light off-hand weapon: a light weapon, a natural attack or an unarmed strike. [CEL-R5.2,
/// R5.4]
pub fn light(w: &Weapon) -> bool {
    w.hands == Hands::Light || matches!(w.kind, WeaponKind::Natural | WeaponKind::Unarmed)
}

/// CEL-R9 Table: Multiweapon Fighting Penalties: (main hand, off hand).
pub fn penalties(light_off_hand: bool, feat: bool) -> (i32, i32) {
    match (light_off_hand, feat) {
        (false, false) => (-6, -10),
        (true, false) => (-4, -8),
        (false, true) => (-4, -4),
        (true, true) => (-2, -2),
    }
}

/// Both forms are weapons held in the hand (a hand each): not with a hand on the reins or in a
/// grapple (CEL-R21.4, A34).
pub fn both_held(state: &State, who: CombatantId, a: u8, b: u8) -> bool {
    let p = state.p(who);
    [a, b]
        .iter()
        .all(|&i| p.melee.get(usize::from(i)).is_some_and(manufactured))
}

/// The Multiweapon Fighting options of `who` on `t`: each pair of its melee forms reaching it.
pub fn options(state: &State, who: CombatantId, t: CombatantId, out: &mut Vec<Choice>) {
    let gap = state.gap(who, t);
    let lunge = state.f(who).reach_bonus;
    let forms: Vec<usize> = state
        .melee_forms(who)
        .filter(|(_, w)| reaches_plus(w, gap, lunge))
        .map(|(i, _)| i)
        .take(8)
        .collect();
    let p = state.p(who);
    for &main in &forms {
        for &off in &forms {
            if main != off || p.melee.get(main).is_some_and(|w| w.double.is_some()) {
                out.push(Choice::Multiweapon(t, main as u8, off as u8));
            }
        }
    }
}

/// `main` and `off` name one double weapon: both its ends. [CEL-R9]
pub fn both_ends(state: &State, who: CombatantId, main: u8, off: u8) -> bool {
    main == off
        && state
            .p(who)
            .melee
            .get(usize::from(main))
            .is_some_and(|w| w.double.is_some())
}

/// The other end of a double weapon, struck with in the off hand. [CEL-R9]
pub fn other_end(w: &Weapon) -> Option<Weapon> {
    let dice = w.double?;
    Some(Weapon {
        name: format!("{} (other end)", w.name),
        damage: dice,
        hands: Hands::Light,
        ..w.clone()
    })
}

/// CEL-R9 with CEL-R18 ("cannot use two-handed items if only one intact hand remaining") and
/// CEL-R21.4 (a hand on the reins): a double weapon with one hand free. A double weapon is
/// two-handed, so neither end is used; Pathfinder's one-handed use ("a creature wielding a
/// double weapon in one hand can't use it as a double weapon — only one end of the weapon can
/// be used in any given round") is for a creature a size larger than the weapon, and fray's
/// weapons have no size (a reading).
pub fn one_handed(explain: bool) -> Result<(), Illegal> {
    no(explain, "CEL-R18", || {
        "a double weapon is two-handed: with one intact hand it is used neither as a double \
         weapon nor one end alone (\"cannot use two-handed items if only one intact hand \
         remaining\")"
            .to_string()
    })
}

/// Whether `who` may attack `t` with forms `main` and `off` now. [CEL-R9]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    t: CombatantId,
    (main, off): (u8, u8),
) -> Result<(), Illegal> {
    let rule = "CEL-R9";
    let double = both_ends(state, who, main, off);
    if main == off && !double {
        return no(explain, rule, || {
            "the main-hand and off-hand attacks need two different weapons, or the two ends of \
             a double weapon"
                .to_string()
        });
    }
    if double && hands(state, who) < 2 {
        return one_handed(explain);
    }
    let form = |n: u8| {
        state
            .melee_forms(who)
            .find(|(i, _)| *i == usize::from(n))
            .map(|(_, w)| w)
    };
    let (Some(wm), Some(wo)) = (form(main), form(off)) else {
        return no(explain, rule, || {
            format!("no usable attack forms {main} and {off}")
        });
    };
    let f = state.f(who);
    let repeat = state.options.multiweapon_repeat && state.p(who).feats.multiweapon_fighting;
    if f.multiweapon_turn == Some(f.turns) && !repeat {
        return no(explain, rule, || {
            "Multiweapon Fighting is taken only once a turn (more often only with the \
             Multiweapon Fighting feat, where the GM allows it: `multiweapon_repeat`)"
                .to_string()
        });
    }
    let needed = if double {
        hands_for(wm)
    } else {
        hands_for(wm) + hands_for(wo)
    };
    if manufactured(wm) && manufactured(wo) && needed > hands(state, who) {
        return no(explain, rule, || {
            format!(
                "the {} and the {} take more hands than it has (a two-handed weapon takes both)",
                wm.name, wo.name
            )
        });
    }
    let gap = state.gap(who, t);
    for w in [wm, wo] {
        if w.kind == WeaponKind::Unarmed && !state.p(who).armed() && state.p(t).armed() {
            return no(explain, "CEL-R8", || {
                "an unarmed strike provokes: make it on its own (`unarmed`)".to_string()
            });
        }
        if !reaches_plus(w, gap, f.reach_bonus) {
            return no(explain, rule, || {
                format!("{} is out of reach of the {}", state.roster.key(t), w.name)
            });
        }
    }
    Ok(())
}

/// Makes the two attacks: the main hand's, then the off hand's if `who` can still act and `t`
/// is still in the fight.
pub fn perform(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    t: CombatantId,
    (main, off): (u8, u8),
) -> Result<(), Interrupt> {
    let double = both_ends(state, who, main, off);
    let (light_off, feat) = {
        let p = state.p(who);
        (
            // A double weapon's other end counts as a light weapon (a reading, CEL-R9).
            double || p.melee.get(usize::from(off)).is_some_and(light),
            p.feats.multiweapon_fighting,
        )
    };
    let (pm, po) = penalties(light_off, feat);
    {
        let f = state.fm(who);
        f.multiweapon_turn = Some(f.turns);
        f.hand = Some((pm, false));
    }
    let first = attack::attack(
        state,
        table,
        who,
        t,
        Form::Melee(main.into()),
        None,
        "CEL-R9",
    );
    state.fm(who).hand = None;
    first?;
    if !state.up(who) || state.f(t).absent() {
        return Ok(());
    }
    state.fm(who).hand = Some((po, true));
    let second = attack::attack(
        state,
        table,
        who,
        t,
        Form::Melee(off.into()),
        None,
        "CEL-R9",
    );
    state.fm(who).hand = None;
    second.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_s_penalty_table() {
        assert_eq!(penalties(false, false), (-6, -10));
        assert_eq!(penalties(true, false), (-4, -8));
        assert_eq!(penalties(false, true), (-4, -4));
        assert_eq!(penalties(true, true), (-2, -2));
        assert_eq!(half(3), 1);
        assert_eq!(half(-1), -1);
    }
}
