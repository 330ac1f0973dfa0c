//! The encounter order and the round (§1 of the spec): hit points, surprise, distance, the
//! reaction roll, initiative once per encounter per group (ODD-R1 to R4), the surprise round,
//! then each round: spell declarations, fighters' first attacks, the initiative counts, their
//! last attacks and the morale checks (ODD-R4.6, R5); mass combat's round body (ODD-R31).

use super::attack::{self, Manner};
use super::legal::approach;
use super::{ask, flight, morale, spells, tables};
use crate::choice::Flight;
use crate::content::Reaction;
use crate::state::{Form, Paused, Round, Slot, State, Surprise};
use crate::{Choice, Odd};
use fray_core::board::Board;
use fray_core::event::{Event, Subject};
use fray_core::protocol::{Chooser, Question, RollPurpose, RollRequest};
use fray_core::ranked::RankedDie;
use fray_core::ruleset::Outcome;
use fray_core::{CombatantId, Interrupt, Pos, SideId, Standing, Table};

/// Before the first round: hit points, surprise, distance, reaction, initiative, the
/// start-of-conflict morale check and the surprise round (ODD-R1 steps 3 to 7).
pub fn begin(state: &mut State, table: &mut Table<'_, Odd>) -> Result<(), Interrupt> {
    state.round = 0;
    roll_hit_points(state, table)?;
    surprise(state, table)?;
    distance(state, table)?;
    if reaction(state, table)? {
        return Ok(());
    }
    roll_initiative(state, table)?;
    if state.setup.morale_at_start {
        morale::checks(state, table, true)?;
    }
    if matches!(state.surprise, Surprise::Surprised(_)) {
        surprise_round(state, table)?;
    }
    Ok(())
}

/// ODD-R10.4, R31.2, ODD-A38: hit points not given are rolled: a d6 per hit die (plus the
/// "+"), one per man for a unit.
fn roll_hit_points(state: &mut State, table: &mut Table<'_, Odd>) -> Result<(), Interrupt> {
    for id in state.ids().collect::<Vec<_>>() {
        if state.f(id).max_hp > 0 {
            continue;
        }
        let p = state.p(id);
        let per_man = p.level.max(1);
        let dice = (per_man as u32 * p.figures).min(u32::from(u16::MAX)) as u16;
        let plus = p.plus * p.figures as i32;
        let rule = if p.is_unit() {
            "ODD-R31.2"
        } else {
            "ODD-R10.4"
        };
        let roll = table.roll(RollRequest::new(
            dice,
            6,
            Some(id),
            RollPurpose::Other,
            rule,
        ))? as i32;
        let hp = (roll + plus).max(1);
        let f = state.f_mut(id);
        f.hp = hp;
        f.max_hp = hp;
        table.emit(|| Event::Acted {
            who: id,
            act: "rolls hit points",
            on: None,
            detail: if plus == 0 {
                format!("{dice}d6 = {hp}")
            } else {
                format!("{dice}d6 {roll} {plus:+} = {hp}")
            },
            rule,
        });
    }
    Ok(())
}

/// ODD-R2: if surprise is possible, a d6 per side; a side is surprised on a roll at or under
/// the best chance any other side has against it (ODD-R2.4); both surprised cancel.
fn surprise(state: &mut State, table: &mut Table<'_, Odd>) -> Result<(), Interrupt> {
    if !state.setup.surprise {
        return Ok(());
    }
    let sides = state.roster.sides.len();
    let mut bits = 0u32;
    for s in 0..sides {
        let chance = (0..sides)
            .filter(|&o| o != s)
            .map(|o| {
                tables::surprise_chance(
                    state.setup.stealth[o].surprises_on,
                    state.setup.stealth[s].surprised_on,
                )
            })
            .max()
            .unwrap_or(0);
        // Rolled for the side by its first member (a person rolls it when playing it).
        let by = first_of_side(state, SideId(s as u8));
        let roll = table.roll(RollRequest::new(
            1,
            6,
            by,
            RollPurpose::Surprise,
            "ODD-R2.2",
        ))? as i32;
        let surprised = roll <= chance;
        if surprised {
            bits |= 1 << s;
        }
        table.emit(|| Event::Check {
            who: Subject::Side(SideId(s as u8)),
            purpose: "surprise",
            dice: "d6".into(),
            roll: roll as u32,
            modifiers: Vec::new(),
            total: roll,
            against: "surprised on",
            target: chance,
            under: true,
            success: Some(!surprised),
            result: if surprised {
                "surprised".into()
            } else {
                "not surprised".into()
            },
            rule: "ODD-R2.4",
        });
    }
    let all = (1u32 << sides) - 1;
    state.surprise = if bits == 0 {
        Surprise::None
    } else if bits == all {
        // ODD-R2.3: both surprised cancel; the distance is still the surprise distance.
        state.distance = -1;
        Surprise::None
    } else {
        Surprise::Surprised(bits)
    };
    Ok(())
}

/// ODD-R2.3, R3.1, ODD-A11, A30: the distance, if not known: 1d3 × 10 when anyone was
/// surprised, else 2d6 × 10 (feet indoors, yards outdoors).
fn distance(state: &mut State, table: &mut Table<'_, Odd>) -> Result<(), Interrupt> {
    if let Some(d) = state.setup.distance {
        state.distance = d;
        return Ok(());
    }
    let surprised = state.distance == -1 || matches!(state.surprise, Surprise::Surprised(_));
    let (count, sides, rule) = if surprised {
        (1, 3, "ODD-A11")
    } else {
        (2, 6, "ODD-R3.1")
    };
    let by = first_of_side(state, SideId(0));
    let roll = table.roll(RollRequest::new(count, sides, by, RollPurpose::Other, rule))? as i32;
    state.distance = roll * 10;
    let unit = if state.setup.outdoors { "yd" } else { "ft" };
    let d = state.distance;
    table.emit(|| Event::Check {
        who: Subject::Side(SideId(0)),
        purpose: "distance",
        dice: format!("{count}d{sides}"),
        roll: roll as u32,
        modifiers: Vec::new(),
        total: d,
        against: "",
        target: 0,
        under: false,
        success: None,
        result: format!("the groups are {d} {unit} apart"),
        rule,
    });
    Ok(())
}

