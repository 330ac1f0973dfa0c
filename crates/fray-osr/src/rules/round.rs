//! The round (spec §1): surprise (OSR-R2), every declaration first (OSR-R3), 1d6 + DEX
//! initiative (OSR-R4), then the countdown over initiative numbers resolving the declared
//! actions, equal numbers simultaneous (OSR-R5, OSR-A32), and the end of the round.

use super::attack::{self, Form, Strike};
use super::{legal, movement};
use crate::choice::{Action, Item};
use crate::content::SpellEffect;
use crate::state::{Asking, Paused, State, Tending};
use crate::{Choice, Osr};
use fray_core::event::{Event, Modifier, Subject};
use fray_core::protocol::{RollPurpose, RollRequest};
use fray_core::ranked::RankedDie;
use fray_core::{CombatantId, Interrupt, Pos, Table};

/// OSR-R2: one d20 per side that might be surprised, +3 when the other side lies in ambush;
/// each member is surprised at 13 or more (elves 15).
pub fn begin(state: &mut State, table: &mut Table<'_, Osr>) -> Result<(), Interrupt> {
    let Some(surprise) = state.surprise.clone() else {
        return Ok(());
    };
    for side in surprise.sides.iter().copied() {
        let ambushed = surprise.ambushers.iter().any(|&a| a != side);
        let roll = table.roll_dice(1, 20, None, RollPurpose::Surprise, "OSR-R2.2")?;
        let bonus = if ambushed { 3 } else { 0 };
        let total = roll as i32 + bonus;
        let save = state.options.surprise_save;
        // Those held in reserve are not there to be surprised.
        let members: Vec<CombatantId> = state
            .ids()
            .filter(|&i| state.f(i).side == side && !state.f(i).reserve)
            .collect();
        let mut any = Vec::new();
        for &id in &members {
            let dc = if state.p(id).elf { 15 } else { 13 };
            let surprised = if save { total < dc } else { total >= dc };
            state.f_mut(id).surprised = surprised;
            any.push((id, surprised));
        }
        table.emit(|| Event::Check {
            who: Subject::Side(side),
            purpose: "surprise",
            dice: "d20".into(),
            roll,
            modifiers: if ambushed {
                vec![Modifier::new("ambush", "OSR-R2.3", 3)]
            } else {
                Vec::new()
            },
            total,
            against: "DC (13, elves 15)",
            target: 13,
            under: save,
            success: None,
            result: if save {
                "surprised under the DC (OSR-A1 toggle)".into()
            } else {
                "each member surprised at its DC or more".into()
            },
            rule: "OSR-R2.2",
        });
        for (id, surprised) in any {
            if surprised {
                table.emit(|| Event::Condition {
                    who: id,
                    condition: "surprised",
                    gained: true,
                    rule: "OSR-R2.4",
                });
            }
        }
    }
    Ok(())
}

/// Can `id` act this round at all (up, and not surprised in round 1, OSR-A31)?
pub fn acts(state: &State, id: CombatantId) -> bool {
    let f = state.f(id);
    f.is_up() && !(state.round == 1 && f.surprised)
}

/// One round: [`round_step`]'s steps one after another, without stopping.
pub fn play_round(state: &mut State, table: &mut Table<'_, Osr>) -> Result<(), Interrupt> {
    state.round = table.round();
    while !body_step(state, table)? {}
    Ok(())
}

/// The round from where `state` stands to its next settled point, or to its end: true when
/// the round is over (`Ruleset::round_step`; [`play_round`] is these steps one after another,
/// so ordinary play is unchanged). The settled points are after the declarations and
/// initiatives (OSR-R3, R4), and after each action of the countdown (OSR-R5), on a number or
/// among the held sets acting at its end (OSR-A39).
///
/// At those points nothing of the round is on the stack: the declarations, initiatives and
/// who has acted are in each fighter's plan; what is left of the countdown is
/// `State::paused` (the numbers not yet begun and, on the current number `State::number`,
/// the actors not yet taken, in the order they were sorted in when the number began, or the
/// next combatant the held sets are looked at from); who stood when the number began is
/// `State::up_at_number` (simultaneity, OSR-A32) and the moves made on it are
/// `Fighter::moved_on_number`/`moved_feet`; a delayed spell's effect on its target's
/// standing (OSR-A53) is applied before the pause. The round's heading (the order of the
/// countdown) is out before the first point. So the state alone says how the round goes on,
/// and exact odds may merge equal states there. A sloppy fumble's free attacks, which may chain
/// without end inside one action (OSR-R18.1, OSR-A10), are summed inside the step where they
/// come back to an equal state (`attack::free_attack`, `fray_core::Table::recurrence`).
///
/// It leaves the state as `play_round` would at the same point; what exact odds forget there
/// (so that states that differ only there merge) is their key, [`super::odds_key::odds_key`].
pub fn round_step(state: &mut State, table: &mut Table<'_, Osr>) -> Result<bool, Interrupt> {
    if state.paused == Paused::No {
        state.round = table.round();
    }
    body_step(state, table)
}

/// One step of the round (see [`round_step`]), the round already set.
fn body_step(state: &mut State, table: &mut Table<'_, Osr>) -> Result<bool, Interrupt> {
    match std::mem::take(&mut state.paused) {
        Paused::No => {
            round_start(state, table)?;
            let numbers = countdown_numbers(state, table);
            if numbers.is_empty() {
                // Nobody acts: no countdown, not even the held sets' end (OSR-A39).
                end_of_round(state, table)?;
                return Ok(true);
            }
            state.paused = Paused::Countdown {
                numbers,
                actors: Vec::new(),
            };
            Ok(false)
        }
        Paused::Countdown { numbers, actors } => {
            if countdown(state, table, numbers, actors)? {
                return Ok(false);
            }
            held_sets(state, table, 0)
        }
        Paused::Held(from) => held_sets(state, table, from),
    }
}

/// The last round's plans, dodges, charges and disrupted casting forgotten as a round begins
/// (the initiative kept when it is rolled once, OSR-A2 toggle). Nothing reads them before.
pub(crate) fn clear_round(state: &mut State) {
    let once = state.options.initiative_once;
    for f in &mut state.fighters {
        let keep = if once { f.plan.initiative } else { 0 };
        f.plan = Default::default();
        f.plan.initiative = keep;
        f.dodging = false;
        f.charging = false;
        f.attacked_casting = false;
    }
}

/// The round up to its countdown: the last round forgotten, surprise over in round 2
/// (OSR-R2.4), the hold checks (OSR-A19), every declaration first (OSR-R3), then 1d6 + DEX
/// initiative (OSR-R4).
fn round_start(state: &mut State, table: &mut Table<'_, Osr>) -> Result<(), Interrupt> {
    let round = state.round;
    clear_round(state);
    if round == 2 {
        for id in state.ids().collect::<Vec<_>>() {
            if state.f(id).surprised {
                state.f_mut(id).surprised = false;
                table.emit(|| Event::Condition {
                    who: id,
                    condition: "surprised",
                    gained: false,
                    rule: "OSR-R2.4",
                });
            }
        }
    }
    hold_checks(state, table)?;
    // OSR-R3: every combatant declares first.
    let ids: Vec<CombatantId> = state.ids().collect();
    for &id in &ids {
        if !acts(state, id) {
            continue;
        }
        let choice = super::ask(state, table, Asking::Declaration(id), "OSR-R3.1")?;
        let (action, then) = match choice {
            Choice::Declare(a) => (a, None),
            Choice::DeclareThen(a, to) => (a, Some(to)),
            _ => (Action::Nothing, None),
        };
        let f = state.f_mut(id);
        f.plan.action = action;
        f.plan.then = then;
        // OSR-R9.1, OSR-A21: the dodge counts from the start of the round.
        f.dodging = action == Action::Dodge;
        table.emit(|| Event::Declared {
            who: id,
            declaration: crate::choice::text(
                state,
                &then.map_or(Choice::Declare(action), |to| {
                    Choice::DeclareThen(action, to)
                }),
            ),
            rule: "OSR-R3.1",
        });
    }
    // OSR-R4: 1d6 + DEX, every round (OSR-A2) unless rolled once.
    let rollers: Vec<CombatantId> = ids
        .iter()
        .copied()
        .filter(|&id| {
            acts(state, id) && !(state.options.initiative_once && state.f(id).plan.initiative != 0)
        })
        .collect();
    let dice: Vec<RankedDie> = rollers
        .iter()
        .map(|&id| RankedDie {
            request: RollRequest::new(1, 6, Some(id), RollPurpose::Initiative, "OSR-R4.1"),
            modifier: initiative_modifier(state, id, round),
        })
        .collect();
    if state.options.initiative_once {
        // Kept across rounds to meet new rolls: their values are read, one die at a time.
        for (&id, die) in rollers.iter().zip(&dice) {
            let roll = table.roll(die.request)?;
            set_initiative(state, table, id, roll, die.modifier);
        }
        return Ok(());
    }
    // Rolled every round: only the order of the totals is read, never their values (the
    // countdown, OSR-R5; a set against a charge, OSR-R15.2; an interception, OSR-R12.1; a
    // delayed spell, OSR-R28.5; see `odds_key::rank_numbers`), and `clear_round` forgets them
    // before the next round: exact odds branch once per order ([`Table::roll_ranked`]).
    table.roll_ranked(&dice, |table, i, roll| {
        set_initiative(state, table, rollers[i], roll, dice[i].modifier);
        Ok(())
    })
}

