//! The choices a Spelljammer combatant or GM makes, and their canonical text.
//!
//! A [`Declaration`] is everything a combatant declares at the start of the round (SJ-R1):
//! its intent (attack, shoot, cast, defend, move, withdraw…), movement mode, Defending amount and
//! the extras (careful aim, draw/sheathe, ready shield, potion). Text form, tokens in this order:
//! `attack orc-1 move-attack defend 10 aim draw ready-shield potion`.

use crate::state::State;
use fray_core::{CombatantId, Direction, Illegal};

/// What the combatant means to do this round. [Seed: Action Declaration]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Intent {
    /// Do nothing (or only extras such as drinking a potion).
    #[default]
    Nothing,
    /// Melee attacks on a target.
    Attack(CombatantId),
    /// Ranged attacks on a target.
    Shoot(CombatantId),
    /// Cast a spell (index into the profile's spells) at a target.
    Cast {
        /// Spell index.
        spell: u8,
        /// Target.
        target: CombatantId,
    },
    /// Full Defense: no attacks (SJ-R19).
    FullDefense,
    /// Desperate Defense: nothing else at all (SJ-R19).
    DesperateDefense,
    /// Move toward a combatant, no attack.
    Move(CombatantId),
    /// Run (2× TMR) toward a combatant, no attack.
    Run(CombatantId),
    /// Withdraw from melee (SJ-R22): move away from foes at full TMR.
    Withdraw,
    /// Pick up a dropped weapon (SJ-R21).
    PickUp,
    /// Hold the action into the next round (a 1-round spell may then start on 10, SJ-R4.2).
    Hold,
}

/// How an attacker combines movement with its attacks. [Seed: Initiative; Combining Actions]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Movement {
    /// Stand and fight; a 5-ft free move is allowed (SJ-R17.1).
    #[default]
    Stand,
    /// "No movement": +3 initiative, −20 DEF, not even the free move (SJ-R5).
    NoMovement,
    /// Move up to ½ TMR then attack: −5 initiative, lose ⌊n/2⌋ attacks (SJ-R17.1).
    MoveAttack,
    /// Run up to TMR then attack: −7 initiative, −25 SC, keep max(1, ⌊n/2⌋) (SJ-R17.3).
    RunAttack,
    /// Attack, then move by the DEX ladder (SJ-R17.2).
    AttackMove,
}

/// Drawing and sheathing weapons at the start of the round (SJ-R17.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Draw {
    /// Nothing drawn.
    #[default]
    None,
    /// Draw a weapon: −5 initiative.
    Draw,
    /// Sheathe one weapon and draw another: −10 initiative and one action lost.
    SheatheDraw,
}

/// A combatant's declaration for the round (SJ-R1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Declaration {
    /// What it means to do.
    pub intent: Intent,
    /// How it moves.
    pub movement: Movement,
    /// SC sacrificed for DEF (Defending, SJ-R19), 0 … 5 × weapon rank.
    pub defending: u8,
    /// Careful Aim (SJ-R23.2).
    pub aim: bool,
    /// Draw or sheathe-and-draw.
    pub draw: Draw,
    /// Ready a slung shield (SJ-R17.5).
    pub ready_shield: bool,
    /// Drink a potion (SJ-R17.6).
    pub potion: bool,
}

/// An answer to a Spelljammer choice request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// The round's declaration (Question::Declaration).
    Declare(Declaration),
    /// GM: where a declared attack goes when its target is gone (SJ-G1); `None`: lost.
    Retarget(Option<CombatantId>),
    /// Yes (take a free attack, allow it, a grievous wound…).
    Yes,
    /// No.
    No,
    /// Push a desperately defending target 10 ft in a direction (SJ-R19, SJ-G8).
    Push(Direction),
}

/// The canonical text of a choice.
pub fn text(state: &State, choice: &Choice) -> String {
    let _ = state;
    format!("{choice:?}")
}

/// Reads a choice from text.
pub fn parse(state: &State, text: &str) -> Result<Choice, Illegal> {
    let _ = state;
    Err(Illegal {
        rule: "SJ-R1",
        reason: format!("cannot read `{text}`"),
    })
}
