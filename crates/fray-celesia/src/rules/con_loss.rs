//! Ability damage and drain to Constitution (CEL-R17.9: "A character can also die from taking
//! ability damage or suffering an ability drain that reduces his Constitution score to 0").
//! The seed names both only as reducing the Constitution score, so fray lowers the score `C`
//! by them (kept in `Fighter::drained` as `spell::PenaltySource::Damage` and `Drain`,
//! `State::score`), down to 0, where the creature dies; every rule that reads `C` reads the
//! lowered score: the bands of hit points (CEL-R17: disabled, dying and dead move at once),
//! the crippling-injury cap (CEL-R18.2), Run's rounds and Constitution checks (CEL-R12), the
//! Fortitude save through the modifier (CEL-R6.2). The seed gives no source of either in a
//! fight and no way to heal them: they come from before the fight (the entry's `con_damage`,
//! `con_drain`) or from the GM (`rule con WHO -N [drain]`), and the GM restores them
//! (`rule con WHO +N [drain]`: whatever magic or rest the GM rules). Restoring Constitution does
//! not bring the dead back (CEL-R17.9: that takes raise dead or resurrection).

use super::injury;
use crate::spell::Penalized;
use crate::state::{State, CON};
use crate::Celesia;
use fray_core::conditions::{Expiry, Timed};
use fray_core::event::Event;
use fray_core::intervention::Intervention;
use fray_core::{CombatantId, Interrupt, Table};

/// The most Constitution the GM may take or restore at once (scores run 1 to 50).
pub const MAX_CHANGE: i32 = 50;

const USAGE: &str = "`rule con WHO -N` (Constitution damage), `rule con WHO -N drain` \
                     (drain), `rule con WHO +N [drain]` (restored)";

/// The Constitution `who` has lost to damage (`drain`: to drain).
pub fn lost(state: &State, who: CombatantId, drain: bool) -> i32 {
    state
        .f(who)
        .drained
        .get(Penalized::con_loss(drain))
        .map_or(0, |t| t.magnitude)
}

/// Sets `who`'s Constitution damage (`drain`: drain) to `n` (0: none).
pub fn set_lost(state: &mut State, who: CombatantId, drain: bool, n: i32) {
    set_lost_in(&mut state.fm(who).drained, drain, n);
}

/// [`set_lost`] on a fighter's ability penalties (`Fighter::drained`).
pub fn set_lost_in(
    drained: &mut fray_core::conditions::Conditions<Penalized>,
    drain: bool,
    n: i32,
) {
    let kind = Penalized::con_loss(drain);
    drained.remove(kind);
    if n > 0 {
        drained.add_timed(Timed::new(kind, Expiry::Indefinite).of(n));
    }
}

/// The GM's `rule con WHO ±N [drain]`, if `text` is one: `Ok(false)` when it is another
/// ruling. [CEL-R17.9, CEL-G13]
pub fn ruling(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    intervention: &Intervention,
    text: &str,
) -> Result<bool, Interrupt> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (who, change, drain) = match words.as_slice() {
        ["con", who, change] => (*who, *change, false),
        ["con", who, change, "drain"] => (*who, *change, true),
        ["con", ..] => return Err(intervention.refused(USAGE)),
        _ => return Ok(false),
    };
    let id = intervention.combatant(&state.roster, who)?;
    let change = change
        .parse::<i32>()
        .ok()
        .filter(|n| *n != 0 && n.abs() <= MAX_CHANGE)
        .filter(|_| change.starts_with(['+', '-']));
    let Some(change) = change else {
        return Err(intervention.refused(format!(
            "{USAGE}: N a whole number from 1 to {MAX_CHANGE} with its sign"
        )));
    };
    let name = state.roster.name(id).to_string();
    if state.f(id).absent() {
        return Err(intervention.refused(format!(
            "{name} is dead or gone (restoring Constitution does not raise the dead, CEL-R17.9)"
        )));
    }
    let what = if drain { "drain" } else { "damage" };
    let had = lost(state, id, drain);
    if change > 0 && change > had {
        return Err(intervention.refused(format!(
            "{name} has {had} Constitution {what} to restore, not {change}"
        )));
    }
    let before = (state.band(id), state.knocked_out(id), state.staggered(id));
    let score = state.score(id, CON);
    // Never more lost than the whole score (it is 0 then, and the creature dead).
    let base = state.p(id).scores[CON];
    set_lost(state, id, drain, (had - change).clamp(0, base));
    let now = state.score(id, CON);
    table.emit(|| Event::Acted {
        who: id,
        act: match (change < 0, drain) {
            (true, false) => "takes Constitution damage",
            (true, true) => "suffers Constitution drain",
            (false, false) => "recovers from Constitution damage",
            (false, true) => "recovers from Constitution drain",
        },
        on: None,
        detail: format!("{} (the GM's): Constitution {score} → {now}", change.abs()),
        rule: "CEL-R17.9",
    });
    settle(state, table, id, before);
    Ok(true)
}

