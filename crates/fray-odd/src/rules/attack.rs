//! One attack and its damage: the to-hit bonuses by class group (ODD-R7, R8), range, cover-free
//! situational modifiers, the attack matrix (ODD-A1), natural 1 and 20 (ODD-R11, R12), kept
//! dice for advantage (ODD-R21, R23.2), damage with its multipliers, death at 0 hp (ODD-A40),
//! the fall of a leader (ODD-A29) and the marks that interrupt spells (ODD-R29).

use super::tables;
use crate::content::{ClassGroup, SpecialEffect, WeaponKind};
use crate::state::{Form, Slot, State};
use crate::Odd;
use fray_core::event::{AttackResult, Event, Modifier};
use fray_core::protocol::{RollPurpose, RollRequest};
use fray_core::{CombatantId, Interrupt, Table};

/// How an attack is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Manner {
    /// A missile (shot or thrown).
    pub missile: bool,
    /// The first attack of a charge (ODD-R26.7, R26.12).
    pub charge: bool,
    /// A parting shot at a retreating foe: +2, no shield (ODD-R17.3).
    pub parting: bool,
    /// A subduing attack: all its damage temporary (ODD-R27.4, R27.5).
    pub subdue: bool,
    /// Only the to-hit roll counts (disarm, dismount, entangle, grapple).
    pub no_damage: bool,
    /// A spear set against a charge: +2, double damage (ODD-R26.6).
    pub set_spear: bool,
    /// Made in a fighting withdrawal: −2 (ODD-R17.2).
    pub withdrawing: bool,
    /// Not the first of the attacker's attacks this turn (a backstab's bonuses go to the
    /// first only, ODD-R23.5).
    pub later: bool,
}

/// What an attack did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Blow {
    /// It hit.
    pub hit: bool,
    /// It felled the target.
    pub felled: bool,
}

/// ODD-R7, R8: the ability bonus an attack adds to hit and to damage, with its label.
pub fn ability_bonus(
    state: &State,
    a: CombatantId,
    form: Option<&Form>,
    missile: bool,
) -> ((i32, &'static str), (i32, &'static str)) {
    let p = state.p(a);
    if p.group == ClassGroup::Monster {
        return ((0, ""), (0, ""));
    }
    let str16 = if p.str_score >= 16 { 1 } else { 0 };
    let by_group = || match p.group {
        ClassGroup::Fighter if p.swashbuckler => (p.dex_bonus, "DEX (swashbuckler)"),
        ClassGroup::Fighter => (p.str_bonus, "STR"),
        ClassGroup::Thief => (p.dex_bonus, "DEX"),
        _ => (str16, "STR 16+"),
    };
    if missile {
        let kind = p.missile.as_ref().map_or(WeaponKind::Thrown, |w| w.kind);
        match kind {
            WeaponKind::GreatBow => ((p.str_bonus, "STR"), (p.str_bonus, "STR")),
            WeaponKind::Bow => ((p.dex_bonus, "DEX"), (p.dex_bonus, "DEX")),
            WeaponKind::Thrown => ((p.dex_bonus, "DEX"), by_group()),
            _ => ((0, ""), (0, "")),
        }
    } else {
        let _ = form;
        (by_group(), by_group())
    }
}

