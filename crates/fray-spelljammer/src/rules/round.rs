//! The round (spec §1): declarations, an initiative for every attack with the shrinking dice,
//! then the segment count from the highest initiative down to −5 — pre-movement actions,
//! movement between segments 10 and 1 (10% per segment, before that segment's actions), and
//! post-movement actions — and the end of the round (stun ends, stuck missiles bleed).
//!
//! Segments are this ruleset's own clock; the core only sees rolls, choices and events.

use super::movement;
use super::strike::{self, Blow, Mods};
use super::tables;
use crate::choice::{Declaration, Draw, Intent, Movement};
use crate::content::SpellKind;
use crate::state::{ActionKind, Asking, AtSegmentStart, Casting, MovePlan, Plan, Scheduled};
use crate::{Choice, Spelljammer, State};
use fray_core::event::{Event, Modifier, Subject};
use fray_core::protocol::{RollPurpose, RollRequest};
use fray_core::ranked::RankedDie;
use fray_core::{CombatantId, Interrupt, Table};

type T<'a, 'b> = &'a mut Table<'b, Spelljammer>;

/// Most attacks a combatant has in a round (the encounter loader's limit on `attacks`).
const MAX_ATTACKS: usize = 5;

/// Before round 1: an ambush's PER rolls, the warning, and the ambushers' surprise round.
/// [Seed: Ambush] SJ-R14, SJ-A14
pub fn begin(state: &mut State, table: T<'_, '_>) -> Result<(), Interrupt> {
    state.round = 0;
    let Some(ambush) = state.ambush.clone() else {
        return Ok(());
    };
    let mut results = Vec::new();
    for id in (0..state.fighters.len() as u16).map(CombatantId) {
        if state.f(id).side == ambush.by || !state.f(id).is_up() {
            continue;
        }
        let raw = table.roll_dice(1, 100, Some(id), RollPurpose::Surprise, "SJ-R14.1")?;
        let (roll, _) = strike::ladder_roll(state, id, raw);
        let step = tables::ladder(roll, state.p(id).per, 4);
        table.emit(|| {
            let per = state.p(id).per;
            strike::ladder_check(
                state,
                id,
                "ambush",
                raw,
                ("PER", per),
                None,
                ladder_text(step),
                "SJ-R14.1",
            )
        });
        results.push(crate::state::AmbushResult { who: id, step });
    }
    // A 1× result shouts a warning: every other member of its side moves one step up (SJ-A14).
    let warned: Vec<_> = results
        .iter()
        .filter(|r| r.step == 1)
        .map(|r| (r.who, state.f(r.who).side))
        .collect();
    for r in results.iter_mut() {
        let side = state.f(r.who).side;
        if let Some((by, _)) = warned.iter().find(|(w, s)| *s == side && *w != r.who) {
            if r.step > 1 {
                r.step -= 1;
                let (who, step, by) = (r.who, r.step, *by);
                table.emit(|| Event::Acted {
                    who: by,
                    act: "shouts a warning to",
                    on: Some(who),
                    detail: format!("it counts as {}", ladder_text(step)),
                    rule: "SJ-R14.1",
                });
            }
        }
    }
    state.ambush_results = results;
    round_body(state, table)
}

fn ladder_text(step: u8) -> String {
    if step >= 5 {
        "5× PER or worse".into()
    } else {
        format!("{step}× PER")
    }
}

/// One round. [Seed: Action Declaration; The Initiative Round] spec §1
pub fn play_round(state: &mut State, table: T<'_, '_>) -> Result<(), Interrupt> {
    state.round = table.round();
    round_body(state, table)
}

/// The round from where `state` stands to its next settled point (after the declarations and
/// initiatives, SJ-R1, R2, and after each action of a segment, SJ-R3), or to the round's end:
/// true when the round is over (`Ruleset::round_step`; the round is these steps one after
/// another). After the initiatives no segment has begun (`State::paused` is the segment above
/// the first, `segment_start` is empty). After an action nothing of the round is on the stack: the declarations,
/// initiatives, schedule and movement plans are in the state; the segment being resolved is
/// `State::paused`, with how everyone stood when it began (`segment_start`, SJ-A11) and the
/// actions it has left, each with whether it could act then (`acts_left`); the part of the
/// schedule already resolved is every action at or above that segment (an action deferred
/// goes to a lower one), and the segment's heading is out (it is shown before any action). So
/// the state alone says how the round goes on, and exact odds may merge equal states there.
///
/// What the next round forgets before reading it ([`clear_round`]: stun, plans, schedule) is
/// forgotten at a round's end by exact odds' key (`super::odds_key::odds_key`), not here:
/// stepping to a round's end is [`play_round`].
pub fn round_step(state: &mut State, table: T<'_, '_>) -> Result<bool, Interrupt> {
    if state.paused.is_none() {
        state.round = table.round();
    }
    body_step(state, table)
}

fn round_body(state: &mut State, table: T<'_, '_>) -> Result<(), Interrupt> {
    while !body_step(state, table)? {}
    Ok(())
}

/// [`round_step`] without setting the round (the ambush's surprise round is round 0).
fn body_step(state: &mut State, table: T<'_, '_>) -> Result<bool, Interrupt> {
    let from = match state.paused.take() {
        Some(segment) => {
            // Paused after an action: the segment's other actions first (its heading is out).
            if !state.segment_start.is_empty() {
                let mut header = SegmentHeader {
                    segment,
                    shown: true,
                };
                if take_acts(state, table, &mut header)? {
                    state.paused = Some(segment);
                    return Ok(false);
                }
            }
            segment - 1
        }
        None => {
            // A settled point after the declarations and initiatives (SJ-R1, R2): the schedule
            // and the plans are in the state, no segment has begun (`segment_start` is empty),
            // so the round goes on from the segment below the pause.
            round_start(state, table)?;
            let top = state.schedule.first().map_or(10, |s| s.segment.max(10));
            state.paused = Some(top + 1);
            return Ok(false);
        }
    };
    if let Some(segment) = segments(state, table, from)? {
        state.paused = Some(segment);
        return Ok(false);
    }
    table.emit(|| Event::SegmentsOver);
    end_of_round(state, table)?;
    Ok(true)
}

/// Forgets the last round's stun, plans and schedule, as a round begins. Nothing reads them
/// before: the round starts here.
pub(crate) fn clear_round(state: &mut State) {
    for f in state.fighters.iter_mut() {
        f.stunned = false;
        f.plan = Plan::default();
    }
    state.schedule.clear();
    state.segment = 11;
}

/// The round up to its segments: declarations, initiatives, the schedule.
fn round_start(state: &mut State, table: T<'_, '_>) -> Result<(), Interrupt> {
    clear_round(state);
    hit_point_adjustments(state, table)?;
    declarations(state, table)?;
    if let Some(dice) = ranked_initiatives(state) {
        // Only the order of these totals is read this round: exact odds branch once per order
        // ([`Table::roll_ranked`]); play rolls them one by one as the loop below does.
        table.roll_ranked(&dice, |table, i, roll| {
            let id = dice[i]
                .request
                .who
                .expect("an initiative die has its roller");
            let (mods, bonus) = initiative_bonus(state, table, id);
            place_attacks(
                state,
                table,
                id,
                &mods,
                bonus,
                &[(dice[i].request.sides, roll)],
            );
            plan_movement(state, id);
            Ok(())
        })?;
    } else {
        for id in (0..state.fighters.len() as u16).map(CombatantId) {
            if state.f(id).is_up() {
                initiative(state, table, id)?;
                plan_movement(state, id);
            }
        }
    }
    // By segment; on one segment, free actions first (the earliest possible moment, SJ-R17.7).
    state
        .schedule
        .sort_by_key(|s| (std::cmp::Reverse(s.segment), s.kind != ActionKind::Free));
    Ok(())
}

