//! Movement past foes: the flight path of a retreat (ODD-R17.3) and a move through a line of
//! foes (ODD-R17.4), with the d6 + DEX contest and the free attacks of the foes passed.

use super::attack::{self, Manner};
use crate::choice::Flight;
use crate::state::State;
use crate::Odd;
use fray_core::board::Board;
use fray_core::event::{Event, Modifier, Subject};
use fray_core::grid::Direction;
use fray_core::protocol::{RollPurpose, RollRequest};
use fray_core::{CombatantId, Interrupt, Pos, Table};

/// The rule of a move through a line (its checks are worded for it).
const LINE: &str = "ODD-R17.4";

/// Within striking distance of a passing combatant: about 10 ft (ODD-R17.3, R17.4).
const PASS_FT: i32 = 10;

/// The squares of `who`'s flight, one per step, at most `steps` (ODD-R17.3: it turns and
/// runs). `Away` steps from the nearest standing foe (the board's `step_away`); `AwayFrom`
/// takes the free square farthest from that combatant, `Toward` and `To` the one nearest
/// its square (ties: the straighter line, then the first direction clockwise from north).
/// The flight stops where no free square takes it on.
pub fn path(state: &mut State, who: CombatantId, flight: Flight, steps: i32) -> Vec<Pos> {
    let start = state.f(who).pos;
    let mut out = Vec::new();
    // The standing foes do not move while it runs: their squares are gathered once.
    let foes: Vec<Pos> = match flight {
        Flight::Away => state
            .ids()
            .map(|o| state.piece(o))
            .filter(|p| p.side != state.f(who).side && p.stands)
            .map(|p| p.square)
            .collect(),
        _ => Vec::new(),
    };
    for _ in 0..steps.max(0) {
        let next = match flight {
            Flight::Away => step_away(state, who, &foes),
            Flight::AwayFrom(x) => step_by(state, who, state.f(x).pos, false),
            Flight::Toward(x) => step_by(state, who, state.f(x).pos, true),
            Flight::To(p) => step_by(state, who, p, true),
        };
        let Some(next) = next else { break };
        state.set_square(who, next);
        out.push(next);
    }
    state.set_square(who, start);
    out
}

/// The board's `step_away` (the free neighbouring square farthest from the nearest standing
/// foe, if farther than now; ties: the first direction clockwise from north), measured against
/// `foes`, the standing foes' squares: the same square, without a search of the board for
/// each of the nine squares it weighs (the sim's hot spot, docs/performance.md "OD&D sim").
fn step_away(state: &State, who: CombatantId, foes: &[Pos]) -> Option<Pos> {
    let nearest = |at: Pos| {
        foes.iter()
            .map(|&p| at.squares_to(p))
            .min()
            .unwrap_or(i32::MAX)
    };
    let from = state.f(who).pos;
    let now = nearest(from);
    let open = state.free_neighbours(who);
    let mut best: Option<(i32, Pos)> = None;
    for (k, dir) in Direction::ALL.into_iter().enumerate() {
        if !open[k] {
            continue;
        }
        let next = from.step(dir);
        let d = nearest(next);
        if d > now && best.is_none_or(|(bd, _)| d > bd) {
            best = Some((d, next));
        }
    }
    best.map(|(_, p)| p)
}

/// The squares `who` walks to reach `to` (a strike square `squares` away at most): a step at
/// a time toward it, as [`path`] with `Flight::To`.
pub fn walk(state: &mut State, who: CombatantId, to: Pos, squares: i32) -> Vec<Pos> {
    let mut out = path(state, who, Flight::To(to), squares);
    if out.last() != Some(&to) && state.f(who).pos != to {
        out.push(to);
    }
    out
}

/// The free neighbouring square that brings `who` nearer to `goal` (`toward`) or farther from
/// it, if one does.
fn step_by(state: &State, who: CombatantId, goal: Pos, toward: bool) -> Option<Pos> {
    let from = state.f(who).pos;
    let now = from.squares_to(goal);
    let open = state.free_neighbours(who);
    let mut best: Option<((i32, i64), Pos)> = None;
    for (k, dir) in Direction::ALL.into_iter().enumerate() {
        let next = from.step(dir);
        if !open[k] {
            continue;
        }
        let d = next.squares_to(goal);
        let (dx, dy) = (i64::from(next.x - goal.x), i64::from(next.y - goal.y));
        let e = dx * dx + dy * dy;
        let (gains, key) = if toward {
            (d < now, (d, e))
        } else {
            (d > now, (-d, -e))
        };
        if gains && best.is_none_or(|(b, _)| key < b) {
            best = Some((key, next));
        }
    }
    best.map(|(_, p)| p)
}

/// The foes of `who` that its walk from its square along `path` brings within 10 ft, each
/// with the step at which it is first reached (0: already at the start), in that order
/// (ties: roster order); only those `keep` accepts.
pub fn passed(
    state: &State,
    who: CombatantId,
    path: &[Pos],
    keep: impl Fn(CombatantId) -> bool,
) -> Vec<(usize, CombatantId)> {
    let start = state.f(who).pos;
    let mut out: Vec<(usize, CombatantId)> = Vec::new();
    for o in state.ids() {
        if !state.foes(who, o)
            || !state.f(o).is_up()
            || state.f(o).swallowed_by.is_some()
            || !keep(o)
        {
            continue;
        }
        let at = state.f(o).pos;
        let first = std::iter::once(start)
            .chain(path.iter().copied())
            .position(|sq| sq.feet_to(at) <= PASS_FT);
        if let Some(step) = first {
            out.push((step, o));
        }
    }
    out.sort_by_key(|&(step, o)| (step, o.0));
    out
}

