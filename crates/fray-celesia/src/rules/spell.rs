//! Casting a spell (`cast SPELL [TARGET] [defensively]`): its acts by casting time (CEL-R9 Cast
//! a Swift Spell, R11 standard, R12 full, R13 1-round through `rules::one_round`), the attacks
//! of opportunity it provokes before it starts (CEL-R3.5; the spell's attack roll provokes no
//! second time), Cast Defensively (CEL-R14, A9), the concentration check on a moving mount
//! (CEL-R21.9), the touch attack against touch DV (CEL-R4.4), the save, the caster-level
//! degrees of both (CEL-R6.1–R6.3, A16) and the effect: damage dice or haste (CEL-R3.4, A40).
//! Special attack options keep their attack-roll side on a touch attack and never add their
//! damage (CEL-R16.3, R16.6, R16.7).
//!
//! Adopted readings (the seed is silent): touch DV is DV without armour, shield and natural
//! armour bonuses; a melee touch attack adds BAB + STR + DEX + size (CEL-R4.1), a ranged touch
//! attack BAB + DEX + size (the Combat Statistics formula: a ray is no projectile); a spell's
//! attack is not a weapon's, so it has no critical hit (the seed's criticals multiply weapon
//! damage); natural 20 and 1 hit and miss (CEL-A3). The seed has no slots or uses per day: a
//! caster's optional `slots` are counted (`has_slot`, a documented reading) and spent when the
//! casting begins; a lost spell is the casting's acts (and slot) spent for nothing.

use super::spell_lasting::Lasts;
use super::{attack, degrees, injury, one_round, round, CheckKind, Mods};
use crate::choice::Choice;
use crate::content::{Hands, Weapon, WeaponKind};
use crate::spell::{Casting, Duration, OnSave, Penalty, Range, Save, Spell, TouchAttack};
use crate::state::{Cause, Caused, State, Trick, DEX, STR};
use crate::Celesia;
use fray_core::conditions::{Added, ConditionKind, Expiry, Timed};
use fray_core::event::{AttackResult, Event, Modifier, Subject};
use fray_core::protocol::{refuse as no, Illegal, Interrupt, RollPurpose, RollRequest};
use fray_core::{CombatantId, DamageDice, Table};

/// The 1-round spells, as a 1-round action (CEL-R13 Cast a 1-round Action Spell). The casting
/// asks its own provocation (or casts defensively) before the action begins.
pub const ONE_ROUND: one_round::Kind = one_round::Kind {
    is: is_one_round,
    provokes: false,
    name: "casts a 1-round spell",
    rule: "CEL-R13",
    effect: one_round_effect,
};

#[inline]
fn is_one_round(state: &State, _: CombatantId, choice: &Choice) -> bool {
    matches!(*choice, Choice::Cast(i, ..)
        if state.spellbook.get(usize::from(i)).is_some_and(|s| s.casting == Casting::OneRound))
}

fn one_round_effect(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    choice: Choice,
) -> Result<(), Interrupt> {
    if let Choice::Cast(i, target, _) = choice {
        let at = CastAt::of(state, who);
        resolve(state, table, who, usize::from(i), target, at)?;
    }
    Ok(())
}

/// The caster level and save DC a spell takes effect at: its caster's (`caster_level`,
/// `spell_dc`), or an item's (a wand's, a scroll's: `rules::item`). [CEL-R6, R11]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CastAt {
    /// Caster level (before its degrees, CEL-R6.3).
    pub caster_level: i32,
    /// The DC of saves against it.
    pub dc: i32,
}

impl CastAt {
    /// `who`'s own caster level and spell DC.
    pub fn of(state: &State, who: CombatantId) -> CastAt {
        let magic = &state.p(who).magic;
        CastAt {
            caster_level: magic.caster_level,
            dc: magic.spell_dc,
        }
    }
}

/// Does `who` know spell `i` of the spellbook?
pub fn known(state: &State, who: CombatantId, i: usize) -> bool {
    knows(state, who, i)
}

/// Does `who` know spell `i` of the spellbook?
fn knows(state: &State, who: CombatantId, i: usize) -> bool {
    let Some(spell) = state.spellbook.get(i) else {
        return false;
    };
    state
        .p(who)
        .magic
        .spells
        .iter()
        .any(|s| s.name == spell.name)
}

/// The casting options of `who`: each spell it knows on each target it may aim it at, plainly
/// and defensively (only legal ones are kept by the caller).
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    if state.p(who).magic.spells.is_empty() {
        return;
    }
    for i in 0..state.spellbook.len().min(usize::from(u8::MAX)) {
        if !knows(state, who, i) {
            continue;
        }
        let targets: Vec<Option<CombatantId>> = match state.spellbook[i].range {
            Range::Personal => vec![None],
            _ => state
                .ids()
                .filter(|&t| !state.f(t).absent())
                .map(Some)
                .collect(),
        };
        for t in targets {
            out.push(Choice::Cast(i as u8, t, false));
            out.push(Choice::Cast(i as u8, t, true));
        }
    }
}

/// Whether `who` has a slot left for a spell of `level`: always for level 0 and for a caster
/// whose slots are not counted. [CEL-R9, adopted reading]
pub fn has_slot(state: &State, who: CombatantId, level: i32) -> bool {
    let l = level.clamp(0, 9) as usize;
    l == 0
        || state
            .p(who)
            .magic
            .slots
            .is_none_or(|s| state.f(who).slots_spent[l] < s[l])
}

/// Spends a slot of `level` (nothing for level 0 or slots not counted). [CEL-R9, reading]
pub fn spend_slot(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId, level: i32) {
    let l = level.clamp(0, 9) as usize;
    let Some(slots) = state.p(who).magic.slots else {
        return;
    };
    if l == 0 {
        return;
    }
    let spent = state.f(who).slots_spent[l].saturating_add(1);
    state.fm(who).slots_spent[l] = spent;
    table.emit(|| Event::Acted {
        who,
        act: "spends a spell slot",
        on: None,
        detail: format!(
            "level {l}: {} of {} left",
            slots[l].saturating_sub(spent),
            slots[l]
        ),
        rule: "CEL-R9",
    });
}

/// Whether `who` may cast now as `choice` says (acts aside): it knows the spell, the target
/// fits the spell's range. [CEL-R9–R13]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let Choice::Cast(i, target, _) = *choice else {
        return Ok(());
    };
    let i = usize::from(i);
    castable(explain, state, who, i)?;
    let spell = &state.spellbook[i];
    super::magus::bar_cast(explain, state, who, spell)?;
    match (spell.range, target) {
        (Range::Personal, None) => Ok(()),
        (Range::Personal, Some(_)) => no(explain, "CEL-R9", || {
            format!(
                "{} is a personal spell: cast it without a target",
                spell.name
            )
        }),
        (_, None) => no(explain, "CEL-R9", || {
            format!("name the target of {}", spell.name)
        }),
        (range, Some(t)) => in_range(explain, state, who, t, spell, range),
    }
}