/// What is added to `id`'s initiative d6 in `round` (OSR-R4.1): its DEX bonus, −2 blinded
/// (OSR-R17.4), −1 stumbling (OSR-R18.1).
fn initiative_modifier(state: &State, id: CombatantId, round: u32) -> i32 {
    let f = state.f(id);
    let mut modifier = state.p(id).dex_mod;
    if f.blinded_until >= round {
        modifier -= 2;
    }
    if f.stumbling(round) {
        modifier -= 1;
    }
    modifier
}

/// `id`'s initiative from its d6 `roll` and `modifier` (OSR-R4.1), logged.
fn set_initiative(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
    roll: u32,
    modifier: i32,
) {
    let total = roll as i32 + modifier;
    // 0 marks "not rolled" for the once-per-fight toggle; keep the real total apart.
    state.f_mut(id).plan.initiative = total;
    table.emit(|| Event::Initiative {
        who: id,
        roll,
        total,
        rule: "OSR-R4.1",
    });
}

/// The number on which `id` acts this round.
fn number_of(state: &State, id: CombatantId) -> i32 {
    let plan = &state.f(id).plan;
    let own = plan.moved_to.unwrap_or(plan.initiative);
    match plan.action {
        // OSR-R11: holding for a creature acts on its number, if that is later (OSR-R11.2).
        // OSR-R28.5: a delayed spell waits for its target's number, if that is later.
        Action::Hold(t) | Action::CastDelayed(_, _, t) if acts(state, t) && t != id => {
            let theirs = state.f(t).plan;
            own.min(theirs.moved_to.unwrap_or(theirs.initiative))
        }
        _ => own,
    }
}

/// OSR-R5: the numbers the countdown goes through, from the highest down, nobody skipped
/// (OSR-R4.5), shown with who acts on each.
fn countdown_numbers(state: &State, table: &mut Table<'_, Osr>) -> Vec<i32> {
    let mut numbers: Vec<i32> = state
        .ids()
        .filter(|&i| acts(state, i))
        .map(|i| state.f(i).plan.initiative)
        .collect();
    numbers.sort_unstable_by(|a, b| b.cmp(a));
    numbers.dedup();
    if !numbers.is_empty() {
        // Built only when the log is kept (a simulation keeps none).
        table.emit(|| Event::Order {
            groups: numbers
                .iter()
                .map(|&n| {
                    state
                        .ids()
                        .filter(|&i| acts(state, i) && state.f(i).plan.initiative == n)
                        .collect()
                })
                .collect(),
        });
    }
    numbers
}

/// OSR-R5: the countdown on from `actors` (left to take on the current number) and `numbers`
/// (not yet begun), up to the end of the next action (true: the round pauses there,
/// `State::paused`, [`round_step`]) or of the last number (false).
fn countdown(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    mut numbers: Vec<i32>,
    mut actors: Vec<CombatantId>,
) -> Result<bool, Interrupt> {
    loop {
        while !actors.is_empty() {
            let id = actors.remove(0);
            if state.f(id).plan.done || !state.up_at_number[id.index()] {
                continue;
            }
            let delayed = delayed_from_earlier(state, id);
            state.f_mut(id).plan.done = true;
            perform(state, table, id)?;
            // OSR-A53: what a delayed spell did counts before its target acts.
            if let (true, Action::CastDelayed(_, _, t)) = (delayed, state.f(id).plan.action) {
                state.up_at_number[t.index()] = state.f(t).is_up();
            }
            state.paused = Paused::Countdown { numbers, actors };
            return Ok(true);
        }
        // The number is over: what its criticals gave takes hold (OSR-A32).
        super::attack::settle_number(state);
        if numbers.is_empty() {
            // The countdown is over: no one stands for a number any more (OSR-A32).
            state.up_at_number.clear();
            return Ok(false);
        }
        let n = numbers.remove(0);
        begin_number(state, table, n, &mut actors)?;
    }
}

/// Begins number `n` of the countdown: the GM may step in, who stands now is noted
/// (simultaneity, OSR-A32), and those acting on it are put in `actors`, in the order they are
/// resolved, their moves to melee made together (OSR-R4.3).
fn begin_number(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    n: i32,
    actors: &mut Vec<CombatantId>,
) -> Result<(), Interrupt> {
    state.number = n;
    table.intervention_point(state)?;
    let mut up = std::mem::take(&mut state.up_at_number);
    up.clear();
    up.extend(state.fighters.iter().map(|f| f.is_up()));
    state.up_at_number = up;
    actors.clear();
    actors.extend(state.ids().filter(|&i| {
        state.up_at_number[i.index()]
            && !state.f(i).plan.done
            && number_of(state, i) == n
            && acts_now(state, i)
    }));
    simultaneous_order(state, actors);
    // OSR-A53: a delayed spell resolves just before its target's action, not with it.
    actors.sort_by_key(|&i| !delayed_from_earlier(state, i));
    simultaneous_moves(state, table, actors)
}

/// After the countdown, held sets that no charge came for act (OSR-A39), looked at from
/// combatant `from` on, up to the end of the next one's action (false: the round pauses
/// there, [`round_step`]); then the end of the round (true).
fn held_sets(state: &mut State, table: &mut Table<'_, Osr>, from: u16) -> Result<bool, Interrupt> {
    for id in state.ids().skip(usize::from(from)) {
        if acts(state, id) && !state.f(id).plan.done && state.f(id).is_up() {
            state.f_mut(id).plan.done = true;
            perform(state, table, id)?;
            state.paused = Paused::Held(id.0 + 1);
            return Ok(false);
        }
    }
    end_of_round(state, table)?;
    Ok(true)
}

/// A set weapon waits for a declared charger with equal or lower initiative (OSR-R15.2).
fn acts_now(state: &State, id: CombatantId) -> bool {
    if state.f(id).plan.action != Action::Set {
        return true;
    }
    let mine = state.f(id).plan.initiative;
    !state.ids().any(|c| {
        let f = state.f(c);
        f.is_up()
            && !f.plan.done
            && f.plan.action == Action::Charge(id)
            && f.plan.initiative <= mine
    })
}

/// The order simultaneous actions are resolved in: by the north–south row, then alternately
/// west or east first by round, so no file order decides (their results are simultaneous,
/// OSR-A32; only squares taken by moves depend on it).
fn simultaneous_order(state: &State, actors: &mut [CombatantId]) {
    let flip = if state.round % 2 == 0 { -1 } else { 1 };
    actors.sort_by_key(|&i| {
        let p = state.f(i).pos;
        (p.y, p.x * flip, i)
    });
}

