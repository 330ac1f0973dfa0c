//! Damage and hit points: applying normal and subdual damage (CNC-R20, R21, CNC-A9), the
//! hit-point bands (CNC-R19), mortal-wound bleeding and aid (CNC-A11), healing (CNC-R18, CNC-E7)
//! and falling damage (CNC-R22, CNC-A2).

use crate::state::State;
use fray_core::event::{Event, Modifier};
use fray_core::protocol::RollPurpose;
use fray_core::{CombatantId, Interrupt, Ruleset, Table};

/// The hit-point band a creature is in. [Seed: 12. Hit Points]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Band {
    /// 1 or more.
    Active,
    /// Exactly 0: out of action.
    OutOfAction,
    /// −1 to −6.
    Grievous,
    /// −7 to −9: loses 1 HP a round.
    Mortal,
    /// −10 or less.
    Dead,
}

/// The band of a hit-point total. [Seed: 12. Hit Points; CNC-R19]
pub fn band(hp: i32) -> Band {
    match hp {
        1.. => Band::Active,
        0 => Band::OutOfAction,
        -6..=-1 => Band::Grievous,
        -9..=-7 => Band::Mortal,
        _ => Band::Dead,
    }
}

/// Splits a subdual hit into `(normal, subdual)` with the running 1-in-5 conversion; a weapon
/// used to subdue always deals at least 1 normal point. [Seed: 13. Subdual Damage; CNC-A9]
pub fn split_subdual(running_before: i32, amount: i32, weapon: bool) -> (i32, i32) {
    let amount = amount.max(0);
    let crossings = (running_before + amount) / 5 - running_before / 5;
    let mut normal = crossings;
    if weapon && amount > 0 {
        normal = normal.max(1);
    }
    let normal = normal.min(amount);
    (normal, amount - normal)
}

/// One hit's damage to apply.
#[derive(Debug, Clone, Copy)]
pub struct Hit<'m> {
    /// The dice total.
    pub roll: i32,
    /// Modifiers already summed into `amount`.
    pub modifiers: &'m [Modifier],
    /// The damage after modifiers (before the subdual split).
    pub amount: i32,
    /// Subdual damage (CNC-R21).
    pub subdual: bool,
    /// A weapon used to subdue (at least 1 normal point).
    pub weapon: bool,
    /// The rule dealing it.
    pub rule: &'static str,
    /// Who deals it (None: bleeding, falls).
    pub source: Option<CombatantId>,
}

fn status_of(state: &State, id: CombatantId) -> &'static str {
    let f = state.f(id);
    if f.dead {
        return "dead";
    }
    match band(f.hp) {
        Band::Active => "active",
        Band::OutOfAction if state.options.zero_hp_conscious => "out of action (conscious)",
        Band::OutOfAction => "unconscious",
        Band::Grievous => "grievously wounded",
        Band::Mortal if bleeds(state, id) => "mortally wounded",
        Band::Mortal => "unconscious (stable)",
        Band::Dead => "unconscious (subdued)",
    }
}

/// True when the creature's normal damage alone puts it at −7 or below: subdual damage alone
/// never makes it bleed (CNC-A25).
pub fn bleeds(state: &State, id: CombatantId) -> bool {
    let f = state.f(id);
    band(f.hp) == Band::Mortal && f.hp + f.subdual_taken <= -7
}

/// True while a mortal wound is still bleeding (not yet stopped by aid): aid is needed.
pub fn needs_aid(state: &State, id: CombatantId) -> bool {
    let f = state.f(id);
    f.present() && f.mortal_since.is_some() && bleeds(state, id)
}

/// Applies a hit: subtracts hit points, records subdual, announces band changes, kills at −10
/// (subdual at −10 follows CNC-G10). [Seed: 13. Damage; 12. Hit Points]
pub fn apply<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    target: CombatantId,
    hit: Hit<'_>,
) {
    let amount = hit.amount.max(0);
    let (normal, subdual) = if hit.subdual {
        split_subdual(state.f(target).subdual_running, amount, hit.weapon)
    } else {
        (amount, 0)
    };
    let events = table.events_enabled();
    let before = if events { status_of(state, target) } else { "" };
    let round = table.round();
    {
        let f = state.f_mut(target);
        if hit.subdual {
            f.subdual_running += amount;
        }
        f.subdual_taken += subdual;
        f.hp -= normal + subdual;
        f.taken += normal + subdual;
    }
    if let Some(source) = hit.source {
        state.f_mut(source).dealt += normal + subdual;
    }
    settle(state, target, round);
    let hp = state.f(target).hp;
    table.emit(|| Event::Damage {
        target,
        roll: hit.roll,
        modifiers: hit.modifiers.to_vec(),
        normal,
        subdual,
        hp,
        rule: hit.rule,
    });
    if events {
        announce(state, table, target, before);
    }
}