/// The GM's hit-point adjustments that take effect this round (SJ-G15): a gain heals (up to the
/// starting hit points, and brings a downed combatant back above 0), a loss is damage without a
/// hit (no stun, no interruption).
fn hit_point_adjustments(state: &mut State, table: T<'_, '_>) -> Result<(), Interrupt> {
    let now: Vec<(CombatantId, i32, String)> = state
        .overrides
        .iter()
        .filter(|o| o.hp != 0 && o.from_round == state.round)
        .map(|o| (o.who, o.hp, o.reason.clone()))
        .collect();
    for (who, hp, reason) in now {
        if state.f(who).dead || state.f(who).gone.is_some() {
            continue;
        }
        table.emit(|| Event::Ruling {
            rule: "SJ-G15",
            text: format!(
                "GM adjustment: {} {} {} hp ({reason})",
                state.roster.name(who),
                if hp < 0 { "loses" } else { "gains" },
                hp.abs()
            ),
        });
        if hp < 0 {
            strike::apply_damage(
                state,
                table,
                who,
                who,
                -hp,
                false,
                -hp,
                Vec::new(),
                "SJ-G15",
            )?;
        } else {
            let max = state.p(who).max_hp;
            let f = state.f_mut(who);
            let amount = hp.min((max - f.hp).max(0));
            f.hp += amount;
            if f.hp > 0 {
                f.down = false;
            }
            let now_hp = f.hp;
            table.emit(|| Event::Healed {
                who,
                amount,
                hp: now_hp,
                rule: "SJ-G15",
            });
        }
    }
    Ok(())
}

/// The GM forces combatants to move on this segment (SJ-R5.3). A combatant that declared "no
/// movement" then loses its remaining actions, must make a 2× DEX roll or fall down, and its
/// spell being cast is interrupted.
fn forced_moves(state: &mut State, table: T<'_, '_>, segment: i32) -> Result<(), Interrupt> {
    let now: Vec<(CombatantId, fray_core::Pos, String)> = state
        .forced_moves
        .iter()
        .filter(|m| m.round == state.round && m.segment == segment)
        .map(|m| (m.who, m.to, m.reason.clone()))
        .collect();
    for (who, to, reason) in now {
        if !state.f(who).is_up() {
            continue;
        }
        table.emit(|| Event::Ruling {
            rule: "SJ-R5.3",
            text: format!("the GM forces {} to move: {reason}", state.roster.name(who)),
        });
        if !movement::free(state, to, who) {
            table.emit(|| Event::Forgone {
                who,
                what: "forced move",
                on: None,
                reason: format!("the square ({}, {}) is taken", to.x, to.y),
                rule: "SJ-R5.3",
            });
            continue;
        }
        let from = state.f(who).pos;
        state.set_square(who, to);
        let feet = from.feet_to(to);
        table.emit(|| Event::Moved {
            who,
            from,
            to,
            feet,
            mode: "forced",
            hidden: state.f(who).invisible,
            rule: "SJ-R5.3",
        });
        if state.f(who).plan.declaration.movement != Movement::NoMovement {
            continue;
        }
        state.f_mut(who).plan.actions_lost = true;
        table.emit(|| Event::Forgone {
            who,
            what: "remaining actions",
            on: None,
            reason: "it declared no movement and was moved".into(),
            rule: "SJ-R5.3",
        });
        let dex = effective_dex(state, who);
        let raw = table.roll_dice(1, 100, Some(who), RollPurpose::Check, "SJ-R5.3")?;
        let (roll, _) = strike::ladder_roll(state, who, raw);
        let keeps_feet = tables::ladder(roll, dex, 2) <= 2;
        table.emit(|| {
            let result = if keeps_feet { "stays up" } else { "falls down" };
            strike::ladder_check(
                state,
                who,
                "footing",
                raw,
                ("2× DEX", 2 * dex),
                Some(keeps_feet),
                result.into(),
                "SJ-R5.3",
            )
        });
        if !keeps_feet {
            table.emit(|| Event::Condition {
                who,
                condition: "fallen down",
                gained: true,
                rule: "SJ-R5.3",
            });
        }
        strike::interrupt(state, table, who, "SJ-R5.3")?;
    }
    Ok(())
}

/// The ambush step of a target in the surprise round, if it is one.
fn ambush_step(state: &State, id: CombatantId) -> Option<u8> {
    if state.round != 0 {
        return None;
    }
    state
        .ambush_results
        .iter()
        .find(|r| r.who == id)
        .map(|r| r.step)
}

/// Every combatant able to act declares (SJ-R1.1). A caster whose spell carries over from last
/// round is still casting: that is its action.
fn declarations(state: &mut State, table: T<'_, '_>) -> Result<(), Interrupt> {
    for id in (0..state.fighters.len() as u16).map(CombatantId) {
        if !state.f(id).is_up() {
            continue;
        }
        if ambush_step(state, id).is_some_and(|s| s >= 3) {
            table.emit(|| Event::Skipped {
                who: id,
                reason: "surprised by the ambush",
                rule: "SJ-R14.2",
            });
            continue;
        }
        if let Some(c) = state.f(id).casting.filter(|c| c.off_round < state.round) {
            // A spell whose moment passed without going off (it can only have been skipped) is
            // gone; the caster declares again.
            state.f_mut(id).casting = None;
            let name = state
                .p(id)
                .spells
                .get(c.spell as usize)
                .map_or_else(String::new, |s| s.def.name.clone());
            table.emit(|| Event::Casting {
                who: id,
                spell: name.clone(),
                on: Some(c.target),
                stage: "loses",
                detail: format!(
                    "it did not go off on segment {} of round {}",
                    c.off_segment, c.off_round
                ),
                rule: "SJ-R1.3",
            });
        }
        if let Some(c) = state.f(id).casting {
            table.emit(|| Event::Casting {
                who: id,
                spell: state
                    .p(id)
                    .spells
                    .get(c.spell as usize)
                    .map_or_else(String::new, |s| s.def.name.clone()),
                on: Some(c.target),
                stage: "continues",
                detail: format!("it goes off on segment {}", c.off_segment),
                rule: "SJ-R15.4",
            });
            if c.off_round == state.round {
                state.schedule.push(Scheduled {
                    who: id,
                    segment: c.off_segment,
                    kind: ActionKind::SpellOff,
                });
            }
            state.f_mut(id).held = false;
            continue;
        }
        let choice = super::ask(state, table, Asking::Declaration(id), "SJ-R1.1")?;
        let Choice::Declare(d) = choice else {
            continue;
        };
        if table.events_enabled() {
            let text = crate::choice::text(state, &choice);
            table.emit(|| Event::Declared {
                who: id,
                declaration: text,
                rule: "SJ-R1.1",
            });
        }
        accept_declaration(state, id, d);
    }
    Ok(())
}

/// What a declaration sets up at once: targets and defensive bonuses.
fn accept_declaration(state: &mut State, id: CombatantId, d: Declaration) {
    let rank = state.p(id).weapon_rank;
    let plan = &mut state.f_mut(id).plan;
    plan.declaration = d;
    plan.target = match d.intent {
        Intent::Attack(t) | Intent::Shoot(t) | Intent::Move(t) | Intent::Run(t) => Some(t),
        Intent::Cast { target, .. } => Some(target),
        _ => None,
    };
    match d.intent {
        Intent::FullDefense => plan.def_bonus = tables::full_defense_bonus(rank),
        Intent::DesperateDefense => plan.def_bonus = tables::desperate_defense_bonus(rank),
        _ => {
            let s = i32::from(d.defending);
            plan.sc_penalty = s;
            plan.def_bonus = tables::defending_bonus(s);
        }
    }
    plan.picking_up = d.intent == Intent::PickUp;
    // A shield declared readied is not in hand yet: that takes half a round (`ready_shields`).
}

/// Segment on which a shield readied this round is in hand: readying "takes half a round", and
/// the seed gives no segment; fray counts half of the ten segments from 10, so the shield guards
/// from segment 5 on (docs/spelljammer.md). [Seed: Ready Shield] SJ-R17.5
pub const SHIELD_READY_SEGMENT: i32 = 5;

/// Shields declared readied this round come to hand once half the round has passed.
/// [Seed: Ready Shield] SJ-R17.5
fn ready_shields(state: &mut State, table: T<'_, '_>, header: &mut SegmentHeader) {
    if state.segment > SHIELD_READY_SEGMENT {
        return;
    }
    for id in (0..state.fighters.len() as u16).map(CombatantId) {
        let f = state.f(id);
        if f.plan.declaration.ready_shield && f.shield_slung && f.is_up() {
            state.f_mut(id).shield_slung = false;
            header.show(table);
            table.emit(|| Event::Condition {
                who: id,
                condition: "shield ready",
                gained: true,
                rule: "SJ-R17.5",
            });
        }
    }
}

