//! Armour class and the special defences: normal AC with DEX, shield, cover and round effects
//! (CNC-R16), touch AC (CNC-R14), grapple and overbear AC (CNC-R10), disarm AC (CNC-R17.3).

use super::mods::Mods;
use crate::content::Size;
use crate::state::{Cond, Declared, State};
use fray_core::grid::Bearing;
use fray_core::CombatantId;

/// Melee, ranged or touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Hand to hand.
    Melee,
    /// Missile.
    Ranged,
}

/// A defence value with its adjustments.
#[derive(Debug, Clone)]
pub struct Defense {
    /// The final value.
    pub value: i32,
    /// Adjustments on top of the base.
    pub mods: Mods,
    /// The dodge bonus applies (it counts against the dodger's three attacks).
    pub dodge: bool,
}

/// Where `attacker` stands relative to `defender`'s facing (flank/rear only with the maneuvers).
pub fn bearing(state: &State, attacker: CombatantId, defender: CombatantId) -> Bearing {
    let d = state.f(defender);
    d.facing.bearing_of(d.pos, state.f(attacker).pos)
}

/// Whether the defender keeps its DEX bonus against this attacker. [Seed: 10. Armor Class › Dexterity]
pub fn keeps_dex(state: &State, attacker: CombatantId, defender: CombatantId) -> bool {
    let d = state.f(defender);
    let lost = d.conditions.has(Cond::Surprised)
        || d.conditions.has(Cond::Unaware)
        || d.held_by.is_some()
        || (state.options.maneuvers.rear && bearing(state, attacker, defender) == Bearing::Rear);
    !lost
}

/// Cover between the two (CNC-R16.5): the defender's against missiles; in melee whichever of the
/// two stands in cover, since melee cover works both ways (CNC-E6).
pub fn cover_bonus(
    state: &State,
    attacker: CombatantId,
    defender: CombatantId,
    reach: Reach,
) -> i32 {
    let d = state.f(defender).cover.ac_bonus();
    match reach {
        Reach::Ranged => d,
        Reach::Melee => d.max(state.f(attacker).cover.ac_bonus()),
    }
}

/// Normal armour class of `defender` against `attacker`, with every adjustment.
/// `touch` gives touch AC instead (CNC-R14). Does not count the attack against shields or dodges;
/// see [`note_attack`].
pub fn armor_class(
    state: &State,
    attacker: CombatantId,
    defender: CombatantId,
    reach: Reach,
    touch: bool,
    record: bool,
) -> Defense {
    let p = state.p(defender);
    let d = state.f(defender);
    let mut mods = Mods::recording(record);
    let mut dodge = false;
    let base;
    if touch {
        // Touch AC = 10 + DEX + special (deflection) modifiers; monsters 10 flat. [Seed: 8. Touch Attack]
        base = 10;
        if !p.monster {
            if keeps_dex(state, attacker, defender) {
                mods.add("DEX", "CNC-R14.1", p.dex_mod());
            }
            mods.add("protective magic", "CNC-R14.2", p.deflection);
        }
        return Defense {
            value: (base + mods.total()).max(1),
            mods,
            dodge,
        };
    }
    base = p.base_ac + p.deflection;
    // DEX applies only if the defender can react. [Seed: 10. Armor Class › Dexterity]
    if keeps_dex(state, attacker, defender) {
        mods.add("DEX", "CNC-R16.4", p.dex_mod());
    }
    // Shield: +1 against the first N attackers of the round (small 1, medium 2, large 3). [Seed: 10. Shields]
    if let Some(shield) = p.shield {
        // Index of this attacker among the round's distinct attackers (it is next if new).
        let index = d
            .attackers
            .iter()
            .position(|&a| a == Some(attacker))
            .unwrap_or_else(|| d.attackers.iter().filter(|a| a.is_some()).count());
        if index < shield.attackers() as usize && d.held_by.is_none() {
            mods.add("shield", "CNC-R16.3", 1);
        }
    }
    mods.add(
        "cover",
        "CNC-R16.5",
        cover_bonus(state, attacker, defender, reach),
    );
    if d.conditions.has(Cond::Charging) {
        mods.add("charging", "CNC-R6.4", -4);
    }
    if d.conditions.has(Cond::Overbearing) {
        mods.add("overbore", "CNC-R13.4", -2);
    }
    if d.conditions.has(Cond::HastyDisengage) {
        mods.add("hasty disengagement", "CNC-R17.2a", -2);
    }
    // Dodge: +2 against up to 3 attacks from attackers it faces and knows about. [Seed: 11.1 Dodge]
    if d.conditions.has(Cond::Dodging)
        && d.dodged < 3
        && bearing(state, attacker, defender) == Bearing::Front
        && !state.f(attacker).conditions.has(Cond::Invisible)
    {
        mods.add("dodge", "CNC-R17.1", 2);
        dodge = true;
    }
    // Evade: +4 against the one opponent it evades. [Seed: 11.4 Evade]
    if d.conditions.has(Cond::Evading) && d.declared == Declared::Evade(attacker) {
        mods.add("evade", "CNC-R17.4", 4);
    }
    Defense {
        // AC never drops below 1. [Seed: 10. Armor Class]
        value: (base + mods.total()).max(1),
        mods,
        dodge,
    }
}

