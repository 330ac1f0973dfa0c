//! A spell's guided weapon (Pathfinder's spiritual weapon; `weapon` in spells.toml) and Direct
//! or Redirect a Spell (CEL-R9, simple, no provocation: "If a spell allows you to redirect an
//! effect to a new target, you take this action to do so"): `redirect WHO`.
//!
//! Adopted readings (the seed names the action only; the numbers are Pathfinder's): the weapon
//! attacks the creature the spell was cast at once as the spell takes effect, then once at the
//! start of each later turn of its caster in which the caster can act (a caster that cannot
//! act is not directing it: it hovers), before the caster's acts. Its attack roll is d20 +
//! the caster's BAB + the spell's `weapon_ability` modifier against DV, with the advantage
//! table's rows about the target only (the weapon is not a creature: the caster's own
//! conditions are not the weapon's); it scores degrees of success and criticals (threat 20,
//! ×2, or those of the weapon its `weapon_shape` names) as a weapon does (CEL-R5.5, R5.6), and
//! deals its dice + 1 per `weapon_per_levels` caster
//! levels (at most `max_bonus`). It attacks only while its target is within the spell's range
//! and in the caster's line of effect; a redirect takes effect at the weapon's next attack.
//! The weapon is no creature: it occupies no square, cannot be attacked, flanks nothing,
//! provokes nothing and takes no attacks of opportunity. It ends when its rounds are over (at
//! the start of its caster's turn, CEL-A39), when its caster dismisses it (CEL-R9) or casts
//! another (one weapon per caster), or dies (logged); spell resistance is tried the first time it
//! attacks each target it is aimed at (a resisted weapon ends).

use super::crit_deck::Critical;
use super::spell_lasting::Lasts;
use super::{attack, injury, Mods, Sources};
use crate::choice::Choice;
use crate::spell::{Spell, SpellWeapon};
use crate::state::State;
use crate::Celesia;
use fray_core::event::{AttackResult, Event};
use fray_core::protocol::{refuse as no, Illegal, Interrupt, RollPurpose};
use fray_core::{CombatantId, Table};

/// The rule of Direct or Redirect a Spell.
pub const RULE: &str = "CEL-R9";

/// A caster's guided spell weapon. [CEL-R9 Direct or Redirect a Spell]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Guided {
    /// The spell's place in `State::spellbook`.
    pub spell: u8,
    /// The creature it attacks.
    pub target: CombatantId,
    /// The round at whose start of the caster's turn it ends (CEL-A39).
    pub until: u32,
    /// The caster level it was cast at (the damage bonus).
    pub caster_level: i32,
    /// The casting: the round and the caster's act clock (its `spell_lasting` record).
    pub cast: (u32, u32),
    /// Spell resistance has been tried against the present target.
    pub tried: bool,
}

/// The caster's weapon, while it lasts (a dead caster's is gone).
pub fn of(state: &State, caster: CombatantId) -> Option<Guided> {
    let f = state.f(caster);
    f.spell_weapon.filter(|_| !f.dead)
}

/// The weapon data of the spell at `ix`.
fn weapon_of(spell: &Spell) -> Option<SpellWeapon> {
    spell.weapon
}

/// The spell takes effect: its weapon appears aimed at `t` (a weapon of the caster's earlier
/// casting vanishes) and attacks at once. [CEL-R9; Pathfinder: "starting with one attack in the
/// round the spell is cast"]
pub fn summon(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    caster: CombatantId,
    ix: usize,
    t: CombatantId,
    caster_level: i32,
) -> Result<(), Interrupt> {
    let spell = state.spellbook[ix].clone();
    if of(state, caster).is_some() {
        end(
            state,
            table,
            caster,
            "its caster cast another (one weapon a caster)",
        );
    }
    let (rounds, until) = super::spell::lasting(state, &spell, caster_level, false);
    let guided = Guided {
        spell: ix.min(usize::from(u8::MAX)) as u8,
        target: t,
        until,
        caster_level,
        cast: (state.round, state.f(caster).act_clock),
        tried: false,
    };
    state.fm(caster).spell_weapon = Some(guided);
    super::spell_lasting::record(state, caster, &spell, t, Lasts::Weapon);
    table.emit(|| Event::Acted {
        who: caster,
        act: "aims its spell's weapon at",
        on: Some(t),
        detail: format!(
            "{}: {}",
            spell.name,
            super::spell::how_long(&spell, rounds, until)
        ),
        rule: RULE,
    });
    strike(state, table, caster)
}