/// The AC `t` defends with against `a`, with its adjustments (descending: lower is better).
fn armour_class(
    state: &mut State,
    a: CombatantId,
    t: CombatantId,
    manner: Manner,
    exposed: bool,
) -> (i32, Vec<Modifier>) {
    let surprise_attack = exposed;
    let (p, f) = (state.p(t), state.f(t));
    let mut ac = p.ac;
    let mut mods = Vec::new();
    // ODD-R19.3: a shield against at most 2 attackers; none against surprise or parting shots.
    if p.shield > 0 && !surprise_attack && !manner.parting {
        let used = f.round.shield_used;
        let counts = used.contains(&Some(a)) || used.iter().any(Option::is_none);
        if counts {
            ac -= p.shield;
            mods.push(Modifier::new("shield", "ODD-R19.3", -p.shield));
            let slot = state
                .f_mut(t)
                .round
                .shield_used
                .iter_mut()
                .find(|s| s.is_none() || **s == Some(a));
            if let Some(slot) = slot {
                *slot = Some(a);
            }
        }
    }
    let (p, f) = (state.p(t), state.f(t));
    // ODD-R6.2, ODD-A4: DEX only while fighting or moving; never by surprise or charging.
    let active = f.round.moved || state.engaged(t);
    if p.dex_ac != 0 && active && !surprise_attack && !f.round.charging {
        ac -= p.dex_ac;
        mods.push(Modifier::new("DEX", "ODD-R6.1", -p.dex_ac));
    }
    if f.round.parry {
        ac -= 2;
        mods.push(Modifier::new("parry", "ODD-R24", -2));
    }
    if f.round.withdrawing {
        ac -= 2;
        mods.push(Modifier::new("withdrawing", "ODD-R17.2", -2));
    }
    if p.florentine && !manner.missile {
        ac -= 1;
        mods.push(Modifier::new("florentine", "ODD-R21.3", -1));
    }
    (ac, mods)
}

