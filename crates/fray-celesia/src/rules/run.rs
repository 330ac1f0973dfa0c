//! Run (CEL-R12, full action, Provoke): four times the speed in a straight line, no DEX bonus to
//! DV until the start of the runner's next turn; as many rounds in a row as the CON score, then a
//! Constitution check each round (DC 10 + 1 per earlier check) or stop, staggered for
//! 10 − bonus(CON) minutes (at least 1). CEL-E18.

use super::round;
use crate::state::{bonus, State, CON};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::Interrupt;
use fray_core::{Board, CombatantId, Pos, Table};

/// Rounds in a minute (a round is 6 seconds).
pub const ROUNDS_PER_MINUTE: u32 = 10;

/// How far a run goes, in squares: 4 × speed. [CEL-R12 Run]
pub fn reach_squares(state: &State, who: CombatantId) -> i32 {
    4 * state.speed_squares(who)
}

/// The DC of the Constitution check to keep running this round, if one is due: none for the
/// first CON-score rounds, then 10 + 1 per earlier check. [CEL-R12 Run, CEL-E18]
pub fn check_due(rounds_run: u16, checks: u16, con: i32) -> Option<i32> {
    (i32::from(rounds_run) >= con).then(|| 10 + i32::from(checks))
}

/// Minutes staggered after failing the check: 10 − bonus(CON), at least 1. [CEL-R12 Run]
pub fn fatigue_minutes(con: i32) -> u32 {
    (10 - bonus(con)).max(1) as u32
}

/// Runs to `to` (acts paid): the check to keep running if due (failed: it stops, staggered),
/// attacks of opportunity before the move, then the move and the lost DEX bonus.
pub fn run(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    to: Pos,
) -> Result<(), Interrupt> {
    let con = state.score(who, CON);
    let (rounds, checks) = (state.f(who).run_rounds, state.f(who).run_checks);
    if let Some(dc) = check_due(rounds, checks, con) {
        let success = super::D20Check {
            purpose: "keep running",
            modifier: "CON",
            bonus: crate::state::modifier(con),
            dc,
            kind: super::CheckKind::Ability,
            results: ("runs on", "stops running"),
            rule: "CEL-R12",
        }
        .roll(state, table, who)?;
        state.fm(who).run_checks = checks.saturating_add(1);
        if !success {
            let minutes = fatigue_minutes(con);
            let until = state.round + minutes * ROUNDS_PER_MINUTE;
            let f = state.fm(who);
            f.fatigued_until = until;
            f.run_rounds = 0;
            f.run_checks = 0;
            table.emit(|| Event::Condition {
                who,
                condition: "staggered (ran too long)",
                gained: true,
                rule: "CEL-R12",
            });
            return Ok(());
        }
    }
    if !round::provoke(state, table, who, None)? {
        return Ok(());
    }
    if !state.square_free(to, who) {
        table.emit(|| Event::Forgone {
            who,
            what: "run",
            on: None,
            reason: "the square is taken".into(),
            rule: "CEL-R12",
        });
        return Ok(());
    }
    super::mounted::run_to(state, table, who, to)?;
    let f = state.fm(who);
    f.running = true;
    f.run_rounds = f.run_rounds.saturating_add(1);
    let n = f.run_rounds;
    table.emit(|| Event::Condition {
        who,
        condition: "running (no DEX bonus to DV)",
        gained: true,
        rule: "CEL-R12",
    });
    table.emit(|| Event::Acted {
        who,
        act: "has run",
        on: None,
        detail: format!(
            "{n} round{} in a row; a Constitution check each round after {con} (CON)",
            if n == 1 { "" } else { "s" }
        ),
        rule: "CEL-R12",
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CEL-E18: CON 14, 14 rounds run: round 15 checks against DC 10, round 16 against DC 11;
    /// a failure staggers for 10 − 2 = 8 minutes.
    #[test]
    fn e18_run_fatigue() {
        assert_eq!(check_due(13, 0, 14), None);
        assert_eq!(check_due(14, 0, 14), Some(10));
        assert_eq!(check_due(15, 1, 14), Some(11));
        assert_eq!(fatigue_minutes(14), 8);
        assert_eq!(fatigue_minutes(30), 1);
        assert_eq!(fatigue_minutes(8), 10);
    }
}
