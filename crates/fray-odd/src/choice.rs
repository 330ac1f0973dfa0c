//! Choices and their canonical text: a combatant's action on its count (`attack orc-2`,
//! `charge orc-2`, `shoot orc-2`, `run toward orc-2`, `parry`, `withdraw`, `withdraw attacking orc-2`, `retreat`, `nothing`), a
//! caster's declaration at the start of the round (`cast magic-missile at orc-2`, `nothing`),
//! and the DM's ruling after a reaction roll (`fight`, `parley`).

use crate::state::State;
use fray_core::catalog::name_key;
use fray_core::protocol::{Illegal, Question};
use fray_core::CombatantId;

/// One answer to a choice request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Melee attack, closing in up to half the Turn movement first (ODD-R16.1a).
    Attack(CombatantId),
    /// Charge: more than half, up to the full Turn movement, and attack (ODD-R26).
    Charge(CombatantId),
    /// Shoot or throw a missile (ODD-R8).
    Shoot(CombatantId),
    /// Run toward a foe, up to the full Turn movement, no attack (ODD-R16.1c).
    Run(CombatantId),
    /// Declare a spell (spell index, target) at the start of the round (ODD-R29).
    Cast(u8, CombatantId),
    /// Try to disarm a foe (both with one-handed weapons, ODD-R25.2).
    Disarm(CombatantId),
    /// Try to pull a rider off its mount with a polearm (ODD-R25.1).
    Dismount(CombatantId),
    /// Entangle with a whip: its weapon (true) or its feet (false) (ODD-R14).
    Entangle(CombatantId, bool),
    /// A subduing attack: all its damage temporary (pulled punches, ODD-R27.4, R27.5).
    Subdue(CombatantId),
    /// Grapple (ODD-R28).
    Grapple(CombatantId),
    /// Parry: AC 2 better this round, no attacks (ODD-R24).
    Parry,
    /// Fighting withdrawal: back away at half speed, AC 2 better this round (ODD-R17.2).
    Withdraw,
    /// Fighting withdrawal attacking a foe in melee at −2 before backing away (ODD-R17.2).
    WithdrawAttacking(CombatantId),
    /// Retreat: turn and flee (ODD-R17.3).
    Retreat,
    /// Do nothing (or cast no spell).
    Nothing,
    /// DM: the encounter comes to blows (ODD-R3.3).
    Fight,
    /// DM: the encounter ends in a parley (ODD-R3.3, R32.3).
    Parley,
}

/// The canonical text of a choice.
pub fn text(state: &State, choice: &Choice) -> String {
    let key = |id: &CombatantId| state.roster.key(*id).to_string();
    match choice {
        Choice::Attack(t) => format!("attack {}", key(t)),
        Choice::Charge(t) => format!("charge {}", key(t)),
        Choice::Shoot(t) => format!("shoot {}", key(t)),
        Choice::Run(t) => format!("run toward {}", key(t)),
        Choice::Cast(s, t) => format!("cast {} at {}", spell_key(state, *t, *s), key(t)),
        Choice::Disarm(t) => format!("disarm {}", key(t)),
        Choice::Dismount(t) => format!("dismount {}", key(t)),
        Choice::Entangle(t, weapon) => format!(
            "entangle {} {}",
            key(t),
            if *weapon { "weapon" } else { "feet" }
        ),
        Choice::Subdue(t) => format!("subdue {}", key(t)),
        Choice::Grapple(t) => format!("grapple {}", key(t)),
        Choice::Parry => "parry".into(),
        Choice::Withdraw => "withdraw".into(),
        Choice::WithdrawAttacking(t) => format!("withdraw attacking {}", key(t)),
        Choice::Retreat => "retreat".into(),
        Choice::Nothing => "nothing".into(),
        Choice::Fight => "fight".into(),
        Choice::Parley => "parley".into(),
    }
}

/// The spell's key: found through the asking caster, whose spell list the index is into.
fn spell_key(state: &State, _target: CombatantId, spell: u8) -> String {
    state
        .asking
        .and_then(|caster| state.p(caster).spells.get(usize::from(spell)))
        .map_or_else(|| format!("spell-{spell}"), |s| name_key(&s.name))
}

fn illegal(reason: String) -> Illegal {
    Illegal {
        rule: "ODD-R16.1",
        reason,
    }
}

/// Reads a choice typed by a person or a script.
pub fn parse(state: &State, text: &str) -> Result<Choice, Illegal> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let who = |key: &str| {
        state
            .roster
            .find(key)
            .ok_or_else(|| illegal(format!("no combatant `{key}` in this fight")))
    };
    Ok(match words.as_slice() {
        ["attack", t] => Choice::Attack(who(t)?),
        ["charge", t] => Choice::Charge(who(t)?),
        ["shoot", t] => Choice::Shoot(who(t)?),
        ["run", "toward", t] | ["run", t] => Choice::Run(who(t)?),
        ["cast", spell, "at", t] => {
            let target = who(t)?;
            let caster = state
                .asking
                .ok_or_else(|| illegal("nobody is casting now".into()))?;
            let key = name_key(spell);
            let index = state
                .p(caster)
                .spells
                .iter()
                .position(|s| name_key(&s.name) == key)
                .ok_or_else(|| Illegal {
                    rule: "ODD-R29.1",
                    reason: format!("{} knows no spell `{spell}`", state.roster.name(caster)),
                })?;
            Choice::Cast(index as u8, target)
        }
        ["disarm", t] => Choice::Disarm(who(t)?),
        ["dismount", t] => Choice::Dismount(who(t)?),
        ["entangle", t, "weapon"] => Choice::Entangle(who(t)?, true),
        ["entangle", t, "feet"] => Choice::Entangle(who(t)?, false),
        ["subdue", t] => Choice::Subdue(who(t)?),
        ["grapple", t] => Choice::Grapple(who(t)?),
        ["parry"] => Choice::Parry,
        ["withdraw"] => Choice::Withdraw,
        ["withdraw", "attacking", t] => Choice::WithdrawAttacking(who(t)?),
        ["retreat"] => Choice::Retreat,
        ["nothing"] => Choice::Nothing,
        ["fight"] => Choice::Fight,
        ["parley"] => Choice::Parley,
        _ => {
            return Err(illegal(format!(
                "`{text}` is not a choice: expected attack X, charge X, shoot X, run toward X, \
                 cast SPELL at X, disarm X, dismount X, entangle X weapon|feet, subdue X, grapple X, \
                 parry, withdraw, withdraw attacking X, retreat, nothing, fight or parley"
            )))
        }
    })
}

/// Whether a choice is of the kind a question asks for.
pub fn answers(question: Question, choice: &Choice) -> bool {
    match question {
        Question::Action => matches!(
            choice,
            Choice::Attack(_)
                | Choice::Charge(_)
                | Choice::Shoot(_)
                | Choice::Run(_)
                | Choice::Disarm(_)
                | Choice::Dismount(_)
                | Choice::Entangle(..)
                | Choice::Subdue(_)
                | Choice::Grapple(_)
                | Choice::Parry
                | Choice::Withdraw
                | Choice::WithdrawAttacking(_)
                | Choice::Retreat
                | Choice::Nothing
        ),
        Question::Declaration => matches!(choice, Choice::Cast(..) | Choice::Nothing),
        Question::Ruling => matches!(choice, Choice::Fight | Choice::Parley),
        Question::Reaction => matches!(choice, Choice::Attack(_) | Choice::Nothing),
    }
}
