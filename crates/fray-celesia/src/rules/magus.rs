//! The magus's actions: CEL-R9 Spell Combat (a simple action, 1 act, Provoke: a light or
//! one-handed melee weapon attack at −2, then a magus spell with a casting time of 1 standard
//! action, cast whether or not the attack hits; once per turn, with one hand free; that turn no
//! standard-action or 1-round-action spell besides) and CEL-R11 Spellstrike (a standard action,
//! 2 acts, Provoke: a magus touch spell delivered by a melee weapon attack instead of a touch
//! attack; a hit deals the weapon's damage and the spell's effects, its degrees from that
//! attack, CEL-R6.1).
//!
//! Adopted readings (docs/celesia.md, *The magus's actions*): the acts are the seed's table
//! placement (Spell Combat under Simple Actions, Spellstrike under Standard Actions); the action
//! provokes once, at its start (CEL-R3.5), unless its spell is cast defensively (CEL-A9), and the
//! spell provokes no second time; Spell Combat's casting begins after its attack (its slot,
//! identification, counterspell and concentration then); trading the INT bonus is all or none
//! (spec erratum 14); Spellstrike casts a standard-action spell, so it and Spell Combat bar each
//! other in a turn; a missed Spellstrike spends the spell (the seed holds no charge).

use super::shield::ShieldAt;
use super::{attack, spell, wield};
use crate::choice::Choice;
use crate::content::{Hands, Weapon, WeaponKind};
use crate::spell::{Casting, Range, Spell};
use crate::state::{State, INT};
use crate::Celesia;
use fray_core::event::{AttackResult, Event};
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// How Spell Combat's spell is cast. [CEL-R9, R14]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Defensively {
    /// Not defensively: the action provokes at its start.
    #[default]
    No,
    /// Defensively (a concentration check; success: no provocation).
    Yes,
    /// Defensively, the INT bonus taken off the attack roll and added to the concentration
    /// check as a circumstance bonus ("the same value"; the whole bonus, spec erratum 14).
    TradingInt,
}

impl Defensively {
    /// Every one, in the order options list them.
    pub const ALL: [Defensively; 3] = [Defensively::No, Defensively::Yes, Defensively::TradingInt];

    /// Its words at the end of a choice (`defensively int`).
    pub fn words(self) -> &'static str {
        match self {
            Defensively::No => "",
            Defensively::Yes => " defensively",
            Defensively::TradingInt => " defensively int",
        }
    }
}

/// What a turn has seen of the magus's actions, and Spell Combat's attack under way.
/// [CEL-R9 Spell Combat]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MagusTurn {
    /// Spell Combat taken this turn ("only once per turn").
    pub spell_combat: bool,
    /// A standard-action or 1-round-action spell cast this turn (Cast, Spellstrike): no Spell
    /// Combat after it.
    pub spell_cast: bool,
    /// Spell Combat's attack is being made: the INT bonus traded (the −2 comes with it).
    pub attack_penalty: Option<i32>,
}

/// The INT bonus (`bonus(INT)`: a positive modifier only) that Spell Combat may trade. [CEL-R9]
pub fn int_bonus(state: &State, who: CombatantId) -> i32 {
    state.m(who, INT).max(0)
}

/// A casting begins: a standard-action or 1-round-action spell counts for Spell Combat's bar.
/// [CEL-R9 Spell Combat]
pub fn note_cast(state: &mut State, who: CombatantId, spell: &Spell) {
    if matches!(spell.casting, Casting::Standard | Casting::OneRound) {
        state.fm(who).magus.spell_cast = true;
    }
}

/// CEL-R9 Spell Combat: "You can't also take the following actions this turn: cast a
/// standard-action spell or cast a 1-round-action spell" (after it; before it, `check`).
pub fn bar_cast(
    explain: bool,
    state: &State,
    who: CombatantId,
    spell: &Spell,
) -> Result<(), Illegal> {
    Illegal::unless(
        !state.f(who).magus.spell_combat
            || !matches!(spell.casting, Casting::Standard | Casting::OneRound),
        explain,
        "CEL-R9",
        || {
            format!(
                "it took Spell Combat this turn: no standard-action or 1-round-action spell ({}) \
                 this turn",
                spell.name
            )
        },
    )
}