/// OSR-A19: the hold check at the start of each later round while a hold lasts.
fn hold_checks(state: &mut State, table: &mut Table<'_, Osr>) -> Result<(), Interrupt> {
    for id in state.ids().collect::<Vec<_>>() {
        if let Some(held) = state.f(id).holding {
            if state.f(id).is_up() && state.f(held).is_up() {
                hold_check(state, table, id, held)?;
            }
        }
    }
    Ok(())
}

fn size_mod(size: crate::content::Size) -> i32 {
    match size {
        crate::content::Size::Small => -4,
        crate::content::Size::Medium => 0,
        crate::content::Size::Large => 4,
    }
}

/// OSR-R32.2: both roll d20 + STR or DEX bonus + size; the highest wins, ties re-rolled
/// (OSR-A19). True when the holder keeps the hold.
fn hold_check(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    holder: CombatantId,
    held: CombatantId,
) -> Result<bool, Interrupt> {
    let score = |state: &State, id: CombatantId| {
        let p = state.p(id);
        p.str_mod.max(p.dex_mod) + size_mod(p.size)
    };
    for _ in 0..100 {
        let die = table.roll_dice(1, 20, Some(holder), RollPurpose::Check, "OSR-R32.2")?;
        let a = die as i32 + score(state, holder);
        let b = table.roll_dice(1, 20, Some(held), RollPurpose::Check, "OSR-R32.2")? as i32
            + score(state, held);
        if a == b {
            continue;
        }
        let kept = a > b;
        table.emit(|| Event::Check {
            who: Subject::Combatant(holder),
            purpose: "grapple hold",
            dice: "d20".into(),
            roll: die,
            modifiers: vec![Modifier::new(
                "STR or DEX, size",
                "OSR-R32.2",
                score(state, holder),
            )],
            total: a,
            against: "the held creature's check",
            target: b,
            under: false,
            success: Some(kept),
            result: if kept {
                "keeps the hold"
            } else {
                "the hold breaks"
            }
            .into(),
            rule: "OSR-R32.2",
        });
        if kept {
            state.f_mut(holder).holding = Some(held);
            state.f_mut(held).held_by = Some(holder);
        } else {
            attack::release(state, holder);
        }
        return Ok(kept);
    }
    Err(Interrupt::limit("grapple check re-rolls"))
}

/// Moves `who` one square, logging it.
fn step(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    who: CombatantId,
    to: Pos,
    mode: &'static str,
    rule: &'static str,
) {
    let from = state.f(who).pos;
    if let Some(dir) = from.direction_to(to) {
        state.f_mut(who).facing = dir;
    }
    state.set_square(who, to);
    state.f_mut(who).moved_feet += from.feet_to(to);
    table.emit(|| Event::Moved {
        who,
        from,
        to,
        feet: from.feet_to(to),
        mode,
        hidden: false,
        rule,
    });
}

/// OSR-R16.1, R16.3, R16.4: a combatant that starts a move next to foes turns its back on each
/// of them: each may take a parting shot at +2 with one attack form. False if the mover fell.
fn parting_shots(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    mover: CombatantId,
) -> Result<bool, Interrupt> {
    for by in state.adjacent_foes(mover) {
        let forms = attack::free_forms(state, by, mover);
        // A creature the mover holds is dragged along, not left behind (OSR-R32.3).
        if forms.is_empty() || !state.f(by).is_up() || state.f(by).held_by == Some(mover) {
            continue;
        }
        match super::ask(
            state,
            table,
            Asking::PartingShot { by, at: mover },
            "OSR-R16.1",
        )? {
            Choice::Yes(n) => {
                let form = forms.get(usize::from(n)).copied().unwrap_or(forms[0]);
                let mut s = Strike::new(form, "parting shot", "OSR-R16.1");
                s.parting = true;
                attack::attack(state, table, by, mover, s)?;
                if !state.f(mover).is_up() {
                    return Ok(false);
                }
            }
            _ => table.emit(|| Event::Forgone {
                who: by,
                what: "parting shot",
                on: Some(mover),
                reason: "declined".into(),
                rule: "OSR-R16.1",
            }),
        }
    }
    Ok(true)
}

/// The rest of a split move (OSR-R6.1, OSR-E1): toward `to` with the feet left, turning its
/// back on adjacent foes (parting shots, OSR-R16.4).
fn walk_to(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    who: CombatantId,
    to: Pos,
    feet: i32,
) -> Result<(), Interrupt> {
    if !state.f(who).is_up() || feet < 5 || state.f(who).pos == to {
        return Ok(());
    }
    walk(state, table, who, to, feet, None)
}

/// Steps toward `to` with `feet` of movement, turning its back on adjacent foes first (parting
/// shots, OSR-R16.4), dragging the creature it holds along if any (OSR-R32.3).
fn walk(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    who: CombatantId,
    to: Pos,
    feet: i32,
    dragged: Option<CombatantId>,
) -> Result<(), Interrupt> {
    if !state.adjacent_foes(who).is_empty() && !parting_shots(state, table, who)? {
        return Ok(());
    }
    let (mode, rule) = match dragged {
        Some(_) => ("dragging its hold", "OSR-R32.3"),
        None => ("move", "OSR-R6.1"),
    };
    let mut left = feet;
    while left >= 5 && state.f(who).pos != to {
        let here = state.f(who).pos;
        let next = if here.squares_to(to) == 1 && state.free(to, who) {
            Some(to)
        } else {
            movement::step_toward(state, who, to)
        };
        let Some(next) = next else {
            break;
        };
        step(state, table, who, next, mode, rule);
        if let Some(held) = dragged {
            state.set_square(held, next);
            table.emit(|| Event::Moved {
                who: held,
                from: here,
                to: next,
                feet: here.feet_to(next),
                mode: "dragged",
                hidden: false,
                rule,
            });
        }
        left -= 5;
    }
    Ok(())
}

/// OSR-R32.3: the holder tries to take an item from the creature it holds: an extra attack roll
/// (the grab's touch attack, OSR-R32.1); a hit takes it.
fn take(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    holder: CombatantId,
    item: Item,
) -> Result<(), Interrupt> {
    let Some(held) = state.f(holder).holding else {
        table.emit(|| Event::Forgone {
            who: holder,
            what: "take an item",
            on: None,
            reason: "it no longer holds anyone".into(),
            rule: "OSR-R32.3",
        });
        return Ok(());
    };
    if !legal::takeable(state, held).contains(&item) {
        table.emit(|| Event::Forgone {
            who: holder,
            what: "take an item",
            on: Some(held),
            reason: format!("nothing of the kind left to take ({})", item.word()),
            rule: "OSR-R32.3",
        });
        return Ok(());
    }
    let strike = Strike::new(Form::Grab, "take an item", "OSR-R32.3");
    if !attack::attack(state, table, holder, held, strike)?.hit {
        return Ok(());
    }
    let detail = match item {
        Item::Weapon => {
            let h = state.f_mut(held);
            h.disarmed = true;
            h.weapon_taken = true;
            state
                .p(held)
                .melee
                .first()
                .map_or_else(String::new, |w| w.name.clone())
        }
        Item::Oil => {
            state.f_mut(held).oil -= 1;
            state.f_mut(holder).oil = state.f(holder).oil.saturating_add(1);
            "a flask of oil".into()
        }
        Item::HolyWater => {
            state.f_mut(held).holy_water -= 1;
            state.f_mut(holder).holy_water = state.f(holder).holy_water.saturating_add(1);
            "a flask of holy water".into()
        }
    };
    table.emit(|| Event::Acted {
        who: holder,
        act: "takes an item from",
        on: Some(held),
        detail,
        rule: "OSR-R32.3",
    });
    Ok(())
}

/// OSR-R32.3: the holder moves the creature it holds up to half its speed, if the GM rules it
/// strong enough; both stay in one square.
fn drag(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    holder: CombatantId,
    held: CombatantId,
    to: Pos,
    feet: i32,
) -> Result<(), Interrupt> {
    if feet < 5 || state.f(holder).pos == to {
        return Ok(());
    }
    let ruling = super::ask(
        state,
        table,
        Asking::StrongEnough { holder, held },
        "OSR-R32.3",
    )?;
    if ruling == Choice::No {
        table.emit(|| Event::Forgone {
            who: holder,
            what: "move",
            on: Some(held),
            reason: "not strong enough to move the creature it holds (the GM's ruling)".into(),
            rule: "OSR-R32.3",
        });
        return Ok(());
    }
    table.emit(|| Event::Ruling {
        rule: "OSR-R32.3",
        text: format!(
            "{} is strong enough to move {}",
            state.roster.name(holder),
            state.roster.name(held)
        ),
    });
    walk(state, table, holder, to, feet, Some(held))
}