/// The initiative modifiers that apply to all of a combatant's rolls this round
/// (SJ-R2.6, SJ-A23), and how many "−5 actions" it took (two cost an action, SJ-R17.4).
fn initiative_modifiers(state: &State, id: CombatantId, out: &mut Mods) -> i32 {
    let d = state.f(id).plan.declaration;
    out.add("DEX", "SJ-R2.2", state.p(id).dex_mod);
    out.add(
        "stuck missile (DEX)",
        "SJ-R23.6",
        strike::stuck_dex_loss(state, id, state.p(id).dex_mod),
    );
    let mut fives = 0;
    match d.movement {
        Movement::NoMovement => out.add("no movement", "SJ-R5.1", 3),
        Movement::MoveAttack => {
            out.add("move and attack", "SJ-R17.1", -5);
            fives += 1;
        }
        Movement::RunAttack => out.add("run and attack", "SJ-R17.3", -7),
        Movement::Stand | Movement::AttackMove => {}
    }
    match d.draw {
        Draw::None => {}
        Draw::Draw => {
            out.add("draw weapon", "SJ-R17.4", -5);
            fives += 1;
        }
        Draw::SheatheDraw => {
            out.add("sheathe and draw", "SJ-R17.4", -10);
            fives += 2;
        }
    }
    for o in state
        .overrides
        .iter()
        .filter(|o| o.who == id && state.round >= o.from_round && state.round <= o.to_round)
    {
        out.add("GM adjustment", "SJ-G15", o.initiative);
    }
    fives
}

/// How many attacks a combatant keeps this round after its declared extras.
/// [Seed: Combining Actions] SJ-R17, SJ-R23.2, SJ-A14, SJ-A21
pub fn attacks_kept(state: &State, id: CombatantId, fives: i32) -> (u8, Vec<&'static str>) {
    let d = state.f(id).plan.declaration;
    let mut n = state.p(id).attacks;
    let mut why = Vec::new();
    if let Some(step) = ambush_step(state, id) {
        n = tables::ambush_attacks_allowed(step, n);
    }
    match d.movement {
        Movement::MoveAttack => n = tables::attacks_move_attack(n),
        Movement::RunAttack => n = tables::attacks_run_attack(n),
        _ => {}
    }
    if d.ready_shield {
        n = tables::attacks_half_round(n);
        why.push("readying a shield (SJ-R17.5)");
    }
    // A potion costs half the attacks unless the drinker pays with half its movement.
    // [Seed: Drink Potion] SJ-R17.6
    if d.potion && !d.potion_move {
        n = tables::attacks_half_round(n);
        why.push("drinking a potion (SJ-R17.6)");
    }
    if fives >= 2 {
        n = n.saturating_sub((fives - 1) as u8);
        why.push("two actions at −5 initiative (SJ-R17.4)");
    }
    if d.aim && matches!(d.intent, Intent::Shoot(_)) {
        n = n.saturating_sub(1);
        why.push("taking careful aim (SJ-R23.2)");
    }
    if d.free > 1 {
        n = n.saturating_sub(d.free - 1);
        why.push("extra free actions (SJ-R17.7)");
    }
    (n, why)
}

/// Rolls the initiatives of one combatant's actions and puts them on the schedule.
/// [Seed: Initiative; In a Nutshell] SJ-R2, SJ-R4, SJ-R15
fn initiative(state: &mut State, table: T<'_, '_>, id: CombatantId) -> Result<(), Interrupt> {
    let d = state.f(id).plan.declaration;
    if d == Declaration::default() {
        return Ok(());
    }
    let fives = initiative_modifiers(state, id, &mut Mods::recording(false));
    let (mods, bonus) = initiative_bonus(state, table, id);
    // The die chain counts attacks ("1d10 for the first attack, 1d8 for the second"): a potion
    // drunk beside them rolls its own d10 and leaves the chain alone. [Seed: Initiative] SJ-R2.3
    let die_index = 0usize;
    if d.potion {
        let at = roll_initiative(state, table, id, 0, &mods, bonus, || "potion".into())?;
        if !tables::is_lost(at) {
            state.schedule.push(Scheduled {
                who: id,
                segment: at,
                kind: ActionKind::Potion,
            });
        }
    }
    match d.intent {
        Intent::Attack(_) | Intent::Shoot(_) => {
            let (n, why) = attacks_kept(state, id, fives);
            if !why.is_empty() || n < state.p(id).attacks {
                let normal = state.p(id).attacks;
                table.emit(|| Event::Acted {
                    who: id,
                    act: "attacks fewer times",
                    on: None,
                    detail: format!(
                        "{n} of {normal} attacks this round{}{}",
                        if why.is_empty() { "" } else { ": " },
                        why.join(", ")
                    ),
                    rule: "SJ-R17",
                });
            }
            if n == 0 && d.aim {
                state.f_mut(id).plan.aim_only = true;
                table.emit(|| Event::Acted {
                    who: id,
                    act: "aims",
                    on: None,
                    detail: "its first shot next round gets +15 if it stays still".into(),
                    rule: "SJ-A21",
                });
            }
            // At most 5 attacks a round (a content limit): fixed arrays, no allocation.
            let count = usize::from(n).min(MAX_ATTACKS);
            let mut rolls = [(0u16, 0u32); MAX_ATTACKS];
            for (i, rolled) in rolls[..count].iter_mut().enumerate() {
                let die = tables::initiative_die(&state.options.die_chain, die_index + i);
                let roll =
                    table.roll_dice(1, die, Some(id), RollPurpose::Initiative, rule_of(i))?;
                *rolled = (die, roll);
            }
            place_attacks(state, table, id, &mods, bonus, &rolls[..count]);
        }
        Intent::Cast { spell, target } => {
            cast(state, table, id, spell, target, die_index, &mods, bonus)?
        }
        Intent::PickUp => pick_up(state, table, id, die_index, &mods, bonus)?,
        Intent::FirstAid(_) => {
            let at = roll_initiative(state, table, id, die_index, &mods, bonus, || {
                "first aid".into()
            })?;
            if tables::is_lost(at) {
                table.emit(|| Event::Skipped {
                    who: id,
                    reason: "first aid lost: initiative −6 or later",
                    rule: "SJ-R2.5",
                });
            } else {
                state.schedule.push(Scheduled {
                    who: id,
                    segment: at,
                    kind: ActionKind::FirstAid,
                });
            }
        }
        _ => {}
    }
    if d.free > 0 {
        schedule_free_actions(state, table, id, &mods, bonus)?;
    }
    Ok(())
}

/// The rule of the initiative die of a combatant's `n`-th (0-based) attack: the first d10, or
/// the die chain after it. [Seed: Initiative] SJ-R2.2, SJ-R2.3
fn rule_of(n: usize) -> &'static str {
    if n == 0 {
        "SJ-R2.2"
    } else {
        "SJ-R2.3"
    }
}

/// The modifiers of a combatant's initiative rolls this round (listed where events are kept)
/// and their total. [Seed: Initiative] SJ-R2.6, SJ-A23
fn initiative_bonus(state: &State, table: T<'_, '_>, id: CombatantId) -> (Vec<Modifier>, i32) {
    let mut modifiers = Mods::recording(table.events_enabled());
    initiative_modifiers(state, id, &mut modifiers);
    let bonus = modifiers.total();
    (modifiers.into_vec(), bonus)
}

