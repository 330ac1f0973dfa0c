//! One attack: the roll with every modifier (OSR-R7, R19–R22, R29–R31), natural 20s and their
//! special roll (OSR-R17), natural 1s and the fumble table (OSR-R18), damage and its doubling
//! (OSR-R14, R15), hit points, knock-outs and death (OSR-R30, OSR-A28).

use crate::content::{ArmorKind, Weapon};
use crate::state::{Asking, State};
use crate::{Choice, Osr};
use fray_core::event::{AttackResult, Event, Modifier};
use fray_core::grid::Bearing;
use fray_core::modifiers::Modifiers;
use fray_core::protocol::{RollPurpose, RollRequest};
use fray_core::{CombatantId, FaceClasses, Interrupt, Table};

/// Which of its attacks a combatant makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Melee form `n` (a character's weapon is form 0; a monster's routine has several).
    Melee(u8),
    /// The smaller second weapon (OSR-R29).
    Offhand,
    /// The missile weapon.
    Missile,
    /// A punch (OSR-R31.1).
    Punch,
    /// A kick (OSR-R31.2).
    Kick,
    /// A grab: a touch attack (OSR-R32.1).
    Grab,
    /// A thrown flask of oil or holy water (OSR-R24): 10/30/50 ft.
    Flask,
}

/// How an attack is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strike {
    /// The form.
    pub form: Form,
    /// After a charge: +2, double damage (OSR-R14.3).
    pub charge: bool,
    /// A set weapon against a charge: double damage (OSR-R15.1).
    pub set: bool,
    /// A parting shot: +2 (OSR-R16.1).
    pub parting: bool,
    /// With the flat of the blade: −4, half damage, non-lethal (OSR-R30.1).
    pub flat: bool,
    /// Two-weapon penalty applies (−2 primary, −5 secondary, OSR-R29.2).
    pub two_weapons: bool,
    /// What it is called in the log.
    pub label: &'static str,
    /// The rule.
    pub rule: &'static str,
}

impl Strike {
    /// A plain attack with a form.
    pub fn new(form: Form, label: &'static str, rule: &'static str) -> Strike {
        Strike {
            form,
            charge: false,
            set: false,
            parting: false,
            flat: false,
            two_weapons: false,
            label,
            rule,
        }
    }
}

/// A weapon standing for a punch or a kick.
fn brawl(name: &str, sides: u16) -> Weapon {
    crate::content::natural(
        name,
        fray_core::DamageDice {
            count: 1,
            sides,
            bonus: 0,
        },
    )
}

/// The weapon a form uses.
pub fn weapon(state: &State, who: CombatantId, form: Form) -> Option<Weapon> {
    weapon_of(state.p(who), form).map(std::borrow::Cow::into_owned)
}

/// The weapon a form uses, borrowed from the profile when it is one of its own.
pub fn weapon_of(p: &crate::state::Profile, form: Form) -> Option<std::borrow::Cow<'_, Weapon>> {
    use std::borrow::Cow;
    match form {
        Form::Melee(n) => p.melee.get(usize::from(n)).map(Cow::Borrowed),
        Form::Offhand => p.offhand.as_ref().map(Cow::Borrowed),
        Form::Missile => p.missile.as_ref().map(Cow::Borrowed),
        Form::Punch | Form::Grab => Some(Cow::Owned(brawl("punch", 3))),
        Form::Kick => Some(Cow::Owned(brawl("kick", 4))),
        Form::Flask => {
            let mut w = brawl("flask", 8);
            w.melee = false;
            w.range = Some([10, 30, 50]);
            Some(Cow::Owned(w))
        }
    }
}

/// Can `who` use melee form `n` now (not disarmed or broken, unless natural)?
pub fn ready(state: &State, who: CombatantId, form: Form) -> bool {
    let f = state.f(who);
    match weapon_of(state.p(who), form).as_deref() {
        Some(w) if w.natural => true,
        Some(w) if matches!(form, Form::Missile) => {
            !f.disarmed
                && !f.broken
                && (f.reloading_until < state.round || f.spare_loaded > 0)
                && w.range.is_some()
        }
        Some(w) => w.melee && !f.disarmed && !f.broken,
        None => false,
    }
}

/// The range band modifier of a missile at `feet` (OSR-R21): +1 short, 0 medium, −2 long,
/// `None` beyond long (OSR-A45: a band's limit belongs to it).
pub fn range_band(range: [i32; 3], feet: i32) -> Option<(&'static str, i32)> {
    if feet <= range[0] {
        Some(("short range", 1))
    } else if feet <= range[1] {
        Some(("medium range", 0))
    } else if feet <= range[2] {
        Some(("long range", -2))
    } else {
        None
    }
}

