//! The round procedure (spec §1): surprise (CNC-R1), announcements (CNC-R6.1, CNC-R17),
//! d10 initiative with DEX ties and group initiative (CNC-R2), the first-round reach/size
//! exception (CNC-R3), disengagements first (CNC-A14), one action each (CNC-R4), end of round
//! (bleeding, expiring effects).

use super::attack::{face, melee_routine, shoot, Manner};
use super::checks::attribute_check;
use super::damage;
use super::legal::{action_options, declaration_options};
use super::maneuvers;
use super::movement::{away_from, half_move, strike_square, toward};
use crate::choice::Choice;
use crate::content::Size;
use crate::state::{Cond, Declared, State};
use crate::Cnc;
use fray_core::conditions::{Expiry, Moment, Timed};
use fray_core::event::Event;
use fray_core::protocol::{Chooser, Question, RollPurpose};
use fray_core::{CombatantId, Interrupt, Pos, Table};

type T<'a, 'b> = &'a mut Table<'b, Cnc>;

/// Before the first round: surprise checks and the surprise round. [Seed: 1. Surprise; CNC-R1, CNC-A1]
pub fn begin(state: &mut State, table: T<'_, '_>) -> Result<(), Interrupt> {
    state.round = 0;
    for (who, feet) in state.options.falls.clone() {
        damage::fall(state, table, who, feet)?;
    }
    let surprise = state.options.surprise.clone();
    if surprise.is_empty() {
        return Ok(());
    }
    let mut anyone = false;
    for (side, modifier) in surprise {
        let members: Vec<CombatantId> = state
            .ids()
            .filter(|&id| state.f(id).side == side && state.f(id).is_up())
            .collect();
        let checkers: Vec<CombatantId> = if state.options.surprise_individual {
            members.clone()
        } else {
            // The member with the best chance checks for the party (CNC-R1.2).
            members
                .iter()
                .copied()
                .max_by_key(|&id| {
                    let (bonus, target) = super::checks::check_numbers(state, id, 4, modifier);
                    (bonus - target, std::cmp::Reverse(id))
                })
                .into_iter()
                .collect()
        };
        for who in checkers {
            let r = attribute_check(state, table, who, 4, modifier, "CNC-R1.2")?;
            table.emit(|| {
                let result = if r.success {
                    "not surprised"
                } else {
                    "surprised"
                };
                r.event(who, "surprise", result, "CNC-R1.2")
            });
            if !r.success {
                let affected = if state.options.surprise_individual {
                    vec![who]
                } else {
                    members.clone()
                };
                for id in affected {
                    state
                        .f_mut(id)
                        .conditions
                        .add(Cond::Surprised, Expiry::EndOfRound(0));
                    anyone = true;
                }
            }
        }
    }
    if !anyone {
        return Ok(());
    }
    reset_round(state);
    let actors: Vec<CombatantId> = state
        .ids()
        .filter(|&id| state.f(id).is_up() && !state.f(id).conditions.has(Cond::Surprised))
        .collect();
    for id in state
        .ids()
        .filter(|&id| state.f(id).conditions.has(Cond::Surprised))
    {
        table.emit(|| Event::Skipped {
            who: id,
            reason: "surprised",
            rule: "CNC-R1.1",
        });
    }
    let order = initiative(state, table, &actors)?;
    act_in_order(state, table, &order)?;
    end_of_round(state, table);
    Ok(())
}

/// The round's records, reset as a round begins, before any rule reads them.
pub(crate) fn reset_round(state: &mut State) {
    for f in &mut state.fighters {
        f.acted = false;
        f.attackers = [None; 3];
        f.dodged = 0;
        f.free_attacked = None;
        f.charge_negated = false;
        f.declared = Declared::Nothing;
    }
}

/// One round. [Seed: 2. Initiative; 3. Combat Actions; spec §1]
pub fn play_round(state: &mut State, table: T<'_, '_>) -> Result<(), Interrupt> {
    let order = round_head(state, table)?;
    act_in_order(state, table, &order)?;
    end_of_round(state, table);
    Ok(())
}

/// The round from where `state` stands to its next settled point, or to its end: true when
/// the round is over (`Ruleset::round_step`; [`play_round`] is the same code without pausing,
/// so ordinary play is unchanged). The settled points are after the announcements, the
/// initiative and the disengagements ([`round_head`]: CNC-R6.1, CNC-R17, CNC-R2, CNC-A14), and
/// after each initiative group has acted (CNC-R2.2, CNC-R4).
///
/// At those points nothing of the round is on the stack, so the state alone says how the rest
/// of the fight goes: the announcements are each fighter's `declared` and its conditions, who
/// has acted is `acted`, the shield's attackers, dodges, free attacks and a negated charge are
/// in the fighter; the groups still to act, in order, are `State::paused` (the initiative rolls
/// themselves are read only to make that order, CNC-R2.1–R2.3, and are not kept); a group's
/// simultaneity (`ready`, the view of its movers) begins and ends within its step.
///
/// Exact odds forget what no rule reads again at these points, on their own path
/// (`super::odds_key::odds_key`), not here: stepping to a round's end is [`play_round`].
pub fn round_step(state: &mut State, table: T<'_, '_>) -> Result<bool, Interrupt> {
    let over = match state.paused.take() {
        None => {
            let order = round_head(state, table)?;
            state.paused = Some(order);
            false
        }
        Some(order) => {
            let now = order.groups().next().map_or(0, <[_]>::len);
            act_group(state, table, &order.0[..now])?;
            if now == order.0.len() {
                end_of_round(state, table);
                true
            } else {
                state.paused = Some(Order(order.0[now..].to_vec()));
                false
            }
        }
    };
    Ok(over)
}

