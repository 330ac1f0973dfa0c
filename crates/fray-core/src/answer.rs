//! Roll answers read and checked against their request: what a person types at a prompt
//! (`14`, `d20 14`, `3 17`, `2d20kh1 3 17`) with [`parse_roll_answer`], and a recorded
//! [`Answer`] (a log being replayed) with [`check_roll_answer`].
//!
//! A plain pool may be answered with its total or with its dice; a pool that keeps only some
//! of its dice (`2d20kh1`) must be answered with every die, since a total cannot say which
//! were kept. Every refusal is an [`AnswerError`] naming the request (`2d20kh1 needs 2 dice
//! between 1 and 20; got 1 die`).

use crate::protocol::{Answer, Keep, RollRequest, Rolled, MAX_POOL_DICE};
use std::fmt;

/// Why a roll answer does not fit its request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// Something that is neither a number nor the request's dice.
    #[error("{}; `{text}` is not a number", needs(request))]
    Unreadable {
        /// The request answered.
        request: RollRequest,
        /// The word that could not be read.
        text: String,
    },
    /// Dice notation that names other dice than the request's (`2d6` typed for `2d20kh1`).
    #[error("{}; got dice for {typed}", needs(request))]
    WrongDice {
        /// The request answered.
        request: RollRequest,
        /// The dice notation typed.
        typed: String,
    },
    /// Not as many dice as the request rolls.
    #[error("{}; got {}", needs(request), count_text(*got))]
    WrongCount {
        /// The request answered.
        request: RollRequest,
        /// How many dice were given.
        got: usize,
    },
    /// A die outside `1..=sides`.
    #[error("{}; {face} is not a face of a d{}", needs(request), request.sides)]
    FaceOutOfRange {
        /// The request answered.
        request: RollRequest,
        /// The impossible face.
        face: u32,
    },
    /// A total the pool cannot make.
    #[error("{}; a total of {total} is impossible", needs(request))]
    TotalOutOfRange {
        /// The request answered.
        request: RollRequest,
        /// The impossible total.
        total: u32,
    },
    /// A total where the individual dice are needed (the request keeps only some of them).
    #[error(
        "{}; got a total ({total}), which cannot say which dice were kept",
        needs(request)
    )]
    DiceNeeded {
        /// The request answered.
        request: RollRequest,
        /// The total given.
        total: u32,
    },
    /// A choice where a roll is due (a log that does not fit the fight).
    #[error("{}; got the choice `{choice}`", needs(request))]
    NotARoll {
        /// The request answered.
        request: RollRequest,
        /// The choice's text.
        choice: String,
    },
    /// Dice listed one by one for a plain pool of more than [`MAX_POOL_DICE`] dice.
    #[error(
        "{}; at most {MAX_POOL_DICE} dice can be given one by one",
        needs(request)
    )]
    TooManyDice {
        /// The request answered.
        request: RollRequest,
    },
}

impl AnswerError {
    /// The request the answer was for.
    pub fn request(&self) -> &RollRequest {
        match self {
            AnswerError::Unreadable { request, .. }
            | AnswerError::WrongDice { request, .. }
            | AnswerError::WrongCount { request, .. }
            | AnswerError::FaceOutOfRange { request, .. }
            | AnswerError::TotalOutOfRange { request, .. }
            | AnswerError::DiceNeeded { request, .. }
            | AnswerError::NotARoll { request, .. }
            | AnswerError::TooManyDice { request } => request,
        }
    }
}

/// What the request accepts, in words: `2d20kh1 needs 2 dice between 1 and 20`.
fn needs(request: &RollRequest) -> Needs<'_> {
    Needs(request)
}

/// [`needs`] as a displayable value (no allocation until printed).
struct Needs<'a>(&'a RollRequest);

impl fmt::Display for Needs<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.0;
        let dice = r.dice_text();
        if r.needs_dice() {
            write!(f, "{dice} needs {} dice between 1 and {}", r.count, r.sides)
        } else if r.count == 1 {
            write!(f, "{dice} needs a die between 1 and {}", r.sides)
        } else if usize::from(r.count) <= MAX_POOL_DICE {
            write!(
                f,
                "{dice} needs its total ({} to {}) or its {} dice between 1 and {}",
                r.min_total(),
                r.max_total(),
                r.count,
                r.sides
            )
        } else {
            write!(
                f,
                "{dice} needs its total ({} to {})",
                r.min_total(),
                r.max_total()
            )
        }
    }
}

/// `nothing`, `1 die`, `3 dice`.
fn count_text(got: usize) -> String {
    match got {
        0 => "nothing".to_string(),
        1 => "1 die".to_string(),
        n => format!("{n} dice"),
    }
}

