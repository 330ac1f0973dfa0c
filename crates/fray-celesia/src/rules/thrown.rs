//! Thrown weapons that land and are picked up again (CEL-R7.3, CEL-R9 Manipulate an Item). A
//! thrown weapon (a javelin, a throwing axe; not a splash weapon, which
//! breaks) leaves the thrower's supply as it is thrown (`ammo::spend_shot`) and lands: in the
//! target's square when it hits or stops there (a natural 1), in a stray victim's square when
//! its stray shot hits, else where its stray flight ends, "the end of [its] current range
//! increment" along the line, where "the projectile then falls to the ground" (CEL-R7.3). It
//! lies there until a creature picks it up (`pick-up ranged`, standing on or next to its
//! square: Manipulate an Item, 1 act or the GM's `pick_up_acts`, provoking): its thrower, or
//! any other creature (ally or foe) that throws the same weapon, into whose supply it goes.
//! A thrower's supply is its entry's `ammo` (at most [`MAX_SUPPLY`]); without one, the one
//! weapon its `ranged` names (a reading, docs/celesia.md).

use crate::content::WeaponKind;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal};
use fray_core::{CombatantId, Pos, Table};

/// CEL-R7.3: thrown weapons one thrower may carry (each lies on the board where it lands, until
/// picked up): fray's limit.
pub const MAX_SUPPLY: i32 = 50;

/// Whether weapon `w` lands where it is thrown and can be picked up: a thrown weapon other
/// than a splash weapon (which breaks). [CEL-R7.3]
pub fn lands(w: &crate::content::Weapon) -> bool {
    w.kind == WeaponKind::Thrown && !w.splash
}

/// The thrown weapons a thrower starts with: its entry's `ammo` (0 to [`MAX_SUPPLY`]), else
/// the one weapon its `ranged` names (a reading: a supply of several is counted in the file).
/// [CEL-R7.3, R9 Manipulate an Item]
pub fn supply(
    w: &crate::content::Weapon,
    ammo: Option<i32>,
) -> Result<u16, (&'static str, String)> {
    match ammo {
        None => Ok(1),
        Some(n) if (0..=MAX_SUPPLY).contains(&n) => Ok(n as u16),
        Some(n) => Err((
            "ammo",
            format!(
                "{n} {}s: a thrower carries at most {MAX_SUPPLY} thrown weapons, each lying where \
                 it lands until picked up (CEL-R7.3)",
                w.name
            ),
        )),
    }
}

/// Whether `who` throws a weapon that lands and can be picked up: a thrown weapon that is not a
/// splash weapon, with its supply counted. [CEL-R7.3]
pub fn tracked(state: &State, who: CombatantId) -> bool {
    state.f(who).ammo.is_some() && state.p(who).ranged.as_ref().is_some_and(lands)
}

/// The weapon `who` throws now will land at `at` (the target's square as it is thrown; a stray
/// shot moves it on). [CEL-R7.3]
pub fn fly(state: &mut State, who: CombatantId, at: Pos) {
    if tracked(state, who) {
        state.fm(who).flight = Some(at);
    }
}

/// The thrown weapon in flight falls at `at` instead: the stray victim's square, or the end of
/// its flight. [CEL-R7.3]
pub fn fly_on(state: &mut State, who: CombatantId, at: Pos) {
    if let Some(to) = state.fm(who).flight.as_mut() {
        *to = at;
    }
}

/// The throw is over: the weapon lies where it landed, and the log says where. [CEL-R7.3]
#[inline(always)]
pub fn land(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) {
    // After every shot: this test inline in the caller, the rest out of line (issue 16).
    if let Some(at) = state.fm(who).flight.take() {
        lands_at(state, table, who, at);
    }
}

/// [`land`], for a thrown weapon that flew to `at`.
#[inline(never)]
fn lands_at(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId, at: Pos) {
    state.fm(who).thrown.push(at);
    state.strewn = true;
    let name = state.p(who).ranged.as_ref().map(|w| w.name.clone());
    table.emit(|| Event::Acted {
        who,
        act: "leaves lying",
        on: None,
        detail: format!("{} at {} {}", name.unwrap_or_default(), at.x, at.y),
        rule: "CEL-R7.3",
    });
}

/// Whether `by`'s thrown weapons are the kind `who` throws (the same weapon). [CEL-R9]
fn same_kind(state: &State, who: CombatantId, by: CombatantId) -> bool {
    let name = |c: CombatantId| state.p(c).ranged.as_ref().map(|w| w.name.as_str());
    by == who || (name(by).is_some() && name(by) == name(who))
}

/// The first thrown weapon `who` may pick up, on or next to its square: its own first, then
/// one of the same kind another creature threw (ally or foe, in roster order), which `who` can
/// take into its own counted supply. As (thrower, place in its `thrown`). [CEL-R9 Manipulate
/// an Item: "pick up an item"]
fn in_reach(state: &State, who: CombatantId) -> Option<(CombatantId, usize)> {
    let pos = state.f(who).pos;
    let near = |by: CombatantId| {
        state
            .f(by)
            .thrown
            .iter()
            .position(|&p| p == pos || p.is_adjacent(pos))
            .map(|i| (by, i))
    };
    near(who).or_else(|| {
        if !state.strewn || !tracked(state, who) {
            return None;
        }
        state
            .ids()
            .filter(|&by| by != who && !state.f(by).thrown.is_empty() && same_kind(state, who, by))
            .find_map(near)
    })
}

