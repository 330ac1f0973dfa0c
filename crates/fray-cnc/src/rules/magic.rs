//! Casting spells and using items (CNC-R4.3, CNC-R4.6): effects as data (heal or damage),
//! casting times that carry into later rounds, magical healing below 0 hit points (CNC-R19,
//! CNC-E7), and illusory damage (CNC-R20.3).

use super::damage::{self, magical_healing, Hit};
use crate::content::EffectKind;
use crate::state::{Casting, State};
use fray_core::event::Event;
use fray_core::protocol::RollPurpose;
use fray_core::{CombatantId, Interrupt, Ruleset, Table};

/// Casts a spell: casting time 1 goes off now; longer ones go off at the caster's turn
/// `casting time − 1` rounds later, and the caster does nothing else meanwhile. No movement.
/// [Seed: 3.2 Cast a Spell; CNC-R4.3]
pub fn cast<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    caster: CombatantId,
    spell: u16,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let profile = state.profiles.clone();
    if let Some(k) = profile[caster.index()]
        .spells
        .iter()
        .position(|&x| x == spell)
    {
        let left = &mut state.f_mut(caster).spells_left[k];
        *left = left.saturating_sub(1);
    }
    let time = state.magic[spell as usize].casting_time;
    if time <= 1 {
        return take_effect(state, table, caster, spell, target, "CNC-R4.3");
    }
    let goes_off = table.round() + time - 1;
    state.f_mut(caster).casting = Some(Casting {
        spell,
        target,
        goes_off,
    });
    table.emit(|| Event::Casting {
        who: caster,
        spell: state.magic[spell as usize].id.clone(),
        on: Some(target),
        stage: "begins",
        detail: format!("goes off in round {goes_off}"),
        rule: "CNC-R4.3",
    });
    Ok(())
}

/// The caster's turn while a long spell is under way: it keeps casting, or the spell goes off.
/// Returns true when the turn was spent on the spell. [CNC-R4.3]
pub fn continue_casting<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    caster: CombatantId,
) -> Result<bool, Interrupt> {
    let Some(casting) = state.f(caster).casting else {
        return Ok(false);
    };
    if table.round() < casting.goes_off {
        table.emit(|| Event::Casting {
            who: caster,
            spell: state.magic[casting.spell as usize].id.clone(),
            on: Some(casting.target),
            stage: "continues",
            detail: format!("goes off in round {}", casting.goes_off),
            rule: "CNC-R4.3",
        });
        return Ok(true);
    }
    state.f_mut(caster).casting = None;
    take_effect(
        state,
        table,
        caster,
        casting.spell,
        casting.target,
        "CNC-R4.3",
    )?;
    Ok(true)
}

/// Uses a readied item at once. [Seed: 3.5 Use an Item; CNC-R4.6]
pub fn use_item<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    user: CombatantId,
    item: u16,
    target: CombatantId,
) -> Result<(), Interrupt> {
    if let Some(k) = state.item_slot(user, item, true) {
        state.f_mut(user).items_left[k] -= 1;
    }
    take_effect(state, table, user, item, target, "CNC-R4.6")
}

/// Gets a packed item out; that is the round's action. [CNC-R4.6]
pub fn ready_item<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    user: CombatantId,
    item: u16,
) {
    if let Some(k) = state.item_slot(user, item, false) {
        state.f_mut(user).items_ready[k] = true;
        table.emit(|| Event::Casting {
            who: user,
            spell: state.magic[item as usize].id.clone(),
            on: None,
            stage: "readies",
            detail: "gets it out of the pack (that takes the round)".into(),
            rule: "CNC-R4.6",
        });
    }
}

/// Uses a class or racial ability; one that involves movement first moves its user up to its
/// movement rate toward the target. [Seed: 3.4 Use an Ability; CNC-R4.5, CNC-G6]
pub fn use_ability<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    user: CombatantId,
    ability: u16,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let profile = state.profiles.clone();
    if let Some(k) = profile[user.index()]
        .abilities
        .iter()
        .position(|&x| x == ability)
    {
        let left = &mut state.f_mut(user).abilities_left[k];
        *left = left.saturating_sub(1);
    }
    let m = state.magic[ability as usize].clone();
    let (from, at) = (state.f(user).pos, state.f(target).pos);
    if m.moves && target != user && from.feet_to(at) > m.range.max(5) {
        let budget = from.feet_to(at) - m.range.max(5);
        let to =
            super::movement::toward(state, user, at, budget.min(profile[user.index()].movement));
        if to != from {
            if let Some(dir) = from.direction_to(to) {
                state.f_mut(user).facing = dir;
            }
            state.set_square(user, to);
            table.emit(|| Event::Moved {
                who: user,
                from,
                to,
                feet: from.feet_to(to),
                mode: "ability",
                hidden: false,
                rule: "CNC-R4.5",
            });
        }
    }
    take_effect(state, table, user, ability, target, "CNC-R4.5")
}

fn take_effect<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    user: CombatantId,
    magic: u16,
    target: CombatantId,
    rule: &'static str,
) -> Result<(), Interrupt> {
    let m = state.magic[magic as usize].clone();
    if !state.f(target).present() {
        table.emit(|| Event::Casting {
            who: user,
            spell: m.id.clone(),
            on: Some(target),
            stage: "wastes",
            detail: format!("{} is dead", state.roster.name(target)),
            rule,
        });
        return Ok(());
    }
    let roll = table.roll_damage(m.dice, Some(user), RollPurpose::Other, rule)?;
    let amount = (roll + m.dice.bonus).max(0);
    table.emit(|| Event::Casting {
        who: user,
        spell: m.id.clone(),
        on: Some(target),
        stage: "uses",
        detail: String::new(),
        rule,
    });
    match m.effect {
        EffectKind::Heal => {
            let (hp, max) = (state.f(target).hp, state.p(target).max_hp);
            // Below 0 magical healing restores to 0 at most (CNC-R19, CNC-E7).
            let healed = magical_healing(hp, max, amount);
            let f = state.f_mut(target);
            f.hp = healed;
            if healed > -7 {
                f.mortal_since = None;
            }
            state.refresh_layer(target);
            table.emit(|| Event::Healed {
                who: target,
                amount: healed - hp,
                hp: healed,
                rule: "CNC-R19",
            });
        }
        EffectKind::Damage => {
            damage::apply(
                state,
                table,
                target,
                Hit {
                    roll,
                    modifiers: &[],
                    amount,
                    subdual: m.illusion,
                    weapon: false,
                    rule: "CNC-R20.3",
                    source: Some(user),
                },
            );
            // Illusory damage is subdual, but −10 from it kills by psychic shock (CNC-R20.3).
            let f = state.f(target);
            if m.illusion && f.hp <= -10 && !f.dead {
                state.f_mut(target).dead = true;
                state.refresh_layer(target);
                let hp = state.f(target).hp;
                table.emit(|| Event::Status {
                    who: target,
                    status: "dead (psychic shock)",
                    hp,
                    rule: "CNC-R20.3",
                });
            }
        }
    }
    Ok(())
}
