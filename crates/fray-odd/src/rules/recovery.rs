//! Recovery of temporary damage (ODD-R27.3): "Temporary damage points are regained at a rate of
//! 1 point times XP Level/HD per Turn". A Turn is 10 minutes; a round lasts `[options]
//! round_minutes` (ODD-A19, default 1), so a fight long enough sees Turns pass.

use crate::state::State;
use crate::Odd;
use fray_core::event::Event;
use fray_core::Table;

/// Minutes in a Turn ("10 minute Turn", ODD-R26.3).
pub const TURN_MINUTES: u32 = 10;

/// Turns completed before round `round` starts (rounds count from 1).
pub fn turns_before(round: u32, round_minutes: u32) -> u32 {
    round.saturating_sub(1) * round_minutes / TURN_MINUTES
}

/// ODD-R27.3: at the start of a round that begins a new Turn, everyone alive with temporary
/// damage regains 1 point × its XP level (or HD, at least 1) per Turn passed; one knocked out
/// whose temporary damage falls below its hit points comes to (ODD-R27.2).
pub fn recover(state: &mut State, table: &mut Table<'_, Odd>) {
    let m = state.options.round_minutes;
    let turns = turns_before(state.round, m) - turns_before(state.round.saturating_sub(1), m);
    if turns == 0 || state.round <= 1 {
        return;
    }
    for id in state.ids().collect::<Vec<_>>() {
        let (f, p) = (state.f(id), state.p(id));
        if f.temp <= 0 || f.dead || f.gone.is_some() {
            continue;
        }
        let was_up = f.is_up();
        let per_turn = p.level.max(1);
        let regained = (per_turn * turns as i32).min(f.temp);
        let f = state.f_mut(id);
        f.temp -= regained;
        let (left, hp, up) = (f.temp, f.hp, f.is_up());
        table.emit(|| Event::Acted {
            who: id,
            act: "regains temporary damage",
            on: None,
            detail: format!(
                "{regained} point(s): {per_turn} per Turn × {turns} Turn(s); {left} temporary left"
            ),
            rule: "ODD-R27.3",
        });
        if up && !was_up {
            table.emit(|| Event::Status {
                who: id,
                status: "conscious again",
                hp,
                rule: "ODD-R27.3",
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_passes_every_ten_minutes() {
        // One-minute rounds: the first Turn is over when round 11 starts.
        assert_eq!(turns_before(10, 1), 0);
        assert_eq!(turns_before(11, 1), 1);
        // Five-minute rounds: rounds 1 and 2 fill a Turn.
        assert_eq!(turns_before(2, 5), 0);
        assert_eq!(turns_before(3, 5), 1);
        assert_eq!(turns_before(5, 5), 2);
        // Ten-minute rounds: a Turn a round.
        assert_eq!(turns_before(2, 10), 1);
    }
}
