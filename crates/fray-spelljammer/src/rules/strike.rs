//! One strike: d100 against SC − DEF with every listed modifier, the automatic results,
//! critical and grievous hits, damage less PROT, stuck missiles, stun, wound modifiers, spell
//! interruption; and spells going off.

use super::tables;
use crate::choice::{Intent, Movement};
use crate::content::{Missile, SpellEffect};
use crate::state::{Asking, Stuck, SurpriseKind};
use crate::{Choice, Spelljammer, State};
use fray_core::event::{AttackResult, Event, Modifier, Subject};
use fray_core::protocol::RollPurpose;
use fray_core::Fault;
use fray_core::{CombatantId, Interrupt, Table};
use std::sync::Arc;

type T<'a, 'b> = &'a mut Table<'b, Spelljammer>;

/// The shared modifier accumulator (`fray_core::modifiers`).
pub(crate) use fray_core::modifiers::Modifiers as Mods;

/// Which blow is struck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blow {
    /// Index of the attack this round (picks the attack form).
    pub n: u8,
    /// With the ranged weapon.
    pub ranged: bool,
    /// A free attack on a withdrawing foe (SJ-R22): no shield for the target.
    pub free: bool,
}

/// Is `id` in the casting state now (SJ-R16.1)?
pub fn casting_now(state: &State, id: CombatantId) -> bool {
    match state.f(id).casting {
        Some(c) => {
            state.round > c.from_round
                || (state.round == c.from_round && state.segment <= c.from_segment)
        }
        None => false,
    }
}

/// The DEF of `id` before situational modifiers: armour and base, DEX, Defense skill, a ready
/// shield, always-on magic. [Seed: Hitting]
pub fn normal_def(state: &State, id: CombatantId) -> i32 {
    let p = state.p(id);
    let shield = if state.f(id).shield_slung {
        0
    } else {
        p.def_shield
    };
    p.def_base + p.def_dex + p.def_skill + shield + p.def_magic
}

/// How much a DEX-derived bonus (`def_dex`, `dex_mod`) drops while missiles are stuck in `id`
/// (≤ 0). The seed gives the DEX penalty (−2 arrow, −3 javelin, −4 spear, 1 more if grievous)
/// but no DEX-to-bonus table, so fray scales a positive bonus by the share of DEX left:
/// `bonus × (DEX − penalty) / DEX`, rounded down; a bonus of 0 or less is left alone
/// (docs/spelljammer.md). [Seed: Ranged Modifiers › Critical or Grievous Hits] SJ-R23.6
pub fn stuck_dex_loss(state: &State, id: CombatantId, bonus: i32) -> i32 {
    let penalty: i32 = state
        .f(id)
        .stuck
        .iter()
        .map(|s| tables::stuck_effect(s.missile, s.grievous).0)
        .sum();
    let dex = state.p(id).dex;
    if penalty == 0 || bonus <= 0 || dex <= 0 {
        return 0;
    }
    bonus * (dex + penalty).max(0) / dex - bonus
}

/// The PROT that still protects `id` (armour less grievous losses, plus GM adjustments).
pub fn prot(state: &State, id: CombatantId) -> i32 {
    let adjust: i32 = state
        .overrides
        .iter()
        .filter(|o| o.who == id && in_rounds(state.round, o.from_round, o.to_round))
        .map(|o| o.prot)
        .sum();
    (state.p(id).prot - state.f(id).prot_lost + adjust).max(0)
}

fn in_rounds(round: u32, from: u32, to: u32) -> bool {
    round >= from && round <= to
}

/// The wound modifier of `id` now (SJ-R12).
pub fn wound_modifier(state: &State, id: CombatantId) -> i32 {
    tables::wound_modifier(state.f(id).hp, state.p(id).max_hp)
}

/// The wound modifier of `id` as this segment's simultaneous actions see it (SJ-R12, SJ-A11).
fn wound_modifier_seen(state: &State, id: CombatantId) -> i32 {
    tables::wound_modifier(state.hp_seen(id), state.p(id).max_hp)
}