/// Puts a combatant's attacks on the schedule from their initiative dice `rolls` (die, face),
/// in attack order: each its face plus `bonus`, its own ties moved later (SJ-R2.4), one at
/// −6 or later lost (SJ-R2.5). [Seed: Initiative] SJ-R2.2–R2.5
fn place_attacks(
    state: &mut State,
    table: T<'_, '_>,
    id: CombatantId,
    mods: &[Modifier],
    bonus: i32,
    rolls: &[(u16, u32)],
) {
    let ranged = matches!(state.f(id).plan.declaration.intent, Intent::Shoot(_));
    let count = rolls.len().min(MAX_ATTACKS);
    let mut inits = [0i32; MAX_ATTACKS];
    for (init, &(_, roll)) in inits.iter_mut().zip(&rolls[..count]) {
        *init = roll as i32 + bonus;
    }
    let raw = inits;
    tables::separate_own_ties(&mut inits[..count]);
    for (i, &at) in inits[..count].iter().enumerate() {
        let (die, roll) = rolls[i];
        if table.events_enabled() {
            let mut list = mods.to_vec();
            if at != raw[i] {
                list.push(Modifier::new(
                    "same as own earlier attack",
                    "SJ-R2.4",
                    at - raw[i],
                ));
            }
            table.emit(|| Event::ActionInitiative {
                who: id,
                action: format!("attack {}", i + 1),
                die,
                roll,
                modifiers: list,
                total: at,
                rule: rule_of(i),
            });
        }
        if tables::is_lost(at) {
            table.emit(|| Event::Skipped {
                who: id,
                reason: "attack lost: initiative −6 or later",
                rule: "SJ-R2.5",
            });
            continue;
        }
        state.f_mut(id).plan.attacks_planned += 1;
        state.schedule.push(Scheduled {
            who: id,
            segment: at,
            kind: ActionKind::Attack { n: i as u8, ranged },
        });
    }
}

/// The round's initiative dice, one a combatant, when the rules will read only the order of
/// their totals (each its d10 plus the roller's modifiers) this round, so that exact odds may
/// branch once per order ([`Table::roll_ranked`]); `None` otherwise (each is rolled as
/// [`initiative`] rolls it). That holds where [`super::odds_key`] ranks the segments all round
/// long (its proof: the segments are read as numbers only by movement, forced moves, spells,
/// a shield readied on segment 5 and the log's headings, otherwise only by their order,
/// SJ-R3, SJ-A11): every combatant up declares an attack or a shot and keeps exactly one, with
/// nothing beside it (no potion, free action or aim, nothing that halves or costs its attacks,
/// so nothing is announced before its die) and standing still; nobody casts, knows a spell or
/// readies a shield; no forced move and no ambush (all fixed for the round by the file and the
/// declarations). And no face loses its attack (a total of −6 or later, SJ-R2.5, reads the
/// value): the lowest face plus the modifiers is above it. A single die has no ties of its own
/// to separate (SJ-R2.4). The schedule and plans are cleared as the next round begins
/// (`clear_round`), so the values are forgotten with the round. [Seed: Initiative] SJ-R2
fn ranked_initiatives(state: &State) -> Option<Vec<RankedDie>> {
    if state.ambush.is_some()
        || !state.forced_moves.is_empty()
        || state.profiles.iter().any(|p| !p.spells.is_empty())
    {
        return None;
    }
    let mut dice = Vec::new();
    for id in (0..state.fighters.len() as u16).map(CombatantId) {
        let f = state.f(id);
        if !f.is_up() {
            continue;
        }
        let d = f.plan.declaration;
        let mut modifiers = Mods::recording(false);
        let fives = initiative_modifiers(state, id, &mut modifiers);
        let (kept, why) = attacks_kept(state, id, fives);
        let plain = matches!(d.intent, Intent::Attack(_) | Intent::Shoot(_))
            && matches!(d.movement, Movement::Stand | Movement::NoMovement)
            && !d.potion
            && !d.aim
            && !d.ready_shield
            && d.free == 0
            && f.casting.is_none()
            && kept == 1
            && state.p(id).attacks == 1
            && why.is_empty();
        if !plain {
            return None;
        }
        let modifier = modifiers.total();
        let sides = tables::initiative_die(&state.options.die_chain, 0);
        if tables::is_lost(1 + modifier) {
            return None;
        }
        dice.push(RankedDie {
            request: RollRequest::new(1, sides, Some(id), RollPurpose::Initiative, rule_of(0)),
            modifier,
        });
    }
    Some(dice)
}

/// Free actions happen at the combatant's earliest initiative this round: its highest scheduled
/// action or the start of its casting, else an initiative rolled for them on the next die of the
/// chain. [Seed: Free Actions] SJ-R17.7
fn schedule_free_actions(
    state: &mut State,
    table: T<'_, '_>,
    id: CombatantId,
    mods: &[Modifier],
    bonus: i32,
) -> Result<(), Interrupt> {
    let round = state.round;
    let casting_start = state
        .f(id)
        .casting
        .filter(|c| c.from_round == round)
        .map(|c| c.from_segment);
    let earliest = state
        .schedule
        .iter()
        .filter(|s| s.who == id)
        .map(|s| s.segment)
        .chain(casting_start)
        .max();
    let at = match earliest {
        Some(at) => at,
        None => roll_initiative(state, table, id, 0, mods, bonus, || "free action".into())?,
    };
    if tables::is_lost(at) {
        table.emit(|| Event::Skipped {
            who: id,
            reason: "free action lost: initiative −6 or later",
            rule: "SJ-R2.5",
        });
        return Ok(());
    }
    state.schedule.push(Scheduled {
        who: id,
        segment: at,
        kind: ActionKind::Free,
    });
    Ok(())
}

fn roll_initiative(
    state: &State,
    table: T<'_, '_>,
    id: CombatantId,
    die_index: usize,
    mods: &[Modifier],
    bonus: i32,
    action: impl FnOnce() -> String,
) -> Result<i32, Interrupt> {
    let die = tables::initiative_die(&state.options.die_chain, die_index);
    let rule = if die_index == 0 { "SJ-R2.2" } else { "SJ-R2.3" };
    let roll = table.roll_dice(1, die, Some(id), RollPurpose::Initiative, rule)?;
    let total = roll as i32 + bonus;
    table.emit(|| Event::ActionInitiative {
        who: id,
        action: action(),
        die,
        roll,
        modifiers: mods.to_vec(),
        total,
        rule,
    });
    Ok(total)
}

/// Casting a spell: it starts on the rolled initiative and goes off a casting time later; too
/// late for this round, it starts on 10 next round; a 1-round spell must start on 10.
/// [Seed: The Initiative Round; Casting Cleric/Mage Spells] SJ-R4, SJ-R15, SJ-A12
#[allow(clippy::too_many_arguments)]
fn cast(
    state: &mut State,
    table: T<'_, '_>,
    id: CombatantId,
    spell: u8,
    target: CombatantId,
    die_index: usize,
    mods: &[Modifier],
    bonus: i32,
) -> Result<(), Interrupt> {
    let Some(s) = state.p(id).spells.get(spell as usize) else {
        return Ok(());
    };
    let one_round = state.options.one_round_cast;
    let whole_round = matches!(s.def.kind, SpellKind::Cleric { time } if time >= one_round);
    let time = if whole_round {
        one_round
    } else {
        tables::casting_time(s.def.kind, s.rank)
    };
    let name = s.def.name.clone();
    let round = state.round;
    let start = if whole_round && state.f(id).held {
        table.emit(|| Event::Casting {
            who: id,
            spell: name.clone(),
            on: Some(target),
            stage: "prepares",
            detail: "it held its action: casting starts on 10".into(),
            rule: "SJ-R4.2",
        });
        Some(10)
    } else {
        let at = roll_initiative(state, table, id, die_index, mods, bonus, || {
            format!("cast {name}")
        })?;
        if whole_round {
            (at >= 10).then_some(10)
        } else {
            Some(at)
        }
    };
    let casting = match start {
        Some(from) if !tables::is_lost(from - time) => Casting {
            spell,
            target,
            off_round: round,
            off_segment: from - time,
            from_round: round,
            from_segment: from,
        },
        _ => {
            table.emit(|| Event::Casting {
                who: id,
                spell: name.clone(),
                on: Some(target),
                stage: "postpones",
                detail: format!(
                    "casting time {time}: it cannot go off this round; casting starts on 10 next \
                     round"
                ),
                rule: "SJ-R4.1",
            });
            Casting {
                spell,
                target,
                off_round: round + 1,
                off_segment: 10 - time,
                from_round: round + 1,
                from_segment: 10,
            }
        }
    };
    if casting.off_round == round {
        table.emit(|| Event::Casting {
            who: id,
            spell: name.clone(),
            on: Some(target),
            stage: "begins",
            detail: format!(
                "from segment {} (casting time {time}); it goes off on {}",
                casting.from_segment, casting.off_segment
            ),
            rule: "SJ-R15.1",
        });
        state.schedule.push(Scheduled {
            who: id,
            segment: casting.off_segment,
            kind: ActionKind::SpellOff,
        });
    }
    state.f_mut(id).casting = Some(casting);
    Ok(())
}

