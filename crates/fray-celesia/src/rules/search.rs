//! Search (CEL-R9, simple, no Provoke: "You use Perception to search a room for salient hidden
//! creatures or clues, or you make a detailed search of a 10-foot-square area to detect traps,
//! triggers, hidden objects, or footprints. When you search an area, this action has the
//! complex subtype"). fray's hidden creatures are the invisible ones (the GM's word,
//! `invisible`: their moves are shown to their own side only, `rules::concealment`); fray has no
//! traps, triggers, hidden objects, footprints or clues, so the search of an area (the complex
//! subtype, whose acts are the GM's, CEL-G3) is not played. A Perception check (d20 + the
//! entry's `perception`, default 0) against the GM's `search_dc` (the seed gives none; default
//! Pathfinder's DC 20 to notice an invisible creature, within its 30 ft: `search_feet`); on a
//! success the searcher's side learns the square of every invisible foe within that many feet
//! (an event for that side only, `Event::Learned`). The seed gives the search no effect on
//! attacks, and none is played; an invisible creature's later moves stay hidden.

use super::aid_check::Skill;
use super::D20Check;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::Interrupt;
use fray_core::{CombatantId, Table};

/// The rule.
pub const RULE: &str = "CEL-R9";

/// Pathfinder's DC to notice an invisible creature (the default of `search_dc`).
pub const DEFAULT_DC: i32 = 20;

/// Pathfinder's reach of that check, in feet (the default of `search_feet`).
pub const DEFAULT_FEET: i32 = 30;

/// The farthest `search_feet` the GM may set.
pub const MAX_FEET: i32 = 1000;

/// The invisible foes of `who` still in the fight within `feet` of it, in id order.
pub fn hidden_foes(state: &State, who: CombatantId, feet: i32) -> Vec<CombatantId> {
    state
        .ids()
        .filter(|&t| {
            state.enemies(who, t)
                && state.f(t).invisible
                && !state.f(t).absent()
                && state.feet_between(who, t) <= feet
        })
        .collect()
}

/// CEL-R9 Search: a Perception check (a Wisdom skill, CEL-A34; not sight-based — the creatures
/// sought are unseen — so an eye injury or dazzle gives no disadvantage, CEL-R4.5, R18) against
/// the GM's DC; on a success `who`'s side learns where each invisible foe within
/// `search_feet` is.
pub fn search(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    let feet = state.options.search_feet;
    table.emit(|| Event::Acted {
        who,
        act: "searches",
        on: None,
        detail: format!("for hidden creatures within {feet} ft (Perception)"),
        rule: RULE,
    });
    let check = D20Check {
        purpose: "Search (Perception)",
        modifier: Skill::Perception.name(),
        bonus: Skill::Perception.bonus(state, who).unwrap_or(0),
        dc: state.options.search_dc,
        kind: Skill::Perception.kind(),
        results: ("finds what is hidden within reach", "finds nothing"),
        rule: RULE,
    };
    if !check.roll_skill(Skill::Perception, state, table, who)? {
        return Ok(());
    }
    for t in hidden_foes(state, who, feet) {
        let at = state.f(t).pos;
        table.emit(|| Event::Learned {
            who,
            about: t,
            facts: "invisible, found by Search (where it is now)".into(),
            at: Some(at),
            rule: RULE,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use fray_core::driver::ScriptedDriver;
    use fray_core::event::VecSink;
    use fray_core::runner::Limits;
    use fray_core::Pos;

    const ANN: CombatantId = CombatantId(0);

    /// Ann (Perception +5) at 0,0; an invisible orc 30 ft off, an invisible one 35 ft off, a
    /// seen orc next to her, and her invisible friend Ivy.
    fn fight() -> State {
        let mut s = Fixture::new()
            .with(
                "ann",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nperception = 5"),
            )
            .monster("near", "orcs", [6, 0], "orc")
            .monster("far", "orcs", [7, 0], "orc")
            .monster("seen", "orcs", [1, 0], "orc")
            .with("ivy", "heroes", [0, 2], FIGHTER)
            .state();
        for id in [1, 2, 4] {
            s.fm(CombatantId(id)).invisible = true;
        }
        s
    }

    fn search_with(state: &mut State, die: u32) -> Vec<Event> {
        let mut driver = ScriptedDriver::new(vec![die], Vec::new());
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        search(state, &mut table, ANN).expect("scripted");
        drop(table);
        sink.events.into_iter().map(|(_, e)| e).collect()
    }

    fn found(events: &[Event]) -> Vec<(CombatantId, Option<Pos>)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Learned { about, at, .. } => Some((*about, *at)),
                _ => None,
            })
            .collect()
    }

    /// DC 20, 30 ft by default: d20 14 + 5 = 19 finds nothing; 15 + 5 = 20 finds the invisible
    /// foe within 30 ft only (not the one at 35 ft, not the seen one, not a friend).
    #[test]
    fn finds_invisible_foes_within_reach() {
        let mut s = fight();
        assert!(found(&search_with(&mut s, 14)).is_empty());
        assert_eq!(
            found(&search_with(&mut s, 15)),
            vec![(CombatantId(1), Some(Pos::new(6, 0)))]
        );
        std::sync::Arc::make_mut(&mut s.options).search_feet = 35;
        assert_eq!(found(&search_with(&mut s, 15)).len(), 2);
    }
}