/// ODD-R3.2, R3.3: the reaction roll (2d6 on the DM's table) for the side whose reaction is
/// uncertain, then the DM's ruling: fight or parley. A parley ends the encounter: that side
/// leaves (counted as fled, ODD-R32.3). Returns whether it ended.
fn reaction(state: &mut State, table: &mut Table<'_, Odd>) -> Result<bool, Interrupt> {
    let Some(side) = state.setup.reaction else {
        return Ok(false);
    };
    if matches!(state.surprise, Surprise::Surprised(_)) {
        return Ok(false);
    }
    let by = first_of_side(state, side);
    let roll = table.roll(RollRequest::new(2, 6, by, RollPurpose::Other, "ODD-R3.2"))? as i32;
    let band = crate::content::Tables::band(&state.tables.reaction, roll).cloned();
    let (label, result, upto) = band
        .map_or(("uncertain".to_string(), Reaction::Uncertain, 12), |b| {
            (b.label, b.result, b.upto)
        });
    state.reaction = Some(result);
    table.emit(|| Event::Check {
        who: Subject::Side(side),
        purpose: "reaction",
        dice: "2d6".into(),
        roll: roll as u32,
        modifiers: Vec::new(),
        total: roll,
        against: "reaction table row up to",
        target: upto,
        under: true,
        success: None,
        result: label,
        rule: "ODD-R3.2",
    });
    let ruling = table.choose(state, Chooser::Gm, Question::Ruling, "ODD-R3.3", |out| {
        out.extend_from_slice(crate::choice::rulings("ODD-R3.3"));
    })?;
    if ruling != Choice::Parley {
        return Ok(false);
    }
    for id in state.ids().collect::<Vec<_>>() {
        if state.f(id).side == side && state.f(id).is_up() {
            table.emit(|| Event::Acted {
                who: id,
                act: "parleys",
                on: None,
                detail: "the encounter ends without a fight".into(),
                rule: "ODD-R32.3",
            });
            state.f_mut(id).gone = Some(Standing::Fled);
        }
    }
    Ok(true)
}

/// ODD-R4.5: what a hasted combatant's count is raised by, to come before every d6.
const HASTE_LEAD: i32 = 6;

/// ODD-R4.1, R4.3, R4.8: a plain d6 per character (one per side's characters with the party
/// option) and one per DM group, stored for the encounter.
pub fn roll_initiative(state: &mut State, table: &mut Table<'_, Odd>) -> Result<(), Interrupt> {
    let plan = initiative_dice(state);
    // Die k is rolled by the first combatant of the plan on it.
    let dice: Vec<RankedDie> = plan
        .iter()
        .enumerate()
        .filter(|&(at, &(_, die))| plan[..at].iter().all(|&(_, d)| d != die))
        .map(|(_, &(id, _))| RankedDie {
            request: RollRequest::new(1, 6, Some(id), RollPurpose::Initiative, "ODD-R4.1"),
            modifier: haste_lead(state, id),
        })
        .collect();
    let mut faces: Vec<u32> = Vec::with_capacity(dice.len());
    let mut next = 0;
    // After each die, the combatants of the plan whose die is rolled, in roster order, up to
    // the next one to roll: each count is set and told as the roster is walked.
    let mut settle = |state: &mut State, table: &mut Table<'_, Odd>, face: u32| {
        faces.push(face);
        while let Some(&(id, die)) = plan.get(next).filter(|&&(_, die)| die < faces.len()) {
            set_initiative(state, table, id, faces[die]);
            next += 1;
        }
    };
    if ranked_initiative(state, &plan) {
        // Only the order of the counts is read: exact odds branch once per order
        // ([`Table::roll_ranked`]); play rolls the dice one by one as ever.
        table.roll_ranked(&dice, |table, _, face| {
            settle(state, table, face);
            Ok(())
        })
    } else {
        for die in &dice {
            let face = table.roll(die.request)?;
            settle(state, table, face);
        }
        Ok(())
    }
}

/// Each combatant up, in roster order, with the die (numbered as first rolled) its count is
/// read from: its own, its DM group's when the group rolls one die (ODD-R4.8), or its side's
/// for a character with the party option (ODD-R4.3).
fn initiative_dice(state: &State) -> Vec<(CombatantId, usize)> {
    let mut group_die: Vec<Option<usize>> = vec![None; state.groups.len()];
    let mut side_die: Vec<Option<usize>> = vec![None; state.roster.sides.len()];
    let mut rolled = 0;
    let mut plan = Vec::new();
    for id in state.ids() {
        if !state.f(id).is_up() {
            continue;
        }
        let g = usize::from(state.f(id).group);
        let side = state.f(id).side.index();
        let shared = if state.groups[g].one_die {
            &mut group_die[g]
        } else if state.options.party_initiative && state.p(id).character {
            &mut side_die[side]
        } else {
            plan.push((id, rolled));
            rolled += 1;
            continue;
        };
        let die = *shared.get_or_insert_with(|| {
            rolled += 1;
            rolled - 1
        });
        plan.push((id, die));
    }
    plan
}

/// ODD-R4.5: what a combatant's d6 is raised by to make its count: the hasted always have
/// initiative, their counts above every d6.
fn haste_lead(state: &State, id: CombatantId) -> i32 {
    if state.p(id).hasted {
        HASTE_LEAD
    } else {
        0
    }
}

/// Whether the encounter's initiative dice (`plan`, [`initiative_dice`]) may be rolled
/// ranked, exact odds branching once per order of the counts rather than per face: only their
/// order and equality are read (the order of the counts, ODD-R4.1; acting together on one,
/// ODD-R4.2; a caster hit before its count, ODD-R29.2; see `odds_key::rank_counts`), as long
/// as no new roll meets them. So not with the DM's toggle that rolls again every round
/// (ODD-R4.3, ODD-A9), nor when rolled again after a grapple was thrown off (ODD-R28.4,
/// `State::reroll_next`), where the new dice meet the counts of those not up; the fight
/// programme's default tactics never grapple, so no grapple thrown off rolls again later.
/// And each die's count is the face plus one modifier for everyone reading it: the combatants
/// sharing a die (a group's, a party's) are all hasted or all not (ODD-R4.5).
fn ranked_initiative(state: &State, plan: &[(CombatantId, usize)]) -> bool {
    !state.options.reroll_initiative
        && !state.reroll_next
        && state.grapples.is_empty()
        && plan.iter().all(|&(id, die)| {
            plan.iter()
                .filter(|&&(_, d)| d == die)
                .all(|&(other, _)| state.p(other).hasted == state.p(id).hasted)
        })
}

/// Sets `id`'s count from its die's `roll` (ODD-R4.1; raised for the hasted, ODD-R4.5), told.
fn set_initiative(state: &mut State, table: &mut Table<'_, Odd>, id: CombatantId, roll: u32) {
    let roll = roll as i32;
    // ODD-R4.5: the hasted always have initiative: their counts come above every d6; among
    // the hasted (both sides) the dice decide, equal counts acting together.
    let (total, rule) = if state.p(id).hasted {
        (roll + HASTE_LEAD, "ODD-R4.5")
    } else {
        (roll, "ODD-R4.1")
    };
    state.f_mut(id).initiative = total;
    table.emit(|| Event::Initiative {
        who: id,
        roll: roll as u32,
        total,
        rule,
    });
}

/// Distinct initiative counts of those up, highest first.
fn counts(state: &State) -> Vec<i32> {
    let mut out: Vec<i32> = state
        .ids()
        .filter(|&id| state.f(id).is_up())
        .map(|id| state.f(id).initiative)
        .collect();
    out.sort_unstable_by(|a, b| b.cmp(a));
    out.dedup();
    out
}

