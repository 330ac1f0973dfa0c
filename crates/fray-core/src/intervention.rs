//! GM interventions: what the GM changes in a fight outside the rules' own doing — hit points,
//! a condition, a combatant's square, a ruling in the GM's words. Each is an answer in the log
//! like any other ([`crate::protocol::Answer::Intervene`]): replayed in order, undone like a
//! typed die. Rules take them only at their intervention points (round boundaries, and between
//! actions where the ruleset says so), through [`crate::runner::Table::intervention_point`].

use serde::{Deserialize, Serialize};
use std::fmt;

/// One GM intervention. Combatants are named by key (`orc-2`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Intervention {
    /// Hit points up (healing) or down (damage without a hit).
    Hp {
        /// Who.
        who: String,
        /// The change, e.g. -3 or +5.
        change: i32,
    },
    /// A condition gained (for `rounds` rounds counting this one, or until removed) or lost.
    Condition {
        /// Who.
        who: String,
        /// The condition's name (`prone`, `stunned`…).
        condition: String,
        /// Gained (true) or lost (false).
        gained: bool,
        /// How many rounds it lasts, this one included (`None`: until removed).
        rounds: Option<u32>,
    },
    /// A combatant placed on a square.
    Move {
        /// Who.
        who: String,
        /// The square.
        to: [i32; 2],
    },
    /// A combatant leaves the fight: it fled, surrendered or was captured.
    Remove {
        /// Who.
        who: String,
        /// How it left: `fled`, `surrendered` or `captured`.
        how: String,
    },
    /// A combatant held in reserve comes into the fight (a reinforcement), on its own square
    /// or on the one given.
    Add {
        /// Who.
        who: String,
        /// Where it arrives (`None`: the square its entry gives).
        to: Option<[i32; 2]>,
    },
    /// A ruling in the GM's words, logged with the fight.
    Ruling {
        /// The ruling.
        text: String,
    },
}

/// Longest ruling text, in characters.
pub const MAX_RULING_CHARS: usize = 500;