/// The round up to its first action: this round's records reset, the announcements
/// (CNC-R6.1, CNC-R17), the initiative (CNC-R2) and the disengagements, which resolve first
/// (CNC-A14). Returns the order of action.
#[inline]
fn round_head(state: &mut State, table: T<'_, '_>) -> Result<Order, Interrupt> {
    let round = table.round();
    state.round = round;
    reset_round(state);
    // 2. Announcements before initiative.
    for id in (0..state.fighters.len() as u16).map(CombatantId) {
        // Held creatures and casters in the middle of a long spell announce nothing.
        if !state.f(id).is_up() || state.f(id).held_by.is_some() || state.f(id).casting.is_some() {
            continue;
        }
        let choice = table.choose(
            state,
            Chooser::Combatant(id),
            Question::Declaration,
            "CNC-R6.1",
            |out| declaration_options(state, id, out),
        )?;
        declare(state, table, id, choice, round);
    }
    // 3. Initiative for everyone who did not dodge, evade or disengage.
    let mut rollers = [CombatantId(0); 64];
    let mut n = 0;
    let mut many = Vec::new();
    for id in state.ids() {
        if state.f(id).is_up() && !state.f(id).declared.skips_initiative() {
            if n < rollers.len() {
                rollers[n] = id;
                n += 1;
            } else {
                if many.is_empty() {
                    many.extend_from_slice(&rollers);
                }
                many.push(id);
            }
        }
    }
    let rollers: &[CombatantId] = if many.is_empty() {
        &rollers[..n]
    } else {
        &many
    };
    let order = initiative(state, table, rollers)?;
    // 5. Disengagements resolve first (CNC-A14).
    for id in (0..state.fighters.len() as u16).map(CombatantId) {
        match state.f(id).declared {
            Declared::DisengageHasty => disengage(state, table, id, true)?,
            Declared::DisengageFighting => disengage(state, table, id, false)?,
            _ => {}
        }
    }
    Ok(order)
}

fn declare(state: &mut State, table: T<'_, '_>, id: CombatantId, choice: Choice, round: u32) {
    let (declared, cond, rule) = match choice {
        Choice::Charge(t) => (Declared::Charge(t), Some(Cond::Charging), "CNC-R6.1"),
        Choice::Dodge => (Declared::Dodge, Some(Cond::Dodging), "CNC-R17.1"),
        Choice::Evade(t) => (Declared::Evade(t), Some(Cond::Evading), "CNC-R17.4"),
        Choice::DisengageHasty => (
            Declared::DisengageHasty,
            Some(Cond::HastyDisengage),
            "CNC-R17.2a",
        ),
        Choice::DisengageFighting => (Declared::DisengageFighting, None, "CNC-R17.2b"),
        _ => (Declared::Nothing, None, ""),
    };
    state.f_mut(id).declared = declared;
    if let Some(c) = cond {
        // The foe charged or evaded is the condition's source (CNC-R6.4, CNC-R17.4).
        let mut timed = Timed::new(c, Expiry::EndOfRound(round));
        if let Declared::Charge(t) | Declared::Evade(t) = declared {
            timed = timed.from(t);
        }
        state.f_mut(id).conditions.add_timed(timed);
    }
    if declared != Declared::Nothing {
        table.emit(|| Event::Declared {
            who: id,
            declaration: crate::choice::text(state, &choice),
            rule,
        });
    }
}

/// The order of action: combatants in order, each with its group number; a group (equal
/// numbers) acts simultaneously.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Order(pub Vec<(u32, CombatantId)>);

impl Order {
    /// The groups in order.
    pub fn groups(&self) -> impl Iterator<Item = &[(u32, CombatantId)]> {
        self.0.chunk_by(|a, b| a.0 == b.0)
    }

    /// The groups as lists of ids (for events and tests).
    pub fn as_lists(&self) -> Vec<Vec<CombatantId>> {
        self.groups()
            .map(|g| g.iter().map(|&(_, id)| id).collect())
            .collect()
    }
}