/// The cover or concealment penalty of a percentage (OSR-R22.1).
pub fn cover_penalty(percent: u8) -> i32 {
    match percent {
        90 => -4,
        75 => -3,
        50 => -2,
        25 => -1,
        _ => 0,
    }
}

/// Is the attacker behind the defender (its three rear squares, OSR-R19)?
pub fn from_behind(state: &State, attacker: CombatantId, target: CombatantId) -> bool {
    let t = state.f(target);
    !matches!(
        t.facing.bearing_of(t.pos, state.f(attacker).pos),
        Bearing::Front
    )
}

/// Is the target flanked by the attacker and an ally of its on the exact opposite side
/// (OSR-R20, OSR-A44)?
pub fn flanked(state: &State, attacker: CombatantId, target: CombatantId) -> bool {
    let (a, t) = (state.f(attacker), state.f(target));
    let (dx, dy) = (a.pos.x - t.pos.x, a.pos.y - t.pos.y);
    if dx.abs() > 1 || dy.abs() > 1 || (dx, dy) == (0, 0) {
        return false;
    }
    let opposite = fray_core::Pos::new(t.pos.x - dx, t.pos.y - dy);
    state.occupancy.any_at(opposite, |o| {
        o != attacker && state.f(o).side == a.side && state.f(o).is_up()
    })
}

/// The result of one attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Swing {
    /// Hit.
    pub hit: bool,
    /// A natural 1.
    pub fumble: bool,
}

