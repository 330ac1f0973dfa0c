//! The round: initiative once for the encounter (CEL-R1), the surprise round (CEL-R2), and each
//! combatant's turn in the fixed order — start-of-turn effects, the act budget (CEL-R3.2,
//! R1.4, R1.5, R17.2, R20.2), one action asked per choice while acts remain (CEL-R3, R9–R14),
//! provocation answered before the action (CEL-R3.12, R15), and the reaction gained at the end
//! of the turn (CEL-R3.3).

use super::attack::{self, Form};
use super::belonging::Belonging;
use super::{complex, injury, legal, movement};
use crate::choice::Choice;
use crate::initiator::Until;
use crate::state::{Asking, Band, Paused, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{Interrupt, RollPurpose, RollRequest};
use fray_core::ruleset::Outcome;
use fray_core::{Board, CombatantId, Ruleset, Table};

/// CEL-R1.1–R1.3: every combatant rolls initiative once (d20 + DEX + other modifiers); the
/// order is fixed from the highest total down, ties broken by the higher total modifier, then
/// by roll-offs among the tied (repeated until resolved).
pub fn initiative(state: &mut State, table: &mut Table<'_, Celesia>) -> Result<(), Interrupt> {
    // A ridden mount acts on its rider's count (CEL-R21.2): it rolls nothing.
    let ids: Vec<CombatantId> = state
        .ids()
        .filter(|&c| !super::mounted::ridden(state, c))
        .collect();
    for &who in &ids {
        let roll = initiative_die(state, table, who)?;
        let total = roll as i32 + state.initiative_modifier(who);
        let f = state.fm(who);
        f.initiative = total;
        f.initiative_die = roll;
        table.emit(|| Event::Initiative {
            who,
            roll,
            total,
            rule: "CEL-R1.1",
        });
    }
    let key = |s: &State, id: CombatantId| (s.f(id).initiative, s.initiative_modifier(id));
    // Each key worked out once (issue 16): the order is the same, the comparison being total.
    let mut keyed: Vec<_> = ids.iter().map(|&id| (key(state, id), id)).collect();
    keyed.sort_unstable_by(|(ka, a), (kb, b)| kb.cmp(ka).then(a.cmp(b)));
    let mut order = ids;
    for (slot, (_, id)) in order.iter_mut().zip(keyed) {
        *slot = id;
    }
    // Roll-offs among combatants tied on total and modifier (CEL-R1.3), until each is placed.
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && key(state, order[end]) == key(state, order[start]) {
            end += 1;
        }
        if end - start > 1 {
            roll_off(state, table, &mut order[start..end])?;
        }
        start = end;
    }
    super::mounted::seat_in_order(state, &mut order);
    state.order = order;
    // Built only when the log is kept (issue 16: a dozen allocations a simulated fight).
    table.emit(|| Event::Order {
        groups: state.order.iter().map(|&c| vec![c]).collect(),
    });
    Ok(())
}