/// One attack of `a` on `t` with `form` (or its missile), resolved to the end.
pub fn attack(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    a: CombatantId,
    t: CombatantId,
    form: &Form,
    manner: Manner,
    rule: &'static str,
) -> Result<Blow, Interrupt> {
    // The fixed profiles, shared: no copy per attack.
    let profiles = std::sync::Arc::clone(&state.profiles);
    let (pa, pt) = (&profiles[a.index()], &profiles[t.index()]);
    // ODD-R25.2, R14: a disarmed combatant fights with its bare hands.
    let bare;
    let form = match (&pa.unarmed, state.f(a).disarmed && !manner.missile) {
        (Some(hands), true) => {
            bare = hands.clone();
            &bare
        }
        _ => form,
    };
    // ODD-R12.1: only magic or silver weapons hit it.
    if pt.needs_magic && !pa.magic_weapon && pa.group != ClassGroup::Monster {
        table.emit(|| Event::Forgone {
            who: a,
            what: "attack",
            on: Some(t),
            reason: "only magic or silver weapons hit it".into(),
            rule: "ODD-R12.1",
        });
        return Ok(Blow::default());
    }
    let round = state.round;
    let side_a = state.f(a).side;
    let side_t = state.f(t).side;
    let surprise_attack =
        round == 0 && !state.side_surprised(side_a) && state.side_surprised(side_t);
    // ODD-R22, R23.1: from the side (2 octants off its facing) a flank, from further round the
    // rear; melee only.
    let (at, from) = (state.f(t).pos, state.f(a).pos);
    let octants = if manner.missile || state.options.mass {
        0
    } else {
        at.direction_to(from)
            .map_or(0, |d| d.octants_from(state.f(t).facing))
    };
    // Once attacked from behind, the whole round counts so (ODD-R23.1: "on the first round").
    let melee = !manner.missile && !state.options.mass;
    let rear = octants >= 3 || (melee && state.f(t).behind_by(a, round));
    let flank = octants == 2 && !rear;
    // ODD-R23.1: attacked from behind, it cannot return the attack this round; it turns to
    // face the attacker for the next (ODD-R23.2, R23.3).
    if rear && !surprise_attack {
        let f = state.f_mut(t);
        if !f.behind_by(a, round) {
            f.from_behind.retain(|&(_, r)| r + 1 >= round);
            f.from_behind.push((a, round));
        }
        if f.turn_to.is_none() {
            f.turn_to = at.direction_to(from);
        }
    }
    if !manner.missile && !state.options.mass {
        if let Some(d) = from.direction_to(at) {
            state.f_mut(a).turn_to = Some(d);
        }
    }
    let mut mods: Vec<Modifier> = Vec::new();
    let ((hit_bonus, hit_label), (dmg_bonus, dmg_label)) =
        ability_bonus(state, a, Some(form), manner.missile);
    // ODD-R23.5: a thief's backstab: its bonuses go to the first attack only; the rest of its
    // attacks are plain surprise attacks.
    let sneak = surprise_attack || rear;
    let (hit_bonus, dmg_bonus) = if manner.later && sneak && pa.group == ClassGroup::Thief {
        (0, 0)
    } else {
        (hit_bonus, dmg_bonus)
    };
    // ODD-R26.4: a charger gets no DEX bonus to its attack.
    if hit_bonus != 0 && !(manner.charge && hit_label.starts_with("DEX")) {
        let rule = if manner.missile { "ODD-R8" } else { "ODD-R7" };
        mods.push(Modifier::new(hit_label, rule, hit_bonus));
    }
    if manner.missile {
        if let Some(band) = super::legal::range_modifier(state, a, t) {
            if band != 0 {
                let label = if band > 0 {
                    "short range"
                } else {
                    "long range"
                };
                mods.push(Modifier::new(label, "ODD-R8.1", band));
            }
        }
    }
    if surprise_attack {
        mods.push(Modifier::new("surprise attack", "ODD-R23.1", 2));
    } else if rear {
        mods.push(Modifier::new("from behind", "ODD-R23.1", 2));
    } else if flank {
        mods.push(Modifier::new("flank", "ODD-R22.1", 1));
    }
    if manner.charge {
        mods.push(Modifier::new("charge", "ODD-R26.7", 2));
    }
    if manner.parting {
        mods.push(Modifier::new("parting shot", "ODD-R17.3", 2));
    }
    if manner.withdrawing {
        mods.push(Modifier::new("withdrawing", "ODD-R17.2", -2));
    }
    if state.f(t).caught {
        mods.push(Modifier::new("caught fleeing", "ODD-R30.8", 2));
    }
    if !manner.missile && !state.options.mass {
        // ODD-R19.1: one more of the (at most `surround`) attackers on it this round.
        let f = state.f_mut(t);
        if !f.melee_attackers.contains(&(a, round)) {
            f.melee_attackers.retain(|&(_, r)| r == round);
            f.melee_attackers.push((a, round));
        }
        let around = state
            .ids()
            .filter(|&o| state.foes(o, t) && state.f(o).is_up() && state.in_melee(o, t))
            .count();
        // ODD-R19.2: "until the character can get their back close to a wall".
        if around > 2 && !pt.back_to_wall {
            mods.push(Modifier::new("surrounded", "ODD-R19.2", 1));
        }
    }
    // ODD-R18.1: mounted against unmounted, cancelled by a polearm or long spear.
    let a_mounted = pa.mounted && !state.f(a).dismounted;
    let t_mounted = pt.mounted && !state.f(t).dismounted;
    if a_mounted != t_mounted && !manner.missile {
        let footman = if a_mounted { pt } else { pa };
        let long = footman.melee.iter().any(|m| {
            m.weapon
                .as_ref()
                .is_some_and(|w| w.has("polearm") || w.has("spear") || w.has("pike"))
        });
        if !long {
            let v = if a_mounted { 1 } else { -1 };
            mods.push(Modifier::new("mounted", "ODD-R18.1", v));
        }
    }
    // ODD-R18.2: high ground.
    if pa.high_ground != pt.high_ground {
        let v = if pa.high_ground { 1 } else { -1 };
        mods.push(Modifier::new("high ground", "ODD-R18.2", v));
    }
    // ODD-R9: cover.
    if pt.cover > 0 {
        mods.push(Modifier::new("cover", "ODD-R9", -(pt.cover / 25) * 2));
    }
    // ODD-R13: a weapon that works best against this foe (blunt against skeletons).
    let utility = form
        .weapon
        .as_ref()
        .and_then(|w| pt.weak_to.iter().find(|tag| w.has(tag)));
    if let (Some(tag), false, bonus @ 1..) = (utility, manner.missile, state.options.utility_bonus)
    {
        mods.push(Modifier::owned(
            format!("{tag} weapon against it"),
            "ODD-R13",
            bonus,
        ));
    }
    // ODD-R26.6: a spear set against a charge.
    if manner.set_spear {
        mods.push(Modifier::new("set spear", "ODD-R26.6", 2));
    }
    // Kept dice: advantage and disadvantage (ODD-R21.1, R23.2); both cancel.
    let after_surprise = round == 1 && !manner.missile;
    let mut edge = 0;
    if pa.florentine && !manner.missile {
        edge += 1;
    }
    if after_surprise && !state.side_surprised(side_a) && state.side_surprised(side_t) {
        edge += 1;
    }
    if after_surprise && state.side_surprised(side_a) && !state.side_surprised(side_t) {
        edge -= 1;
    }
    // ODD-R23.2: the round after an attack from behind, Advantage for the attacker and
    // Disadvantage for the defender (melee).
    if !manner.missile && round > 0 {
        if state.f(t).behind_by(a, round - 1) {
            edge += 1;
        }
        if state.f(a).behind_by(t, round - 1) {
            edge -= 1;
        }
    }
    let base = RollRequest::new(1, 20, Some(a), RollPurpose::Attack, rule);
    let request = match edge.cmp(&0) {
        std::cmp::Ordering::Greater => RollRequest { count: 2, ..base }.keep_highest(1),
        std::cmp::Ordering::Less => RollRequest { count: 2, ..base }.keep_lowest(1),
        std::cmp::Ordering::Equal => base,
    };
    let mut kept = None;
    let natural = if request.count == 1 {
        table.roll(request)? as i32
    } else {
        let rolled = table.roll_pool(request)?;
        kept = Some(rolled);
        rolled.total() as i32
    };
    let (ac, def_mods) = armour_class(state, a, t, manner, surprise_attack || flank || rear);
    let need = tables::need(pa.attack_ac9, ac);
    let bonus = mods.iter().map(|m| m.value).sum::<i32>();
    let total = natural + bonus;
    // The natural roll it takes to hit, after the attacker's bonuses (ODD-R12.2, R12.3).
    let natural_need = need - bonus;
    // ODD-A21: attacks on a combatant pinned helplessly hit.
    let pinned = !state.f(t).pinned_by.is_empty();
    let mut result = if natural == 1 {
        AttackResult::Miss
    } else if pinned && natural != 20 {
        AttackResult::Hit
    } else if natural == 20 {
        if tables::natural_20_critical(natural_need) {
            AttackResult::Critical
        } else {
            AttackResult::Hit
        }
    } else if total >= need {
        AttackResult::Hit
    } else {
        AttackResult::Miss
    };
    let mut fumble_label = None;
    let mut plain_miss = None;
    if natural == 1 {
        // ODD-R11.2: a d20 over the level (or HD) makes the miss a critical fumble.
        let d20 = table.roll(RollRequest::new(
            1,
            20,
            Some(a),
            RollPurpose::Other,
            "ODD-R11.2",
        ))? as i32;
        if tables::fumbles(pa.level_or_hd(), d20) {
            result = AttackResult::Fumble;
            fumble_label = Some(d20);
        } else {
            plain_miss = Some(d20);
        }
    }
    // The attack's name, built only when the event is shown.
    let attack_name = || {
        let name = if manner.missile {
            pa.missile
                .as_ref()
                .map_or("missile".into(), |w| w.name.clone())
        } else {
            form.name.clone()
        };
        match kept {
            Some(rolled) => {
                let edge = if edge > 0 {
                    "advantage"
                } else {
                    "disadvantage"
                };
                format!("{name} with {edge} {rolled}")
            }
            None => name,
        }
    };
    table.emit(|| Event::Attack {
        attacker: a,
        target: t,
        attack: attack_name(),
        roll: natural as u32,
        modifiers: mods.clone(),
        total,
        defense: "need (AC)",
        versus: need,
        defense_modifiers: def_mods.clone(),
        result,
        rule,
    });
    if let Some(d20) = plain_miss {
        table.emit(|| Event::Acted {
            who: a,
            act: "does not fumble",
            on: None,
            detail: format!(
                "d20 {d20} is not over level {}: a plain miss",
                pa.level_or_hd()
            ),
            rule: "ODD-R11.2",
        });
    }
    if let Some(d20) = fumble_label {
        let label = crate::content::Tables::band(&state.tables.fumble, d20)
            .map_or_else(|| "fumbles".to_string(), |b| b.label.clone());
        table.emit(|| Event::Acted {
            who: a,
            act: "fumbles",
            on: None,
            detail: format!("d20 {d20} over level {}: {label}", pa.level_or_hd()),
            rule: "ODD-R11.2",
        });
    }
    if !result.is_hit() {
        return Ok(Blow::default());
    }
    if manner.no_damage {
        return Ok(Blow {
            hit: true,
            felled: false,
        });
    }
    // ODD-R12.4: a monster's special attack on a high natural roll; its effect follows the
    // blow's damage.
    let special = pa.special.as_ref().filter(|s| natural >= s.on).cloned();
    if let Some(special) = &special {
        let label = special.label.clone();
        table.emit(|| Event::Acted {
            who: a,
            act: "makes its special attack",
            on: Some(t),
            detail: label,
            rule: "ODD-R12.4",
        });
    }
    // ODD-R31.3, R31.4, ODD-A38: a unit's hit takes d6 × N off a unit, d6 off a single foe.
    if pa.is_unit() {
        let d6 = table.roll(RollRequest::new(
            1,
            6,
            Some(a),
            RollPurpose::Damage,
            "ODD-R31.4",
        ))? as i32;
        let men = if state.options.multiplier_alive {
            state.men_alive(a)
        } else {
            pa.figures
        };
        let amount = if pt.is_unit() {
            tables::unit_hit(d6, men)
        } else {
            d6
        };
        table.emit(|| Event::Acted {
            who: a,
            act: "hits as one man",
            on: Some(t),
            detail: if pt.is_unit() {
                format!("d6 {d6} × {men} men = {amount}")
            } else {
                format!("d6 {d6} (a unit against a single foe)")
            },
            rule: if pt.is_unit() { "ODD-R31.4" } else { "ODD-A38" },
        });
        let felled = damage(state, table, a, t, amount, d6, Vec::new(), "ODD-R31.4")?;
        return Ok(Blow { hit: true, felled });
    }
    // Damage.
    let lance = manner.charge && a_mounted && form.weapon.as_ref().is_some_and(|w| w.has("lance"));
    let dice = if lance {
        fray_core::damage::DamageDice {
            count: tables::lance_dice(pt.large),
            sides: 6,
            bonus: 0,
        }
    } else if manner.missile {
        pa.missile.as_ref().map_or(form.damage, |w| w.damage)
    } else {
        florentine_damage(state, table, a, pa, form)?
    };
    // ODD-R27.6: a surprise attack does double the dice of temporary damage.
    let temporary = manner.subdue || form.weapon.as_ref().is_some_and(|w| w.has("unarmed"));
    let dice = if temporary && surprise_attack {
        fray_core::damage::DamageDice {
            count: dice.count * 2,
            ..dice
        }
    } else {
        dice
    };
    let rolled = table.roll_damage(dice, Some(a), RollPurpose::Damage, rule)?;
    let mut dmods: Vec<Modifier> = Vec::new();
    if dice.bonus != 0 {
        dmods.push(Modifier::new("weapon", "ODD-R10.5", dice.bonus));
    }
    if dmg_bonus != 0 {
        let rule = if manner.missile { "ODD-R8" } else { "ODD-R7" };
        dmods.push(Modifier::new(dmg_label, rule, dmg_bonus));
    }
    let mut amount =
        (rolled + dmods.iter().map(|m| m.value).sum::<i32>()).max(state.options.min_damage);
    let mut multiplier = 1;
    if result == AttackResult::Critical {
        multiplier *= state.options.critical_multiplier;
        dmods.push(Modifier::new(
            "critical ×",
            "ODD-A10",
            state.options.critical_multiplier,
        ));
    }
    if manner.set_spear {
        multiplier *= 2;
        dmods.push(Modifier::new("set spear ×", "ODD-R26.6", 2));
    }
    if manner.charge {
        multiplier *= 2;
        let rule = if lance {
            "ODD-R26.8"
        } else if form.horns {
            "ODD-R26.10"
        } else {
            "ODD-R26.7"
        };
        dmods.push(Modifier::new("charge ×", rule, 2));
    }
    amount *= multiplier;
    if natural == 20 && natural_need > 20 {
        let cut = natural_need - 20;
        dmods.push(Modifier::new("natural 20 over 20", "ODD-R12.2", -cut));
        amount = tables::natural_20_damage(amount, natural_need);
    }
    // ODD-R27: empty hands and subduing attacks deal temporary damage.
    let unarmed = form.weapon.as_ref().is_some_and(|w| w.has("unarmed"));
    let (real, temp) = if manner.subdue {
        (0, amount)
    } else if unarmed {
        // ODD-A16: every 2nd damage roll on this foe, 1 point (2 with STR 16-18) is actual.
        let f = state.f_mut(a);
        let rolls = match f.punches.iter_mut().find(|(who, _)| *who == t) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                f.punches.push((t, 1));
                1
            }
        };
        let actual = if rolls % 2 == 0 {
            let per = if (16..=18).contains(&pa.str_score) {
                2
            } else {
                1
            };
            per.min(amount)
        } else {
            0
        };
        (actual, amount - actual)
    } else {
        (amount, 0)
    };
    let mut felled = harm(state, table, a, t, real, temp, rolled, dmods, rule)?;
    if let Some(special) = special {
        felled |= special_effect(state, table, a, t, special.effect)?;
    }
    Ok(Blow { hit: true, felled })
}

