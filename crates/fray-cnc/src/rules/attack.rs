//! Attack rolls and their modifiers: melee (CNC-R7), ranged with range bands and stray missiles
//! (CNC-R8, CNC-A12), natural and touch attacks (CNC-R9, R14), situational modifiers with their
//! precedence (CNC-R15, CNC-A6), flank and rear (CNC-R17.5–6), two weapons (CNC-R17.7–8), charge
//! damage and negation (CNC-R6), and damage (CNC-R20).

use super::damage::{self, Hit};
use super::defense::{self, armor_class, bearing, Defense, Reach};
use super::mods::Mods;
use crate::content::WeaponKind;
use crate::state::{AttackForm, Cond, Declared, State};
use fray_core::event::{AttackResult, Event};
use fray_core::grid::{Bearing, SQUARE_FT};
use fray_core::protocol::RollPurpose;
use fray_core::{CombatantId, Interrupt, Ruleset, Table};

/// Range band of a missile shot. [Seed: 6. Ranged Combat; CNC-R8.3]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    /// ≤ 1 × increment: 0.
    Close,
    /// ≤ 2 × increment: −2.
    Medium,
    /// ≤ 3 × increment: −6.
    Long,
    /// Beyond 3 × increment: not allowed.
    Beyond,
}

/// The range band of a distance. [CNC-R8.3, CNC-E11]
pub fn range_band(increment: i32, distance_ft: i32) -> Band {
    if distance_ft <= increment {
        Band::Close
    } else if distance_ft <= 2 * increment {
        Band::Medium
    } else if distance_ft <= 3 * increment {
        Band::Long
    } else {
        Band::Beyond
    }
}

impl Band {
    /// The to-hit modifier. [CNC-R8.3]
    pub fn to_hit(self) -> i32 {
        match self {
            Band::Close => 0,
            Band::Medium => -2,
            Band::Long | Band::Beyond => -6,
        }
    }
}

/// How an attack is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// An ordinary attack.
    Normal,
    /// Primary hand of two-weapon fighting (−3, DEX instead of STR; CNC-R17.7, CNC-A8).
    PrimaryHand,
    /// Off hand of two-weapon fighting (−6; CNC-R17.7).
    OffHand,
    /// A monk's secondary attack from 6th level (no penalty; CNC-R17.8).
    MonkSecondary,
}

/// Is `target` fighting someone in melee (for the −4 to missiles shot into melee)? [CNC-R15.2]
pub fn in_melee(state: &State, target: CombatantId) -> bool {
    let t = state.f(target);
    let mut engaged = false;
    state.occupancy.each_within(t.pos, 1, |o, square| {
        engaged |= square.is_adjacent(t.pos) && state.enemies(o, target) && state.f(o).is_up();
    });
    engaged
}

