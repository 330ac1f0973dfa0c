//! The situations `fray odds` can set before a C&C attack: the weapon (`--weapon`), where the
//! attacker stands against the target's facing (flank, rear — CNC-R17.5, R17.6), the target's
//! cover and concealment (CNC-R16.5, R16.6), whether it is prone (CNC-R15.2), and a charge
//! (CNC-R6.3, R6.4).

use crate::state::{Concealment, Cond, Cover, Declared, State};
use fray_core::conditions::Expiry;
use fray_core::grid::Bearing;
use fray_core::ruleset::{keep_named_weapon, Situation, WeaponKept};
use fray_core::{Board, CombatantId, Direction};

/// The options `fray odds --situation` accepts.
pub const SITUATIONS: &[(&str, &str)] = &[
    ("front", "the attacker stands in front of the target"),
    (
        "flank",
        "the attacker stands on the target's flank (CNC-R17.5)",
    ),
    ("rear", "the attacker stands behind the target (CNC-R17.6)"),
    (
        "cover=LEVEL",
        "the target's cover: none, quarter, half, three-quarters, full (CNC-R16.5)",
    ),
    (
        "concealment=LEVEL",
        "the target's concealment: none, quarter, half, three-quarters, complete (CNC-R16.6)",
    ),
    ("prone", "the target is prone (CNC-R15.2)"),
    (
        "charge",
        "the attacker charges the target: +2 damage, −4 AC this round (CNC-R6.3, R6.4)",
    ),
];

/// Sets the starting state of `fray odds` as `situation` asks.
pub fn set(
    state: &mut State,
    attacker: CombatantId,
    target: CombatantId,
    situation: &Situation,
) -> Result<(), String> {
    if let Some(weapon) = &situation.weapon {
        choose_weapon(state, attacker, weapon)?;
    }
    for (name, value) in &situation.options {
        match (name.as_str(), value.as_str()) {
            ("front", "") => stand(state, attacker, target, Bearing::Front)?,
            ("flank", "") => stand(state, attacker, target, Bearing::Flank)?,
            ("rear", "") => stand(state, attacker, target, Bearing::Rear)?,
            ("charge", "") => {
                // Announced and within range: the charge's distance is the GM's scene to set.
                let f = state.f_mut(attacker);
                f.declared = Declared::Charge(target);
                f.conditions.add(Cond::Charging, Expiry::EndOfRound(1));
            }
            ("prone", "") => {
                state.f_mut(target).conditions.add(Cond::Prone, Expiry::Indefinite);
            }
            ("cover", level) => {
                state.f_mut(target).cover = match level {
                    "none" => Cover::None,
                    "quarter" => Cover::Quarter,
                    "half" => Cover::Half,
                    "three-quarters" => Cover::ThreeQuarters,
                    "full" => Cover::Full,
                    other => return Err(format!("unknown cover `{other}`; expected none, quarter, half, three-quarters or full")),
                }
            }
            ("concealment", level) => {
                state.f_mut(target).concealment = match level {
                    "none" => Concealment::None,
                    "quarter" => Concealment::Quarter,
                    "half" => Concealment::Half,
                    "three-quarters" => Concealment::ThreeQuarters,
                    "complete" => Concealment::Complete,
                    other => return Err(format!("unknown concealment `{other}`; expected none, quarter, half, three-quarters or complete")),
                }
            }
            _ => {
                let known: Vec<&str> = SITUATIONS.iter().map(|(n, _)| *n).collect();
                let shown = if value.is_empty() { name.clone() } else { format!("{name}={value}") };
                return Err(format!("unknown situation `{shown}` for cnc; expected one of {}", known.join(", ")));
            }
        }
    }
    Ok(())
}

/// Keeps only the named attack: a melee form (the attacker then closes in) or its missile
/// weapon (it then shoots).
fn choose_weapon(state: &mut State, attacker: CombatantId, weapon: &str) -> Result<(), String> {
    let mut profiles = state.profiles.to_vec();
    let p = &mut profiles[attacker.index()];
    let kept = keep_named_weapon(
        state.roster.name(attacker),
        weapon,
        &mut p.melee,
        &mut p.ranged,
        |f| &f.name,
        |w| &w.id,
    )?;
    if kept == WeaponKept::Ranged {
        p.off_hand = None;
    }
    state.profiles = profiles.into();
    Ok(())
}

/// Moves the attacker to a free square next to the target on the given side of its facing.
fn stand(
    state: &mut State,
    attacker: CombatantId,
    target: CombatantId,
    wanted: Bearing,
) -> Result<(), String> {
    let at = state.f(target).pos;
    let facing = state.f(target).facing;
    let square = Direction::ALL
        .into_iter()
        .map(|d| at.step(d))
        .find(|&p| facing.bearing_of(at, p) == wanted && state.square_free(p, attacker))
        .ok_or_else(|| {
            format!(
                "no free square on that side of {}",
                state.roster.name(target)
            )
        })?;
    state.set_square(attacker, square);
    Ok(())
}
