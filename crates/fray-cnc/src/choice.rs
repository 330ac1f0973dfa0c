//! The choices a C&C combatant or CK makes, and their canonical text (`attack orc-2`, `charge
//! orc-1`, `dodge`, `yes`).

use crate::content::MagicKind;
use crate::state::State;
use fray_core::catalog::name_key;
use fray_core::{CombatantId, Illegal, Pos};

/// A movement mode with no other action (CNC-R4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pace {
    /// Up to the movement rate.
    Walk,
    /// Up to 2 × the rate.
    Jog,
    /// Up to 4 × the rate.
    Run,
}

impl Pace {
    /// Multiple of the movement rate (CNC-R5.2).
    pub fn multiple(self) -> i32 {
        match self {
            Pace::Walk => 1,
            Pace::Jog => 2,
            Pace::Run => 4,
        }
    }
    /// `walk`, `jog`, `run`.
    pub fn key(self) -> &'static str {
        match self {
            Pace::Walk => "walk",
            Pace::Jog => "jog",
            Pace::Run => "run",
        }
    }
}

/// An answer to a C&C choice request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    // — declarations before initiative (CNC-R6.1, CNC-R17) —
    /// No announcement.
    NoDeclaration,
    /// Charge a target (CNC-R6).
    Charge(CombatantId),
    /// Dodge (CNC-R17.1).
    Dodge,
    /// Evade one opponent (CNC-R17.4).
    Evade(CombatantId),
    /// Hasty disengagement (CNC-R17.2a).
    DisengageHasty,
    /// Fighting disengagement (CNC-R17.2b).
    DisengageFighting,
    // — actions (CNC-R4) —
    /// Melee attack, moving up to half the rate first if needed (CNC-R4.2).
    Attack(CombatantId),
    /// Two-weapon attack (CNC-R17.7).
    TwoWeapons(CombatantId),
    /// Melee attack with a weapon used to subdue (CNC-R21.2).
    Subdue(CombatantId),
    /// Ranged attack from where it stands (CNC-R8).
    Shoot(CombatantId),
    /// Grapple (CNC-R11).
    Grapple(CombatantId),
    /// Pummel (CNC-R12).
    Pummel(CombatantId),
    /// Overbear (CNC-R13).
    Overbear(CombatantId),
    /// Disarm (CNC-R17.3).
    Disarm(CombatantId),
    /// Try to break a hold (CNC-R11.3).
    BreakHold,
    /// Pick the knocked-away weapon up from the adjacent square it fell in (CNC-R17.3, CNC-A24).
    Recover,
    /// Cast a spell (an index into `State::magic`) at a target (CNC-R4.3).
    Cast(u16, CombatantId),
    /// Use a readied item (an index into `State::magic`) on a target (CNC-R4.6).
    UseItem(u16, CombatantId),
    /// Get a packed item out: takes the round (CNC-R4.6).
    ReadyItem(u16),
    /// Use a class or racial ability (an index into `State::magic`) on a target (CNC-R4.5).
    UseAbility(u16, CombatantId),
    /// Tend a mortally wounded ally's wounds for the round (CNC-R19).
    Aid(CombatantId),
    /// Move toward a combatant at the given pace, no attack (CNC-R4.4).
    Advance(CombatantId, Pace),
    /// Move away from every foe at the given pace (CNC-R4.4).
    Withdraw(Pace),
    /// Move to a square at the given pace (CNC-R4.4).
    MoveTo(Pos, Pace),
    /// Do nothing this turn.
    Hold,
    // — reactions —
    /// Take the offered reaction.
    Yes,
    /// Decline it.
    No,
}

fn key(state: &State, id: CombatantId) -> &str {
    state.roster.key(id)
}

/// A spell or item name as one word (`cure-light-wounds`), as files may write it too.
fn word(name: &str) -> String {
    name_key(name)
}

/// Canonical text of a choice.
pub fn text(state: &State, choice: &Choice) -> String {
    match *choice {
        Choice::NoDeclaration => "none".into(),
        Choice::Charge(t) => format!("charge {}", key(state, t)),
        Choice::Dodge => "dodge".into(),
        Choice::Evade(t) => format!("evade {}", key(state, t)),
        Choice::DisengageHasty => "disengage hasty".into(),
        Choice::DisengageFighting => "disengage fighting".into(),
        Choice::Attack(t) => format!("attack {}", key(state, t)),
        Choice::TwoWeapons(t) => format!("two-weapon {}", key(state, t)),
        Choice::Subdue(t) => format!("subdue {}", key(state, t)),
        Choice::Shoot(t) => format!("shoot {}", key(state, t)),
        Choice::Grapple(t) => format!("grapple {}", key(state, t)),
        Choice::Pummel(t) => format!("pummel {}", key(state, t)),
        Choice::Overbear(t) => format!("overbear {}", key(state, t)),
        Choice::Disarm(t) => format!("disarm {}", key(state, t)),
        Choice::BreakHold => "break-hold".into(),
        Choice::Recover => "recover".into(),
        Choice::Aid(t) => format!("aid {}", key(state, t)),
        Choice::Cast(i, t) => format!(
            "cast {} {}",
            word(&state.magic[i as usize].id),
            key(state, t)
        ),
        Choice::UseItem(i, t) => format!(
            "use {} {}",
            word(&state.magic[i as usize].id),
            key(state, t)
        ),
        Choice::ReadyItem(i) => format!("ready {}", word(&state.magic[i as usize].id)),
        Choice::UseAbility(i, t) => format!(
            "ability {} {}",
            word(&state.magic[i as usize].id),
            key(state, t)
        ),
        Choice::Advance(t, pace) => format!("{} {}", pace.key(), key(state, t)),
        Choice::Withdraw(pace) => format!("withdraw {}", pace.key()),
        Choice::MoveTo(p, pace) => format!("{} to {} {}", pace.key(), p.x, p.y),
        Choice::Hold => "hold".into(),
        Choice::Yes => "yes".into(),
        Choice::No => "no".into(),
    }
}

