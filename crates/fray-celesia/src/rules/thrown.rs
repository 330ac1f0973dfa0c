//! Thrown weapons that land and are picked up again (CEL-R7.3, CEL-R9 Manipulate an Item). A
//! thrown weapon counted with `ammo` (a javelin, a throwing axe; not a splash weapon, which
//! breaks) leaves the thrower's supply as it is thrown (`ammo::spend_shot`) and lands: in the
//! target's square when it hits or stops there (a natural 1), in a stray victim's square when
//! its stray shot hits, else where its stray flight ends, "the end of [its] current range
//! increment" along the line, where "the projectile then falls to the ground" (CEL-R7.3). It
//! lies there until its thrower picks it up (`pick-up ranged`, standing on or next to its
//! square: Manipulate an Item, 1 act or the GM's `pick_up_acts`, provoking), which puts it back
//! in the supply. A thrown weapon not counted is not tracked (the encounter has not said how
//! many it carries).

use crate::content::WeaponKind;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal};
use fray_core::{CombatantId, Pos, Table};

/// Whether `who` throws a weapon that lands and can be picked up: a thrown weapon that is not a
/// splash weapon, with its supply counted. [CEL-R7.3]
pub fn tracked(state: &State, who: CombatantId) -> bool {
    state.f(who).ammo.is_some()
        && state
            .p(who)
            .ranged
            .as_ref()
            .is_some_and(|w| w.kind == WeaponKind::Thrown && !w.splash)
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
pub fn land(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) {
    let Some(at) = state.fm(who).flight.take() else {
        return;
    };
    state.fm(who).thrown.push(at);
    let name = state.p(who).ranged.as_ref().map(|w| w.name.clone());
    table.emit(|| Event::Acted {
        who,
        act: "leaves lying",
        on: None,
        detail: format!("{} at {} {}", name.unwrap_or_default(), at.x, at.y),
        rule: "CEL-R7.3",
    });
}

/// The first of `who`'s thrown weapons lying on or next to its square. [CEL-R9]
fn in_reach(state: &State, who: CombatantId) -> Option<usize> {
    let pos = state.f(who).pos;
    state
        .f(who)
        .thrown
        .iter()
        .position(|&p| p == pos || p.is_adjacent(pos))
}

/// May `who` pick up one of its thrown weapons now: one lies on or next to its square. [CEL-R9
/// Manipulate an Item]
pub fn check_pick_up(explain: bool, state: &State, who: CombatantId) -> Result<(), Illegal> {
    if in_reach(state, who).is_some() {
        return Ok(());
    }
    no(explain, "CEL-R9", || {
        let at: Vec<String> = state
            .f(who)
            .thrown
            .iter()
            .map(|p| format!("{} {}", p.x, p.y))
            .collect();
        format!(
            "its thrown weapons lie at {}: stand on or next to one",
            at.join(", ")
        )
    })
}

/// `who` picks up a thrown weapon of its lying in reach: back in its supply. Whether one was.
/// [CEL-R9 Manipulate an Item]
pub fn pick_up(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) -> bool {
    let Some(i) = in_reach(state, who) else {
        return false;
    };
    let f = state.fm(who);
    f.thrown.remove(i);
    if let Some(n) = f.ammo.as_mut() {
        *n = n.saturating_add(1);
    }
    let name = state.p(who).ranged.as_ref().map(|w| w.name.clone());
    table.emit(|| Event::Acted {
        who,
        act: "picks up",
        on: None,
        detail: name.unwrap_or_default(),
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
    /// up only from on or next to its square; an uncounted one is not tracked. [CEL-R7.3, R9]
    #[test]
    fn a_counted_thrown_weapon_lands_and_is_picked_up_only_nearby() {
        let javelin = |ammo: &str| format!("{FIGHTER}\nranged = \"javelin\"\n{ammo}");
        let mut s = Fixture::new()
            .with("bo", "heroes", [0, 0], &javelin("ammo = 1"))
            .with("cy", "heroes", [0, 4], &javelin(""))
            .monster("orc", "orcs", [3, 1], "orc")
            .state();
        let (bo, cy) = (CombatantId(0), CombatantId(1));
        assert!(tracked(&s, bo));
        assert!(!tracked(&s, cy), "a supply not counted is not tracked");
        fly(&mut s, cy, Pos::new(3, 1));
        assert_eq!(s.f(cy).flight, None);
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
        assert_eq!(in_reach(&s, bo), Some(0), "standing on it");
    }
}
