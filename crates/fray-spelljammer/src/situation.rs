//! The situations `fray odds` can set before a Spelljammer attack: the weapon (`--weapon`) and
//! the target's cover (SJ-R23.1's soft and hard cover).

use crate::rules::tables::Cover;
use crate::state::State;
use fray_core::ruleset::{keep_named_weapon, Situation};
use fray_core::CombatantId;
use std::sync::Arc;

/// The options `fray odds --situation` accepts.
pub const SITUATIONS: &[(&str, &str)] = &[(
    "cover=KIND",
    "the target's cover: none, soft or hard (missile fire, SJ-R23)",
)];

/// Sets the starting state of `fray odds` as `situation` asks.
pub fn set(
    state: &mut State,
    attacker: CombatantId,
    target: CombatantId,
    situation: &Situation,
) -> Result<(), String> {
    if let Some(weapon) = &situation.weapon {
        let name = state.roster.name(attacker).to_string();
        let p = &mut Arc::make_mut(&mut state.profiles)[attacker.index()];
        keep_named_weapon(
            &name,
            weapon,
            &mut p.melee,
            &mut p.ranged,
            |f| &f.name,
            |f| &f.name,
        )?;
    }
    for (option, value) in &situation.options {
        match option.as_str() {
            "cover" => {
                state.f_mut(target).cover = Cover::from_key(value).ok_or_else(|| {
                    format!("unknown cover `{value}`; expected none, soft or hard")
                })?;
            }
            _ => {
                return Err(format!(
                    "unknown situation `{option}` for spelljammer; expected one of {}",
                    SITUATIONS
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            }
        }
    }
    Ok(())
}