/// Picking up a dropped weapon: a 4× DEX roll retrieves it; 1× also allows one attack at −5
/// initiative. [Seed: Picking Up a Dropped Weapon] SJ-R21
fn pick_up(
    state: &mut State,
    table: T<'_, '_>,
    id: CombatantId,
    die_index: usize,
    mods: &[Modifier],
    bonus: i32,
) -> Result<(), Interrupt> {
    let dex = effective_dex(state, id);
    let raw = table.roll_dice(1, 100, Some(id), RollPurpose::Check, "SJ-R21.1")?;
    let (roll, _) = strike::ladder_roll(state, id, raw);
    let step = tables::ladder(roll, dex, 4);
    let result = tables::pick_up_result(step);
    table.emit(|| {
        let words = match result {
            tables::PickUp::RetrievedWithAttack => "1×: retrieved, one attack at −5",
            tables::PickUp::Retrieved => "retrieved, no attack this round",
            tables::PickUp::NotRetrieved => "not retrieved",
        };
        let success = Some(result != tables::PickUp::NotRetrieved);
        strike::ladder_check(
            state,
            id,
            "weapon pick-up",
            raw,
            ("DEX", dex),
            success,
            words.into(),
            "SJ-R21.3",
        )
    });
    if result != tables::PickUp::NotRetrieved {
        state.f_mut(id).weapon_dropped = false;
    }
    if result == tables::PickUp::RetrievedWithAttack {
        let mut list = mods.to_vec();
        list.push(Modifier::new("after picking up", "SJ-R21.2", -5));
        let at = roll_initiative(state, table, id, die_index, &list, bonus - 5, || {
            "attack 1".into()
        })?;
        if !tables::is_lost(at) {
            let target = movement::nearest_foe(state, id);
            let f = state.f_mut(id);
            f.plan.target = target;
            f.plan.attacks_planned = 1;
            state.schedule.push(Scheduled {
                who: id,
                segment: at,
                kind: ActionKind::Attack {
                    n: 0,
                    ranged: false,
                },
            });
        }
    }
    Ok(())
}

/// DEX for DEX rolls, less stuck-missile penalties (SJ-R23.6).
fn effective_dex(state: &State, id: CombatantId) -> i32 {
    let penalty: i32 = state
        .f(id)
        .stuck
        .iter()
        .map(|s| tables::stuck_effect(s.missile, s.grievous).0)
        .sum();
    (state.p(id).dex + penalty).max(0)
}

/// Tactical movement after wound modifiers (SJ-R12.1, SJ-A7).
fn tmr(state: &State, id: CombatantId) -> i32 {
    tables::wounded_tmr(
        state.p(id).tmr,
        strike::wound_modifier(state, id),
        state.options.tmr_percent,
    )
}

/// The round's movement from the declaration: spread over segments 10…1, 10% per segment.
/// [Seed: The Initiative Round; Combining Actions] SJ-R3.1, SJ-R17
fn plan_movement(state: &mut State, id: CombatantId) {
    let d = state.f(id).plan.declaration;
    let tmr = tmr(state, id);
    let (feet, away, pace) = match (d.intent, d.movement) {
        (Intent::Attack(_) | Intent::Shoot(_), Movement::MoveAttack) => (tmr / 2, false, 1),
        (Intent::Attack(_) | Intent::Shoot(_), Movement::RunAttack) => (tmr, false, 2),
        (Intent::Move(_), _) => (tmr, false, 1),
        (Intent::Run(_), _) => (2 * tmr, false, 2),
        (Intent::Withdraw, _) => (tmr, true, 1),
        _ => return,
    };
    // A potion paid with movement halves it (SJ-R17.6): always for a drinker that makes no
    // attack, and for an attacker that declared `potion-move`.
    let attacking = matches!(d.intent, Intent::Attack(_) | Intent::Shoot(_));
    let feet = if d.potion && (d.potion_move || !attacking) {
        feet / 2
    } else {
        feet
    };
    if feet < 5 {
        return;
    }
    state.f_mut(id).plan.movement = Some(MovePlan {
        feet_left: feet,
        banked: 0,
        per_segment: feet,
        from_segment: 10,
        to_segment: 1,
        away,
        pace,
    });
}

/// Counts down the segments from `top`, up to the end of the first on which something happens
/// (returned: the round pauses there, [`round_step`]) or the last. [Seed: The Initiative Round]
/// SJ-R3
fn segments(state: &mut State, table: T<'_, '_>, top: i32) -> Result<Option<i32>, Interrupt> {
    // The schedule is in falling segment order, and an action deferred on a segment goes to a
    // lower one: every action above `top` is resolved, none at or below it.
    let mut next = state
        .schedule
        .iter()
        .take_while(|s| s.segment > top)
        .count();
    for segment in (tables::LAST_SEGMENT..=top).rev() {
        state.segment = segment;
        let forced = state
            .forced_moves
            .iter()
            .any(|m| m.round == state.round && m.segment == segment);
        let moving = (1..=10).contains(&segment)
            && state.fighters.iter().any(|f| {
                f.is_up()
                    && f.plan.movement.is_some_and(|m| {
                        m.feet_left >= 5 && segment <= m.from_segment && segment >= m.to_segment
                    })
            });
        let end = next
            + state.schedule[next..]
                .iter()
                .take_while(|s| s.segment == segment)
                .count();
        let mut header = SegmentHeader {
            segment,
            shown: false,
        };
        ready_shields(state, table, &mut header);
        if !forced && !moving && end == next {
            continue;
        }
        // The GM may step in between the segments on which something happens.
        table.intervention_point(state)?;
        if forced {
            header.show(table);
            forced_moves(state, table, segment)?;
        }
        if moving {
            move_segment(state, table, &mut header)?;
        }
        // Actions on one segment are simultaneous (SJ-A11): whoever could act when the segment
        // began acts, even if felled or stunned by another action of the same segment, and every
        // action sees the combatants as they stood then (`State::segment_start`).
        let mut start = std::mem::take(&mut state.segment_start);
        start.clear();
        start.extend(state.fighters.iter().map(|f| AtSegmentStart {
            hp: f.hp,
            stunned: f.stunned,
            up: f.is_up(),
        }));
        state.segment_start = start;
        // Stun costs the remaining attacks (SJ-R11.1); a spell being cast is lost to it only
        // when stun interrupts spells (SJ-A17), else it still goes off.
        let stun_stops_spells = state.options.stun_interrupts;
        let acts: Vec<(Scheduled, bool)> = state.schedule[next..end]
            .iter()
            .map(|s| {
                let f = state.f(s.who);
                let stunned = f.stunned && (s.kind != ActionKind::SpellOff || stun_stops_spells);
                (*s, f.is_up() && !stunned && !f.plan.actions_lost)
            })
            .collect();
        state.acts_left = acts;
        next = end;
        if take_acts(state, table, &mut header)? {
            return Ok(Some(segment));
        }
    }
    Ok(None)
}

/// Takes the actions of the segment being resolved that are left (`State::acts_left`), in
/// order, up to the first one taken (true: the round pauses after it, a settled point,
/// [`round_step`]); false when none is left and the segment is over. [Seed: The Initiative
/// Round] SJ-R3, SJ-A11
fn take_acts(
    state: &mut State,
    table: T<'_, '_>,
    header: &mut SegmentHeader,
) -> Result<bool, Interrupt> {
    while !state.acts_left.is_empty() {
        let (act, able) = state.acts_left.remove(0);
        if !able {
            let f = state.f(act.who);
            let reason = if f.plan.actions_lost {
                "its actions this round are lost"
            } else if f.stunned {
                "stunned: remaining attacks lost"
            } else {
                continue;
            };
            let rule = if f.plan.actions_lost {
                "SJ-R1.3"
            } else {
                "SJ-R11.1"
            };
            header.show(table);
            table.emit(|| Event::Skipped {
                who: act.who,
                reason,
                rule,
            });
            continue;
        }
        // An attack that only waits again for its mover's arrival leaves no line (and no
        // empty segment heading).
        if let ActionKind::Attack { n, ranged: false } = act.kind {
            if waits_silently(state, act.who, n) {
                defer_until_arrival(state, table, act.who, n);
                continue;
            }
        }
        header.show(table);
        match act.kind {
            ActionKind::Attack { n, ranged } => attack(state, table, act.who, n, ranged)?,
            ActionKind::SpellOff => strike::spell_goes_off(state, table, act.who)?,
            ActionKind::Potion => drink(state, table, act.who)?,
            ActionKind::PickUp => {}
            ActionKind::Free => free_actions(state, table, act.who),
            ActionKind::FirstAid => first_aid(state, table, act.who)?,
        }
        return Ok(true);
    }
    state.segment_start.clear();
    Ok(false)
}