/// ODD-R12.4: what a special attack does to a foe still standing after the blow. Returns
/// whether it fell.
fn special_effect(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    a: CombatantId,
    t: CombatantId,
    effect: SpecialEffect,
) -> Result<bool, Interrupt> {
    if !state.f(t).is_up() {
        return Ok(false);
    }
    let (act, detail) = match effect {
        SpecialEffect::Label => return Ok(false),
        SpecialEffect::Damage(dice) => {
            let rolled = table.roll_damage(dice, Some(a), RollPurpose::Damage, "ODD-R12.4")?;
            return harm(
                state,
                table,
                a,
                t,
                rolled.max(0),
                0,
                rolled,
                Vec::new(),
                "ODD-R12.4",
            );
        }
        SpecialEffect::Knockdown => {
            state.f_mut(t).knocked_down = Some("ODD-R12.4");
            ("knocks down", "its next action is spent getting up")
        }
        SpecialEffect::Swallow => {
            // Inside its swallower: on its square, and moved with it (ODD-R12.4).
            state.f_mut(t).swallowed_by = Some(a);
            let inside = state.f(a).pos;
            state.set_square(t, inside);
            (
                "swallows",
                "whole: inside, it can fight only its swallower, and only with a dagger (ODD-R13)",
            )
        }
    };
    table.emit(|| Event::Acted {
        who: a,
        act,
        on: Some(t),
        detail: detail.into(),
        rule: "ODD-R12.4",
    });
    Ok(false)
}