/// Whether `who` has a hand free beside the weapon `w` it attacks with: its intact hands less
/// the weapons it holds (only `w` while its hands are not tracked), a strapped shield's hand
/// (`shield::hands_taken`'s reading: every shield but the buckler, here tracked or not) and a
/// hand on the reins, and the second hand of a two-handed grip (`grip one` frees it). [CEL-R9
/// Spell Combat: "you must have one hand free"; R18, R21.4; seed, Attack, Melee]
pub fn hand_free(state: &State, who: CombatantId, w: &Weapon) -> bool {
    let f = state.f(who);
    // Tracked, `hands_busy` counts the strapped shield's hand already.
    let (held, shield) = if f.hands_tracked {
        (wield::hands_busy(state, who), 0)
    } else {
        let strapped_takes_hand =
            f.shield == ShieldAt::Strapped && state.p(who).shield.as_ref().is_some_and(|s| s.hand);
        (wield::hands_for(w), i32::from(strapped_takes_hand))
    };
    let reins = i32::from(f.riding.is_some() && f.knees != Some(true));
    let grip = super::grip::hand_taken(state, who);
    wield::hands(state, who) - held - shield - reins - grip >= 1
}

/// The melee form `form` of `who` if it can use it now.
fn weapon(state: &State, who: CombatantId, form: u8) -> Option<&Weapon> {
    state
        .melee_forms(who)
        .find(|(i, _)| *i == usize::from(form))
        .map(|(_, w)| w)
}

/// The spell `i` of the spellbook, if it is on the magus list; else the refusal. [CEL-R9, R11]
fn magus_spell<'s>(
    explain: bool,
    state: &'s State,
    i: u8,
    rule: &'static str,
) -> Result<&'s Spell, Illegal> {
    let Some(spell) = state.spellbook.get(usize::from(i)) else {
        return Err(Illegal {
            rule,
            reason: "no such spell".to_string(),
        });
    };
    if !spell.magus {
        no(explain, rule, || {
            format!(
                "{} is not on the magus spell list (`magus = true` in spells.toml)",
                spell.name
            )
        })?;
    }
    if spell.casting != Casting::Standard {
        no(explain, rule, || {
            format!(
                "{} has a casting time of {} ({} acts): the magus's actions cast a spell with a \
                 casting time of 1 standard action",
                spell.name,
                spell.casting.key(),
                spell.casting.acts()
            )
        })?;
    }
    Ok(spell)
}

/// Whether `who` may take Spell Combat or Spellstrike as `choice` says (acts aside).
/// [CEL-R9 Spell Combat, R11 Spellstrike]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    choice: &Choice,
) -> Result<(), Illegal> {
    let (f, p) = (state.f(who), state.p(who));
    match *choice {
        Choice::SpellCombat(foe, form, i, target, how) => {
            if !p.feats.spell_combat {
                return no(explain, "CEL-R9", || {
                    "it does not have the spell combat class feature (a magus's from level 1, or \
                     `feats = [\"spell combat\"]`)"
                        .to_string()
                });
            }
            if f.magus.spell_combat {
                return no(explain, "CEL-R9", || {
                    "Spell Combat is taken only once per turn".to_string()
                });
            }
            if f.magus.spell_cast {
                return no(explain, "CEL-R9", || {
                    "it cast a standard-action or 1-round-action spell this turn (Cast or \
                     Spellstrike): no Spell Combat in the same turn"
                        .to_string()
                });
            }
            if let Some(w) = weapon(state, who, form) {
                if w.kind != WeaponKind::Melee || w.hands == Hands::Two {
                    return no(explain, "CEL-R9", || {
                        format!(
                            "Spell Combat attacks with a light or one-handed melee weapon: the \
                             {} is not one",
                            w.name
                        )
                    });
                }
            }
            super::legal::check_deed(explain, state, who, &Choice::Attack(foe, form))?;
            if let Some(w) = weapon(state, who, form) {
                if !hand_free(state, who, w) {
                    return no(explain, "CEL-R9", || {
                        format!(
                            "Spell Combat needs one hand free beside the {} (another weapon, a \
                             strapped shield, the reins or a lost hand take it)",
                            w.name
                        )
                    });
                }
            }
            magus_spell(explain, state, i, "CEL-R9")?;
            let defensively = how != Defensively::No;
            super::legal::check_deed(explain, state, who, &Choice::Cast(i, target, defensively))
        }
        Choice::Spellstrike(foe, form, i, _) => {
            if !p.feats.spellstrike {
                return no(explain, "CEL-R11", || {
                    "it does not have the spellstrike class feature (a magus's from level 2, or \
                     `feats = [\"spellstrike\"]`)"
                        .to_string()
                });
            }
            if f.magus.spell_combat {
                return no(explain, "CEL-R9", || {
                    "it took Spell Combat this turn: no standard-action spell besides, and \
                     Spellstrike casts one"
                        .to_string()
                });
            }
            if let Some(w) = weapon(state, who, form) {
                if !wield::manufactured(w) || w.kind.is_ranged() {
                    return no(explain, "CEL-R11", || {
                        format!(
                            "Spellstrike delivers the spell with a melee weapon it wields: the \
                             {} is not one",
                            w.name
                        )
                    });
                }
            }
            super::legal::check_deed(explain, state, who, &Choice::Attack(foe, form))?;
            let spell = magus_spell(explain, state, i, "CEL-R11")?;
            if spell.range != Range::Touch {
                return no(explain, "CEL-R11", || {
                    format!(
                        "Spellstrike casts a spell with a range of touch: {} is not one",
                        spell.name
                    )
                });
            }
            spell::castable(explain, state, who, usize::from(i))
        }
        _ => Ok(()),
    }
}

