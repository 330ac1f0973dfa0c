//! Choices and their canonical text: a combatant's action on its count (`attack orc-2`,
//! `charge orc-2`, `shoot orc-2`, `run toward orc-2`, `parry`, `withdraw`, `withdraw attacking orc-2`, `retreat`, `nothing`), a
//! caster's declaration at the start of the round (`cast magic-missile at orc-2`, `nothing`),
//! the DM's ruling after a reaction roll (`fight`, `parley`), the reactions of a pursuit
//! (`pursue orc-2`, `drop food`, `fling treasure`, `nothing`) and the DM's ruling on what lies
//! between quarry and pursuers (`in sight`, `out of sight`, `corner`, `stairs`, `door`,
//! `secret door`), an axe's chop at an object (`chop door`) and the DM's ruling on it
//! (`chopped through`, `holds`). [`rulings`] is the one list of the DM's rulings.

use crate::state::State;
use fray_core::catalog::name_key;
use fray_core::protocol::{Illegal, Question};
use fray_core::{CombatantId, Pos};

/// Where a retreating combatant runs (ODD-R17.3): its flight path, chosen by its controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flight {
    /// Away from the nearest standing foe, step by step (`retreat`; a routed group's way).
    Away,
    /// Away from one named combatant (`retreat away from X`).
    AwayFrom(CombatantId),
    /// Toward a named combatant (`retreat toward X`): an ally, or past a foe.
    Toward(CombatantId),
    /// Toward a square, an exit (`retreat to X,Y`).
    To(Pos),
}

/// What the DM rules lies between a fleeing quarry and its pursuers (ODD-R30.3, R30.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Between {
    /// Open ground: the quarry stays in sight.
    InSight,
    /// The quarry gets out of sight: the chase ends (ODD-R30.3).
    OutOfSight,
    /// Around a corner: the chase goes on on 1–2 (ODD-R30.5).
    Corner,
    /// Up or down stairs: on 1–2 (ODD-R30.5).
    Stairs,
    /// Through a doorway: on 1–2 (ODD-R30.5).
    Door,
    /// Through a secret door: on 1 (ODD-R30.5).
    SecretDoor,
}

impl Between {
    /// Every ruling, in a fixed order.
    pub const ALL: [Between; 6] = [
        Between::InSight,
        Between::OutOfSight,
        Between::Corner,
        Between::Stairs,
        Between::Door,
        Between::SecretDoor,
    ];
    /// Its text (the answer and the `[options] pursuit_between` value).
    pub fn text(self) -> &'static str {
        match self {
            Between::InSight => "in sight",
            Between::OutOfSight => "out of sight",
            Between::Corner => "corner",
            Between::Stairs => "stairs",
            Between::Door => "door",
            Between::SecretDoor => "secret door",
        }
    }
    /// Reads its text.
    pub fn parse(text: &str) -> Option<Between> {
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        Between::ALL.into_iter().find(|b| b.text() == words)
    }
}

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
    /// Retreat: turn and flee along a flight path (ODD-R17.3).
    Retreat(Flight),
    /// Do nothing (or cast no spell).
    Nothing,
    /// DM: the encounter comes to blows (ODD-R3.3).
    Fight,
    /// DM: the encounter ends in a parley (ODD-R3.3, R32.3).
    Parley,
    /// A character chases a foe that fled from it (ODD-R30.1, the players' pursuit).
    Pursue(CombatantId),
    /// The quarry throws down food (true) or flings treasure (false) for its pursuers
    /// (ODD-R30.4).
    Lure(bool),
    /// DM: what lies between the quarry and its pursuers (ODD-R30.3, R30.5).
    Between(Between),
    /// Chop at an object with an axe (ODD-R13): index into the encounter's objects.
    Chop(u8),
    /// DM: the object chopped at gives way (true) or holds for now (ODD-R13).
    Chopped(bool),
}

/// ODD-R30.5's rulings, as choices.
const BETWEEN: [Choice; 6] = [
    Choice::Between(Between::InSight),
    Choice::Between(Between::OutOfSight),
    Choice::Between(Between::Corner),
    Choice::Between(Between::Stairs),
    Choice::Between(Between::Door),
    Choice::Between(Between::SecretDoor),
];

/// The DM's rulings, by the rule that asks for them: the one list a GM question's options
/// are built from and a GM's answer is checked against (answers are checked without an
/// option list, which not every driver builds).
pub fn rulings(rule: &str) -> &'static [Choice] {
    match rule {
        // ODD-R3.3: after the reaction roll, a fight or a parley.
        "ODD-R3.3" => &[Choice::Fight, Choice::Parley],
        // ODD-R30.3, R30.5: what lies between a quarry and its pursuers.
        "ODD-R30.5" => &BETWEEN,
        // ODD-R13: whether an axe chopped through.
        "ODD-R13" => &[Choice::Chopped(true), Choice::Chopped(false)],
        _ => &[],
    }
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
        Choice::Retreat(Flight::Away) => "retreat".into(),
        Choice::Retreat(Flight::AwayFrom(t)) => format!("retreat away from {}", key(t)),
        Choice::Retreat(Flight::Toward(t)) => format!("retreat toward {}", key(t)),
        Choice::Retreat(Flight::To(p)) => format!("retreat to {},{}", p.x, p.y),
        Choice::Pursue(t) => format!("pursue {}", key(t)),
        Choice::Lure(true) => "drop food".into(),
        Choice::Lure(false) => "fling treasure".into(),
        Choice::Between(b) => b.text().into(),
        Choice::Chop(o) => format!(
            "chop {}",
            state
                .objects
                .get(usize::from(*o))
                .map_or("?", |x| x.key.as_str())
        ),
        Choice::Chopped(true) => "chopped through".into(),
        Choice::Chopped(false) => "holds".into(),
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

