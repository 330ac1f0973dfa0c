//! Morale (ODD-R5), retreat and its parting shots (ODD-R17.3), pursuit (ODD-R30) and leaving
//! the fight (ODD-R32).

use super::attack::{self, Manner};
use super::tables;
use crate::state::State;
use crate::Odd;
use fray_core::event::{Event, Modifier, Subject};
use fray_core::protocol::{RollPurpose, RollRequest};
use fray_core::{CombatantId, Interrupt, Standing, Table};

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

/// ODD-R17.3, R17.5, R30: `who` turns and flees: a d6 + DEX contest with each foe it disengages
/// from (ties re-rolled by the foe, ODD-A12); each foe that rolls higher gets a parting shot at
/// +2 ignoring its shield. Then its opponents' groups roll to pursue; a faster pursuer catches
/// it (ODD-R30.7): it stays in the fight, attacked at +2. Otherwise it is gone.
pub fn retreat(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    let engaged: Vec<CombatantId> = state
        .ids()
        .filter(|&o| state.foes(who, o) && state.f(o).is_up() && state.in_melee(who, o))
        .collect();
    // ODD-R17.5: a foe engaged with another of our side gives no parting shot.
    let opponents: Vec<CombatantId> = engaged
        .iter()
        .copied()
        .filter(|&o| {
            !state
                .ids()
                .any(|x| x != who && state.foes(o, x) && state.f(x).is_up() && state.in_melee(o, x))
        })
        .collect();
    if !opponents.is_empty() {
        let dex = state.p(who).dex_bonus;
        let roll = table.roll(RollRequest::new(
            1,
            6,
            Some(who),
            RollPurpose::Initiative,
            "ODD-R17.3",
        ))? as i32;
        let mine = roll + dex;
        let mods = |v: i32| {
            if v == 0 {
                Vec::new()
            } else {
                vec![Modifier::new("DEX", "ODD-R17.3", v)]
            }
        };
        table.emit(|| Event::Check {
            who: Subject::Combatant(who),
            purpose: "retreat",
            dice: "d6".into(),
            roll: roll as u32,
            modifiers: mods(dex),
            total: mine,
            against: "",
            target: 0,
            under: false,
            success: None,
            result: "turns to flee".into(),
            rule: "ODD-R17.3",
        });
        for o in opponents {
            let odex = state.p(o).dex_bonus;
            let theirs = loop {
                let r = table.roll(RollRequest::new(
                    1,
                    6,
                    Some(o),
                    RollPurpose::Initiative,
                    "ODD-R17.3",
                ))? as i32;
                let total = r + odex;
                let tie = total == mine;
                table.emit(|| Event::Check {
                    who: Subject::Combatant(o),
                    purpose: "parting shot",
                    dice: "d6".into(),
                    roll: r as u32,
                    modifiers: mods(odex),
                    total,
                    against: "the retreat roll",
                    target: mine,
                    under: false,
                    success: (!tie).then_some(total > mine),
                    result: if tie {
                        "a tie: rolls again (ODD-A12)".into()
                    } else if total > mine {
                        "free attack".into()
                    } else {
                        "no free attack".into()
                    },
                    rule: "ODD-R17.3",
                });
                if !tie {
                    break total;
                }
            };
            if theirs > mine && state.f(who).is_up() {
                if let Some(form) = state.p(o).melee.first().cloned() {
                    let manner = Manner {
                        parting: true,
                        ..Manner::default()
                    };
                    attack::attack(state, table, o, who, &form, manner, "ODD-R17.3")?;
                }
            }
        }
    }
    if !state.f(who).is_up() {
        return Ok(());
    }
    pursue(state, table, who, &engaged)
}

/// ODD-R30.1, R30.6, R30.7: each DM group among the foes `who` fled from rolls 2d6 on the
/// pursuit cut-off (ODD-A13); a pursuing group faster at running speed catches it.
fn pursue(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    who: CombatantId,
    engaged: &[CombatantId],
) -> Result<(), Interrupt> {
    let mut groups: Vec<u16> = engaged
        .iter()
        .map(|&o| state.f(o).group)
        .filter(|&g| {
            !state.groups[usize::from(g)]
                .members
                .iter()
                .any(|&m| state.p(m).character)
        })
        .collect();
    groups.sort_unstable();
    groups.dedup();
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
                (true, Some(_)) => "pursues and catches it".into(),
            },
            rule: "ODD-R30.7",
        });
        if let Some(c) = catcher {
            let gap = state.f(who).pos.feet_to(state.f(c).pos);
            let inch = state.options.inch_ft;
            let rounds = tables::rounds_to_catch(gap, state.move_inches(c) * inch, quarry * inch)
                .unwrap_or(0);
            state.f_mut(who).caught = true;
            table.emit(|| Event::Acted {
                who: c,
                act: "catches",
                on: Some(who),
                detail: format!(
                    "after {rounds} round(s) of pursuit; it attacks at +2 until the quarry turns"
                ),
                rule: "ODD-R30.8",
            });
            return Ok(());
        }
    }
    leave(state, table, who, Standing::Fled);
    Ok(())
}