/// The situational modifiers of CNC-R15.2 with the precedence of CNC-A6, plus flank/rear
/// (CNC-R17.5–6) and the CK's standing modifiers (CNC-G4).
pub fn situational(
    state: &State,
    attacker: CombatantId,
    target: CombatantId,
    reach: Reach,
    mods: &mut Mods,
) {
    let a = state.f(attacker);
    let t = state.f(target);
    let held = t.held_by.is_some();
    let prone = t.conditions.has(Cond::Prone) || held;
    let blind = t.conditions.has(Cond::Blind);
    // "Ranged attack against a prone opponent or against a fighting opponent in melee range" is
    // one row: −4 once, however many of its cases hold. [Seed: 9. Situational Modifiers]
    if reach == Reach::Ranged && (prone || in_melee(state, target)) {
        let label = match (prone, in_melee(state, target)) {
            (true, true) => "ranged vs prone target in melee",
            (true, false) => "ranged vs prone",
            _ => "target fighting in melee",
        };
        mods.add(label, "CNC-R15.2", -4);
    }
    // CNC-A6: against a prone target, missiles take the −4 above instead of the +5.
    if !(reach == Reach::Ranged && prone) {
        if held {
            // Held = prone and defenseless (CNC-R11.2); replaces "prone or blind" (CNC-A6).
            mods.add("defender prone and defenseless", "CNC-R15.2", 10);
        } else if prone || blind {
            mods.add("defender prone or blind", "CNC-R15.2", 5);
        }
    }
    if t.elevation < a.elevation {
        mods.add("defender lower", "CNC-R15.2", 1);
    }
    if t.conditions.has(Cond::Stunned) || t.conditions.has(Cond::Cowering) {
        mods.add("defender stunned or cowering", "CNC-R15.2", 2);
    }
    let unseen = t.conditions.has(Cond::Invisible) || a.conditions.has(Cond::Blind);
    if unseen {
        mods.add("defender invisible or attacker blind", "CNC-R15.2", -10);
    }
    if a.mounted {
        match reach {
            Reach::Melee => mods.add("melee from mount", "CNC-R15.2", -2),
            Reach::Ranged => mods.add("ranged from mount", "CNC-R15.2", -4),
        }
    }
    // Complete concealment and invisibility do not stack (CNC-A6).
    let concealment = t.concealment.to_hit();
    if !(unseen && concealment == -10) {
        mods.add("concealment", "CNC-R15.2", concealment);
    }
    match bearing(state, attacker, target) {
        Bearing::Flank if state.options.maneuvers.flank => {
            mods.add("flank", "CNC-R17.5", 1);
        }
        Bearing::Rear if state.options.maneuvers.rear => {
            let label = if state.p(attacker).back_attack {
                "rear (part of back attack)"
            } else {
                "rear"
            };
            mods.add(label, "CNC-R17.6", 2);
        }
        _ => {}
    }
    for m in state.modifiers.iter() {
        let a_ok = m.attacker.is_none_or(|x| x == attacker);
        let t_ok = m.target.is_none_or(|x| x == target);
        if a_ok && t_ok {
            // The CK's standing modifier, logged with the CK's own reason (CNC-G4).
            mods.add_with(|| format!("CK ruling: {}", m.reason), "CNC-G4", m.value);
        }
    }
}

/// How a melee action is fought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Manner {
    /// The combatant's attack routine.
    Normal,
    /// Two-weapon fighting (CNC-R17.7–8).
    TwoWeapons,
    /// A weapon used to subdue: subdual damage, at least 1 normal point a hit (CNC-R21.2).
    Subdue,
}

/// Everything about one attack roll.
#[derive(Debug, Clone, Copy)]
pub struct Swing<'f> {
    /// The attack form.
    pub form: &'f AttackForm,
    /// Melee or ranged.
    pub reach: Reach,
    /// Two-weapon style.
    pub style: Style,
    /// Thrown (adds STR to damage) or propelled.
    pub thrown: bool,
    /// Extra to-hit modifier (range band, stray distance) with its label and rule.
    pub extra: Option<(&'static str, &'static str, i32)>,
    /// Extra to-hit modifier #2.
    pub extra2: Option<(&'static str, &'static str, i32)>,
    /// A weapon used to subdue (CNC-R21.2).
    pub subdue: bool,
    /// Label in the log.
    pub label: &'static str,
    /// The rule.
    pub rule: &'static str,
}

/// The to-hit modifiers of a swing. [CNC-R7.1, CNC-R8.1]
pub fn to_hit_mods(
    state: &State,
    attacker: CombatantId,
    target: CombatantId,
    swing: &Swing<'_>,
    record: bool,
) -> Mods {
    let p = state.p(attacker);
    let mut mods = Mods::recording(record);
    mods.add("BtH", "CNC-R7.1", p.bth);
    match (swing.reach, swing.style) {
        (Reach::Ranged, _) => mods.add("DEX", "CNC-R8.1", p.dex_mod()),
        (Reach::Melee, Style::Normal) => mods.add("STR", "CNC-R7.1", p.str_mod()),
        // Two-weapon rolls use DEX, not STR (CNC-A8).
        (Reach::Melee, _) => mods.add("DEX", "CNC-A8", p.dex_mod()),
    }
    mods.add("magic weapon", "CNC-R7.3", swing.form.magic);
    match swing.style {
        Style::PrimaryHand => mods.add("two weapons, primary", "CNC-R17.7", -3),
        Style::OffHand => mods.add("two weapons, off hand", "CNC-R17.7", -6),
        Style::Normal | Style::MonkSecondary => {}
    }
    for (label, rule, value) in [swing.extra, swing.extra2].into_iter().flatten() {
        mods.add(label, rule, value);
    }
    situational(state, attacker, target, swing.reach, &mut mods);
    mods
}

