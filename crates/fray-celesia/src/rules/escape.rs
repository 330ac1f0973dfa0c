//! Escape Artist and ropes (CEL-R9 Escape a Grapple, CEL-R10.10 Tie Up): escaping a grapple, or
//! taking control of it, with an Escape Artist check instead of a combat maneuver check;
//! tying a grappled or pinned foe up with a rope in hand (Grapple, Continued at −10 instead of
//! +5, CEL-A33); and escaping the ropes, by a combat maneuver check or an Escape Artist check
//! against DC 20 + the binder's CMB; another creature next to it removing the ropes ("until
//! they are removed"); and Escape from a Net (CEL-R11: DC 20 Escape Artist).

use super::attack::{cmb, cmd};
use super::{roll_check_die, CheckKind};
use crate::choice::Choice;
use crate::state::{HoldUse, State};
use crate::Celesia;
use fray_core::event::{Event, Modifier, Subject};
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// CEL-R10.10 Tie Up: the DC to escape the ropes is 20 + the binder's CMB.
pub const ROPES_DC_BASE: i32 = 20;

/// CEL-R11 Escape from a Net: "Attempt a DC 20 Escape Artist check".
pub const NET_DC: i32 = 20;

/// CEL-R9 Escape a Grapple: −5 the second time in a turn, −10 from the third.
pub fn repeat_penalty(tries_before: u8) -> i32 {
    match tries_before {
        0 => 0,
        1 => -5,
        _ => -10,
    }
}

/// The escape and tie-up options of `who`: Escape Artist out of a grapple (and to take
/// control of it) or out of the ropes, the plain escape out of the ropes, and tying its
/// grappled foe up while it has a rope.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    let f = state.f(who);
    if f.held_by.is_some() || f.tied.is_some() {
        out.push(Choice::EscapeArtist(false));
        if f.tied.is_some() && f.held_by.is_none() {
            out.push(Choice::Escape(false));
        }
    }
    if f.held_by.is_some() {
        out.push(Choice::EscapeArtist(true));
    }
    if f.hold.is_some() && f.ropes > 0 {
        out.push(Choice::Maintain(HoldUse::Tie));
    }
    if f.netted {
        out.push(Choice::EscapeNet);
    }
    if state.fighters.iter().any(|o| o.tied.is_some()) {
        for t in state.near(who, 1, |o| o != who && state.f(o).tied.is_some()) {
            out.push(Choice::Untie(t));
        }
    }
}

/// Whether `who` may remove the ropes of `target`: another creature next to it, tied up, and
/// `who` not tied up itself. [CEL-R10.10 Tie Up, R9 Manipulate an Item]
pub fn check_untie(
    explain: bool,
    state: &State,
    who: CombatantId,
    target: CombatantId,
) -> Result<(), Illegal> {
    let name = || state.roster.key(target).to_string();
    if target == who {
        return no(explain, "CEL-R10.10", || {
            "a creature does not untie itself: it escapes the ropes (`escape`, `escape artist`)"
                .to_string()
        });
    }
    if state.f(target).tied.is_none() {
        return no(explain, "CEL-R10.10", || {
            format!("{} is not tied up", name())
        });
    }
    Illegal::unless(state.gap(who, target) == 1, explain, "CEL-R10.10", || {
        format!("{} is not next to it", name())
    })
}

/// Whether `who` may try to escape from a net: it is netted. [CEL-R11]
pub fn check_net(explain: bool, state: &State, who: CombatantId) -> Result<(), Illegal> {
    Illegal::unless(state.f(who).netted, explain, "CEL-R11", || {
        "no net entangles it".to_string()
    })
}

/// CEL-R10.10 Tie Up: "the ropes pin the creature until they are removed". Another creature
/// next to it removes them, as Manipulate an Item (CEL-R9, simple, Provoke: the seed names no
/// action for it; a reading): the action provokes, then the ropes are off (the rope is left
/// on the ground, not kept).
pub fn untie(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    if !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    remove_ropes(state, table, who, target);
    Ok(())
}

/// The ropes of `target` are off, removed by `who` (after the untie provoked, or when the acts
/// of the GM's complex ruling are all in, CEL-G3). [CEL-R10.10]
pub fn remove_ropes(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    target: CombatantId,
) {
    if state.f(target).tied.is_none() {
        return;
    }
    state.fm(target).tied = None;
    table.emit(|| Event::Acted {
        who,
        act: "removes the ropes of",
        on: Some(target),
        detail: "Manipulate an Item".into(),
        rule: "CEL-R10.10",
    });
    table.emit(|| Event::Condition {
        who: target,
        condition: "tied up",
        gained: false,
        rule: "CEL-R10.10",
    });
}

