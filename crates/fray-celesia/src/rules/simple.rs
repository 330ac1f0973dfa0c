//! Simple and free actions that need no items or spells beyond a combatant's weapons: Crawl and
//! Steady Aim (CEL-R9), Drop an Item (CEL-R14), and Weakened Attack's parts (a) and (b)
//! (CEL-R16.11): their legality and effects.

use super::round;
use crate::choice::Choice;
use crate::state::{Item, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{Board, CombatantId, Direction, Table};

/// The options of this module's actions for `who`.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    let f = state.f(who);
    if f.prone {
        out.extend(Direction::ALL.map(Choice::Crawl));
    }
    out.push(Choice::SteadyAim);
    let forms = state.p(who).melee.len().min(64) as u8;
    for item in (0..forms).map(Item::Melee).chain([Item::Ranged]) {
        if state.held(who, item).is_some() {
            out.push(Choice::DropItem(item));
        }
    }
    out.extend([Choice::WeakenAbility(1), Choice::WeakenDegrees(1)]);
}

/// Whether one of this module's actions is legal for `who` now (acts aside).
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let f = state.f(who);
    match *choice {
        Choice::Crawl(d) => {
            if !f.prone {
                return no(explain, "CEL-R9", || {
                    "Crawl is for a prone creature (standing, it moves or steps)".to_string()
                });
            }
            if f.held_by.is_some() || f.hold.is_some() || f.riding.is_some() {
                return no(explain, "CEL-R9", || {
                    "it cannot move while grappled, grappling or mounted".to_string()
                });
            }
            let to = f.pos.step(d);
            if !state.square_free(to, who) {
                return no(explain, "CEL-R9", || "that square is taken".to_string());
            }
            Illegal::unless(
                super::terrain::path_within(state, who, to, 1),
                explain,
                "CEL-R9",
                || "no crawling diagonally between two obstacles".to_string(),
            )
        }
        Choice::SteadyAim => Illegal::unless(
            state.ranged_weapon(who).is_some(),
            explain,
            "CEL-R9",
            || "Steady Aim is for a ranged attack: it has no usable ranged weapon".to_string(),
        ),
        Choice::DropItem(item) => {
            Illegal::unless(state.held(who, item).is_some(), explain, "CEL-R14", || {
                format!(
                    "`{}` is not a weapon it holds (a melee form number or `ranged`)",
                    item.key()
                )
            })?;
            super::gauntlet::check_let_go(explain, state, who, item, "drop")
        }
        Choice::WeakenAbility(n) | Choice::WeakenDegrees(n) => {
            let (set, what) = if matches!(choice, Choice::WeakenAbility(_)) {
                (f.weaken_ability, "ability damage")
            } else {
                (f.weaken_degrees, "degree dice")
            };
            if !(1..=20).contains(&n) {
                return no(explain, "CEL-R16.11", || {
                    format!("weaken its {what} by 1 to 20")
                });
            }
            Illegal::unless(set == 0, explain, "CEL-R16.11", || {
                format!("its next attack's {what} is weakened already")
            })
        }
        _ => no(explain, "CEL-R3", || "not an action".to_string()),
    }
}

/// Performs one of this module's actions (its acts are paid by `round::perform`).
pub fn perform(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    choice: Choice,
) -> Result<(), Interrupt> {
    match choice {
        Choice::Crawl(d) => crawl(state, table, who, d)?,
        Choice::SteadyAim => steady_aim(state, table, who)?,
        Choice::DropItem(item) => {
            // CEL-R14 Drop an Item (free): into its own space; it may pick it up again
            // (CEL-R9 Manipulate an Item).
            super::attack::drop_item(state, table, who, item, "CEL-R14");
        }
        Choice::WeakenAbility(n) => {
            state.fm(who).weaken_ability = n;
            table.emit(|| Event::Acted {
                who,
                act: "weakens its next attack",
                on: None,
                detail: format!("-{n} on its ability damage bonus (not below 0)"),
                rule: "CEL-R16.11",
            });
        }
        Choice::WeakenDegrees(n) => {
            state.fm(who).weaken_degrees = n;
            table.emit(|| Event::Acted {
                who,
                act: "weakens its next attack",
                on: None,
                detail: format!("rolls up to {n} fewer degree-of-success dice"),
                rule: "CEL-R16.11",
            });
        }
        _ => {}
    }
    Ok(())
}

/// CEL-R9 Crawl (Provoke): 5 ft while prone.
fn crawl(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    d: Direction,
) -> Result<(), Interrupt> {
    if !round::provoke(state, table, who, None)? {
        return Ok(());
    }
    let to = state.f(who).pos.step(d);
    if state.square_free(to, who) {
        round::move_to(state, table, who, to, "crawl", "CEL-R9");
    }
    Ok(())
}

/// CEL-R9 Steady Aim (Provoke): +4 per act on the next ranged attack, the acts consecutive
/// (over turns too) and the attack the very next act.
fn steady_aim(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    if !round::provoke(state, table, who, None)? {
        return Ok(());
    }
    let f = state.fm(who);
    let before = f.act_clock - 1;
    f.aim_acts = if f.aim_acts > 0 && f.aim_clock == before {
        f.aim_acts.saturating_add(1)
    } else {
        1
    };
    f.aim_clock = f.act_clock;
    let n = i32::from(f.aim_acts);
    table.emit(|| Event::Acted {
        who,
        act: "steadies its aim",
        on: None,
        detail: format!(
            "{n} act{}: +{} on its next ranged attack if it is the very next act",
            if n == 1 { "" } else { "s" },
            4 * n
        ),
        rule: "CEL-R9",
    });
    Ok(())
}

/// CEL-R9 Steady Aim: the bonus on a ranged attack whose act comes right after the aiming
/// acts (`act_clock` counts the attack's own act already), and the aim is used up.
pub fn take_aim(state: &mut State, who: CombatantId) -> i32 {
    let f = state.fm(who);
    let bonus = if f.aim_acts > 0 && f.aim_clock + 1 == f.act_clock {
        4 * i32::from(f.aim_acts)
    } else {
        0
    };
    f.aim_acts = 0;
    bonus
}

/// CEL-R16.11 (a): the ability-score damage bonus `ability` (the sum of the weapon's ability
/// modifiers) less the weakening, not below 0; returns the reduction. A bonus of 0 or less is
/// not changed (there is nothing to hold back).
pub fn ability_reduction(ability: i32, weaken: u8) -> i32 {
    if ability <= 0 {
        0
    } else {
        ability.min(i32::from(weaken))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weakened_ability_damage_stops_at_zero() {
        assert_eq!(ability_reduction(4, 1), 1);
        assert_eq!(ability_reduction(4, 20), 4);
        assert_eq!(ability_reduction(0, 3), 0);
        assert_eq!(ability_reduction(-2, 3), 0);
    }
}