/// The Spell Combat and Spellstrike options of `who` (only legal ones are kept by the caller).
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    let p = state.p(who);
    if !(p.feats.spell_combat || p.feats.spellstrike) || p.magic.spells.is_empty() {
        return;
    }
    let known: Vec<u8> = (0..state.spellbook.len().min(usize::from(u8::MAX)))
        .filter(|&i| {
            let s = &state.spellbook[i];
            s.magus && p.magic.spells.iter().any(|k| k.name == s.name)
        })
        .map(|i| i as u8)
        .collect();
    let present: Vec<CombatantId> = state.ids().filter(|&t| !state.f(t).absent()).collect();
    for &foe in present.iter().filter(|&&t| state.enemies(who, t)) {
        for (form, _) in state.melee_forms(who) {
            let form = form as u8;
            for &i in &known {
                let spell = &state.spellbook[usize::from(i)];
                if p.feats.spell_combat {
                    let aims: Vec<Option<CombatantId>> = match spell.range {
                        Range::Personal => vec![None],
                        _ => present.iter().map(|&t| Some(t)).collect(),
                    };
                    for aim in aims {
                        for how in Defensively::ALL {
                            out.push(Choice::SpellCombat(foe, form, i, aim, how));
                        }
                    }
                }
                if p.feats.spellstrike && spell.range == Range::Touch {
                    out.push(Choice::Spellstrike(foe, form, i, false));
                    out.push(Choice::Spellstrike(foe, form, i, true));
                }
            }
        }
    }
}

/// Reads `spell-combat FOE [FORM] SPELL [WHO] [defensively [int]]` and `spellstrike FOE [FORM]
/// SPELL [defensively]` (`kind` the first word, `rest` the others).
pub fn parse(
    kind: &str,
    rest: &[&str],
    who: impl Fn(&str) -> Result<CombatantId, Illegal>,
    spell_index: impl Fn(&str) -> Result<u8, Illegal>,
) -> Result<Choice, Illegal> {
    let grammar = || {
        crate::choice::unreadable(if kind == "spellstrike" {
            "spellstrike FOE [FORM] SPELL [defensively]".to_string()
        } else {
            "spell-combat FOE [FORM] SPELL [WHO] [defensively [int]]".to_string()
        })
    };
    let [foe, rest @ ..] = rest else {
        return Err(grammar());
    };
    let foe = who(foe)?;
    let (form, rest) = match rest {
        [n, more @ ..] if n.parse::<u8>().is_ok() => (n.parse::<u8>().unwrap_or(0), more),
        _ => (0, rest),
    };
    let [spell, rest @ ..] = rest else {
        return Err(grammar());
    };
    let i = spell_index(spell)?;
    let (how, rest) = match rest {
        [more @ .., "defensively", "int"] => (Defensively::TradingInt, more),
        [more @ .., "defensively"] => (Defensively::Yes, more),
        _ => (Defensively::No, rest),
    };
    if kind == "spellstrike" {
        return match (rest, how) {
            ([], Defensively::No | Defensively::Yes) => {
                Ok(Choice::Spellstrike(foe, form, i, how == Defensively::Yes))
            }
            _ => Err(grammar()),
        };
    }
    match rest {
        [] => Ok(Choice::SpellCombat(foe, form, i, None, how)),
        [aim] => Ok(Choice::SpellCombat(foe, form, i, Some(who(aim)?), how)),
        _ => Err(grammar()),
    }
}