/// CEL-R11 Escape from a Net (standard, Provoke): the action provokes, then a DC 20 Escape
/// Artist check (a Dexterity skill check, CEL-R4.5; not Escape a Grapple, so no −5 / −10 for
/// repeated tries). Success: the net no longer entangles it.
pub fn escape_net(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    if !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    if !state.f(who).netted {
        return Ok(());
    }
    let free = Skill {
        purpose: "Escape Artist (escape from a net)",
        penalty: (TRIES, 0),
        dc: NET_DC,
        against: "DC",
        results: ("free", "still entangled"),
        rule: "CEL-R11",
    }
    .roll(state, table, who)?;
    if free {
        state.fm(who).netted = false;
        table.emit(|| Event::Condition {
            who,
            condition: NETTED,
            gained: false,
            rule: "CEL-R11",
        });
    }
    Ok(())
}

/// The condition's name in the log: a net entangles. [CEL-R11, R4.5 row 7]
pub const NETTED: &str = "entangled (net)";

/// Whether `who` may try to escape: held in a grapple, or tied up (the grapple first, while it
/// is held; taking control only of a grapple). [CEL-R9, R10.10]
pub fn check(explain: bool, state: &State, who: CombatantId, control: bool) -> Result<(), Illegal> {
    let f = state.f(who);
    if control {
        return Illegal::unless(f.held_by.is_some(), explain, "CEL-R9", || {
            "not held in a grapple: there is no grapple to take control of".to_string()
        });
    }
    Illegal::unless(
        f.held_by.is_some() || f.tied.is_some(),
        explain,
        "CEL-R9",
        || "neither held in a grapple nor tied up".to_string(),
    )
}

/// Whether `who` may tie its grappled foe up: it needs a rope. [CEL-R10.10 Tie Up]
pub fn check_tie(explain: bool, state: &State, who: CombatantId) -> Result<(), Illegal> {
    Illegal::unless(state.f(who).ropes > 0, explain, "CEL-R10.10", || {
        "tying up needs a rope in its hands (`rope` in its entry)".to_string()
    })
}

/// Counts one more escape attempt this turn and gives its penalty (every escape: by a combat
/// maneuver check or Escape Artist, from a grapple or the ropes). [CEL-R9]
pub fn count_try(state: &mut State, who: CombatantId) -> i32 {
    let tries = state.f(who).escapes;
    state.fm(who).escapes = tries.saturating_add(1);
    repeat_penalty(tries)
}

/// CEL-R9 Escape a Grapple by an Escape Artist check (a Dexterity skill: disadvantage when
/// blind, shaken or sickened, CEL-R4.5) against the grappler's CMD, the same DC as the combat
/// maneuver check it replaces (a reading: the seed names no other), −5 the second time in a
/// turn and −10 from the third. Success ends the grapple, or with `control` turns it round.
/// Not held but tied up: the same check against the ropes' DC.
pub fn escape_artist(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    control: bool,
) -> Result<(), Interrupt> {
    let Some(grappler) = state.f(who).held_by else {
        return ropes(state, table, who, true);
    };
    let penalty = count_try(state, who);
    let dc = 10 + cmd(state, grappler, false).total();
    let purpose = if control {
        "Escape Artist (take control of the grapple)"
    } else {
        "Escape Artist (escape the grapple)"
    };
    let check = Skill {
        purpose,
        penalty: (TRIES, penalty),
        dc,
        against: "CMD",
        results: ("escaped", "still held"),
        rule: "CEL-R9",
    };
    if !check.roll(state, table, who)? {
        return Ok(());
    }
    super::grapple::end(state, table, grappler, "escaped", "CEL-R9");
    if control {
        super::grapple::begin_hold(state, table, who, grappler);
    }
    Ok(())
}

/// The escape attempts' penalty's modifier. [CEL-R9]
const TRIES: (&str, &str) = ("escape attempts this turn", "CEL-R9");

/// CEL-R10.10 Move: freeing itself as a reaction at +4 (`grapple::free_itself`) by an Escape
/// Artist check against the grappler's CMD instead. True if it is free.
pub fn free_itself_artist(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    grappler: CombatantId,
) -> Result<bool, Interrupt> {
    let check = Skill {
        purpose: "Escape Artist (free itself: hazard)",
        penalty: (
            ("hazardous placement", "CEL-R10.10"),
            super::grapple::HAZARD_BONUS,
        ),
        dc: 10 + cmd(state, grappler, false).total(),
        against: "CMD",
        results: ("escaped", "still held"),
        rule: "CEL-R10.10",
    };
    if !check.roll(state, table, who)? {
        return Ok(false);
    }
    super::grapple::end(state, table, grappler, "escaped", "CEL-R10.10");
    Ok(true)
}

