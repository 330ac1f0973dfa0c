//! Hazardous squares (CEL-R10.10 Grapple, Continued, Move: "If you attempt to place your foe in
//! a hazardous location, the target can attempt to free itself from the grapple as a reaction,
//! and gains a +4 bonus on that attempt"). The seed says what a hazard lets the foe do, not
//! what a hazard is or does: the encounter's `[[hazard]]` tables mark squares with a name (and,
//! if the file says so, the damage a creature placed there takes), and the GM marks more during
//! the fight (`rule hazard X Y NAME`, `rule safe X Y`). A grappler whose Move places its foe on
//! one asks the foe first: free itself (a reaction, +4, by a combat maneuver check or Escape
//! Artist) or not. Freed, it stays next to the grappler on the nearest space that is no hazard;
//! held, it is placed there, takes the file's damage if any, and else what the hazard does is
//! the GM's (an intervention), never a number of the engine's.

use super::legal;
use crate::choice::Choice;
use crate::state::{Asking, State};
use crate::Celesia;
use fray_core::damage::DamageDice;
use fray_core::event::Event;
use fray_core::intervention::Intervention;
use fray_core::protocol::{Interrupt, RollPurpose};
use fray_core::{CombatantId, Pos, Table};

const RULE: &str = "CEL-R10.10";

/// At most this many hazardous squares in one fight (the file's and the GM's together).
pub const MAX_HAZARDS: usize = 256;

/// Longest hazard name, in characters.
pub const MAX_NAME: usize = 60;

/// One hazardous square.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Hazard {
    /// Its name in the log (`fire pit`).
    pub name: String,
    /// The square.
    pub at: Pos,
    /// The damage a creature placed there takes, if the encounter file gives it; else what it
    /// does is the GM's.
    pub damage: Option<DamageDice>,
}

/// The hazard on any square of a space of side `side` on `at`, if one is.
pub fn under(state: &State, at: Pos, side: i32) -> Option<&Hazard> {
    if state.hazards.is_empty() {
        return None;
    }
    crate::space::squares(at, side).find_map(|q| state.hazards.iter().find(|h| h.at == q))
}

/// The end of a grappler's Move (CEL-R10.10): `target`, carried from `from` as `grappler` moved
/// to `to`, is placed on `next`. A hazardous space there lets it try to free itself first (a
/// reaction: one left, not performing a 1-round action, CEL-R3.7); freed, it stands next to
/// the grappler on the free space that is no hazard nearest where it was (none: where it was).
pub fn place(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    grappler: CombatantId,
    target: CombatantId,
    (from, to, next): (Pos, Pos, Pos),
) -> Result<(), Interrupt> {
    let side = state.side(target);
    let hazard = under(state, next, side).cloned();
    let mut at = next;
    if hazard.is_some()
        && state.f(target).held_by == Some(grappler)
        && free_itself(state, table, target, grappler)?
    {
        at = super::grapple::square_next_to_where(state, to, from, target, grappler, |p| {
            under(state, p, side).is_none()
        })
        .unwrap_or(from);
    }
    if at != from {
        state.set_square(target, at);
        table.emit(|| Event::Moved {
            who: target,
            from,
            to: at,
            feet: from.feet_to(at),
            mode: "carried",
            hidden: super::concealment::hidden(state, target),
            rule: RULE,
        });
    }
    match hazard {
        Some(h) if at == next => befall(state, table, target, &h),
        _ => Ok(()),
    }
}

/// Asks `who` whether it frees itself as a reaction, if it can, and tries. True if it is free.
fn free_itself(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    grappler: CombatantId,
) -> Result<bool, Interrupt> {
    let cannot = if !state.up(who) {
        Some("it is not up")
    } else if super::one_round::performing(state, who) {
        Some("performing a 1-round action: no reactions (CEL-R3.7)")
    } else if state.f(who).reactions <= 0 {
        Some("no reaction left")
    } else {
        None
    };
    let answer = match cannot {
        Some(reason) => Err(reason),
        None => Ok(legal::ask(
            state,
            table,
            Asking::Hazard { who, grappler },
            RULE,
        )?),
    };
    let artist = match answer {
        Ok(Choice::FreeItself(artist)) => artist,
        other => {
            let reason = match other {
                Err(reason) => reason,
                Ok(_) => "declined",
            };
            table.emit(|| Event::Forgone {
                who,
                what: "escape at +4 (hazard)",
                on: Some(grappler),
                reason: reason.into(),
                rule: RULE,
            });
            return Ok(false);
        }
    };
    state.fm(who).reactions -= 1;
    // Its Escape Artist check is a skill check made as a reaction (CEL-R4.5 row 8).
    state.fm(who).reacting = true;
    let free = if artist {
        super::escape::free_itself_artist(state, table, who, grappler)
    } else {
        super::grapple::free_itself(state, table, who, grappler)
    };
    state.fm(who).reacting = false;
    free
}