/// The mover's d6 + DEX bonus in the contest of ODD-R17.3 (`result`: what it is doing).
pub fn contest_roll(
    state: &State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    result: &str,
    rule: &'static str,
) -> Result<i32, Interrupt> {
    let dex = state.p(who).dex_bonus;
    let roll = table.roll(RollRequest::new(
        1,
        6,
        Some(who),
        RollPurpose::Initiative,
        rule,
    ))? as i32;
    let total = roll + dex;
    table.emit(|| Event::Check {
        who: Subject::Combatant(who),
        purpose: if rule == LINE {
            "through the line"
        } else {
            "retreat"
        },
        dice: "d6".into(),
        roll: roll as u32,
        modifiers: dex_mods(dex),
        total,
        against: "",
        target: 0,
        under: false,
        success: None,
        result: result.into(),
        rule,
    });
    Ok(total)
}

fn dex_mods(dex: i32) -> Vec<Modifier> {
    if dex == 0 {
        Vec::new()
    } else {
        vec![Modifier::new("DEX", "ODD-R17.3", dex)]
    }
}

/// ODD-R17.3, ODD-A12: foe `o` rolls d6 + DEX against the mover's `mine` (a tie: it rolls
/// again); true when it rolls higher and so gets its free attack.
pub fn beats(
    state: &State,
    table: &mut Table<'_, Odd>,
    o: CombatantId,
    mine: i32,
    rule: &'static str,
) -> Result<bool, Interrupt> {
    let odex = state.p(o).dex_bonus;
    loop {
        let r = table.roll(RollRequest::new(
            1,
            6,
            Some(o),
            RollPurpose::Initiative,
            rule,
        ))? as i32;
        let total = r + odex;
        let tie = total == mine;
        table.emit(|| Event::Check {
            who: Subject::Combatant(o),
            purpose: if rule == LINE {
                "free attack"
            } else {
                "parting shot"
            },
            dice: "d6".into(),
            roll: r as u32,
            modifiers: dex_mods(odex),
            total,
            against: if rule == LINE {
                "the mover's roll"
            } else {
                "the retreat roll"
            },
            target: mine,
            under: false,
            success: (!tie).then_some(total > mine),
            result: if tie {
                "a tie: rolls again (ODD-A12)".into()
            } else if total > mine {
                "free attack".into()
            } else {
                "no free attack".into()
            },
            rule,
        });
        if !tie {
            return Ok(total > mine);
        }
    }
}

/// ODD-R17.3: one free attack of `o` on `who` at +2, ignoring `who`'s shield.
pub fn free_attack(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    o: CombatantId,
    who: CombatantId,
    rule: &'static str,
) -> Result<(), Interrupt> {
    if !state.f(who).is_up() {
        return Ok(());
    }
    if let Some(form) = state.p(o).melee.first().cloned() {
        let manner = Manner {
            parting: true,
            ..Manner::default()
        };
        attack::attack(state, table, o, who, &form, manner, rule)?;
    }
    Ok(())
}

/// How the foes passed on a walk get their free attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passing {
    /// Bystanders of a flight: a free attack each, no contest (ODD-R17.3 step 4, ODD-A39).
    Bystanders,
    /// A line moved through: each foe passed rolls against the mover's roll (ODD-R17.4).
    Contest(i32),
}

/// Walks `who` along `path`, logging each stretch (a flight, ODD-R17.3, or a move through the
/// line, ODD-R17.4, as `passing` says); each foe in `foes` (with the step it is reached at)
/// gets its free attack when `who` reaches it. Stops where `who` falls.
pub fn walk_past(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    path: &[Pos],
    foes: &[(usize, CombatantId)],
    passing: Passing,
) -> Result<(), Interrupt> {
    let (mode, rule) = match passing {
        Passing::Bystanders => ("flight", "ODD-R17.3"),
        Passing::Contest(_) => ("through the line", LINE),
    };
    let mut k = 0;
    for step in 0..=path.len() {
        if step > 0 {
            let reached = foes.get(k).is_some_and(|&(s, _)| s == step);
            if reached || step == path.len() {
                super::round::move_to(state, table, who, path[step - 1], mode, rule);
            }
        }
        while let Some(&(_, o)) = foes.get(k).filter(|&&(s, _)| s == step) {
            k += 1;
            if !state.f(who).is_up() || !state.f(o).is_up() {
                continue;
            }
            let strikes = match passing {
                Passing::Bystanders => true,
                Passing::Contest(mine) => beats(state, table, o, mine, rule)?,
            };
            if strikes {
                free_attack(state, table, o, who, rule)?;
            }
        }
        if !state.f(who).is_up() {
            break;
        }
    }
    Ok(())
}
