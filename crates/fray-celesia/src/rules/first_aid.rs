//! CEL-R17.7 the Heal check, taken with CEL-R11 Provide First Aid (standard, 2 acts,
//! Provoke): another creature stabilizes a dying one with a DC 10 Heal check, less the dying
//! creature's negative hit points.

use super::round;
use crate::choice::Choice;
use crate::state::{Band, State};
use crate::Celesia;
use fray_core::event::{Event, Modifier, Subject};
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// CEL-R17.7: the Heal check's DC.
pub const HEAL_DC: i32 = 10;

/// CEL-R17.7: the penalty on the Heal check, equal to the dying creature's current negative
/// hit points (−7 hp: −7).
pub fn heal_penalty(hp: i32) -> i32 {
    hp.min(0)
}

/// The Provide First Aid options of `who`: one per dying creature next to it.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    for t in state.near(who, 1, |o| o != who) {
        if state.band(t) == Band::Dying && !state.f(t).stable {
            out.push(Choice::FirstAid(t));
        }
    }
}

/// Whether `who` may give `patient` first aid: another creature, dying and not yet stable,
/// next to it (the aid is given by hand; a reading). [CEL-R17.7, R11]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    patient: CombatantId,
) -> Result<(), Illegal> {
    if patient == who {
        return no(explain, "CEL-R17.7", || {
            "the Heal check is made by another creature".to_string()
        });
    }
    let f = state.f(patient);
    if f.absent() || state.band(patient) != Band::Dying {
        return no(explain, "CEL-R17.7", || {
            format!("{} is not dying", state.roster.key(patient))
        });
    }
    if f.stable {
        return no(explain, "CEL-R17.7", || {
            format!("{} is stable already", state.roster.key(patient))
        });
    }
    Illegal::unless(state.gap(who, patient) <= 1, explain, "CEL-R17.7", || {
        format!("{} is not next to it", state.roster.key(patient))
    })
}

/// Provide First Aid: the action provokes (CEL-R11); then the Heal check (the combatant's
/// `heal` bonus) against DC 10 (with the GM's `dc±N`, CEL-G13) with the patient's negative hit points as a penalty; success
/// makes it stable (it stops losing hit points and rolling its saves). [CEL-R17.7]
pub fn first_aid(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    patient: CombatantId,
) -> Result<(), Interrupt> {
    if !round::provoke(state, table, who, None)? {
        return Ok(());
    }
    // An attack of opportunity cannot change the patient, but check it is still dying.
    if state.band(patient) != Band::Dying || state.f(patient).stable {
        return Ok(());
    }
    let (bonus, penalty) = (state.p(who).heal, heal_penalty(state.f(patient).hp));
    // CEL-R9: a friend's Aid Another on this check.
    let aid = super::aid_check::take(state, who, super::aid_check::Skill::Heal);
    let (roll, dice) = super::roll_check_die(
        state,
        table,
        who,
        super::CheckKind::Skill { physical: false },
        "CEL-R17.7",
    )?;
    let total = roll as i32 + bonus + penalty + aid;
    let (dc, against) = super::gm_adjusted_dc(state, who, HEAL_DC);
    let success = total >= dc;
    table.emit(|| Event::Check {
        who: Subject::Combatant(who),
        purpose: "Heal",
        dice,
        roll,
        modifiers: vec![
            Modifier::new("Heal", "", bonus),
            Modifier::new("the patient's negative hit points", "CEL-R17.7", penalty),
            Modifier::new("aid another", "CEL-R9", aid),
        ]
        .into_iter()
        .filter(|m| m.value != 0 || m.label != "aid another")
        .collect(),
        total,
        against,
        target: dc,
        under: false,
        success: Some(success),
        result: if success { "stable" } else { "not stabilized" }.into(),
        rule: "CEL-R17.7",
    });
    if success {
        state.fm(patient).stable = true;
        let hp = state.f(patient).hp;
        table.emit(|| Event::Status {
            who: patient,
            status: "stable",
            hp,
            rule: "CEL-R17.7",
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

    const BEA: CombatantId = CombatantId(0);
    const DARA: CombatantId = CombatantId(1);

    /// Bea (Heal +17) next to Dara, dying at −15 (CON 12: dying from −12; the orc far off).
    fn tent() -> State {
        let text = Fixture::new()
            .with("bea", "heroes", [0, 0], &format!("{FIGHTER}\nheal = 17"))
            .with(
                "dara",
                "heroes",
                [1, 0],
                &format!("{FIGHTER}\nstart_hp = -15\nscores = {{ con = 12 }}"),
            )
            .monster("orc", "orcs", [9, 0], "orc")
            .text();
        let content = crate::content::Content::embedded().expect("content");
        crate::encounter::load("t.toml", &text, &content)
            .unwrap_or_else(|e| panic!("{e}"))
            .state
    }

    fn aid_with(state: &mut State, die: u32) -> Vec<(u32, Event)> {
        let mut driver = ScriptedDriver::new(vec![die], Vec::new());
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        first_aid(state, &mut table, BEA, DARA).expect("scripted dice");
        sink.events
    }

    /// CEL-R17.7 with CEL-G13: d20 8 + 17 − 15 = 10 meets DC 10; with the GM's `dc+2` on Bea the
    /// same roll fails against 12 (logged as GM-adjusted), and 10 + 17 − 15 = 12 meets it.
    #[test]
    fn the_gm_adjustment_moves_the_heal_dc() {
        let mut s = tent();
        assert_eq!(s.band(DARA), Band::Dying);
        let mut plain = s.clone();
        aid_with(&mut plain, 8);
        assert!(plain.f(DARA).stable, "10 ≥ DC 10");
        s.fm(BEA).gm_dc = 2;
        let events = aid_with(&mut s, 8);
        assert!(!s.f(DARA).stable, "10 < 12");
        assert!(
            events.iter().any(|(_, e)| matches!(
                e,
                Event::Check {
                    against: "GM-adjusted DC",
                    target: 12,
                    total: 10,
                    ..
                }
            )),
            "{events:?}"
        );
        aid_with(&mut s, 10);
        assert!(s.f(DARA).stable, "12 ≥ 12");
    }

    #[test]
    fn the_penalty_is_the_negative_hit_points() {
        // CEL-R17.7's own example: −7 hp gives −7.
        assert_eq!(heal_penalty(-7), -7);
        assert_eq!(heal_penalty(0), 0);
        assert_eq!(heal_penalty(3), 0);
    }
}