/// Rolls one attack and, on a hit, its damage. Returns the result.
pub fn swing<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    attacker: CombatantId,
    target: CombatantId,
    swing: Swing<'_>,
) -> Result<AttackResult, Interrupt> {
    let record = table.events_enabled();
    let mods = to_hit_mods(state, attacker, target, &swing, record);
    let def: Defense = armor_class(
        state,
        attacker,
        target,
        swing.reach,
        swing.form.touch,
        record,
    );
    let roll = table.roll_dice(1, 20, Some(attacker), RollPurpose::Attack, swing.rule)?;
    let total = roll as i32 + mods.total();
    let result = if total >= def.value {
        AttackResult::Hit
    } else {
        AttackResult::Miss
    };
    defense::note_attack(state, attacker, target, def.dodge);
    table.emit(|| Event::Attack {
        attacker,
        target,
        attack: swing.label_text(),
        roll,
        modifiers: mods.to_vec(),
        total,
        defense: if swing.form.touch { "touch AC" } else { "AC" },
        versus: def.value,
        defense_modifiers: def.mods.to_vec(),
        result,
        rule: swing.rule,
    });
    if result.is_hit() {
        // A hit by the charge's target before the charge attack negates the charge (CNC-A22).
        let t = state.f(target);
        if t.declared == Declared::Charge(attacker) && !t.acted && !t.charge_negated {
            state.f_mut(target).charge_negated = true;
            table.emit(|| Event::Forgone {
                who: target,
                what: "charge",
                on: Some(attacker),
                reason: "its target struck first: the charge is negated (no extra damage)".into(),
                rule: "CNC-R6.5",
            });
        }
        deal_damage(state, table, attacker, target, &swing)?;
    }
    Ok(result)
}

impl Swing<'_> {
    fn label_text(&self) -> String {
        if self.label.is_empty() {
            self.form.name.clone()
        } else {
            format!("{} ({})", self.form.name, self.label)
        }
    }
}

/// Damage of a hit: dice + STR (melee and thrown) + magic + charge. [Seed: 13. Damage; CNC-R7.4, R8.2, R6.3]
fn deal_damage<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    attacker: CombatantId,
    target: CombatantId,
    swing: &Swing<'_>,
) -> Result<(), Interrupt> {
    let dice = swing.form.damage;
    let roll = table.roll_damage(dice, Some(attacker), RollPurpose::Damage, "CNC-R20.2")?;
    let p = state.p(attacker);
    let mut mods = Mods::recording(table.events_enabled());
    if swing.form.natural {
        // Natural weapons: "any modifications to damage are noted in the descriptions" — the
        // listed bonus, and no STR unless the description includes it.
        // [Seed: 13. Damage › Weapon Damage; CNC-R20.2]
        mods.add("listed damage bonus", "CNC-R20.2", dice.bonus);
    } else {
        mods.add("weapon bonus", "CNC-R20.2", dice.bonus);
        if swing.reach == Reach::Melee || swing.thrown {
            mods.add("STR", "CNC-R7.4", p.str_mod());
        }
    }
    mods.add("magic weapon", "CNC-R7.4", swing.form.magic);
    let a = state.f(attacker);
    if a.declared == Declared::Charge(target) && swing.reach == Reach::Melee && !a.charge_negated {
        mods.add("charge", "CNC-R6.3", 2);
    }
    let amount = roll + mods.total();
    damage::apply(
        state,
        table,
        target,
        Hit {
            roll,
            modifiers: mods.as_slice(),
            amount,
            subdual: swing.form.subdual || swing.subdue,
            weapon: swing.subdue,
            rule: if swing.subdue { "CNC-R21.2" } else { "CNC-R20" },
            source: Some(attacker),
        },
    );
    Ok(())
}

