//! Complex actions (CEL-R3.8, R13): actions of 4 or more acts committed over several turns,
//! with a progress count kept from turn to turn — Disable Device on a device whose acts the GM
//! sets (CEL-E8), the coup de grace against a creature with total concealment (6 acts,
//! CEL-R12, CEL-E9), Find Tracks (3 consecutive acts or the GM's number, CEL-R13) and picking
//! up an item, retrieving a stored one or removing a creature's ropes where the GM rules
//! Manipulate an Item complex (CEL-R9, CEL-G3). Where the acts must be consecutive, any other act, or acts left unspent at
//! the end of a turn, start the count over; where they need not be, the count waits.

use super::{attack, round};
use crate::choice::Choice;
use crate::state::{Item, State, Task, TaskKind};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::Interrupt;
use fray_core::{CombatantId, Table};

/// CEL-R12: a coup de grace against a creature with total concealment takes 6 acts.
pub const CONCEALED_COUP_ACTS: u8 = 6;

/// The complex action a choice is, with the acts it needs and whether they must be
/// consecutive; `None` for every other action.
pub fn task_of(state: &State, who: CombatantId, choice: &Choice) -> Option<(TaskKind, u8, bool)> {
    match *choice {
        // CEL-R12: "requires 6 acts"; complex actions are consecutive acts (CEL-R3.1).
        Choice::CoupDeGrace(t, form, nonlethal)
            if super::concealment::totally_concealed(state, t) =>
        {
            Some((
                TaskKind::CoupDeGrace(t, form, nonlethal),
                CONCEALED_COUP_ACTS,
                true,
            ))
        }
        Choice::Disable(d) => {
            let dev = state.devices.get(usize::from(d))?;
            Some((TaskKind::Disable(d), dev.acts, dev.consecutive))
        }
        // CEL-R13: "at least 3 consecutive acts and may take more, as determined by the GM".
        Choice::FindTracks => Some((
            TaskKind::FindTracks,
            super::ruling::tracks_acts(state, who),
            true,
        )),
        // CEL-R9 Manipulate an Item, CEL-G3: complex where the GM rules it so.
        Choice::PickUp(_) | Choice::PickUpShield | Choice::PickUpGear(_) | Choice::PickUpRope
            if state.options.pick_up_acts > 1 =>
        {
            let kind = match *choice {
                Choice::PickUp(item) => TaskKind::PickUp(item),
                Choice::PickUpShield => TaskKind::PickUpShield,
                Choice::PickUpGear(book) => TaskKind::PickUpGear(book),
                _ => TaskKind::PickUpRope,
            };
            Some((
                kind,
                state.options.pick_up_acts,
                state.options.pick_up_consecutive,
            ))
        }
        Choice::Retrieve(book) if state.options.retrieve_acts > 1 => Some((
            TaskKind::Retrieve(book),
            state.options.retrieve_acts,
            state.options.retrieve_consecutive,
        )),
        Choice::Untie(t) if state.options.untie_acts > 1 => Some((
            TaskKind::Untie(t),
            state.options.untie_acts,
            state.options.untie_consecutive,
        )),
        _ => None,
    }
}

/// The dropped item a pick-up task is for (an item of `items` or a rope). [CEL-R9]
fn dropped(kind: TaskKind) -> Option<super::belonging::Belonging> {
    match kind {
        TaskKind::PickUpGear(book) => Some(super::belonging::Belonging::Gear(book)),
        TaskKind::PickUpRope => Some(super::belonging::Belonging::Rope),
        _ => None,
    }
}

/// Acts already committed to `kind` by `who` that still count: kept while the acts need not be
/// consecutive, or while nothing has come between. [CEL-R3.8, CEL-E8]
pub fn kept(state: &State, who: CombatantId, kind: TaskKind) -> u8 {
    let f = state.f(who);
    match f.task {
        Some(t) if t.kind == kind && (!t.consecutive || t.clock == f.act_clock) => t.done,
        _ => 0,
    }
}