/// Whether `who` may cast spell `i` at all now, its aim aside: it knows the spell, has a hand
/// for its somatic component and a slot of its level. [CEL-R9, R18]
pub(crate) fn castable(
    explain: bool,
    state: &State,
    who: CombatantId,
    i: usize,
) -> Result<(), Illegal> {
    if !knows(state, who, i) {
        return no(explain, "CEL-R9", || {
            "it does not know that spell (its `spells` list it)".to_string()
        });
    }
    let spell = &state.spellbook[i];
    // CEL-R18 Hand Injury: "If you lose the use of all of your hands, you cannot cast spells
    // with somatic components (unless you use the Still Spell feat)" (fray has no Still Spell).
    if spell.somatic && state.f(who).injuries.all_hands_lost() {
        return no(explain, "CEL-R18", || {
            format!(
                "it has lost the use of all its hands: no spell with a somatic component ({})",
                spell.name
            )
        });
    }
    // CEL-R9 (hands tracked, `in_hand`): a somatic component needs a free hand (Pathfinder's,
    // the seed defers to it, CEL-A34): weapons in both hands, or one and a strapped shield, bar
    // it (a reading, docs/celesia.md); so does a weapon held in both hands, tracked or not
    // (`grip one` frees a hand).
    let f = state.f(who);
    if spell.somatic && (f.hands_tracked || f.grip) && super::wield::hands_to_use(state, who) == 0 {
        return no(explain, "CEL-R9", || {
            if f.grip {
                format!(
                    "no free hand for the somatic component of {}: it holds its weapon in both \
                     hands (`grip one` first)",
                    spell.name
                )
            } else {
                format!(
                    "no free hand for the somatic component of {} (its hands hold weapons or a \
                     strapped shield: sheathe or drop one first)",
                    spell.name
                )
            }
        });
    }
    if !has_slot(state, who, spell.level) {
        return no(explain, "CEL-R9", || {
            format!(
                "no spell slot of level {} left for {} (its `slots` give {}; adopted reading: a \
                 casting spends a slot of the spell's level)",
                spell.level,
                spell.name,
                state
                    .p(who)
                    .magic
                    .slots
                    .map_or(0, |s| s[spell.level as usize])
            )
        });
    }
    Ok(())
}

/// Whether `t` is a lawful aim for `spell` cast by `who` at `range`. [CEL-R6, R9]
pub(crate) fn in_range(
    explain: bool,
    state: &State,
    who: CombatantId,
    t: CombatantId,
    spell: &Spell,
    range: Range,
) -> Result<(), Illegal> {
    if state.f(t).absent() {
        return no(explain, "CEL-R9", || {
            format!("{} is no longer in the fight", state.roster.key(t))
        });
    }
    if t == who && (spell.attack.is_some() || spell.save.is_some() || spell.weapon.is_some()) {
        return no(explain, "CEL-R9", || {
            "a spell with an attack or a save is not cast on oneself".to_string()
        });
    }
    if t != who {
        super::line_of_effect::check(explain, state, who, t, "CEL-R9")?;
    }
    match range {
        Range::Touch => Illegal::unless(
            t == who || state.gap(who, t) <= 1,
            explain,
            "CEL-R6.1",
            || {
                format!(
                    "{} is a touch spell: {} is not next to it",
                    spell.name,
                    state.roster.key(t)
                )
            },
        ),
        Range::Feet(ft) => {
            let d = state.feet_between(who, t);
            Illegal::unless(d <= ft, explain, "CEL-R6.2", || {
                format!("{d} ft is beyond the range of {}, {ft} ft", spell.name)
            })
        }
        Range::Personal => Ok(()),
    }
}

/// Casts: defensively (a concentration check, DC 15 + 2 × level; failed, the spell is lost) or
/// with its attacks of opportunity first; on a mount that moves, the concentration check of
/// CEL-R21.9; then a 1-round spell begins (`rules::one_round`) and any other takes effect.
/// `acts`: the acts paid. [CEL-R3.5, R9–R14, R21.9, A9]
pub fn cast(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    choice: Choice,
    acts: i32,
) -> Result<(), Interrupt> {
    let Choice::Cast(i, target, defensively) = choice else {
        return Ok(());
    };
    let spell = state.spellbook[usize::from(i)].clone();
    super::magus::note_cast(state, who, &spell);
    let guard = defensively.then_some(0);
    if !begin_casting(state, table, who, &spell, guard, spell.provoke)? {
        return Ok(());
    }
    if spell.casting == Casting::OneRound {
        return one_round::begin(state, table, who, choice, acts);
    }
    let (act, rule) = match (spell.casting, target.is_some()) {
        (Casting::Simple, false) => ("casts a swift spell", "CEL-R9"),
        (Casting::Simple, true) => ("casts a swift spell on", "CEL-R9"),
        (Casting::Standard, false) => ("casts a standard-action spell", "CEL-R11"),
        (Casting::Standard, true) => ("casts a standard-action spell on", "CEL-R11"),
        (_, false) => ("casts a full-action spell", "CEL-R12"),
        (_, true) => ("casts a full-action spell on", "CEL-R12"),
    };
    table.emit(|| Event::Acted {
        who,
        act,
        on: target,
        detail: format!(
            "{} (level {}){}",
            spell.name,
            spell.level,
            if defensively { ", defensively" } else { "" }
        ),
        rule,
    });
    let at = CastAt::of(state, who);
    resolve(state, table, who, usize::from(i), target, at)
}