/// The moves of everyone closing to melee on one number, made together (OSR-R4.3: equal
/// numbers act simultaneously): parting shots first, then one square each in turn, so that
/// two foes closing on each other meet halfway whoever is listed first; interceptions once all
/// have moved. Their attacks follow, each in `perform`.
fn simultaneous_moves(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    actors: &[CombatantId],
) -> Result<(), Interrupt> {
    for f in &mut state.fighters {
        f.moved_on_number = false;
        f.moved_feet = 0;
    }
    let mut movers: Vec<(CombatantId, CombatantId, i32)> = Vec::new();
    for &id in actors {
        let f = state.f(id);
        let target = match f.plan.action {
            Action::Attack { target, .. }
            | Action::Hold(target)
            | Action::Punch(target)
            | Action::Kick(target)
            | Action::Grapple(target) => target,
            _ => continue,
        };
        if f.prone
            || f.held_by.is_some()
            || !state.f(target).is_up()
            || f.pos.squares_to(state.f(target).pos) <= 1
            || (f.plan.action.is_attack() && f.no_attack_round == state.round)
        {
            continue;
        }
        movers.push((id, target, state.p(id).movement));
    }
    if movers.len() < 2 {
        return Ok(());
    }
    for &(id, _, _) in &movers {
        state.f_mut(id).moved_on_number = true;
        // A mover felled by a parting shot as it turns to go loses its action.
        if !state.adjacent_foes(id).is_empty() && !parting_shots(state, table, id)? {
            state.f_mut(id).plan.done = true;
        }
    }
    loop {
        let mut any = false;
        for (id, target, left) in movers.iter_mut() {
            let (id, target) = (*id, *target);
            if *left < 5
                || !state.f(id).is_up()
                || state.f(id).pos.squares_to(state.f(target).pos) <= 1
            {
                continue;
            }
            let to = state.f(target).pos;
            let Some(next) = movement::step_toward(state, id, to) else {
                *left = 0;
                continue;
            };
            step(state, table, id, next, "move", "OSR-R6.1");
            *left -= 5;
            any = true;
        }
        if !any {
            break;
        }
    }
    for &(id, _, _) in &movers {
        if state.f(id).is_up() {
            interceptions(state, table, id)?;
        }
    }
    Ok(())
}

/// Moves `who` toward `target` until within `reach` squares, up to `feet`; parting shots first
/// when it starts engaged. Returns false if it fell on the way.
fn approach(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    who: CombatantId,
    target: CombatantId,
    reach: i32,
    feet: i32,
) -> Result<bool, Interrupt> {
    if state.f(who).pos.squares_to(state.f(target).pos) <= reach
        || feet < 5
        || state.f(who).moved_on_number
    {
        return Ok(true);
    }
    if !state.adjacent_foes(who).is_empty() && !parting_shots(state, table, who)? {
        return Ok(false);
    }
    let mut left = feet;
    while left >= 5 && state.f(who).pos.squares_to(state.f(target).pos) > reach {
        let to = state.f(target).pos;
        let Some(next) = movement::step_toward(state, who, to) else {
            break;
        };
        step(state, table, who, next, "move", "OSR-R6.1");
        left -= 5;
    }
    interceptions(state, table, who)?;
    Ok(state.f(who).is_up())
}

/// OSR-R12: a foe with a long-reach weapon that the mover closed on, which has not acted and
/// declared a melee attack, may attack it now, simultaneously (its action for the round).
fn interceptions(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    closer: CombatantId,
) -> Result<(), Interrupt> {
    for by in state.adjacent_foes(closer) {
        let f = state.f(by);
        let eligible = !f.plan.done
            && acts(state, by)
            && matches!(f.plan.action, Action::Attack { .. } | Action::Set)
            && f.plan.initiative < state.number
            && state.p(by).melee.first().is_some_and(|w| w.long_reach)
            && attack::ready(state, by, Form::Melee(0));
        if !eligible {
            continue;
        }
        if let Choice::Yes(_) = super::ask(
            state,
            table,
            Asking::Intercept { by, at: closer },
            "OSR-R12.1",
        )? {
            state.f_mut(by).plan.done = true;
            state.f_mut(by).plan.moved_to = Some(state.number);
            attack::attack(
                state,
                table,
                by,
                closer,
                Strike::new(Form::Melee(0), "interception", "OSR-R12.1"),
            )?;
        }
    }
    Ok(())
}

/// A target still worth the declared action, else a new one asked of the actor (OSR-A33).
fn target_or_retarget(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    who: CombatantId,
    target: CombatantId,
) -> Result<Option<CombatantId>, Interrupt> {
    if state.f(target).is_up() || state.stood_at_number(target) {
        return Ok(Some(target));
    }
    if super::legal::retargets(state, who).is_empty() {
        table.emit(|| Event::Forgone {
            who,
            what: "action",
            on: Some(target),
            reason: "its target is out of the fight and no other is in reach".into(),
            rule: "OSR-A33",
        });
        return Ok(None);
    }
    match super::ask(state, table, Asking::Retarget { who }, "OSR-A33")? {
        Choice::Target(t) => Ok(t),
        _ => Ok(None),
    }
}

