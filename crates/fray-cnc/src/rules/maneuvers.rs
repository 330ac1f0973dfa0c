//! Special unarmed attacks and maneuvers: grapple and breaking a hold (CNC-R11), pummel
//! (CNC-R12), overbear (CNC-R13), disarm (CNC-R17.3).

use super::attack::{face, situational};
use super::damage::{self, Hit};
use super::defense::{self, armor_class, disarm_ac, grapple_ac, overbear_ac, Defense, Reach};
use super::mods::Mods;
use crate::state::{Cond, State};
use fray_core::conditions::Expiry;
use fray_core::event::{AttackResult, Event};
use fray_core::protocol::RollPurpose;
use fray_core::{CombatantId, Interrupt, Ruleset, Table};

/// Rolls d20 + modifiers against a defence and logs it.
#[allow(clippy::too_many_arguments)]
fn roll_against<R: Ruleset<State = State>>(
    table: &mut Table<'_, R>,
    attacker: CombatantId,
    target: CombatantId,
    attack: &'static str,
    mods: Mods,
    defense_name: &'static str,
    def: Defense,
    rule: &'static str,
) -> Result<bool, Interrupt> {
    let roll = table.roll_dice(1, 20, Some(attacker), RollPurpose::Attack, rule)?;
    let total = roll as i32 + mods.total();
    let hit = total >= def.value;
    table.emit(|| Event::Attack {
        attacker,
        target,
        attack: attack.to_string(),
        roll,
        modifiers: mods.to_vec(),
        total,
        defense: defense_name,
        versus: def.value,
        defense_modifiers: def.mods.to_vec(),
        result: if hit {
            AttackResult::Hit
        } else {
            AttackResult::Miss
        },
        rule,
    });
    Ok(hit)
}

/// Grapple: d20 + STR + BtH against grapple AC; success holds the defender. [Seed: 7.1 Grappling]
pub fn grapple<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    face(state, attacker, target);
    let p = state.p(attacker);
    let mut mods = Mods::default();
    mods.add("STR", "CNC-R11.1", p.str_mod());
    mods.add("BtH", "CNC-R11.1", p.bth);
    let def = grapple_ac(state, attacker, target);
    defense::note_attack(state, attacker, target, false);
    if roll_against(
        table,
        attacker,
        target,
        "grapple",
        mods,
        "grapple AC",
        def,
        "CNC-R11.1",
    )? {
        state.set_held(target, attacker);
        table.emit(|| Event::Condition {
            who: target,
            condition: "held (prone and defenseless)",
            gained: true,
            rule: "CNC-R11.2",
        });
    }
    Ok(())
}

/// Breaking a hold: the held creature's own grapple roll against the holder's grapple AC.
/// [Seed: 7.1 Grappling; CNC-A4]
pub fn break_hold<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    held: CombatantId,
) -> Result<(), Interrupt> {
    let Some(holder) = state.f(held).held_by else {
        return Ok(());
    };
    let p = state.p(held);
    let mut mods = Mods::default();
    mods.add("STR", "CNC-R11.3", p.str_mod());
    mods.add("BtH", "CNC-R11.3", p.bth);
    let def = grapple_ac(state, held, holder);
    if roll_against(
        table,
        held,
        holder,
        "break hold",
        mods,
        "grapple AC",
        def,
        "CNC-R11.3",
    )? {
        release(state, table, held);
    }
    Ok(())
}

/// Ends a hold.
pub fn release<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    held: CombatantId,
) {
    if state.f_mut(held).held_by.take().is_some() {
        table.emit(|| Event::Condition {
            who: held,
            condition: "held (prone and defenseless)",
            gained: false,
            rule: "CNC-R11.3",
        });
    }
}