/// A square written `X,Y` (an exit for `retreat to`).
fn square_at(text: &str) -> Result<Pos, Illegal> {
    let bad = || Illegal {
        rule: "ODD-R17.3",
        reason: format!("`{text}` is not a square: expected X,Y (two whole numbers)"),
    };
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let coord = |v: &str| {
        v.trim()
            .parse::<i32>()
            .ok()
            .filter(|n| n.abs() <= 10_000)
            .ok_or_else(bad)
    };
    Ok(Pos::new(coord(x)?, coord(y)?))
}

/// Reads a choice typed by a person or a script.
pub fn parse(state: &State, text: &str) -> Result<Choice, Illegal> {
    if let Some(b) = Between::parse(text) {
        return Ok(Choice::Between(b));
    }
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
        ["retreat"] => Choice::Retreat(Flight::Away),
        ["retreat", "away", "from", t] => Choice::Retreat(Flight::AwayFrom(who(t)?)),
        ["retreat", "toward", t] => Choice::Retreat(Flight::Toward(who(t)?)),
        ["retreat", "to", square] => Choice::Retreat(Flight::To(square_at(square)?)),
        ["pursue", t] => Choice::Pursue(who(t)?),
        ["chop", o] => Choice::Chop(
            state
                .objects
                .iter()
                .position(|x| x.key == *o)
                .ok_or_else(|| Illegal {
                    rule: "ODD-R13",
                    reason: format!("no object `{o}` in this fight (see [[objects]])"),
                })? as u8,
        ),
        ["chopped", "through"] => Choice::Chopped(true),
        ["holds"] => Choice::Chopped(false),
        ["drop", "food"] => Choice::Lure(true),
        ["fling", "treasure"] => Choice::Lure(false),
        ["nothing"] => Choice::Nothing,
        ["fight"] => Choice::Fight,
        ["parley"] => Choice::Parley,
        _ => {
            return Err(illegal(format!(
                "`{text}` is not a choice: expected attack X, charge X, shoot X, run toward X, \
                 cast SPELL at X, disarm X, dismount X, entangle X weapon|feet, subdue X, grapple X, \
                 parry, withdraw, withdraw attacking X, retreat [away from X|toward X|to X,Y], \
                 chop OBJECT, pursue X, drop food, fling treasure, nothing, fight, parley, \
                 in sight, out of sight, corner, stairs, door, secret door, chopped through \
                 or holds"
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
                | Choice::Retreat(_)
                | Choice::Chop(_)
                | Choice::Nothing
        ),
        Question::Declaration => matches!(choice, Choice::Cast(..) | Choice::Nothing),
        Question::Ruling => matches!(
            choice,
            Choice::Fight | Choice::Parley | Choice::Between(_) | Choice::Chopped(_)
        ),
        Question::Reaction => matches!(
            choice,
            Choice::Attack(_) | Choice::Pursue(_) | Choice::Lure(_) | Choice::Nothing
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruling_reads_back_from_its_text() {
        for b in Between::ALL {
            assert_eq!(Between::parse(b.text()), Some(b));
        }
        assert_eq!(Between::parse("secret   door"), Some(Between::SecretDoor));
        assert_eq!(Between::parse("a trapdoor"), None);
    }

    #[test]
    fn every_gm_ruling_answers_a_ruling_question_and_reads_back() {
        use fray_core::catalog::ContentSet;
        let content = crate::Content::load(&crate::content::CONTENT_FILES).expect("content");
        let file = "schema = 1\nruleset = \"odd\"\n[[sides]]\nid = \"a\"\n[[sides]]\nid = \"b\"\n\
                    [[combatants]]\nid = \"x\"\nside = \"a\"\nmonster = \"Orc\"\nat = [0, 0]\n\
                    [[combatants]]\nid = \"y\"\nside = \"b\"\nmonster = \"Orc\"\nat = [1, 0]\n\
                    [[objects]]\nid = \"door\"\nat = [0, 2]\n";
        let state = crate::load("t.toml", file, &content).expect("loads").state;
        assert_eq!(parse(&state, "chop door").ok(), Some(Choice::Chop(0)));
        assert_eq!(
            parse(&state, "chop gate").map_err(|e| e.rule),
            Err("ODD-R13")
        );
        for rule in ["ODD-R3.3", "ODD-R30.5", "ODD-R13"] {
            assert!(!rulings(rule).is_empty(), "{rule}");
            for c in rulings(rule) {
                assert!(answers(Question::Ruling, c), "{rule}: {c:?}");
                assert_eq!(parse(&state, &text(&state, c)).ok(), Some(*c));
            }
        }
        assert!(rulings("ODD-R16.1").is_empty());
    }

    #[test]
    fn an_exit_square_is_two_whole_numbers() {
        assert_eq!(square_at("12,-3").ok(), Some(Pos::new(12, -3)));
        for bad in ["12", "a,b", "1,2,3", "99999,0"] {
            let e = square_at(bad).expect_err(bad);
            assert_eq!(e.rule, "ODD-R17.3");
        }
    }
}