/// True when `attacker` has a usable melee attack: a disarmed combatant has only its natural
/// weapons (claws, bite) until it picks its weapon up. [Seed: 11.3 Disarm; CNC-R17.3]
pub fn can_melee(state: &State, attacker: CombatantId) -> bool {
    !state.f(attacker).disarmed || state.p(attacker).melee.iter().any(|f| f.natural)
}

/// A full melee action against `target`: every attack of the routine (or both weapons).
pub fn melee_routine<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    attacker: CombatantId,
    target: CombatantId,
    manner: Manner,
    label: &'static str,
    rule: &'static str,
) -> Result<(), Interrupt> {
    let profile = state.profiles.clone();
    let p = &profile[attacker.index()];
    face(state, attacker, target);
    if manner == Manner::TwoWeapons {
        let primary = &p.melee[0];
        let (off, first, second) = two_weapon_plan(p, primary);
        for (form, style) in [(primary, first), (&off, second)] {
            if !state.f(target).fights_on() || !state.f(attacker).fights_on() {
                break;
            }
            swing(
                state,
                table,
                attacker,
                target,
                melee_swing(form, style, false, label, "CNC-R17.7"),
            )?;
        }
        return Ok(());
    }
    let disarmed = state.f(attacker).disarmed;
    let mut blow = 0;
    while melee_blow(
        state, table, attacker, target, manner, label, rule, blow, disarmed,
    )? {
        blow += 1;
    }
    Ok(())
}

/// Blow `blow` (from 0) of a melee routine with every attack form in turn (CNC-R7.1): false,
/// with nothing done, when there is no such form or the routine is over (the target or the
/// attacker no longer fights on). `disarmed` is the attacker's at the routine's start: a
/// weapon on the ground leaves only natural attacks until it is recovered (CNC-R17.3).
/// Nothing else is carried between blows, so `fray odds --routine` can merge states there.
#[allow(clippy::too_many_arguments)]
pub fn melee_blow<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    attacker: CombatantId,
    target: CombatantId,
    manner: Manner,
    label: &'static str,
    rule: &'static str,
    blow: usize,
    disarmed: bool,
) -> Result<bool, Interrupt> {
    let profile = state.profiles.clone();
    let Some(form) = profile[attacker.index()].melee.get(blow) else {
        return Ok(false);
    };
    if !state.f(target).fights_on() || !state.f(attacker).fights_on() {
        return Ok(false);
    }
    if disarmed && !form.natural {
        return Ok(true);
    }
    swing(
        state,
        table,
        attacker,
        target,
        melee_swing(form, Style::Normal, manner == Manner::Subdue, label, rule),
    )?;
    Ok(true)
}

/// The weapon id of a bare-handed attack (content/cnc/weapons.toml).
pub const UNARMED: &str = "unarmed strike";

/// The second attack of a two-weapon action and the styles of both. A monk's second
/// hand-to-hand attack is the fist: below 6th level both attacks take the two-weapon penalties
/// and the fist does "normal fist damage of 1d2"; from 6th level, fighting bare-handed, the
/// secondary attack has no penalty and does the monk's unarmed damage; a monk "at any level" with
/// a weapon in one hand takes the standard penalties, the fist doing 1d2. Anyone with an off-hand
/// weapon (monks too) fights with it at −3/−6. [Seed: 11.7 Two Weapon Fighting; CNC-R17.7, CNC-R17.8]
pub fn two_weapon_plan(
    p: &crate::state::Profile,
    primary: &AttackForm,
) -> (AttackForm, Style, Style) {
    if let Some(off) = &p.off_hand {
        return (off.clone(), Style::PrimaryHand, Style::OffHand);
    }
    let bare_handed = primary.name == UNARMED;
    if p.monk && p.level >= 6 && bare_handed {
        return (primary.clone(), Style::Normal, Style::MonkSecondary);
    }
    let fist = AttackForm {
        name: "fist".into(),
        damage: crate::content::DamageDice {
            count: 1,
            sides: 2,
            bonus: 0,
        },
        reach: 5,
        magic: 0,
        subdual: false,
        touch: false,
        natural: false,
    };
    (fist, Style::PrimaryHand, Style::OffHand)
}

