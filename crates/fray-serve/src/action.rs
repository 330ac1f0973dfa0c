//! What a person does to a fight, as kept in its log: an answer in the `fray run` grammar,
//! undo, redo, a GM intervention, an override of the last roll, or who fray plays. Replaying a fight's log
//! of actions on a fresh [`Session`] (same encounter, same seed) gives the same fight.

use fray_core::answer::{parse_roll_answer, AnswerError};
use fray_core::intervention::Intervention;
use fray_core::protocol::Answer;
use fray_core::session::{Asked, Request};
use fray_engine::session::{Session, SessionError};
use fray_engine::Library;
use serde::{Deserialize, Serialize};

/// Longest text of one answer or command.
pub const MAX_COMMAND: usize = 4096;

/// One entry of a fight's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    /// An answer to the request waiting: a roll (`14`, `d20 14`, `3 5 6`), `r` (fray rolls
    /// it), or a choice (`attack orc-1`, `yes`).
    Answer {
        /// The text, as typed at `fray run`.
        text: String,
    },
    /// Takes back the last answer a person gave.
    Undo,
    /// Gives again the answer last taken back.
    Redo,
    /// A GM intervention in the `fray run` grammar (`hp orc-2 -3`, `cond …`, `move …`,
    /// `remove …`, `add …`, `rule …`).
    Intervene {
        /// The command.
        text: String,
    },
    /// The last roll's result was this (`override 14`, `override 3 17`).
    Override {
        /// The dice, as typed after `override`.
        text: String,
    },
    /// fray plays whom `who` names from now on (`fray run`'s `auto`).
    Auto {
        /// A combatant id, `orc-*`, `side:ID`, `gm` or `all`.
        who: String,
    },
    /// A person answers for whom `who` names from now on (`fray run`'s `manual`).
    Manual {
        /// A combatant id, `orc-*`, `side:ID`, `gm` or `all`.
        who: String,
    },
}

/// Why an action was not taken; the messages are `fray run`'s.
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    /// The session refused it (an impossible die, an illegal choice, nothing to undo…).
    #[error("{0}")]
    Session(#[from] SessionError),
    /// The text is not an answer or command.
    #[error("{0}")]
    Input(String),
}

impl Action {
    /// Applies the action to `session`; on an error the session is as it was.
    pub fn apply(&self, session: &mut Session, library: &Library) -> Result<(), ActionError> {
        match self {
            Action::Answer { text } => answer(session, text),
            Action::Undo => Ok(session.undo()?),
            Action::Redo => Ok(session.redo()?),
            Action::Intervene { text } => intervene(session, text, library),
            Action::Override { text } => override_roll(session, text),
            Action::Auto { who } => plays(session, who, true),
            Action::Manual { who } => plays(session, who, false),
        }
    }

    /// Checks the text's length and characters (as `fray run` does for a line).
    pub fn check(&self) -> Result<(), ActionError> {
        let text = match self {
            Action::Answer { text } | Action::Intervene { text } | Action::Override { text } => {
                text
            }
            Action::Auto { who } | Action::Manual { who } => who,
            Action::Undo | Action::Redo => return Ok(()),
        };
        if text.len() > MAX_COMMAND {
            return Err(ActionError::Input(format!(
                "a line is at most {MAX_COMMAND} characters"
            )));
        }
        if text.chars().any(char::is_control) {
            return Err(ActionError::Input(
                "control characters are not accepted; type plain text".to_string(),
            ));
        }
        Ok(())
    }
}