/// Reads what a person typed for `request` and checks it.
///
/// Accepted: optional dice notation naming the request's dice (`d20`, `2d20`, `2d20kh1`; the
/// count and the keep may be left out, the sides may not), then numbers separated by spaces or
/// commas (brackets are ignored). For a plain pool one number is its total (for one die, its
/// face) and several numbers are its dice, one each; for a pool that keeps only some of its
/// dice the numbers are always its dice, every one of them. A plain pool's total is recorded
/// as [`Answer::Roll`] (the same answer the simulator records), dice as [`Answer::Dice`].
pub fn parse_roll_answer(request: &RollRequest, text: &str) -> Result<Answer, AnswerError> {
    let mut words = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']')
        .filter(|w| !w.is_empty())
        .peekable();
    if let Some(first) = words.peek() {
        if first.contains(['d', 'D']) {
            let typed = first.to_ascii_lowercase();
            if !names_request(&typed, request) {
                return Err(AnswerError::WrongDice {
                    request: *request,
                    typed,
                });
            }
            words.next();
        }
    }
    let mut numbers = Vec::new();
    for word in words {
        let value = word.parse::<u32>().map_err(|_| AnswerError::Unreadable {
            request: *request,
            text: word.to_string(),
        })?;
        numbers.push(value);
    }
    let answer = match numbers.as_slice() {
        [] => {
            return Err(AnswerError::WrongCount {
                request: *request,
                got: 0,
            })
        }
        [total] if !request.needs_dice() => Answer::Roll(*total),
        _ => Answer::Dice(numbers),
    };
    check_roll_answer(request, &answer)?;
    Ok(answer)
}

/// Whether dice notation (`d20`, `2d20`, `2d20kh1`, lowercase) names `request`'s dice: the
/// sides must match; a count or a keep, when given, must match too.
fn names_request(typed: &str, request: &RollRequest) -> bool {
    let Some((count, rest)) = typed.split_once('d') else {
        return false;
    };
    let split = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (sides, keep) = rest.split_at(split);
    let count_fits = count.is_empty() || count.parse::<u16>().ok() == Some(request.count);
    let sides_fit = sides.parse::<u16>().ok() == Some(request.sides);
    let keep_fits = keep.is_empty() || {
        let kept = |digits: &str| -> Option<u16> {
            if digits.is_empty() {
                Some(1)
            } else {
                digits.parse().ok()
            }
        };
        match request.keep {
            Keep::Highest(k) => keep.strip_prefix("kh").and_then(kept) == Some(k),
            Keep::Lowest(k) => keep.strip_prefix("kl").and_then(kept) == Some(k),
            Keep::All => false,
        }
    };
    count_fits && sides_fit && keep_fits
}