/// A segment's heading in the log, written before the first thing that happens on it, so
/// segments where nothing happens are not logged.
struct SegmentHeader {
    segment: i32,
    shown: bool,
}

impl SegmentHeader {
    fn show(&mut self, table: T<'_, '_>) {
        if !self.shown {
            self.shown = true;
            let (segment, phase) = (self.segment, phase_of(self.segment));
            table.emit(|| Event::Segment { segment, phase });
        }
    }
}

/// The part of the round a segment belongs to (SJ-R3.1).
fn phase_of(segment: i32) -> &'static str {
    match segment {
        s if s > 10 => "pre-movement",
        1..=10 => "movement",
        _ => "post-movement",
    }
}

/// Movers take this segment's share of their movement (SJ-R3.1, SJ-A10). A withdrawal draws
/// free attacks when it begins (SJ-R22).
fn move_segment(
    state: &mut State,
    table: T<'_, '_>,
    header: &mut SegmentHeader,
) -> Result<(), Interrupt> {
    let segment = header.segment;
    for id in (0..state.fighters.len() as u16).map(CombatantId) {
        let Some(mut mv) = state.f(id).plan.movement else {
            continue;
        };
        if !state.f(id).is_up()
            || mv.feet_left < 5
            || segment > mv.from_segment
            || segment < mv.to_segment
        {
            continue;
        }
        if mv.away && segment == mv.from_segment && state.in_melee(id) {
            header.show(table);
            free_attacks(state, table, id)?;
            if !state.f(id).is_up() {
                continue;
            }
        }
        mv.banked += mv.per_segment;
        let from = state.f(id).pos;
        let mut moved = 0;
        while mv.banked >= 50 && mv.feet_left >= 5 {
            let next = if mv.away {
                movement::step_away(state, id)
            } else {
                let target = state.f(id).plan.target.filter(|&t| state.f(t).is_up());
                let Some(t) = target.or_else(|| movement::nearest_foe(state, id)) else {
                    break;
                };
                // A shooter that declared move- or run-and-attack walks too (toward its target,
                // stopping at melee contact); range, cover and melee follow from where it ends.
                // [Seed: Combining Actions] SJ-R17.1, SJ-R17.3
                let reach = state.reach(id).max(5);
                if state.f(id).pos.within_reach(state.f(t).pos, reach) {
                    mv.feet_left = 0;
                    break;
                }
                movement::step_toward(state, id, state.f(t).pos)
            };
            let Some(next) = next else {
                break;
            };
            state.set_square(id, next);
            mv.banked -= 50;
            mv.feet_left -= 5;
            moved += 5;
        }
        state.f_mut(id).plan.movement = Some(mv);
        if moved > 0 {
            header.show(table);
            let to = state.f(id).pos;
            let mode = if mv.away {
                "withdraw"
            } else if mv.pace >= 2 {
                "run"
            } else {
                "move"
            };
            table.emit(|| Event::Moved {
                who: id,
                from,
                to,
                feet: moved,
                mode,
                hidden: state.f(id).invisible,
                rule: "SJ-R3.1",
            });
        }
    }
    Ok(())
}

/// Free attacks on a combatant withdrawing from melee, with the seed's exceptions.
/// [Seed: Withdrawing From Melee] SJ-R22
fn free_attacks(state: &mut State, table: T<'_, '_>, who: CombatantId) -> Result<(), Interrupt> {
    let foes: Vec<CombatantId> = state.foes_up(who).collect();
    for by in foes {
        let reach = state.reach(by).max(5);
        if state.reach(by) == 0 || !state.f(by).pos.within_reach(state.f(who).pos, reach) {
            continue;
        }
        let bf = state.f(by);
        if matches!(
            bf.plan.declaration.intent,
            Intent::FullDefense | Intent::DesperateDefense
        ) {
            table.emit(|| Event::Forgone {
                who: by,
                what: "free attack",
                on: Some(who),
                reason: "it declared full or desperate defense".into(),
                rule: "SJ-R22.2",
            });
            continue;
        }
        if bf.stunned || bf.plan.actions_lost {
            continue;
        }
        if bf.weapon_dropped {
            table.emit(|| Event::Forgone {
                who: by,
                what: "free attack",
                on: Some(who),
                reason: "its weapon lies on the ground".into(),
                rule: "SJ-R21",
            });
            continue;
        }
        if strike::casting_now(state, by) {
            table.emit(|| Event::Forgone {
                who: by,
                what: "free attack",
                on: Some(who),
                reason: "it is casting a spell".into(),
                rule: "SJ-R16.1",
            });
            continue;
        }
        // Two on one: the opponent is attacking only the withdrawer's ally.
        let ally_target = bf.plan.target.filter(|&t| {
            t != who
                && !state.foes(t, who)
                && state.f(t).is_up()
                && state.f(by).pos.within_reach(state.f(t).pos, reach)
        });
        if let Some(ally) = ally_target {
            table.emit(|| Event::Forgone {
                who: by,
                what: "free attack",
                on: Some(who),
                reason: format!("it is attacking only {}", state.roster.name(ally)),
                rule: "SJ-R22.2",
            });
            continue;
        }
        if state.options.ask_free_attack {
            let c = super::ask(
                state,
                table,
                Asking::FreeAttackRuling { by, on: who },
                "SJ-R22.5",
            )?;
            table.emit(|| Event::Ruling {
                rule: "SJ-G5",
                text: format!(
                    "the GM rules that {}'s withdrawal {} {} a free attack",
                    state.roster.name(who),
                    if c == Choice::Yes {
                        "gives"
                    } else {
                        "does not give"
                    },
                    state.roster.name(by)
                ),
            });
            if c != Choice::Yes {
                continue;
            }
        }
        let c = super::ask(state, table, Asking::FreeAttack { by, on: who }, "SJ-R22.1")?;
        if c != Choice::Yes {
            table.emit(|| Event::Forgone {
                who: by,
                what: "free attack",
                on: Some(who),
                reason: "declined".into(),
                rule: "SJ-R22.1",
            });
        }
        if c == Choice::Yes {
            let n = state.f(by).plan.attacks_made;
            strike::strike(
                state,
                table,
                by,
                who,
                Blow {
                    n,
                    ranged: false,
                    free: true,
                },
            )?;
            if !state.f(who).is_up() {
                break;
            }
        }
    }
    Ok(())
}

/// One scheduled attack: re-target if the declared target is gone (SJ-R1.2), close with the
/// free move, push a desperate defender or strike, and start attack-and-move movement after the
/// last attack.
fn attack(
    state: &mut State,
    table: T<'_, '_>,
    who: CombatantId,
    n: u8,
    ranged: bool,
) -> Result<(), Interrupt> {
    let Some(mut target) = current_target(state, table, who, ranged)? else {
        return Ok(());
    };
    if ranged {
        let range = state.p(who).ranged.as_ref().map_or(0, |r| r.range);
        if state.f(who).pos.feet_to(state.f(target).pos) > range {
            table.emit(|| Event::Skipped {
                who,
                reason: "target out of range",
                rule: "SJ-R23",
            });
            return done_attack(state, table, who);
        }
        if let Some(friend) = shooting_into_melee(state, table, who, target)? {
            target = friend;
        }
    } else {
        let reach = state.reach(who).max(5);
        if !state.f(who).pos.within_reach(state.f(target).pos, reach) {
            let d = state.f(who).plan.declaration;
            if d.movement != Movement::NoMovement && !state.f(who).plan.free_move_used {
                if let Some(next) = movement::step_toward(state, who, state.f(target).pos) {
                    if next.within_reach(state.f(target).pos, reach) {
                        let from = state.f(who).pos;
                        state.set_square(who, next);
                        state.f_mut(who).plan.free_move_used = true;
                        table.emit(|| Event::Moved {
                            who,
                            from,
                            to: next,
                            feet: 5,
                            mode: "free move",
                            hidden: state.f(who).invisible,
                            rule: "SJ-R17.1",
                        });
                    }
                }
            }
        }
        if !state.f(who).pos.within_reach(state.f(target).pos, reach) {
            if defer_until_arrival(state, table, who, n) {
                return Ok(());
            }
            table.emit(|| Event::Skipped {
                who,
                reason: "target out of reach",
                rule: "SJ-R17.1",
            });
            return done_attack(state, table, who);
        }
        if state.f(target).plan.declaration.intent == Intent::DesperateDefense {
            let c = super::ask(state, table, Asking::Push { by: who, target }, "SJ-R19")?;
            if let Choice::Push(dir) = c {
                let from = state.f(target).pos;
                let to = movement::push_destination(state, target, dir);
                state.set_square(target, to);
                let feet = from.feet_to(to);
                table.emit(|| Event::Moved {
                    who: target,
                    from,
                    to,
                    feet,
                    mode: "pushed",
                    hidden: state.f(target).invisible,
                    rule: "SJ-R19",
                });
                return done_attack(state, table, who);
            }
        }
    }
    blow(state, table, who, target, n, ranged)
}