fn order_event(state: &State, table: &mut Table<'_, Odd>) {
    table.emit(|| Event::Order {
        groups: counts(state)
            .into_iter()
            .map(|c| {
                state
                    .ids()
                    .filter(|&id| state.f(id).is_up() && state.f(id).initiative == c)
                    .collect()
            })
            .collect(),
    });
}

/// The first combatant of a side, who rolls the side's dice.
fn first_of_side(state: &State, side: SideId) -> Option<CombatantId> {
    state.ids().find(|&id| state.f(id).side == side)
}

/// Whether `id` still has a foe able to fight.
fn foe_left(state: &State, id: CombatantId) -> bool {
    state.ids().any(|o| state.foes(id, o) && state.f(o).is_up())
}

fn over(state: &State) -> bool {
    state.outcome_by_side() != Outcome::Ongoing
}

/// ODD-R2.3, R2.5: the surprising sides' free round (round 0), a surprise attack; the surprised
/// cannot respond.
fn surprise_round(state: &mut State, table: &mut Table<'_, Odd>) -> Result<(), Interrupt> {
    state.slot = Slot::Surprise;
    for c in counts(state) {
        if over(state) {
            break;
        }
        let actors: Vec<CombatantId> = state
            .ids()
            .filter(|&id| {
                let f = state.f(id);
                f.is_up() && f.initiative == c && !state.side_surprised(f.side)
            })
            .collect();
        for id in actors {
            turn(state, table, id)?;
        }
        morale::checks(state, table, false)?;
    }
    state.slot = Slot::None;
    Ok(())
}

/// One round (§1 MELEE ROUND): [`round_step`]'s steps one after another, without stopping.
/// Mass combat plays its own body (ODD-R31.7).
pub fn play_round(state: &mut State, table: &mut Table<'_, Odd>) -> Result<(), Interrupt> {
    state.round = table.round();
    while !body_step(state, table)? {}
    Ok(())
}

/// The round from where `state` stands to its next settled point, or to its end: true when
/// the round is over (`Ruleset::round_step`; [`play_round`] is these steps one after another,
/// so ordinary play is unchanged). The settled points are after the spell declarations and
/// the multi-attack fighters' first attacks (ODD-R29, R4.6), and after each turn taken on an
/// initiative count (ODD-R4.1, R16.1).
///
/// At those points nothing of the round is on the stack, so the state alone says how the
/// round goes on and exact odds may merge equal states there: the declarations, the first
/// attacks' plans and the attacks kept for the end (`Fighter::round`: `casting`, `planned`,
/// `last_attacks`, `acted`) are in the state; the initiative counts not begun (fixed, as
/// `play_round` fixes them, when the counts begin) and, on the count being played
/// (`State::slot`), its actors as they stood when it began (a combatant felled on its own
/// count still acts) with how many have taken their turn are `State::paused`; a turn's
/// series of attacks, its reach and spear reactions and its pursuit are played inside the
/// turn; what the count does after its turns (the spells going off, the grapples, the morale
/// checks, the GM's intervention point) reads only the state. The fighters' last attacks
/// (ODD-R4.6) and the closing morale checks are one step; mass combat's round (ODD-R31.7) and
/// the surprise round (in `begin`) are played whole.
pub fn round_step(state: &mut State, table: &mut Table<'_, Odd>) -> Result<bool, Interrupt> {
    if state.paused == Paused::No {
        state.round = table.round();
    }
    body_step(state, table)
}

/// One step of the round (see [`round_step`]), the round already set.
fn body_step(state: &mut State, table: &mut Table<'_, Odd>) -> Result<bool, Interrupt> {
    let paused = match std::mem::take(&mut state.paused) {
        Paused::No => {
            if round_start(state, table)? {
                return Ok(true);
            }
            state.paused = Paused::Counts(counts(state));
            return Ok(false);
        }
        Paused::Counts(left) => count_turns(state, table, left, None)?,
        Paused::Turns {
            actors,
            taken,
            counts,
        } => count_turns(state, table, counts, Some((actors, taken)))?,
    };
    if paused {
        return Ok(false);
    }
    last_attacks(state, table)?;
    Ok(true)
}

/// The round up to its initiative counts: the marks of the last round cleared, temporary
/// damage regained, initiative rolled again where it is, the order, then the spell
/// declarations and the multi-attack fighters' first attacks (ODD-R29, R4.6, ODD-A8, A32).
/// True when the round was mass combat's, played whole (ODD-R31.7).
fn round_start(state: &mut State, table: &mut Table<'_, Odd>) -> Result<bool, Interrupt> {
    for f in &mut state.fighters {
        f.round = Round::default();
    }
    super::recovery::recover(state, table);
    if (state.options.reroll_initiative || state.reroll_next) && state.round > 1 {
        state.reroll_next = false;
        roll_initiative(state, table)?;
    }
    order_event(state, table);
    if state.options.mass {
        mass_round(state, table)?;
        return Ok(true);
    }
    declare_spells(state, table)?;
    // ODD-R4.6, ODD-A8, A32: multi-attack fighters attack first (and last).
    state.slot = Slot::First;
    let firsts: Vec<CombatantId> = state
        .ids()
        .filter(|&id| {
            multi_attacker(state, id)
                && state.f(id).is_up()
                && !routed(state, id)
                && helpless(state, id).is_none()
        })
        .collect();
    for c in counts(state) {
        if over(state) {
            break;
        }
        let batch: Vec<CombatantId> = firsts
            .iter()
            .copied()
            .filter(|&id| state.f(id).initiative == c)
            .collect();
        if batch.is_empty() {
            continue;
        }
        for id in batch {
            // Simultaneous: one felled on this moment still acts, while it has a foe.
            if !foe_left(state, id) {
                continue;
            }
            let choice = ask(state, table, id, Question::Action, "ODD-R4.6")?;
            let splits = match choice {
                Choice::Attack(t) | Choice::Charge(t) => attack_count(state, id, t).1,
                _ => false,
            };
            if splits {
                perform(state, table, id, choice)?;
                state.f_mut(id).round.acted = true;
            } else {
                state.f_mut(id).round.planned = Some(choice);
            }
        }
        morale::checks(state, table, false)?;
    }
    Ok(false)
}