/// One attack roll and its consequences. [OSR-R7]
pub fn attack(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    attacker: CombatantId,
    target: CombatantId,
    strike: Strike,
) -> Result<Swing, Interrupt> {
    let profiles = state.profiles.clone();
    let Some(w) = weapon_of(&profiles[attacker.index()], strike.form) else {
        return Ok(Swing {
            hit: false,
            fumble: false,
        });
    };
    let w: &Weapon = &w;
    let keep = table.events_enabled();
    let round = state.round;
    let (a, t) = (*state.f(attacker), *state.f(target));
    let (ap, tp) = (&profiles[attacker.index()], &profiles[target.index()]);
    let missile = matches!(strike.form, Form::Missile | Form::Flask);
    let feet = a.pos.feet_to(t.pos);
    let mut m = Modifiers::recording(keep);
    m.add("attack bonus", "OSR-R7.1", ap.attack_bonus);
    match strike.form {
        Form::Missile | Form::Flask => m.add("DEX", "OSR-R7.1", ap.dex_mod),
        Form::Grab => m.add(
            if ap.dex_mod > ap.str_mod {
                "DEX"
            } else {
                "STR"
            },
            "OSR-R32.1",
            ap.str_mod.max(ap.dex_mod),
        ),
        _ => m.add("STR", "OSR-R7.1", ap.str_mod),
    }
    if strike.charge {
        m.add("charge", "OSR-R14.3", 2);
    }
    if strike.parting {
        m.add("parting shot", "OSR-R16.1", 2);
    }
    let behind = from_behind(state, attacker, target);
    let unaware = t.surprised && round == 1;
    if missile {
        let range = w.range.unwrap_or([5, 5, 5]);
        if feet <= 5 {
            if unaware || behind {
                // OSR-R21.3: an unaware target within 5 ft: +1 short and +2 behind.
                m.add("short range (unaware)", "OSR-R21.3", 1);
                m.add("from behind (unaware)", "OSR-R21.3", 2);
            } else {
                m.add("point-blank", "OSR-R21.2", -5);
            }
        } else if let Some((band, v)) = range_band(range, feet) {
            m.add(band, "OSR-R21", v);
            if behind {
                m.add("from behind", "OSR-R19.1", 2);
            }
        }
    } else if behind && !strike.parting {
        m.add("from behind", "OSR-R19.1", 2);
    }
    if !missile && flanked(state, attacker, target) {
        m.add("flanking", "OSR-R20.1", 1);
    }
    if strike.two_weapons {
        match strike.form {
            Form::Offhand => m.add("second weapon", "OSR-R29.2", -5),
            _ => m.add("two weapons", "OSR-R29.2", -2),
        }
    }
    if strike.flat {
        m.add("flat of the blade", "OSR-R30.1", -4);
    }
    if matches!(strike.form, Form::Kick) {
        m.add("kick", "OSR-R31.2", -2);
    }
    if a.shaken_until >= round {
        m.add("shaken", "OSR-R17.4", -2);
    }
    if a.prone {
        m.add("prone", "OSR-R17.4", -4);
    }
    if a.blinded_until >= round {
        m.add("blinded", "OSR-R17.4", -4);
    }
    if a.stumbling(round) {
        m.add("stumble", "OSR-R18.1", -1);
    }
    // OSR-A46: concealment counts against every attack, cover only against missiles.
    if t.cover > 0 && (missile || t.concealed) {
        m.add(
            if t.concealed { "concealment" } else { "cover" },
            "OSR-R22.1",
            cover_penalty(t.cover),
        );
    }
    // The defence.
    let mut d = Modifiers::recording(keep);
    let (base, defense) = if matches!(strike.form, Form::Grab) {
        (tp.touch_ac, "touch AC")
    } else {
        (tp.ac, "AC")
    };
    if t.dodging {
        d.add("parry and dodge", "OSR-R9.1", 2);
    }
    if t.charging {
        d.add("charging", "OSR-R14.4", -2);
    }
    if t.prone {
        d.add("prone", "OSR-R17.4", if missile { 4 } else { -4 });
    }
    if t.blinded_until >= round {
        d.add("blinded", "OSR-R17.4", -4);
    }
    let versus = base + d.total();
    // Any attack on a caster before its spell goes off may disrupt it (OSR-R28.3, OSR-A12).
    if matches!(
        t.plan.action,
        crate::choice::Action::Cast(..) | crate::choice::Action::CastDelayed(..)
    ) && !t.plan.done
    {
        state.f_mut(target).attacked_casting = true;
    }
    // A natural 1 may start a chain of free attacks (OSR-R18.1): once it is over, nothing of
    // this attack is read but the state (a fumble's swing is the same whatever its rolls).
    table.recurrence_scope();
    // Exact odds need only the roll's class: a natural 1, a miss, a hit, a natural 20 (nothing
    // below reads the roll but through `result`; events are not kept there).
    let needs = (versus - m.total()).clamp(2, 20);
    let classes = FaceClasses::at(&[2, needs, 20]);
    let roll = table.roll_classed(
        20,
        classes,
        Some(attacker),
        RollPurpose::Attack,
        strike.rule,
    )?;
    let total = roll as i32 + m.total();
    let result = if roll == 20 {
        AttackResult::Critical
    } else if roll == 1 {
        AttackResult::Fumble
    } else if total >= versus {
        AttackResult::Hit
    } else {
        AttackResult::Miss
    };
    if !missile {
        face(state, attacker, target);
    }
    table.emit(|| Event::Attack {
        attacker,
        target,
        attack: format!("{} ({})", w.name, strike.label),
        roll,
        modifiers: m.into_vec(),
        total,
        defense,
        versus,
        defense_modifiers: d.into_vec(),
        result,
        rule: if roll == 20 {
            "OSR-R17.1"
        } else if roll == 1 {
            "OSR-R18.1"
        } else {
            strike.rule
        },
    });
    match result {
        AttackResult::Fumble => {
            fumble(state, table, attacker, target, w)?;
            Ok(Swing {
                hit: false,
                fumble: true,
            })
        }
        AttackResult::Miss => Ok(Swing {
            hit: false,
            fumble: false,
        }),
        _ => {
            if matches!(strike.form, Form::Grab | Form::Flask) {
                return Ok(Swing {
                    hit: true,
                    fumble: false,
                });
            }
            damage(state, table, attacker, target, w, strike, roll == 20)?;
            Ok(Swing {
                hit: true,
                fumble: false,
            })
        }
    }
}

/// Turns the attacker to face its target.
fn face(state: &mut State, attacker: CombatantId, target: CombatantId) {
    let (a, t) = (state.f(attacker).pos, state.f(target).pos);
    if let Some(dir) = a.direction_to(t) {
        state.f_mut(attacker).facing = dir;
    }
}