/// Updates death and bleeding bookkeeping after a change of hit points.
fn settle(state: &mut State, target: CombatantId, round: u32) {
    settle_wounds(state, target, round);
    state.refresh_layer(target);
}

/// Death at −10 and the mortal-wound clock.
fn settle_wounds(state: &mut State, target: CombatantId, round: u32) {
    let subdual_kills = state.options.subdual_kills;
    let bleeding = bleeds(state, target);
    let f = state.f_mut(target);
    if f.hp <= -10 {
        // Normal damage alone to −10 kills; subdual to −10 kills only if the CK says so (CNC-G10).
        let normal_hp = f.hp + f.subdual_taken;
        if normal_hp <= -10 || subdual_kills {
            f.dead = true;
        }
    }
    if bleeding && f.mortal_since.is_none() {
        f.mortal_since = Some(round);
    }
    if f.hp > -7 {
        f.mortal_since = None;
    }
}

fn announce<R: Ruleset<State = State>>(
    state: &State,
    table: &mut Table<'_, R>,
    target: CombatantId,
    before: &'static str,
) {
    let after = status_of(state, target);
    if after != before && after != "active" {
        let hp = state.f(target).hp;
        let rule = match after {
            "dead" => "CNC-R19",
            "unconscious (subdued)" => "CNC-R21.4",
            _ => "CNC-R19",
        };
        table.emit(|| Event::Status {
            who: target,
            status: after,
            hp,
            rule,
        });
    }
}

/// End-of-round loss for creatures already mortally wounded before this round, unless aided this
/// round (aid for a full round stops the loss). [Seed: 12. Hit Points; CNC-A11]
pub fn bleed<R: Ruleset<State = State>>(state: &mut State, table: &mut Table<'_, R>) {
    let round = table.round();
    for id in (0..state.fighters.len() as u16).map(CombatantId) {
        let f = state.f(id);
        if !f.present() {
            continue;
        }
        let Some(since) = f.mortal_since else {
            continue;
        };
        if f.aided_in == Some(round) {
            state.f_mut(id).mortal_since = None;
            let hp = state.f(id).hp;
            table.emit(|| Event::Status {
                who: id,
                status: "stabilised by aid",
                hp,
                rule: "CNC-R19",
            });
            continue;
        }
        if since < round {
            let before = status_of(state, id);
            state.f_mut(id).hp -= 1;
            state.f_mut(id).taken += 1;
            settle(state, id, round);
            let hp = state.f(id).hp;
            table.emit(|| Event::Damage {
                target: id,
                roll: 0,
                modifiers: vec![Modifier::new("mortal wound bleeds", "CNC-R19", 1)],
                normal: 1,
                subdual: 0,
                hp,
                rule: "CNC-R19",
            });
            announce(state, table, id, before);
        }
    }
}

/// Magical healing: full effect from 0 HP up; below 0 it restores to 0 at most (the rest is
/// wasted). Never above maximum. Returns the new hit points. [Seed: 12. Hit Points; CNC-E7]
pub fn magical_healing(hp: i32, max_hp: i32, amount: i32) -> i32 {
    if hp < 0 {
        0
    } else {
        (hp + amount).min(max_hp)
    }
}

/// Hit points healed naturally on day `day` (1-based) of rest. [Seed: 12. Hit Points; CNC-A16]
pub fn natural_healing_on_day(day: u32, con_bonus: i32) -> i32 {
    let with_con = 1 + con_bonus.max(0);
    match day {
        0 => 0,
        1..=7 => 1,
        8..=14 => with_con,
        15..=30 => 2 * with_con,
        _ => 3 * with_con,
    }
}

/// Falling damage for a fall of `feet`: `None` below 5 ft; `Check` for 5–10 ft (DEX check, 1d6 on
/// failure); `Dice(n)` d6 beyond, `n = k(k+1)/2` with `k = floor((h+4)/10)`, capped by the CK
/// option. [Seed: 13. Falling Damage; CNC-R22, CNC-A2]
pub fn falling_damage(feet: i32, cap: Option<u32>) -> Falling {
    if feet < 5 {
        return Falling::None;
    }
    if feet <= 10 {
        return Falling::Check;
    }
    let k = ((feet + 4) / 10) as u32;
    let dice = k * (k + 1) / 2;
    Falling::Dice(cap.map_or(dice, |c| dice.min(c)))
}