/// The canonical text (`spell-combat orc-1 shocking-grasp orc-1 defensively int`,
/// `spellstrike orc-1 1 shocking-grasp`).
pub fn text(state: &State, choice: &Choice) -> String {
    let k = |id: CombatantId| state.roster.key(id).to_string();
    let spell = |i: u8| {
        state
            .spellbook
            .get(usize::from(i))
            .map_or("?".to_string(), |s| s.key())
    };
    let form = |n: u8| {
        if n == 0 {
            String::new()
        } else {
            format!(" {n}")
        }
    };
    match *choice {
        Choice::SpellCombat(foe, f, i, aim, how) => format!(
            "spell-combat {}{} {}{}{}",
            k(foe),
            form(f),
            spell(i),
            aim.map_or(String::new(), |t| format!(" {}", k(t))),
            how.words()
        ),
        Choice::Spellstrike(foe, f, i, defensively) => format!(
            "spellstrike {}{} {}{}",
            k(foe),
            form(f),
            spell(i),
            if defensively { " defensively" } else { "" }
        ),
        _ => String::new(),
    }
}

/// Takes Spell Combat or Spellstrike (its acts already paid). [CEL-R9, R11]
pub fn perform(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    choice: Choice,
) -> Result<(), Interrupt> {
    match choice {
        Choice::SpellCombat(foe, form, i, aim, how) => {
            spell_combat(state, table, who, (foe, form), (i, aim), how)
        }
        Choice::Spellstrike(foe, form, i, defensively) => {
            spellstrike(state, table, who, (foe, form), i, defensively)
        }
        _ => Ok(()),
    }
}

/// CEL-R9 Spell Combat: the action provokes at its start unless its spell is cast defensively;
/// the attack at −2 (and less the INT bonus traded); then the casting, whether or not the
/// attack hit: its slot, identification and counterspell, the concentration check when cast
/// defensively (+ the INT traded), and its effect as a cast spell's.
fn spell_combat(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    (foe, form): (CombatantId, u8),
    (i, aim): (u8, Option<CombatantId>),
    how: Defensively,
) -> Result<(), Interrupt> {
    let spell = state.spellbook[usize::from(i)].clone();
    {
        let m = &mut state.fm(who).magus;
        m.spell_combat = true;
        m.spell_cast = true;
    }
    let traded = if how == Defensively::TradingInt {
        int_bonus(state, who)
    } else {
        0
    };
    let weapon_name = weapon(state, who, form).map_or("?".to_string(), |w| w.name.clone());
    table.emit(|| Event::Acted {
        who,
        act: "takes spell combat against",
        on: Some(foe),
        detail: format!(
            "the {weapon_name} at -2{}, then {} (level {}){}",
            if traded > 0 {
                format!(" and -{traded} (its INT bonus, to the concentration check)")
            } else {
                String::new()
            },
            spell.name,
            spell.level,
            match how {
                Defensively::No => "",
                _ => ", defensively",
            }
        ),
        rule: "CEL-R9",
    });
    // The action's Provoke subtype: its attacks of opportunity come before it (CEL-R3.5); a
    // spell cast defensively takes the subtype away (CEL-A9).
    if how == Defensively::No && !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    state.fm(who).magus.attack_penalty = Some(traded);
    let swing = attack::attack(
        state,
        table,
        who,
        foe,
        attack::Form::Melee(usize::from(form)),
        None,
        "CEL-R9",
    );
    state.fm(who).magus.attack_penalty = None;
    swing?;
    if !state.up(who) {
        return Ok(());
    }
    let guard = (how != Defensively::No).then_some(traded);
    // The spell provokes no second time: the action's provocation came at its start.
    if !spell::begin_casting(state, table, who, &spell, guard, false)? {
        return Ok(());
    }
    table.emit(|| Event::Acted {
        who,
        act: if aim.is_some() {
            "casts in spell combat on"
        } else {
            "casts in spell combat"
        },
        on: aim,
        detail: format!(
            "{} (level {}){}",
            spell.name,
            spell.level,
            if guard.is_some() { ", defensively" } else { "" }
        ),
        rule: "CEL-R9",
    });
    let at = spell::CastAt::of(state, who);
    spell::resolve(state, table, who, usize::from(i), aim, at)
}

