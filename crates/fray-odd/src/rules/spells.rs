//! Spells and their interruption (ODD-R16.2, R29): a spell declared at the start of the round
//! goes off at the end of its caster's initiative count, unless the caster was hit and damaged
//! first.

use super::attack;
use crate::state::State;
use crate::Odd;
use fray_core::event::{Event, Modifier, Subject};
use fray_core::protocol::{RollPurpose, RollRequest};
use fray_core::{CombatantId, Interrupt, Table};

/// ODD-R29: the spell of `caster` at the end of its count: lost when a foe that won initiative
/// hit it (R29.2); a Save vs Paralysis (+PSY) when one on its count did (R29.1: fail → d6 1–4
/// lost, 5–6 miscast); else it goes off (R29.3).
pub fn resolve(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    caster: CombatantId,
) -> Result<(), Interrupt> {
    let Some((s, target)) = state.f(caster).round.casting else {
        return Ok(());
    };
    state.f_mut(caster).round.casting = None;
    if let Some(n) = state.f_mut(caster).spells_left.get_mut(usize::from(s)) {
        *n = n.saturating_sub(1);
    }
    let spell = state.p(caster).spells[usize::from(s)].clone();
    let name = spell.name.clone();
    let lost = |table: &mut Table<'_, Odd>, stage: &'static str, detail: String, rule| {
        table.emit(|| Event::Casting {
            who: caster,
            spell: name.clone(),
            on: Some(target),
            stage,
            detail,
            rule,
        });
    };
    let round = state.f(caster).round;
    if round.hit_earlier {
        lost(
            table,
            "lost",
            "hit and damaged by a foe that won initiative".into(),
            "ODD-R29.2",
        );
        return Ok(());
    }
    if round.hit_same_count {
        let p = state.p(caster);
        let (target_save, psy) = (p.paralysis, p.psy_bonus);
        let roll = table.roll(RollRequest::new(
            1,
            20,
            Some(caster),
            RollPurpose::Check,
            "ODD-R29.1",
        ))? as i32;
        let total = roll + psy;
        let saved = total >= target_save;
        table.emit(|| Event::Check {
            who: Subject::Combatant(caster),
            purpose: "save vs paralysis",
            dice: "d20".into(),
            roll: roll as u32,
            modifiers: if psy == 0 {
                Vec::new()
            } else {
                vec![Modifier::new("PSY", "ODD-R29.1", psy)]
            },
            total,
            against: "save",
            target: target_save,
            under: false,
            success: Some(saved),
            result: if saved {
                "the spell goes off".into()
            } else {
                "the spell is disturbed".into()
            },
            rule: "ODD-R29.1",
        });
        if !saved {
            let d6 = table.roll(RollRequest::new(
                1,
                6,
                Some(caster),
                RollPurpose::Other,
                "ODD-R29.1",
            ))?;
            if d6 <= 4 {
                lost(
                    table,
                    "lost",
                    format!("d6 {d6}: the spell is lost"),
                    "ODD-R29.1",
                );
            } else {
                lost(
                    table,
                    "miscast",
                    format!("d6 {d6}: the spell is miscast (its effect is the DM's, ODD-G7)"),
                    "ODD-R29.1",
                );
            }
            return Ok(());
        }
    }
    if !state.f(target).is_up() {
        lost(table, "wasted", "its target is gone".into(), "ODD-R29.3");
        return Ok(());
    }
    // ODD-R12.4: swallowed since the spell was declared: no spell reaches in or out.
    if state.f(caster).swallowed_by.is_some() || state.f(target).swallowed_by.is_some() {
        let whom = if state.f(caster).swallowed_by.is_some() {
            "the caster is"
        } else {
            "its target is"
        };
        lost(
            table,
            "wasted",
            format!("{whom} inside a swallower"),
            "ODD-R12.4",
        );
        return Ok(());
    }
    table.emit(|| Event::Casting {
        who: caster,
        spell: spell.name.clone(),
        on: Some(target),
        stage: "uses",
        detail: String::new(),
        rule: "ODD-R29.3",
    });
    if let Some(dice) = spell.damage {
        let rolled = table.roll_damage(dice, Some(caster), RollPurpose::Damage, "ODD-R29.3")?;
        let mods = if dice.bonus != 0 {
            vec![Modifier::new("spell", "ODD-R29.3", dice.bonus)]
        } else {
            Vec::new()
        };
        let amount = (rolled + dice.bonus).max(0);
        attack::damage(
            state,
            table,
            caster,
            target,
            amount,
            rolled,
            mods,
            "ODD-R29.3",
        )?;
    } else if let Some(dice) = spell.heal {
        let rolled = table.roll_damage(dice, Some(caster), RollPurpose::Other, "ODD-R29.3")?;
        let f = state.f_mut(target);
        let amount = (rolled + dice.bonus).clamp(0, (f.max_hp - f.hp).max(0));
        f.hp += amount;
        let hp = f.hp;
        table.emit(|| Event::Healed {
            who: target,
            amount,
            hp,
            rule: "ODD-R29.3",
        });
    }
    Ok(())
}