/// `who`'s initiative die (CEL-R1.1). "An initiative check is a Dexterity check": an ability
/// check, so a shaken or sickened combatant (two head injuries) rolls it with disadvantage
/// (CEL-R4.5 rows 15, 16), as a deafened one does (row 6); the GM's log says why.
fn initiative_die(
    state: &State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<u32, Interrupt> {
    let mut dis = super::check_disadvantage(state, who, super::CheckKind::Ability);
    if state.f(who).has_trick(crate::state::Trick::Deafened) {
        dis.add("deafened");
    }
    if dis.count() == 0 {
        return table.roll(RollRequest::new(
            1,
            20,
            Some(who),
            RollPurpose::Initiative,
            "CEL-R1.1",
        ));
    }
    let (die, pool) = attack::roll_d20(
        table,
        who,
        -dis.count(),
        RollPurpose::Initiative,
        "CEL-R1.1",
    )?;
    table.emit(|| Event::Ruling {
        rule: "CEL-R4.5",
        text: format!(
            "{} rolls initiative, a Dexterity check (CEL-R1.1), with disadvantage ({}): {}",
            state.roster.name(who),
            dis.text(),
            pool.unwrap_or_default()
        ),
    });
    Ok(die)
}

/// Tied combatants roll d20s against each other until every one has its place. [CEL-R1.3]
///
/// A roll-off in which every one ties again is the same roll-off once more (the same tied, in
/// the same order, from the same state: nothing is changed by it), so it is a loop, and its head
/// is a node the rules may come back to without end ([`Table::recurrence`]): exact odds weigh
/// the ways out of it by the geometric series of going round it, 1 / (1 − P(all tie again)),
/// and play nothing twice. The node is left as soon as a roll-off does not tie all: what
/// follows (the sub-roll-offs of those still tied, each its own loop) is decided by the rolls
/// of that last roll-off. In play the loop rolls as the roll-off always rolled: the same dice
/// in the same order.
fn roll_off(
    state: &State,
    table: &mut Table<'_, Celesia>,
    tied: &mut [CombatantId],
) -> Result<(), Interrupt> {
    let mut rolls: Vec<(u32, CombatantId)> = Vec::with_capacity(tied.len());
    let mark = table.recurrence(roll_off_key(tied), state)?;
    loop {
        rolls.clear();
        for &who in tied.iter() {
            let roll = table.roll(RollRequest::new(
                1,
                20,
                Some(who),
                RollPurpose::Initiative,
                "CEL-R1.3",
            ))?;
            table.emit(|| Event::Initiative {
                who,
                roll,
                total: roll as i32,
                rule: "CEL-R1.3",
            });
            rolls.push((roll, who));
        }
        if rolls.iter().any(|r| r.0 != rolls[0].0) {
            break;
        }
        // All tied again: the same roll-off, from its head.
        table.recurrence(roll_off_key(tied), state)?;
    }
    table.leave_recurrence(mark);
    rolls.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut i = 0;
    while i < rolls.len() {
        let mut j = i + 1;
        while j < rolls.len() && rolls[j].0 == rolls[i].0 {
            j += 1;
        }
        if j - i > 1 {
            let mut again: Vec<CombatantId> = rolls[i..j].iter().map(|r| r.1).collect();
            again.sort();
            roll_off(state, table, &mut again)?;
            for (k, who) in again.into_iter().enumerate() {
                rolls[i + k].1 = who;
            }
        }
        i = j;
    }
    for (slot, (_, who)) in tied.iter_mut().zip(rolls) {
        *slot = who;
    }
    Ok(())
}

/// The place of a roll-off's loop ([`roll_off`]): which combatants are tied, in their order.
fn roll_off_key(tied: &[CombatantId]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    "CEL-R1.3 roll-off".hash(&mut hasher);
    tied.hash(&mut hasher);
    hasher.finish()
}

/// Before round 1: initiative, then the surprise round if some but not all are aware.
/// [CEL-R1, CEL-R2]
pub fn begin(state: &mut State, table: &mut Table<'_, Celesia>) -> Result<(), Interrupt> {
    state.round = 0;
    // CEL-R6.2: the ability penalties combatants bring to the fight (their entries'
    // `ability_penalty`; Constitution damage and drain, CEL-R17.9: `con_damage`, `con_drain`),
    // shown before initiative feels them.
    for who in state.ids() {
        for kind in state.f(who).drained.iter() {
            table.emit(|| Event::Condition {
                who,
                condition: fray_core::conditions::ConditionKind::key(kind),
                gained: true,
                rule: fray_core::conditions::ConditionKind::rule(kind),
            });
        }
    }
    // CEL-R18: those who come to the fight confused (`head_injuries = 3`).
    super::confusion::announce(state, table);
    initiative(state, table)?;
    let aware = state.fighters.iter().filter(|f| f.aware).count();
    if aware == 0 || aware == state.fighters.len() {
        return Ok(());
    }
    surprise_round(state, table)
}

/// CEL-R2.2–R2.4: the aware act in initiative order with up to 2 acts; the unaware get no
/// turn; when the round is over each aware combatant gains its reaction(s) (CEL-R3.11, A36).
fn surprise_round(state: &mut State, table: &mut Table<'_, Celesia>) -> Result<(), Interrupt> {
    state.surprise_round = true;
    for who in state.ids().collect::<Vec<_>>() {
        if !state.f(who).aware {
            table.emit(|| Event::Condition {
                who,
                condition: "surprised",
                gained: true,
                rule: "CEL-R2.1",
            });
        }
    }
    let order = state.order.clone();
    for who in order {
        if Celesia::outcome(state) != Outcome::Ongoing {
            break;
        }
        if state.f(who).aware {
            turn(state, table, who)?;
        }
    }
    state.surprise_round = false;
    for who in state.ids().collect::<Vec<_>>() {
        if state.f(who).aware && state.up(who) && !super::one_round::performing(state, who) {
            let n = state.reactions_per_round(who);
            state.fm(who).reactions = n;
        }
        if !state.f(who).aware {
            table.emit(|| Event::Condition {
                who,
                condition: "surprised",
                gained: false,
                rule: "CEL-R2.2",
            });
        }
    }
    Ok(())
}

/// Ends the timed conditions (dirty tricks, spells, Demoralize) due at `moment` on every
/// combatant (a giver's turn that never
/// comes ends them with its round). [CEL-R10.7, A39]
fn expire_tricks(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    moment: fray_core::conditions::Moment,
) {
    // No list of ids is collected: the next one with a condition is looked for from the last
    // (expiring changes only that combatant's conditions), each test one read (issue 16).
    let mut from = 0;
    while let Some(k) = state.fighters[from..]
        .iter()
        .position(|f| !f.tricks.is_empty())
    {
        let id = CombatantId((from + k) as u16);
        state.fm(id).tricks.expire(id, moment, table);
        from += k + 1;
    }
}

/// One regular round: each combatant's turn in the fixed order (the steps of [`round_step`] one
/// after another, played straight through: the same turns, actions and events without stopping
/// and resuming after each action, issue 16). [CEL-R1.2]
pub fn play_round(state: &mut State, table: &mut Table<'_, Celesia>) -> Result<(), Interrupt> {
    round_from(state, table, false).map(|_| ())
}

/// The regular round from where `state` stands to the end of its next action, or to the round's
/// end: true when the round is over (`Ruleset::round_step`; [`play_round`] is these steps one
/// after another, CEL-R1.2, R3). It pauses before every turn of a regular round (at its start
/// too: the initiative rolled before round 1 is merged before any act) and after every action
/// of a regular turn (a delayed turn taken on rejoining, CEL-R1.7, and the surprise round are
/// played whole). There nothing of the round is left on the stack: whose turn it is (if one is
/// under way) and the turns still to come, in the order the round began with, are
/// `State::paused`; the turn before and its delayed combatants' rejoining are over; the acts
/// left, the attacks made this turn, a readied action, a delay, a complex action's acts and
/// every effect of the action are in the state; a reaction it provoked (an attack of opportunity, a readied action, CEL-R3.9, R15)
/// is resolved within the action, so none is pending; the turn goes on as the loop over acts
/// goes on (a readied action ends it, then the end of the turn and the delayed combatants'
/// rejoining). So the state alone says how the round goes on, and exact odds may merge equal
/// states there.
///
/// It keeps the whole state, as `play_round` leaves it: what no rule reads again (the
/// initiative totals, the natural dice once read, the damage tallies) is forgotten by the odds'
/// key ([`super::odds_key::odds_key`]), not here.
pub fn round_step(state: &mut State, table: &mut Table<'_, Celesia>) -> Result<bool, Interrupt> {
    round_from(state, table, true)
}

/// The round from where `state` stands: with `steps`, to the end of its next action or its
/// next pause ([`round_step`]); without, to the round's end ([`play_round`]). Resumed
/// mid-turn, it goes on with that turn either way.
fn round_from(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    steps: bool,
) -> Result<bool, Interrupt> {
    // Pause before the next turn: at the round's start and after a turn, not on resuming there.
    let (mut rest, mut pause) = match state.paused.take() {
        Some(Paused {
            who: Some(who),
            rest,
        }) => {
            if act_loop(state, table, who, steps)? {
                state.paused = Some(Paused {
                    who: Some(who),
                    rest,
                });
                return Ok(false);
            }
            close_turn(state, table, who);
            rejoin(state, table, who)?;
            (rest, steps)
        }
        Some(Paused { who: None, rest }) => (rest, false),
        None => {
            state.round = table.round();
            (state.order.clone(), steps)
        }
    };
    while !rest.is_empty() {
        if Celesia::outcome(state) != Outcome::Ongoing {
            break;
        }
        if pause {
            state.paused = Some(Paused { who: None, rest });
            return Ok(false);
        }
        pause = steps;
        let who = rest.remove(0);
        if state.f(who).delaying {
            // Its turn comes up again while it still delays: the delayed turn is lost, and a
            // new one begins (it may delay again).
            state.fm(who).delaying = false;
            table.emit(|| Event::Forgone {
                who,
                what: "delayed turn",
                on: None,
                reason: "its turn came up again".into(),
                rule: "CEL-R1.7",
            });
        }
        if open_turn(state, table, who, steps)? {
            state.paused = Some(Paused {
                who: Some(who),
                rest,
            });
            return Ok(false);
        }
        rejoin(state, table, who)?;
    }
    let round = state.round;
    expire_tricks(
        state,
        table,
        fray_core::conditions::Moment::EndOfRound(round),
    );
    Ok(true)
}

/// CEL-R1.7: at the end of any other combatant's turn, each delaying combatant (in initiative
/// order) may end its delay: it takes its turn now, and its place in the order becomes the one
/// directly after the combatant that just acted.
#[inline(always)]
fn rejoin(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    last: CombatantId,
) -> Result<(), Interrupt> {
    // Nobody delayed in this fight (`State::delayed`): nobody delays now (issue 16; this test
    // inline in the caller, the rest out of line).
    if !state.delayed.0 {
        return Ok(());
    }
    rejoin_delayed(state, table, last)
}

/// [`rejoin`], once someone has delayed.
#[inline(never)]
fn rejoin_delayed(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    last: CombatantId,
) -> Result<(), Interrupt> {
    if !state.fighters.iter().any(|f| f.delaying) {
        return Ok(());
    }
    let mut after = last;
    for who in state.order.clone() {
        if who == last || !state.f(who).delaying {
            continue;
        }
        if Celesia::outcome(state) != Outcome::Ongoing {
            break;
        }
        if !state.up(who) {
            // CEL-R1.8: an unconscious or dying combatant cannot change its initiative count.
            state.fm(who).delaying = false;
            continue;
        }
        let choice = legal::ask(state, table, Asking::Delayed(who), "CEL-R1.7")?;
        if choice != Choice::Rejoin {
            continue;
        }
        state.fm(who).delaying = false;
        state.order.retain(|&c| c != who);
        let slot = state
            .order
            .iter()
            .position(|&c| c == after)
            .map_or(state.order.len(), |i| i + 1);
        state.order.insert(slot, who);
        table.emit(|| Event::Acted {
            who,
            act: "ends its delay after",
            on: Some(after),
            detail: "its place in the order is now after this combatant".into(),
            rule: "CEL-R1.7",
        });
        table.emit(|| Event::TurnStarted { who });
        actions(state, table, who, false)?;
        end_of_turn(state, table, who);
        after = who;
    }
    Ok(())
}

/// The acts of this turn: 3 (2 in the surprise round); +1 on the first regular turn after a
/// natural 20 on initiative, −1 after a natural 1 (CEL-A29, A40); −1 while disabled; a
/// staggered creature has one. [CEL-R3.2, R1.4, R1.5, R17.2, R20.2]
pub fn budget(state: &State, who: CombatantId) -> (i32, Vec<&'static str>) {
    let f = state.f(who);
    let mut why = Vec::new();
    if state.surprise_round {
        why.push("surprise round (CEL-R2.3)");
        return (2, why);
    }
    let mut acts = 3;
    // CEL-R3.4, A40: extra-act effects do not stack: at most +1 (the combatant picks one).
    let natural_20 = f.turns == 1 && f.initiative_die == 20;
    match (natural_20, f.haste.is_some()) {
        (true, false) => why.push("+1 natural 20 on initiative (CEL-R1.4)"),
        (false, true) => why.push("+1 haste (CEL-R3.4)"),
        (true, true) => why
            .push("+1 haste or natural 20 on initiative: extra acts do not stack (CEL-R3.4, A40)"),
        (false, false) => {}
    }
    if natural_20 || f.haste.is_some() {
        acts += 1;
    }
    if f.turns == 1 && f.initiative_die == 1 {
        acts -= 1;
        why.push("-1 natural 1 on initiative (CEL-R1.5)");
    }
    if state.band(who) == Band::Disabled {
        acts -= 1;
        why.push("-1 disabled (CEL-R17.2)");
    }
    let (capped, reason) = super::mounted::budget(state, who, acts);
    if let Some(reason) = reason {
        acts = capped;
        why.push(reason);
    }
    if state.staggered(who) && acts > 1 {
        acts = 1;
        why.push(if f.fatigued_until > 0 {
            "staggered from running: one simple action (CEL-R12, R20.2)"
        } else {
            "staggered: one simple action (CEL-R20.2)"
        });
    }
    // CEL-R21.8: shots made along its mount's move came out of this turn's acts.
    match f.saddle.shots {
        0 => {}
        1 => why.push("-1 a shot along its mount's move (CEL-R21.8)"),
        _ => why.push("-2 shots along its mount's move (CEL-R21.8)"),
    }
    acts -= i32::from(f.saddle.shots);
    (acts.max(0), why)
}

/// The start of `who`'s turn: reactions lost, "until the start of your next turn" effects
/// ended, flat-footed ended, bleeding, the stabilization save. Returns whether it can act.
fn start_of_turn(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<bool, Interrupt> {
    let surprise = state.surprise_round;
    // Nobody aided in this fight (`State::aided`): no aid to end (issue 16).
    if state.aided.0 {
        super::aid::expire(state, who);
    }
    super::ready::lapse(state, table, who);
    let f = state.fm(who);
    // CEL-R3.3: unused reactions are lost at the start of one's turn.
    f.reactions = 0;
    // CEL-R21.8: shots along its mount's move were this turn's attacks.
    f.attacks_this_turn = f.saddle.shots;
    f.melee_attacked = false;
    f.acted = false;
    // CEL-R10.10: Grapple, Continued is due again; escape attempts count from 0 (CEL-R9).
    f.maintained = false;
    f.escapes = 0;
    f.moved_ft = 0;
    (f.saddle.increments, f.saddle.double_move) = (0, false);
    // CEL-R9 Load a Martial Firearm: Rapid Reload's three cartridges are counted a turn.
    f.free_loads = 0;
    let (charged, total_defense, defensive) = (f.charged, f.total_defense, f.defensive);
    f.charged = false;
    f.total_defense = 0;
    f.defensive = false;
    // CEL-R15: a counter's bonus not spent by the attack it answered ends.
    f.countering = None;
    let boosted = f.boosted != 0;
    f.specials = Default::default();
    // CEL-R16.5: Martial Power's temporary hit points last until the start of its next turn.
    let temp_hp = std::mem::take(&mut f.temp_hp);
    let cleaving = f.cleaving;
    f.cleaving = false;
    f.cleave_from = None;
    f.cleave_chain.clear();
    // CEL-R12 Run: the DEX bonus returns; a turn gone by without running ends the run (the
    // count of rounds in a row starts over).
    let ran = f.running;
    f.running = false;
    if !ran {
        f.run_rounds = 0;
        f.run_checks = 0;
    }
    if !surprise {
        f.turns += 1;
    }
    if let Some(foe) = f.mount_charge.take() {
        // CEL-R21.7: its mount charged: the charge's advantage on its attacks on that foe until
        // the end of its turn, and enemies' advantage against it (CEL-A25).
        f.charged = true;
        f.charge_target = Some(foe);
        table.emit(|| Event::Condition {
            who,
            condition: "open after charging (on its mount)",
            gained: true,
            rule: "CEL-R21.7",
        });
    }
    if boosted {
        // CEL-R9: boosts "until the start of its next turn" end.
        super::boost::end(state, table, who, Until::StartOfNextTurn);
    }
    let ends_flat_footed = !surprise || !state.options.flatfooted_until_regular_turn;
    let was_flat = state.f(who).flat_footed;
    if ends_flat_footed && was_flat {
        state.fm(who).flat_footed = false;
        table.emit(|| Event::Condition {
            who,
            condition: "flat-footed",
            gained: false,
            rule: "CEL-R2.5",
        });
    }
    let fatigue_over = {
        let f = state.f(who);
        f.fatigued_until > 0 && state.round >= f.fatigued_until
    };
    if fatigue_over {
        state.fm(who).fatigued_until = 0;
    }
    // The list is built only when something ends (most turns nothing does; issue 16).
    let any_ends = ran | fatigue_over | charged | cleaving | (total_defense > 0) | defensive;
    if any_ends || temp_hp > 0 {
        for (on, condition, rule) in [
            (ran, "running (no DEX bonus to DV)", "CEL-R12"),
            (fatigue_over, "staggered (ran too long)", "CEL-R12"),
            (charged, "open after charging", "CEL-R11"),
            (cleaving, "open after cleaving", "CEL-R16.1"),
            (total_defense > 0, "in total defense", "CEL-R11"),
            (defensive, "fighting defensively", "CEL-R14"),
            (
                temp_hp > 0,
                "holding temporary hit points (martial power)",
                "CEL-R16.5",
            ),
        ] {
            if on {
                table.emit(|| Event::Condition {
                    who,
                    condition,
                    gained: false,
                    rule,
                });
            }
        }
    }
    // Bleeding at the start of its turn (CEL-G12 default; `bleed_timing = "turn-end"`: at
    // its end).
    let was = state.band(who);
    if !state.options.bleed_at_turn_end {
        bleed(state, table, who);
    }
    // CEL-R11 Extinguish Flames: on fire, it saves or burns (`rules::fire`).
    super::fire::burn(state, table, who)?;
    // CEL-R3.7: a 1-round action taken whole takes effect now (lost if its actor is down).
    super::one_round::at_turn_start(state, table, who)?;
    match state.band(who) {
        Band::Dead => return Ok(false),
        Band::Dying => {
            // Not on the turn it dropped (bleeding at this turn's start): from its next turn.
            if was == Band::Dying {
                injury::stabilize(state, table, who)?;
            }
            let reason = if state.f(who).dead {
                "dead"
            } else {
                "dying and unconscious"
            };
            table.emit(|| Event::Skipped {
                who,
                reason,
                rule: "CEL-R17.4",
            });
            return Ok(false);
        }
        _ => {}
    }
    if state.knocked_out(who) {
        let (reason, rule) = if state.f(who).out_cold {
            ("unconscious from a nonlethal coup de grace", "CEL-R12")
        } else {
            ("unconscious from nonlethal damage", "CEL-R20.3")
        };
        table.emit(|| Event::Skipped { who, reason, rule });
        return Ok(false);
    }
    tidy(state, table)?;
    if !state.up(who) {
        return Ok(false);
    }
    if !super::mounted::control(state, table, who)? {
        return Ok(false);
    }
    if state.f(who).injuries.head >= 5 {
        // CEL-R18: five head injuries: a 50% chance of being dazed for the turn.
        let roll = table.roll(RollRequest::new(
            1,
            100,
            Some(who),
            RollPurpose::Other,
            "CEL-R18",
        ))?;
        let dazed = roll <= 50;
        table.emit(|| Event::Acted {
            who,
            act: "rolls for a daze",
            on: None,
            detail: format!(
                "d100 {roll}: {} (50 or less, with five head injuries)",
                if dazed { "dazed" } else { "not dazed" }
            ),
            rule: "CEL-R18",
        });
        if dazed {
            table.emit(|| Event::Skipped {
                who,
                reason: "dazed (head injuries)",
                rule: "CEL-R18",
            });
            return Ok(false);
        }
    }
    if state.f(who).confusion.on {
        // CEL-R18, A34: confused: the d% (or the attack back) sets this turn's behaviour.
        return super::confusion::turn_start(state, table, who);
    }
    Ok(true)
}

/// One turn of `who`. [CEL-R3]
pub fn turn(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    open_turn(state, table, who, false).map(|_| ())
}

/// A turn of `who` from its start; with `pause`, it pauses after its first action (true: the
/// rest is [`act_loop`] and [`close_turn`], [`round_step`]). [CEL-R3]
fn open_turn(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    pause: bool,
) -> Result<bool, Interrupt> {
    if state.f(who).absent() {
        return Ok(false);
    }
    table.emit(|| Event::TurnStarted { who });
    // One pass over the fighters for both (issue 16): expiring dirty tricks changes nothing
    // but tricks.
    let (tricks, spells) = state.fighters.iter().fold((false, false), |(t, s), f| {
        (
            t | !f.tricks.is_empty(),
            s | (f.haste.is_some() | !f.drained.is_empty()),
        )
    });
    if tricks {
        expire_tricks(
            state,
            table,
            fray_core::conditions::Moment::StartOfTurn(who, state.round),
        );
    }
    if spells {
        super::spell::expire_haste(state, table, who);
    }
    // CEL-R9, A39: a spell's weapon ends at the start of its caster's turn after its rounds.
    super::spell_weapon::expire(state, table, who);
    if start_of_turn(state, table, who)? {
        // CEL-R9: the caster's spell weapon attacks its target, the caster directing it.
        super::spell_weapon::strike(state, table, who)?;
        if actions(state, table, who, pause)? {
            return Ok(true);
        }
    } else {
        // A turn without acts breaks any run of consecutive acts. [CEL-R3.1]
        state.fm(who).act_clock += 1;
        // A split 1-round action cannot be completed in a turn without acts. [CEL-R3.7]
        state.fm(who).acts_left = 0;
        super::one_round::finish_split(state, table, who)?;
    }
    close_turn(state, table, who);
    Ok(false)
}

/// The turn's end once its actions are done: a delaying combatant's turn ends without its
/// reaction (CEL-R1.7, A43), any other's with [`end_of_turn`].
fn close_turn(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) {
    if state.f(who).delaying {
        table.emit(|| Event::TurnEnded { who });
        return;
    }
    end_of_turn(state, table, who);
}

/// The act budget and the actions of a turn, asked one by one while acts remain; with
/// `pause`, it pauses after the first action (true, [`act_loop`]).
fn actions(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    pause: bool,
) -> Result<bool, Interrupt> {
    let (acts, why) = budget(state, who);
    state.fm(who).acts_left = acts;
    table.emit(|| Event::Acted {
        who,
        act: "has acts",
        on: None,
        detail: {
            let n = format!("{acts} act{}", if acts == 1 { "" } else { "s" });
            if why.is_empty() {
                n
            } else {
                format!("{n}: {}", why.join(", "))
            }
        },
        rule: "CEL-R3.2",
    });
    // CEL-R3.7, A12: a split 1-round action takes the turn's first acts and takes effect.
    super::one_round::finish_split(state, table, who)?;
    act_loop(state, table, who, pause)
}

/// `who`'s actions while acts remain, each asked and performed; with `pause`, it returns true
/// after an action that leaves the turn going on or not (the loop resumes from the state,
/// [`round_step`]), false when the turn's actions are done. [CEL-R3, R3.2, R3.9, R1.7]
fn act_loop(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    pause: bool,
) -> Result<bool, Interrupt> {
    while state.f(who).acts_left > 0 && state.up(who) {
        table.intervention_point(state)?;
        if Celesia::outcome(state) != Outcome::Ongoing || !state.up(who) {
            break;
        }
        let choice = legal::ask(state, table, Asking::Action(who), "CEL-R3")?;
        if matches!(choice, Choice::End) {
            let left = state.f(who).acts_left;
            table.emit(|| Event::Forgone {
                who,
                what: "acts",
                on: None,
                reason: format!("ends its turn with {left} left"),
                rule: "CEL-R3.2",
            });
            if super::confusion::targets(state, who).is_some() {
                // CEL-A34: a confused creature that cannot carry out its behaviour babbles.
                super::confusion::babbles_instead(table, who);
            }
            break;
        }
        if matches!(choice, Choice::Delay) {
            // CEL-R1.7, A43: the turn has begun (its reaction is lost); no new one until the
            // delayed turn is done.
            state.delayed = crate::state::CacheFlag(true);
            let f = state.fm(who);
            f.delaying = true;
            f.acts_left = 0;
            table.emit(|| Event::Acted {
                who,
                act: "delays its turn",
                on: None,
                detail: String::new(),
                rule: "CEL-R1.7",
            });
            break;
        }
        perform(state, table, who, choice)?;
        if state.f(who).readied.is_some() {
            // CEL-R3.9: once it readies an action, its turn ends.
            break;
        }
        if pause {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Bleeding (from a severed part) costs its hit points. [CEL-R18, CEL-G12]
fn bleed(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) {
    let bleed = state.f(who).bleed;
    if bleed > 0 && !state.f(who).dead {
        injury::lose_hp(state, table, who, bleed, "bleed", "CEL-R18");
    }
}

/// End of turn: the charge's advantage ends; a reaction until the start of the next turn (in
/// the surprise round, when that round is over). [CEL-R11, R3.3, R3.11]
fn end_of_turn(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId) {
    if state.options.bleed_at_turn_end {
        bleed(state, table, who);
    }
    super::feint::lapse(state, table, who);
    super::animal::end_of_turn(state, table, who);
    // CEL-R11: a concentration spell not maintained this turn ends with it.
    super::spell_lasting::end_of_turn(state, table, who);
    if state.f(who).hold.is_some() && !state.f(who).maintained {
        // CEL-R10.9: a grapple not continued at the start of the turn is not held.
        super::grapple::end(state, table, who, "not continued this turn", "CEL-R10.9");
    }
    let f = state.fm(who);
    f.charge_target = None;
    // CEL-R14: fighting defensively's disadvantage is this turn's; its DV lasts.
    f.defensive_attacks = false;
    f.reach_bonus = 0;
    f.control = None;
    f.knees = None;
    (f.saddle.shots, f.saddle.end_shot) = (0, false);
    f.cleave_from = None;
    // CEL-R9 Spell Combat: once per turn, and its bar on other spells, are this turn's.
    f.magus = Default::default();
    // CEL-A34: a confused creature's behaviour was this turn's.
    f.confusion.turn = None;
    let boosted = f.boosted != 0;
    // Acts left unspent come between the acts before and after them. [CEL-R3.1]
    f.act_clock += f.acts_left.max(0) as u32;
    f.acts_left = 0;
    // CEL-G2: free actions are counted per turn, whoever's turn it is (those taken off one's
    // own turn count in the turn they are taken in: docs/celesia.md, *GM hooks*).
    for f in &mut state.fighters {
        f.free_actions = 0;
    }
    if boosted {
        // CEL-R9: boosts "until the end of its turn" end.
        super::boost::end(state, table, who, Until::EndOfTurn);
    }
    // CEL-R3.7: no reactions while it performs a 1-round action.
    if !state.surprise_round && state.up(who) && !super::one_round::performing(state, who) {
        let n = state.reactions_per_round(who);
        state.fm(who).reactions = n;
    }
    table.emit(|| Event::TurnEnded { who });
}

/// Every enemy threatening `actor` when its Provoke action starts, in initiative order, may
/// spend a reaction on an attack of opportunity, resolved before the action; `only` limits it
/// to one foe (an unarmed strike provokes only its armed target). Returns whether the actor can
/// still act. [CEL-R3.5, R3.12, R8.1, R15, A37]
pub fn provoke(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    actor: CombatantId,
    only: Option<CombatantId>,
) -> Result<bool, Interrupt> {
    // A confused creature treats every creature as an enemy (CEL-A34).
    let near = state.near(actor, state.reach_squares, |o| {
        o != actor && (state.enemies(o, actor) || super::confusion::treats_as_enemy(state, o))
    });
    if near.is_empty() {
        return Ok(true);
    }
    let reactors: Vec<CombatantId> = state
        .order
        .iter()
        .copied()
        .filter(|&o| near.as_slice().contains(&o) && only.is_none_or(|t| t == o))
        .filter(|&o| {
            let able = can_take_opportunity(state, o, actor);
            if !able && table.events_enabled() && state.threatens(o, actor) {
                if let Some(reason) = no_opportunity(state, o, actor) {
                    table.emit(|| Event::Forgone {
                        who: o,
                        what: "attack of opportunity",
                        on: Some(actor),
                        reason: reason.0.into(),
                        rule: reason.1,
                    });
                }
            }
            able
        })
        .collect();
    for reactor in reactors {
        if !state.up(actor) {
            break;
        }
        if !can_take_opportunity(state, reactor, actor) {
            continue;
        }
        let choice = legal::ask(
            state,
            table,
            Asking::Opportunity {
                reactor,
                provoker: actor,
            },
            "CEL-R15",
        )?;
        if choice != Choice::Opportunity(actor) {
            table.emit(|| Event::Forgone {
                who: reactor,
                what: "attack of opportunity",
                on: Some(actor),
                reason: "declined".into(),
                rule: "CEL-R15",
            });
            continue;
        }
        state.fm(reactor).reactions -= 1;
        if let Some(form) = attack::opportunity_form(state, reactor, actor) {
            attack::attack(
                state,
                table,
                reactor,
                actor,
                Form::Melee(form),
                Some("attack of opportunity"),
                "CEL-R15",
            )?;
        }
        injury::strain(state, table, reactor, 1);
    }
    Ok(state.up(actor))
}

/// May `reactor` make an attack of opportunity on `actor` now? A reaction left, threatening,
/// not flat-footed (unless Combat Reflexes or uncanny dodge), not in total defense.
/// [CEL-R15, R2.5, R11]
pub fn can_take_opportunity(state: &State, reactor: CombatantId, actor: CombatantId) -> bool {
    let f = state.f(reactor);
    let feats = state.p(reactor).feats;
    f.reactions > 0
        && (!f.flat_footed || feats.combat_reflexes || feats.uncanny_dodge)
        && f.total_defense == 0
        && !f.riderless
        && super::confusion::may_strike(state, reactor, actor)
        && super::animal::may_strike(state, reactor, actor)
        && state.threatens(reactor, actor)
        && attack::opportunity_form(state, reactor, actor).is_some()
}

/// Why a threatening foe gets no attack of opportunity, if it is one the log should tell.
fn no_opportunity(
    state: &State,
    reactor: CombatantId,
    actor: CombatantId,
) -> Option<(&'static str, &'static str)> {
    let f = state.f(reactor);
    let feats = state.p(reactor).feats;
    // The bars of the rules come first; confusion's choice of target last (CEL-A34).
    if f.one_round.is_some() {
        Some(("performing a 1-round action: no reactions", "CEL-R3.7"))
    } else if f.reactions <= 0 {
        (state.f(reactor).turns > 0 || f.aware).then_some((
            "no reaction left (one comes at the end of its turn)",
            "CEL-R3.11",
        ))
    } else if f.flat_footed && !feats.combat_reflexes && !feats.uncanny_dodge {
        Some(("flat-footed, without Combat Reflexes", "CEL-R2.5"))
    } else if f.total_defense > 0 {
        Some(("in total defense", "CEL-R11"))
    } else if f.riding.is_some() && f.knees != Some(true) {
        Some((
            "its only weapon reaching the foe needs both hands, and from the saddle that needs \
             the knees, guided on its own turn",
            "CEL-R21.4",
        ))
    } else if !super::animal::may_strike(state, reactor, actor) {
        Some((
            "a trained animal attacks only the foe its handler's command names",
            "CEL-R9",
        ))
    } else {
        super::confusion::no_strike_reason(state, reactor, actor).map(|reason| (reason, "CEL-A34"))
    }
}

/// After an action and at a turn's opening: a hold between two no longer next to each other or
/// with one down ends (CEL-R10.9), a rider whose mount fell comes down (CEL-R21.10). In a fight
/// where nobody has ridden or held (`State::linked`, most fights) it looks at nobody; else
/// nobody riding or holding now is one pass over the fighters, not one per rule: the grapple
/// pass then changes nothing, and the mounted one has nothing to do.
#[inline(always)]
fn tidy(state: &mut State, table: &mut Table<'_, Celesia>) -> Result<(), Interrupt> {
    // Nobody has ridden or held (`State::linked`): nothing to look at (issue 16; this test
    // inline in the caller, the rest out of line).
    if !state.linked.0 {
        return Ok(());
    }
    tidy_links(state, table)
}

/// [`tidy`], once someone has ridden or held.
#[inline(never)]
fn tidy_links(state: &mut State, table: &mut Table<'_, Celesia>) -> Result<(), Interrupt> {
    if state
        .fighters
        .iter()
        .all(|f| f.riding.is_none() && f.hold.is_none())
    {
        return Ok(());
    }
    super::grapple::tidy(state, table);
    super::mounted::tidy(state, table)
}

/// Performs one action, paying its acts. [CEL-R9–R14]
pub fn perform(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    choice: Choice,
) -> Result<(), Interrupt> {
    let cost = complex::cost(state, who, &choice);
    {
        let f = state.fm(who);
        f.acts_left -= cost;
        f.act_clock += cost as u32;
        // Choosing the damage type is part of attacking, not an action (CEL-R20.5): fighting
        // defensively may still follow it.
        f.acted |= !matches!(choice, Choice::Deal(_));
    }
    if !matches!(choice, Choice::Cleave(_)) {
        // CEL-R16.1: a cleave follows the hit at once.
        let f = state.fm(who);
        f.cleave_from = None;
        f.cleave_chain.clear();
    }
    // CEL-R3.9: a foe's action readied for "if a foe attacks me" comes before the attack.
    // CEL-R15: the target's counter or immediate-action ability comes before the attack too.
    if !super::ready::before_attack(state, table, who, &choice)?
        || !super::counter::before_attack(state, table, who, &choice)?
    {
        injury::strain(state, table, who, cost);
        // A cleave cut short by a readied action was still taken (CEL-G2, G4).
        free_action_taken(state, table, who, choice);
        return Ok(());
    }
    let from = state.f(who).pos;
    if let Choice::SpellCombat(..) | Choice::Spellstrike(..) = choice {
        super::magus::perform(state, table, who, choice)?;
        injury::strain(state, table, who, cost);
        // CEL-R14: casting defensively is a free action (CEL-G2, G4).
        free_action_taken(state, table, who, choice);
        tidy(state, table)?;
        return Ok(());
    }
    if let Choice::Cast(..) = choice {
        // A 1-round spell begins there too (CEL-R13): the casting asks its provocation first.
        super::spell::cast(state, table, who, choice, cost)?;
        injury::strain(state, table, who, cost);
        // CEL-R14: casting defensively is a free action (CEL-G2, G4).
        free_action_taken(state, table, who, choice);
        tidy(state, table)?;
        return Ok(());
    }
    if super::one_round::kind(state, who, &choice).is_some() {
        super::one_round::begin(state, table, who, choice, cost)?;
        injury::strain(state, table, who, cost);
        return Ok(());
    }
    if complex::task_of(state, who, &choice).is_some() {
        complex::commit(state, table, who, choice, cost)?;
        injury::strain(state, table, who, cost);
        return Ok(());
    }
    super::wield::note_move(state, who, &choice);
    super::mounted::before_move(state, table, who, &choice)?;
    match choice {
        Choice::Attack(t, form) => {
            let out = attack::attack(
                state,
                table,
                who,
                t,
                Form::Melee(usize::from(form)),
                None,
                "CEL-R9",
            )?;
            if out.result != fray_core::event::AttackResult::Miss {
                let f = state.fm(who);
                f.cleave_from = Some((t, form));
                f.cleave_chain.push(t);
            }
        }
        Choice::Cleave(t) => cleave(state, table, who, t)?,
        Choice::Aid(friend, foe, to) => {
            super::aid::aid(state, table, who, friend, foe, to)?;
        }
        Choice::AidSkill(friend, skill) => {
            super::aid_check::aid_skill(state, table, who, friend, skill)?;
        }
        Choice::Weaken(n) => {
            state.fm(who).weakened = n;
            table.emit(|| Event::Acted {
                who,
                act: "weakens its next attack",
                on: None,
                detail: format!(
                    "{}{n} attack, -{} damage (at least 0)",
                    if state.options.weakened_attack_inverted {
                        "+"
                    } else {
                        "-"
                    },
                    2 * i32::from(n)
                ),
                rule: "CEL-R16.11",
            });
        }
        Choice::Shoot(t) => {
            let able = !state.options.ranged_attack_provokes || provoke(state, table, who, None)?;
            super::mounted::note_shot(state, who);
            if able {
                attack::attack(state, table, who, t, Form::Ranged, None, "CEL-R7")?;
                super::thrown::land(state, table, who);
            }
        }
        Choice::Unarmed(t) => {
            // CEL-R8.1: provokes only from the foe attacked, and only if it is armed; an
            // "armed" unarmed strike (a monk's, Improved Unarmed Strike) provokes nothing
            // (CEL-R8.3: being armed counts for offense and defense), nor one of "a creature
            // with natural physical weapons" (CEL-R8.3 counts it armed too).
            let striker = state.p(who);
            let armed_striker = striker.feats.improved_unarmed
                || striker
                    .melee
                    .iter()
                    .any(|w| w.kind == crate::content::WeaponKind::Natural);
            let provokes = state.p(t).armed() && !armed_striker;
            let able = !provokes || provoke(state, table, who, Some(t))?;
            if able {
                let form = state
                    .p(who)
                    .melee
                    .iter()
                    .position(|w| w.kind == crate::content::WeaponKind::Unarmed);
                if let Some(form) = form {
                    attack::attack(state, table, who, t, Form::Melee(form), None, "CEL-R8")?;
                }
            }
        }
        Choice::Approach(t) => {
            let able = provoke(state, table, who, None)?;
            if able {
                if let Some(to) = movement::approach(state, who, t) {
                    move_to(state, table, who, to, "move", "CEL-R9");
                }
            }
        }
        Choice::MoveTo(to) => {
            let able = provoke(state, table, who, None)?;
            if able && state.square_free(to, who) {
                move_to(state, table, who, to, "move", "CEL-R9");
            }
        }
        Choice::Step(d) => {
            let to = state.f(who).pos.step(d);
            move_to(state, table, who, to, "step", "CEL-R9");
        }
        Choice::Charge(t) => {
            let able = provoke(state, table, who, None)?;
            if able {
                if let Some(to) = movement::charge(state, who, t) {
                    super::mounted::charge_to(state, table, who, to)?;
                    let f = state.fm(who);
                    f.charged = true;
                    f.charge_target = Some(t);
                    // CEL-R21.7: the rider charges with its mount.
                    if let Some(rider) = f.rider {
                        state.fm(rider).mount_charge = Some(t);
                    }
                    table.emit(|| Event::Condition {
                        who,
                        condition: "open after charging",
                        gained: true,
                        rule: "CEL-R11",
                    });
                } else {
                    table.emit(|| Event::Forgone {
                        who,
                        what: "charge",
                        on: Some(t),
                        reason: "the path is no longer clear".into(),
                        rule: "CEL-R11",
                    });
                }
            }
        }
        Choice::Trip(t) => {
            attack::maneuver(state, table, who, t, attack::Maneuver::Trip)?;
        }
        Choice::BullRush(t) => {
            attack::maneuver(state, table, who, t, attack::Maneuver::BullRush)?;
        }
        Choice::Disarm(t, first, second) => {
            attack::maneuver(
                state,
                table,
                who,
                t,
                attack::Maneuver::Disarm(first, second),
            )?;
        }
        Choice::DirtyTrick(t, trick) => {
            attack::maneuver(state, table, who, t, attack::Maneuver::DirtyTrick(trick))?;
        }
        Choice::Clear(t, trick) => clear_trick(state, table, who, t, trick),
        Choice::Grapple(t) => super::grapple::start(state, table, who, t)?,
        Choice::Maintain(use_) => super::grapple::maintain(state, table, who, use_)?,
        Choice::Release => {
            super::grapple::end(state, table, who, "released", "CEL-R10.9");
        }
        Choice::Escape(control) => super::grapple::escape(state, table, who, control)?,
        Choice::Drink(_) | Choice::Administer(..) | Choice::UseItem(..) | Choice::Retrieve(_) => {
            super::item::perform(state, table, who, choice)?;
        }
        Choice::EscapeArtist(control) => {
            super::escape::escape_artist(state, table, who, control)?;
        }
        Choice::Untie(t) => super::escape::untie(state, table, who, t)?,
        Choice::EscapeNet => super::escape::escape_net(state, table, who)?,
        Choice::Extinguish => super::fire::extinguish(state, table, who)?,
        Choice::Sleight(object, victim, quick) => {
            super::sleight::take(state, table, who, (object, victim), quick)?;
        }
        Choice::Overrun(t) => super::maneuver::overrun(state, table, who, t)?,
        Choice::OverrunTo(to) => super::maneuver::overrun_to(state, table, who, to)?,
        Choice::Follow => super::maneuver::follow(state, table, who)?,
        Choice::Sunder(t, item, destroy) => {
            super::maneuver::sunder(state, table, who, t, item, destroy)?;
        }
        Choice::Drag(t, dir) => super::maneuver::drag(state, table, who, t, dir)?,
        Choice::Reposition(t, to) => super::maneuver::reposition(state, table, who, t, to)?,
        Choice::Steal(t, item) => super::maneuver::steal(state, table, who, t, item)?,
        Choice::PickUp(item) => super::maneuver::pick_up(state, table, who, item)?,
        Choice::PickUpGear(book) => {
            super::belonging::pick_up(state, table, who, Belonging::Gear(book))?;
        }
        Choice::PickUpRope => super::belonging::pick_up(state, table, who, Belonging::Rope)?,
        Choice::Mount(m) | Choice::FastMount(m) => {
            let (at, fast) = (state.f(m).pos, matches!(choice, Choice::FastMount(_)));
            super::mounted::mount_or_dismount(state, table, who, Some(m), at, fast)?;
        }
        Choice::Dismount(to) | Choice::FastDismount(to) => {
            let fast = matches!(choice, Choice::FastDismount(_));
            super::mounted::mount_or_dismount(state, table, who, None, to, fast)?;
        }
        Choice::Knees => super::mounted::knees(state, table, who)?,
        Choice::CoupDeGrace(t, form, nonlethal) => {
            let able = provoke(state, table, who, None)?;
            if able && super::ammo::coup_weapon(state, who, t, form).is_some() {
                attack::coup_de_grace(state, table, who, t, usize::from(form), nonlethal)?;
            }
        }
        Choice::Run(to) => super::run::run(state, table, who, to)?,
        Choice::TotalDefense => {
            let bonus = super::special::total_defense(state.p(who).bab);
            state.fm(who).total_defense = bonus;
            table.emit(|| Event::Acted {
                who,
                act: "takes total defense",
                on: None,
                detail: format!(
                    "+{bonus} DV until the start of its next turn; no attacks of opportunity"
                ),
                rule: "CEL-R11",
            });
        }
        Choice::Deal(kind) => {
            state.fm(who).deal_nonlethal = kind;
            table.emit(|| Event::Acted {
                who,
                act: match kind {
                    Some(true) => "deals nonlethal damage",
                    Some(false) => "deals lethal damage",
                    None => "deals its weapons' own damage",
                },
                on: None,
                detail: match kind {
                    Some(true) => "instead of lethal, with its melee weapons, until it says otherwise (disadvantage on those attacks)",
                    Some(false) => "instead of nonlethal, with a sap or an unarmed strike, until it says otherwise (disadvantage on those attacks; none on an unarmed strike with Improved Unarmed Strike, CEL-R8.5)",
                    None => "again: no penalty for changing the damage",
                }
                .to_string(),
                rule: "CEL-R20.5",
            });
        }
        Choice::Defensive => {
            let f = state.fm(who);
            (f.defensive, f.defensive_attacks) = (true, true);
            let bab = state.p(who).bab;
            table.emit(|| Event::Acted {
                who,
                act: "fights defensively",
                on: None,
                detail: format!(
                    "+{bab} DV until the start of its next turn; disadvantage on its attack rolls"
                ),
                rule: "CEL-R14",
            });
        }
        Choice::StandUp => {
            let able = provoke(state, table, who, None)?;
            if able {
                state.fm(who).prone = false;
                table.emit(|| Event::Condition {
                    who,
                    condition: "prone",
                    gained: false,
                    rule: "CEL-R9",
                });
            }
        }
        Choice::Special(sp) | Choice::SpecialStep(sp, _) => {
            state.fm(who).specials.add(sp);
            // CEL-A20: a lower step, where the toggle allows it; else BAB's own.
            state.fm(who).special_steps[sp as usize] = match choice {
                Choice::SpecialStep(_, n) => n,
                _ => 0,
            };
            if sp == crate::state::Special::Lunge {
                state.fm(who).reach_bonus = 5;
            }
            let k = super::special::step_of(state, who, sp);
            let temp = if sp == crate::state::Special::MartialPower {
                let temp = super::special::martial_power_temp_hp(k, state.f(who).shield_dv > 0);
                state.fm(who).temp_hp = temp;
                temp
            } else {
                0
            };
            table.emit(|| Event::Acted {
                who,
                act: "uses a special attack",
                on: None,
                detail: if sp == crate::state::Special::Lunge {
                    "lunge: +5 ft reach until the end of its turn, -2 DV until the start of its \
                     next turn"
                        .to_string()
                } else if temp > 0 {
                    format!(
                        "martial-power (step {k}): -{k} on attack rolls, {temp} temporary hit \
                         points until the start of its next turn"
                    )
                } else {
                    format!("{} (step {k}) until the start of its next turn", sp.key())
                },
                rule: "CEL-R16",
            });
        }
        Choice::DropProne => {
            state.fm(who).prone = true;
            table.emit(|| Event::Condition {
                who,
                condition: "prone",
                gained: true,
                rule: "CEL-R14",
            });
        }
        Choice::Ready(trigger, readied) => {
            super::ready::ready(state, table, who, trigger, readied);
        }
        Choice::Crawl(_)
        | Choice::SteadyAim
        | Choice::DropItem(_)
        | Choice::WeakenAbility(_)
        | Choice::WeakenDegrees(_) => super::simple::perform(state, table, who, choice)?,
        Choice::FirstAid(t) => super::first_aid::first_aid(state, table, who, t)?,
        Choice::TreatWound(t) => super::treat_wound::treat(state, table, who, t)?,
        Choice::Draw(item) => super::wield::draw_or_sheathe(state, table, who, item, true)?,
        Choice::Sheathe(item) => super::wield::draw_or_sheathe(state, table, who, item, false)?,
        Choice::Lock(item) => super::gauntlet::perform(state, table, who, item, true)?,
        Choice::Unlock(item) => super::gauntlet::perform(state, table, who, item, false)?,
        Choice::ReadyShield | Choice::DropShield => {
            let ready = choice == Choice::ReadyShield;
            super::shield::ready_or_drop(state, table, who, ready, cost == 0)?;
        }
        Choice::PickUpShield => super::shield::pick_up(state, table, who)?,
        Choice::SpellResistance(lower) => {
            super::spell_resistance::lower_or_reactivate(state, table, who, lower);
        }
        Choice::Dismiss(..) | Choice::Concentrate(..) | Choice::Cease(..) => {
            super::spell_lasting::perform(state, table, who, choice);
        }
        Choice::Redirect(t) => super::spell_weapon::redirect(state, table, who, t),
        Choice::Load | Choice::Prepare => super::ammo::perform(state, table, who, choice)?,
        Choice::DrawTwo(a, b) => super::wield::draw_two(state, table, who, a, b)?,
        Choice::Demoralize(t) => super::ruling::demoralize(state, table, who, t)?,
        Choice::Recall(t) => super::recall::recall(state, table, who, t)?,
        Choice::Search => super::search::search(state, table, who)?,
        Choice::Handle(a, trick, on) => {
            if cost == 0 {
                // CEL-R9: a class ability's free Handle an Animal, once a turn (CEL-G2, G4).
                let turn = state.f(who).turns;
                state.fm(who).free_handle_turn = Some(turn);
                count_free(state, table, who, "handle");
                table.emit(|| Event::Acted {
                    who,
                    act: "uses its free Handle an Animal on",
                    on: Some(a),
                    detail: "its class ability (`handle_free`), once a turn".to_string(),
                    rule: "CEL-R9",
                });
            }
            super::animal::command(state, table, who, (a, trick, on), false)?;
        }
        Choice::Push(a, trick, on) => {
            super::animal::command(state, table, who, (a, trick, on), true)?;
        }
        Choice::Feint(t) => super::feint::feint(state, table, who, t)?,
        Choice::Stance(m) => super::stance::take(state, table, who, m),
        Choice::Grip(two) => super::grip::take(state, table, who, two),
        Choice::Strike(m, t) => super::strike::strike(state, table, who, m, t)?,
        Choice::Boost(m) => super::boost::initiate(state, table, who, m)?,
        Choice::Multiweapon(t, main, off) => {
            super::multiweapon::perform(state, table, who, t, (main, off))?;
        }
        _ => {}
    }
    injury::strain(state, table, who, cost);
    free_action_taken(state, table, who, choice);
    super::grip::settle(state, table);
    tidy(state, table)?;
    // CEL-R3.9: foes that readied an action for "if a foe moves adjacent to me".
    super::ready::after_move(state, table, who, from)?;
    Ok(())
}

/// A free action counts against the GM's limit (CEL-G2), and one the GM deems strenuous costs
/// a disabled creature 1 hit point, as an act does (CEL-G4, CEL-R17.2).
#[inline(always)]
pub(super) fn free_action_taken(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    choice: Choice,
) {
    let Some(free) = choice.free_action() else {
        return;
    };
    count_free(state, table, who, free);
}

/// Counts a free action of `who` against the GM's limit (CEL-G2), and costs a disabled
/// creature 1 hp when the GM deems it strenuous (CEL-G4).
fn count_free(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId, free: &str) {
    let f = state.fm(who);
    f.free_actions = f.free_actions.saturating_add(1);
    if state.options.strenuous_free_actions.contains(&free)
        && state.band(who) == Band::Disabled
        && !state.f(who).dead
    {
        injury::lose_hp(
            state,
            table,
            who,
            1,
            "a free action the GM deems strenuous, while disabled",
            "CEL-G4",
        );
    }
}

/// CEL-R16.1 Cleave: a free melee attack with the form that hit, on a foe next to the one hit;
/// every foe has advantage against the cleaver until the start of its next turn. With BAB +6 a
/// hit lets it cleave on to a foe next to this one (none attacked twice).
fn cleave(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    t: CombatantId,
) -> Result<(), Interrupt> {
    let Some((_, form)) = state.f(who).cleave_from else {
        return Ok(());
    };
    let round = state.round;
    {
        let f = state.fm(who);
        f.cleave_round = Some(round);
        f.cleave_chain.push(t);
        f.cleave_from = None;
    }
    if !state.f(who).cleaving {
        state.fm(who).cleaving = true;
        table.emit(|| Event::Condition {
            who,
            condition: "open after cleaving",
            gained: true,
            rule: "CEL-R16.1",
        });
    }
    let out = attack::attack(
        state,
        table,
        who,
        t,
        Form::Melee(usize::from(form)),
        Some("cleave"),
        "CEL-R16.1",
    )?;
    if out.result != fray_core::event::AttackResult::Miss && state.p(who).bab >= 6 {
        state.fm(who).cleave_from = Some((t, form));
    }
    Ok(())
}

/// CEL-R10.7: `who` (the target itself or an ally next to it) spends an act to end a dirty
/// trick's condition on `t`; no provocation.
fn clear_trick(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    t: CombatantId,
    trick: crate::state::Trick,
) {
    if !state
        .fm(t)
        .tricks
        .remove(crate::state::Caused::dirty_trick(trick))
    {
        return;
    }
    let condition = fray_core::conditions::ConditionKind::key(trick);
    // The same condition from another cause (a spell, Demoralize) stays. [CEL-R6.2, R9]
    let still = state.f(t).has_trick(trick);
    table.emit(|| Event::Acted {
        who,
        act: "clears a dirty trick from",
        on: Some(t),
        detail: if still {
            format!("{condition} (still {condition}: it has another cause)")
        } else {
            condition.to_string()
        },
        rule: "CEL-R10.7",
    });
    if still {
        return;
    }
    table.emit(|| Event::Condition {
        who: t,
        condition,
        gained: false,
        rule: "CEL-R10.7",
    });
}

/// Moves `who` to `to` and logs it (nothing if it is there already or down).
pub fn move_to(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    to: fray_core::Pos,
    mode: &'static str,
    rule: &'static str,
) {
    let from = state.f(who).pos;
    if from == to || !state.up(who) {
        return;
    }
    // Around the map's obstacles a move is as long as its path (`rules::terrain`).
    let feet = super::terrain::path_feet(state, who, to);
    state.set_square(who, to);
    state.fm(who).moved_ft += feet - from.feet_to(to);
    table.emit(|| Event::Moved {
        who,
        from,
        to,
        feet,
        mode,
        hidden: super::concealment::hidden(state, who),
        rule,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use fray_core::driver::ScriptedDriver;
    use fray_core::event::VecSink;
    use fray_core::runner::Limits;

    /// CEL-R1.1, R4.5 row 16: initiative is a Dexterity check, so Sick (two head injuries,
    /// sickened) rolls two d20s and keeps the lower; Hale rolls one. With dice 17, 4 for Sick
    /// and 10 for Hale: Sick's die is 4 (total 4 + DEX 0), Hale acts first.
    #[test]
    fn a_sickened_combatant_rolls_initiative_with_disadvantage() {
        let mut s = Fixture::new()
            .with(
                "sick",
                "heroes",
                [0, 0],
                &format!("{FIGHTER}\nhead_injuries = 2"),
            )
            .with("hale", "foes", [5, 0], FIGHTER)
            .state();
        let (sick, hale) = (CombatantId(0), CombatantId(1));
        assert!(s.f(sick).injuries.sickened());
        let mut driver = ScriptedDriver::new(vec![17, 4, 10], Vec::new());
        let mut sink = VecSink::default();
        let mut table = Table::new(&mut driver, &mut sink, None, &Limits::default());
        initiative(&mut s, &mut table).expect("scripted dice");
        assert_eq!(s.f(sick).initiative_die, 4);
        assert_eq!(s.f(hale).initiative_die, 10);
        assert_eq!(s.order, vec![hale, sick]);
    }
}