/// The damage of a hit: regular, maximum or critical after a natural 20 (OSR-R17.2, R17.3),
/// doubled by a charge or a set weapon (OSR-R14.6), halved with the flat (OSR-R30.1), at least
/// 1 (OSR-A57).
#[allow(clippy::too_many_arguments)]
fn damage(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    attacker: CombatantId,
    target: CombatantId,
    w: &Weapon,
    strike: Strike,
    natural_20: bool,
) -> Result<(), Interrupt> {
    let keep = table.events_enabled();
    let profiles = state.profiles.clone();
    let (ap, tp) = (&profiles[attacker.index()], &profiles[target.index()]);
    let a = *state.f(attacker);
    let round = state.round;
    let mut m = Modifiers::recording(keep);
    let missile = matches!(strike.form, Form::Missile);
    let str_applies = match strike.form {
        Form::Missile => w.strength_damage,
        Form::Kick => !state.options.kick_lethal,
        _ => true,
    };
    if str_applies {
        m.add("STR", "OSR-R7.2", ap.str_mod);
    }
    if w.damage.bonus != 0 {
        m.add("weapon", "OSR-R7.2", w.damage.bonus);
    }
    if a.stumbling(round) {
        m.add("stumble", "OSR-R18.1", -1);
    }
    let flat_mod = m.total();
    // OSR-R17.2: the special roll after a natural 20.
    let mut band = 0;
    if natural_20 {
        // Read only by its band (exact odds branch once per band).
        let bands = FaceClasses::at(&[11 - ap.crit_bonus, 16 - ap.crit_bonus, 20 - ap.crit_bonus]);
        let special =
            table.roll_classed(20, bands, Some(attacker), RollPurpose::Other, "OSR-R17.2")?;
        let modded = (special as i32 + ap.crit_bonus).clamp(1, 20);
        band = match modded {
            1..=10 => 0,
            11..=15 => 1,
            16..=19 => 2,
            _ => 3,
        };
        table.emit(|| Event::Check {
            who: fray_core::event::Subject::Combatant(attacker),
            purpose: "critical special",
            dice: "d20".into(),
            roll: special,
            modifiers: if ap.crit_bonus != 0 {
                vec![Modifier::new("critical modifiers", "OSR-A5", ap.crit_bonus)]
            } else {
                Vec::new()
            },
            total: modded,
            against: "table",
            target: 11,
            under: false,
            success: None,
            result: [
                "regular damage",
                "maximum damage",
                "critical damage",
                "critical damage and a condition",
            ][band]
                .into(),
            rule: "OSR-R17.2",
        });
    }
    let dice_max = i32::from(w.damage.count) * i32::from(w.damage.sides);
    let unhurt = tp.needs_magic && !ap.magic_weapon;
    let nonlethal = strike.flat
        || matches!(strike.form, Form::Punch)
        || (matches!(strike.form, Form::Kick) && !state.options.kick_lethal);
    // OSR-R31.3: a bare or leather-clad brawler hitting metal armour takes the damage himself.
    let backfire = matches!(strike.form, Form::Punch | Form::Kick)
        && tp.armor == ArmorKind::Metal
        && ap.armor != ArmorKind::Metal;
    let _ = missile;
    let victim = if backfire { attacker } else { target };
    let of =
        |roll: i32, m: &mut Modifiers| amount_of(roll, band, dice_max, flat_mod, strike, unhurt, m);
    let roll = if band == 1 || w.damage.count == 0 {
        0
    } else {
        let classes = damage_classes(state, victim, w.damage, |r| {
            of(r, &mut Modifiers::recording(false))
        });
        let dice = RollRequest::new(
            w.damage.count,
            w.damage.sides,
            Some(attacker),
            RollPurpose::Damage,
            "OSR-R7.2",
        );
        table.roll(dice.in_classes(classes))? as i32
    };
    let amount = of(roll, &mut m);
    if backfire {
        m.add("metal armour: the brawler takes it", "OSR-R31.3", 0);
    }
    let list = m.into_vec();
    hurt(
        state, table, attacker, victim, roll, list, amount, nonlethal, "OSR-R7.2",
    )?;
    if band == 3 && !backfire {
        condition(state, table, target)?;
    }
    Ok(())
}

/// The amount of a hit whose dice total `roll`, each step recorded in `m`: the dice, their
/// maximum (OSR-R17.3: band 1 maximum damage, bands 2 and 3 roll + maximum) and `flat_mod`,
/// doubled by a charge or a set weapon (OSR-R14.6, R15.1), halved with the flat (OSR-R30.1), at
/// least 1 (OSR-A57), nothing where magic or silver is needed (`unhurt`, OSR-R17.1). It never
/// falls as `roll` rises.
fn amount_of(
    roll: i32,
    band: usize,
    dice_max: i32,
    flat_mod: i32,
    strike: Strike,
    unhurt: bool,
    m: &mut Modifiers,
) -> i32 {
    let mut amount = match band {
        1 => {
            m.add("maximum damage", "OSR-R17.3", dice_max);
            dice_max + flat_mod
        }
        2 | 3 => {
            m.add("critical: dice maximum", "OSR-R17.3", dice_max);
            roll + dice_max + flat_mod
        }
        _ => roll + flat_mod,
    };
    if strike.charge || strike.set {
        let label = if strike.charge {
            "charge: double"
        } else {
            "set against the charge: double"
        };
        let rule = if strike.charge {
            "OSR-R14.6"
        } else {
            "OSR-R15.1"
        };
        m.add(label, rule, amount.max(1));
        amount = amount.max(1) * 2;
    }
    if strike.flat {
        let half = (amount / 2).max(1);
        m.add("flat: half", "OSR-R30.1", half - amount);
        amount = half;
    }
    amount = amount.max(1);
    if unhurt {
        m.add("needs magic or silver", "OSR-R17.1", -amount);
        amount = 0;
    }
    amount
}