/// Resolves `id`'s declared action on its number.
fn perform(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
) -> Result<(), Interrupt> {
    let round = state.round;
    table.emit(|| Event::TurnStarted { who: id });
    let mut feet = state.p(id).movement;
    if state.f(id).prone {
        // Standing up uses its movement (OSR-A6).
        state.f_mut(id).prone = false;
        feet = 0;
        table.emit(|| Event::Condition {
            who: id,
            condition: "prone",
            gained: false,
            rule: "OSR-A6",
        });
    }
    if state.f(id).held_by.is_some() {
        feet = 0;
    }
    let action = state.f(id).plan.action;
    let no_attack = state.f(id).no_attack_round == round;
    if action.is_attack() && no_attack {
        table.emit(|| Event::Skipped {
            who: id,
            reason: "no attack this round (fumble)",
            rule: "OSR-R18.1",
        });
        table.emit(|| Event::TurnEnded { who: id });
        return Ok(());
    }
    match action {
        Action::Nothing | Action::Dodge | Action::Reload => {}
        Action::Recover => {
            state.f_mut(id).disarmed = false;
            table.emit(|| Event::Acted {
                who: id,
                act: "recovers its weapon",
                on: None,
                detail: String::new(),
                rule: "OSR-A6",
            });
        }
        Action::Revive(t) => revive(state, table, id, t)?,
        Action::Silence => {
            // OSR-R32.3: for as long as the hold lasts (a release ends it).
            if let Some(held) = state.f(id).holding {
                state.f_mut(held).silenced = true;
                table.emit(|| Event::Acted {
                    who: id,
                    act: "gags",
                    on: Some(held),
                    detail: "kept from speaking while held".into(),
                    rule: "OSR-R32.3",
                });
            }
        }
        Action::SpillOil(at) => spill_oil(state, table, id, at)?,
        Action::Take(item) => take(state, table, id, item)?,
        Action::Move(to) => match state.f(id).holding {
            Some(held) => drag(state, table, id, held, to, feet / 2)?,
            None => walk_to(state, table, id, to, feet)?,
        },
        Action::PutOut => {
            table.emit(|| Event::Acted {
                who: id,
                act: "puts out the flames",
                on: None,
                detail: String::new(),
                rule: "OSR-R25.2",
            });
        }
        Action::Feat => {
            table.emit(|| Event::Acted {
                who: id,
                act: "performs a feat",
                on: None,
                detail: "the GM adjudicates it and applies its result with interventions (OSR-A16, OSR-G6)"
                    .into(),
                rule: "OSR-R10.1",
            });
        }
        Action::Attack { target, .. } | Action::Hold(target) => {
            let flat = matches!(action, Action::Attack { flat: true, .. });
            if let Some(t) = target_or_retarget(state, table, id, target)? {
                if approach(state, table, id, t, 1, feet)?
                    && state.f(id).pos.squares_to(state.f(t).pos) <= 1
                {
                    melee(state, table, id, t, flat, false, false)?;
                } else if state.f(id).is_up() {
                    table.emit(|| Event::Forgone {
                        who: id,
                        what: "attack",
                        on: Some(t),
                        reason: "out of reach after its move".into(),
                        rule: "OSR-R6.1",
                    });
                }
            }
            if let Action::Attack { then: Some(to), .. } = action {
                let left = feet - state.f(id).moved_feet;
                walk_to(state, table, id, to, left)?;
            }
        }
        Action::Punch(target) | Action::Kick(target) | Action::Grapple(target) => {
            if let Some(t) = target_or_retarget(state, table, id, target)? {
                if approach(state, table, id, t, 1, feet)?
                    && state.f(id).pos.squares_to(state.f(t).pos) <= 1
                {
                    let form = match action {
                        Action::Punch(_) => Form::Punch,
                        Action::Kick(_) => Form::Kick,
                        _ => Form::Grab,
                    };
                    let label = match form {
                        Form::Punch => "punch",
                        Form::Kick => "kick",
                        _ => "grab",
                    };
                    let rule = match form {
                        Form::Punch => "OSR-R31.1",
                        Form::Kick => "OSR-R31.2",
                        _ => "OSR-R32.1",
                    };
                    let hit =
                        attack::attack(state, table, id, t, Strike::new(form, label, rule))?.hit;
                    if hit && form == Form::Grab && state.f(t).is_up() {
                        grab(state, table, id, t)?;
                    }
                }
            }
        }
        Action::Shoot(target, _) | Action::Oil(target) | Action::HolyWater(target) => {
            if let Some(t) = target_or_retarget(state, table, id, target)? {
                shoot(state, table, id, t, action, feet)?;
            }
            // OSR-R6.1: the movement left, after the shot.
            if let Action::Shoot(_, Some(to)) = action {
                if state.f(id).is_up() {
                    let left = feet - state.f(id).moved_feet;
                    walk_to(state, table, id, to, left)?;
                }
            }
        }
        Action::Charge(target) => charge(state, table, id, target)?,
        Action::Set => {
            // No charge came: a normal attack on a foe within reach, or nothing (OSR-A39).
            let adjacent = state.adjacent_foes(id);
            if !adjacent.is_empty() {
                if let Choice::Target(Some(t)) =
                    super::ask(state, table, Asking::Retarget { who: id }, "OSR-A39")?
                {
                    melee(state, table, id, t, false, false, false)?;
                }
            } else {
                table.emit(|| Event::Forgone {
                    who: id,
                    what: "set against a charge",
                    on: None,
                    reason: "no charge came and no foe is within reach".into(),
                    rule: "OSR-A39",
                });
            }
        }
        Action::Withdraw => {
            // OSR-R16.2: fight a foe still within reach, then back away at half movement.
            if !state.adjacent_foes(id).is_empty() {
                if let Choice::Target(Some(t)) =
                    super::ask(state, table, Asking::Retarget { who: id }, "OSR-R16.2")?
                {
                    melee(state, table, id, t, false, false, false)?;
                }
            }
            let mut left = feet / 2;
            while left >= 5 && state.f(id).is_up() {
                let Some(next) = movement::step_away(state, id) else {
                    break;
                };
                // Backing away: it keeps facing its foes.
                let facing = state.f(id).facing;
                step(state, table, id, next, "fighting withdrawal", "OSR-R16.2");
                state.f_mut(id).facing = facing;
                left -= 5;
            }
        }
        Action::Run => {
            // OSR-R13: double movement, no attack; turning its back on adjacent foes.
            if state.f(id).fatigued {
                feet = feet.min(state.p(id).movement);
            } else {
                feet *= 2;
            }
            if parting_shots(state, table, id)? {
                let mut left = feet;
                while left >= 5 {
                    let Some(next) = movement::step_away(state, id) else {
                        break;
                    };
                    step(state, table, id, next, "run", "OSR-R13.1");
                    left -= 5;
                }
                if state.options.run_away_leaves && state.f(id).is_up() {
                    state.f_mut(id).fled = true;
                    attack::release(state, id);
                    let hp = state.f(id).hp;
                    table.emit(|| Event::Status {
                        who: id,
                        status: "fled",
                        hp,
                        rule: "OSR-A51",
                    });
                }
            }
        }
        Action::Cast(_, spell, target) | Action::CastDelayed(_, spell, target) => {
            cast(state, table, id, usize::from(spell), target, feet)?;
        }
    }
    // OSR-R6.1: `ACTION then X Y`: the movement left, after the action.
    if let Some(to) = state.f(id).plan.then {
        if state.f(id).is_up() && state.f(id).held_by.is_none() {
            let left = feet - state.f(id).moved_feet;
            walk_to(state, table, id, to, left)?;
        }
    }
    table.emit(|| Event::TurnEnded { who: id });
    Ok(())
}

/// One melee action: a monster's whole routine (OSR-R7.3), or the weapon (and the second
/// weapon, OSR-R29), at `t`, played blow by blow ([`melee_blow`]).
fn melee(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
    t: CombatantId,
    flat: bool,
    charge: bool,
    set: bool,
) -> Result<(), Interrupt> {
    let armed = melee_armed(state, id, charge, set);
    let mut blow = 0;
    while melee_blow(state, table, id, t, blow, flat, charge, set, armed)? {
        blow += 1;
    }
    Ok(())
}

/// The forms of one melee action: a monster's whole routine (OSR-R7.3), else the weapon.
fn melee_forms(state: &State, id: CombatantId) -> usize {
    let p = state.p(id);
    if p.routine {
        p.melee.len()
    } else {
        1
    }
}

/// Whether a melee action also swings the second weapon (OSR-R29; not on a charge or a set).
fn two_weapons(state: &State, id: CombatantId, charge: bool, set: bool) -> bool {
    state.p(id).offhand.is_some() && !charge && !set
}

/// Whether `id` has any ready form for a melee action, judged at the action's start: if not, it
/// fights bare-handed (OSR-R31.4). A form can only stop being ready during an action (a fumble
/// drops or breaks the weapon, OSR-R18.1), never become ready, so "some form was ready when its
/// turn came" is the same as "some form was ready at the start".
pub fn melee_armed(state: &State, id: CombatantId, charge: bool, set: bool) -> bool {
    (0..melee_forms(state, id)).any(|n| attack::ready(state, id, Form::Melee(n as u8)))
        || (two_weapons(state, id, charge, set) && attack::ready(state, id, Form::Offhand))
}

/// Blow `blow` (from 0) of one melee action: each form of the routine in turn (OSR-R7.3; one
/// not ready is skipped), then the second weapon (OSR-R29.2), then a punch if nothing was
/// `armed` at the start (OSR-R31.4). False, with nothing done, past the last blow. The blows
/// go on at a fallen target, as the action does. Nothing is carried between blows but the state
/// and `armed`, so `fray odds --routine` can merge equal states there.
#[allow(clippy::too_many_arguments)]
pub fn melee_blow(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
    t: CombatantId,
    blow: usize,
    flat: bool,
    charge: bool,
    set: bool,
    armed: bool,
) -> Result<bool, Interrupt> {
    let forms = melee_forms(state, id);
    let two = two_weapons(state, id, charge, set);
    if blow < forms {
        let form = Form::Melee(blow as u8);
        if attack::ready(state, id, form) {
            let mut s = Strike::new(
                form,
                if charge {
                    "charge"
                } else if set {
                    "set against the charge"
                } else {
                    "melee"
                },
                if charge {
                    "OSR-R14.3"
                } else if set {
                    "OSR-R15.1"
                } else {
                    "OSR-R7.1"
                },
            );
            s.charge = charge;
            s.set = set;
            s.flat = flat;
            s.two_weapons = two;
            attack::attack(state, table, id, t, s)?;
        }
        return Ok(true);
    }
    let mut next = forms;
    if two {
        if blow == next {
            if attack::ready(state, id, Form::Offhand) {
                let mut s = Strike::new(Form::Offhand, "second weapon", "OSR-R29.2");
                s.two_weapons = true;
                s.flat = flat;
                attack::attack(state, table, id, t, s)?;
            }
            return Ok(true);
        }
        next += 1;
    }
    if !armed && blow == next {
        // Disarmed or broken: it fights bare-handed (OSR-R31.4).
        attack::attack(
            state,
            table,
            id,
            t,
            Strike::new(Form::Punch, "punch", "OSR-R31.1"),
        )?;
        return Ok(true);
    }
    Ok(false)
}