/// ODD-R12.4: those swallowed by `by` get out when it falls or leaves the fight.
pub fn free_swallowed(state: &mut State, table: &mut Table<'_, Odd>, by: CombatantId) {
    for id in state.ids().collect::<Vec<_>>() {
        if state.f(id).swallowed_by == Some(by) {
            state.f_mut(id).swallowed_by = None;
            table.emit(|| Event::Acted {
                who: id,
                act: "gets out of",
                on: Some(by),
                detail: "its swallower is down or gone".into(),
                rule: "ODD-R12.4",
            });
        }
    }
}

/// ODD-R21.2, ODD-A14: a Florentine fighter whose two weapons differ in size rolls 1d2 to see
/// which one hit (2: the off-hand weapon); its damage dice.
fn florentine_damage(
    state: &State,
    table: &mut Table<'_, Odd>,
    a: CombatantId,
    pa: &crate::state::Profile,
    form: &Form,
) -> Result<fray_core::damage::DamageDice, Interrupt> {
    let (Some(off), true) = (&pa.offhand, pa.florentine && !state.f(a).disarmed) else {
        return Ok(form.damage);
    };
    let size = |f: &Form| f.weapon.as_ref().map_or("medium", |w| w.size);
    if size(off) == size(form) {
        return Ok(form.damage);
    }
    let which = table.roll(RollRequest::new(
        1,
        2,
        Some(a),
        RollPurpose::Other,
        "ODD-R21.2",
    ))?;
    let hand = if which == 2 { off } else { form };
    let name = hand.name.clone();
    table.emit(|| Event::Acted {
        who: a,
        act: "hits with",
        on: None,
        detail: format!("its {name} (d2 {which}, ODD-A14)"),
        rule: "ODD-R21.2",
    });
    Ok(hand.damage)
}