/// A DEX or PER ladder roll with the wound modifier: "wound modifiers apply to all actions
/// including … skill rolls", so a roll-under d100 counts as `roll − modifier` (at −10, a 35
/// counts as 45). Returns the roll that counts and how to write it.
/// [Seed: Wound Modifiers] SJ-R12.1
pub fn ladder_roll(state: &State, id: CombatantId, roll: u32) -> (u32, String) {
    let w = wound_modifier_seen(state, id);
    if w == 0 {
        return (roll, roll.to_string());
    }
    let counted = (roll as i32 - w).max(1) as u32;
    (
        counted,
        format!("{roll} {w:+} wounds (SJ-R12.1) = {counted}"),
    )
}

/// A d100 roll against an attribute as a check event: the die, the wounds' modifier (SJ-R12.1)
/// and the number counted, against `(what, value)`. `raw` is the die as rolled.
#[allow(clippy::too_many_arguments)]
pub fn ladder_check(
    state: &State,
    who: CombatantId,
    purpose: &'static str,
    raw: u32,
    (against, target): (&'static str, i32),
    success: Option<bool>,
    result: String,
    rule: &'static str,
) -> Event {
    let (counted, _) = ladder_roll(state, who, raw);
    let modifiers = if counted == raw {
        Vec::new()
    } else {
        vec![Modifier::new(
            "wounds",
            "SJ-R12.1",
            counted as i32 - raw as i32,
        )]
    };
    Event::Check {
        who: Subject::Combatant(who),
        purpose,
        dice: "d100".into(),
        roll: raw,
        modifiers,
        total: counted as i32,
        against,
        target,
        under: true,
        success,
        result,
        rule,
    }
}

/// How many attackers are on `target` in melee this round, counting tentacle pairs: the
/// creatures "that make a melee attack on the target in the current round" — `attacker` itself
/// (a free attack on a withdrawer counts too), every foe that has already struck it in melee this
/// round, and every foe still to strike it: up, its declared melee attacks aimed at it with some
/// left, and within reach of it now (with the 5-ft free move if still unused). A foe whose attack
/// is lost before it reaches the target is not counted. [Seed: Multiple Attackers] SJ-R18.2, SJ-A26
fn melee_attackers(state: &State, target: CombatantId, attacker: CombatantId) -> i32 {
    let at = state.f(target).pos;
    state
        .ids()
        .filter(|&o| {
            let f = state.f(o);
            if o == attacker || f.plan.melee_struck.contains(&target) {
                return true;
            }
            let free_move =
                f.plan.declaration.movement != Movement::NoMovement && !f.plan.free_move_used;
            let reach = state.reach(o).max(5) + if free_move { 5 } else { 0 };
            state.up_seen(o)
                && state.foes(o, target)
                && f.plan.target == Some(target)
                && matches!(f.plan.declaration.intent, Intent::Attack(_))
                && f.plan.attacks_made < f.plan.attacks_planned
                && !f.plan.actions_lost
                && f.pos.feet_to(at) <= reach
        })
        .map(|o| state.p(o).attacker_count.max(1))
        .sum()
}

/// A k× PER roll for a combatant that cannot see its foe (SJ-R18.1): the ladder step (1, 2, or
/// 3 for no success).
fn per_step(state: &State, table: T<'_, '_>, who: CombatantId) -> Result<u8, Interrupt> {
    let raw = table.roll_dice(1, 100, Some(who), RollPurpose::Check, "SJ-R18.1")?;
    let (roll, _) = ladder_roll(state, who, raw);
    let step = tables::ladder(roll, state.p(who).per, 2);
    table.emit(|| {
        let result = match step {
            1 => "1× PER",
            2 => "2× PER",
            _ => "no success",
        };
        let per = state.p(who).per;
        ladder_check(
            state,
            who,
            "unseen foe",
            raw,
            ("PER", per),
            Some(step <= 2),
            result.into(),
            "SJ-R18.1",
        )
    });
    Ok(step)
}

/// One blow by `attacker` at `target`, from rolling to hit to the damage and its consequences.
/// [Seed: Hitting; Critical and Grievous Hits; Taking Damage] SJ-R6–R11, R18, R23
pub fn strike(
    state: &mut State,
    table: T<'_, '_>,
    attacker: CombatantId,
    target: CombatantId,
    blow: Blow,
) -> Result<(), Interrupt> {
    let profiles = Arc::clone(&state.profiles);
    let ap = &profiles[attacker.index()];
    let tp = &profiles[target.index()];
    let form = if blow.ranged {
        match ap.ranged.as_ref() {
            Some(f) => f,
            None => return Ok(()),
        }
    } else {
        match ap.melee.get(blow.n as usize % ap.melee.len().max(1)) {
            Some(f) => f,
            None => return Ok(()),
        }
    };
    let keep = table.events_enabled();
    let round = state.round;
    if !blow.ranged && !state.f(attacker).plan.melee_struck.contains(&target) {
        state.f_mut(attacker).plan.melee_struck.push(target);
    }
    let a = state.f(attacker);
    let t = state.f(target);
    let a_decl = a.plan.declaration;
    let t_decl = t.plan.declaration;

    // Invisible foes: the one who cannot see rolls PER (SJ-R18.1).
    let sees_target = !t.invisible;
    let target_sees = !a.invisible;
    let attacker_step = if sees_target {
        0
    } else {
        per_step(state, table, attacker)?
    };
    let target_step = if target_sees {
        0
    } else {
        per_step(state, table, target)?
    };

    // — strike chance —
    let mut sc = Mods::recording(keep);
    sc.add("defending", "SJ-R19", -state.f(attacker).plan.sc_penalty);
    if !blow.free && a_decl.movement == Movement::RunAttack {
        sc.add("run and attack", "SJ-R17.3", -25);
    }
    if form.offhand && !ap.ambidextrous {
        sc.add("off hand", "SJ-R20.1", -20);
    }
    sc.add("wounds", "SJ-R12.1", wound_modifier_seen(state, attacker));
    sc.add("grievous wound", "SJ-G4", state.f(attacker).wounds.0);
    if ap.encumbered {
        sc.add("encumbered", "SJ-R18.5", -10);
    }
    if !ap.darkvision {
        sc.add(
            "lighting",
            "SJ-R18.4",
            tables::lighting_modifier(state.options.lighting),
        );
    }
    if state.stunned_seen(target) {
        sc.add("target stunned", "SJ-R18.3", 10);
    }
    if t_decl.aim {
        sc.add("target aiming (stationary)", "SJ-R23.2", 10);
    }
    if !sees_target {
        sc.add(
            "invisible foe",
            "SJ-R18.1",
            tables::invisible_penalty(attacker_step).0,
        );
    }
    if blow.ranged {
        sc.add("target size", "SJ-R23.4", tables::size_modifier(tp.size));
        let pace = target_pace(state, target);
        if !t_decl.aim {
            sc.add(
                "target movement",
                "SJ-R23.1",
                tables::target_movement_modifier(pace),
            );
        }
        let fast: i32 = state
            .options
            .fast_targets
            .iter()
            .filter(|(who, _)| *who == target)
            .map(|(_, v)| *v)
            .sum();
        sc.add("very fast target", "SJ-G3", fast);
        // Last round's aim carries to this round's first shot only if the archer stays still
        // (SJ-A21).
        let aim_carried = state.f(attacker).aimed
            && state.f(attacker).plan.attacks_made == 0
            && matches!(a_decl.intent, Intent::Shoot(_))
            && matches!(a_decl.movement, Movement::Stand | Movement::NoMovement);
        if a_decl.aim || aim_carried {
            sc.add("careful aim", "SJ-R23.2", 15);
        }
        if let Some(class) = form.class {
            if state.in_melee(attacker) {
                sc.add(
                    "ranged weapon in melee",
                    "SJ-R23.5",
                    tables::ranged_in_melee_penalty(class, ap.specialization),
                );
            }
        }
        sc.add(
            "cover",
            "SJ-R23.3",
            tables::cover_modifier(state.f(target).cover),
        );
    } else {
        let attackers = melee_attackers(state, target, attacker).max(1);
        sc.add(
            "multiple attackers",
            "SJ-R18.2",
            tables::multiple_attacker_bonus(
                attackers,
                tp.range_of_field,
                state.options.range_of_field_step,
            ),
        );
    }
    let surprise = state
        .surprises
        .iter()
        .find(|s| s.attacker == attacker && s.target == target && s.round == round)
        .map(|s| s.kind);
    if let Some(kind) = surprise {
        sc.add(
            "surprise",
            "SJ-R13",
            tables::surprise_sc_bonus(kind == SurpriseKind::OutOfCombat),
        );
    }
    let ambush_step = ambush_step(state, attacker, target);
    if let Some(step) = ambush_step {
        sc.add("ambush", "SJ-R14.1", tables::ambush_sc_bonus(step));
    }
    for o in state
        .overrides
        .iter()
        .filter(|o| o.who == attacker && in_rounds(round, o.from_round, o.to_round))
    {
        sc.add("GM adjustment", "SJ-G15", o.sc);
    }

    // — defence —
    let mut def = Mods::recording(keep);
    let normal = normal_def(state, target);
    let casting = casting_now(state, target);
    // Casting and careful aim take DEF from DEX away altogether (below).
    if !casting && !t_decl.aim {
        def.add(
            "stuck missile (DEX)",
            "SJ-R23.6",
            stuck_dex_loss(state, target, tp.def_dex),
        );
    }
    if casting {
        let lost = tp.def_dex + tp.def_skill + if t.shield_slung { 0 } else { tp.def_shield };
        def.add("casting", "SJ-R16.1", -lost);
    } else {
        if t_decl.aim {
            def.add("careful aim", "SJ-R23.2", -(tp.def_dex + tp.def_skill));
        }
        if blow.free && !t.shield_slung {
            def.add("no shield (withdrawing)", "SJ-R22.3", -tp.def_shield);
        }
    }
    if let Some(kind) = surprise {
        let now = normal + def.total();
        let kept = tables::surprise_def(now, tp.def_magic, kind == SurpriseKind::OutOfCombat);
        def.add("surprised", "SJ-R13", kept - now);
    }
    let t = state.f(target);
    let mode_label = match t_decl.intent {
        Intent::FullDefense => "full defense",
        Intent::DesperateDefense => "desperate defense",
        _ => "defending",
    };
    // A defensive mode parries the attacks the defender expects; against a surprise attack the
    // surprise rule sets its DEF instead (SJ-R13: half normal DEF, or only always-on magic).
    if surprise.is_none() {
        def.add(mode_label, "SJ-R19", t.plan.def_bonus);
    }
    if t_decl.movement == Movement::NoMovement {
        def.add("no movement", "SJ-R5.1", -20);
    }
    if tp.encumbered {
        def.add("encumbered", "SJ-R18.5", -10);
    }
    def.add("grievous wound", "SJ-G4", state.f(target).wounds.1);
    if t.plan.picking_up {
        def.add("picking up a weapon", "SJ-R21.1", -15);
    }
    if !target_sees {
        def.add(
            "cannot see attacker",
            "SJ-R18.1",
            tables::invisible_penalty(target_step).1,
        );
    }
    for o in state
        .overrides
        .iter()
        .filter(|o| o.who == target && in_rounds(round, o.from_round, o.to_round))
    {
        def.add("GM adjustment", "SJ-G15", o.def);
    }

    let strike_total = form.sc + sc.total();
    let def_total = normal + def.total();
    let needed = strike_total - def_total;
    // Exact odds need only the roll's class (nothing below reads the roll but through
    // `result`; events are not kept there).
    let classes = tables::strike_classes(needed);
    let roll = table.roll_classed(100, classes, Some(attacker), RollPurpose::Attack, "SJ-R6.1")?;
    let result = tables::strike_result(needed, roll);
    let rule = if blow.free { "SJ-R22.1" } else { "SJ-R6.1" };
    let name = if blow.free {
        format!("{} (free attack)", form.name)
    } else {
        form.name.clone()
    };
    table.emit(|| Event::Strike {
        attacker,
        target,
        attack: name,
        strike: form.sc,
        strike_modifiers: sc.take_list(),
        defense: normal,
        defense_modifiers: def.take_list(),
        needed,
        roll,
        result,
        rule,
    });
    if !result.is_hit() {
        return Ok(());
    }

    // — damage —
    let dice = table.roll_damage(form.damage, Some(attacker), RollPurpose::Damage, "SJ-R10.1")?;
    let mut dmg = Mods::recording(keep);
    dmg.add("damage bonus", "", form.damage.bonus);
    if form.offhand && !ap.ambidextrous {
        dmg.add("off hand", "SJ-R20.1", -2);
    }
    if let Some(step) = ambush_step {
        dmg.add("ambush", "SJ-R14.1", tables::ambush_damage_bonus(step));
    }
    let base = (dice + dmg.total()).max(0);
    let critical = matches!(result, AttackResult::Critical | AttackResult::Grievous);
    let taken = if critical {
        dmg.add("double damage, no PROT", "SJ-R8.2", base);
        2 * base
    } else {
        let p = prot(state, target).min(base);
        dmg.add("PROT", "SJ-R10.1", -p);
        base - p
    };
    let clip = (dice + dmg.total()) - taken;
    dmg.add("no negative damage", "SJ-R10.1", -clip);
    let rule = if critical { "SJ-R10.2" } else { "SJ-R10.1" };
    if result == AttackResult::Grievous {
        grievous(state, table, target)?;
    }
    if blow.ranged && critical {
        if let Some(missile) = form.missile {
            stick(
                state,
                table,
                target,
                missile,
                result == AttackResult::Grievous,
            );
        }
    }
    let mods = dmg.take_list();
    apply_damage(
        state, table, attacker, target, taken, true, dice, mods, rule,
    )
}

/// How a target moves this round, for ranged modifiers (SJ-R23.1).
fn target_pace(state: &State, target: CombatantId) -> tables::TargetPace {
    use tables::TargetPace;
    let d = state.f(target).plan.declaration;
    match (d.intent, d.movement) {
        (_, Movement::NoMovement) => TargetPace::Stationary,
        _ if casting_now(state, target) => TargetPace::Stationary,
        _ if state.p(target).pace.is_some() => state.p(target).pace.unwrap_or_default(),
        (Intent::Run(_), _) | (_, Movement::RunAttack) => TargetPace::Running,
        _ => TargetPace::Walking,
    }
}

/// In the ambush surprise round, the target's PER step (SJ-R14) when `attacker` is an ambusher.
fn ambush_step(state: &State, attacker: CombatantId, target: CombatantId) -> Option<u8> {
    if state.round != 0 {
        return None;
    }
    let ambush = state.ambush.as_ref()?;
    if state.f(attacker).side != ambush.by {
        return None;
    }
    state
        .ambush_results
        .iter()
        .find(|r| r.who == target)
        .map(|r| r.step)
}

/// A grievous hit: the armour loses 1 PROT until repaired, and the GM's grievous-wound chance.
/// [Seed: Critical and Grievous Hits] SJ-R8.3, SJ-G4
fn grievous(state: &mut State, table: T<'_, '_>, target: CombatantId) -> Result<(), Interrupt> {
    if state.p(target).prot - state.f(target).prot_lost > 0 {
        state.f_mut(target).prot_lost += 1;
        let left = state.p(target).prot - state.f(target).prot_lost;
        table.emit(|| Event::Worn {
            who: target,
            what: "PROT",
            by: 1,
            left,
            rule: "SJ-R8.3",
        });
    }
    let chance = state.options.grievous_wound_chance;
    if chance > 0 {
        let roll = table.roll_dice(1, 100, None, RollPurpose::Other, "SJ-G4")?;
        let wounded = roll as i32 <= chance;
        table.emit(|| Event::Check {
            who: Subject::Combatant(target),
            purpose: "grievous wound",
            dice: "d100".into(),
            roll,
            modifiers: Vec::new(),
            total: roll as i32,
            against: "the GM's grievous-wound chance",
            target: chance,
            under: true,
            success: Some(wounded),
            result: match (wounded, state.grievous_wounds.is_empty()) {
                (false, _) => "no grievous wound".into(),
                (true, false) => "a grievous wound: roll on the table".into(),
                (true, true) => "a grievous wound (the encounter has no grievous-wound table: \
                                 apply the GM's own)"
                    .into(),
            },
            rule: "SJ-G4",
        });
        if wounded && !state.grievous_wounds.is_empty() {
            grievous_wound(state, table, target)?;
        }
    }
    Ok(())
}

/// A roll on the GM's grievous-wound table (SJ-G4): the wound's SC and DEF penalties last the
/// rest of the fight, and its extra damage is taken at once.
fn grievous_wound(
    state: &mut State,
    table: T<'_, '_>,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let roll = table.roll_dice(1, 100, None, RollPurpose::Other, "SJ-G4")? as i32;
    let Some(line) = state
        .grievous_wounds
        .iter()
        .find(|w| roll <= w.upto)
        .cloned()
    else {
        table.emit(|| Event::Wounded {
            who: target,
            roll: roll as u32,
            wound: "none (the table names none: no lasting wound)".into(),
            modifiers: Vec::new(),
            rule: "SJ-G4",
        });
        return Ok(());
    };
    let f = state.f_mut(target);
    f.wounds.0 += line.sc;
    f.wounds.1 += line.def;
    table.emit(|| {
        let mut modifiers = Vec::new();
        if line.sc != 0 {
            modifiers.push(Modifier::new("SC", "SJ-G4", line.sc));
        }
        if line.def != 0 {
            modifiers.push(Modifier::new("DEF", "SJ-G4", line.def));
        }
        Event::Wounded {
            who: target,
            roll: roll as u32,
            wound: if line.damage > 0 {
                format!("{} ({} hp at once)", line.wound, line.damage)
            } else {
                line.wound.clone()
            },
            modifiers,
            rule: "SJ-G4",
        }
    });
    if line.damage > 0 {
        apply_damage(
            state,
            table,
            target,
            target,
            line.damage,
            false,
            line.damage,
            Vec::new(),
            "SJ-G4",
        )?;
    }
    Ok(())
}

/// A penetrating missile stays stuck after a critical or grievous hit (SJ-R23.6).
fn stick(
    state: &mut State,
    table: T<'_, '_>,
    target: CombatantId,
    missile: Missile,
    grievous: bool,
) {
    state.f_mut(target).stuck.push(Stuck { missile, grievous });
    table.emit(|| Event::Condition {
        who: target,
        condition: stuck_condition(missile),
        gained: true,
        rule: "SJ-R23.6",
    });
}

/// The condition a stuck missile shows in the log.
pub(crate) fn stuck_condition(missile: Missile) -> &'static str {
    match missile {
        Missile::Arrow => "pierced by a stuck arrow",
        Missile::Javelin => "pierced by a stuck javelin",
        Missile::Spear => "pierced by a stuck spear",
    }
}

