//! Injury and death: where damage goes (lethal, nonlethal and its overflow, CEL-R20), the
//! victim's crippling-injury choice (CEL-R18), massive damage (CEL-R19), the hit-point bands
//! (disabled, dying, dead: CEL-R17), the stabilization save, bleeding and a disabled creature's
//! strain.

use super::{legal, Mods};
use crate::choice::Choice;
use crate::state::{Asking, Band, Injury, State};
use crate::Celesia;
use fray_core::event::{Event, Modifier, Subject};
use fray_core::protocol::{Interrupt, RollPurpose, RollRequest};
use fray_core::{CombatantId, Table};

/// One blow's damage before it is applied. Its modifiers are lent, not moved: a [`Mods`] is
/// nearly 500 bytes, copied at every hit when it was moved in (issue 16).
#[derive(Debug, Clone, Copy)]
pub struct Blow<'a> {
    /// Dice rolled.
    pub roll: i32,
    /// What was added.
    pub mods: &'a Mods,
    /// The damage.
    pub amount: i32,
    /// Nonlethal.
    pub nonlethal: bool,
    /// A coup de grace's blow (CEL-R12), whose nonlethal damage turns lethal only past twice
    /// the maximum hit points where the GM says so (CEL-A8).
    pub coup_de_grace: bool,
}

/// The massive-damage Fortitude DC: 15 + half the damage above 50. [CEL-R19.2]
pub fn massive_dc(damage: i32) -> i32 {
    15 + (damage - 50) / 2
}

/// Whether one attack's damage is massive: at least 50 and at least half the maximum hit
/// points. [CEL-R19.1]
pub fn is_massive(damage: i32, max_hp: i32) -> bool {
    damage >= 50 && 2 * damage >= max_hp
}

/// The penalty to the stabilization save: half the negative hit points, rounded down. [CEL-R17.6]
pub fn stabilization_penalty(hp: i32) -> i32 {
    if hp < 0 {
        -((-hp) / 2)
    } else {
        0
    }
}

/// The random injury row of massive damage: d20 + damage / 5, at most 20. [CEL-R18.5, A22]
pub fn random_injury_roll(d20: i32, damage: i32) -> i32 {
    (d20 + damage / 5).min(20)
}

/// Applies a blow to `target` (from `source`, if any); returns the damage dealt (after any
/// injury negated some). [CEL-R17–R20]
pub fn take_damage(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    target: CombatantId,
    source: Option<CombatantId>,
    blow: Blow<'_>,
    rule: &'static str,
) -> Result<i32, Interrupt> {
    let before = (
        state.band(target),
        state.knocked_out(target),
        state.staggered(target),
    );
    let max_hp = state.p(target).max_hp;
    // Nonlethal damage past the maximum hit points is lethal (CEL-R20.4); a nonlethal coup de
    // grace's, past twice them where the GM says so (CEL-A8 toggle).
    let lethal_past = if blow.coup_de_grace && state.options.nonlethal_coup_twice_max_hp {
        2 * max_hp
    } else {
        max_hp
    };
    let (mut lethal, nonlethal) = if blow.nonlethal {
        let (nl, lethal) =
            crate::state::nonlethal_split(blow.amount, state.f(target).nonlethal, lethal_past);
        (lethal, nl)
    } else {
        (blow.amount, 0)
    };
    // CEL-R16.5: temporary hit points are lost first (the parent game's reading: the seed
    // gives Martial Power's "temporary hit points" no other use).
    let absorbed = lethal.min(state.f(target).temp_hp).max(0);
    lethal -= absorbed;
    state.fm(target).temp_hp -= absorbed;
    let original = lethal;
    let mut negated = 0;
    // CEL-R18.1–R18.4: an injury instead of damage that would bring it to 0 or below.
    let (f, p) = (state.f(target), state.p(target));
    if lethal > 0
        && f.hp - lethal <= 0
        && state.options.crippling_injuries
        && !p.immune_crit
        && i32::from(f.injuries.count) < state.score(target, crate::state::CON)
        && !f.dead
        && Injury::ALL.iter().any(|i| f.injuries.available(*i))
    {
        let choice = legal::ask(
            state,
            table,
            Asking::Injury {
                who: target,
                damage: lethal,
            },
            "CEL-R18.1",
        )?;
        if let Choice::Injury(injury) = choice {
            negated = lethal.min(injury.negates());
            lethal -= negated;
            gain_injury(state, table, target, injury, 0, "CEL-R18.1");
        }
    }
    let f = state.fm(target);
    f.hp -= lethal;
    f.nonlethal += nonlethal;
    f.taken += lethal + nonlethal;
    if lethal > 0 {
        f.stable = false;
    }
    let hp = f.hp;
    if let Some(s) = source {
        if state.enemies(s, target) {
            state.fm(s).dealt += lethal + nonlethal;
        }
    }
    table.emit(|| {
        let mut modifiers = blow.mods.to_vec();
        if absorbed > 0 {
            modifiers.push(Modifier::new(
                "temporary hit points",
                "CEL-R16.5",
                -absorbed,
            ));
        }
        if negated > 0 {
            modifiers.push(Modifier::new("crippling injury", "CEL-R18.1", -negated));
        }
        Event::Damage {
            target,
            roll: blow.roll,
            modifiers,
            normal: lethal,
            subdual: nonlethal,
            hp,
            rule,
        }
    });
    // CEL-R19: massive damage, judged on the damage before an injury negated any (CEL-A24).
    let judged = if state.options.massive_before_negation {
        original
    } else {
        lethal
    };
    if !state.p(target).immune_crit
        && is_massive(judged, max_hp)
        && state.band(target) != Band::Dead
    {
        massive_damage(state, table, target, judged)?;
    }
    settle(state, table, target, before);
    Ok(lethal + nonlethal)
}