/// Attack `n` (from 0) of `who`'s round on `target`, standing in reach or range: the strike
/// (SJ-R6 to R11) and what it counts (SJ-R17.2: the attacks made, attack-and-move after the
/// last). A fight's every attack ends here, and so does each blow of `fray odds --routine`:
/// nothing is carried from one attack to the next but the state.
pub fn blow(
    state: &mut State,
    table: T<'_, '_>,
    who: CombatantId,
    target: CombatantId,
    n: u8,
    ranged: bool,
) -> Result<(), Interrupt> {
    strike::strike(
        state,
        table,
        who,
        target,
        Blow {
            n,
            ranged,
            free: false,
        },
    )?;
    done_attack(state, table, who)
}

/// "You can move up to half your TMR and still attack": a move-and-attack (or run-and-attack)
/// whose initiative comes before its spread-out movement has brought it into reach attacks on
/// arrival — the first segment at or after its initiative on which it is in reach. While its
/// movement is not used up and movement segments remain, the attack waits one segment (logged
/// once). fray's reading, documented in `docs/spelljammer.md`. Returns whether it waits.
/// [Seed: Combining Actions › Move and Attack] SJ-R17.1, SJ-R17.3
fn defer_until_arrival(state: &mut State, table: T<'_, '_>, who: CombatantId, n: u8) -> bool {
    let f = state.f(who);
    let segment = state.segment;
    let moving = matches!(
        f.plan.declaration.movement,
        Movement::MoveAttack | Movement::RunAttack
    ) && f.plan.movement.is_some_and(|m| m.feet_left >= 5);
    // Movement happens on segments 10 … 1, before each segment's actions.
    if !moving || segment <= 1 {
        return false;
    }
    let next = segment.min(11) - 1;
    let kind = ActionKind::Attack { n, ranged: false };
    // Waited already: the same attack stands on the schedule at an earlier (higher) count.
    let first_wait = !state
        .schedule
        .iter()
        .any(|s| s.who == who && s.kind == kind && s.segment > segment);
    let at = state
        .schedule
        .iter()
        .position(|s| s.segment < next)
        .unwrap_or(state.schedule.len());
    state.schedule.insert(
        at,
        Scheduled {
            who,
            segment: next,
            kind,
        },
    );
    if first_wait {
        table.emit(|| Event::Acted {
            who,
            act: "is still on its way",
            on: None,
            detail: "move and attack: its attack comes on arrival".into(),
            rule: "SJ-R17.1",
        });
    }
    true
}

/// Whether `who`'s melee attack `n` would only wait again for its arrival
/// ([`defer_until_arrival`]) without anything to log: its target is still up and out of reach
/// (even with the free move), and the attack has already waited once.
fn waits_silently(state: &State, who: CombatantId, n: u8) -> bool {
    let f = state.f(who);
    let Some(t) = f.plan.target.filter(|&t| state.up_seen(t)) else {
        return false;
    };
    let at = state.f(t).pos;
    let reach = state.reach(who).max(5);
    if f.pos.within_reach(at, reach) {
        return false;
    }
    if f.plan.declaration.movement != Movement::NoMovement && !f.plan.free_move_used {
        if let Some(next) = movement::step_toward(state, who, at) {
            if next.within_reach(at, reach) {
                return false;
            }
        }
    }
    let moving = matches!(
        f.plan.declaration.movement,
        Movement::MoveAttack | Movement::RunAttack
    ) && f.plan.movement.is_some_and(|m| m.feet_left >= 5);
    let kind = ActionKind::Attack { n, ranged: false };
    let waited = state
        .schedule
        .iter()
        .any(|s| s.who == who && s.kind == kind && s.segment > state.segment);
    moving && state.segment > 1 && waited
}

/// The attacker's target now: the declared one if still up, else another the GM points it at.
/// [Seed: Action Declaration] SJ-R1.2, SJ-G1
fn current_target(
    state: &mut State,
    table: T<'_, '_>,
    who: CombatantId,
    ranged: bool,
) -> Result<Option<CombatantId>, Interrupt> {
    if let Some(t) = state.f(who).plan.target.filter(|&t| state.up_seen(t)) {
        return Ok(Some(t));
    }
    let new = if state.options.ask_retarget {
        match super::ask(state, table, Asking::Retarget(who), "SJ-R1.2")? {
            Choice::Retarget(t) => t,
            _ => None,
        }
    } else {
        let at = state.f(who).pos;
        let limit = if ranged {
            state.p(who).ranged.as_ref().map_or(0, |r| r.range)
        } else {
            let free = state.f(who).plan.declaration.movement != Movement::NoMovement
                && !state.f(who).plan.free_move_used;
            state.reach(who).max(5) + if free { 5 } else { 0 }
        };
        state
            .foes_up(who)
            .filter(|&o| state.f(o).pos.feet_to(at) <= limit)
            .min_by_key(|&o| (state.f(o).pos.squares_to(at), o))
    };
    match new {
        Some(t) => {
            state.f_mut(who).plan.target = Some(t);
            table.emit(|| Event::Acted {
                who,
                act: "turns its attack to",
                on: Some(t),
                detail: "its declared target is gone".into(),
                rule: "SJ-R1.2",
            });
            Ok(Some(t))
        }
        None => {
            table.emit(|| Event::Skipped {
                who,
                reason: "declared target gone and no other foe to attack",
                rule: "SJ-R1.2",
            });
            done_attack(state, table, who)?;
            Ok(None)
        }
    }
}

/// Shooting at a foe in melee with a friend may hit the friend.
/// [Seed: Shooting Into Melee] SJ-R23.7, SJ-A22
fn shooting_into_melee(
    state: &mut State,
    table: T<'_, '_>,
    shooter: CombatantId,
    target: CombatantId,
) -> Result<Option<CombatantId>, Interrupt> {
    let at = state.f(target).pos;
    let friends: Vec<CombatantId> = state
        .ids()
        .filter(|&o| {
            o != shooter
                && !state.foes(o, shooter)
                && state.f(o).is_up()
                && state.f(o).pos.is_adjacent(at)
        })
        .collect();
    if friends.is_empty() {
        return Ok(None);
    }
    let opponents = state
        .foes_up(shooter)
        .filter(|&o| {
            o == target
                || friends
                    .iter()
                    .any(|&f| state.f(f).pos.is_adjacent(state.f(o).pos))
        })
        .count() as i32;
    let p = state.p(shooter);
    let threshold = tables::shoot_into_melee_threshold(
        friends.len() as i32,
        opponents,
        state.options.shoot_fallback,
    );
    let bonus = tables::shoot_into_melee_bonus(p.weapon_rank, p.master_bowman, p.specialization);
    let natural = tables::natural_friend_max(p.specialization);
    let roll = table.roll_dice(1, 100, Some(shooter), RollPurpose::Check, "SJ-R23.7")?;
    let total = roll as i32 + bonus;
    let to_friend = match threshold {
        Some(t) => roll <= natural || total <= t,
        None => {
            let c = super::ask(
                state,
                table,
                Asking::ShootIntoMelee { by: shooter },
                "SJ-A22",
            )?;
            roll <= natural || c == Choice::Yes
        }
    };
    let friend = if to_friend {
        if friends.len() == 1 {
            Some(friends[0])
        } else {
            let pick = table.roll_dice(
                1,
                friends.len() as u16,
                None,
                RollPurpose::Other,
                "SJ-R23.7",
            )?;
            Some(friends[pick as usize - 1])
        }
    } else {
        None
    };
    table.emit(|| Event::Check {
        who: Subject::Combatant(shooter),
        purpose: "shooting into melee",
        dice: "d100".into(),
        roll,
        modifiers: vec![Modifier::new("weapon skill", "SJ-R23.7", bonus)],
        total,
        // Above the threshold the shot goes to the foe; `None`: the GM decided (SJ-A22).
        against: if threshold.is_some() {
            "the friend threshold"
        } else {
            "the GM's ruling"
        },
        target: threshold.unwrap_or(0),
        under: false,
        success: Some(friend.is_none()),
        result: match friend {
            Some(f) => format!(
                "{} friend(s) and {opponents} foe(s) in the melee: the shot goes to {}",
                friends.len(),
                state.roster.name(f)
            ),
            None => format!(
                "{} friend(s) and {opponents} foe(s) in the melee: the shot goes to the foe",
                friends.len()
            ),
        },
        rule: "SJ-R23.7",
    });
    Ok(friend)
}