/// How the rules read a hit's dice (`FaceClasses`, exact odds branch once per class): each
/// total that leaves `victim` standing is its own class, and every total that drops it is one
/// class, answered with the lowest. `amount` (the hit's amount of a dice total, [`amount_of`])
/// never falls as the total rises, so the totals that drop the victim are those from the first
/// that does. Those totals leave states that differ only in what no rule reads again:
/// - [`hurt`] reads the amount as the hit points it takes away, the tallies (a report's), the
///   event's figures (a log's) and `amount > 0` (true for each);
/// - the victim drops at 0 hp or below (OSR-R30.2, A28), dead or knocked out by what it was
///   and the blow's kind, never by the amount; a dead one's hit points are not read again, nor a
///   knocked-out one's where no one in the fight heals by an amount (`State::heals`, the same
///   proof as `odds_key`'s): classed only then, and only when the victim is not already dead;
/// - nothing after the blow reads its amount (a critical's condition, OSR-R17.4, reads the
///   special roll's band).
///
/// At most four totals may stand below the first that drops the victim (four cuts): with more,
/// every total is its own class, as with a healer or a blow that cannot drop it, and in the
/// odds of one attack or routine (`State::single`), which report the damage itself.
fn damage_classes(
    state: &State,
    victim: CombatantId,
    dice: fray_core::damage::DamageDice,
    amount: impl Fn(i32) -> i32,
) -> FaceClasses {
    let f = state.f(victim);
    if f.dead || state.heals() || state.single {
        return FaceClasses::default();
    }
    let (lo, hi) = (
        i32::from(dice.count),
        i32::from(dice.count) * i32::from(dice.sides),
    );
    let drops = f.hp.max(1);
    match (lo..=hi).find(|&r| amount(r) >= drops) {
        Some(first) if first == lo => FaceClasses::at(&[lo]),
        Some(first) if first - lo <= 4 => FaceClasses::at(&(lo + 1..=first).collect::<Vec<_>>()),
        _ => FaceClasses::default(),
    }
}

/// The condition chart on a special roll of 20 (OSR-R17.4).
fn condition(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let d4 = table.roll_dice(1, 4, None, RollPurpose::Other, "OSR-R17.4")?;
    let until = state.round + state.options.condition_rounds - 1;
    let name = ["disarmed", "shaken", "prone", "blinded"][(d4 as usize).clamp(1, 4) - 1];
    if state.stood_at_number(target) {
        // OSR-A32: the actions on one number resolve against the state at its start, so the
        // condition takes hold as the number ends (`settle_number`).
        let f = state.f_mut(target);
        f.pending |= 1 << (d4.clamp(1, 4) - 1);
        f.pending_until = f.pending_until.max(until);
    } else {
        impose(state, target, d4, until);
    }
    table.emit(|| Event::Condition {
        who: target,
        condition: name,
        gained: true,
        rule: "OSR-R17.4",
    });
    Ok(())
}

/// Line `d4` of the condition chart (OSR-R17.4) on `target`, lasting until round `until`:
/// disarmed (if it holds a weapon), shaken, prone or blinded.
fn impose(state: &mut State, target: CombatantId, d4: u32, until: u32) {
    let has_weapon =
        state.p(target).melee.iter().any(|w| !w.natural) || state.p(target).missile.is_some();
    let f = state.f_mut(target);
    match d4 {
        1 => f.disarmed |= has_weapon,
        2 => f.shaken_until = f.shaken_until.max(until),
        3 => f.prone = true,
        _ => f.blinded_until = f.blinded_until.max(until),
    }
}

/// As a number of the countdown ends, the conditions that criticals on it gave (OSR-R17.4)
/// take hold (simultaneity, OSR-A32).
pub fn settle_number(state: &mut State) {
    for id in state.ids().collect::<Vec<_>>() {
        let f = state.f_mut(id);
        let (lines, until) = (f.pending, f.pending_until);
        if lines == 0 {
            continue;
        }
        (f.pending, f.pending_until) = (0, 0);
        for d4 in 1..=4 {
            if lines & (1 << (d4 - 1)) != 0 {
                impose(state, id, d4, until);
            }
        }
    }
}