/// Rolls initiative for `actors` and returns the order of action.
/// [Seed: 2. Initiative; CNC-R2, CNC-E16]
pub fn initiative(
    state: &State,
    table: T<'_, '_>,
    actors: &[CombatantId],
) -> Result<Order, Interrupt> {
    if state.options.group_initiative {
        // One roll per party; the winner acts entirely first (CNC-R2.3). Within a party, file order.
        let mut side_rolls: Vec<(fray_core::SideId, u32, CombatantId)> = Vec::new();
        for &id in actors {
            let side = state.f(id).side;
            if !side_rolls.iter().any(|(s, _, _)| *s == side) {
                let roll = table.roll_dice(1, 10, Some(id), RollPurpose::Initiative, "CNC-R2.3")?;
                table.emit(|| Event::SideInitiative {
                    side,
                    roll,
                    rule: "CNC-R2.3",
                });
                side_rolls.push((side, roll, id));
            }
        }
        let places = if side_rolls.is_empty() {
            Vec::new()
        } else if state.options.group_ties_simultaneous {
            // CK option: tied sides act at the same time (no re-roll).
            side_rolls
                .iter()
                .map(|&(side, roll, _)| {
                    let ahead = side_rolls.iter().filter(|o| o.1 > roll).count();
                    (side, ahead)
                })
                .collect()
        } else {
            side_places(table, &side_rolls)?
        };
        let place = |side: fray_core::SideId| {
            places
                .iter()
                .find(|(s, _)| *s == side)
                .map_or(usize::MAX, |s| s.1)
        };
        // Within a party, file order; each member acts in turn. The k-th members of parties
        // that share a place (tied, simultaneous) act together as one group.
        let mut order: Vec<(usize, usize, CombatantId)> = Vec::with_capacity(actors.len());
        for &id in actors {
            let side = state.f(id).side;
            let k = order
                .iter()
                .filter(|&&(_, _, o)| state.f(o).side == side)
                .count();
            order.push((place(side), k, id));
        }
        order.sort_by_key(|&(place, k, id)| (place, k, id));
        let mut group = 0u32;
        let mut last = None;
        let order = Order(
            order
                .into_iter()
                .map(|(place, k, id)| {
                    if last.is_some() && last != Some((place, k)) {
                        group += 1;
                    }
                    last = Some((place, k));
                    (group, id)
                })
                .collect(),
        );
        table.emit(|| Event::Order {
            groups: order.as_lists(),
        });
        return Ok(order);
    }
    let mut rolled: Vec<(i32, i32, CombatantId)> = Vec::with_capacity(actors.len());
    for &id in actors {
        let roll = table.roll_dice(1, 10, Some(id), RollPurpose::Initiative, "CNC-R2.1")?;
        table.emit(|| Event::Initiative {
            who: id,
            roll,
            total: roll as i32,
            rule: "CNC-R2.1",
        });
        rolled.push((roll as i32, state.p(id).scores[1], id));
    }
    let order = order_groups(rolled);
    table.emit(|| Event::Order {
        groups: order.as_lists(),
    });
    Ok(order)
}

/// Most tie-break rounds between sides before the tie stands (file order); a limit, never a hang.
const MAX_SIDE_REROLLS: usize = 50;

/// Sides whose group-initiative rolls tie roll again (only the tied sides, as often as they
/// tie), so no side wins a tie by being listed first in the file. The seed gives no tie rule for
/// group initiative; its individual rule ends ties in simultaneous action, never in file order,
/// and a fresh roll keeps "the winning party acting before anyone in the opponent party"
/// (documented in `docs/encounters.md`). Returns each side's place (0 = acts first).
/// [Seed: 2. Initiative; CNC-R2.3]
fn side_places(
    table: T<'_, '_>,
    side_rolls: &[(fray_core::SideId, u32, CombatantId)],
) -> Result<Vec<(fray_core::SideId, usize)>, Interrupt> {
    // Each side's rolls: the first, then its tie-breaks (compared in order, higher first).
    let mut rolls: Vec<Vec<u32>> = side_rolls.iter().map(|s| vec![s.1]).collect();
    for _ in 0..MAX_SIDE_REROLLS {
        let tied: Vec<bool> = (0..rolls.len())
            .map(|i| (0..rolls.len()).any(|j| i != j && rolls[i] == rolls[j]))
            .collect();
        if !tied.contains(&true) {
            break;
        }
        for (i, &(side, _, roller)) in side_rolls.iter().enumerate() {
            if tied[i] {
                let roll =
                    table.roll_dice(1, 10, Some(roller), RollPurpose::Initiative, "CNC-R2.3")?;
                table.emit(|| Event::SideInitiative {
                    side,
                    roll,
                    rule: "CNC-R2.3 tie re-roll",
                });
                rolls[i].push(roll);
            }
        }
    }
    let mut places: Vec<usize> = (0..side_rolls.len()).collect();
    places.sort_by(|&i, &j| rolls[j].cmp(&rolls[i]).then(i.cmp(&j)));
    let mut out = vec![(side_rolls[0].0, 0); side_rolls.len()];
    for (place, &i) in places.iter().enumerate() {
        out[i] = (side_rolls[i].0, place);
    }
    Ok(out)
}

/// Highest first; ties by higher DEX; equal DEX acts simultaneously. [CNC-R2.2]
pub fn order_groups(rolled: Vec<(i32, i32, CombatantId)>) -> Order {
    // Rolls and DEX that fit in 16 bits (a d10 roll and an ability score do) are packed with
    // the id into one integer per combatant, the highest roll and DEX smallest, so the sort
    // compares plain integers (issue 12: this sort runs every round over everyone).
    let descending = |v: i32| {
        i16::try_from(v)
            .ok()
            .map(|v| u64::from(!(v as u16 ^ 0x8000)))
    };
    let mut keys = Vec::with_capacity(rolled.len());
    for &(roll, dex, id) in &rolled {
        match (descending(roll), descending(dex)) {
            (Some(r), Some(d)) => keys.push((r << 32) | (d << 16) | u64::from(id.0)),
            _ => return order_groups_by_tuples(rolled),
        }
    }
    // Keys are unique (the id is last), so an unstable sort gives the same order.
    keys.sort_unstable();
    let mut group = 0u32;
    let mut out = Vec::with_capacity(keys.len());
    for (k, &key) in keys.iter().enumerate() {
        // Equal upper bits: the same roll and DEX, hence the same group.
        if k > 0 && keys[k - 1] >> 16 != key >> 16 {
            group += 1;
        }
        out.push((group, CombatantId((key & 0xFFFF) as u16)));
    }
    Order(out)
}

