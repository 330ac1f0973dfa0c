//! CEL-R11 Provide First Aid, Treat a Wound, or Treat Poison (standard, 2 acts, Provoke): "You
//! provide first aid, treat a wound, or treat poison using the Heal skill." Treat a Wound is
//! played as stopping a creature's bleeding (CEL-R18's severed parts, CEL-R17.5's continuous
//! damage): a Heal check against the GM's `treat_wound_dc`, by default Pathfinder's DC 15
//! ("bleeding can be stopped by a DC 15 Heal check"; the seed gives no DC). First aid is
//! `rules::first_aid`; Treat Poison is not played (the seed defines no poison).

use super::round;
use crate::choice::Choice;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// The rule every Treat a Wound is logged and refused under.
pub const RULE: &str = "CEL-R11";

/// The Heal check's DC to stop bleeding when the GM sets none (`treat_wound_dc`): the parent
/// game's (Pathfinder's bleed: "can be stopped by a DC 15 Heal check"; a reading).
pub const DEFAULT_DC: i32 = 15;

/// The lowest and highest `treat_wound_dc` the GM may set (a limit of fray's, as for the other
/// skill DCs of `[options]`).
pub const DC_RANGE: (i64, i64) = (1, 60);

/// Why Treat Poison is refused: the seed defines no poison.
pub const NO_POISON: &str = "Treat Poison is not played: the seed defines no poison, so no \
     creature of fray's Celesia is ever poisoned (docs/celesia.md)";

/// The Treat a Wound options of `who`: itself and each creature next to it that is bleeding.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if bleeding(state, who) {
        out.push(Choice::TreatWound(who));
    }
    for t in state.near(who, 1, |o| o != who) {
        if bleeding(state, t) {
            out.push(Choice::TreatWound(t));
        }
    }
}

/// Whether `t` is in the fight and bleeding.
fn bleeding(state: &State, t: CombatantId) -> bool {
    let f = state.f(t);
    f.bleed > 0 && !f.absent()
}

/// Whether `who` may treat `patient`'s wound: a creature in the fight, bleeding, itself or next
/// to it (the wound is tended by hand, as first aid; a reading). Ally or foe alike: the seed
/// names no restriction. [CEL-R11]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    patient: CombatantId,
) -> Result<(), Illegal> {
    let f = state.f(patient);
    if f.absent() {
        return no(explain, RULE, || {
            format!(
                "Treat a Wound: {} is no longer in the fight",
                state.roster.key(patient)
            )
        });
    }
    if f.bleed <= 0 {
        return no(explain, RULE, || {
            format!(
                "Treat a Wound stops bleeding, and {} is not bleeding",
                state.roster.key(patient)
            )
        });
    }
    Illegal::unless(
        patient == who || state.gap(who, patient) <= 1,
        explain,
        RULE,
        || {
            format!(
                "Treat a Wound: {} is not next to it",
                state.roster.key(patient)
            )
        },
    )
}