/// The casting of `spell` begins: a slot spent, its foes may identify and counter it, take
/// actions readied for "if a foe casts a spell" (CEL-R3.9), then cast defensively (`defensively`: a concentration check, DC 15 + 2 × level, with this
/// circumstance bonus: Spell Combat's INT) or, when it `provokes`, with its attacks of
/// opportunity; on a moving mount the check of CEL-R21.9. Returns whether the spell holds (not
/// countered, not lost, the caster not dropped). [CEL-R3.5, R9–R15, R21.9, A9]
pub(crate) fn begin_casting(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    spell: &Spell,
    defensively: Option<i32>,
    provokes: bool,
) -> Result<bool, Interrupt> {
    super::spell_components::prepare(state, table, who, spell);
    spend_slot(state, table, who, spell.level);
    if countered(state, table, who, spell)? {
        return Ok(false);
    }
    // CEL-R3.9: a foe's action readied for "if a foe casts a spell" comes before the casting.
    if !super::ready::before_cast(state, table, who)? {
        return Ok(false);
    }
    if let Some(bonus) = defensively {
        let dc = 15 + 2 * spell.level;
        let purpose = if bonus > 0 {
            "cast defensively (+ INT traded in spell combat, CEL-R9)"
        } else {
            "cast defensively"
        };
        if !concentrate(state, table, who, spell, (dc, bonus), purpose, "CEL-R14")? {
            return Ok(false);
        }
    } else if provokes && !round::provoke(state, table, who, None)? {
        return Ok(false);
    }
    if let Some((dc, why)) = moving_mount_dc(state, who, spell) {
        if !concentrate(state, table, who, spell, (dc, 0), why, "CEL-R21.9")? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// As `who`'s casting of `spell` begins (its own or an item's, CEL-R11: "You cast a spell from
/// a spell trigger item"): its foes may identify it (CEL-R14), and one that did may counter it
/// (CEL-R15). Returns whether it was countered.
pub fn countered(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    spell: &Spell,
) -> Result<bool, Interrupt> {
    let identified = super::spell_identify::attempts(state, table, who, spell)?;
    super::counterspell::offer(state, table, who, spell, &identified)
}

/// CEL-R21.9: a rider casting while its mount moves makes a concentration check: DC 10 + spell
/// level when the mount moved more than its speed this turn (it moves both before and after
/// the casting: fray's mount takes its whole turn before its rider's, CEL-R21.2), DC 15 + level
/// while it runs. Up to its speed: no check.
pub fn moving_mount_dc(
    state: &State,
    who: CombatantId,
    spell: &Spell,
) -> Option<(i32, &'static str)> {
    let mount = state.f(who).riding?;
    let m = state.f(mount);
    if m.running {
        Some((15 + spell.level, "cast on a running mount"))
    } else if m.moved_ft > state.p(mount).speed {
        Some((10 + spell.level, "cast on a moving mount"))
    } else {
        None
    }
}

/// A concentration check against `dc`, with a circumstance bonus (Spell Combat's INT, CEL-R9);
/// failed, the spell is lost. [CEL-R14, R21.9]
fn concentrate(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    spell: &Spell,
    (dc, circumstance): (i32, i32),
    purpose: &'static str,
    rule: &'static str,
) -> Result<bool, Interrupt> {
    let held = super::D20Check {
        purpose,
        modifier: "concentration",
        bonus: state.p(who).magic.concentration + circumstance,
        dc,
        kind: CheckKind::Skill { physical: false },
        results: ("the spell holds", "the spell is lost"),
        rule,
    }
    .roll(state, table, who)?;
    if !held {
        table.emit(|| Event::Forgone {
            who,
            what: "spell",
            on: None,
            reason: format!("{} is lost: the concentration check failed", spell.name),
            rule,
        });
    }
    Ok(held)
}

/// The spell takes effect: on its aim, or on every creature in its area (each saves
/// separately, allies and the caster too), at caster level and DC `at`; the aim out of range
/// or gone, it has no effect. [CEL-R6, R3.4, R16]
pub fn resolve(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    i: usize,
    target: Option<CombatantId>,
    at: CastAt,
) -> Result<(), Interrupt> {
    let spell = state.spellbook[i].clone();
    let t = target.unwrap_or(who);
    if let Err(why) = in_range(true, state, who, t, &spell, spell.range) {
        table.emit(|| Event::Forgone {
            who,
            what: "spell",
            on: target,
            reason: format!("{} has no effect: {}", spell.name, why.reason),
            rule: why.rule,
        });
        return Ok(());
    }
    if spell.weapon.is_some() {
        // CEL-R9 Direct or Redirect a Spell: the spell's weapon (`rules::spell_weapon`).
        return super::spell_weapon::summon(state, table, who, i, t, at.caster_level);
    }
    let Some(area) = spell.area else {
        return affect(state, table, who, &spell, t, at, None);
    };
    let caught = super::spell_area::creatures(state, who, t, area);
    table.emit(|| Event::Acted {
        who,
        act: "fills an area aimed at",
        on: Some(t),
        detail: format!(
            "{}: {} catches {}",
            spell.name,
            area.text(),
            if caught.is_empty() {
                "no one".to_string()
            } else {
                caught
                    .iter()
                    .map(|&c| state.roster.name(c).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ),
        rule: "CEL-R6.2",
    });
    for c in caught {
        if !state.f(c).absent() {
            affect(state, table, who, &spell, c, at, None)?;
        }
    }
    Ok(())
}

/// The spell on one creature `t`: its touch attack (or, `delivered`, the total and DV of the
/// weapon attack that hit in its place: Spellstrike, CEL-R11), its save, the caster level with
/// their degrees, then its damage, haste, condition or ability penalty. [CEL-R6, R3.4, R16]
pub(crate) fn affect(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    spell: &Spell,
    t: CombatantId,
    at: CastAt,
    delivered: Option<(i32, i32)>,
) -> Result<(), Interrupt> {
    let spell = spell.clone();
    let attack = match spell.attack {
        _ if delivered.is_some() => delivered,
        Some(kind) => match touch_attack(state, table, who, t, &spell, kind)? {
            Some(hit) => Some(hit),
            None => return Ok(()),
        },
        None => None,
    };
    // CEL-R9: spell resistance, after the touch attack hits, before the save.
    if !super::spell_resistance::overcome(state, table, who, t, &spell, at.caster_level)? {
        return Ok(());
    }
    // CEL-G13: the GM's adjustment to the target's DCs (`cond WHO dc+N`) moves its save's DC,
    // and so the save's degrees (CEL-R6.2).
    let dc = at.dc + state.f(t).gm_dc;
    let save = match spell.save {
        Some((kind, _)) => Some((saving_throw(state, table, (who, t), &spell, kind, dc)?, dc)),
        None => None,
    };
    let cl = at.caster_level;
    let effective = degrees::effective_caster_level(cl, attack, save);
    if effective != cl {
        let (a, s) = (
            attack.map_or(0, |(r, dv)| degrees::spell_attack_delta(r, dv)),
            save.map_or(0, |(r, dc)| degrees::save_delta(r, dc)),
        );
        table.emit(|| Event::Acted {
            who,
            act: "casts at a changed caster level on",
            on: Some(t),
            detail: format!(
                "{}: caster level {cl}{}{} = {effective}",
                spell.name,
                if a != 0 {
                    format!(" {a:+} (attack)")
                } else {
                    String::new()
                },
                if s != 0 {
                    format!(" {s:+} (save)")
                } else {
                    String::new()
                },
            ),
            rule: "CEL-R6.3",
        });
    }
    let saved = save.is_some_and(|(r, dc)| r >= dc);
    if let Some(healing) = spell.heal {
        return cure(state, table, who, t, healing, effective);
    }
    if spell.haste_rounds_per_level > 0 {
        return haste(state, table, who, t, &spell, effective);
    }
    let on_save = spell.save.map(|(_, o)| o);
    if saved && on_save == Some(OnSave::Negates) {
        table.emit(|| Event::Forgone {
            who,
            what: "spell",
            on: Some(t),
            reason: format!("{}: the save negates it", spell.name),
            rule: "CEL-R6.2",
        });
        return Ok(());
    }
    let half = saved && on_save == Some(OnSave::Half);
    if let Some(trick) = spell.condition {
        return condition(state, table, who, t, &spell, trick, effective, half);
    }
    if let Some(penalty) = spell.penalty {
        return drain(state, table, who, t, &spell, penalty, effective, half);
    }
    let Some(dice) = spell.damage else {
        return Ok(());
    };
    let levels = if spell.max_levels > 0 {
        effective.min(spell.max_levels)
    } else {
        effective
    };
    let times = if spell.per_level { levels } else { 1 };
    let count = (i32::from(dice.count) * times).clamp(1, 200) as u16;
    let rolled = table.roll(RollRequest::new(
        count,
        dice.sides,
        Some(who),
        RollPurpose::Damage,
        "CEL-R6",
    ))? as i32;
    let mut mods = Mods::default();
    mods.push("spell", "", dice.bonus);
    let full = (rolled + mods.total()).max(0);
    let amount = if saved && on_save == Some(OnSave::Half) {
        mods.push("half (save)", "CEL-R6.2", full / 2 - full);
        full / 2
    } else {
        full
    };
    injury::take_damage(
        state,
        table,
        t,
        Some(who),
        injury::Blow {
            roll: rolled,
            mods: &mods,
            amount,
            nonlethal: false,
            coup_de_grace: false,
        },
        "CEL-R6",
    )?;
    Ok(())
}

/// A healing spell on `t` (cure light wounds, from a wand or scroll or a caster): its dice +
/// the caster level up to its `max_bonus`, healed as any healing is (`item::heal`: nonlethal
/// damage too, a dying creature stable). [CEL-R6, R11, R17.8, R20.6]
fn cure(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    t: CombatantId,
    healing: crate::spell::Healing,
    cl: i32,
) -> Result<(), Interrupt> {
    let dice = healing.dice;
    let rolled = table.roll_damage(dice, Some(who), RollPurpose::Damage, "CEL-R6")?;
    let amount = (rolled + dice.bonus + healing.bonus(cl)).max(0);
    super::item::heal(state, table, t, amount, "CEL-R6");
    Ok(())
}

/// The rounds a timed effect lasts at effective caster level `cl` (halved on a save that
/// halves, rounded down), and the round whose start of the caster's turn ends it (CEL-A39).
pub(crate) fn lasting(state: &State, spell: &Spell, cl: i32, half: bool) -> (u32, u32) {
    let full = (spell.rounds_per_level * cl).clamp(1, 10_000);
    let rounds = if half { full / 2 } else { full } as u32;
    (rounds, state.round.saturating_add(rounds))
}

/// When a condition or penalty of `spell` cast by `who` ends: at the start of its turn in round
/// `until` (rounds per level, CEL-A39), never (permanent: until dismissed, CEL-R9), or with its
/// next turn unless it concentrates (CEL-R11, `rules::spell_lasting`).
fn expiry(state: &State, who: CombatantId, spell: &Spell, until: u32) -> Expiry {
    match spell.duration {
        Duration::Rounds => Expiry::StartOfTurn { who, round: until },
        Duration::Permanent => Expiry::Indefinite,
        Duration::Concentration => super::spell_lasting::held_until(state, who),
    }
}

/// How long a condition or penalty lasts, for the log: `rounds` rounds until the start of the
/// caster's turn in round `until`, permanent, or while the caster concentrates.
pub(crate) fn how_long(spell: &Spell, rounds: u32, until: u32) -> String {
    let dismiss = if spell.dismissible {
        " (dismissible, CEL-R9)"
    } else {
        ""
    };
    match spell.duration {
        Duration::Rounds => format!(
            "{rounds} round{}: until the start of the caster's turn in round {until}{dismiss}",
            if rounds == 1 { "" } else { "s" }
        ),
        Duration::Permanent => format!("permanent{dismiss}"),
        Duration::Concentration => format!(
            "while the caster concentrates (Concentrate to Maintain an Active Spell in each of \
             its later turns, CEL-R11){dismiss}"
        ),
    }
}

/// A condition on `t` for the spell's rounds per effective caster level, until the start of
/// the caster's turn that many rounds on (a save that halves halves the rounds, rounded down;
/// adopted reading). [CEL-R6.2, R4.5, A39]
#[allow(clippy::too_many_arguments)]
fn condition(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    t: CombatantId,
    spell: &Spell,
    trick: Trick,
    cl: i32,
    half: bool,
) -> Result<(), Interrupt> {
    let (rounds, until) = lasting(state, spell, cl, half);
    if rounds == 0 && spell.duration == Duration::Rounds {
        table.emit(|| Event::Forgone {
            who,
            what: "spell",
            on: Some(t),
            reason: format!("{}: half of {} round is none", spell.name, rounds * 2 + 1),
            rule: "CEL-R6.2",
        });
        return Ok(());
    }
    let caused = Caused {
        trick,
        cause: Cause::Spell,
    };
    let timed = Timed::new(caused, expiry(state, who, spell, until)).from(who);
    if state.fm(t).tricks.add_timed(timed) == Added::New {
        table.emit(|| Event::Condition {
            who: t,
            condition: ConditionKind::key(trick),
            gained: true,
            rule: "CEL-R6.2",
        });
    }
    super::spell_lasting::record(state, who, spell, t, Lasts::Condition(caused));
    table.emit(|| Event::Acted {
        who,
        act: "times its spell on",
        on: Some(t),
        detail: if spell.duration == Duration::Rounds {
            format!(
                "{}: {} for {rounds} round{} ({} per caster level {cl}{}): until the start of \
                 the caster's turn in round {until}{}",
                spell.name,
                ConditionKind::key(trick),
                if rounds == 1 { "" } else { "s" },
                spell.rounds_per_level,
                if half { ", halved" } else { "" },
                if spell.dismissible {
                    " (dismissible, CEL-R9)"
                } else {
                    ""
                },
            )
        } else {
            format!(
                "{}: {}, {}",
                spell.name,
                ConditionKind::key(trick),
                how_long(spell, rounds, until)
            )
        },
        rule: if spell.duration == Duration::Rounds {
            "CEL-A39"
        } else {
            "CEL-R6.2"
        },
    });
    Ok(())
}

/// An ability penalty on `t`: the dice + the bonus for the effective caster level (ray of
/// enfeeblement: 1d6 + 1 per 2 levels, at most +5), half of it (rounded down) on a save that
/// halves (CEL-E6, E7), for the spell's rounds per caster level. A second penalty of the same
/// ability does not add to the first: the larger stands (adopted reading). [CEL-R6.2, E5–E7]
#[allow(clippy::too_many_arguments)]
fn drain(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    t: CombatantId,
    spell: &Spell,
    penalty: Penalty,
    cl: i32,
    half: bool,
) -> Result<(), Interrupt> {
    let dice = penalty.dice;
    let rolled = table.roll(RollRequest::new(
        dice.count,
        dice.sides,
        Some(who),
        RollPurpose::Other,
        "CEL-R6.2",
    ))? as i32;
    let bonus = dice.bonus + penalty.bonus(cl);
    let full = (rolled + bonus).max(0);
    let amount = if half { full / 2 } else { full };
    let (rounds, until) = lasting(state, spell, cl, false);
    // CEL-R6.2 (adopted reading): spells' penalties to one ability are one entry, the larger
    // standing; a lasting penalty is another entry, and the two stack.
    let kind = crate::spell::Penalized::spell(penalty.ability);
    let was = state.f(t).drained.get(kind).map_or(0, |d| d.magnitude);
    let already = state
        .f(t)
        .drained
        .has(crate::spell::Penalized::lasting(penalty.ability));
    let timed = Timed::new(kind, expiry(state, who, spell, until))
        .from(who)
        .of(amount.max(was));
    let before = (state.band(t), state.knocked_out(t), state.staggered(t));
    if amount > 0 && state.fm(t).drained.add_timed(timed) == Added::New && !already {
        table.emit(|| Event::Condition {
            who: t,
            condition: penalty.ability.key(),
            gained: true,
            rule: "CEL-R6.2",
        });
    }
    if amount > 0 {
        super::spell_lasting::record(state, who, spell, t, Lasts::Penalty(kind));
    }
    table.emit(|| Event::Acted {
        who,
        act: "weakens",
        on: Some(t),
        detail: format!(
            "{}: {} penalty {}{}d{}{:+} = {full}{} (caster level {cl}){}",
            spell.name,
            penalty.ability.name(),
            if half { "half of " } else { "" },
            dice.count,
            dice.sides,
            bonus,
            if half {
                format!(", half = {amount}")
            } else {
                String::new()
            },
            if amount > was {
                format!("; {}", how_long(spell, rounds, until))
            } else {
                format!("; the larger penalty, {was}, stands")
            },
        ),
        rule: "CEL-R6.2",
    });
    // A Constitution penalty moves the bands of hit points (CEL-R17: they are in the
    // Constitution score).
    super::injury::settle(state, table, t, before);
    Ok(())
}

/// The spell's touch attack: `Some((total, touch DV))` on a hit, `None` on a miss (logged).
/// [CEL-R4.4, R6.1, R16, A3]
fn touch_attack(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    t: CombatantId,
    spell: &Spell,
    kind: TouchAttack,
) -> Result<Option<(i32, i32)>, Interrupt> {
    let ranged = kind == TouchAttack::Ranged;
    // CEL-A34: an attack roll on a confused creature (it attacks back).
    super::confusion::attacked(state, who, t);
    let mut bonus = Mods::default();
    touch_bonus_into(state, who, ranged, &mut bonus);
    let touch = touch_weapon(spell, ranged);
    let (adv, dis) = attack::sources(state, who, t, &touch);
    let net = adv.count() - dis.count();
    let (die, pool) = attack::roll_d20(table, who, net, RollPurpose::Attack, "CEL-R4.5")?;
    let total = die as i32 + bonus.total();
    let mut dv_mods = attack::defense(state, t);
    // A feint is spent on the feinter's next attack, a spell's touch attack too. [CEL-R11]
    super::feint::spend(state, who, t, &mut dv_mods);
    dv_mods.push(
        "touch: no armour, shield or natural armour",
        "CEL-R4.4",
        -touch_excluded(state, t),
    );
    // Aid Another on the target's touch DV against this caster's spell attack (CEL-R9).
    let aided = super::aid::take(state, t, who, super::aid::AidTo::Touch);
    dv_mods.push("aid another", "CEL-R9", aided);
    let dv = 10 + dv_mods.total();
    let hit = die == 20 || (die != 1 && total >= dv);
    table.emit(|| {
        let mut name = format!(
            "{} ({} touch)",
            spell.name,
            if ranged { "ranged" } else { "melee" }
        );
        if adv.count() > 0 {
            name.push_str(&format!("; advantage: {}", adv.text()));
        }
        if dis.count() > 0 {
            name.push_str(&format!("; disadvantage: {}", dis.text()));
        }
        if let Some(pool) = &pool {
            name.push_str(&format!("; {pool}"));
        }
        Event::Attack {
            attacker: who,
            target: t,
            attack: name,
            roll: die,
            modifiers: bonus.to_vec(),
            total,
            defense: "touch DV",
            versus: dv,
            defense_modifiers: dv_mods.to_vec(),
            result: if hit {
                AttackResult::Hit
            } else {
                AttackResult::Miss
            },
            rule: "CEL-R6.1",
        }
    });
    Ok(hit.then_some((total, dv)))
}

/// The attack bonus of `who`'s touch attack (melee or `ranged`), added to `m`: BAB, STR on a
/// melee touch, DEX, size, the special attack options' attack-roll side. [CEL-R4.1, R6.1]
pub(crate) fn touch_bonus_into(
    state: &State,
    who: CombatantId,
    ranged: bool,
    m: &mut impl super::ModifierSink,
) {
    let p = state.p(who);
    m.push("BAB", "CEL-R4.3", p.bab);
    if !ranged {
        m.push("STR", "CEL-R4.1", state.m(who, STR));
    }
    m.push("DEX", "CEL-R4.1", state.m(who, DEX));
    m.push("size", "CEL-R4.1", p.size.modifier());
    attack::special_attack_mods(state, who, ranged, m);
}

/// What a touch attack leaves out of `t`'s DV: its armour, shield and natural armour. [CEL-R4.4]
pub(crate) fn touch_excluded(state: &State, t: CombatantId) -> i32 {
    state.p(t).dv_bonus + state.f(t).shield_dv
}

/// `t`'s save bonus of `kind` (before a friend's Aid Another). [CEL-R6.2]
pub(crate) fn save_bonus(state: &State, t: CombatantId, kind: Save) -> i32 {
    match kind {
        Save::Fort => state.fort(t),
        Save::Reflex => state.save(t, state.p(t).reflex, DEX) + state.stance_saves(t),
        Save::Will => state.save(t, state.p(t).will, crate::state::WIS) + state.stance_saves(t),
    }
}

/// A stand-in weapon for the advantage table's melee/ranged rows of a touch attack.
fn touch_weapon(spell: &Spell, ranged: bool) -> Weapon {
    Weapon {
        name: spell.name.clone(),
        damage: DamageDice {
            count: 0,
            sides: 1,
            bonus: 0,
        },
        kind: if ranged {
            WeaponKind::Projectile
        } else {
            WeaponKind::Melee
        },
        hands: Hands::Light,
        threat: 21,
        multiplier: 1,
        reach: 5,
        reach_only: false,
        range: match spell.range {
            Range::Feet(ft) => ft,
            _ => 0,
        },
        nonlethal: false,
        secondary: false,
        load: crate::content::Loading::None,
        capacity: 1,
        splash: false,
        double: None,
    }
}

/// The target's save against the caster's spell (its disadvantage from conditions, CEL-R4.5;
/// a friend's Aid Another against the caster's spells, CEL-R9): the total. [CEL-R6.2]
fn saving_throw(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    (caster, t): (CombatantId, CombatantId),
    spell: &Spell,
    kind: Save,
    dc: i32,
) -> Result<i32, Interrupt> {
    let (bonus, check) = super::fire::save_bonus(state, t, kind);
    let (roll, dice) = super::roll_check_die(state, table, t, check, "CEL-R6.2")?;
    let aid = super::aid::take(state, t, caster, super::aid::AidTo::Save);
    let total = roll as i32 + bonus + aid;
    let success = total >= dc;
    let gm = state.f(t).gm_dc;
    table.emit(|| Event::Check {
        who: Subject::Combatant(t),
        purpose: "spell save",
        dice,
        roll,
        modifiers: {
            let mut m = vec![Modifier::new(kind.name(), "", bonus)];
            if aid != 0 {
                m.push(Modifier::new("aid another", "CEL-R9", aid));
            }
            m
        },
        total,
        against: if gm == 0 { "DC" } else { "GM-adjusted DC" },
        target: dc,
        under: false,
        success: Some(success),
        result: format!(
            "{} {}",
            spell.name,
            match (success, spell.save.map(|s| s.1)) {
                (true, Some(OnSave::Half)) => "(half)",
                (true, _) => "(negated)",
                (false, _) => "(full effect)",
            }
        ),
        rule: "CEL-R6.2",
    });
    Ok(total)
}

/// Haste on `t` for the spell's rounds per (effective) caster level: +1 act each round, not
/// stacking with another extra-act effect (`round::budget`); it ends at the start of the
/// caster's turn that many rounds on. [CEL-R3.4, A39, A40]
fn haste(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    t: CombatantId,
    spell: &Spell,
    effective: i32,
) -> Result<(), Interrupt> {
    let rounds = (spell.haste_rounds_per_level * effective).clamp(1, 10_000) as u32;
    let until = state.round.saturating_add(rounds);
    let was = state.f(t).haste.is_some();
    state.fm(t).haste = Some((who, until));
    if !was {
        table.emit(|| Event::Condition {
            who: t,
            condition: "hasted",
            gained: true,
            rule: "CEL-R3.4",
        });
    }
    table.emit(|| Event::Acted {
        who,
        act: "hastes",
        on: Some(t),
        detail: format!(
            "+1 act each round for {rounds} round{} (until the start of the caster's turn in \
             round {until})",
            if rounds == 1 { "" } else { "s" }
        ),
        rule: "CEL-R3.4",
    });
    Ok(())
}

/// The spells' ability penalties of `t` that end at `moment`: each says so, unless a lasting
/// penalty to that ability stays (then the log says it stays). [CEL-R6.2]
fn expire_penalties(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    t: CombatantId,
    moment: fray_core::conditions::Moment,
) {
    let mut ended = Vec::new();
    state
        .fm(t)
        .drained
        .expire_each(moment, |timed| ended.push(timed.kind.ability));
    for ability in ended {
        penalty_ended(state, table, t, ability);
    }
}

/// A spell's penalty to `ability` on `t` has ended: it says so, unless a lasting penalty to
/// that ability stays (then the log says it stays). [CEL-R6.2]
pub(crate) fn penalty_ended(
    state: &State,
    table: &mut Table<'_, Celesia>,
    t: CombatantId,
    ability: crate::spell::Drained,
) {
    {
        match state
            .f(t)
            .drained
            .get(crate::spell::Penalized::lasting(ability))
        {
            None => table.emit(|| Event::Condition {
                who: t,
                condition: ability.key(),
                gained: false,
                rule: "CEL-R6.2",
            }),
            Some(stays) => {
                let n = stays.magnitude;
                table.emit(|| Event::Acted {
                    who: t,
                    act: "keeps",
                    on: None,
                    detail: format!(
                        "a lasting {} penalty of {n}: the spell's ends",
                        ability.name()
                    ),
                    rule: "CEL-R6.2",
                });
            }
        }
    }
}

/// At the start of `caster`'s turn: the haste it cast that is over ends, and the ability
/// penalties that are over (a caster's turn that never came ends them at the next turn's
/// start). [CEL-R3.4, R6.2, A39]
pub fn expire_haste(state: &mut State, table: &mut Table<'_, Celesia>, caster: CombatantId) {
    let round = state.round;
    let moment = fray_core::conditions::Moment::StartOfTurn(caster, round);
    for t in state.ids() {
        if !state.f(t).drained.is_empty() {
            let before = (state.band(t), state.knocked_out(t), state.staggered(t));
            expire_penalties(state, table, t, moment);
            // A Constitution penalty's end moves the bands back (CEL-R17).
            super::injury::settle(state, table, t, before);
        }
    }
    for t in state.ids().collect::<Vec<_>>() {
        if state
            .f(t)
            .haste
            .is_some_and(|(by, until)| by == caster && round >= until)
        {
            state.fm(t).haste = None;
            table.emit(|| Event::Condition {
                who: t,
                condition: "hasted",
                gained: false,
                rule: "CEL-R3.4",
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use fray_core::catalog::ContentSet;

    /// CEL-R21.9: no check while the mount moved up to its speed; DC 10 + level once it moved
    /// more (both before and after the casting); DC 15 + level while it runs.
    #[test]
    fn casting_on_a_moving_mount() {
        let mut s = Fixture::new()
            .with(
                "kay",
                "heroes",
                [0, 0],
                &format!(
                    "{FIGHTER}\nmount = \"horse\"\nspells = [\"fireball\"]\ncaster_level = 5\n\
                     spell_dc = 15"
                ),
            )
            .monster("horse", "heroes", [0, 0], "light horse")
            .monster("orc", "orcs", [9, 0], "orc")
            .state();
        let (kay, horse) = (CombatantId(0), CombatantId(1));
        let fireball = s.spellbook[0].clone();
        assert_eq!(fireball.level, 3);
        let speed = s.p(horse).speed;
        s.fm(horse).moved_ft = speed;
        assert_eq!(moving_mount_dc(&s, kay, &fireball), None);
        s.fm(horse).moved_ft = speed + 5;
        assert_eq!(moving_mount_dc(&s, kay, &fireball).map(|d| d.0), Some(13));
        s.fm(horse).running = true;
        assert_eq!(moving_mount_dc(&s, kay, &fireball).map(|d| d.0), Some(18));
        let orc = CombatantId(2);
        assert_eq!(moving_mount_dc(&s, orc, &fireball), None, "on foot");
    }

    /// Spells are checked on load: a melee touch spell needs touch range, a save needs its
    /// outcome, one effect only; each error names the file, line and field.
    #[test]
    fn bad_durations_are_refused_with_their_field() {
        let zap = |extra: &str| {
            format!(
                "[[spell]]\nname = \"zap\"\nlevel = 1\ncasting = \"standard\"\n\
                 range = \"ranged\"\nrange_ft = 30\nspell_resistance = true\n{extra}"
            )
        };
        let refused = |extra: &str, field: &str| {
            let text = zap(extra);
            let err = crate::content::Content::load(&[("bad.toml", text.as_str())])
                .expect_err("refused")
                .to_string();
            assert!(err.contains(field), "{extra}: {err}");
        };
        // A permanent or concentration condition has no rounds per level, and none to halve.
        refused(
            "condition = \"blinded\"\nduration = \"permanent\"\nrounds_per_level = 1\n",
            "spell[0].rounds_per_level",
        );
        refused(
            "condition = \"blinded\"\nduration = \"concentration\"\nsave = \"will\"\n\
             on_save = \"half\"\n",
            "spell[0].on_save",
        );
        refused(
            "condition = \"blinded\"\nduration = \"forever\"\n",
            "spell[0].duration",
        );
        // Only a condition or a penalty lasts.
        refused(
            "damage = \"1d6\"\nduration = \"permanent\"\n",
            "spell[0].duration",
        );
        refused(
            "damage = \"1d6\"\nrounds_per_level = 1\n",
            "spell[0].rounds_per_level",
        );
        let ok = zap("condition = \"blinded\"\nduration = \"permanent\"\ndismissible = true\n");
        let content = crate::content::Content::load(&[("ok.toml", ok.as_str())]).expect("loads");
        let spell = content.spells.get("zap").expect("zap");
        assert_eq!(spell.duration, crate::spell::Duration::Permanent);
        assert!(spell.dismissible && !spell.material);
    }

    #[test]
    fn bad_spells_are_refused_with_their_field() {
        let text = "[[spell]]\nname = \"zap\"\nlevel = 1\ncasting = \"standard\"\n\
                    range = \"ranged\"\nrange_ft = 30\nattack = \"melee touch\"\n\
                    save = \"will\"\ndamage = \"1d6\"\n";
        let err = crate::content::Content::load(&[("bad.toml", text)])
            .expect_err("refused")
            .to_string();
        assert!(err.contains("bad.toml:5"), "{err}");
        assert!(err.contains("spell[0].range"), "{err}");
        assert!(err.contains("spell[0].on_save"), "{err}");
        let text = "[[spell]]\nname = \"zap\"\nlevel = 12\ncasting = \"2-rounds\"\n\
                    range = \"touch\"\nhaste_rounds_per_level = 1\ndamage = \"1d6\"\n";
        let err = crate::content::Content::load(&[("bad.toml", text)])
            .expect_err("refused")
            .to_string();
        assert!(err.contains("spell[0].level"), "{err}");
        assert!(err.contains("spell[0].casting"), "{err}");
        assert!(err.contains("one effect"), "{err}");
        let text = "[[spell]]\nname = \"zap\"\nlevel = 1\ncasting = \"standard\"\n\
                    range = \"touch\"\ncondition = \"petrified\"\narea = \"burst\"\n\
                    area_ft = 10\n";
        let err = crate::content::Content::load(&[("bad.toml", text)])
            .expect_err("refused")
            .to_string();
        assert!(err.contains("spell[0].condition"), "{err}");
        assert!(err.contains("spell[0].rounds_per_level"), "{err}");
        assert!(
            err.contains("spell[0].range"),
            "an area needs a ranged aim: {err}"
        );
        let zap = |ability: &str| {
            format!(
                "[[spell]]\nname = \"zap\"\nlevel = 1\ncasting = \"standard\"\n\
                 range = \"ranged\"\nrange_ft = 30\npenalty = \"1d6\"\nability = \"{ability}\"\n\
                 rounds_per_level = 1\nspell_resistance = true\n"
            )
        };
        let text = zap("luck");
        let err = crate::content::Content::load(&[("bad.toml", text.as_str())])
            .expect_err("refused")
            .to_string();
        assert!(err.contains("bad.toml:8"), "{err}");
        assert!(err.contains("spell[0].ability"), "{err}");
        assert!(err.contains("str, dex, con, int, wis, cha"), "{err}");
        // CEL-R9: whether spell resistance applies is required, named on the spell's line.
        let text = zap("str").replace("spell_resistance = true\n", "");
        let err = crate::content::Content::load(&[("bad.toml", text.as_str())])
            .expect_err("refused")
            .to_string();
        assert!(err.contains("bad.toml:2"), "{err}");
        assert!(err.contains("spell[0].spell_resistance"), "{err}");
        // Every ability is accepted (CEL-R6.2: a penalty to any score).
        for (ability, drained) in ["str", "dex", "con", "int", "wis", "cha"]
            .into_iter()
            .zip(crate::spell::Drained::ALL)
        {
            let text = zap(ability);
            let content = crate::content::Content::load(&[("ok.toml", text.as_str())])
                .unwrap_or_else(|e| panic!("{ability}: {e}"));
            let spell = content.spells.get("zap").expect("zap");
            assert_eq!(spell.penalty.map(|p| p.ability), Some(drained), "{ability}");
        }
    }

    /// A healing spell (cure light wounds) heals its dice + 1 per caster level up to its
    /// `max_bonus`, makes no attack and allows no save; each bad field is named with its line.
    #[test]
    fn healing_spells_are_checked() {
        let cure = "[[spell]]\nname = \"mend\"\nlevel = 1\ncasting = \"standard\"\n\
                    range = \"touch\"\nheal = \"1d8\"\nmax_bonus = 5\nspell_resistance = true\n";
        let content = crate::content::Content::load(&[("ok.toml", cure)]).expect("loads");
        let heal = content
            .spells
            .get("mend")
            .and_then(|s| s.heal)
            .expect("heals");
        assert_eq!((heal.bonus(1), heal.bonus(3), heal.bonus(9)), (1, 3, 5));
        let builtin = crate::content::Content::embedded().expect("built-in content");
        let clw = builtin
            .spells
            .get("cure light wounds")
            .expect("cure light wounds");
        let heal = clw.heal.expect("it heals");
        assert_eq!(
            (heal.dice.count, heal.dice.sides, heal.max_bonus),
            (1, 8, 5)
        );
        assert_eq!((clw.level, clw.range), (1, Range::Touch));
        for (bad, line, field) in [
            (
                cure.replace("heal = \"1d8\"", "heal = \"lots\""),
                6,
                "spell[0].heal",
            ),
            (
                cure.replace("max_bonus = 5\n", "save = \"will\"\non_save = \"half\"\n"),
                6,
                "spell[0].save",
            ),
            (
                cure.replace("heal = \"1d8\"\n", "damage = \"1d8\"\n"),
                7,
                "spell[0].max_bonus",
            ),
            (
                cure.replace(
                    "range = \"touch\"\n",
                    "range = \"touch\"\nattack = \"melee touch\"\n",
                ),
                7,
                "spell[0].attack",
            ),
        ] {
            let err = crate::content::Content::load(&[("bad.toml", bad.as_str())])
                .expect_err(&bad)
                .to_string();
            assert!(err.contains(&format!("bad.toml:{line}")), "{field}: {err}");
            assert!(err.contains(field), "{field}: {err}");
        }
    }

    /// CEL-R6.2: a penalty to any ability lowers the current score (not below 1), so its
    /// modifier, wherever it counts: DEX in DV, CMD, Reflex and Combat Reflexes' reactions; CON
    /// in Fortitude and the bands of hit points (CEL-R17); WIS in Will. Power Attack's STR 13
    /// reads the current score (CEL-R16.6).
    #[test]
    fn ability_penalties_count_where_the_ability_does() {
        use crate::spell::Drained;
        use crate::state::{Band, CON, WIS};
        let mut s = Fixture::new()
            .with(
                "una",
                "heroes",
                [0, 0],
                &format!(
                    "{FIGHTER}\nscores = {{ str = 14, dex = 16, con = 10, wis = 12 }}\n\
                     feats = [\"combat reflexes\"]"
                ),
            )
            .monster("orc", "orcs", [1, 0], "orc")
            .state();
        let una = CombatantId(0);
        s.fm(una).flat_footed = false;
        let (dv, cmd) = (
            attack::defense(&s, una).total(),
            attack::cmd(&s, una, false).total(),
        );
        assert!(dv > 0, "DEX +3 counts in the DV: {dv}");
        let (fort, reflex, will) = (s.fort(una), s.p(una).reflex, s.p(una).will);
        let reflex_now = |s: &State| s.save(una, s.p(una).reflex, DEX);
        assert_eq!(reflex_now(&s), reflex);
        assert_eq!(s.reactions_per_round(una), 1 + 3);
        s.fm(una).acts_left = 3;
        let power = Choice::Special(crate::state::Special::PowerAttack);
        assert!(super::super::legal::check_action(true, &s, una, &power).is_ok());
        let penalty = |s: &mut State, d: Drained, n: i32| {
            let until = Expiry::StartOfTurn { who: una, round: 9 };
            s.fm(una)
                .drained
                .add_timed(Timed::new(crate::spell::Penalized::spell(d), until).of(n));
        };
        penalty(&mut s, Drained::Dexterity, 6);
        assert_eq!(s.score(una, DEX), 10);
        assert_eq!(attack::defense(&s, una).total(), dv - 3);
        assert_eq!(attack::cmd(&s, una, false).total(), cmd - 3);
        assert_eq!(reflex_now(&s), reflex - 3);
        assert_eq!(s.reactions_per_round(una), 1);
        penalty(&mut s, Drained::Constitution, 4);
        assert_eq!(
            (s.score(una, CON), s.fort(una)),
            (6, fort - 2),
            "CON 10 to 6: +0 to -2"
        );
        s.fm(una).hp = -7;
        assert_eq!(s.band(una), Band::Dying, "-7 is at or below -CON (6)");
        s.fm(una)
            .drained
            .remove(crate::spell::Penalized::spell(Drained::Constitution));
        assert_eq!(s.band(una), Band::Disabled, "-7 is above -CON (10)");
        s.fm(una).hp = 30;
        penalty(&mut s, Drained::Wisdom, 20);
        assert_eq!(s.score(una, WIS), 1, "not below 1");
        assert_eq!(s.save(una, will, WIS), will - 1 - 5);
        penalty(&mut s, Drained::Strength, 2);
        assert_eq!(s.score(una, STR), 12);
        let refused = super::super::legal::check_action(true, &s, una, &power);
        assert!(
            refused.is_err_and(|e| e.reason.contains("STR 13")),
            "Power Attack needs STR 13 now"
        );
    }

    /// CEL-E5–E7: ray of enfeeblement's bonus is +1 per 2 caster levels, at most +5.
    #[test]
    fn enfeeblement_bonus_by_caster_level() {
        let content =
            crate::content::Content::load(&crate::content::CONTENT_FILES).expect("content");
        let ray = content
            .spells
            .get("ray of enfeeblement")
            .expect("the sample spell");
        let p = ray.penalty.expect("a penalty");
        assert_eq!(
            (p.bonus(5), p.bonus(6), p.bonus(8), p.bonus(20)),
            (2, 3, 4, 5)
        );
    }
}
