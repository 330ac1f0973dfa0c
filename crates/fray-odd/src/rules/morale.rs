//! Morale (ODD-R5), retreat and its parting shots (ODD-R17.3), pursuit (ODD-R30) and leaving
//! the fight (ODD-R32).

use super::{flight, tables};
use crate::choice::{Between, Flight};
use crate::state::State;
use crate::{Choice, Odd};
use fray_core::event::{Event, Subject};
use fray_core::protocol::{Chooser, Question, RollPurpose, RollRequest};
use fray_core::{CombatantId, Interrupt, Pos, Standing, Table};

/// Losses of a group: (dead men, dead or incapacitated men, starting size) — a unit counts its
/// men (ODD-R31.8).
fn losses(state: &State, g: usize) -> (u32, u32, u32) {
    let (mut dead, mut out, mut size) = (0, 0, 0);
    for &m in &state.groups[g].members {
        let (f, p) = (state.f(m), state.p(m));
        size += p.figures;
        let lost = p.figures - state.men_alive(m);
        if f.gone.is_some() {
            continue;
        }
        dead += lost;
        out += lost;
    }
    (dead, out, size)
}

/// ODD-R5.4, R5.5: checks every group whose triggers fired since the last look (one check for
/// triggers that coincide, ODD-A34). `start` adds the start-of-conflict trigger (a).
pub fn checks(state: &mut State, table: &mut Table<'_, Odd>, start: bool) -> Result<(), Interrupt> {
    // Checks come when a moment has resolved: its turns take effect now.
    state.end_of_moment();
    for g in 0..state.groups.len() {
        let group = &state.groups[g];
        if !group.checks_morale || group.routed || group.fearless() {
            continue;
        }
        let Some(first) = group.members.iter().copied().find(|&m| state.f(m).is_up()) else {
            continue;
        };
        let (dead, out, size) = losses(state, g);
        let (first_death, half) = tables::morale_triggers(dead, out, size);
        let mut why = Vec::new();
        if start && !group.started {
            why.push("start of the fight");
        }
        if first_death && !group.first_death {
            why.push("first death");
        }
        if half && !group.half_down {
            why.push("half the group down");
        }
        if group.upset {
            why.push("a leader fell");
        }
        let group = &mut state.groups[g];
        group.started |= start;
        group.first_death |= first_death;
        group.half_down |= half;
        group.upset = false;
        if why.is_empty() {
            continue;
        }
        let score = group.morale;
        let roll = table.roll(RollRequest::new(
            2,
            6,
            Some(first),
            RollPurpose::Check,
            "ODD-R5.6",
        ))? as i32;
        let pass = roll <= score;
        let group = &mut state.groups[g];
        let result = if pass {
            group.passes += 1;
            if group.fearless() {
                format!("holds twice ({}): fights to the death", why.join(", "))
            } else {
                format!("holds ({})", why.join(", "))
            }
        } else {
            group.routed = true;
            format!(
                "fails ({}): the {} group runs away",
                why.join(", "),
                group.key
            )
        };
        table.emit(|| Event::Check {
            who: Subject::Combatant(first),
            purpose: "morale",
            dice: "2d6".into(),
            roll: roll as u32,
            modifiers: Vec::new(),
            total: roll,
            against: "morale",
            target: score,
            under: true,
            success: Some(pass),
            result,
            rule: "ODD-R5.6",
        });
    }
    Ok(())
}

/// A combatant leaves the fight (ODD-R32.2).
pub fn leave(state: &mut State, table: &mut Table<'_, Odd>, who: CombatantId, how: Standing) {
    state.f_mut(who).gone = Some(how);
    let hp = state.f(who).hp;
    table.emit(|| Event::Status {
        who,
        status: match how {
            Standing::Surrendered => "off the field (surrendered)",
            Standing::Captured => "off the field (captured)",
            _ => "off the field (fled)",
        },
        hp,
        rule: "ODD-R32.2",
    });
    super::attack::free_swallowed(state, table, who);
}