/// The initiative counts `counts` (highest first), each its actors' turns, then its spells,
/// grapples, morale checks and intervention point (ODD-R4.1, R29, R28, R5); `resume`: the
/// count `State::slot` names was paused after the first `taken` of its `actors`' turns, and
/// `counts` are those after it. Returns true when it paused after a turn (`State::paused`,
/// [`round_step`]), false when the counts are over.
fn count_turns(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    counts: Vec<i32>,
    mut resume: Option<(Vec<CombatantId>, usize)>,
) -> Result<bool, Interrupt> {
    let mut next = 0;
    loop {
        let (actors, from) = match resume.take() {
            Some(paused) => paused,
            None => {
                let Some(&c) = counts.get(next) else {
                    return Ok(false);
                };
                next += 1;
                if over(state) {
                    return Ok(false);
                }
                state.slot = Slot::Count(c);
                let actors: Vec<CombatantId> = state
                    .ids()
                    .filter(|&id| {
                        let f = state.f(id);
                        f.is_up() && f.initiative == c && !f.round.acted
                    })
                    .collect();
                (actors, 0)
            }
        };
        let mut taken = from;
        while let Some(&id) = actors.get(taken) {
            taken += 1;
            if state.f(id).round.casting.is_some() || !foe_left(state, id) {
                continue;
            }
            turn(state, table, id)?;
            state.paused = Paused::Turns {
                taken,
                actors,
                counts: counts[next..].to_vec(),
            };
            return Ok(true);
        }
        for &id in &actors {
            if state.f(id).round.casting.is_some() {
                caster_steps(state, table, id);
                spells::resolve(state, table, id)?;
            }
        }
        grapples(state, table)?;
        morale::checks(state, table, false)?;
        table.intervention_point(state)?;
    }
}

/// The multi-attack fighters' attacks kept for the end of the round (ODD-R4.6, ODD-A8), then
/// the closing morale checks.
fn last_attacks(state: &mut State, table: &mut Table<'_, Odd>) -> Result<(), Interrupt> {
    state.slot = Slot::Last;
    for c in counts(state) {
        for id in state.ids().collect::<Vec<_>>() {
            let f = state.f(id);
            if f.initiative != c || f.round.last_attacks == 0 || !f.is_up() || !foe_left(state, id)
            {
                continue;
            }
            let n = i32::from(f.round.last_attacks);
            state.pressing = true;
            let choice = ask(state, table, id, Question::Action, "ODD-R4.6");
            state.pressing = false;
            if let Choice::Attack(t) = choice? {
                // ODD-R23.5: its last attacks are not its first.
                let later = Manner {
                    later: true,
                    ..Manner::default()
                };
                series(state, table, id, t, n, later, true, "ODD-R4.6")?;
            }
        }
    }
    morale::checks(state, table, false)?;
    state.slot = Slot::None;
    Ok(())
}

/// ODD-R29: casters declare their spells at the start of the round.
fn declare_spells(state: &mut State, table: &mut Table<'_, Odd>) -> Result<(), Interrupt> {
    for id in state.ids().collect::<Vec<_>>() {
        let f = state.f(id);
        if !f.is_up() || routed(state, id) || !f.spells_left.iter().any(|n| *n > 0) {
            continue;
        }
        if let Choice::Cast(s, t) = ask(state, table, id, Question::Declaration, "ODD-R29")? {
            let name = state.p(id).spells[usize::from(s)].name.clone();
            state.f_mut(id).round.casting = Some((s, t));
            table.emit(|| Event::Casting {
                who: id,
                spell: name,
                on: Some(t),
                stage: "begins",
                detail: String::new(),
                rule: "ODD-R29",
            });
        }
    }
    Ok(())
}

/// A fighter-type character of level 2 or more (any character with the ODD-A6 toggle): it may
/// have several attacks against Normal Men, made first and last (ODD-R4.6).
fn multi_attacker(state: &State, id: CombatantId) -> bool {
    let p = state.p(id);
    p.character
        && (p.fighter_type() || state.options.all_characters_multiattack)
        && p.level > 1
        && state.f(id).round.casting.is_none()
}

fn routed(state: &State, id: CombatantId) -> bool {
    state.groups[usize::from(state.f(id).group)].routed
}

/// ODD-R10.1, R10.2: attacks of `a` on `t` this round, and whether they are several attacks
/// against Normal Men (which go on to other Normal Men in melee when a target falls).
pub fn attack_count(state: &State, a: CombatantId, t: CombatantId) -> (i32, bool) {
    let (p, pt) = (state.p(a), state.p(t));
    let forms = p.melee.len().max(1) as i32;
    if pt.normal_man && !p.is_unit() {
        if p.character && (p.fighter_type() || state.options.all_characters_multiattack) {
            let n = tables::attacks_vs_normal_men(true, false, p.level);
            if n > 1 {
                return (n, true);
            }
        } else if !p.character && p.level > 1 {
            let n = tables::attacks_vs_normal_men(false, true, p.level).max(forms);
            return (n, true);
        }
    }
    (if p.character { 1 } else { forms }, false)
}

/// A combatant's turn on its count: a routed one runs away along its chosen flight path
/// (ODD-R5.6, R17.3); otherwise its planned or chosen action.
fn turn(state: &mut State, table: &mut Table<'_, Odd>, id: CombatantId) -> Result<(), Interrupt> {
    state.f_mut(id).round.acted = true;
    if routed(state, id) {
        if state.f(id).dead {
            return Ok(());
        }
        // ODD-R12.4: one swallowed stays inside its swallower: it cannot run away.
        if state.f(id).swallowed_by.is_some() {
            table.emit(|| Event::Forgone {
                who: id,
                what: "flight",
                on: None,
                reason: "swallowed: it cannot run away from inside".into(),
                rule: "ODD-R12.4",
            });
            return Ok(());
        }
        // ODD-R5.6, R17.3: it runs along the flight path its controller chooses, engaged or
        // not: the bystanders it passes get their free attacks (step 4).
        let way = match ask(state, table, id, Question::Action, "ODD-R5.6")? {
            Choice::Retreat(way) => way,
            _ => Flight::Away,
        };
        return morale::retreat(state, table, id, way);
    }
    if let Some(reason) = helpless(state, id) {
        let f = state.f_mut(id);
        let rule = match (reason, f.knocked_down) {
            ("gets up", Some(rule)) => rule,
            _ => "ODD-R28.3",
        };
        f.knocked_down = None;
        f.struggling = false;
        table.emit(|| Event::Skipped {
            who: id,
            reason,
            rule,
        });
        if !state.f(id).pinned_by.is_empty() {
            // ODD-A21: a pinned combatant tries the contest again.
            let pinners = state.f(id).pinned_by.clone();
            for p in pinners {
                state.grapples.push((id, p));
            }
            state.f_mut(id).pinned_by.clear();
        }
        return Ok(());
    }
    let choice = match state.f_mut(id).round.planned.take() {
        Some(c) if super::legal::check(false, state, id, Question::Action, &c).is_ok() => c,
        _ => ask(state, table, id, Question::Action, "ODD-R16.1")?,
    };
    perform(state, table, id, choice)
}

/// Why `id` cannot act on its turn, if it cannot (ODD-R14, R28).
fn helpless(state: &State, id: CombatantId) -> Option<&'static str> {
    let f = state.f(id);
    if !f.pinned_by.is_empty() {
        Some("pinned helplessly")
    } else if f.stunned_until > 0 && f.stunned_until >= state.round {
        Some("stunned")
    } else if f.knocked_down.is_some() {
        Some("gets up")
    } else if f.struggling {
        Some("struggling in a grapple")
    } else {
        None
    }
}