/// [`order_groups`] by sorting the tuples themselves (rolls or DEX beyond 16 bits).
fn order_groups_by_tuples(mut rolled: Vec<(i32, i32, CombatantId)>) -> Order {
    // Keys are unique (the id is last), so an unstable sort gives the same order.
    rolled.sort_unstable_by_key(|&(roll, dex, id)| {
        (std::cmp::Reverse(roll), std::cmp::Reverse(dex), id)
    });
    let mut group = 0u32;
    let mut last: Option<(i32, i32)> = None;
    let mut out = Vec::with_capacity(rolled.len());
    for (roll, dex, id) in rolled {
        if last.is_some() && last != Some((roll, dex)) {
            group += 1;
        }
        last = Some((roll, dex));
        out.push((group, id));
    }
    Order(out)
}

/// 6. Actions in order: each initiative group in turn.
fn act_in_order(state: &mut State, table: T<'_, '_>, order: &Order) -> Result<(), Interrupt> {
    for group in order.groups() {
        act_group(state, table, group)?;
    }
    Ok(())
}

/// One initiative group acts: creatures acting simultaneously all act, even if one fells
/// another (spec §1 step 6, CNC-R2.2).
#[inline]
fn act_group(
    state: &mut State,
    table: T<'_, '_>,
    group: &[(u32, CombatantId)],
) -> Result<(), Interrupt> {
    for (_, id) in group {
        let f = state.f_mut(*id);
        f.ready = f.is_up();
    }
    let mut view = GroupView::new(state, group);
    for (_, id) in group {
        if !state.f(*id).ready {
            let f = state.f(*id);
            if (!f.dead || f.hp > -10) && f.gone.is_none() {
                table.emit(|| Event::Skipped {
                    who: *id,
                    reason: "down before its turn",
                    rule: "CNC-R20.1",
                });
            }
            continue;
        }
        view.prepare(state, *id);
        let result = turn(state, table, *id);
        if view.settle(state, *id) {
            table.emit(|| Event::Forgone {
                who: *id,
                what: "move",
                on: None,
                reason: "a simultaneous mover took the same square; it stays where it began".into(),
                rule: "CNC-R2.2",
            });
        }
        if result.is_err() {
            view.reveal(state);
            return result;
        }
    }
    view.reveal(state);
    for (_, id) in group {
        state.f_mut(*id).ready = false;
        state.refresh_layer(*id);
    }
    Ok(())
}

/// Simultaneous actors do not see each other's movement: while one member of an initiative
/// group takes its turn, every other member that has moved since the group's moment began stands
/// where it stood when the moment began. The view is kept from one actor to the next, so a
/// member is put out of sight once and back once (not once per later actor, which made a large
/// group's moment cost the square of its size).
/// [Seed: 2. Initiative ("a simultaneous action occurs"); CNC-R2.2]
struct GroupView {
    /// Each member (none for a group of one), where it stood when the moment began, and the
    /// square it really occupies while it is shown at its start (`None`: shown where it is).
    members: Vec<(CombatantId, Pos, Option<Pos>)>,
}

impl GroupView {
    fn new(state: &State, group: &[(u32, CombatantId)]) -> Self {
        let members = if group.len() > 1 {
            group
                .iter()
                .map(|&(_, id)| (id, state.f(id).pos, None))
                .collect()
        } else {
            Vec::new()
        };
        GroupView { members }
    }

    /// Before `actor`'s turn: `actor` where it really is, every other member that has moved
    /// at its start.
    fn prepare(&mut self, state: &mut State, actor: CombatantId) {
        for (id, start, real) in &mut self.members {
            if *id == actor {
                if let Some(at) = real.take() {
                    state.set_square(*id, at);
                }
            } else if real.is_none() {
                let at = state.f(*id).pos;
                if at != *start {
                    *real = Some(at);
                    state.set_square(*id, *start);
                }
            }
        }
    }

    /// After `actor`'s turn: the members out of sight keep the squares they really occupy
    /// (what the turn did to where they were shown is undone, as the view is). Should `actor`
    /// have ended on one of those squares (two simultaneous movers picking the same square), it
    /// goes back to where its move began (the answer: did it?). [CNC-R2.2; grid: never two on
    /// one square]
    fn settle(&mut self, state: &mut State, actor: CombatantId) -> bool {
        let actor_pos = state.f(actor).pos;
        let mut clash = false;
        let mut actor_start = None;
        for &(id, start, real) in &self.members {
            if id == actor {
                actor_start = Some(start);
            }
            if let Some(at) = real {
                clash |= at == actor_pos;
                if state.f(id).pos != start {
                    state.set_square(id, start);
                }
            }
        }
        match (clash, actor_start) {
            (true, Some(start)) => {
                state.set_square(actor, start);
                true
            }
            _ => false,
        }
    }