/// The weapon's rounds are over at the start of its caster's turn in its last round. [CEL-A39]
pub fn expire(state: &mut State, table: &mut Table<'_, Celesia>, caster: CombatantId) {
    if of(state, caster).is_some_and(|g| state.round >= g.until) {
        end(state, table, caster, "its duration is over");
    }
}

/// The weapon vanishes (logged with `why`).
pub fn end(state: &mut State, table: &mut Table<'_, Celesia>, caster: CombatantId, why: &str) {
    let Some(g) = state.fm(caster).spell_weapon.take() else {
        return;
    };
    let name = state.spellbook[usize::from(g.spell)].name.clone();
    state
        .fm(caster)
        .lasting
        .retain(|l| l.effect != Lasts::Weapon);
    table.emit(|| Event::Acted {
        who: caster,
        act: "loses its spell's weapon",
        on: None,
        detail: format!("{name}: {why}"),
        rule: RULE,
    });
}

/// Its caster is dead: the weapon vanishes, logged (`end`; nothing when it has none). Called
/// where a combatant dies (`injury::settle`, `con_loss::settle`, a coup de grace). [CEL-R9]
pub fn caster_dead(state: &mut State, table: &mut Table<'_, Celesia>, caster: CombatantId) {
    if state.f(caster).spell_weapon.is_some() {
        end(state, table, caster, "its caster is dead");
    }
}

/// Whether `t` is a target the weapon of `spell` may attack: not its caster, present, in the
/// caster's line of effect and within the spell's range. [CEL-R9, R6.2]
fn within(
    explain: bool,
    state: &State,
    caster: CombatantId,
    t: CombatantId,
    spell: &Spell,
) -> Result<(), Illegal> {
    if t == caster {
        return no(explain, RULE, || {
            format!(
                "the weapon of {} does not attack its own caster",
                spell.name
            )
        });
    }
    super::spell::in_range(explain, state, caster, t, spell, spell.range).map_err(|e| Illegal {
        rule: RULE,
        reason: e.reason,
    })
}

/// The weapon's attack of the round, at the start of its caster's turn (when it can act) and as
/// the spell takes effect. [CEL-R9, R4, R5]
#[inline]
pub fn strike(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    caster: CombatantId,
) -> Result<(), Interrupt> {
    // At every turn's start: this test inline in the caller, the rest out of line (issue 16).
    if state.f(caster).spell_weapon.is_none() {
        return Ok(());
    }
    weapon_strike(state, table, caster)
}