/// Deals `amount` to `t` (a unit: off its total); death at 0 hp or less (ODD-A40, R31.5).
/// Returns whether it fell.
#[allow(clippy::too_many_arguments)]
pub fn damage(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    from: CombatantId,
    t: CombatantId,
    amount: i32,
    rolled: i32,
    modifiers: Vec<Modifier>,
    rule: &'static str,
) -> Result<bool, Interrupt> {
    harm(state, table, from, t, amount, 0, rolled, modifiers, rule)
}

/// Deals `real` damage and `temp` temporary damage to `t`: real damage to 0 hp or less kills
/// (ODD-A40); actual plus temporary damage reaching its hit points knocks it out (ODD-R27.2).
/// Returns whether it fell.
#[allow(clippy::too_many_arguments)]
pub fn harm(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    from: CombatantId,
    t: CombatantId,
    real: i32,
    temp: i32,
    rolled: i32,
    modifiers: Vec<Modifier>,
    rule: &'static str,
) -> Result<bool, Interrupt> {
    let was_up = state.f(t).is_up();
    {
        let f = state.f_mut(t);
        f.hp -= real;
        f.temp += temp;
        f.taken += real + temp;
    }
    if from != t {
        state.f_mut(from).dealt += real + temp;
    }
    let hp = state.f(t).hp;
    table.emit(|| Event::Damage {
        target: t,
        roll: rolled,
        modifiers,
        normal: real,
        subdual: temp,
        hp,
        rule,
    });
    if real + temp > 0 {
        mark_spell_hit(state, from, t);
    }
    if !was_up || state.f(t).is_up() {
        return Ok(false);
    }
    if hp <= 0 {
        state.f_mut(t).dead = true;
        let unit = state.p(t).is_unit();
        table.emit(|| Event::Status {
            who: t,
            status: if unit { "slain to a man" } else { "dead" },
            hp,
            rule: if unit { "ODD-R31.5" } else { "ODD-A40" },
        });
    } else {
        table.emit(|| Event::Status {
            who: t,
            status: "knocked out",
            hp,
            rule: "ODD-R27.2",
        });
    }
    free_swallowed(state, table, t);
    if state.p(t).leader && state.options.leader_upset {
        let side = state.f(t).side;
        for g in state.groups.iter_mut().filter(|g| g.side == side) {
            g.upset = true;
        }
    }
    Ok(true)
}

/// ODD-R29: a caster hit and damaged before its spell goes off: by a foe that acted before it
/// (won initiative, or a fighter's first attacks), or by one on its own count.
fn mark_spell_hit(state: &mut State, from: CombatantId, t: CombatantId) {
    if state.f(t).round.casting.is_none() {
        return;
    }
    let caster_count = state.f(t).initiative;
    match state.slot {
        Slot::First => state.f_mut(t).round.hit_earlier = true,
        Slot::Count(c) if c > caster_count => state.f_mut(t).round.hit_earlier = true,
        Slot::Count(c) if c == caster_count && state.foes(from, t) => {
            state.f_mut(t).round.hit_same_count = true
        }
        _ => {}
    }
}
