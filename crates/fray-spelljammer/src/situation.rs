//! The situations `fray odds` can set before a Spelljammer attack: the weapon (`--weapon`) and
//! the target's cover (SJ-R23.1's soft and hard cover).

use crate::rules::tables::Cover;
use crate::state::State;
use fray_core::catalog::name_key;
use fray_core::ruleset::Situation;
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
        let key = name_key(weapon);
        if p.melee.iter().any(|f| name_key(&f.name) == key) {
            p.melee.retain(|f| name_key(&f.name) == key);
            p.ranged = None;
        } else if p.ranged.as_ref().is_some_and(|f| name_key(&f.name) == key) {
            p.melee.clear();
        } else {
            let names: Vec<&str> = p
                .melee
                .iter()
                .chain(p.ranged.iter())
                .map(|f| f.name.as_str())
                .collect();
            return Err(format!(
                "{name} has no weapon `{weapon}`; it attacks with {}",
                names.join(", ")
            ));
        }
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