/// [`strike`], for a caster with a spell's weapon.
#[inline(never)]
fn weapon_strike(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    caster: CombatantId,
) -> Result<(), Interrupt> {
    let Some(g) = of(state, caster) else {
        return Ok(());
    };
    let spell = state.spellbook[usize::from(g.spell)].clone();
    let Some(w) = weapon_of(&spell) else {
        return Ok(());
    };
    let t = g.target;
    if let Err(why) = within(true, state, caster, t, &spell) {
        table.emit(|| Event::Forgone {
            who: caster,
            what: "attack",
            on: Some(t),
            reason: format!("{}: its weapon hovers: {}", spell.name, why.reason),
            rule: RULE,
        });
        return Ok(());
    }
    if !g.tried {
        if let Some(g) = state.fm(caster).spell_weapon.as_mut() {
            g.tried = true;
        }
        let through =
            super::spell_resistance::overcome(state, table, caster, t, &spell, g.caster_level)?;
        if !through {
            end(state, table, caster, "spell resistance stops it");
            return Ok(());
        }
    }
    // CEL-A34: an attack roll on a confused creature (it attacks back, at the caster).
    super::confusion::attacked(state, caster, t);
    let mut bonus = Mods::default();
    bonus.push("BAB", "CEL-R4.3", state.p(caster).bab);
    let ability = ["STR", "DEX", "CON", "INT", "WIS", "CHA"][w.ability as usize];
    bonus.push(ability, RULE, state.m(caster, w.ability as usize));
    let (adv, dis) = target_sources(state, t);
    let net = adv.count() - dis.count();
    let (die, pool) = attack::roll_d20(table, caster, net, RollPurpose::Attack, "CEL-R4.5")?;
    let total = die as i32 + bonus.total();
    let mut dv_mods = Mods::default();
    attack::defense_into(state, t, &mut dv_mods);
    let dv = 10 + dv_mods.total();
    // A natural 20 always hits, a natural 1 always misses (CEL-A3); the threat range is its
    // shape's, else 20 (CEL-R5.6).
    let hit = die == 20 || (die != 1 && total >= dv);
    let mut critical = hit && die >= w.threat && !state.p(t).immune_crit;
    let mut confirmation = None;
    if critical && state.options.crit_confirmation {
        let (confirmed, text) = attack::confirm_critical(table, caster, net, bonus.total(), dv)?;
        critical = confirmed;
        confirmation = Some(text);
    }
    let result = match (hit, critical) {
        (_, true) => AttackResult::Critical,
        (true, false) => AttackResult::Hit,
        _ => AttackResult::Miss,
    };
    table.emit(|| {
        let mut name = format!("{} (spell weapon)", spell.name);
        super::name_sources(&mut name, &adv, &dis, pool.as_deref());
        if let Some(text) = &confirmation {
            name.push_str(text);
        }
        Event::Attack {
            attacker: caster,
            target: t,
            attack: name,
            roll: die,
            modifiers: bonus.to_vec(),
            total,
            defense: "DV",
            versus: dv,
            defense_modifiers: dv_mods.to_vec(),
            result,
            rule: RULE,
        }
    });
    if !hit {
        return Ok(());
    }
    let critical = super::crit_deck::draw(state, table, caster, t, critical)?;
    let extra = attack::degrees(total, dv);
    if extra > 0 {
        table.emit(|| Event::Acted {
            who: caster,
            act: "scores degrees of success against",
            on: Some(t),
            detail: format!(
                "{} over the DV: {extra} extra {} {} (its weapon's, CEL-R9)",
                total - dv,
                spell.name,
                if extra == 1 { "die" } else { "dice" }
            ),
            rule: "CEL-R5.5",
        });
    }
    damage(
        state,
        table,
        (caster, t),
        (w, g.caster_level),
        critical,
        extra,
    )
}

/// The advantage table's rows about the target (CEL-R4.5): the weapon strikes in melee, so
/// the melee rows apply; the attacker's rows (its conditions, charging, fighting defensively,
/// flanking, invisibility) are the caster's, not the weapon's.
fn target_sources(state: &State, t: CombatantId) -> (Sources, Sources) {
    let (mut adv, dis) = (Sources::default(), Sources::default());
    let ft = state.f(t);
    if ft.charged {
        adv.add("target charged");
    }
    if ft.cleaving {
        adv.add("target cleaved");
    }
    if ft.injuries.blind() || ft.has_trick(crate::state::Trick::Blinded) {
        adv.add("blind target");
    }
    if state.helpless(t) {
        adv.add("helpless target");
    }
    if ft.prone {
        adv.add("prone target");
    }
    if ft.injuries.arm_hurt() {
        adv.add("arm-injured target");
    }
    if state.pinned(t) {
        adv.add("pinned target");
    }
    // Cowering, stunned (rows 5, 11).
    super::table_condition::target_advantage(ft, &mut adv);
    (adv, dis)
}