/// CEL-R3.9, R11: whether Spellstrike's weapon attack on `foe` can still be made once the
/// casting has begun: a foe's action readied for "if a foe casts a spell" (a step, a drag, a
/// reposition) may have taken `foe` out of the form's reach, as a readied action can make a
/// declared attack impossible (`ready::before_attack`).
fn still_reaches(state: &State, who: CombatantId, foe: CombatantId, form: u8) -> bool {
    super::legal::check_deed(false, state, who, &Choice::Attack(foe, form)).is_ok()
}

/// CEL-R11 Spellstrike: the casting begins (slot, identification and counterspell, cast
/// defensively or with its attacks of opportunity), then the weapon attack in place of the
/// touch attack: a hit deals the weapon's damage and the spell's effects, its caster level
/// raised by each full 10 the attack beat the DV by (CEL-R6.1); a miss spends the spell, and so
/// does an attack no longer possible after a readied action (CEL-R3.9; adopted reading).
fn spellstrike(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    (foe, form): (CombatantId, u8),
    i: u8,
    defensively: bool,
) -> Result<(), Interrupt> {
    let spell = state.spellbook[usize::from(i)].clone();
    note_cast(state, who, &spell);
    if !spell::begin_casting(state, table, who, &spell, defensively.then_some(0), true)? {
        return Ok(());
    }
    let weapon_name = weapon(state, who, form).map_or("?".to_string(), |w| w.name.clone());
    if !still_reaches(state, who, foe, form) {
        table.emit(|| Event::Forgone {
            who,
            what: "spell",
            on: Some(foe),
            reason: format!(
                "{} is spent: the {weapon_name} no longer reaches {} for its attack (the seed \
                 holds no charge)",
                spell.name,
                state.roster.key(foe)
            ),
            rule: "CEL-R3.9",
        });
        return Ok(());
    }
    table.emit(|| Event::Acted {
        who,
        act: "strikes with a spell against",
        on: Some(foe),
        detail: format!(
            "{} (level {}){}: the {weapon_name}'s attack instead of a touch attack",
            spell.name,
            spell.level,
            if defensively { ", defensively" } else { "" }
        ),
        rule: "CEL-R11",
    });
    let out = attack::attack(
        state,
        table,
        who,
        foe,
        attack::Form::Melee(usize::from(form)),
        None,
        "CEL-R11",
    )?;
    if out.result == AttackResult::Miss {
        table.emit(|| Event::Forgone {
            who,
            what: "spell",
            on: Some(foe),
            reason: format!(
                "{} is spent: the attack missed (the seed holds no charge)",
                spell.name
            ),
            rule: "CEL-R11",
        });
        return Ok(());
    }
    if state.f(foe).absent() {
        return Ok(());
    }
    let at = spell::CastAt::of(state, who);
    spell::affect(state, table, who, &spell, foe, at, Some(out.against))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::Fixture;

    const MAGUS: &str = "class = \"magus\"\nlevel = 2\nhp = 20\nscores = { int = 16 }\n\
                         weapon = \"longsword\"\nspells = [\"shocking grasp\", \"scorching ray\", \
                         \"quick flame\"]\ncaster_level = 2\nspell_dc = 14";

    fn duel(entry: &str) -> State {
        Fixture::new()
            .with("mag", "heroes", [0, 0], entry)
            .monster("orc", "orcs", [1, 0], "orc")
            .state()
    }

    fn legal(s: &State, c: Choice) -> Result<(), Illegal> {
        check(true, s, CombatantId(0), &c)
    }

    /// The magus class gives spell combat from level 1 and spellstrike from level 2; a
    /// fighter has neither, and each action is refused naming its rule.
    #[test]
    fn the_class_features_come_by_level() {
        let s = duel(MAGUS);
        let (mag, orc) = (CombatantId(0), CombatantId(1));
        assert!(s.p(mag).feats.spell_combat && s.p(mag).feats.spellstrike);
        let s1 = duel(&MAGUS.replace("level = 2", "level = 1"));
        assert!(s1.p(mag).feats.spell_combat && !s1.p(mag).feats.spellstrike);
        let strike = Choice::Spellstrike(orc, 0, 0, false);
        assert_eq!(legal(&s1, strike).unwrap_err().rule, "CEL-R11");
        assert!(legal(&s, strike).is_ok());
        let fighter = duel(&MAGUS.replace("magus", "fighter"));
        let combat = Choice::SpellCombat(orc, 0, 0, Some(orc), Defensively::No);
        assert_eq!(legal(&fighter, combat).unwrap_err().rule, "CEL-R9");
        assert!(legal(&s, combat).is_ok());
    }

    /// Once per turn; a standard spell after it is refused, and it after one; Spellstrike and
    /// Spell Combat bar each other; a swift spell stays allowed.
    #[test]
    fn spell_combat_bars_and_is_barred() {
        let mut s = duel(MAGUS);
        let (mag, orc) = (CombatantId(0), CombatantId(1));
        let combat = Choice::SpellCombat(orc, 0, 0, Some(orc), Defensively::Yes);
        s.fm(mag).magus.spell_combat = true;
        assert!(legal(&s, combat)
            .unwrap_err()
            .reason
            .contains("once per turn"));
        assert!(legal(&s, Choice::Spellstrike(orc, 0, 0, false)).is_err());
        let cast = |s: &State, i| spell::check(true, s, mag, &Choice::Cast(i, Some(orc), false));
        assert_eq!(cast(&s, 1).unwrap_err().rule, "CEL-R9");
        assert!(cast(&s, 2).is_ok(), "a swift spell is not barred");
        let mut s = duel(MAGUS);
        s.fm(mag).magus.spell_cast = true;
        assert!(legal(&s, combat).unwrap_err().reason.contains("this turn"));
    }

    /// Spell Combat needs a light or one-handed weapon and a free hand; a strapped shield takes
    /// the hand; the spell must be on the magus list with a standard casting time; Spellstrike
    /// needs a touch spell.
    #[test]
    fn weapons_hands_and_spells() {
        let (mag, orc) = (CombatantId(0), CombatantId(1));
        let combat = |i| Choice::SpellCombat(orc, 0, i, Some(orc), Defensively::No);
        let s = duel(&MAGUS.replace("longsword", "greatsword"));
        assert!(legal(&s, combat(0))
            .unwrap_err()
            .reason
            .contains("light or one-handed"));
        let s = duel(&format!("{MAGUS}\nshield = \"light shield\""));
        assert!(s.f(mag).shield_dv > 0);
        assert!(legal(&s, combat(0))
            .unwrap_err()
            .reason
            .contains("one hand free"));
        let s = duel(MAGUS);
        assert!(legal(&s, combat(2))
            .unwrap_err()
            .reason
            .contains("magus spell list"));
        let strike = Choice::Spellstrike(orc, 0, 1, false);
        assert!(legal(&s, strike)
            .unwrap_err()
            .reason
            .contains("range of touch"));
        assert!(
            legal(&s, combat(1)).is_ok(),
            "scorching ray by spell combat"
        );
    }

    /// CEL-R3.9, R11: once the casting has begun, Spellstrike's attack is made only while the
    /// weapon still reaches the foe (a readied step or drag may have moved it).
    #[test]
    fn spellstrike_attack_needs_the_foe_still_in_reach() {
        let mut s = duel(MAGUS);
        let (mag, orc) = (CombatantId(0), CombatantId(1));
        assert!(still_reaches(&s, mag, orc, 0));
        s.set_square(orc, fray_core::Pos::new(2, 0));
        assert!(
            !still_reaches(&s, mag, orc, 0),
            "10 ft off: no longsword attack"
        );
        s.set_square(orc, fray_core::Pos::new(1, 1));
        assert!(
            still_reaches(&s, mag, orc, 0),
            "diagonally next to it again"
        );
    }

    /// Every option offered is read back from its text, and the text reads as the choice.
    #[test]
    fn options_round_trip_through_their_text() {
        let s = duel(MAGUS);
        let mut out = Vec::new();
        options(&s, CombatantId(0), &mut out);
        assert!(out.len() > 10);
        for c in out {
            let text = crate::choice::text(&s, &c);
            assert_eq!(crate::choice::parse(&s, &text).ok(), Some(c), "{text}");
        }
        let c = crate::choice::parse(&s, "spell-combat orc shocking-grasp orc defensively int");
        assert_eq!(
            c.ok(),
            Some(Choice::SpellCombat(
                CombatantId(1),
                0,
                0,
                Some(CombatantId(1)),
                Defensively::TradingInt
            ))
        );
        assert!(
            crate::choice::parse(&s, "spellstrike orc shocking-grasp defensively int").is_err()
        );
        assert!(crate::choice::parse(&s, "spell-combat").is_err());
    }
}