fn melee_swing<'f>(
    form: &'f AttackForm,
    style: Style,
    subdue: bool,
    label: &'static str,
    rule: &'static str,
) -> Swing<'f> {
    Swing {
        form,
        reach: Reach::Melee,
        style,
        thrown: false,
        extra: None,
        extra2: None,
        subdue,
        label,
        rule,
    }
}

/// Turns `who` to face `other`.
pub fn face(state: &mut State, who: CombatantId, other: CombatantId) {
    let to = state.f(other).pos;
    if let Some(dir) = state.f(who).pos.direction_to(to) {
        state.f_mut(who).facing = dir;
    }
}

/// A missile attack, then the stray path of a miss (CNC-R8.4, CNC-A12).
pub fn shoot<R: Ruleset<State = State>>(
    state: &mut State,
    table: &mut Table<'_, R>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let Some(weapon) = state.p(attacker).ranged.clone() else {
        return Ok(());
    };
    face(state, attacker, target);
    let from = state.f(attacker).pos;
    let to = state.f(target).pos;
    let distance = from.feet_to(to);
    let band = range_band(weapon.range_increment, distance);
    let form = AttackForm::of_weapon(&weapon);
    let thrown = weapon.kind == WeaponKind::Thrown;
    let result = swing(
        state,
        table,
        attacker,
        target,
        Swing {
            form: &form,
            reach: Reach::Ranged,
            style: Style::Normal,
            thrown,
            extra: Some(("range", "CNC-R8.3", band.to_hit())),
            extra2: None,
            subdue: false,
            label: "",
            rule: "CNC-R8",
        },
    )?;
    if result.is_hit() {
        return Ok(());
    }
    // Stray missile: on along the line while within close range of the shooter; bolts to long range.
    let limit_ft = if weapon.crossbow {
        3 * weapon.range_increment
    } else {
        weapon.range_increment
    };
    let target_index = from.squares_to(to);
    let path = from.line_through(to, limit_ft / SQUARE_FT);
    for (i, square) in path.iter().enumerate().skip(target_index as usize) {
        let beyond_ft = (i as i32 + 1 - target_index) * SQUARE_FT;
        let Some(victim) = state.occupant(*square) else {
            continue;
        };
        if victim == attacker || victim == target {
            continue;
        }
        let stray = -((beyond_ft + 9) / 10);
        let band = range_band(weapon.range_increment, from.feet_to(*square));
        table.emit(|| Event::Acted {
            who: attacker,
            act: "misses, and the missile flies on to",
            on: Some(victim),
            detail: format!("the {} goes {beyond_ft} ft past its target", weapon.id),
            rule: "CNC-R8.4",
        });
        let r = swing(
            state,
            table,
            attacker,
            victim,
            Swing {
                form: &form,
                reach: Reach::Ranged,
                style: Style::Normal,
                thrown,
                extra: Some(("stray missile", "CNC-R8.4", stray)),
                extra2: Some(("range", "CNC-R8.3", band.to_hit())),
                subdue: false,
                label: "stray",
                rule: "CNC-R8.4",
            },
        )?;
        if r.is_hit() {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cnc_e11_longbow_bands() {
        assert_eq!(range_band(60, 60), Band::Close);
        assert_eq!(range_band(60, 61), Band::Medium);
        assert_eq!(range_band(60, 130), Band::Long);
        assert_eq!(range_band(60, 130).to_hit(), -6);
        assert_eq!(range_band(60, 190), Band::Beyond);
    }
}