/// The weapon's damage: its dice once plus once per degree of success, or on a critical their
/// maximum × 2 with the degree dice rolled (the Critical Hit Deck's normal damage: all
/// maximized), + its caster-level bonus; at least the GM's minimum. [CEL-R5.5, R5.6, G6]
fn damage(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    (caster, t): (CombatantId, CombatantId),
    (w, caster_level): (SpellWeapon, i32),
    critical: Critical,
    extra: i32,
) -> Result<(), Interrupt> {
    let mut m = Mods::default();
    let rolled = attack::weapon_dice(
        table,
        caster,
        (w.dice.count, w.dice.sides),
        (w.multiplier, 0),
        (critical, extra),
        &mut m,
    )?;
    m.push("spell weapon", "", w.dice.bonus);
    m.push("caster level", RULE, w.bonus(caster_level));
    let amount = (rolled + m.total()).max(state.options.minimum_damage);
    injury::take_damage(
        state,
        table,
        t,
        Some(caster),
        injury::Blow {
            roll: rolled,
            mods: &m,
            amount,
            nonlethal: false,
            coup_de_grace: false,
        },
        RULE,
    )?;
    Ok(())
}

/// Redirect options: every other creature present while the caster has a weapon (only legal
/// ones are kept by the caller).
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    let Some(g) = of(state, who) else {
        return;
    };
    out.extend(
        state
            .ids()
            .filter(|&t| t != who && t != g.target && !state.f(t).absent())
            .map(Choice::Redirect),
    );
}

/// Whether `who` may point its weapon at `t`: it has one, `t` is another target, within the
/// spell's range and in line of effect. [CEL-R9]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    t: CombatantId,
) -> Result<(), Illegal> {
    let Some(g) = of(state, who) else {
        return no(explain, RULE, || {
            "it has no spell effect it can redirect (Direct or Redirect a Spell: \"If a spell \
             allows you to redirect an effect to a new target\"; in fray, the weapon of a spell \
             such as spiritual weapon)"
                .to_string()
        });
    };
    let spell = &state.spellbook[usize::from(g.spell)];
    if g.target == t {
        return no(explain, RULE, || {
            format!(
                "the weapon of {} already attacks {}: redirect it to a new target",
                spell.name,
                state.roster.key(t)
            )
        });
    }
    within(explain, state, who, t, spell)
}

/// Points the weapon at `t`: it attacks there from its next attack. [CEL-R9]
pub fn redirect(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    t: CombatantId,
) {
    let Some(g) = state.fm(who).spell_weapon.as_mut() else {
        return;
    };
    g.target = t;
    g.tried = false;
    let ix = usize::from(g.spell);
    let name = state.spellbook[ix].name.clone();
    for l in state.fm(who).lasting.iter_mut() {
        if l.effect == Lasts::Weapon {
            l.target = t;
        }
    }
    table.emit(|| Event::Acted {
        who,
        act: "redirects its spell's weapon to",
        on: Some(t),
        detail: format!("{name}: it attacks there from the start of the caster's next turn"),
        rule: RULE,
    });
}

/// Default tactics: a weapon whose target is down, gone, out of range or out of sight is
/// pointed at the nearest foe that is up and may be attacked. [CEL-R9]
#[inline(always)]
pub fn tactic(state: &State, who: CombatantId) -> Option<Choice> {
    // At every decision: this test inline in the caller, the rest out of line (issue 16).
    state.f(who).spell_weapon?;
    redirect_tactic(state, who)
}

/// [`tactic`], for a caster with a spell's weapon.
#[inline(never)]
fn redirect_tactic(state: &State, who: CombatantId) -> Option<Choice> {
    let g = of(state, who)?;
    let spell = &state.spellbook[usize::from(g.spell)];
    if state.up(g.target) && within(false, state, who, g.target, spell).is_ok() {
        return None;
    }
    state
        .ids()
        .filter(|&o| state.enemies(o, who) && state.up(o))
        .filter(|&o| check(false, state, who, o).is_ok())
        .min_by_key(|&o| (state.feet_between(who, o), o.index()))
        .map(Choice::Redirect)
        .filter(|c| super::legal::check_action(false, state, who, c).is_ok())
}