/// A die result, `r`, or a choice for the request asked (`fray run`'s answer).
fn answer(session: &mut Session, text: &str) -> Result<(), ActionError> {
    let line = text.trim();
    let request = session
        .pending()
        .cloned()
        .ok_or(SessionError::NothingAsked)?;
    let answer = match &request {
        Request::Roll(_) if line == "r" || line == "roll" => {
            session.roll_for_me()?;
            return Ok(());
        }
        Request::Roll(r) => match parse_roll_answer(r, line) {
            Ok(answer) => answer,
            Err(AnswerError::Unreadable { .. }) => {
                return Err(ActionError::Input(format!(
                    "`{line}` is not a roll; {} is asked",
                    r.dice_text()
                )))
            }
            Err(e) => return Err(ActionError::Input(e.to_string())),
        },
        Request::Choice { .. } => {
            let choice = match line.split_once(':') {
                Some((who, choice)) => {
                    let asked = match request.asked() {
                        Asked::Combatant(id) => session.roster().key(id).to_string(),
                        Asked::Gm => "gm".to_string(),
                    };
                    if !who.trim().eq_ignore_ascii_case(&asked) {
                        return Err(ActionError::Input(format!(
                            "{asked} is asked, not {}",
                            who.trim()
                        )));
                    }
                    choice.trim()
                }
                None => line,
            };
            Answer::Choice(choice.to_string())
        }
    };
    Ok(session.answer(answer)?)
}

/// A GM intervention (`fray run`'s `hp`, `cond`, `move`, `remove`, `add`, `rule`, and
/// `add ID KEY=VALUE…` for a new combatant).
fn intervene(session: &mut Session, text: &str, library: &Library) -> Result<(), ActionError> {
    let line = text.trim();
    let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
    if command == "add" && rest.contains('=') {
        let fields = fray_engine::session::split_fields(rest);
        let Some((id, words)) = fields.split_first() else {
            return Err(ActionError::Input("add ID KEY=VALUE…".to_string()));
        };
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let entry = fray_engine::session::entry_from_words(id, &words)
            .map_err(|e| ActionError::Input(format!("add ID KEY=VALUE…: {e}")))?;
        session.reinforce(&entry, library)?;
        return Ok(());
    }
    match Intervention::parse(line) {
        Some(Ok(intervention)) => Ok(session.intervene(intervention)?),
        Some(Err(usage)) => Err(ActionError::Input(usage)),
        None => Err(ActionError::Input(format!(
            "`{line}` is not an intervention: hp, cond, move, remove, add or rule"
        ))),
    }
}

/// `auto WHO` (`fray` true) or `manual WHO`: who fray plays, from the pause on (from the
/// start while no person has answered).
fn plays(session: &mut Session, who: &str, fray: bool) -> Result<(), ActionError> {
    let (ids, gm) = session.select(who.trim()).map_err(ActionError::Input)?;
    session.set_plays(|id| ids.contains(&id), gm.map(|_| fray), fray);
    Ok(())
}

/// Reads one line of `fray run`'s grammar as what a person does: `undo`, `redo`,
/// `override N`, `auto WHO`, `manual WHO`, an intervention (`hp`, `cond`, `move`, `remove`,
/// `add`, `rule`), else an answer.
pub fn from_line(line: &str) -> Action {
    let line = line.trim();
    let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim().to_string();
    match word {
        "undo" if rest.is_empty() => Action::Undo,
        "redo" if rest.is_empty() => Action::Redo,
        "override" => Action::Override { text: rest },
        "auto" => Action::Auto { who: rest },
        "manual" => Action::Manual { who: rest },
        "hp" | "cond" | "move" | "remove" | "add" | "rule" => Action::Intervene {
            text: line.to_string(),
        },
        _ => Action::Answer {
            text: line.to_string(),
        },
    }
}

/// `override N` (or each die).
fn override_roll(session: &mut Session, text: &str) -> Result<(), ActionError> {
    const USAGE: &str = "override N (or each die: override 3 17)";
    let numbers: Option<Vec<u32>> = text.split_whitespace().map(|w| w.parse().ok()).collect();
    let numbers = numbers
        .filter(|n| !n.is_empty())
        .ok_or_else(|| ActionError::Input(USAGE.to_string()))?;
    if !session
        .log()
        .iter()
        .any(|l| matches!(l.answer, Answer::Roll(_) | Answer::Dice(_)))
    {
        return Err(ActionError::Input("no roll was made yet".to_string()));
    }
    let answer = if numbers.len() == 1 {
        Answer::Roll(numbers[0])
    } else {
        Answer::Dice(numbers)
    };
    Ok(session.override_roll(answer)?)
}