/// CEL-R10.10 Tie Up: escaping the ropes, by a combat maneuver check (`artist` false: d20 +
/// CMB; being pinned by them gives it no disadvantage, it is an escape, CEL-R4.5 row 10) or an
/// Escape Artist check, against DC 20 + the binder's CMB; the escape penalties of CEL-R9 apply
/// (it is the same action). Success: the ropes are off.
pub fn ropes(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    artist: bool,
) -> Result<(), Interrupt> {
    let Some(dc) = state.f(who).tied else {
        return Ok(());
    };
    let penalty = count_try(state, who);
    let freed = if artist {
        Skill {
            purpose: "Escape Artist (escape the ropes)",
            penalty: (TRIES, penalty),
            dc,
            against: "DC",
            results: ("free", "still tied up"),
            rule: "CEL-R10.10",
        }
        .roll(state, table, who)?
    } else {
        let bonus = cmb(state, who);
        // A combat maneuver check: no skill-check disadvantage (CEL-R4.5 lists none for it
        // here).
        let (roll, _) = super::attack::roll_d20(
            table,
            who,
            0,
            fray_core::protocol::RollPurpose::Check,
            "CEL-R10.10",
        )?;
        let dice = "d20".to_string();
        let total = roll as i32 + bonus.total() + penalty;
        // CEL-G13: the GM's `dc±N` moves the ropes' DC.
        let (dc, against) = super::gm_adjusted_dc(state, who, dc);
        let success = total >= dc;
        table.emit(|| {
            let mut modifiers = bonus.to_vec();
            if penalty != 0 {
                modifiers.push(Modifier::new(
                    "escape attempts this turn",
                    "CEL-R9",
                    penalty,
                ));
            }
            Event::Check {
                who: Subject::Combatant(who),
                purpose: "combat maneuver (escape the ropes)",
                dice,
                roll,
                modifiers,
                total,
                against,
                target: dc,
                under: false,
                success: Some(success),
                result: if success { "free" } else { "still tied up" }.into(),
                rule: "CEL-R10.10",
            }
        });
        success
    };
    if freed {
        state.fm(who).tied = None;
        table.emit(|| Event::Condition {
            who,
            condition: "tied up",
            gained: false,
            rule: "CEL-R10.10",
        });
    }
    Ok(())
}

/// An Escape Artist check (the combatant's `escape_artist` bonus and the escape penalty)
/// against a DC, with the log's words for its two outcomes.
struct Skill {
    purpose: &'static str,
    /// One more modifier: the escape attempts' penalty, or the hazard's +4.
    penalty: ((&'static str, &'static str), i32),
    dc: i32,
    against: &'static str,
    results: (&'static str, &'static str),
    rule: &'static str,
}

impl Skill {
    /// Rolls and logs the check; true on success.
    fn roll(
        &self,
        state: &mut State,
        table: &mut Table<'_, Celesia>,
        who: CombatantId,
    ) -> Result<bool, Interrupt> {
        let bonus = state.p(who).escape_artist;
        let kind = CheckKind::Skill { physical: true };
        let (roll, dice) = roll_check_die(state, table, who, kind, self.rule)?;
        // CEL-R9: a friend's Aid Another on this check.
        let aid = super::aid_check::take(state, who, super::aid_check::Skill::EscapeArtist);
        let ((label, source), penalty) = self.penalty;
        let total = roll as i32 + bonus + penalty + aid;
        // CEL-G13: the GM's `dc±N` moves a DC (the ropes', the net's), not a grappler's CMD.
        let (dc, against) = match self.against {
            "DC" => super::gm_adjusted_dc(state, who, self.dc),
            cmd => (self.dc, cmd),
        };
        let success = total >= dc;
        table.emit(|| Event::Check {
            who: Subject::Combatant(who),
            purpose: self.purpose,
            dice,
            roll,
            modifiers: {
                let mut m = vec![Modifier::new("Escape Artist", "", bonus)];
                if penalty != 0 {
                    m.push(Modifier::new(label, source, penalty));
                }
                if aid != 0 {
                    m.push(Modifier::new("aid another", "CEL-R9", aid));
                }
                m
            },
            total,
            against,
            target: dc,
            under: false,
            success: Some(success),
            result: if success {
                self.results.0
            } else {
                self.results.1
            }
            .into(),
            rule: self.rule,
        });
        Ok(success)
    }
}

/// CEL-R10.10 Tie Up, after the Grapple, Continued check at −10 succeeded: a rope is used up
/// and the ropes pin `target` until it escapes them against DC 20 + the binder's CMB. The
/// grapple goes on (its grappler may release it; the ropes stay).
pub fn tie(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    target: CombatantId,
) {
    let dc = ROPES_DC_BASE + cmb(state, who).total();
    {
        let f = state.fm(who);
        f.ropes = f.ropes.saturating_sub(1);
    }
    state.fm(target).tied = Some(dc);
    state.strewn = true;
    table.emit(|| Event::Condition {
        who: target,
        condition: "tied up",
        gained: true,
        rule: "CEL-R10.10",
    });
    table.emit(|| Event::Acted {
        who,
        act: "ties up",
        on: Some(target),
        detail: format!(
            "the ropes pin it until it escapes them: a combat maneuver or Escape Artist check, \
             DC {dc} (20 + the binder's CMB)"
        ),
        rule: "CEL-R10.10",
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_escapes_take_the_seeds_penalties() {
        // CEL-R9: "The second time in a turn … –5 … The third time … –10".
        assert_eq!(repeat_penalty(0), 0);
        assert_eq!(repeat_penalty(1), -5);
        assert_eq!(repeat_penalty(2), -10);
        assert_eq!(repeat_penalty(7), -10);
    }
}