/// OSR-R32.1: a grab that hits moves the attacker into the defender's space; then the hold
/// check (OSR-R32.2).
fn grab(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
    t: CombatantId,
) -> Result<(), Interrupt> {
    let from = state.f(id).pos;
    let to = state.f(t).pos;
    state.set_square(id, to);
    table.emit(|| Event::Moved {
        who: id,
        from,
        to,
        feet: from.feet_to(to),
        mode: "into the defender's space",
        hidden: false,
        rule: "OSR-R32.1",
    });
    if !hold_check(state, table, id, t)? {
        // Broken free: the grappler is pushed back to where it came from.
        state.set_square(id, from);
        table.emit(|| Event::Moved {
            who: id,
            from: to,
            to: from,
            feet: from.feet_to(to),
            mode: "thrown off",
            hidden: false,
            rule: "OSR-R32.2",
        });
    } else {
        table.emit(|| Event::Condition {
            who: t,
            condition: "held",
            gained: true,
            rule: "OSR-R32.2",
        });
    }
    Ok(())
}

/// OSR-R30.3, OSR-A15: a round of tending a knocked-out friend; the first of a run of
/// consecutive rounds rolls 2d10 for how many it takes, and at the end of the last the friend
/// wakes with 1 hp.
fn revive(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
    t: CombatantId,
) -> Result<(), Interrupt> {
    let round = state.round;
    let friend = state.f(t);
    if !friend.down || friend.dead || friend.fled {
        state.f_mut(id).tending = None;
        table.emit(|| Event::Forgone {
            who: id,
            what: "tending",
            on: Some(t),
            reason: "no longer knocked out".into(),
            rule: "OSR-R30.3",
        });
        return Ok(());
    }
    if state.f(id).pos.squares_to(friend.pos) > 1 {
        state.f_mut(id).tending = None;
        table.emit(|| Event::Forgone {
            who: id,
            what: "tending",
            on: Some(t),
            reason: "not on an adjacent square".into(),
            rule: "OSR-R30.3",
        });
        return Ok(());
    }
    let going_on = state
        .f(id)
        .tending
        .filter(|k| k.who == t && k.last + 1 == round);
    let mut tending = match going_on {
        Some(k) => k,
        None => {
            let needed = table.roll_dice(2, 10, Some(id), RollPurpose::Other, "OSR-A15")?;
            Tending {
                who: t,
                needed,
                done: 0,
                last: round,
            }
        }
    };
    tending.done += 1;
    tending.last = round;
    let (done, needed) = (tending.done, tending.needed);
    if done < needed {
        state.f_mut(id).tending = Some(tending);
        table.emit(|| Event::Acted {
            who: id,
            act: "tends",
            on: Some(t),
            detail: format!("round {done} of {needed} (2d10)"),
            rule: "OSR-R30.3",
        });
        return Ok(());
    }
    state.f_mut(id).tending = None;
    let f = state.f_mut(t);
    let amount = 1 - f.hp;
    f.hp = 1;
    f.down = false;
    table.emit(|| Event::Acted {
        who: id,
        act: "tends",
        on: Some(t),
        detail: format!("round {done} of {needed} (2d10)"),
        rule: "OSR-R30.3",
    });
    table.emit(|| Event::Healed {
        who: t,
        amount,
        hp: 1,
        rule: "OSR-R30.3",
    });
    table.emit(|| Event::Status {
        who: t,
        status: "revived",
        hp: 1,
        rule: "OSR-R30.3",
    });
    Ok(())
}

/// Is `id` casting a delayed spell (OSR-R28.5) on a later number than its own?
fn delayed_from_earlier(state: &State, id: CombatantId) -> bool {
    let plan = &state.f(id).plan;
    matches!(plan.action, Action::CastDelayed(..))
        && plan.moved_to.unwrap_or(plan.initiative) > state.number
}

/// OSR-R23.5: a shooter still reloading drops the empty crossbow and takes a loaded one.
fn swap_crossbows(state: &mut State, table: &mut Table<'_, Osr>, id: CombatantId) {
    let round = state.round;
    let f = state.f_mut(id);
    if f.reloading_until < round || f.reloading_until == 0 || f.spare_loaded == 0 {
        return;
    }
    f.spare_loaded -= 1;
    f.reloading_until = 0;
    let left = f.spare_loaded;
    table.emit(|| Event::Acted {
        who: id,
        act: "swaps crossbows",
        on: None,
        detail: format!("drops the empty one and takes a loaded one; {left} loaded left"),
        rule: "OSR-R23.5",
    });
}

/// A missile attack (or a thrown flask): move into range first if needed (OSR-R6.1), the
/// attack (OSR-R21), crossbow reloading (OSR-R23), stray missiles (OSR-R27), flasks (OSR-R24–26).
fn shoot(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
    t: CombatantId,
    action: Action,
    feet: i32,
) -> Result<(), Interrupt> {
    let flask = !matches!(action, Action::Shoot(..));
    let range = if flask {
        [10, 30, 50]
    } else {
        match state.p(id).missile.as_ref().and_then(|m| m.range) {
            Some(r) => r,
            None => return Ok(()),
        }
    };
    if state.f(id).pos.feet_to(state.f(t).pos) > range[2]
        && !approach(state, table, id, t, range[2] / 5, feet)?
    {
        return Ok(());
    }
    let dist = state.f(id).pos.feet_to(state.f(t).pos);
    if dist > range[2] {
        table.emit(|| Event::Forgone {
            who: id,
            what: "shot",
            on: Some(t),
            reason: format!("{dist} ft: beyond long range ({} ft)", range[2]),
            rule: "OSR-R21",
        });
        return Ok(());
    }
    if flask {
        return throw_flask(state, table, id, t, action, range);
    }
    swap_crossbows(state, table, id);
    let swing = attack::attack(
        state,
        table,
        id,
        t,
        Strike::new(Form::Missile, "missile", "OSR-R21"),
    )?;
    let reload = state.p(id).missile.as_ref().map_or(0, |m| m.reload);
    if reload > 0 {
        state.f_mut(id).reloading_until = state.round + u32::from(reload);
    }
    if !swing.hit && !swing.fumble && state.options.stray_missiles {
        stray(state, table, id, t)?;
    }
    Ok(())
}

/// OSR-R27, OSR-A52: a missed shot into a melee may hit the shooter's allies next to the
/// target, nearest to the shooter first; the GM rolls against each until one is hit.
fn stray(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    shooter: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let side = state.f(shooter).side;
    let tpos = state.f(target).pos;
    let spos = state.f(shooter).pos;
    let mut allies: Vec<CombatantId> = state
        .ids()
        .filter(|&a| {
            a != shooter
                && state.f(a).side == side
                && state.f(a).is_up()
                && state.f(a).pos.squares_to(tpos) <= 1
        })
        .collect();
    allies.sort_by_key(|&a| (state.f(a).pos.squares_to(spos), a));
    for ally in allies {
        let s = Strike::new(Form::Missile, "stray missile", "OSR-R27.2");
        if attack::attack(state, table, shooter, ally, s)?.hit {
            break;
        }
    }
    Ok(())
}

/// The grenade diagram (OSR-R24, OSR-A3, OSR-A48): offsets of each d10 cell in 10-ft steps,
/// as (right, toward "behind") from the target seen by the thrower.
pub fn diagram_cell(d10: u32) -> (i32, i32) {
    match d10 {
        1 => (0, 2),
        2 => (-1, -1),
        3 => (0, -1),
        4 => (1, -1),
        5 => (-1, 0),
        6 => (1, 0),
        7 => (-1, 1),
        8 => (0, 1),
        9 => (1, 1),
        _ => (0, -2),
    }
}