/// Hit points lost by `target`; a hit may stun (SJ-R11) and interrupt a spell (SJ-R16.3); the
/// wound band may change (SJ-R12); at 0 hp or less it is out of the fight.
#[allow(clippy::too_many_arguments)]
pub fn apply_damage(
    state: &mut State,
    table: T<'_, '_>,
    source: CombatantId,
    target: CombatantId,
    taken: i32,
    hit: bool,
    roll: i32,
    modifiers: Vec<Modifier>,
    rule: &'static str,
) -> Result<(), Interrupt> {
    let before = wound_modifier(state, target);
    let was_up = state.f(target).is_up();
    {
        let t = state.f_mut(target);
        t.hp -= taken;
        t.taken += taken;
    }
    if state.foes(source, target) {
        state.f_mut(source).dealt += taken;
    }
    let hp = state.f(target).hp;
    table.emit(|| Event::Damage {
        target,
        roll,
        modifiers,
        normal: taken,
        subdual: 0,
        hp,
        rule,
    });
    if hp <= 0 {
        if was_up {
            let goes_off = state.spell_goes_off_now(target);
            let t = state.f_mut(target);
            t.down = true;
            if !goes_off {
                t.casting = None;
            }
            table.emit(|| Event::Status {
                who: target,
                status: "out of the fight",
                hp,
                rule: "SJ-R10.1",
            });
        }
        return Ok(());
    }
    let after = wound_modifier(state, target);
    if after != before {
        let label = tables::wound_label(hp, state.p(target).max_hp);
        table.emit(|| Event::Status {
            who: target,
            status: label,
            hp,
            rule: "SJ-R12.1",
        });
    }
    if !hit || taken <= 0 {
        return Ok(());
    }
    let p = state.p(target);
    if tables::stuns(taken, p.con, p.size, p.max_hp) && !state.f(target).stunned {
        state.f_mut(target).stunned = true;
        table.emit(|| Event::Condition {
            who: target,
            condition: "stunned",
            gained: true,
            rule: "SJ-R11.1",
        });
        if state.options.stun_interrupts
            && casting_now(state, target)
            && !spell_off_this_segment(state, table, target)
        {
            interrupt(state, table, target, "SJ-A17")?;
        }
    }
    if casting_now(state, target) && !spell_off_this_segment(state, table, target) {
        let interrupted = if state.options.damage_interrupts {
            true
        } else {
            let c = super::ask(
                state,
                table,
                Asking::Interruption { caster: target },
                "SJ-R16.3",
            )?;
            table.emit(|| Event::Ruling {
                rule: "SJ-G2",
                text: format!(
                    "the GM rules that the hit {} {}'s spell",
                    if c == Choice::Yes {
                        "interrupts"
                    } else {
                        "does not interrupt"
                    },
                    state.roster.name(target)
                ),
            });
            c == Choice::Yes
        };
        if interrupted {
            interrupt(state, table, target, "SJ-R16.3")?;
        }
    }
    Ok(())
}