/// Acts this choice takes now: a complex action takes every act left this turn, up to the
/// acts it still needs (at least 1, so that none left refuses it); a 1-round action 3, or the
/// turn's last 1 or 2 (CEL-R3.7); others their category's. [CEL-R3.1, R3.8]
pub fn cost(state: &State, who: CombatantId, choice: &Choice) -> i32 {
    match task_of(state, who, choice) {
        Some((kind, needed, _)) => {
            let still = i32::from(needed - kept(state, who, kind).min(needed));
            state.f(who).acts_left.min(still).max(1)
        }
        None if super::one_round::kind(state, who, choice).is_some() => {
            super::one_round::cost(state.f(who).acts_left)
        }
        None => match *choice {
            Choice::Grapple(_) => super::grapple::acts(state, who, None),
            Choice::Feint(_) => super::feint::acts(state, who),
            Choice::Maintain(use_) => super::grapple::acts(state, who, Some(use_)),
            Choice::Cast(i, ..) => {
                state
                    .spellbook
                    .get(usize::from(i))
                    .map_or(2, |s| s.casting.acts())
                    + super::spell_components::extra_acts(state, choice)
            }
            // CEL-R14, G3: the GM's action to prepare the spell's component.
            Choice::SpellCombat(..) | Choice::Spellstrike(..) => {
                choice.acts() + super::spell_components::extra_acts(state, choice)
            }
            Choice::Draw(_) | Choice::DrawTwo(..) => super::wield::draw_acts(state, who),
            Choice::ReadyShield | Choice::DropShield => super::shield::acts(state, who),
            Choice::Load | Choice::Prepare => super::ammo::acts(state, who, choice),
            Choice::Push(animal, ..) => super::animal::push_acts(state, animal),
            Choice::Handle(..) => super::animal::handle_acts(state, who),
            // CEL-R11, R12: a standard strike 2, a full-attack or full-round one 3.
            Choice::Strike(m, _) => super::strike::acts(state, m),
            _ => choice.acts(),
        },
    }
}