/// Treat a Wound: the action provokes (CEL-R11); then a Heal check (the combatant's `heal`
/// bonus, a friend's Aid Another on it) against the GM's `treat_wound_dc` (default 15);
/// success stops the patient's bleeding. [CEL-R11, reading of Pathfinder's bleed]
pub fn treat(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    patient: CombatantId,
) -> Result<(), Interrupt> {
    if !round::provoke(state, table, who, None)? {
        return Ok(());
    }
    // An attack of opportunity cannot start or stop the patient's bleeding, nor take it out of
    // the fight unless it is the treater itself (checked above): check it still bleeds.
    if !bleeding(state, patient) {
        return Ok(());
    }
    // CEL-R9: a friend's Aid Another on this Heal check.
    let aid = super::aid_check::take(state, who, super::aid_check::Skill::Heal);
    let stopped = super::D20Check {
        purpose: "treat a wound",
        modifier: "Heal",
        bonus: state.p(who).heal,
        dc: state.options.treat_wound_dc,
        kind: super::aid_check::Skill::Heal.kind(),
        results: ("the bleeding stops", "still bleeding"),
        rule: RULE,
    }
    .roll_aided(state, table, who, aid)?
    .0;
    if stopped {
        state.fm(patient).bleed = 0;
        table.emit(|| Event::Condition {
            who: patient,
            condition: "bleeding",
            gained: false,
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

    const HAL: CombatantId = CombatantId(0);
    const ANN: CombatantId = CombatantId(1);
    const ORC: CombatantId = CombatantId(2);

    /// Hal (Heal +3) and Ann side by side, the orc two squares off, with `options` TOML.
    fn camp(options: &str) -> State {
        let text = Fixture::new()
            .with("hal", "heroes", [0, 0], &format!("{FIGHTER}\nheal = 3"))
            .with("ann", "heroes", [1, 0], FIGHTER)
            .monster("orc", "orcs", [3, 0], "orc")
            .text();
        let content = crate::content::Content::embedded().expect("content");
        crate::encounter::load("t.toml", &format!("{text}\n{options}"), &content)
            .unwrap_or_else(|e| panic!("{e}"))
            .state
    }

    fn treat_with(state: &mut State, dice: Vec<u32>, patient: CombatantId) {
        let mut driver = ScriptedDriver::new(dice, Vec::new());
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        treat(state, &mut table, HAL, patient).expect("scripted dice");
    }

    /// DC 15 by default: d20 12 + Heal 3 = 15 stops Ann's bleeding; 11 + 3 = 14 does not.
    #[test]
    fn the_heal_check_against_dc_15_stops_the_bleeding() {
        let mut s = camp("");
        assert_eq!(s.options.treat_wound_dc, DEFAULT_DC);
        s.fm(ANN).bleed = 2;
        treat_with(&mut s, vec![11], ANN);
        assert_eq!(s.f(ANN).bleed, 2, "14 < 15");
        treat_with(&mut s, vec![12], ANN);
        assert_eq!(s.f(ANN).bleed, 0, "15 ≥ 15");
    }

    /// The GM's `treat_wound_dc = 20`: 15 no longer stops it, 17 + 3 does.
    #[test]
    fn the_gm_sets_the_dc() {
        let mut s = camp("[options]\ntreat_wound_dc = 20");
        assert_eq!(s.options.treat_wound_dc, 20);
        s.fm(HAL).bleed = 1;
        treat_with(&mut s, vec![12], HAL);
        assert_eq!(s.f(HAL).bleed, 1);
        treat_with(&mut s, vec![17], HAL);
        assert_eq!(s.f(HAL).bleed, 0, "itself");
    }

    /// Offered on itself and on a bleeding creature next to it, never on one not bleeding or
    /// farther off; each refusal names CEL-R11.
    #[test]
    fn offered_and_refused_where_the_rule_says() {
        let mut s = camp("");
        let mut out = Vec::new();
        options(&s, HAL, &mut out);
        assert!(out.is_empty(), "nobody bleeds");
        let refusal = check(true, &s, HAL, ANN).unwrap_err();
        assert_eq!(refusal.rule, RULE);
        assert!(
            refusal.reason.contains("not bleeding"),
            "{}",
            refusal.reason
        );
        s.fm(ANN).bleed = 2;
        s.fm(HAL).bleed = 1;
        s.fm(ORC).bleed = 2;
        options(&s, HAL, &mut out);
        assert_eq!(out, vec![Choice::TreatWound(HAL), Choice::TreatWound(ANN)]);
        let refusal = check(true, &s, HAL, ORC).unwrap_err();
        assert_eq!(refusal.rule, RULE);
        assert!(
            refusal.reason.contains("not next to it"),
            "{}",
            refusal.reason
        );
        assert!(
            check(false, &s, ANN, HAL).is_ok(),
            "Ann treats Hal, next to her"
        );
    }
}