/// The most rows of the crippling injuries table massive damage rolls before it gives up: a
/// row that can no longer be taken is rolled again (CEL-A22), a bounded number of times.
const MASSIVE_REROLLS: u32 = 20;

/// The massive-damage save and, survived, a random injury. [CEL-R19.2, R19.3, A41]
fn massive_damage(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    target: CombatantId,
    damage: i32,
) -> Result<(), Interrupt> {
    let dc = massive_dc(damage);
    let saved = super::D20Check {
        purpose: "massive damage",
        modifier: "Fort",
        bonus: state.fort(target),
        dc,
        kind: super::CheckKind::Save,
        results: ("survives", "dies"),
        rule: "CEL-R19.2",
    }
    .roll(state, table, target)?;
    if !saved {
        state.fm(target).dead = true;
        return Ok(());
    }
    // Reroll clauses (CEL-A22): a row that can no longer be taken is rolled again, a bounded
    // number of times; then no injury.
    for _ in 0..MASSIVE_REROLLS {
        let d20 = table.roll(RollRequest::new(
            1,
            20,
            Some(target),
            RollPurpose::Other,
            "CEL-R18.5",
        ))?;
        let row = random_injury_roll(d20 as i32, damage);
        let injury = Injury::of_roll(row);
        if state.f(target).injuries.available(injury) {
            gain_injury(state, table, target, injury, row as u32, "CEL-R19.3");
            return Ok(());
        }
        table.emit(|| Event::Forgone {
            who: target,
            what: "crippling injury on that row",
            on: None,
            reason: format!(
                "table row {row}: {} can no longer be taken, rolled again",
                injury.name()
            ),
            rule: "CEL-A22",
        });
    }
    table.emit(|| Event::Forgone {
        who: target,
        what: "crippling injury",
        on: None,
        reason: format!("none of the {MASSIVE_REROLLS} rows rolled could be taken"),
        rule: "CEL-A22",
    });
    Ok(())
}

/// Records an injury (and the bleeding of a severed part). [CEL-R18]
fn gain_injury(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    injury: Injury,
    roll: u32,
    rule: &'static str,
) {
    let f = state.fm(who);
    let bleed = f.injuries.take(injury);
    f.bleed += bleed;
    if bleed > 0 {
        // The default tactics look for a wound to treat only from now on (`State::bled`).
        state.bled = crate::state::CacheFlag(true);
    }
    let f = state.fm(who);
    if f.injuries.legless() {
        f.prone = true;
    }
    let confused = injury == Injury::Head && f.injuries.confused();
    table.emit(|| Event::Acted {
        who,
        act: if roll == 0 {
            "takes a crippling injury"
        } else {
            "gains a crippling injury"
        },
        on: None,
        detail: {
            let mut d = if roll == 0 {
                format!(
                    "{} instead of up to {} damage",
                    injury.name(),
                    injury.negates()
                )
            } else {
                format!("table row {roll}: {}", injury.name())
            };
            if bleed > 0 {
                d.push_str(&format!("; the part is severed: bleeds {bleed} a turn"));
            }
            d
        },
        rule,
    });
    if confused {
        // CEL-R18: three head injuries: permanently confused.
        super::confusion::from_head_injuries(state, table, who);
    }
}

/// Says what changed after damage or healing: the band, unconsciousness and staggering.
pub fn settle(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    (band, knocked_out, staggered): (Band, bool, bool),
) {
    let now = state.band(who);
    let hp = state.f(who).hp;
    if now == Band::Dead {
        state.fm(who).dead = true;
    }
    if now != band {
        let (status, rule) = match now {
            Band::Healthy => ("healthy", "CEL-R17.2"),
            Band::Disabled => ("disabled", "CEL-R17.2"),
            Band::Dying => ("dying", "CEL-R17.3"),
            Band::Dead if hp > -2 * state.score(who, crate::state::CON) => ("dead", "CEL-R19.2"),
            Band::Dead => ("dead", "CEL-R17.9"),
        };
        table.emit(|| Event::Status {
            who,
            status,
            hp,
            rule,
        });
    }
    let ko = state.knocked_out(who);
    if ko != knocked_out && now <= Band::Disabled {
        table.emit(|| Event::Condition {
            who,
            condition: "unconscious",
            gained: ko,
            rule: "CEL-R20.3",
        });
    }
    let st = state.staggered(who);
    if st != staggered && state.up(who) {
        table.emit(|| Event::Condition {
            who,
            condition: "staggered",
            gained: st,
            rule: "CEL-R20.2",
        });
    }
    // CEL-R9: a dead caster's spell weapon vanishes.
    if now == Band::Dead && band != Band::Dead {
        super::spell_weapon::caster_dead(state, table, who);
    }
}