    /// The moment is over: everyone on the square it really occupies.
    fn reveal(&mut self, state: &mut State) {
        for (id, _, real) in &mut self.members {
            if let Some(at) = real.take() {
                state.set_square(*id, at);
            }
        }
    }
}

/// A combatant's turn, marked by its start and end, where conditions timed to its turn end.
fn turn(state: &mut State, table: T<'_, '_>, id: CombatantId) -> Result<(), Interrupt> {
    let round = table.round();
    // The CK may step in between actions.
    table.intervention_point(state)?;
    table.emit(|| Event::TurnStarted { who: id });
    state
        .f_mut(id)
        .conditions
        .expire(id, Moment::StartOfTurn(id, round), table);
    take_turn(state, table, id)?;
    state
        .f_mut(id)
        .conditions
        .expire(id, Moment::EndOfTurn(id, round), table);
    table.emit(|| Event::TurnEnded { who: id });
    Ok(())
}

/// A combatant's turn: its declared charge, or one chosen action. [Seed: 3. Combat Actions]
fn take_turn(state: &mut State, table: T<'_, '_>, id: CombatantId) -> Result<(), Interrupt> {
    if state.f(id).acted {
        return Ok(());
    }
    if super::magic::continue_casting(state, table, id)? {
        state.f_mut(id).acted = true;
        return Ok(());
    }
    if let Declared::Charge(t) = state.f(id).declared {
        if state.f(t).fights_on() {
            // `acted` is set only once the charge attack itself begins (inside `charge`), so a
            // first strike during the approach still negates the charge (CNC-R6.5, CNC-A22).
            let result = charge(state, table, id, t);
            state.f_mut(id).acted = true;
            return result;
        }
        table.emit(|| Event::Forgone {
            who: id,
            what: "charge",
            on: Some(t),
            reason: "the charge target is down; it acts normally (still at −4 AC)".into(),
            rule: "CNC-R6",
        });
    }
    let choice = table.choose(
        state,
        Chooser::Combatant(id),
        Question::Action,
        "CNC-R4.1",
        |out| action_options(state, id, out),
    )?;
    state.f_mut(id).acted = true;
    perform(state, table, id, choice)
}

fn move_to(
    state: &mut State,
    table: T<'_, '_>,
    id: CombatantId,
    to: Pos,
    mode: &'static str,
    rule: &'static str,
) {
    let from = state.f(id).pos;
    if from == to {
        return;
    }
    if let Some(dir) = from.direction_to(to) {
        state.f_mut(id).facing = dir;
    }
    state.set_square(id, to);
    // Moving away from a holder, or a holder moving off, ends the hold (nobody to look for
    // while nobody in the fight has ever been held).
    debug_assert!(state.holds_seen.0 || state.fighters.iter().all(|f| f.held_by.is_none()));
    if state.holds_seen.0 {
        for other in (0..state.fighters.len() as u16).map(CombatantId) {
            if state.f(other).held_by == Some(id) && !state.f(other).pos.is_adjacent(to) {
                state.f_mut(other).held_by = None;
            }
        }
    }
    table.emit(|| Event::Moved {
        who: id,
        from,
        to,
        feet: from.feet_to(to),
        mode,
        hidden: false,
        rule,
    });
}