/// A spell going off on the segment whose actions are being resolved is not stopped by a blow
/// of the same segment (SJ-A11); says so when it is.
fn spell_off_this_segment(state: &State, table: T<'_, '_>, caster: CombatantId) -> bool {
    let now = state.spell_goes_off_now(caster);
    if now {
        table.emit(|| Event::Casting {
            who: caster,
            spell: String::from("its spell"),
            on: None,
            stage: "keeps",
            detail: "it goes off on this same segment: the blow cannot interrupt it".into(),
            rule: "SJ-A11",
        });
    }
    now
}

/// The spell being cast is lost, and with it the caster's action for the round (SJ-R1.3).
pub fn interrupt(
    state: &mut State,
    table: T<'_, '_>,
    caster: CombatantId,
    rule: &'static str,
) -> Result<(), Interrupt> {
    if state.f(caster).casting.is_some() {
        let f = state.f_mut(caster);
        f.casting = None;
        f.plan.actions_lost = true;
        let hp = f.hp;
        table.emit(|| Event::Status {
            who: caster,
            status: "interrupted: the spell and the round's action are lost",
            hp,
            rule,
        });
    }
    Ok(())
}

/// A spell goes off: its effect lands on the target (or the nearest foe in range if a damage
/// spell's target is gone). [Seed: Casting Cleric Spells; Casting Mage Spells] SJ-R15.1
pub fn spell_goes_off(
    state: &mut State,
    table: T<'_, '_>,
    caster: CombatantId,
) -> Result<(), Interrupt> {
    let Some(casting) = state.f_mut(caster).casting.take() else {
        return Ok(());
    };
    let profiles = Arc::clone(&state.profiles);
    let Some(spell) = profiles[caster.index()].spells.get(casting.spell as usize) else {
        return Ok(());
    };
    let mut target = casting.target;
    if let SpellEffect::Damage { .. } = spell.def.effect {
        if !state.up_seen(target) {
            let at = state.f(caster).pos;
            let range = spell.def.range.max(5);
            match state
                .foes_up(caster)
                .filter(|&o| state.f(o).pos.feet_to(at) <= range)
                .min_by_key(|&o| (state.f(o).pos.squares_to(at), o))
            {
                Some(o) => target = o,
                None => {
                    table.emit(|| Event::Casting {
                        who: caster,
                        spell: spell.def.name.clone(),
                        on: None,
                        stage: "wastes",
                        detail: "it goes off with no foe in range".into(),
                        rule: "SJ-R1.2",
                    });
                    return Ok(());
                }
            }
        }
    }
    table.emit(|| Event::Casting {
        who: caster,
        spell: spell.def.name.clone(),
        on: Some(target),
        stage: "casts",
        detail: format!("it goes off on segment {}", state.segment),
        rule: "SJ-R15.1",
    });
    match spell.def.effect {
        SpellEffect::Damage { dice, prot } => {
            let rolled = table.roll_damage(dice, Some(caster), RollPurpose::Damage, "SJ-R15.1")?;
            let mut dmg = Mods::recording(table.events_enabled());
            dmg.add("spell bonus", "", dice.bonus);
            let base = (rolled + dmg.total()).max(0);
            let taken = if prot {
                let p = self::prot(state, target).min(base);
                dmg.add("PROT", "SJ-R10.1", -p);
                base - p
            } else {
                base
            };
            let clip = (rolled + dmg.total()) - taken;
            dmg.add("no negative damage", "SJ-R10.1", -clip);
            let mods = dmg.take_list();
            apply_damage(
                state, table, caster, target, taken, true, rolled, mods, "SJ-R15.1",
            )
        }
        SpellEffect::Heal { dice } => {
            let rolled = table.roll_damage(dice, Some(caster), RollPurpose::Other, "SJ-R15.1")?;
            let max = state.p(target).max_hp;
            let t = state.f_mut(target);
            let amount = (rolled + dice.bonus).max(0).min((max - t.hp).max(0));
            t.hp += amount;
            if t.hp > 0 && t.down && !t.dead && t.gone.is_none() {
                t.down = false;
            }
            let hp = t.hp;
            table.emit(|| Event::Healed {
                who: target,
                amount,
                hp,
                rule: "SJ-R15.1",
            });
            Ok(())
        }
    }
}