/// Moves `who` to `to`, logging the move.
pub(crate) fn move_to(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    to: Pos,
    mode: &'static str,
    rule: &'static str,
) {
    let from = state.f(who).pos;
    if from == to {
        return;
    }
    state.set_square(who, to);
    state.f_mut(who).round.moved = true;
    table.emit(|| Event::Moved {
        who,
        from,
        to,
        feet: from.feet_to(to),
        mode,
        hidden: false,
        rule,
    });
    // ODD-R12.4: those it swallowed went with it.
    for inside in state
        .ids()
        .filter(|&s| state.f(s).swallowed_by == Some(who))
    {
        table.emit(|| Event::Moved {
            who: inside,
            from,
            to,
            feet: from.feet_to(to),
            mode: "inside its swallower",
            hidden: false,
            rule: "ODD-R12.4",
        });
    }
}

/// Performs an action (ODD-R16, R24, R26, R17.3).
fn perform(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    id: CombatantId,
    choice: Choice,
) -> Result<(), Interrupt> {
    match choice {
        Choice::Attack(t) => {
            let inside = state.f(id).swallowed_by.is_some();
            if let Some((to, d)) = approach(state, id, t).filter(|_| !inside) {
                if state.engaged(id) && !state.in_melee(id, t) && !state.options.mass {
                    through_line(state, table, id, t, to, d)?;
                    if !state.f(id).is_up() {
                        return Ok(());
                    }
                } else {
                    move_to(state, table, id, to, "half move", "ODD-R16.1");
                }
            }
            state.f_mut(id).caught = false;
            let was_dead = state.f(id).dead;
            longer_reach_first(state, table, id, t)?;
            if !state.f(t).is_up() || (state.f(id).dead && !was_dead) {
                return Ok(());
            }
            let (n, vs_normal) = attack_count(state, id, t);
            let now = first_share(state, id, n, vs_normal);
            series(
                state,
                table,
                id,
                t,
                now,
                Manner::default(),
                vs_normal,
                "ODD-R16.1",
            )
        }
        Choice::Charge(t) => {
            if let Some((to, _)) = approach(state, id, t) {
                move_to(state, table, id, to, "charge", "ODD-R26.2");
            }
            let f = state.f_mut(id);
            f.charged = true;
            f.round.charging = true;
            f.caught = false;
            let was_dead = state.f(id).dead;
            let spear = set_spear(state, table, id, t)?;
            if spear.is_some_and(|o| o != SpearOrder::ChargerFirst) {
                spear_strikes(state, table, t, id)?;
            }
            longer_reach_first(state, table, id, t)?;
            let together = spear == Some(SpearOrder::Together);
            if !state.f(t).is_up() || (state.f(id).dead && !was_dead && !together) {
                return Ok(());
            }
            let (n, vs_normal) = attack_count(state, id, t);
            let now = first_share(state, id, n, vs_normal);
            let charge = Manner {
                charge: true,
                ..Manner::default()
            };
            series(state, table, id, t, now, charge, vs_normal, "ODD-R26.7")?;
            if spear == Some(SpearOrder::ChargerFirst) && state.f(id).is_up() {
                spear_strikes(state, table, t, id)?;
            }
            Ok(())
        }
        Choice::Shoot(t) => {
            state.f_mut(id).shot_round = Some(state.round);
            let Some(w) = state.p(id).missile.clone() else {
                return Ok(());
            };
            // ODD-R16.1, R16.3, R16.4: closing into range first.
            let gap = super::legal::shot_approach(state, id, t).unwrap_or(0);
            if gap > 0 {
                let on_the_run = 2 * gap > state.move_squares(id);
                let to = close_in(state, id, t, gap);
                let (mode, rule) = if on_the_run {
                    ("firing on the run", "ODD-R16.3")
                } else {
                    ("half move", "ODD-R16.1")
                };
                move_to(state, table, id, to, mode, rule);
                if super::legal::range_modifier(state, id, t).is_none() {
                    table.emit(|| Event::Forgone {
                        who: id,
                        what: "shot",
                        on: Some(t),
                        reason: "still beyond long range after its move".into(),
                        rule: "ODD-R8.1",
                    });
                    return Ok(());
                }
            }
            let form = crate::state::Form::of_weapon(&w);
            let manner = Manner {
                missile: true,
                ..Manner::default()
            };
            let blow = attack::attack(state, table, id, t, &form, manner, "ODD-R8")?;
            if !blow.hit {
                stray_shot(state, table, id, t, &form)?;
            }
            Ok(())
        }
        Choice::Run(t) => {
            let full = state.move_squares(id);
            let to = match approach(state, id, t) {
                Some((p, d)) if d <= full => p,
                _ => close_in(state, id, t, full),
            };
            move_to(state, table, id, to, "run", "ODD-R16.1");
            Ok(())
        }
        Choice::Parry => {
            state.f_mut(id).round.parry = true;
            table.emit(|| Event::Acted {
                who: id,
                act: "parries",
                on: None,
                detail: "AC 2 better this round, no attacks".into(),
                rule: "ODD-R24",
            });
            Ok(())
        }
        Choice::Retreat(way) => morale::retreat(state, table, id, way),
        Choice::Chop(o) => super::utility::chop(state, table, id, o),
        Choice::Withdraw => {
            withdraw(state, table, id);
            Ok(())
        }
        Choice::WithdrawAttacking(t) => {
            // ODD-R17.2: it strikes while still in reach, at −2, then backs away.
            state.f_mut(id).round.withdrawing = true;
            let (n, vs_normal) = attack_count(state, id, t);
            let manner = Manner {
                withdrawing: true,
                ..Manner::default()
            };
            series(state, table, id, t, n, manner, vs_normal, "ODD-R17.2")?;
            if state.f(id).is_up() {
                withdraw(state, table, id);
            }
            Ok(())
        }
        Choice::Subdue(t) => {
            let form = match state.p(id).melee.first() {
                Some(f) => f.clone(),
                None => return Ok(()),
            };
            let manner = Manner {
                subdue: true,
                ..Manner::default()
            };
            attack::attack(state, table, id, t, &form, manner, "ODD-R27.5")?;
            Ok(())
        }
        Choice::Disarm(t) | Choice::Dismount(t) | Choice::Entangle(t, _) | Choice::Grapple(t) => {
            special_attack(state, table, id, t, choice)
        }
        _ => Ok(()),
    }
}