fn unreadable(text: &str) -> Illegal {
    Illegal {
        rule: "CNC-R4.1",
        reason: format!(
            "cannot read `{text}`; expected e.g. `attack orc-1`, `shoot orc-1`, `charge orc-1`, \
             `dodge`, `evade orc-1`, `disengage hasty`, `walk orc-1`, `run to 3 4`, `withdraw run`, \
             `grapple orc-1`, `hold`, `yes`, `no`"
        ),
    }
}

fn pace(word: &str) -> Option<Pace> {
    match word {
        "walk" | "move" => Some(Pace::Walk),
        "jog" => Some(Pace::Jog),
        "run" => Some(Pace::Run),
        _ => None,
    }
}

/// Reads a choice's text (case-insensitive). Legality is checked separately.
pub fn parse(state: &State, text: &str) -> Result<Choice, Illegal> {
    let lower = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let target = |w: &str| {
        state.roster.find(w).ok_or_else(|| Illegal {
            rule: "CNC-R4.1",
            reason: format!("no combatant `{w}` in this fight"),
        })
    };
    let magic = |w: &str, kind: MagicKind| {
        let name = w.replace('-', " ");
        state
            .magic
            .iter()
            .position(|m| name_key(&m.id) == name_key(w) && m.kind == kind)
            .map(|i| i as u16)
            .ok_or_else(|| Illegal {
                rule: "CNC-R4.1",
                reason: format!("no {} `{name}` in this encounter", kind.key()),
            })
    };
    let choice = match words.as_slice() {
        ["cast", what, who] => Choice::Cast(magic(what, MagicKind::Spell)?, target(who)?),
        ["use", what, who] => Choice::UseItem(magic(what, MagicKind::Item)?, target(who)?),
        ["ready", what] => Choice::ReadyItem(magic(what, MagicKind::Item)?),
        ["ability", what, who] => {
            Choice::UseAbility(magic(what, MagicKind::Ability)?, target(who)?)
        }
        ["none"] | ["nothing"] => Choice::NoDeclaration,
        ["dodge"] => Choice::Dodge,
        ["disengage", "hasty"] => Choice::DisengageHasty,
        ["disengage", "fighting"] => Choice::DisengageFighting,
        ["break-hold"] | ["break", "hold"] => Choice::BreakHold,
        ["recover"] | ["pick", "up"] | ["pick-up"] => Choice::Recover,
        ["hold"] => Choice::Hold,
        ["yes"] | ["y"] => Choice::Yes,
        ["no"] | ["n"] => Choice::No,
        ["withdraw"] => Choice::Withdraw(Pace::Run),
        ["withdraw", p] => Choice::Withdraw(pace(p).ok_or_else(|| unreadable(text))?),
        [p, "to", x, y] if pace(p).is_some() => {
            let (x, y) = (x.parse::<i32>(), y.parse::<i32>());
            match (x, y, pace(p)) {
                (Ok(x), Ok(y), Some(p)) => Choice::MoveTo(Pos::new(x, y), p),
                _ => return Err(unreadable(text)),
            }
        }
        [verb, who] => {
            let t = target(who)?;
            match *verb {
                "charge" => Choice::Charge(t),
                "evade" => Choice::Evade(t),
                "attack" => Choice::Attack(t),
                "two-weapon" => Choice::TwoWeapons(t),
                "subdue" => Choice::Subdue(t),
                "shoot" => Choice::Shoot(t),
                "grapple" => Choice::Grapple(t),
                "pummel" => Choice::Pummel(t),
                "overbear" => Choice::Overbear(t),
                "disarm" => Choice::Disarm(t),
                "aid" => Choice::Aid(t),
                other => match pace(other) {
                    Some(p) => Choice::Advance(t, p),
                    None => return Err(unreadable(text)),
                },
            }
        }
        _ => return Err(unreadable(text)),
    };
    Ok(choice)
}

/// Whether a choice is of the kind a question asks for.
pub fn answers(question: fray_core::protocol::Question, choice: &Choice) -> bool {
    use fray_core::protocol::Question;
    let declaration = matches!(
        choice,
        Choice::NoDeclaration
            | Choice::Charge(_)
            | Choice::Dodge
            | Choice::Evade(_)
            | Choice::DisengageHasty
            | Choice::DisengageFighting
    );
    let reaction = matches!(choice, Choice::Yes | Choice::No);
    match question {
        Question::Declaration => declaration,
        Question::Reaction => reaction,
        Question::Action | Question::Ruling => !declaration && !reaction,
    }
}