/// Default tactics: a caster with a weapon spell, none of its weapons out and no foe up within
/// its reach (no blow to make this turn) casts it at the nearest foe up it may aim at: a
/// weapon's rounds of attacks are worth the casting's 2 acts when no blow is lost for them.
/// [CEL-R9, R11]
#[inline(always)]
pub fn cast_tactic(state: &State, who: CombatantId) -> Option<Choice> {
    // At every decision: this test inline in the caller, the rest out of line (issue 16).
    if state.p(who).magic.spells.is_empty() {
        return None;
    }
    weapon_cast_tactic(state, who)
}

/// [`cast_tactic`], for a caster.
#[inline(never)]
fn weapon_cast_tactic(state: &State, who: CombatantId) -> Option<Choice> {
    if state.p(who).magic.spells.is_empty() || of(state, who).is_some() {
        return None;
    }
    let mut blow = false;
    state.each_foe_within(who, state.reach_squares, |t| blow |= state.up(t));
    if blow {
        return None;
    }
    let ix = (0..state.spellbook.len().min(usize::from(u8::MAX)))
        .find(|&i| state.spellbook[i].weapon.is_some() && super::spell::known(state, who, i))?;
    state
        .ids()
        .filter(|&o| state.enemies(o, who) && state.up(o))
        .map(|o| Choice::Cast(ix as u8, Some(o), false))
        .filter(|c| super::legal::check_action(false, state, who, c).is_ok())
        .min_by_key(|c| match *c {
            Choice::Cast(_, Some(o), _) => (state.feet_between(who, o), o.index()),
            _ => (i32::MAX, usize::MAX),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::fixture::Fixture;
    use fray_core::catalog::ContentSet;

    const VELA: CombatantId = CombatantId(0);
    const GRUB: CombatantId = CombatantId(1);
    const SNAG: CombatantId = CombatantId(2);

    /// Vela (cleric 3, WIS 16, spiritual weapon) at (0, 0); Grub at (4, 0), Snag at (4, 3).
    fn fight() -> State {
        Fixture::new()
            .with(
                "vela",
                "clerics",
                [0, 0],
                "class = \"cleric\"\nlevel = 3\nhp = 30\nscores = { wis = 16 }\nspells = \
                 [\"spiritual weapon\"]\ncaster_level = 3\nspell_dc = 13",
            )
            .with(
                "grub",
                "orcs",
                [4, 0],
                "class = \"fighter\"\nlevel = 1\nhp = 8",
            )
            .with(
                "snag",
                "orcs",
                [4, 3],
                "class = \"fighter\"\nlevel = 1\nhp = 30",
            )
            .state()
    }

    /// Vela's weapon aimed at `t`, as `summon` leaves it.
    fn armed(s: &mut State, t: CombatantId) {
        let ix = s
            .spellbook
            .iter()
            .position(|sp| sp.weapon.is_some())
            .expect("a weapon spell");
        s.fm(VELA).spell_weapon = Some(Guided {
            spell: ix as u8,
            target: t,
            until: 4,
            caster_level: 3,
            cast: (1, 0),
            tried: true,
        });
    }

    /// The sample's numbers are Pathfinder's: 1d8, BAB + WIS, +1 per 3 levels up to +5.
    #[test]
    fn spiritual_weapon_is_effect_data() {
        let c = Content::embedded().unwrap_or_else(|e| panic!("{e}"));
        let spell = c.spells.get("spiritual weapon").expect("spiritual weapon");
        let w = spell.weapon.expect("a weapon");
        assert_eq!((w.dice.count, w.dice.sides, w.dice.bonus), (1, 8, 0));
        assert_eq!(w.ability, crate::spell::Drained::Wisdom);
        assert_eq!(
            [1, 2, 3, 5, 6, 14, 15, 20].map(|cl| w.bonus(cl)),
            [0, 0, 1, 1, 2, 4, 5, 5]
        );
        assert!(spell.dismissible && spell.damage.is_none() && spell.attack.is_none());
        assert_eq!(spell.rounds_per_level, 1);
    }

    /// Bad weapon data is refused with its file, line and field.
    #[test]
    fn bad_weapon_data_is_refused() {
        let base = "[[spell]]\nname = \"zap\"\nlevel = 1\ncasting = \"standard\"\n\
                    spell_resistance = false\nrounds_per_level = 1\n";
        for (extra, field) in [
            (
                "range = \"touch\"\nweapon = \"1d8\"\nweapon_ability = \"wis\"\n",
                "spell[0].range",
            ),
            (
                "range = \"ranged\"\nrange_ft = 30\nweapon = \"1d8\"\n",
                "spell[0].weapon_ability",
            ),
            (
                "range = \"ranged\"\nrange_ft = 30\nweapon = \"lots\"\nweapon_ability = \"wis\"\n",
                "spell[0].weapon",
            ),
            (
                "range = \"ranged\"\nrange_ft = 30\nweapon = \"1d8\"\nweapon_ability = \"wis\"\n\
                 attack = \"ranged touch\"\n",
                "spell[0].attack",
            ),
            (
                "range = \"ranged\"\nrange_ft = 30\ndamage = \"1d8\"\nweapon_per_levels = 3\n",
                "spell[0].weapon_per_levels",
            ),
        ] {
            let text = format!("{base}{extra}");
            let err = Content::load(&[("s.toml", text.as_str())])
                .map(|_| ())
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("s.toml:") && err.contains(field),
                "{field}: {err}"
            );
        }
    }

    /// A weapon whose target is down is pointed at the nearest foe up; one on a foe up is left.
    #[test]
    fn tactics_redirect_a_weapon_whose_target_is_down() {
        let mut s = fight();
        s.fm(VELA).acts_left = 3;
        armed(&mut s, GRUB);
        assert_eq!(tactic(&s, VELA), None, "Grub is up");
        s.fm(GRUB).hp = -15;
        assert!(!s.up(GRUB));
        // Snag at (4, 3) is behind nothing here: the nearest foe up.
        assert_eq!(tactic(&s, VELA), Some(Choice::Redirect(SNAG)));
        s.fm(SNAG).hp = -15;
        assert_eq!(tactic(&s, VELA), None, "no foe up to point it at");
    }

    /// The redirect's refusals and a dead caster's weapon (gone: nothing to redirect).
    #[test]
    fn redirect_needs_a_weapon_and_a_new_target() {
        let mut s = fight();
        assert_eq!(check(true, &s, VELA, SNAG).unwrap_err().rule, RULE);
        armed(&mut s, GRUB);
        assert!(check(true, &s, VELA, SNAG).is_ok());
        let same = check(true, &s, VELA, GRUB).unwrap_err();
        assert!(same.reason.contains("already attacks"), "{}", same.reason);
        let own = check(true, &s, VELA, VELA).unwrap_err();
        assert!(own.reason.contains("own caster"), "{}", own.reason);
        let mut offered = Vec::new();
        options(&s, VELA, &mut offered);
        assert_eq!(offered, vec![Choice::Redirect(SNAG)]);
        s.fm(VELA).dead = true;
        assert_eq!(of(&s, VELA), None);
        assert!(check(true, &s, VELA, SNAG).is_err());
    }

    /// Only the target's rows of the advantage table: a prone, helpless target gives two; the
    /// caster's own conditions give none.
    #[test]
    fn the_weapons_attack_takes_only_the_targets_rows() {
        let mut s = fight();
        s.fm(VELA).prone = true;
        s.fm(VELA).defensive_attacks = true;
        let (adv, dis) = target_sources(&s, GRUB);
        assert_eq!((adv.count(), dis.count()), (0, 0));
        s.fm(GRUB).prone = true;
        s.fm(GRUB).hp = -15;
        let (adv, _) = target_sources(&s, GRUB);
        assert_eq!(adv.text(), "helpless target, prone target");
    }
}
