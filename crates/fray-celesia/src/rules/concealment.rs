//! Invisibility and total concealment (CEL-R4.5 rows 8 and 11, CEL-A28, A34; CEL-R12 Coup de
//! Grace; CEL-G11): what the seed gives an invisible creature and those fighting it. The seed
//! has no miss chance and no concealment values (CEL-G11), so neither is played; targeting an
//! invisible creature is not forbidden (the seed forbids it nowhere), and the GM, who knows its
//! square, plays it. What players may not see is where it goes: its moves are shown to its own
//! side only (`Moved { hidden: true }`, `fray_core::audience`).

use super::Sources;
use crate::state::{State, Trick};
use fray_core::CombatantId;

/// Can see: neither blinded (a dirty trick, CEL-R10.7) nor blind from eye injuries (CEL-R18).
/// "Sighted opponents" of CEL-R4.5 row 8.
pub fn sighted(state: &State, who: CombatantId) -> bool {
    let f = state.f(who);
    !f.has_trick(Trick::Blinded) && !f.injuries.blind()
}

/// CEL-R4.5 row 8: advantage on attack rolls "against sighted opponents when invisible".
#[inline]
pub fn attack_sources(
    state: &State,
    attacker: CombatantId,
    target: CombatantId,
    adv: &mut Sources,
) {
    if state.f(attacker).invisible && sighted(state, target) {
        adv.add("invisible attacker");
    }
}

/// CEL-R4.5 row 11 (CEL-A28: "combat maneuver checks to grapple an invisible target"):
/// disadvantage on a check to grapple an invisible creature (starting, continuing and tying it
/// up), but not on one to escape it.
pub fn grapple_sources(state: &State, target: CombatantId, dis: &mut Sources) {
    if state.f(target).invisible {
        dis.add("invisible target");
    }
}

/// Total concealment: the GM's `concealed`, or invisible (Pathfinder's invisibility gives total
/// concealment, CEL-A34). A coup de grace on it takes 6 acts. [CEL-R12]
pub fn totally_concealed(state: &State, who: CombatantId) -> bool {
    let f = state.f(who);
    f.concealed || f.invisible
}

/// Whether `who`'s moves are hidden from its foes' players: while it is invisible, and, for a
/// mount, while its rider is invisible too (the rider shares its space and is carried along,
/// CEL-R21.3: a visible rider shows where an invisible mount goes; a visible mount shows where
/// it carries an invisible rider, Pathfinder's invisibility covering a creature's gear, not its
/// steed). A rider's own moves (mounting, dismounting, falling) are hidden while it is
/// invisible. [DESIGN.md audiences; CEL-R4.5 row 8; CEL-R21]
pub fn hidden(state: &State, who: CombatantId) -> bool {
    let f = state.f(who);
    f.invisible && f.rider.is_none_or(|r| state.f(r).invisible)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    /// A move is hidden when every creature it carries is invisible: a mount with its rider, a
    /// rider on its own. [CEL-R21.3, CEL-R4.5 row 8]
    #[test]
    fn a_mounts_move_is_hidden_only_with_its_rider_invisible_too() {
        let mut s = Fixture::new()
            .with(
                "ivy",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nmount = \"grey\""),
            )
            .monster("grey", "heroes", [0, 0], "light horse")
            .monster("orc", "orcs", [9, 0], "orc")
            .state();
        let (ivy, grey) = (CombatantId(0), CombatantId(1));
        for (rider, mount, rider_hidden, mount_hidden) in [
            (false, false, false, false),
            (true, false, true, false),
            (false, true, false, false),
            (true, true, true, true),
        ] {
            s.fm(ivy).invisible = rider;
            s.fm(grey).invisible = mount;
            assert_eq!(
                hidden(&s, ivy),
                rider_hidden,
                "rider {rider}, mount {mount}"
            );
            assert_eq!(
                hidden(&s, grey),
                mount_hidden,
                "rider {rider}, mount {mount}"
            );
        }
    }
}