/// Damage without a roll (strain, bleeding, a fall, a failed stabilization save): `amount`
/// lethal. Any of it ends stability: "If a stable dying character takes damage, they are no
/// longer stable and must again make Fortitude saves on their turn to stabilize" (CEL-R17.8,
/// seed: Stable Characters and Recovery) — strain "inflicts 1 point of damage" (CEL-R17.2).
pub fn lose_hp(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    amount: i32,
    label: &'static str,
    rule: &'static str,
) {
    let before = (
        state.band(who),
        state.knocked_out(who),
        state.staggered(who),
    );
    let f = state.fm(who);
    f.hp -= amount;
    f.taken += amount;
    if amount > 0 {
        f.stable = false;
    }
    let hp = f.hp;
    table.emit(|| Event::Damage {
        target: who,
        roll: 0,
        modifiers: vec![Modifier::new(label, rule, amount)],
        normal: amount,
        subdual: 0,
        hp,
        rule,
    });
    settle(state, table, who, before);
}

/// A disabled creature's act or reaction costs it 1 hit point. [CEL-R17.2]
#[inline(always)]
pub fn strain(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId, acts: i32) {
    // After every action and reaction: this test inline in the caller, the rest out of line
    // (issue 16). Exact: above 0 hit points the band is Healthy or Dead, never Disabled.
    if acts > 0 && state.f(who).hp <= 0 {
        strained(state, table, who, acts);
    }
}

/// [`strain`], at 0 hit points or below.
#[inline(never)]
fn strained(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId, acts: i32) {
    if acts > 0 && state.band(who) == Band::Disabled && !state.f(who).dead {
        lose_hp(
            state,
            table,
            who,
            acts,
            "strain while disabled",
            "CEL-R17.2",
        );
    }
}

/// The start-of-turn stabilization save of a dying creature: Fortitude vs DC 0, less half its
/// negative hit points; a natural 20 always succeeds; failure costs 1 hit point. Continuous
/// damage (bleeding) fails it outright. [CEL-R17.4–R17.6, A21]
pub fn stabilize(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    let f = state.f(who);
    if f.stable || f.dead {
        return Ok(());
    }
    if f.bleed > 0 {
        table.emit(|| Event::Forgone {
            who,
            what: "stabilization save",
            on: None,
            reason: "bleeding: it fails automatically".into(),
            rule: "CEL-R17.5",
        });
        lose_hp(state, table, who, 1, "dying", "CEL-R17.5");
        return Ok(());
    }
    let fort = state.fort(who);
    let penalty = stabilization_penalty(f.hp);
    // A Fortitude save: shaken or sickened give it disadvantage (CEL-R4.5 rows 15, 16).
    let (roll, dice) =
        super::roll_check_die(state, table, who, super::CheckKind::Save, "CEL-R17.6")?;
    let total = roll as i32 + fort + penalty;
    // CEL-G13: the GM's adjustment to its DCs moves this one too.
    let dc = state.f(who).gm_dc;
    let success = roll == 20 || total >= dc;
    table.emit(|| Event::Check {
        who: Subject::Combatant(who),
        purpose: "stabilize",
        dice,
        roll,
        modifiers: vec![
            Modifier::new("Fort", "", fort),
            Modifier::new("half the negative hit points", "CEL-R17.6", penalty),
        ],
        total,
        against: if dc == 0 { "DC" } else { "GM-adjusted DC" },
        target: dc,
        under: false,
        success: Some(success),
        result: if success { "stable" } else { "loses 1 hp" }.into(),
        rule: "CEL-R17.6",
    });
    if success {
        state.fm(who).stable = true;
        let hp = state.f(who).hp;
        table.emit(|| Event::Status {
            who,
            status: "stable",
            hp,
            rule: "CEL-R17.6",
        });
    } else {
        lose_hp(state, table, who, 1, "dying", "CEL-R17.6");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CEL-E13: −15 hp, Fort +4: a 9 gives 9 + 4 − 7 = 6 (stable); a 2 gives −1 (fails).
    #[test]
    fn e13_stabilization() {
        assert_eq!(stabilization_penalty(-15), -7);
        assert_eq!(9 + 4 + stabilization_penalty(-15), 6);
        assert_eq!(2 + 4 + stabilization_penalty(-15), -1);
    }

    /// CEL-E14: 73 damage to 140 max hp: DC 26; a random injury d20 + 14 (clamped to 20);
    /// 45 damage to 80 max hp is not massive.
    #[test]
    fn e14_massive_damage() {
        assert!(is_massive(73, 140));
        assert_eq!(massive_dc(73), 26);
        assert_eq!(random_injury_roll(1, 73), 15);
        assert_eq!(random_injury_roll(12, 73), 20);
        assert!(!is_massive(45, 80));
        assert!(!is_massive(50, 101));
    }
}