/// Damage taken: hit points fall; at 0 or below a creature that took some non-lethal damage
/// this fight is knocked out, any other dies, and any damage to one knocked out kills it
/// (OSR-R30.2, R30.4, OSR-A28, OSR-A56, OSR-A58).
#[allow(clippy::too_many_arguments)]
pub fn hurt(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    by: CombatantId,
    victim: CombatantId,
    roll: i32,
    modifiers: Vec<Modifier>,
    amount: i32,
    nonlethal: bool,
    rule: &'static str,
) -> Result<(), Interrupt> {
    let knockout_ok = !state.p(victim).monster || state.options.knockout_monsters;
    let foes = state.f(by).side != state.f(victim).side;
    let was_down = state.f(victim).down;
    {
        let f = state.f_mut(victim);
        if f.dead {
            return Ok(());
        }
        f.hp -= amount;
        f.taken += amount;
        if nonlethal && amount > 0 {
            f.nonlethal = true;
        }
    }
    if foes {
        state.f_mut(by).dealt += amount;
    }
    let hp = state.f(victim).hp;
    table.emit(|| Event::Damage {
        target: victim,
        roll,
        modifiers,
        normal: if nonlethal { 0 } else { amount },
        subdual: if nonlethal { amount } else { 0 },
        hp,
        rule,
    });
    if hp <= 0 && amount > 0 {
        let f = state.f_mut(victim);
        let status = if was_down || !(f.nonlethal && knockout_ok) {
            f.dead = true;
            f.down = false;
            "dead"
        } else {
            f.down = true;
            "knocked out"
        };
        release(state, victim);
        table.emit(|| Event::Status {
            who: victim,
            status,
            hp,
            rule: if status == "dead" {
                "OSR-A28"
            } else {
                "OSR-R30.2"
            },
        });
    }
    Ok(())
}

/// Ends any grapple `who` is part of.
pub fn release(state: &mut State, who: CombatantId) {
    if let Some(held) = state.f_mut(who).holding.take() {
        let h = state.f_mut(held);
        h.held_by = None;
        h.silenced = false;
    }
    if let Some(holder) = state.f_mut(who).held_by.take() {
        state.f_mut(holder).holding = None;
    }
    state.f_mut(who).silenced = false;
}

/// A DEX check: d20 + DEX bonus (−2 shaken) ≥ DC (OSR-A9).
pub fn dex_check(
    state: &State,
    table: &mut Table<'_, Osr>,
    who: CombatantId,
    dc: i32,
    rule: &'static str,
) -> Result<bool, Interrupt> {
    let mut mods = vec![Modifier::new("DEX", "OSR-A9", state.p(who).dex_mod)];
    if state.f(who).shaken_until >= state.round {
        mods.push(Modifier::new("shaken", "OSR-R17.4", -2));
    }
    // Read only as a pass or a fail (exact odds branch twice).
    let passes = dc - mods.iter().map(|m| m.value).sum::<i32>();
    let classes = FaceClasses::at(&[passes]);
    let roll = table.roll_classed(20, classes, Some(who), RollPurpose::Check, rule)?;
    let total = roll as i32 + mods.iter().map(|m| m.value).sum::<i32>();
    let ok = total >= dc;
    table.emit(|| Event::Check {
        who: fray_core::event::Subject::Combatant(who),
        purpose: "DEX",
        dice: "d20".into(),
        roll,
        modifiers: mods,
        total,
        against: "DC",
        target: dc,
        under: false,
        success: Some(ok),
        result: if ok { "passes" } else { "fails" }.into(),
        rule,
    });
    Ok(ok)
}