/// ODD-R16.2: a caster whose target is beyond the spell's reach steps up to 10 ft toward it.
fn caster_steps(state: &mut State, table: &mut Table<'_, Odd>, id: CombatantId) {
    let Some((s, t)) = state.f(id).round.casting else {
        return;
    };
    let reach = super::legal::spell_reach(state, id, s);
    let feet = state.f(id).pos.feet_to(state.f(t).pos);
    // No step toward a target inside a swallower: the spell is wasted (ODD-R12.4).
    let inside = state.f(t).swallowed_by.is_some();
    if state.options.mass || feet <= reach || state.engaged(id) || inside {
        return;
    }
    let steps =
        ((feet - reach) / State::SQUARE_FT).min(super::legal::CASTER_STEP_FT / State::SQUARE_FT);
    let to = close_in(state, id, t, steps);
    move_to(state, table, id, to, "casting", "ODD-R16.2");
}

/// Where `id` gets stepping up to `steps` squares toward `t` (it is not moved).
fn close_in(state: &mut State, id: CombatantId, t: CombatantId, steps: i32) -> Pos {
    let target = state.f(t).pos;
    let start = state.f(id).pos;
    let mut at = start;
    for _ in 0..steps {
        match state.step_toward(id, target) {
            Some(next) => {
                state.set_square(id, next);
                at = next;
            }
            None => break,
        }
    }
    state.set_square(id, start);
    at
}

/// ODD-A25 (a DM hook, `[options] friendly_fire`): a missile that misses a foe in melee with
/// the shooter's friends flies on at one of them — the one nearest the shooter (ties: roster
/// order) — and is rolled again against it. Elves with bows and javelins and hobbits with
/// slings (the missiles their class fires on the run, ODD-R16.4) fire into melee "without
/// risk of hitting friendly forces".
fn stray_shot(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    id: CombatantId,
    t: CombatantId,
    form: &Form,
) -> Result<(), Interrupt> {
    if !state.options.friendly_fire || state.options.mass {
        return Ok(());
    }
    let p = state.p(id);
    if p.missile
        .as_ref()
        .is_some_and(|w| p.fire_on_run.contains(&w.kind))
    {
        return Ok(());
    }
    let from = state.f(id).pos;
    let friend = state
        .ids()
        .filter(|&f| {
            f != id
                && !state.foes(id, f)
                && state.f(f).is_up()
                && state.f(f).swallowed_by.is_none()
                && state.in_melee(f, t)
        })
        .min_by_key(|&f| (from.squares_to(state.f(f).pos), f.0));
    let Some(friend) = friend else {
        return Ok(());
    };
    table.emit(|| Event::Acted {
        who: id,
        act: "misses into the melee toward",
        on: Some(friend),
        detail: "the shot may hit a friend fighting the target".into(),
        rule: "ODD-A25",
    });
    let manner = Manner {
        missile: true,
        ..Manner::default()
    };
    attack::attack(state, table, id, friend, form, manner, "ODD-A25")?;
    Ok(())
}

/// ODD-R17.4: `id`, engaged, moves through the line of foes to attack `t` beyond it (to the
/// strike square `to`, `d` squares away): it rolls d6 + DEX once, and each foe it passes
/// within 10 ft (those it leaves included, `t` not) rolls against it as it is passed; each
/// that rolls higher gets one free attack at +2, ignoring its shield ("See rule for
/// 'Retreat'": "duck and dodge away or through the line").
fn through_line(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    id: CombatantId,
    t: CombatantId,
    to: Pos,
    d: i32,
) -> Result<(), Interrupt> {
    let path = flight::walk(state, id, to, d);
    let passed = flight::passed(state, id, &path, |o| o != t);
    // Nobody passed: no contest is rolled.
    let mine = if passed.is_empty() {
        0
    } else {
        flight::contest_roll(state, table, id, "moves through the line", "ODD-R17.4")?
    };
    let passing = flight::Passing::Contest(mine);
    flight::walk_past(state, table, id, &path, &passed, passing)
}

/// ODD-R17.2: a fighting withdrawal backs away at half speed (half the ½-Turn move), with
/// AC 2 better for the round.
fn withdraw(state: &mut State, table: &mut Table<'_, Odd>, id: CombatantId) {
    state.f_mut(id).round.withdrawing = true;
    let steps = state.move_squares(id) / 4;
    let start = state.f(id).pos;
    let mut at = start;
    for _ in 0..steps {
        match state.step_away(id) {
            Some(next) => {
                state.set_square(id, next);
                at = next;
            }
            None => break,
        }
    }
    state.set_square(id, start);
    move_to(state, table, id, at, "fighting withdrawal", "ODD-R17.2");
    table.emit(|| Event::Acted {
        who: id,
        act: "withdraws",
        on: None,
        detail: "AC 2 better this round".into(),
        rule: "ODD-R17.2",
    });
}

/// ODD-R14, R25, R28.1: the to-hit roll of a disarm, dismount, entangle or grapple, and what
/// follows a hit.
fn special_attack(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    id: CombatantId,
    t: CombatantId,
    choice: Choice,
) -> Result<(), Interrupt> {
    let rule = match choice {
        Choice::Disarm(_) => "ODD-R25.2",
        Choice::Dismount(_) => "ODD-R25.1",
        Choice::Entangle(..) => "ODD-R14.2",
        _ => "ODD-R28.1",
    };
    let Some(form) = state.p(id).melee.first().cloned() else {
        return Ok(());
    };
    let manner = Manner {
        no_damage: true,
        ..Manner::default()
    };
    if !attack::attack(state, table, id, t, &form, manner, rule)?.hit {
        return Ok(());
    }
    let gap = tables::level_gap_bonus(state.p(t).level, state.p(id).level);
    match choice {
        Choice::Disarm(_) => {
            if !save(state, table, t, gap, "disarm", rule)? {
                state.f_mut(t).disarmed = true;
                table.emit(|| Event::Acted {
                    who: id,
                    act: "disarms",
                    on: Some(t),
                    detail: "it fights on with its bare hands".into(),
                    rule,
                });
            }
        }
        Choice::Dismount(_) => {
            if !save(state, table, t, gap, "dismount", rule)? {
                state.f_mut(t).dismounted = true;
                table.emit(|| Event::Acted {
                    who: id,
                    act: "unhorses",
                    on: Some(t),
                    detail: String::new(),
                    rule,
                });
            }
        }
        Choice::Entangle(_, weapon) => {
            // The wielder saves, less the target's STR bonus (ODD-R14.2).
            let str_bonus = state.p(t).str_bonus;
            if save(state, table, id, -str_bonus, "entangle", rule)? {
                if weapon {
                    state.f_mut(t).disarmed = true;
                } else {
                    state.f_mut(t).knocked_down = Some("ODD-R14.2");
                }
                table.emit(|| Event::Acted {
                    who: id,
                    act: "entangles",
                    on: Some(t),
                    detail: if weapon {
                        "its weapon is pulled from its grasp".into()
                    } else {
                        "it is yanked off its feet: its next action is spent getting up".into()
                    },
                    rule,
                });
            }
        }
        _ => {
            state.grapples.push((t, id));
            table.emit(|| Event::Acted {
                who: id,
                act: "grapples",
                on: Some(t),
                detail: String::new(),
                rule: "ODD-R28.1",
            });
        }
    }
    Ok(())
}