/// `who` is in the hazard `h`: the file's damage, or the log says its effect is the GM's.
fn befall(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    h: &Hazard,
) -> Result<(), Interrupt> {
    table.emit(|| Event::Acted {
        who,
        act: "is placed in a hazard",
        on: None,
        detail: format!(
            "{} at {} {}{}",
            h.name,
            h.at.x,
            h.at.y,
            match h.damage {
                Some(d) => format!(", {} damage (the encounter's)", d.text()),
                None => ": what it does is the GM's (the seed gives no hazard numbers)".into(),
            }
        ),
        rule: RULE,
    });
    if let Some(d) = h.damage {
        let rolled = table.roll_damage(d, Some(who), RollPurpose::Damage, RULE)?;
        let amount = (rolled + d.bonus).max(0);
        super::injury::lose_hp(state, table, who, amount, "hazard", RULE);
    }
    Ok(())
}

/// The hazardous squares in words for the GM's status, in the order they were marked
/// (`hazard: fire pit at 3 1 (2d6 damage)`). [CEL-R10.10 Move]
pub fn words(state: &State) -> Vec<String> {
    state
        .hazards
        .iter()
        .map(|h| {
            format!(
                "hazard: {} at {} {} ({})",
                h.name,
                h.at.x,
                h.at.y,
                match h.damage {
                    Some(d) => format!("{} damage", d.text()),
                    None => "what it does is the GM's".into(),
                }
            )
        })
        .collect()
}

/// The options of a creature about to be placed on a hazard: free itself by a combat maneuver
/// check or Escape Artist, or not.
pub fn options(out: &mut Vec<Choice>) {
    out.push(Choice::FreeItself(false));
    out.push(Choice::FreeItself(true));
    out.push(Choice::Decline);
}

/// The default tactics: free itself, with Escape Artist when its bonus beats its CMB.
pub fn default_choice(state: &State, who: CombatantId) -> Choice {
    let cmb = super::attack::cmb(state, who).total();
    Choice::FreeItself(state.p(who).escape_artist > cmb)
}

/// The GM marks a hazard during the fight (`rule hazard X Y NAME`: what it does is the GM's)
/// or takes one off (`rule safe X Y`). Other rulings change nothing. Ok(false): not about
/// hazards.
pub fn ruling(
    state: &mut State,
    intervention: &Intervention,
    text: &str,
) -> Result<bool, Interrupt> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (mark, rest) = match words.split_first() {
        Some((&"hazard", rest)) => (true, rest),
        Some((&"safe", rest)) => (false, rest),
        _ => return Ok(false),
    };
    let usage = "`rule hazard X Y NAME` marks a hazardous square, `rule safe X Y` takes one off";
    let square = match rest {
        [x, y, ..] => x.parse::<i32>().ok().zip(y.parse::<i32>().ok()),
        _ => None,
    };
    let Some((x, y)) = square.filter(|(x, y)| x.abs() <= 1_000_000 && y.abs() <= 1_000_000) else {
        return Err(intervention.refused(format!("{usage}: X and Y whole numbers within ±1000000")));
    };
    let at = Pos::new(x, y);
    let mut hazards = state.hazards.to_vec();
    let here = hazards.iter().position(|h| h.at == at);
    if mark {
        let name = rest[2..].join(" ");
        if name.is_empty() || name.chars().count() > MAX_NAME {
            return Err(
                intervention.refused(format!("{usage}: NAME of 1 to {MAX_NAME} characters"))
            );
        }
        if here.is_some() {
            return Err(intervention.refused(format!("({x}, {y}) is hazardous already")));
        }
        if hazards.len() >= MAX_HAZARDS {
            return Err(intervention.refused(format!("at most {MAX_HAZARDS} hazardous squares")));
        }
        hazards.push(Hazard {
            name,
            at,
            damage: None,
        });
    } else {
        let Some(i) = here else {
            return Err(intervention.refused(format!("({x}, {y}) is no hazard")));
        };
        if rest.len() > 2 {
            return Err(intervention.refused(usage.to_string()));
        }
        hazards.remove(i);
    }
    state.hazards = hazards.into();
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    fn rule(state: &mut State, text: &str) -> Result<bool, Interrupt> {
        let iv = Intervention::Ruling { text: text.into() };
        ruling(state, &iv, text)
    }

    /// The GM marks a hazardous square, found under any square of a space; marking it twice,
    /// a bad square or no name is refused; `safe` takes it off; other rulings change nothing.
    #[test]
    fn the_gm_marks_and_clears_a_hazard() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        assert_eq!(rule(&mut s, "the bridge holds").ok(), Some(false));
        assert_eq!(rule(&mut s, "hazard 3 1 burning oil").ok(), Some(true));
        assert_eq!(
            under(&s, Pos::new(3, 1), 1).map(|h| h.name.as_str()),
            Some("burning oil")
        );
        assert!(
            under(&s, Pos::new(2, 0), 2).is_some(),
            "a Large space on 2 0 covers 3 1"
        );
        assert!(under(&s, Pos::new(2, 0), 1).is_none());
        assert!(
            rule(&mut s, "hazard 3 1 again").is_err(),
            "hazardous already"
        );
        assert!(rule(&mut s, "hazard 3 2").is_err(), "no name");
        assert!(rule(&mut s, "hazard x 2 pit").is_err(), "not a square");
        assert!(rule(&mut s, "safe 3 2").is_err(), "no hazard there");
        assert_eq!(rule(&mut s, "safe 3 1").ok(), Some(true));
        assert!(s.hazards.is_empty());
    }
}