/// A natural 1: the fumble table (OSR-R18).
#[allow(clippy::collapsible_match)]
fn fumble(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    attacker: CombatantId,
    target: CombatantId,
    w: &Weapon,
) -> Result<(), Interrupt> {
    // Read only by its line of the table (exact odds branch once per line).
    let lines = FaceClasses::at(&[3, 6, 11, 16]);
    let roll = table.roll_classed(20, lines, Some(attacker), RollPurpose::Other, "OSR-R18.1")?;
    let next = state.round + 1;
    let result = match roll {
        1..=2 => "weapon breaks, no attack next round",
        3..=5 => "stumble",
        6..=10 => "sloppy attack",
        11..=15 => "drops its weapon, no attack next round",
        _ => "just a miss",
    };
    table.emit(|| Event::Check {
        who: fray_core::event::Subject::Combatant(attacker),
        purpose: "fumble",
        dice: "d20".into(),
        roll,
        modifiers: Vec::new(),
        total: roll as i32,
        against: "table",
        target: 16,
        under: false,
        success: None,
        result: result.into(),
        rule: "OSR-R18.1",
    });
    match roll {
        1..=2 => {
            let f = state.f_mut(attacker);
            f.no_attack_round = next;
            if !w.natural {
                f.broken = true;
                table.emit(|| Event::Condition {
                    who: attacker,
                    condition: "weapon broken",
                    gained: true,
                    rule: "OSR-R18.1",
                });
            }
        }
        3..=5 => {
            if !dex_check(state, table, attacker, 20, "OSR-R18.1")? {
                let rounds =
                    table.roll_dice(1, 2, Some(attacker), RollPurpose::Other, "OSR-R18.1")?;
                let (from, until) = (state.round + 1, state.round + rounds);
                let f = state.f_mut(attacker);
                f.stumble_from = from;
                f.stumble_until = f.stumble_until.max(until);
                table.emit(|| Event::Condition {
                    who: attacker,
                    condition: "stumbling",
                    gained: true,
                    rule: "OSR-R18.1",
                });
            }
        }
        6..=10 => {
            if !dex_check(state, table, attacker, 15, "OSR-R18.1")? {
                free_attack(state, table, target, attacker)?;
            }
        }
        11..=15 => {
            let f = state.f_mut(attacker);
            f.no_attack_round = next;
            if !w.natural {
                f.disarmed = true;
                table.emit(|| Event::Condition {
                    who: attacker,
                    condition: "weapon dropped",
                    gained: true,
                    rule: "OSR-R18.1",
                });
            }
        }
        _ => {}
    }
    Ok(())
}

/// The form a free attack by `by` on `at` can use, if any: the first ready melee form when
/// adjacent, else a ready missile in range.
pub fn free_forms(state: &State, by: CombatantId, at: CombatantId) -> Vec<Form> {
    let (b, t) = (state.f(by), state.f(at));
    let mut out = Vec::new();
    // OSR-A32: actions on one number resolve against the state at its start, so one who stood
    // then still answers the blows of that number, dropped on it or not.
    let dropped_on_this_number = state.stood_at_number(by) && !b.fled && !b.reserve;
    if !(b.is_up() || dropped_on_this_number) || (state.round == 1 && b.surprised) {
        return out;
    }
    let feet = b.pos.feet_to(t.pos);
    if feet <= 5 {
        for n in 0..state.p(by).melee.len() {
            if ready(state, by, Form::Melee(n as u8)) {
                out.push(Form::Melee(n as u8));
            }
        }
    } else if ready(state, by, Form::Missile)
        && state
            .p(by)
            .missile
            .as_ref()
            .and_then(|m| m.range)
            .is_some_and(|r| feet <= r[2])
    {
        out.push(Form::Missile);
    }
    out
}

/// The sloppy attack's free attack, asked of the fumbler's target (OSR-R18.1, OSR-A10). Its
/// own fumble may give the fumbler a free attack back, and so on without end inside one
/// action: nothing is done after a free attack but to return, so what follows one depends
/// only on who strikes whom and the state, and exact odds sum the chain where it comes back to
/// an equal state ([`Table::recurrence`]).
fn free_attack(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    by: CombatantId,
    at: CombatantId,
) -> Result<(), Interrupt> {
    let key = (by.index() as u64) << 32 | at.index() as u64;
    let mark = table.recurrence(key, state)?;
    free_attack_of(state, table, by, at)?;
    table.leave_recurrence(mark);
    Ok(())
}