impl Intervention {
    /// Reads what the GM types: `hp orc-2 -3`, `cond fighter-1 prone 2`, `cond fighter-1 -prone`,
    /// `move orc-1 4 5`, `remove orc-3 fled`, `add ogre 6 2`, `rule the bridge holds`. `None`
    /// when the line is
    /// not an intervention.
    pub fn parse(line: &str) -> Option<Result<Intervention, String>> {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let words: Vec<&str> = rest.split_whitespace().collect();
        let number = |w: &str, what: &str| -> Result<i32, String> {
            w.trim_start_matches('+')
                .parse::<i32>()
                .map_err(|_| format!("{what}: `{w}` is not a whole number"))
        };
        let square = |x: &str, y: &str, what: &str| -> Result<[i32; 2], String> {
            let (x, y) = (number(x, what)?, number(y, what)?);
            if x.unsigned_abs() > 1_000_000 || y.unsigned_abs() > 1_000_000 {
                Err(format!("{what}: squares are within ±1000000"))
            } else {
                Ok([x, y])
            }
        };
        Some(match command {
            "hp" => match words.as_slice() {
                [who, change] => number(change, "hp WHO ±N").and_then(|change| {
                    if change == 0 || change.unsigned_abs() > 100_000 {
                        Err("hp WHO ±N: a change between -100000 and +100000, not 0".to_string())
                    } else {
                        Ok(Intervention::Hp {
                            who: who.to_ascii_lowercase(),
                            change,
                        })
                    }
                }),
                _ => Err("hp WHO ±N, e.g. `hp orc-2 -3` or `hp fighter-1 +5`".to_string()),
            },
            "cond" => match words.as_slice() {
                [who, condition] | [who, condition, _] => {
                    let (gained, name) = match condition.strip_prefix('-') {
                        Some(name) => (false, name),
                        None => (true, condition.trim_start_matches('+')),
                    };
                    let rounds = match words.get(2) {
                        None => Ok(None),
                        Some(_) if !gained => {
                            Err("cond WHO -NAME takes no rounds: it ends the condition".into())
                        }
                        Some(r) => match r.parse::<u32>() {
                            Ok(n) if (1..=1000).contains(&n) => Ok(Some(n)),
                            _ => Err(format!("cond: `{r}` rounds: give 1 to 1000")),
                        },
                    };
                    rounds.map(|rounds| Intervention::Condition {
                        who: who.to_ascii_lowercase(),
                        condition: name.to_ascii_lowercase(),
                        gained,
                        rounds,
                    })
                }
                _ => Err(
                    "cond WHO NAME [ROUNDS] to add, cond WHO -NAME to end, e.g. `cond orc-1 prone 2`"
                        .to_string(),
                ),
            },
            "move" => match words.as_slice() {
                [who, x, y] => square(x, y, "move WHO X Y").map(|to| Intervention::Move {
                    who: who.to_ascii_lowercase(),
                    to,
                }),
                _ => Err("move WHO X Y, e.g. `move orc-1 4 5`".to_string()),
            },
            "add" => match words.as_slice() {
                [who] => Ok(Intervention::Add {
                    who: who.to_ascii_lowercase(),
                    to: None,
                }),
                [who, x, y] => square(x, y, "add WHO [X Y]").map(|to| Intervention::Add {
                    who: who.to_ascii_lowercase(),
                    to: Some(to),
                }),
                _ => Err("add WHO [X Y], e.g. `add ogre 6 2` (a combatant held in reserve)".into()),
            },
            "remove" => match words.as_slice() {
                [who] | [who, _] => {
                    let how = words.get(1).copied().unwrap_or("fled").to_ascii_lowercase();
                    if ["fled", "surrendered", "captured"].contains(&how.as_str()) {
                        Ok(Intervention::Remove {
                            who: who.to_ascii_lowercase(),
                            how,
                        })
                    } else {
                        Err(format!(
                            "remove WHO [fled|surrendered|captured]: `{how}` is not one of them"
                        ))
                    }
                }
                _ => Err("remove WHO [fled|surrendered|captured], e.g. `remove orc-3 fled`".into()),
            },
            "rule" => {
                if rest.trim().is_empty() {
                    Err("rule TEXT: the ruling in words".to_string())
                } else if rest.chars().count() > MAX_RULING_CHARS || rest.chars().any(char::is_control) {
                    Err(format!(
                        "rule TEXT: printable text of at most {MAX_RULING_CHARS} characters"
                    ))
                } else {
                    Ok(Intervention::Ruling {
                        text: rest.trim().to_string(),
                    })
                }
            }
            _ => return None,
        })
    }

    /// The refusal of this intervention, for `reason` (an illegal choice by the GM, under the
    /// rule `GM`).
    pub fn refused(&self, reason: impl Into<String>) -> crate::protocol::Interrupt {
        crate::protocol::Interrupt::Error(crate::protocol::Fault::IllegalChoice {
            chooser: crate::protocol::Chooser::Gm,
            text: self.to_string(),
            illegal: crate::protocol::Illegal {
                rule: "GM",
                reason: reason.into(),
            },
        })
    }

    /// The combatant named `key`, or the refusal naming the key.
    pub fn combatant(
        &self,
        roster: &crate::Roster,
        key: &str,
    ) -> Result<crate::CombatantId, crate::protocol::Interrupt> {
        roster
            .find(key)
            .ok_or_else(|| self.refused(format!("no combatant `{key}` in this fight")))
    }