/// Records an attack on `defender` (shield and dodge counts, CNC-A7).
pub fn note_attack(
    state: &mut State,
    attacker: CombatantId,
    defender: CombatantId,
    dodge_applied: bool,
) {
    let d = state.f_mut(defender);
    if !d.attackers.contains(&Some(attacker)) {
        if let Some(slot) = d.attackers.iter_mut().find(|a| a.is_none()) {
            *slot = Some(attacker);
        }
    }
    if dodge_applied {
        d.dodged += 1;
    }
}

/// Grapple AC: 12 (18 if STR is prime) + STR + DEX + size. [Seed: 7.1 Grappling; CNC-R10, CNC-A3]
pub fn grapple_ac(state: &State, attacker: CombatantId, defender: CombatantId) -> Defense {
    let p = state.p(defender);
    let base = if p.primes[0] { 18 } else { 12 };
    let mut mods = Mods::default();
    mods.add("STR", "CNC-R10.2", p.str_mod());
    mods.add("DEX", "CNC-R10.2", p.dex_mod());
    let larger_by = state.p(attacker).size.rank() - p.size.rank();
    // Adopted (CNC-A3): −2 per category the attacker is larger; the literal toggle flips it.
    let per = if state.options.grapple_size_literal {
        2
    } else {
        -2
    };
    mods.add("size", "CNC-R10.3", per * larger_by);
    Defense {
        value: base + mods.total(),
        mods,
        dodge: false,
    }
}

/// Overbear AC: grapple AC + the defender's BtH (monsters: HD). [Seed: 7.3 Overbearing; CNC-A5]
pub fn overbear_ac(state: &State, attacker: CombatantId, defender: CombatantId) -> Defense {
    let mut d = grapple_ac(state, attacker, defender);
    let bth = state.p(defender).bth;
    d.mods.add("BtH", "CNC-R10.4", bth);
    d.value += bth;
    d
}

/// Disarm AC: 18 + the defender's HD or level + its DEX bonus, if any. [Seed: 11.3 Disarm]
pub fn disarm_ac(state: &State, defender: CombatantId) -> Defense {
    let p = state.p(defender);
    let mut mods = Mods::default();
    mods.add("level/HD", "CNC-R17.3", p.level);
    mods.add("DEX bonus", "CNC-R17.3", p.dex_mod().max(0));
    Defense {
        value: 18 + mods.total(),
        mods,
        dodge: false,
    }
}

/// True when `defender` is two or more sizes larger than `attacker` (cannot be overborne). [Seed: 7.3]
pub fn too_big_to_overbear(attacker: Size, defender: Size) -> bool {
    defender.rank() - attacker.rank() >= 2
}