/// Checks a recorded answer against `request` and returns the roll it stands for (the dice
/// with the keep applied, or a plain pool's total alone).
pub fn check_roll_answer(request: &RollRequest, answer: &Answer) -> Result<Rolled, AnswerError> {
    match answer {
        Answer::Roll(total) if request.needs_dice() => Err(AnswerError::DiceNeeded {
            request: *request,
            total: *total,
        }),
        Answer::Roll(total) if request.count == 1 => {
            if (1..=u32::from(request.sides)).contains(total) {
                Rolled::from_faces(request, &[*total])
            } else {
                Err(AnswerError::FaceOutOfRange {
                    request: *request,
                    face: *total,
                })
            }
        }
        Answer::Roll(total) => {
            if (request.min_total()..=request.max_total()).contains(total) {
                Ok(Rolled::total_only(*total))
            } else {
                Err(AnswerError::TotalOutOfRange {
                    request: *request,
                    total: *total,
                })
            }
        }
        Answer::Dice(faces) => Rolled::from_faces(request, faces),
        Answer::Choice(choice) => Err(AnswerError::NotARoll {
            request: *request,
            choice: choice.clone(),
        }),
        Answer::Intervene(intervention) => Err(AnswerError::NotARoll {
            request: *request,
            choice: intervention.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::RollPurpose;

    fn request(count: u16, sides: u16) -> RollRequest {
        RollRequest::new(count, sides, None, RollPurpose::Attack, "T-1")
    }

    fn message(request: &RollRequest, text: &str) -> String {
        parse_roll_answer(request, text)
            .expect_err(text)
            .to_string()
    }

    #[test]
    fn reads_the_forms_a_person_types() {
        let d20 = request(1, 20);
        assert_eq!(parse_roll_answer(&d20, "14"), Ok(Answer::Roll(14)));
        assert_eq!(parse_roll_answer(&d20, " d20 14 "), Ok(Answer::Roll(14)));
        assert_eq!(parse_roll_answer(&d20, "1D20 14"), Ok(Answer::Roll(14)));
        let adv = request(2, 20).keep_highest(1);
        assert_eq!(
            parse_roll_answer(&adv, "3 17"),
            Ok(Answer::Dice(vec![3, 17]))
        );
        assert_eq!(
            parse_roll_answer(&adv, "2d20 3 17"),
            Ok(Answer::Dice(vec![3, 17]))
        );
        assert_eq!(
            parse_roll_answer(&adv, "d20 3, 17"),
            Ok(Answer::Dice(vec![3, 17]))
        );
        assert_eq!(
            parse_roll_answer(&adv, "2d20kh1 [3, 17]"),
            Ok(Answer::Dice(vec![3, 17]))
        );
        assert_eq!(
            parse_roll_answer(&adv, "2d20kh 3 17"),
            Ok(Answer::Dice(vec![3, 17]))
        );
        let dis = request(3, 20).keep_lowest(1);
        assert_eq!(
            parse_roll_answer(&dis, "3d20kl1 12 5 9"),
            Ok(Answer::Dice(vec![12, 5, 9]))
        );
        // A plain pool: one number is its total, several are its dice.
        let morale = request(2, 6);
        assert_eq!(parse_roll_answer(&morale, "8"), Ok(Answer::Roll(8)));
        assert_eq!(parse_roll_answer(&morale, "2d6 8"), Ok(Answer::Roll(8)));
        assert_eq!(
            parse_roll_answer(&morale, "3 5"),
            Ok(Answer::Dice(vec![3, 5]))
        );
        // Keeping every die is a plain pool: a total will do.
        let all = request(2, 20).keep_highest(2);
        assert_eq!(parse_roll_answer(&all, "30"), Ok(Answer::Roll(30)));
    }

    #[test]
    fn refusals_name_the_request_and_what_it_needs() {
        let adv = request(2, 20).keep_highest(1);
        assert_eq!(
            message(&adv, "14"),
            "2d20kh1 needs 2 dice between 1 and 20; got 1 die"
        );
        assert_eq!(
            message(&adv, "1 2 3"),
            "2d20kh1 needs 2 dice between 1 and 20; got 3 dice"
        );
        assert_eq!(
            message(&adv, ""),
            "2d20kh1 needs 2 dice between 1 and 20; got nothing"
        );
        assert_eq!(
            message(&adv, "3 21"),
            "2d20kh1 needs 2 dice between 1 and 20; 21 is not a face of a d20"
        );
        assert_eq!(
            message(&adv, "0 5"),
            "2d20kh1 needs 2 dice between 1 and 20; 0 is not a face of a d20"
        );
        assert_eq!(
            message(&adv, "3 seventeen"),
            "2d20kh1 needs 2 dice between 1 and 20; `seventeen` is not a number"
        );
        assert_eq!(
            message(&adv, "-3 17"),
            "2d20kh1 needs 2 dice between 1 and 20; `-3` is not a number"
        );
        assert_eq!(
            message(&adv, "2d6 3 5"),
            "2d20kh1 needs 2 dice between 1 and 20; got dice for 2d6"
        );
        assert_eq!(
            message(&adv, "3d20 3 5 7"),
            "2d20kh1 needs 2 dice between 1 and 20; got dice for 3d20"
        );
        assert_eq!(
            message(&adv, "2d20kl1 3 5"),
            "2d20kh1 needs 2 dice between 1 and 20; got dice for 2d20kl1"
        );
        let d20 = request(1, 20);
        assert_eq!(
            message(&d20, "21"),
            "1d20 needs a die between 1 and 20; 21 is not a face of a d20"
        );
        assert_eq!(
            message(&d20, "d20kh1 5"),
            "1d20 needs a die between 1 and 20; got dice for d20kh1"
        );
        let morale = request(2, 6);
        assert_eq!(
            message(&morale, "13"),
            "2d6 needs its total (2 to 12) or its 2 dice between 1 and 6; a total of 13 is impossible"
        );
        assert_eq!(
            message(&morale, "1"),
            "2d6 needs its total (2 to 12) or its 2 dice between 1 and 6; a total of 1 is impossible"
        );
        assert_eq!(
            message(&morale, "1 2 3"),
            "2d6 needs its total (2 to 12) or its 2 dice between 1 and 6; got 3 dice"
        );
        let fall = request(55, 6);
        assert_eq!(parse_roll_answer(&fall, "200"), Ok(Answer::Roll(200)));
        let many = vec!["3"; 55].join(" ");
        assert_eq!(
            message(&fall, &many),
            "55d6 needs its total (55 to 330); at most 32 dice can be given one by one"
        );
    }

    #[test]
    fn recorded_answers_are_checked_and_keep_is_applied() {
        let adv = request(2, 20).keep_highest(1);
        let rolled = check_roll_answer(&adv, &Answer::Dice(vec![3, 17])).expect("fits");
        assert_eq!(rolled.total(), 17);
        assert_eq!(rolled.faces(), &[3, 17]);
        assert_eq!(
            check_roll_answer(&adv, &Answer::Roll(17)),
            Err(AnswerError::DiceNeeded {
                request: adv,
                total: 17
            })
        );
        let morale = request(2, 6);
        let total = check_roll_answer(&morale, &Answer::Roll(9)).expect("fits");
        assert_eq!((total.total(), total.faces()), (9, &[][..]));
        assert!(check_roll_answer(&morale, &Answer::Roll(13)).is_err());
        assert!(check_roll_answer(&morale, &Answer::Choice("x".into())).is_err());
        // A single die answered with its total still knows its face.
        let d20 = request(1, 20);
        assert_eq!(
            check_roll_answer(&d20, &Answer::Roll(12)).map(|r| r.faces().to_vec()),
            Ok(vec![12])
        );
    }
}