    /// A `remove`: who leaves, the standing it leaves with and its status word (`fled`,
    /// `surrendered`, `captured`); refused unless `up` says it is still fighting.
    pub fn leaving(
        &self,
        roster: &crate::Roster,
        up: impl Fn(crate::CombatantId) -> bool,
    ) -> Result<(crate::CombatantId, crate::Standing, &'static str), crate::protocol::Interrupt>
    {
        let Intervention::Remove { who, how } = self else {
            return Err(self.refused("not a `remove`"));
        };
        let id = self.combatant(roster, who)?;
        if !up(id) {
            return Err(self.refused(format!(
                "{} is not up: only a combatant still fighting can flee, surrender or be captured",
                roster.name(id)
            )));
        }
        Ok(match how.as_str() {
            "surrendered" => (id, crate::Standing::Surrendered, "surrendered"),
            "captured" => (id, crate::Standing::Captured, "captured"),
            _ => (id, crate::Standing::Fled, "fled"),
        })
    }

    /// An `add`: who comes into the fight and on which square (the one given, else its own);
    /// refused unless `standing` says it is in reserve and `free` says the square is open.
    pub fn arriving(
        &self,
        roster: &crate::Roster,
        standing: impl Fn(crate::CombatantId) -> crate::Standing,
        own_square: impl Fn(crate::CombatantId) -> crate::Pos,
        free: impl Fn(crate::Pos, crate::CombatantId) -> bool,
    ) -> Result<(crate::CombatantId, crate::Pos), crate::protocol::Interrupt> {
        let Intervention::Add { who, to } = self else {
            return Err(self.refused("not an `add`"));
        };
        let id = self.combatant(roster, who)?;
        if standing(id) != crate::Standing::Reserve {
            return Err(self.refused(format!(
                "{} is not in reserve: only a combatant held in reserve (`reserve = true`) can \
                 be brought into the fight",
                roster.name(id)
            )));
        }
        let at = to.map_or_else(|| own_square(id), |[x, y]| crate::Pos::new(x, y));
        if !free(at, id) {
            return Err(self.refused(format!("the square ({}, {}) is taken", at.x, at.y)));
        }
        Ok((id, at))
    }

    /// The combatant it concerns, if any.
    pub fn who(&self) -> Option<&str> {
        match self {
            Intervention::Hp { who, .. }
            | Intervention::Condition { who, .. }
            | Intervention::Move { who, .. }
            | Intervention::Remove { who, .. }
            | Intervention::Add { who, .. } => Some(who),
            Intervention::Ruling { .. } => None,
        }
    }
}

impl fmt::Display for Intervention {
    /// The intervention as the GM types it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Intervention::Hp { who, change } => write!(f, "hp {who} {change:+}"),
            Intervention::Condition {
                who,
                condition,
                gained: true,
                rounds: Some(r),
            } => write!(f, "cond {who} {condition} {r}"),
            Intervention::Condition {
                who,
                condition,
                gained,
                ..
            } => write!(
                f,
                "cond {who} {}{condition}",
                if *gained { "" } else { "-" }
            ),
            Intervention::Move { who, to } => write!(f, "move {who} {} {}", to[0], to[1]),
            Intervention::Remove { who, how } => write!(f, "remove {who} {how}"),
            Intervention::Add { who, to: None } => write!(f, "add {who}"),
            Intervention::Add { who, to: Some(to) } => write!(f, "add {who} {} {}", to[0], to[1]),
            Intervention::Ruling { text } => write!(f, "rule {text}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_gm_types_reads_and_prints_back() {
        for line in [
            "hp orc-2 -3",
            "hp fighter-1 +5",
            "cond orc-1 prone 2",
            "cond orc-1 -prone",
            "cond orc-1 stunned",
            "move orc-1 4 -5",
            "remove orc-3 fled",
            "remove orc-3 captured",
            "add ogre",
            "add ogre 6 -2",
            "rule the bridge holds",
        ] {
            let iv = Intervention::parse(line)
                .expect("an intervention")
                .expect("reads");
            assert_eq!(iv.to_string(), line);
        }
        assert!(Intervention::parse("attack orc-1").is_none());
        for bad in [
            "add",
            "add ogre 6",
            "add ogre 6 x",
            "add ogre 6 2000000",
            "hp orc-2",
            "hp orc-2 x",
            "hp orc-2 0",
            "cond orc-1",
            "cond orc-1 -prone 2",
            "cond orc-1 prone 0",
            "move orc-1 4",
            "remove",
            "remove orc-1 vanished",
            "rule ",
            "move orc 1 99999999",
        ] {
            assert!(
                Intervention::parse(bad).expect("an intervention").is_err(),
                "{bad}"
            );
        }
    }
}