/// A Save vs Paralysis of `who` with a bonus: d20 + bonus at or over its target.
fn save(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    bonus: i32,
    purpose: &'static str,
    rule: &'static str,
) -> Result<bool, Interrupt> {
    let target = state.p(who).paralysis;
    let roll = table.roll(RollRequest::new(1, 20, Some(who), RollPurpose::Check, rule))? as i32;
    let total = roll + bonus;
    let saved = total >= target;
    table.emit(|| Event::Check {
        who: Subject::Combatant(who),
        purpose,
        dice: "d20".into(),
        roll: roll as u32,
        modifiers: if bonus == 0 {
            Vec::new()
        } else {
            vec![fray_core::event::Modifier::new("save bonus", rule, bonus)]
        },
        total,
        against: "save vs paralysis",
        target,
        under: false,
        success: Some(saved),
        result: if saved {
            "saves".into()
        } else {
            "fails".into()
        },
        rule,
    });
    Ok(saved)
}

/// ODD-R28.2, R28.3: after a count, each combatant grappled this count (and each pinned one)
/// rolls 1d6 per HD against its grapplers' 1d6 per HD each: lower, pinned helplessly; equal,
/// struggling (no weapon); higher, thrown off, the grapplers stunned for the difference in
/// rounds, and initiative rolled again (ODD-R28.4).
fn grapples(state: &mut State, table: &mut Table<'_, Odd>) -> Result<(), Interrupt> {
    let mut targets: Vec<CombatantId> = state.grapples.iter().map(|g| g.0).collect();
    targets.sort_unstable();
    targets.dedup();
    for t in targets {
        let mut grapplers: Vec<CombatantId> = state
            .grapples
            .iter()
            .filter(|g| g.0 == t)
            .map(|g| g.1)
            .chain(state.f(t).pinned_by.iter().copied())
            .filter(|&g| state.f(g).is_up())
            .collect();
        grapplers.sort_unstable();
        grapplers.dedup();
        if !state.f(t).is_up() || grapplers.is_empty() {
            continue;
        }
        let mut theirs = 0;
        for &g in &grapplers {
            let dice = state.p(g).level.max(1) as u16;
            theirs += table.roll(RollRequest::new(
                dice,
                6,
                Some(g),
                RollPurpose::Other,
                "ODD-R28.2",
            ))? as i32;
        }
        let dice = state.p(t).level.max(1) as u16;
        let mine = table.roll(RollRequest::new(
            dice,
            6,
            Some(t),
            RollPurpose::Other,
            "ODD-R28.2",
        ))? as i32;
        let result = tables::grapple(mine, theirs);
        table.emit(|| Event::Check {
            who: Subject::Combatant(t),
            purpose: "grapple",
            dice: format!("{dice}d6"),
            roll: mine as u32,
            modifiers: Vec::new(),
            total: mine,
            against: "the grapplers' dice",
            target: theirs,
            under: false,
            success: Some(matches!(result, tables::Grapple::ThrowsOff(_))),
            result: match result {
                tables::Grapple::Pinned => "pinned helplessly".into(),
                tables::Grapple::Struggling => "struggling: it cannot use its weapon".into(),
                tables::Grapple::ThrowsOff(n) => format!("throws them off: stunned {n} round(s)"),
            },
            rule: "ODD-R28.3",
        });
        let round = state.round;
        match result {
            tables::Grapple::Pinned => state.f_mut(t).pinned_by = grapplers,
            tables::Grapple::Struggling => {
                let f = state.f_mut(t);
                f.pinned_by.clear();
                f.struggling = true;
            }
            tables::Grapple::ThrowsOff(n) => {
                state.f_mut(t).pinned_by.clear();
                for g in grapplers {
                    state.f_mut(g).stunned_until = round + n as u32;
                }
                state.reroll_next = true;
            }
        }
    }
    state.grapples.clear();
    Ok(())
}

/// ODD-R4.4, R20.1, R26.9: in the first round, a foe with a longer weapon reach that has not
/// acted yet strikes first (its whole turn), unless it was surprised.
fn longer_reach_first(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    id: CombatantId,
    t: CombatantId,
) -> Result<(), Interrupt> {
    let (ft, pt) = (state.f(t), state.p(t));
    let ready = state.round == 1
        && ft.is_up()
        && !ft.round.acted
        && ft.round.casting.is_none()
        && !pt.melee.is_empty()
        && !routed(state, t)
        && helpless(state, t).is_none()
        && !state.side_surprised(ft.side)
        && pt.reach() - state.p(id).reach() >= state.options.reach_advantage;
    if !ready {
        return Ok(());
    }
    table.emit(|| Event::Acted {
        who: t,
        act: "strikes first against",
        on: Some(id),
        detail: "a longer weapon reach in the first round of melee".into(),
        rule: "ODD-R20.1",
    });
    turn(state, table, t)
}

/// Who strikes first when a spear is set against a charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SpearOrder {
    /// The set spear (ODD-R26.6: chargers on foot with ordinary melee weapons; or it outreaches
    /// the charger, R26.9).
    SpearFirst,
    /// The charger: mounted or with a lance or natural weapons, and of longer reach (R26.9).
    ChargerFirst,
    /// Equal reach (R26.9 names no first): both at the same moment; both blows land.
    Together,
}

/// ODD-R26.6, R26.9: the order of a set spear and the charge it is set against.
fn spear_order(state: &State, charger: CombatantId, spear: CombatantId) -> SpearOrder {
    let pc = state.p(charger);
    let mounted = pc.mounted && !state.f(charger).dismounted;
    let ordinary = pc
        .melee
        .first()
        .and_then(|f| f.weapon.as_ref())
        .is_some_and(|w| !w.has("lance") && !w.has("unarmed"))
        && !state.f(charger).disarmed;
    if !mounted && ordinary {
        return SpearOrder::SpearFirst;
    }
    match pc.reach().cmp(&state.p(spear).reach()) {
        std::cmp::Ordering::Greater => SpearOrder::ChargerFirst,
        std::cmp::Ordering::Equal => SpearOrder::Together,
        std::cmp::Ordering::Less => SpearOrder::SpearFirst,
    }
}