/// A thrown flask of oil or holy water (OSR-R24–R26).
fn throw_flask(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
    t: CombatantId,
    action: Action,
    _range: [i32; 3],
) -> Result<(), Interrupt> {
    let holy = matches!(action, Action::HolyWater(_));
    {
        let f = state.f_mut(id);
        if holy {
            f.holy_water = f.holy_water.saturating_sub(1);
        } else {
            f.oil = f.oil.saturating_sub(1);
        }
    }
    let swing = attack::attack(
        state,
        table,
        id,
        t,
        Strike::new(
            Form::Flask,
            if holy { "holy water" } else { "oil" },
            "OSR-R24.1",
        ),
    )?;
    let tpos = state.f(t).pos;
    let impact = if swing.hit {
        tpos
    } else {
        let d10 = table.roll_dice(1, 10, None, RollPurpose::Other, "OSR-R24.1")?;
        let (right, behind) = diagram_cell(d10);
        // "Front" faces the thrower (rounded to one of eight directions); each cell is 10 ft.
        let spos = state.f(id).pos;
        let away = spos
            .direction_to(tpos)
            .unwrap_or(fray_core::Direction::North)
            .delta();
        let right_dir = (-away.1, away.0);
        let p = Pos::new(
            tpos.x + 2 * (behind * away.0 + right * right_dir.0),
            tpos.y + 2 * (behind * away.1 + right * right_dir.1),
        );
        table.emit(|| Event::Acted {
            who: id,
            act: "flask lands",
            on: None,
            detail: format!("diagram cell {d10}: square ({}, {})", p.x, p.y),
            rule: "OSR-R24.1",
        });
        p
    };
    let direct = if swing.hit { Some(t) } else { None };
    let fused = state.f(id).fused;
    let direct_full = !(fused && state.options.fused_direct_splash_only);
    if let Some(d) = direct {
        let immune = if holy {
            !state.p(d).undead
        } else {
            state.p(d).fire_resistant
        };
        if !immune && (holy || direct_full) {
            let roll = table.roll_dice(
                1,
                8,
                Some(id),
                RollPurpose::Damage,
                if holy { "OSR-R26.1" } else { "OSR-R25.2" },
            )? as i32;
            attack::hurt(
                state,
                table,
                id,
                d,
                roll,
                Vec::new(),
                roll,
                false,
                if holy { "OSR-R26.1" } else { "OSR-R25.2" },
            )?;
            if !holy {
                state.f_mut(d).burning_round = state.round + 1;
            }
        }
    }
    let splash = if holy { true } else { fused };
    if splash {
        let mut near: Vec<CombatantId> = state
            .ids()
            .filter(|&c| state.f(c).pos.squares_to(impact) <= 1 && state.f(c).on_map())
            .collect();
        near.sort();
        for c in near {
            if holy
                && (!state.p(c).undead || (Some(c) == direct && !state.options.holy_direct_splash))
            {
                continue;
            }
            if !holy && state.p(c).fire_resistant {
                continue;
            }
            if !holy && Some(c) != direct {
                // Save vs death ray avoids the splash (OSR-R25.3).
                let roll = table.roll_dice(1, 20, Some(c), RollPurpose::Check, "OSR-R25.3")?;
                let dc = state.p(c).save_death;
                // Shaken: −2 to saves (OSR-R17.4).
                let shaken = if state.f(c).shaken_until >= state.round {
                    -2
                } else {
                    0
                };
                let ok = roll as i32 + shaken >= dc;
                table.emit(|| Event::Check {
                    who: Subject::Combatant(c),
                    purpose: "save vs death ray",
                    dice: "d20".into(),
                    roll,
                    modifiers: if shaken != 0 {
                        vec![Modifier::new("shaken", "OSR-R17.4", shaken)]
                    } else {
                        Vec::new()
                    },
                    total: roll as i32 + shaken,
                    against: "save",
                    target: dc,
                    under: false,
                    success: Some(ok),
                    result: if ok { "avoids the splash" } else { "splashed" }.into(),
                    rule: "OSR-R25.3",
                });
                if ok {
                    continue;
                }
            }
            let rule = if holy { "OSR-R26.1" } else { "OSR-R25.3" };
            let roll = table.roll_dice(1, 6, Some(id), RollPurpose::Damage, rule)? as i32;
            attack::hurt(state, table, id, c, roll, Vec::new(), roll, false, rule)?;
        }
    }
    Ok(())
}

/// OSR-R14: the charge at its number: straight line, 10 ft to double movement, set weapons
/// and interception, +2 and double damage, −2 AC for the rest of the round.
fn charge(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let Some(t) = target_or_retarget(state, table, id, target)? else {
        return Ok(());
    };
    if let Some(why) = movement::charge_problem(state, id, t) {
        table.emit(|| Event::Forgone {
            who: id,
            what: "charge",
            on: Some(t),
            reason: why,
            rule: "OSR-R14.2",
        });
        return Ok(());
    }
    state.f_mut(id).charging = true;
    state.f_mut(id).rounds_run += 1;
    table.emit(|| Event::Condition {
        who: id,
        condition: "charging (−2 AC)",
        gained: true,
        rule: "OSR-R14.4",
    });
    if !state.adjacent_foes(id).is_empty() && !parting_shots(state, table, id)? {
        return Ok(());
    }
    let line = movement::charge_line(state.f(id).pos, state.f(t).pos);
    for sq in line {
        let from = state.f(id).pos;
        if let Some(dir) = from.direction_to(sq) {
            state.f_mut(id).facing = dir;
        }
        state.set_square(id, sq);
        table.emit(|| Event::Moved {
            who: id,
            from,
            to: sq,
            feet: 5,
            mode: "charge",
            hidden: false,
            rule: "OSR-R14.2",
        });
    }
    // OSR-R15: a set weapon with equal or better initiative strikes simultaneously, double damage.
    let tf = state.f(t);
    let set_ok = tf.plan.action == Action::Set
        && !tf.plan.done
        && acts(state, t)
        && tf.plan.initiative >= state.f(id).plan.initiative
        && state.p(t).melee.first().is_some_and(|w| w.set)
        && attack::ready(state, t, Form::Melee(0));
    if set_ok {
        state.f_mut(t).plan.done = true;
        state.f_mut(t).plan.moved_to = Some(state.number);
        table.emit(|| Event::Acted {
            who: t,
            act: "sets its weapon against the charge",
            on: Some(id),
            detail: String::new(),
            rule: "OSR-R15.2",
        });
        melee(state, table, t, id, false, false, true)?;
    } else {
        interceptions(state, table, id)?;
    }
    melee(state, table, id, t, false, true, false)
}