/// Counts an attack as made; after the last one, attack-and-move movement is set up.
/// [Seed: Attack and Move] SJ-R17.2
fn done_attack(state: &mut State, table: T<'_, '_>, who: CombatantId) -> Result<(), Interrupt> {
    let segment = state.segment;
    let plan = &mut state.f_mut(who).plan;
    plan.attacks_made += 1;
    plan.last_attack = Some(segment);
    if plan.declaration.movement != Movement::AttackMove || plan.attacks_made < plan.attacks_planned
    {
        return Ok(());
    }
    let start = if segment > 10 {
        Some(10)
    } else if segment >= 2 {
        let dex = effective_dex(state, who);
        let raw = table.roll_dice(1, 100, Some(who), RollPurpose::Check, "SJ-R17.2")?;
        let (roll, _) = strike::ladder_roll(state, who, raw);
        let step = tables::ladder(roll, dex, 4);
        let start = tables::attack_move_start(segment, step);
        table.emit(|| {
            let result = format!(
                "attacked on {segment}: {}",
                match start {
                    Some(s) => format!("{}× DEX, moves from segment {s}", step.min(5)),
                    None if step >= 5 => "5× DEX or worse: cannot move this round".to_string(),
                    None => format!(
                        "{step}× DEX: {segment} − {step} = {} is before segment 1, cannot move \
                         this round",
                        segment - i32::from(step)
                    ),
                }
            );
            strike::ladder_check(
                state,
                who,
                "attack-and-move",
                raw,
                ("DEX", dex),
                Some(start.is_some()),
                result,
                "SJ-R17.2",
            )
        });
        start
    } else {
        None
    };
    if let Some(from) = start {
        let tmr = tmr(state, who);
        let segments = from.max(0);
        // 1/20 of TMR per segment = TMR/2 tenths of a foot.
        state.f_mut(who).plan.movement = Some(MovePlan {
            feet_left: segments * tmr / 20,
            banked: 0,
            per_segment: tmr / 2,
            from_segment: from,
            to_segment: 1,
            away: true,
            pace: 1,
        });
    }
    Ok(())
}

/// The declared free actions are taken (SJ-R17.7): what they are is the player's to describe;
/// the engine times them and charges an attack for each one after the first.
fn free_actions(state: &State, table: T<'_, '_>, who: CombatantId) {
    let n = state.f(who).plan.declaration.free;
    table.emit(|| Event::Acted {
        who,
        act: if n <= 1 {
            "takes its free action"
        } else {
            "takes free actions"
        },
        on: None,
        detail: if n <= 1 {
            format!("on segment {}", state.segment)
        } else {
            format!(
                "{n} on segment {}: the first is free, {} an attack",
                state.segment,
                if n == 2 {
                    "the second costs".to_string()
                } else {
                    format!("each of the other {} costs", n - 1)
                }
            )
        },
        rule: "SJ-R17.7",
    });
}

/// First Aid pulls the worst-bleeding stuck missile out of the patient, if the GM rules that it
/// works (the First Aid skill is outside the seed). [Seed: Ranged › Critical or Grievous Hits]
/// SJ-R23.6, SJ-G13
fn first_aid(state: &mut State, table: T<'_, '_>, who: CombatantId) -> Result<(), Interrupt> {
    let Intent::FirstAid(patient) = state.f(who).plan.declaration.intent else {
        return Ok(());
    };
    let reachable = patient == who || state.f(who).pos.is_adjacent(state.f(patient).pos);
    if !state.f(patient).is_up() || state.f(patient).stuck.is_empty() || !reachable {
        table.emit(|| Event::Skipped {
            who,
            reason: "first aid: the patient is gone, out of reach or has no stuck missile",
            rule: "SJ-G13",
        });
        return Ok(());
    }
    let c = super::ask(
        state,
        table,
        Asking::FirstAid { by: who, patient },
        "SJ-G13",
    )?;
    let worst = state
        .f(patient)
        .stuck
        .iter()
        .enumerate()
        .max_by_key(|(i, s)| {
            (
                tables::stuck_effect(s.missile, s.grievous).1,
                std::cmp::Reverse(*i),
            )
        })
        .map(|(i, _)| i);
    let (Choice::Yes, Some(i)) = (c, worst) else {
        table.emit(|| Event::Ruling {
            rule: "SJ-G13",
            text: format!(
                "the GM rules that {}'s First Aid does not get the missile out of {}",
                state.roster.name(who),
                state.roster.name(patient)
            ),
        });
        return Ok(());
    };
    let pulled = state.f_mut(patient).stuck.remove(i);
    table.emit(|| Event::Ruling {
        rule: "SJ-G13",
        text: format!(
            "the GM rules that {}'s First Aid gets the missile out of {}",
            state.roster.name(who),
            state.roster.name(patient)
        ),
    });
    table.emit(|| Event::Condition {
        who: patient,
        condition: strike::stuck_condition(pulled.missile),
        gained: false,
        rule: "SJ-G13",
    });
    Ok(())
}

/// A potion is drunk (SJ-R17.6).
fn drink(state: &mut State, table: T<'_, '_>, who: CombatantId) -> Result<(), Interrupt> {
    let Some(dice) = state.p(who).potion else {
        return Ok(());
    };
    if state.f(who).potions == 0 {
        return Ok(());
    }
    let rolled = table.roll_damage(dice, Some(who), RollPurpose::Other, "SJ-R17.6")?;
    let max = state.p(who).max_hp;
    let f = state.f_mut(who);
    f.potions -= 1;
    let amount = (rolled + dice.bonus).max(0).min((max - f.hp).max(0));
    f.hp += amount;
    let hp = f.hp;
    table.emit(|| Event::Healed {
        who,
        amount,
        hp,
        rule: "SJ-R17.6",
    });
    Ok(())
}

/// End of the round: stuck missiles bleed for anyone still in the fight; careful aim and held
/// actions carry to the next round. [Seed: Ranged › Critical or Grievous Hits] SJ-R23.6, spec §1.4
fn end_of_round(state: &mut State, table: T<'_, '_>) -> Result<(), Interrupt> {
    state.segment = tables::LAST_SEGMENT;
    for id in (0..state.fighters.len() as u16).map(CombatantId) {
        let f = state.f(id);
        let d = f.plan.declaration;
        let aimed = f.plan.aim_only;
        let held = d.intent == Intent::Hold;
        let f = state.f_mut(id);
        f.aimed = aimed;
        f.held = held;
        if !state.f(id).is_up()
            || state.f(id).stuck.is_empty()
            || state.foes_up(id).next().is_none()
        {
            continue;
        }
        let bleed: i32 = state
            .f(id)
            .stuck
            .iter()
            .map(|s| tables::stuck_effect(s.missile, s.grievous).1)
            .sum();
        strike::apply_damage(
            state,
            table,
            id,
            id,
            bleed,
            false,
            bleed,
            Vec::new(),
            "SJ-R23.6",
        )?;
    }
    Ok(())
}