/// ODD-R26.6: a foe with a spear or pike that has not acted may set it against the charge (a
/// reaction; its action this round). Returns the order of the two, when it is set.
fn set_spear(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    id: CombatantId,
    t: CombatantId,
) -> Result<Option<SpearOrder>, Interrupt> {
    let (ft, pt) = (state.f(t), state.p(t));
    let spear = pt
        .melee
        .first()
        .and_then(|f| f.weapon.as_ref())
        .is_some_and(|w| (w.has("spear") || w.has("pike")) && !ft.disarmed);
    if !spear
        || !ft.is_up()
        || ft.round.acted
        || routed(state, t)
        || helpless(state, t).is_some()
        || !state.in_melee(id, t)
    {
        return Ok(None);
    }
    state.set_against = Some(id);
    let answer = ask(state, table, t, Question::Reaction, "ODD-R26.6");
    state.set_against = None;
    if answer? != Choice::Attack(id) {
        return Ok(None);
    }
    state.f_mut(t).round.acted = true;
    let order = spear_order(state, id, t);
    if order != SpearOrder::SpearFirst {
        let detail = match order {
            SpearOrder::ChargerFirst => "the charger's longer reach strikes first",
            _ => "equal reach: both strike at the same moment",
        };
        table.emit(|| Event::Acted {
            who: t,
            act: "sets its spear against",
            on: Some(id),
            detail: detail.into(),
            rule: "ODD-R26.9",
        });
    }
    Ok(Some(order))
}

/// ODD-R26.6: the set spear's blow on the charger: +2, double damage.
fn spear_strikes(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    t: CombatantId,
    charger: CombatantId,
) -> Result<(), Interrupt> {
    let Some(form) = state.p(t).melee.first().cloned() else {
        return Ok(());
    };
    if !state.f(t).is_up() {
        return Ok(());
    }
    let manner = Manner {
        set_spear: true,
        ..Manner::default()
    };
    attack::attack(state, table, t, charger, &form, manner, "ODD-R26.6")?;
    Ok(())
}

/// How many of `n` attacks are made now: in the first slot, ceil(n/2) (the rest wait for the end
/// of the round, ODD-A8); otherwise all.
fn first_share(state: &mut State, id: CombatantId, n: i32, vs_normal: bool) -> i32 {
    // ODD-R10.3: the shortcut settles the round's attacks at once.
    let shortcut = shortcut_applies(state, vs_normal, n);
    if state.slot == Slot::First && vs_normal && state.p(id).character && !shortcut {
        let (now, later) = tables::split_attacks(n);
        state.f_mut(id).round.last_attacks = later as u8;
        now
    } else {
        n
    }
}

/// ODD-R10.3, ODD-G5: the DM's shortcut mode, for several attacks on Normal Men outside mass
/// combat.
fn shortcut_applies(state: &State, vs_normal: bool, n: i32) -> bool {
    state.options.shortcut && vs_normal && n > 1 && !state.options.mass
}

/// `n` melee attacks of `who`, starting on `t`, made in `first`'s manner (a charge: the first
/// only). Several attacks
/// against Normal Men go on to another Normal Man in melee when the target falls (the attacker
/// chooses); otherwise the rest are lost.
#[allow(clippy::too_many_arguments)]
fn series(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    t: CombatantId,
    n: i32,
    first: Manner,
    vs_normal: bool,
    rule: &'static str,
) -> Result<(), Interrupt> {
    let (forms, start) = series_forms(state, who, first);
    if forms.is_empty() {
        return Ok(());
    }
    // ODD-R10.3: the shortcut mode turns plain attacks on Normal Men into kills.
    let plain = !first.charge && !first.withdrawing && state.p(who).character;
    if shortcut_applies(state, vs_normal, n) && plain {
        return super::shortcut::strike(state, table, who, t, n);
    }
    let mut target = t;
    for i in 0..n {
        if !state.f(target).is_up() {
            let more = vs_normal
                && state.ids().any(|o| {
                    state.foes(who, o)
                        && state.f(o).is_up()
                        && state.p(o).normal_man
                        && state.in_melee(who, o)
                });
            if !more {
                let left = n - i;
                table.emit(|| Event::Forgone {
                    who,
                    what: "attack",
                    on: Some(target),
                    reason: format!("{left} attack(s) left and no foe for them in reach"),
                    rule,
                });
                return Ok(());
            }
            state.pressing = true;
            let choice = ask(state, table, who, Question::Action, "ODD-R10.1");
            state.pressing = false;
            match choice? {
                Choice::Attack(next) => target = next,
                _ => return Ok(()),
            }
        }
        melee_blow(
            state, table, who, target, i as usize, &forms, start, first, rule,
        )?;
    }
    Ok(())
}

/// The forms a series of melee attacks by `who` cycles through, and the one it opens with,
/// fixed when the series begins: inside a swallower only a dagger serves (ODD-R13); a charge
/// opens with large horns or tusks (ODD-R26.10).
pub fn series_forms(state: &State, who: CombatantId, first: Manner) -> (Vec<Form>, usize) {
    let forms: Vec<Form> = if state.f(who).swallowed_by.is_some() {
        state.p(who).tight_space_forms().cloned().collect()
    } else {
        state.p(who).melee.clone()
    };
    let start = if first.charge {
        forms.iter().position(|f| f.horns).unwrap_or(0)
    } else {
        0
    };
    (forms, start)
}

/// Attack `i` (from 0) of a series of melee attacks on `target` (ODD-R10.1, R16.1): the
/// series' forms in turn from `start` ([`series_forms`], not empty), made in `first`'s manner,
/// whose charge bonuses go to the first attack only (ODD-R26.12) and whose later attacks are
/// not the first (ODD-R23.5). Nothing but the state is carried from one attack to the next
/// (the forms, `start`, `first` are fixed when the series begins), so `fray odds --routine`
/// can merge equal states between attacks.
#[allow(clippy::too_many_arguments)]
pub fn melee_blow(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    target: CombatantId,
    i: usize,
    forms: &[Form],
    start: usize,
    first: Manner,
    rule: &'static str,
) -> Result<attack::Blow, Interrupt> {
    let form = &forms[(start + i) % forms.len()];
    let manner = Manner {
        charge: first.charge && i == 0,
        later: first.later || i > 0,
        ..first
    };
    attack::attack(state, table, who, target, form, manner, rule)
}

/// ODD-R31.7: the mass-combat round: on each initiative count every unit (and character)
/// makes its throw(s) at a foe; units that failed morale leave.
fn mass_round(state: &mut State, table: &mut Table<'_, Odd>) -> Result<(), Interrupt> {
    for c in counts(state) {
        if over(state) {
            break;
        }
        state.slot = Slot::Count(c);
        let actors: Vec<CombatantId> = state
            .ids()
            .filter(|&id| state.f(id).is_up() && state.f(id).initiative == c)
            .collect();
        for id in actors {
            if !foe_left(state, id) {
                continue;
            }
            if routed(state, id) {
                if state.f(id).gone.is_none() {
                    morale::leave(state, table, id, Standing::Fled);
                }
                continue;
            }
            if let Choice::Attack(t) = ask(state, table, id, Question::Action, "ODD-R31.3")? {
                let (n, vs_normal) = attack_count(state, id, t);
                let n = if state.p(id).is_unit() { 1 } else { n };
                series(
                    state,
                    table,
                    id,
                    t,
                    n,
                    Manner::default(),
                    vs_normal,
                    "ODD-R31.3",
                )?;
            }
        }
        morale::checks(state, table, false)?;
        table.intervention_point(state)?;
    }
    state.slot = Slot::None;
    Ok(())
}