/// Sets up an attack for `fray odds`: round 1, segment 10, the attacker standing in reach (a
/// melee attacker out of reach is put on the nearest free square next to the target), or
/// shooting when it has only a ranged weapon or the target is out of reach; its declaration
/// names the target. Whether it shoots; `None` when it has no attack (or no square to strike
/// from).
pub fn open_attack(
    state: &mut State,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<Option<bool>, Interrupt> {
    state.round = 1;
    state.segment = 10;
    let reach = state.reach(attacker);
    let in_reach = state
        .f(attacker)
        .pos
        .within_reach(state.f(target).pos, reach.max(5));
    let has_melee = !state.p(attacker).melee.is_empty() && !state.f(attacker).weapon_dropped;
    let ranged = state.p(attacker).ranged.is_some() && (!has_melee || !in_reach);
    if !ranged && !has_melee {
        return Ok(None);
    }
    if let (true, Some(form)) = (ranged, &state.p(attacker).ranged) {
        // A shot beyond the weapon's range is lost in a fight, so its odds are an error.
        // [Seed: Ranged Modifiers] SJ-R23
        let d = state.f(attacker).pos.feet_to(state.f(target).pos);
        if d > form.range {
            return Err(Interrupt::Error(Fault::IllegalChoice {
                chooser: fray_core::protocol::Chooser::Combatant(attacker),
                text: format!("shoot {}", state.roster.key(target)),
                illegal: fray_core::Illegal {
                    rule: "SJ-R23",
                    reason: format!("{d} ft is beyond the {} ft range", form.range),
                },
            }));
        }
    }
    if !ranged && !in_reach {
        match fray_core::Board::strike_square(state, attacker, target, 1) {
            Some(p) => state.set_square(attacker, p),
            None => return Ok(None),
        }
    }
    let decl = crate::choice::Declaration {
        intent: if ranged {
            Intent::Shoot(target)
        } else {
            Intent::Attack(target)
        },
        ..Default::default()
    };
    let f = state.f_mut(attacker);
    f.plan.declaration = decl;
    f.plan.target = Some(target);
    Ok(Some(ranged))
}

/// One attack for `fray odds`: the first attack of round 1, set up by [`open_attack`].
pub fn single_attack(
    state: &mut State,
    table: T<'_, '_>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let Some(ranged) = open_attack(state, attacker, target)? else {
        return Ok(());
    };
    strike(
        state,
        table,
        attacker,
        target,
        Blow {
            n: 0,
            ranged,
            free: false,
        },
    )
}