/// After `who`'s Constitution changed: dead at 0 (CEL-R17.9), else the bands in the new score
/// (`injury::settle`).
pub fn settle(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    before: (crate::state::Band, bool, bool),
) {
    if state.score(who, CON) == 0 && !state.f(who).dead {
        state.fm(who).dead = true;
        let hp = state.f(who).hp;
        table.emit(|| Event::Status {
            who,
            status: "dead",
            hp,
            rule: "CEL-R17.9",
        });
        super::spell_weapon::caster_dead(state, table, who);
        return;
    }
    injury::settle(state, table, who, before);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use crate::state::Band;
    use fray_core::driver::ScriptedDriver;
    use fray_core::event::VecSink;
    use fray_core::runner::Limits;

    const HAL: CombatantId = CombatantId(0);

    /// Hal, a fighter with CON 10, at `hp` hit points (`start_hp`), with `keys` besides.
    fn hal(hp: i32, keys: &str) -> State {
        Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nscores = {{ con = 10 }}\nstart_hp = {hp}\n{keys}"),
            )
            .monster("orc", "orcs", [3, 0], "orc")
            .state()
    }

    /// The GM's `rule TEXT`: the events, or the refusal's reason.
    fn rule(state: &mut State, text: &str) -> Result<Vec<Event>, String> {
        let mut driver = ScriptedDriver::new(Vec::new(), Vec::new());
        let mut sink = VecSink::default();
        {
            let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
            let iv = Intervention::Ruling { text: text.into() };
            match ruling(state, &mut table, &iv, text) {
                Ok(true) => {}
                Ok(false) => return Err("not a con ruling".into()),
                Err(e) => return Err(format!("{e:?}")),
            }
        }
        Ok(sink.events.into_iter().map(|e| e.1).collect())
    }

    /// CEL-R17 with C = 10: −9 hp is disabled (−10 < −9 ≤ 0). Constitution damage 1: C 9,
    /// −9 ≤ −9, dying at once. 4 more: C 5, −9 > −10, still dying. 1 more: C 4, −9 ≤ −8: dead
    /// (R17.9 by the hit-point band).
    #[test]
    fn lower_constitution_moves_the_bands_at_once() {
        let mut s = hal(-9, "");
        assert_eq!(s.band(HAL), Band::Disabled);
        let events = rule(&mut s, "con hal -1").expect("lawful");
        assert_eq!(s.score(HAL, CON), 9);
        assert_eq!(s.band(HAL), Band::Dying);
        assert!(
            events.iter().any(|e| matches!(
                e,
                Event::Status {
                    status: "dying",
                    ..
                }
            )),
            "{events:?}"
        );
        rule(&mut s, "con hal -4 drain").expect("lawful");
        assert_eq!((s.score(HAL, CON), s.band(HAL)), (5, Band::Dying));
        let events = rule(&mut s, "con hal -1").expect("lawful");
        assert_eq!((s.score(HAL, CON), s.band(HAL)), (4, Band::Dead));
        assert!(s.f(HAL).dead);
        assert!(
            events.iter().any(|e| matches!(
                e,
                Event::Status {
                    status: "dead",
                    rule: "CEL-R17.9",
                    ..
                }
            )),
            "{events:?}"
        );
    }

    /// CEL-R17.9: Constitution damage to 0 kills a creature at full hit points; the dead are
    /// not raised by restoring it.
    #[test]
    fn constitution_zero_is_death_at_any_hit_points() {
        let mut s = hal(30, "");
        rule(&mut s, "con hal -6").expect("lawful");
        assert!(s.up(HAL), "C 4");
        let events = rule(&mut s, "con hal -4 drain").expect("lawful");
        assert_eq!(s.score(HAL, CON), 0);
        assert_eq!(s.band(HAL), Band::Dead);
        assert!(!s.up(HAL));
        assert!(
            matches!(
                &events[..],
                [
                    Event::Acted {
                        act: "suffers Constitution drain",
                        ..
                    },
                    Event::Status {
                        status: "dead",
                        hp: 30,
                        rule: "CEL-R17.9",
                        ..
                    }
                ]
            ),
            "{events:?}"
        );
        let refused = rule(&mut s, "con hal +6").expect_err("dead");
        assert!(refused.contains("does not raise the dead"), "{refused}");
    }

    /// Restoring: damage and drain apart, never more than was lost; the modifier (Fortitude)
    /// and the score follow.
    #[test]
    fn restoring_gives_back_only_what_was_lost() {
        let mut s = hal(30, "");
        let fort = s.fort(HAL);
        rule(&mut s, "con hal -2").expect("lawful");
        rule(&mut s, "con hal -2 drain").expect("lawful");
        assert_eq!(s.score(HAL, CON), 6);
        assert_eq!(s.fort(HAL), fort - 2, "CON 10 → 6: modifier 0 → -2");
        let refused = rule(&mut s, "con hal +3").expect_err("only 2 damage");
        assert!(
            refused.contains("has 2 Constitution damage to restore, not 3"),
            "{refused}"
        );
        rule(&mut s, "con hal +2").expect("lawful");
        assert_eq!(s.score(HAL, CON), 8);
        assert_eq!(lost(&s, HAL, false), 0);
        assert_eq!(lost(&s, HAL, true), 2);
        assert!(rule(&mut s, "con hal +1").is_err(), "no damage left");
        rule(&mut s, "con hal +2 drain").expect("lawful");
        assert_eq!(s.score(HAL, CON), 10);
        assert!(s.f(HAL).drained.is_empty());
    }

    /// Bad rulings are refused with their usage and change nothing; other rulings are not
    /// this module's.
    #[test]
    fn a_bad_con_ruling_is_refused() {
        let mut s = hal(30, "");
        for bad in [
            "con hal 2",
            "con hal -0",
            "con hal -51",
            "con hal -x",
            "con hal",
            "con hal -2 sapped",
        ] {
            assert!(rule(&mut s, bad).is_err(), "{bad}");
        }
        assert!(rule(&mut s, "con nobody -2")
            .expect_err("no one")
            .contains("nobody"));
        assert_eq!(s.score(HAL, CON), 10);
        assert_eq!(
            rule(&mut s, "the bridge holds"),
            Err("not a con ruling".into())
        );
    }

    /// The entry's `con_damage` and `con_drain` lower C from the start (the bands, the
    /// crippling-injury cap); one that would reach 0 is refused with its field.
    #[test]
    fn constitution_lost_before_the_fight() {
        let s = hal(-7, "con_damage = 2\ncon_drain = 1");
        assert_eq!(s.score(HAL, CON), 7);
        assert_eq!(s.band(HAL), Band::Dying, "-7 ≤ -7");
        let text = Fixture::new()
            .with(
                "hal",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nscores = {{ con = 10 }}\ncon_damage = 10"),
            )
            .text();
        let content = crate::content::Content::embedded().expect("content");
        let Err(err) = crate::encounter::load("t.toml", &text, &content) else {
            panic!("con_damage 10 of CON 10 is refused");
        };
        let err = err.to_string();
        assert!(
            err.contains("combatants[0].con_damage") && err.contains("from 1 to 9"),
            "{err}"
        );
    }
}