/// OSR-R8, OSR-R28: a spell at its number: free hand and speech needed; a caster attacked
/// while casting saves vs spells or loses it.
fn cast(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
    spell: usize,
    target: CombatantId,
    feet: i32,
) -> Result<(), Interrupt> {
    let Some(sp) = state.p(id).spells.get(spell).cloned() else {
        return Ok(());
    };
    if state.f(id).silenced {
        table.emit(|| Event::Casting {
            who: id,
            spell: sp.name.clone(),
            on: Some(target),
            stage: "lost",
            detail: "kept from speaking by its holder".into(),
            rule: "OSR-R28.7",
        });
        return Ok(());
    }
    if state.f(id).attacked_casting {
        let roll = table.roll_dice(1, 20, Some(id), RollPurpose::Check, "OSR-R28.3")?;
        let mut total = roll as i32;
        if state.f(id).shaken_until >= state.round {
            total -= 2;
        }
        // OSR-A12, OSR-G8: vs spells unless the GM chose death ray.
        let (dc, purpose) = if state.options.disruption_vs_death {
            (state.p(id).save_death, "save vs death ray")
        } else {
            (state.p(id).save_spells, "save vs spells")
        };
        let ok = total >= dc;
        table.emit(|| Event::Check {
            who: Subject::Combatant(id),
            purpose,
            dice: "d20".into(),
            roll,
            modifiers: Vec::new(),
            total,
            against: "save",
            target: dc,
            under: false,
            success: Some(ok),
            result: if ok {
                "keeps the spell"
            } else {
                "the spell is disrupted"
            }
            .into(),
            rule: "OSR-R28.3",
        });
        if !ok {
            table.emit(|| Event::Casting {
                who: id,
                spell: sp.name.clone(),
                on: Some(target),
                stage: "lost",
                detail: "disrupted".into(),
                rule: "OSR-R28.3",
            });
            return Ok(());
        }
    }
    let Some(t) = target_or_retarget(state, table, id, target)? else {
        return Ok(());
    };
    if state.f(id).pos.feet_to(state.f(t).pos) > sp.range
        && !approach(state, table, id, t, sp.range / 5, feet)?
    {
        return Ok(());
    }
    if state.f(id).pos.feet_to(state.f(t).pos) > sp.range {
        table.emit(|| Event::Casting {
            who: id,
            spell: sp.name.clone(),
            on: Some(t),
            stage: "wasted",
            detail: "out of range".into(),
            rule: "OSR-R8.1",
        });
        return Ok(());
    }
    table.emit(|| Event::Casting {
        who: id,
        spell: sp.name.clone(),
        on: Some(t),
        stage: "uses",
        detail: String::new(),
        rule: "OSR-R8.1",
    });
    // OSR-R28.5, OSR-A53: a spell held from an earlier number to just before its target's action
    // goes off first, and a target casting must save or lose its own spell.
    if delayed_from_earlier(state, id) {
        let target = state.f(t);
        let casting = matches!(
            target.plan.action,
            Action::Cast(..) | Action::CastDelayed(..)
        );
        if casting && !target.plan.done {
            state.f_mut(t).attacked_casting = true;
        }
    }
    match sp.effect {
        SpellEffect::Damage(d) => {
            let roll = table.roll_damage(d, Some(id), RollPurpose::Damage, "OSR-R8.1")?;
            let amount = (roll + d.bonus).max(1);
            attack::hurt(
                state,
                table,
                id,
                t,
                roll,
                vec![Modifier::new("spell", "OSR-R8.1", d.bonus)],
                amount,
                false,
                "OSR-R8.1",
            )?;
        }
        SpellEffect::Heal(d) => {
            let roll = table.roll_damage(d, Some(id), RollPurpose::Other, "OSR-R8.1")?;
            let max = state.p(t).max_hp;
            let f = state.f_mut(t);
            let amount = (roll + d.bonus).max(0).min((max - f.hp).max(0));
            f.hp += amount;
            let hp = f.hp;
            if hp > 0 && f.down {
                f.down = false;
            }
            table.emit(|| Event::Healed {
                who: t,
                amount,
                hp,
                rule: "OSR-R8.1",
            });
        }
    }
    Ok(())
}

/// Rounds that oil spilled on the ground and lit burns (OSR-R25.5).
pub const GROUND_FIRE_ROUNDS: u32 = 10;

/// OSR-R25.5: a flask poured on a square within 5 ft and lit burns there for 10 rounds, counting
/// the round it is lit in.
fn spill_oil(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
    at: Pos,
) -> Result<(), Interrupt> {
    state.f_mut(id).oil = state.f(id).oil.saturating_sub(1);
    let area = fray_core::Area {
        squares: vec![at],
        last_round: state.round + GROUND_FIRE_ROUNDS - 1,
        source: Some(id),
        label: "burning oil".into(),
    };
    let last_round = area.last_round;
    state
        .areas
        .add(area)
        .map_err(|_| Interrupt::limit("areas in play"))?;
    table.emit(|| Event::Area {
        by: Some(id),
        label: "burning oil".into(),
        squares: vec![at],
        last_round,
        begins: true,
        rule: "OSR-R25.5",
    });
    // Whoever stands there now stands in it.
    let round = state.round;
    for o in state.ids().collect::<Vec<_>>() {
        if state.f(o).on_map() && state.f(o).pos == at {
            state.f_mut(o).ground_fire_round = round;
        }
    }
    Ok(())
}

/// OSR-R25.5, R25.6: at the end of each round, 1d6 fire (no save) to each creature that stood in
/// or moved through burning ground during it; fire-resistant creatures take none. Then the
/// fires whose 10 rounds are over go out.
fn ground_fire(state: &mut State, table: &mut Table<'_, Osr>) -> Result<(), Interrupt> {
    if state.areas.is_empty() {
        return Ok(());
    }
    let round = state.round;
    for id in state.ids().collect::<Vec<_>>() {
        let f = state.f(id);
        let standing_in = state.areas.covering(f.pos).next().is_some();
        if !f.on_map() || f.dead || !(standing_in || f.ground_fire_round == round) {
            continue;
        }
        if state.p(id).fire_resistant {
            table.emit(|| Event::Forgone {
                who: id,
                what: "fire damage",
                on: None,
                reason: "fire-resistant: burning oil does it no harm".into(),
                rule: "OSR-R25.6",
            });
            continue;
        }
        burn(state, table, id, 6, "OSR-R25.5")?;
    }
    for gone in state.areas.expire_end_of_round(round) {
        table.emit(|| Event::Area {
            by: gone.source,
            label: gone.label.clone(),
            squares: gone.squares.clone(),
            last_round: gone.last_round,
            begins: false,
            rule: "OSR-R25.5",
        });
    }
    // Who stands in a fire still burning stands in it as the next round begins, even if it
    // walks out before that round ends.
    for id in state.ids().collect::<Vec<_>>() {
        let at = state.f(id).pos;
        if state.f(id).on_map() && state.areas.covering(at).next().is_some() {
            state.f_mut(id).ground_fire_round = round + 1;
        }
    }
    Ok(())
}

/// 1d`sides` fire from burning oil, rolled by the GM, with no save (OSR-R25.2, R25.5).
fn burn(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    id: CombatantId,
    sides: u16,
    rule: &'static str,
) -> Result<(), Interrupt> {
    let roll = table.roll_dice(1, sides, None, RollPurpose::Damage, rule)? as i32;
    attack::hurt(state, table, id, id, roll, Vec::new(), roll, false, rule)
}

/// OSR-R5.2 and spec §1 step 5: burning ground (OSR-R25.5), burning oil's second round, the
/// running count, expiring conditions.
fn end_of_round(state: &mut State, table: &mut Table<'_, Osr>) -> Result<(), Interrupt> {
    ground_fire(state, table)?;
    let round = state.round;
    for id in state.ids().collect::<Vec<_>>() {
        let f = state.f(id);
        if f.burning_round == round && f.on_map() {
            state.f_mut(id).burning_round = 0;
            if state.f(id).plan.action == Action::PutOut && state.f(id).plan.done {
                continue;
            }
            burn(state, table, id, 8, "OSR-R25.2")?;
        }
        let f = state.f_mut(id);
        if f.plan.action == Action::Run && f.plan.done {
            f.rounds_run += 1;
        }
        let limit = 3 * state.profiles[id.index()].con.max(1) as u32;
        let f = state.f_mut(id);
        if !f.fatigued && f.rounds_run >= limit {
            f.fatigued = true;
            table.emit(|| Event::Condition {
                who: id,
                condition: "fatigued",
                gained: true,
                rule: "OSR-R13.2",
            });
        }
        let f = state.f_mut(id);
        if f.shaken_until == round && round > 0 {
            table.emit(|| Event::Condition {
                who: id,
                condition: "shaken",
                gained: false,
                rule: "OSR-A6",
            });
        }
        let f = state.f(id);
        if f.blinded_until == round && round > 0 {
            table.emit(|| Event::Condition {
                who: id,
                condition: "blinded",
                gained: false,
                rule: "OSR-A6",
            });
        }
        if f.charging {
            state.f_mut(id).charging = false;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diagram_has_ten_cells() {
        let mut cells: Vec<(i32, i32)> = (1..=10).map(diagram_cell).collect();
        cells.sort();
        cells.dedup();
        assert_eq!(cells.len(), 10);
    }
}