/// Whether a thrown weapon `who` may pick up lies anywhere (its own, or one of its kind another
/// threw while its own supply is counted): `pick-up ranged` is offered. [CEL-R9]
pub fn any_lying(state: &State, who: CombatantId) -> bool {
    !state.f(who).thrown.is_empty()
        || (state.strewn
            && tracked(state, who)
            && state
                .ids()
                .any(|by| !state.f(by).thrown.is_empty() && same_kind(state, who, by)))
}

/// May `who` pick up a thrown weapon now: one it may take lies on or next to its square.
/// [CEL-R9 Manipulate an Item]
pub fn check_pick_up(explain: bool, state: &State, who: CombatantId) -> Result<(), Illegal> {
    if in_reach(state, who).is_some() {
        return Ok(());
    }
    no(explain, "CEL-R9", || {
        let mut at: Vec<String> = Vec::new();
        for by in state.ids() {
            if by == who || (tracked(state, who) && same_kind(state, who, by)) {
                at.extend(
                    state
                        .f(by)
                        .thrown
                        .iter()
                        .map(|p| format!("{} {}", p.x, p.y)),
                );
            }
        }
        if at.is_empty() {
            return "no thrown weapon it can take into its supply lies on the ground".to_string();
        }
        format!(
            "thrown weapons it may pick up lie at {}: stand on or next to one",
            at.join(", ")
        )
    })
}

/// The nearest square a thrown weapon `who` may pick up lies on, if any: the default tactics
/// walk there. [CEL-R9]
pub fn nearest_lying(state: &State, who: CombatantId) -> Option<fray_core::Pos> {
    let pos = state.f(who).pos;
    let mut best: Option<(i32, i32, i32, fray_core::Pos)> = None;
    for by in state.ids() {
        if by != who && !(state.strewn && tracked(state, who) && same_kind(state, who, by)) {
            continue;
        }
        for &p in &state.f(by).thrown {
            // Ties: north first, then west (a fixed order on the board, not the file's).
            let key = (pos.squares_to(p), p.y, p.x, p);
            if best.is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2)) {
                best = Some(key);
            }
        }
    }
    best.map(|b| b.3)
}

/// `who` picks up a thrown weapon lying in reach (its own first): into its supply. Whether one
/// was. [CEL-R9 Manipulate an Item]
pub fn pick_up(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) -> bool {
    let Some((by, i)) = in_reach(state, who) else {
        return false;
    };
    state.fm(by).thrown.remove(i);
    if let Some(n) = state.fm(who).ammo.as_mut() {
        *n = n.saturating_add(1);
    }
    let name = state.p(who).ranged.as_ref().map(|w| w.name.clone());
    let whose = if by == who {
        String::new()
    } else {
        format!(" (thrown by {})", state.roster.name(by))
    };
    table.emit(|| Event::Acted {
        who,
        act: "picks up",
        on: None,
        detail: format!("{}{whose}", name.unwrap_or_default()),
        rule: "CEL-R9",
    });
    super::ammo::report(state, table, who, "CEL-R9");
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    /// A counted javelin flies to the target, on to where its stray flight ends, and is picked
    /// up only from on or next to its square; an uncounted one is one javelin. [CEL-R7.3, R9]
    #[test]
    fn a_thrown_weapon_lands_and_is_picked_up_only_nearby() {
        let javelin = |ammo: &str| format!("{FIGHTER}\nranged = \"javelin\"\n{ammo}");
        let mut s = Fixture::new()
            .with("bo", "heroes", [0, 0], &javelin("ammo = 1"))
            .with("cy", "heroes", [0, 4], &javelin(""))
            .monster("orc", "orcs", [3, 1], "orc")
            .state();
        let (bo, cy) = (CombatantId(0), CombatantId(1));
        assert!(tracked(&s, bo));
        assert!(tracked(&s, cy), "a supply not counted is the one javelin");
        assert_eq!(s.f(cy).ammo, Some(1));
        fly(&mut s, bo, Pos::new(3, 1));
        assert_eq!(s.f(bo).flight, Some(Pos::new(3, 1)));
        fly_on(&mut s, bo, Pos::new(6, 2));
        assert_eq!(s.f(bo).flight, Some(Pos::new(6, 2)));
        // What `land` does, the event aside.
        let at = s.fm(bo).flight.take().unwrap();
        s.fm(bo).thrown.push(at);
        assert!(check_pick_up(false, &s, bo).is_err(), "6 2 is out of reach");
        s.set_square(bo, Pos::new(5, 3));
        assert!(check_pick_up(false, &s, bo).is_ok(), "5 3 is next to 6 2");
        s.set_square(bo, Pos::new(6, 2));
        assert_eq!(in_reach(&s, bo), Some((bo, 0)), "standing on it");
    }
}