/// ODD-R17.3, R17.5, R30: `who` turns and flees along its flight path: a d6 + DEX contest
/// with each foe it disengages from (ties re-rolled by the foe, ODD-A12); each foe that rolls
/// higher gets a parting shot at +2 ignoring its shield. A foe engaged with another of its
/// side gives none (ODD-R17.5); a foe it swallowed is inside it and gives none (ODD-R12.4).
/// Then it runs its full Turn movement along the path, and every other foe not in melee that
/// it passes within 10 ft gets a free attack the same way, with no contest (step 4, ODD-A39).
/// Then its opponents roll to pursue (ODD-R30).
pub fn retreat(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    way: Flight,
) -> Result<(), Interrupt> {
    let engaged: Vec<CombatantId> = state
        .ids()
        .filter(|&o| {
            state.foes(who, o)
                && state.f(o).is_up()
                && state.f(o).swallowed_by.is_none()
                && state.in_melee(who, o)
        })
        .collect();
    // ODD-R17.5: a foe engaged with another of our side gives no parting shot (one it
    // swallowed does not engage it, ODD-R12.4).
    let busy = |o: CombatantId| {
        state.ids().any(|x| {
            x != who
                && state.foes(o, x)
                && state.f(x).is_up()
                && state.f(x).swallowed_by.is_none()
                && state.in_melee(o, x)
        })
    };
    let opponents: Vec<CombatantId> = engaged.iter().copied().filter(|&o| !busy(o)).collect();
    if !opponents.is_empty() {
        let mine = flight::contest_roll(state, table, who, "turns to flee", "ODD-R17.3")?;
        for o in opponents {
            if flight::beats(state, table, o, mine, "ODD-R17.3")? {
                flight::free_attack(state, table, o, who, "ODD-R17.3")?;
            }
        }
    }
    if !state.f(who).is_up() {
        return Ok(());
    }
    // Where the chase starts: the gap before the flight (ODD-A36).
    let from = state.f(who).pos;
    if !state.options.mass {
        // ODD-R17.3 step 4: bystanders passed within 10 ft, not in melee with anyone.
        let steps = state.move_squares(who);
        let path = flight::path(state, who, way, steps);
        let bystanders = flight::passed(state, who, &path, |o| {
            !engaged.contains(&o) && !state.engaged(o)
        });
        flight::walk_past(
            state,
            table,
            who,
            &path,
            &bystanders,
            flight::Passing::Bystanders,
        )?;
        if !state.f(who).is_up() {
            return Ok(());
        }
    }
    pursue(state, table, who, &engaged, from)
}

/// ODD-R30: the chase after `who`, who fled from `engaged` standing at `from`. Each DM group
/// among them rolls 2d6 on the pursuit cut-off (ODD-R30.1, R30.6, ODD-A13); each character
/// among them is asked whether it pursues (the players' pursuit of a fleeing foe). A pursuer
/// faster at running speed would catch it (ODD-R30.7) unless the chase ends first
/// ([`chase_ends`]). Caught, it stays in the fight, attacked at +2 (ODD-R30.8); otherwise it
/// is gone (ODD-R32.2).
fn pursue(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    engaged: &[CombatantId],
    from: Pos,
) -> Result<(), Interrupt> {
    let character_group = |g: u16| {
        state.groups[usize::from(g)]
            .members
            .iter()
            .any(|&m| state.p(m).character)
    };
    let mut groups: Vec<u16> = engaged
        .iter()
        .map(|&o| state.f(o).group)
        .filter(|&g| !character_group(g))
        .collect();
    groups.sort_unstable();
    groups.dedup();
    let players: Vec<CombatantId> = engaged
        .iter()
        .copied()
        .filter(|&o| state.p(o).character)
        .collect();
    let quarry = state.move_inches(who);
    for g in groups {
        let members = state.groups[usize::from(g)].members.clone();
        let Some(first) = members.iter().copied().find(|&m| state.f(m).is_up()) else {
            continue;
        };
        let upto = state.tables.pursue_upto;
        let roll = table.roll(RollRequest::new(
            2,
            6,
            Some(first),
            RollPurpose::Check,
            "ODD-R30.1",
        ))? as i32;
        let pursues = roll <= upto;
        let fastest = members
            .iter()
            .copied()
            .filter(|&m| state.f(m).is_up())
            .max_by_key(|&m| (state.move_inches(m), std::cmp::Reverse(m.0)));
        let catcher = fastest.filter(|&m| pursues && state.move_inches(m) > quarry);
        table.emit(|| Event::Check {
            who: Subject::Combatant(first),
            purpose: "pursuit",
            dice: "2d6".into(),
            roll: roll as u32,
            modifiers: Vec::new(),
            total: roll,
            against: "pursue at or under",
            target: upto,
            under: true,
            success: Some(pursues),
            result: match (pursues, catcher) {
                (false, _) => "does not pursue".into(),
                (true, None) => "pursues, but is not faster".into(),
                (true, Some(_)) => "pursues, faster than its quarry".into(),
            },
            rule: "ODD-R30.7",
        });
        if let Some(c) = catcher {
            if chase_ends(state, table, who, c)? {
                continue;
            }
            catch(state, table, who, c, from);
            return Ok(());
        }
    }
    for c in players {
        if !state.f(c).is_up() || !state.f(who).is_up() {
            continue;
        }
        state.pursuing = Some(who);
        let answer = super::ask(state, table, c, Question::Reaction, "ODD-R30.1");
        state.pursuing = None;
        if answer? != Choice::Pursue(who) {
            continue;
        }
        let faster = state.move_inches(c) > quarry;
        table.emit(|| Event::Acted {
            who: c,
            act: "pursues",
            on: Some(who),
            detail: if faster {
                "faster than its quarry".into()
            } else {
                "not faster: it never catches it".into()
            },
            rule: "ODD-R30.7",
        });
        if faster {
            catch(state, table, who, c, from);
            return Ok(());
        }
    }
    leave(state, table, who, Standing::Fled);
    Ok(())
}