/// Pummel: d20 + STR + BtH + CK modifier against normal AC; 1d2 + STR subdual, at least 1.
/// [Seed: 7.2 Pummeling; CNC-A15]
pub fn pummel<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    face(state, attacker, target);
    let p = state.p(attacker);
    let mut mods = Mods::default();
    mods.add("STR", "CNC-R12.1", p.str_mod());
    mods.add("BtH", "CNC-R12.1", p.bth);
    mods.add("CK modifier", "CNC-G7", state.options.grapple_modifier);
    situational(state, attacker, target, Reach::Melee, &mut mods);
    let def = armor_class(state, attacker, target, Reach::Melee, false, true);
    defense::note_attack(state, attacker, target, def.dodge);
    if roll_against(
        table,
        attacker,
        target,
        "pummel",
        mods,
        "AC",
        def,
        "CNC-R12.1",
    )? {
        let roll = table.roll_dice(1, 2, Some(attacker), RollPurpose::Damage, "CNC-R12.2")? as i32;
        let str_mod = state.p(attacker).str_mod();
        let mut dmg = Mods::default();
        dmg.add("STR", "CNC-R12.2", str_mod);
        damage::apply(
            state,
            table,
            target,
            Hit {
                roll,
                modifiers: dmg.as_slice(),
                amount: (roll + str_mod).max(1),
                subdual: true,
                weapon: false,
                rule: "CNC-R12.2",
                source: Some(attacker),
            },
        );
    }
    Ok(())
}

/// Overbear: d20 + STR (+ BtH if the CK allows) + CK modifier against overbear AC; knocks prone
/// for the round with 1d2 subdual; the attacker is at −2 AC for the round. [Seed: 7.3 Overbearing]
pub fn overbear<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    face(state, attacker, target);
    let round = table.round();
    let p = state.p(attacker);
    let mut mods = Mods::default();
    mods.add("STR", "CNC-R13.1", p.str_mod());
    if state.options.overbear_uses_bth {
        mods.add("BtH (CK allows)", "CNC-G7", p.bth);
    }
    mods.add("CK modifier", "CNC-G7", state.options.grapple_modifier);
    let def = overbear_ac(state, attacker, target);
    defense::note_attack(state, attacker, target, false);
    state
        .f_mut(attacker)
        .conditions
        .add(Cond::Overbearing, Expiry::EndOfRound(round));
    let hit = roll_against(
        table,
        attacker,
        target,
        "overbear",
        mods,
        "overbear AC",
        def,
        "CNC-R13.1",
    )?;
    table.emit(|| Event::Condition {
        who: attacker,
        condition: "overbearing (−2 AC)",
        gained: true,
        rule: "CNC-R13.4",
    });
    if hit {
        state
            .f_mut(target)
            .conditions
            .add(Cond::Prone, Expiry::EndOfRound(round));
        table.emit(|| Event::Condition {
            who: target,
            condition: "prone",
            gained: true,
            rule: "CNC-R13.2",
        });
        let roll = table.roll_dice(1, 2, Some(attacker), RollPurpose::Damage, "CNC-R13.2")? as i32;
        damage::apply(
            state,
            table,
            target,
            Hit {
                roll,
                modifiers: &[],
                amount: roll,
                subdual: true,
                weapon: false,
                rule: "CNC-R13.2",
                source: Some(attacker),
            },
        );
    }
    Ok(())
}

/// Disarm: an attack (d20 + BtH + STR) against 18 + HD/level + DEX bonus. [Seed: 11.3 Disarm; CNC-E2]
pub fn disarm<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    face(state, attacker, target);
    let p = state.p(attacker);
    let mut mods = Mods::default();
    mods.add("BtH", "CNC-R7.1", p.bth);
    mods.add("STR", "CNC-R7.1", p.str_mod());
    let def = disarm_ac(state, target);
    defense::note_attack(state, attacker, target, false);
    if roll_against(
        table,
        attacker,
        target,
        "disarm",
        mods,
        "disarm AC",
        def,
        "CNC-R17.3",
    )? {
        state.f_mut(target).disarmed = true;
        table.emit(|| Event::Condition {
            who: target,
            condition: "disarmed (the weapon falls in an adjacent square)",
            gained: true,
            rule: "CNC-R17.3",
        });
    }
    Ok(())
}