fn perform(
    state: &mut State,
    table: T<'_, '_>,
    id: CombatantId,
    choice: Choice,
) -> Result<(), Interrupt> {
    let half = half_move(state, id);
    match choice {
        Choice::Attack(t) | Choice::TwoWeapons(t) | Choice::Subdue(t) => {
            let reach = state.p(id).reach();
            let from = state.f(id).pos;
            if let Some(square) = strike_square(state, id, t, reach, half) {
                move_to(state, table, id, square, "half move", "CNC-R4.2");
            }
            if !first_strike(state, table, id, t, from)? {
                return Ok(());
            }
            let (manner, label) = match choice {
                Choice::TwoWeapons(_) => (Manner::TwoWeapons, ""),
                Choice::Subdue(_) => (Manner::Subdue, "to subdue"),
                _ => (Manner::Normal, ""),
            };
            melee_routine(state, table, id, t, manner, label, "CNC-R7.1")
        }
        Choice::Shoot(t) => shoot(state, table, id, t),
        Choice::Grapple(t) | Choice::Pummel(t) | Choice::Overbear(t) | Choice::Disarm(t) => {
            let reach = if matches!(choice, Choice::Disarm(_)) {
                state.p(id).reach()
            } else {
                5
            };
            let from = state.f(id).pos;
            if let Some(square) = strike_square(state, id, t, reach, half) {
                move_to(state, table, id, square, "half move", "CNC-R4.2");
            }
            if !first_strike(state, table, id, t, from)? {
                return Ok(());
            }
            match choice {
                Choice::Grapple(_) => maneuvers::grapple(state, table, id, t),
                Choice::Pummel(_) => maneuvers::pummel(state, table, id, t),
                Choice::Overbear(_) => maneuvers::overbear(state, table, id, t),
                _ => maneuvers::disarm(state, table, id, t),
            }
        }
        Choice::BreakHold => maneuvers::break_hold(state, table, id),
        Choice::Recover => {
            // The weapon fell in an adjacent square (CNC-A24): picking it up is the action.
            state.f_mut(id).disarmed = false;
            table.emit(|| Event::Condition {
                who: id,
                condition: "disarmed (picks its weapon up from the adjacent square)",
                gained: false,
                rule: "CNC-R17.3",
            });
            Ok(())
        }
        Choice::Cast(m, t) => super::magic::cast(state, table, id, m, t),
        Choice::UseItem(m, t) => super::magic::use_item(state, table, id, m, t),
        Choice::UseAbility(m, t) => super::magic::use_ability(state, table, id, m, t),
        Choice::ReadyItem(m) => {
            super::magic::ready_item(state, table, id, m);
            Ok(())
        }
        Choice::Aid(t) => {
            if let Some(square) = strike_square(state, id, t, 5, half) {
                move_to(state, table, id, square, "half move", "CNC-R4.2");
            }
            state.f_mut(t).aided_in = Some(table.round());
            table.emit(|| Event::Acted {
                who: id,
                act: "tends the wounds of",
                on: Some(t),
                detail: "this round".into(),
                rule: "CNC-R19",
            });
            Ok(())
        }
        Choice::Advance(t, pace) => {
            let budget = state.p(id).movement * pace.multiple();
            let reach = state.p(id).reach();
            let to = strike_square(state, id, t, reach, budget)
                .unwrap_or_else(|| toward(state, id, state.f(t).pos, budget));
            move_to(state, table, id, to, pace.key(), "CNC-R4.4");
            Ok(())
        }
        Choice::Withdraw(pace) => {
            let threats: Vec<Pos> = state
                .ids()
                .filter(|&o| state.enemies(id, o) && state.f(o).is_up())
                .map(|o| state.f(o).pos)
                .collect();
            let to = away_from(state, id, &threats, state.p(id).movement * pace.multiple());
            move_to(state, table, id, to, pace.key(), "CNC-R4.4");
            Ok(())
        }
        Choice::MoveTo(pos, pace) => {
            move_to(state, table, id, pos, pace.key(), "CNC-R4.4");
            Ok(())
        }
        Choice::Hold => {
            table.emit(|| Event::Acted {
                who: id,
                act: "holds",
                on: None,
                detail: "no action this round".into(),
                rule: "CNC-R4.1",
            });
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The charge: a straight move of up to the jogging rate and a melee attack with +2 damage.
/// [Seed: 4.1 Charging; CNC-R6]
fn charge(
    state: &mut State,
    table: T<'_, '_>,
    id: CombatantId,
    t: CombatantId,
) -> Result<(), Interrupt> {
    let rate = state.p(id).movement;
    let budget = 2 * rate;
    let reach = state.p(id).reach();
    let from = state.f(id).pos;
    // The charge's movement: the target must still be at least a full move away (CNC-R6.2, as
    // measured when it was announced, CNC-A21); a charger whose target came to it does not
    // charge. It still moves and attacks; the −4 AC announced stays (CNC-R6.4).
    let distance = from.feet_to(state.f(t).pos);
    if distance < rate && !state.f(id).charge_negated {
        state.f_mut(id).charge_negated = true;
        table.emit(|| Event::Forgone {
            who: id,
            what: "charge",
            on: Some(t),
            reason: format!(
                "only {distance} ft away, less than the full {rate} ft move a charge needs (no +2 \
                 damage; the −4 AC announced stays)"
            ),
            rule: "CNC-R6.2",
        });
    }
    match strike_square(state, id, t, reach, budget) {
        Some(square) => move_to(state, table, id, square, "charge", "CNC-R6.2"),
        None => {
            let to = toward(state, id, state.f(t).pos, budget);
            move_to(state, table, id, to, "charge", "CNC-R6.2");
            table.emit(|| Event::Forgone {
                who: id,
                what: "attack",
                on: Some(t),
                reason: "the target moved out of the charge's reach".into(),
                rule: "CNC-R6.2",
            });
            return Ok(());
        }
    }
    if !first_strike(state, table, id, t, from)? {
        return Ok(());
    }
    state.f_mut(id).acted = true;
    melee_routine(state, table, id, t, Manner::Normal, "charge", "CNC-R6")
}

/// The first-round reach/size exception: before `attacker` strikes `defender` in round 1, a
/// defender with reach over 10 ft (vs under 6 ft) or a large defender (vs medium or smaller) that
/// has not acted may strike first, as its action — only when `attacker` approaches: it started
/// its action (at `from`) more than 10 ft away. Returns whether `attacker` can still attack.
/// [Seed: 2. Initiative ("only applies if the … smaller creature approaches within ten feet"); CNC-R3, CNC-A17]
fn first_strike(
    state: &mut State,
    table: T<'_, '_>,
    attacker: CombatantId,
    defender: CombatantId,
    from: Pos,
) -> Result<bool, Interrupt> {
    if table.round() != 1 || !qualifies_first_strike(state, attacker, defender) {
        return Ok(state.f(attacker).fights_on());
    }
    if from.feet_to(state.f(defender).pos) <= 10 {
        table.emit(|| Event::Forgone {
            who: defender,
            what: "first strike",
            on: Some(attacker),
            reason: format!(
                "{} was already within 10 ft: no approach; initiative decides",
                state.roster.name(attacker)
            ),
            rule: "CNC-R3.2",
        });
        return Ok(state.f(attacker).fights_on());
    }
    let choice = table.choose(
        state,
        Chooser::Combatant(defender),
        Question::Reaction,
        "CNC-R3",
        |out| out.extend([Choice::Yes, Choice::No]),
    )?;
    if choice != Choice::Yes {
        table.emit(|| Event::Forgone {
            who: defender,
            what: "first strike",
            on: Some(attacker),
            reason: "declined; initiative decides".into(),
            rule: "CNC-R3",
        });
    }
    if choice == Choice::Yes {
        state.f_mut(defender).acted = true;
        table.emit(|| Event::Acted {
            who: defender,
            act: "strikes first at",
            on: Some(attacker),
            detail: "longer reach or greater size (its action this round)".into(),
            rule: "CNC-R3",
        });
        melee_routine(
            state,
            table,
            defender,
            attacker,
            Manner::Normal,
            "first strike",
            "CNC-R3",
        )?;
    }
    Ok(state.f(attacker).fights_on())
}

/// Whether `defender` may strike `attacker` first (CNC-R3.1–3.2).
pub fn qualifies_first_strike(state: &State, attacker: CombatantId, defender: CombatantId) -> bool {
    let d = state.f(defender);
    if d.acted || !d.is_up() || d.declared.skips_initiative() || d.held_by.is_some() {
        return false;
    }
    let (pa, pd) = (state.p(attacker), state.p(defender));
    let distance = state.f(attacker).pos.feet_to(d.pos);
    if distance > 10 || !d.pos.within_reach(state.f(attacker).pos, pd.reach()) {
        return false;
    }
    let longer = pd.reach() > 10 && pa.reach() < 6;
    let larger = pd.size >= Size::Large && pa.size <= Size::Medium;
    longer || larger
}

/// Disengaging at the start of the round. Hasty: every engaged opponent may take a free attack,
/// then a run away. Fighting: at most half a move away, no longer engaged next round.
/// [Seed: 11.2 Disengagement; CNC-R17.2, CNC-A13, CNC-A14]
fn disengage(
    state: &mut State,
    table: T<'_, '_>,
    id: CombatantId,
    hasty: bool,
) -> Result<(), Interrupt> {
    if !state.f(id).is_up() {
        return Ok(());
    }
    let round = table.round();
    let foes: Vec<CombatantId> = state.engaged_foes(id, round).collect();
    if hasty {
        for foe in &foes {
            if !state.f(id).is_up() || !state.f(*foe).is_up() || state.f(*foe).held_by.is_some() {
                continue;
            }
            let take = table.choose(
                state,
                Chooser::Combatant(*foe),
                Question::Reaction,
                "CNC-R17.2a",
                |out| out.extend([Choice::Yes, Choice::No]),
            )?;
            if take != Choice::Yes {
                table.emit(|| Event::Forgone {
                    who: *foe,
                    what: "free attack",
                    on: Some(id),
                    reason: "declined".into(),
                    rule: "CNC-R17.2a",
                });
            }
            if take == Choice::Yes {
                state.f_mut(*foe).free_attacked = Some(id);
                melee_routine(
                    state,
                    table,
                    *foe,
                    id,
                    Manner::Normal,
                    "free attack",
                    "CNC-R17.2a",
                )?;
            }
        }
        if !state.f(id).is_up() {
            return Ok(());
        }
    }
    let threats: Vec<Pos> = foes.iter().map(|&f| state.f(f).pos).collect();
    let budget = if hasty {
        4 * state.p(id).movement
    } else {
        half_move(state, id)
    };
    let to = away_from(state, id, &threats, budget);
    let (mode, rule) = if hasty {
        ("hasty disengagement", "CNC-R17.2a")
    } else {
        ("fighting disengagement", "CNC-R17.2b")
    };
    move_to(state, table, id, to, mode, rule);
    if let Some(&first) = foes.first() {
        // Keep facing the foe while backing off.
        face(state, id, first);
    }
    if !hasty {
        state.f_mut(id).disengaged_in = Some(round);
    }
    state.f_mut(id).acted = true;
    Ok(())
}

/// End of the round: mortal wounds bleed, round effects expire. [Seed: 3. Combat Actions; CNC-R19]
fn end_of_round(state: &mut State, table: T<'_, '_>) {
    damage::bleed(state, table);
    let round = table.round();
    for id in (0..state.fighters.len() as u16).map(CombatantId) {
        // Announcements made for this round (charging, dodging…) end quietly with it; only the
        // end of a lasting condition is worth a line.
        state
            .f_mut(id)
            .conditions
            .expire(id, Moment::EndOfRound(round), table);
        // A hold ends when the holder is down.
        if let Some(h) = state.f(id).held_by {
            if !state.f(h).is_up() {
                state.f_mut(id).held_by = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cnc_e16_initiative_tie_groups() {
        // A rolls 7 with DEX 14; B rolls 7 with DEX 12; C rolls 7 with DEX 14.
        let (a, b, c) = (CombatantId(0), CombatantId(1), CombatantId(2));
        let order = order_groups(vec![(7, 14, a), (7, 12, b), (7, 14, c)]);
        assert_eq!(order.as_lists(), vec![vec![a, c], vec![b]]);
        let order = order_groups(vec![(3, 10, a), (9, 10, b), (5, 18, c)]);
        assert_eq!(order.as_lists(), vec![vec![b], vec![c], vec![a]]);
    }

    /// The view of a simultaneous group as it was first written (every other member that has
    /// moved put at its start before each turn, and back after it): the reference for
    /// [`GroupView`]. Returns the squares each turn saw, whether each actor was sent back, and
    /// the squares at the end.
    fn group_view_by_turns(
        state: &mut State,
        ids: &[CombatantId],
        turns: &[Vec<(usize, Pos)>],
    ) -> (Vec<Vec<Pos>>, Vec<bool>, Vec<Pos>) {
        let starts: Vec<(CombatantId, Pos)> = ids.iter().map(|&id| (id, state.f(id).pos)).collect();
        let (mut seen, mut sent_back) = (Vec::new(), Vec::new());
        for (k, &actor) in ids.iter().enumerate() {
            let mut shown = Vec::new();
            for &(other, start) in &starts {
                if other != actor && state.f(other).pos != start {
                    shown.push((other, state.f(other).pos));
                    state.set_square(other, start);
                }
            }
            seen.push(ids.iter().map(|&id| state.f(id).pos).collect());
            for &(who, to) in &turns[k] {
                state.set_square(ids[who], to);
            }
            let actor_pos = state.f(actor).pos;
            let mut clash = false;
            for &(other, pos) in &shown {
                state.set_square(other, pos);
                clash |= pos == actor_pos;
            }
            if clash {
                state.set_square(actor, starts[k].1);
            }
            sent_back.push(clash);
        }
        let end = ids.iter().map(|&id| state.f(id).pos).collect();
        (seen, sent_back, end)
    }

    proptest::proptest! {
        /// The packed sort orders as the tuples do, with the same groups (values beyond 16
        /// bits take the tuples' path).
        #[test]
        fn packed_order_matches_the_tuples(
            rolled in proptest::collection::vec((-40_000i32..40_000, -3i32..25), 0..80),
            small in proptest::bool::ANY,
        ) {
            let rolled: Vec<(i32, i32, CombatantId)> = rolled
                .into_iter()
                .enumerate()
                .map(|(i, (roll, dex))| {
                    let roll = if small { roll.rem_euclid(12) - 1 } else { roll };
                    (roll, dex, CombatantId((i * 811 % 65_536) as u16))
                })
                .collect();
            proptest::prop_assert_eq!(
                order_groups(rolled.clone()),
                order_groups_by_tuples(rolled)
            );
        }

        /// [`GroupView`] shows every turn the same squares as putting the movers at their starts
        /// afresh for each turn, sends back the same actors and ends with the same squares —
        /// whatever each turn moves (its actor, or others: a push, a square taken twice).
        #[test]
        fn group_view_matches_the_view_rebuilt_each_turn(
            squares in proptest::collection::vec((-3i32..4, -3i32..4), 2..6),
            moves in proptest::collection::vec(
                proptest::collection::vec((0usize..6, -3i32..4, -3i32..4), 0..3),
                6,
            ),
        ) {
            let mut text = String::from(
                "schema = 1\nruleset = \"cnc\"\n[[sides]]\nid = \"a\"\n[[sides]]\nid = \"b\"\n",
            );
            let mut used = Vec::new();
            for (i, sq) in squares.iter().enumerate() {
                if !used.contains(sq) {
                    used.push(*sq);
                    text.push_str(&format!(
                        "[[combatants]]\nid = \"o{i}\"\nside = \"{}\"\nat = [{}, {}]\nmonster = \"orc\"\n",
                        if i % 2 == 0 { "a" } else { "b" },
                        sq.0,
                        sq.1
                    ));
                }
            }
            if used.len() < 2 {
                return Ok(());
            }
            let content = crate::Content::embedded().expect("content");
            let e = crate::load("t.toml", &text, &content).expect("loads");
            let ids: Vec<CombatantId> = (0..used.len() as u16).map(CombatantId).collect();
            // Each turn moves the actor first (most turns do), then whoever its moves name.
            let turns: Vec<Vec<(usize, Pos)>> = moves
                .iter()
                .take(ids.len())
                .map(|m| m.iter().map(|&(who, x, y)| (who % ids.len(), Pos::new(x, y))).collect())
                .collect();
            let mut reference = e.state.clone();
            let expected = group_view_by_turns(&mut reference, &ids, &turns);
            let mut state = e.state.clone();
            let group: Vec<(u32, CombatantId)> = ids.iter().map(|&id| (0, id)).collect();
            let mut view = GroupView::new(&state, &group);
            let (mut seen, mut sent_back) = (Vec::new(), Vec::new());
            for (k, &actor) in ids.iter().enumerate() {
                view.prepare(&mut state, actor);
                seen.push(ids.iter().map(|&id| state.f(id).pos).collect::<Vec<Pos>>());
                for &(who, to) in &turns[k] {
                    state.set_square(ids[who], to);
                }
                sent_back.push(view.settle(&mut state, actor));
            }
            view.reveal(&mut state);
            let end: Vec<Pos> = ids.iter().map(|&id| state.f(id).pos).collect();
            proptest::prop_assert_eq!((seen, sent_back, end), expected);
            // The index agrees with the fighters' squares.
            for &id in &ids {
                proptest::prop_assert_eq!(state.occupancy.square_of(id), state.f(id).pos);
            }
        }
    }
}