/// ODD-R30.3–R30.5: whether the chase of `who` by monster `c` ends before the catch. The quarry
/// may throw down food (for unintelligent pursuers) or fling treasure (for intelligent ones):
/// they stop on 1–5 on a d6 (ODD-R30.4). Then the DM rules what lies between them (or
/// `[options] pursuit_between` says): out of sight, the chase ends (ODD-R30.3); around a
/// corner, up or down stairs or through a door, it goes on on 1–2 on a d6, through a secret
/// door on 1 (ODD-R30.5); in sight, it goes on.
fn chase_ends(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    c: CombatantId,
) -> Result<bool, Interrupt> {
    let food = !state.p(c).intelligent;
    state.lure = Some(food);
    let answer = super::ask(state, table, who, Question::Reaction, "ODD-R30.4");
    state.lure = None;
    if answer? == Choice::Lure(food) {
        let roll = table.roll(RollRequest::new(
            1,
            6,
            Some(c),
            RollPurpose::Check,
            "ODD-R30.4",
        ))? as i32;
        let stops = roll <= 5;
        let what = if food {
            "stops to eat the food"
        } else {
            "stops for the treasure"
        };
        table.emit(|| Event::Check {
            who: Subject::Combatant(c),
            purpose: "lure",
            dice: "d6".into(),
            roll: roll as u32,
            modifiers: Vec::new(),
            total: roll,
            against: "stops at or under",
            target: 5,
            under: true,
            success: Some(stops),
            result: if stops {
                format!("{what}: the chase ends")
            } else {
                "runs past it: the chase goes on".into()
            },
            rule: "ODD-R30.4",
        });
        if stops {
            return Ok(true);
        }
    }
    let between = match state.options.pursuit_between {
        Some(b) => b,
        None => {
            let ruling =
                table.choose(state, Chooser::Gm, Question::Ruling, "ODD-R30.5", |out| {
                    out.extend_from_slice(crate::choice::rulings("ODD-R30.5"));
                })?;
            match ruling {
                Choice::Between(b) => b,
                _ => Between::InSight,
            }
        }
    };
    let upto = match between {
        Between::InSight => return Ok(false),
        Between::OutOfSight => {
            table.emit(|| Event::Acted {
                who: c,
                act: "loses sight of",
                on: Some(who),
                detail: "the chase ends".into(),
                rule: "ODD-R30.3",
            });
            return Ok(true);
        }
        Between::Corner | Between::Stairs | Between::Door => 2,
        Between::SecretDoor => 1,
    };
    let roll = table.roll(RollRequest::new(
        1,
        6,
        Some(c),
        RollPurpose::Check,
        "ODD-R30.5",
    ))? as i32;
    let goes_on = roll <= upto;
    table.emit(|| Event::Check {
        who: Subject::Combatant(c),
        purpose: "pursuit",
        dice: "d6".into(),
        roll: roll as u32,
        modifiers: Vec::new(),
        total: roll,
        against: "goes on at or under",
        target: upto,
        under: true,
        success: Some(goes_on),
        result: format!(
            "{}: {}",
            between.text(),
            if goes_on {
                "the chase goes on"
            } else {
                "the chase ends"
            }
        ),
        rule: "ODD-R30.5",
    });
    Ok(!goes_on)
}

/// ODD-R30.7, R30.8: `c` catches `who` (who fled from `from`): the rounds the chase took, and
/// `c` comes up to it; it attacks `who` at +2 until `who` turns and fights.
fn catch(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    c: CombatantId,
    from: Pos,
) {
    let gap = from.feet_to(state.f(c).pos);
    let inch = state.options.inch_ft;
    let rounds = tables::rounds_to_catch(
        gap,
        state.move_inches(c) * inch,
        state.move_inches(who) * inch,
    )
    .unwrap_or(0);
    state.f_mut(who).caught = true;
    if let Some((to, _)) = super::legal::approach(state, c, who) {
        super::round::move_to(state, table, c, to, "pursuit", "ODD-R30.7");
    }
    table.emit(|| Event::Acted {
        who: c,
        act: "catches",
        on: Some(who),
        detail: format!(
            "after {rounds} round(s) of pursuit; it attacks at +2 until the quarry turns"
        ),
        rule: "ODD-R30.8",
    });
}