/// [`free_attack`], played.
fn free_attack_of(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    by: CombatantId,
    at: CombatantId,
) -> Result<(), Interrupt> {
    let forms = free_forms(state, by, at);
    if state.single {
        table.emit(|| Event::Forgone {
            who: by,
            what: "free attack",
            on: Some(at),
            reason: "not played in the odds of one attack".into(),
            rule: "OSR-R18.1",
        });
        return Ok(());
    }
    if forms.is_empty() {
        table.emit(|| Event::Forgone {
            who: by,
            what: "free attack",
            on: Some(at),
            reason: "no ready attack that reaches".into(),
            rule: "OSR-R18.1",
        });
        return Ok(());
    }
    match super::ask(state, table, Asking::FreeAttack { by, at }, "OSR-R18.1")? {
        Choice::Yes(n) => {
            let form = forms.get(usize::from(n)).copied().unwrap_or(forms[0]);
            attack(
                state,
                table,
                by,
                at,
                Strike::new(form, "free attack", "OSR-R18.1"),
            )?;
        }
        _ => table.emit(|| Event::Forgone {
            who: by,
            what: "free attack",
            on: Some(at),
            reason: "declined".into(),
            rule: "OSR-R18.1",
        }),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two fighters, the second with `hp` hit points, and a cleric knowing `spell`, if any.
    fn pair(hp: i32, spell: Option<&str>) -> State {
        let spells = spell.map_or(String::new(), |s| format!("spells = [\"{s}\"]\n"));
        let text = format!(
            "schema = 1\nruleset = \"osr\"\nname = \"pair\"\n\
             [[sides]]\nid = \"w\"\n[[sides]]\nid = \"e\"\n\
             [[combatants]]\nid = \"a\"\nside = \"w\"\nat = [0, 0]\n\
             class = \"fighter\"\nlevel = 1\nhp = 5\n\
             [[combatants]]\nid = \"b\"\nside = \"e\"\nat = [1, 0]\n\
             class = \"fighter\"\nlevel = 1\nhp = {hp}\n\
             [[combatants]]\nid = \"c\"\nside = \"e\"\nat = [1, 1]\n\
             class = \"cleric\"\nlevel = 1\nhp = 2\n{spells}"
        );
        let content = crate::content::Content::embedded().unwrap();
        crate::load("pair.toml", &text, &content).unwrap().state
    }

    /// `count`d`sides`.
    fn dice(count: u16, sides: u16) -> fray_core::damage::DamageDice {
        fray_core::damage::DamageDice {
            count,
            sides,
            bonus: 0,
        }
    }

    /// OSR-R30.2, A28: a hit's dice are read by the victim's fate: each total that leaves it
    /// standing apart, every total that drops it together; not with a healer (OSR-R8.1), nor for
    /// a victim already dead, nor with more than four totals below the first that drops it.
    #[test]
    fn damage_dice_are_read_by_whether_they_drop_the_victim() {
        let b = CombatantId(1);
        let plain = |r: i32| r;
        // 1d3 on 1 hp: every total drops it, one class.
        let one = damage_classes(&pair(1, None), b, dice(1, 3), plain);
        assert_eq!((0..=3).map(|t| one.of(t)).collect::<Vec<_>>(), [0, 1, 1, 1]);
        // 1d8 + 1 on 4 hp: 1 and 2 leave it at 2 and 1 hp, 3 to 8 drop it.
        let four = damage_classes(&pair(4, None), b, dice(1, 8), |r| r + 1);
        let classes: Vec<usize> = (1..=8).map(|t| four.of(t)).collect();
        assert_eq!(classes, [0, 1, 2, 2, 2, 2, 2, 2]);
        // Doubled by a charge: 1d3 × 2 on 4 hp, 1 leaves it at 2, 2 and 3 drop it.
        let doubled = damage_classes(&pair(4, None), b, dice(1, 3), |r| r * 2);
        assert_eq!(
            (1..=3).map(|t| doubled.of(t)).collect::<Vec<_>>(),
            [0, 1, 1]
        );
        // With a healer, a knocked-out victim's hit points are read: every total apart.
        let healed = damage_classes(&pair(1, Some("cure light wounds")), b, dice(1, 3), plain);
        assert!(healed.is_none());
        // The odds of one attack report the damage: every total apart.
        let mut single = pair(1, None);
        single.single = true;
        assert!(damage_classes(&single, b, dice(1, 3), plain).is_none());
        // Already dead: nothing to class.
        let mut dead = pair(1, None);
        dead.fighters[1].dead = true;
        assert!(damage_classes(&dead, b, dice(1, 3), plain).is_none());
        // 2d6 on 7 hp: five totals (2 to 6) below the first that drops it, more than four cuts.
        assert!(damage_classes(&pair(7, None), b, dice(2, 6), plain).is_none());
        // 1d8 on 9 hp: no total drops it.
        assert!(damage_classes(&pair(9, None), b, dice(1, 8), plain).is_none());
    }

    #[test]
    fn range_bands_include_their_limits() {
        let bow = [50, 100, 150];
        assert_eq!(range_band(bow, 50), Some(("short range", 1)));
        assert_eq!(range_band(bow, 55), Some(("medium range", 0)));
        assert_eq!(range_band(bow, 150), Some(("long range", -2)));
        assert_eq!(range_band(bow, 155), None);
    }

    #[test]
    fn cover_table() {
        assert_eq!([25, 50, 75, 90].map(cover_penalty), [-1, -2, -3, -4]);
    }
}