/// A fall of `feet`: a DEX check for 5–10 ft (1d6 on failure), else the cumulative d6s, applied
/// as normal damage. [Seed: 13. Falling Damage; CNC-R22]
pub fn fall<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    who: CombatantId,
    feet: i32,
) -> Result<(), Interrupt> {
    let dice = match falling_damage(feet, state.options.fall_max_dice) {
        Falling::None => {
            table.emit(|| Event::Fell {
                who,
                feet,
                rule: "CNC-R22.1",
            });
            return Ok(());
        }
        Falling::Check => {
            table.emit(|| Event::Fell {
                who,
                feet,
                rule: "CNC-R22.2",
            });
            let check = super::checks::attribute_check(state, table, who, 1, 0, "CNC-R22.2")?;
            table.emit(|| {
                let result = if check.success {
                    "no damage"
                } else {
                    "1d6 damage"
                };
                check.event(who, "fall", result, "CNC-R22.2")
            });
            if check.success {
                return Ok(());
            }
            1
        }
        Falling::Dice(n) => {
            table.emit(|| Event::Fell {
                who,
                feet,
                rule: "CNC-R22.3",
            });
            n
        }
    };
    let roll = table.roll_dice(dice as u16, 6, Some(who), RollPurpose::Other, "CNC-R22")? as i32;
    apply(
        state,
        table,
        who,
        Hit {
            roll,
            modifiers: &[],
            amount: roll,
            subdual: false,
            weapon: false,
            rule: "CNC-R22",
            source: None,
        },
    );
    Ok(())
}

/// What a fall does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Falling {
    /// Nothing.
    None,
    /// A DEX check; 1d6 on failure.
    Check,
    /// This many d6.
    Dice(u32),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_follow_the_table() {
        assert_eq!(band(1), Band::Active);
        assert_eq!(band(0), Band::OutOfAction);
        assert_eq!(band(-6), Band::Grievous);
        assert_eq!(band(-7), Band::Mortal);
        assert_eq!(band(-9), Band::Mortal);
        assert_eq!(band(-10), Band::Dead);
    }

    #[test]
    fn cnc_e14_subdual_conversion() {
        // Sword used to subdue rolls 7 on a fresh target: 1 normal + 6 subdual.
        assert_eq!(split_subdual(0, 7, true), (1, 6));
        // Pummels of 2, 2, 2: the third crosses 5 → 1 normal + 1 subdual.
        assert_eq!(split_subdual(0, 2, false), (0, 2));
        assert_eq!(split_subdual(2, 2, false), (0, 2));
        assert_eq!(split_subdual(4, 2, false), (1, 1));
        // A weapon always converts at least one point.
        assert_eq!(split_subdual(0, 2, true), (1, 1));
    }

    #[test]
    fn cnc_e7_healing_below_zero_stops_at_zero() {
        assert_eq!(magical_healing(-1, 30, 8), 0);
        assert_eq!(magical_healing(0, 30, 8), 8);
        assert_eq!(magical_healing(25, 30, 8), 30);
    }

    #[test]
    fn cnc_e8_e9_falling() {
        assert_eq!(falling_damage(18, None), Falling::Dice(3));
        assert_eq!(falling_damage(45, None), Falling::Dice(10));
        assert_eq!(falling_damage(4, None), Falling::None);
        assert_eq!(falling_damage(5, None), Falling::Check);
        assert_eq!(falling_damage(10, None), Falling::Check);
        assert_eq!(falling_damage(11, None), Falling::Dice(1));
        assert_eq!(falling_damage(15, None), Falling::Dice(1));
        assert_eq!(falling_damage(16, None), Falling::Dice(3));
        assert_eq!(falling_damage(65, None), Falling::Dice(21));
        assert_eq!(falling_damage(65, Some(20)), Falling::Dice(20));
    }

    #[test]
    fn natural_healing_periods() {
        assert_eq!(natural_healing_on_day(7, 2), 1);
        assert_eq!(natural_healing_on_day(8, 2), 3);
        assert_eq!(natural_healing_on_day(15, 2), 6);
        assert_eq!(natural_healing_on_day(31, 2), 9);
        assert_eq!(natural_healing_on_day(31, -1), 3);
    }
}