/// Commits this turn's acts (already paid: `acts`) to a complex action; when its acts are all
/// in, it takes effect. The action provokes when it starts, not when it is taken up again.
/// [CEL-R3.8, R3.12, R12, R13]
pub fn commit(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    choice: Choice,
    acts: i32,
) -> Result<(), Interrupt> {
    let Some((kind, needed, consecutive)) = task_of(state, who, &choice) else {
        return Ok(());
    };
    // The clock has already moved past this turn's acts: what was kept is judged before them.
    let clock = state.f(who).act_clock;
    let before = {
        let f = state.f(who);
        match f.task {
            Some(t) if t.kind == kind && (!t.consecutive || t.clock + acts as u32 == clock) => {
                t.done
            }
            _ => 0,
        }
    };
    if before == 0 && !round::provoke(state, table, who, None)? {
        state.fm(who).task = None;
        return Ok(());
    }
    let done = (i32::from(before) + acts).min(i32::from(needed)) as u8;
    let (act, what, on, rule) = match (kind, before == 0) {
        (TaskKind::CoupDeGrace(t, ..), true) => (
            "begins a coup de grace on",
            "total concealment".to_string(),
            Some(t),
            "CEL-R12",
        ),
        (TaskKind::CoupDeGrace(t, ..), false) => (
            "goes on with the coup de grace on",
            "total concealment".to_string(),
            Some(t),
            "CEL-R12",
        ),
        (TaskKind::FindTracks, first) => (
            if first {
                "begins to look for tracks"
            } else {
                "goes on looking for tracks"
            },
            "Survival".to_string(),
            None,
            "CEL-R13",
        ),
        (TaskKind::PickUp(item), first) => (
            if first {
                "begins to pick up an item"
            } else {
                "goes on picking up an item"
            },
            format!(
                "{} (the GM's complex Manipulate an Item, CEL-G3)",
                match item {
                    Item::Melee(i) => state.p(who).melee.get(usize::from(i)),
                    Item::Ranged => state.p(who).ranged.as_ref(),
                }
                .map_or_else(|| item.key(), |w| w.name.clone())
            ),
            None,
            "CEL-R9",
        ),
        (TaskKind::PickUpShield, first) => (
            if first {
                "begins to pick up its shield"
            } else {
                "goes on picking up its shield"
            },
            format!(
                "{} (the GM's complex Manipulate an Item, CEL-G3)",
                super::belonging::Belonging::Shield.name(state, who)
            ),
            None,
            "CEL-R9",
        ),
        (TaskKind::PickUpGear(_) | TaskKind::PickUpRope, first) => (
            if first {
                "begins to pick up an item"
            } else {
                "goes on picking up an item"
            },
            format!(
                "{} (the GM's complex Manipulate an Item, CEL-G3)",
                dropped(kind).map_or_else(String::new, |b| b.name(state, who))
            ),
            None,
            "CEL-R9",
        ),
        (TaskKind::Retrieve(book), first) => (
            if first {
                "begins to retrieve an item"
            } else {
                "goes on retrieving an item"
            },
            format!(
                "{} (the GM's complex Manipulate an Item, CEL-G3)",
                state
                    .gear_book
                    .get(usize::from(book))
                    .map_or("item", |g| g.name.as_str())
            ),
            None,
            "CEL-R9",
        ),
        (TaskKind::Untie(t), first) => (
            if first {
                "begins to remove the ropes of"
            } else {
                "goes on removing the ropes of"
            },
            "the GM's complex Manipulate an Item, CEL-G3".to_string(),
            Some(t),
            "CEL-R10.10",
        ),
        (TaskKind::Disable(d), first) => (
            if first {
                "begins to disable a device"
            } else {
                "goes on disabling a device"
            },
            state.devices[usize::from(d)].name.clone(),
            None,
            "CEL-R13",
        ),
    };
    table.emit(|| Event::Acted {
        who,
        act,
        on,
        detail: format!(
            "{what}: {done} of {needed} acts{}",
            if consecutive { ", consecutive" } else { "" }
        ),
        rule,
    });
    if done < needed {
        state.fm(who).task = Some(Task {
            kind,
            done,
            needed,
            consecutive,
            clock,
        });
        return Ok(());
    }
    state.fm(who).task = None;
    match kind {
        TaskKind::CoupDeGrace(t, form, nonlethal) => {
            if state.helpless(t) && super::ammo::coup_weapon(state, who, t, form).is_some() {
                attack::coup_de_grace(state, table, who, t, usize::from(form), nonlethal)?;
            } else {
                table.emit(|| Event::Forgone {
                    who,
                    what: "coup de grace",
                    on: Some(t),
                    reason: "the foe is no longer helpless within reach".into(),
                    rule: "CEL-R12",
                });
            }
        }
        TaskKind::Disable(d) => disable(state, table, who, usize::from(d))?,
        TaskKind::FindTracks => super::ruling::find_tracks(state, table, who, needed)?,
        TaskKind::PickUp(item) => super::maneuver::hold_picked_up(state, table, who, item),
        TaskKind::PickUpShield => super::shield::hold_picked_up(state, table, who),
        TaskKind::PickUpGear(_) | TaskKind::PickUpRope => {
            if let Some(b) = dropped(kind) {
                super::belonging::hold_picked_up(state, table, who, b);
            }
        }
        TaskKind::Retrieve(book) => super::item::take_out(state, table, who, book),
        TaskKind::Untie(t) => super::escape::remove_ropes(state, table, who, t),
    }
    Ok(())
}

/// The acts are in: the device is disabled, after a Disable Device check if the GM set a DC
/// (a failed check leaves it as it was; the acts are spent). [CEL-R13, CEL-G3]
fn disable(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    d: usize,
) -> Result<(), Interrupt> {
    let name = state.devices[d].name.clone();
    if let Some(dc) = state.devices[d].dc {
        let check = super::D20Check {
            purpose: "Disable Device",
            modifier: "Disable Device",
            bonus: state.p(who).disable_device,
            dc,
            kind: super::CheckKind::Crippling(super::Crippled::DisableDevice),
            results: ("disabled", "not disabled"),
            rule: "CEL-R13",
        };
        // CEL-R9: a friend's Aid Another on this check.
        let skill = super::aid_check::Skill::DisableDevice;
        let success = check.roll_skill(skill, state, table, who)?;
        if !success {
            return Ok(());
        }
    }
    state.disabled[d] = true;
    table.emit(|| Event::Acted {
        who,
        act: "disables a device",
        on: None,
        detail: name,
        rule: "CEL-R13",
    });
    Ok(())
}
