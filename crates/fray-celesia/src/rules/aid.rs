//! Aid Another (CEL-R9, R6.4): a simple action, an attack roll against DV 10 on a foe in melee
//! with a friend; success gives the friend +1 (and +1 per full 10 over DV 10) on its next attack
//! roll against that foe, or to its DV against that foe's next attack — the aider's choice — if
//! it comes before the start of the aider's next turn. Bonuses from several aiders stack; a roll
//! a full 10 or more under DV 10 gives −1 per 10 instead (CEL-A17). The roll is an attack roll:
//! it has the attack's advantage and disadvantage (CEL-R4.5) and CEL-A3's natural 20 and 1.

use super::attack::{attack_bonus, roll_d20, sources};
use super::degrees::aid_bonus;
use crate::content::WeaponKind;
use crate::state::{reaches, Aid, State};
use crate::Celesia;
use fray_core::event::{AttackResult, Event};
use fray_core::protocol::{Interrupt, RollPurpose};
use fray_core::{CombatantId, Table};

/// The DV an Aid Another roll is made against. [CEL-R9]
pub const AID_DV: i32 = 10;

/// The aider's melee form that reaches the foe (not an unarmed strike). [CEL-R9]
pub fn aiding_form(state: &State, aider: CombatantId, foe: CombatantId) -> Option<usize> {
    let gap = state.gap(aider, foe);
    state
        .melee_forms(aider)
        .find(|(_, w)| w.kind != WeaponKind::Unarmed && reaches(w, gap))
        .map(|(i, _)| i)
}

/// Whether `friend` and `foe` are in melee: either threatens the other. [CEL-R9]
pub fn in_melee(state: &State, friend: CombatantId, foe: CombatantId) -> bool {
    state.threatens(friend, foe) || state.threatens(foe, friend)
}

/// The aid roll and, on success (or a failure by 10 or more), the friend's bonus (or penalty).
pub fn aid(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    aider: CombatantId,
    friend: CombatantId,
    foe: CombatantId,
    defense: bool,
) -> Result<(), Interrupt> {
    let Some(form) = aiding_form(state, aider, foe) else {
        return Ok(());
    };
    let profiles = state.profiles.clone();
    let w = &profiles[aider.index()].melee[form];
    let feet = state.feet_between(aider, foe);
    let bonus = attack_bonus(state, aider, w, feet);
    // CEL-R4.5: the aid is an attack roll on the foe, with that roll's advantage and
    // disadvantage (a prone, shaken or entangled aider's; a flanked or prone foe's).
    let (adv, dis) = sources(state, aider, foe, w);
    let (die, pool) = roll_d20(
        table,
        aider,
        adv.count() - dis.count(),
        RollPurpose::Attack,
        "CEL-R4.5",
    )?;
    let total = die as i32 + bonus.total();
    // CEL-A3: a natural 20 always succeeds (at least +1), a natural 1 always fails (no bonus; a
    // penalty still for each full 10 under).
    let success = die == 20 || (die != 1 && total >= AID_DV);
    let amount = if success {
        aid_bonus(total, AID_DV).max(1)
    } else {
        aid_bonus(total, AID_DV).min(0)
    };
    table.emit(|| Event::Attack {
        attacker: aider,
        target: foe,
        attack: {
            let mut name = format!("{} (aid another)", w.name);
            super::name_sources(&mut name, &adv, &dis, pool.as_deref());
            name
        },
        roll: die,
        modifiers: bonus.to_vec(),
        total,
        defense: "DV",
        versus: AID_DV,
        defense_modifiers: Vec::new(),
        result: if success {
            AttackResult::Hit
        } else {
            AttackResult::Miss
        },
        rule: "CEL-R9",
    });
    if amount == 0 {
        return Ok(());
    }
    state.fm(friend).aids.push(Aid {
        aider,
        foe,
        defense,
        amount,
    });
    table.emit(|| Event::Acted {
        who: aider,
        act: "aids",
        on: Some(friend),
        detail: format!(
            "{amount:+} {} {} until the start of its next turn (degrees: CEL-R6.4)",
            if defense {
                "DV against the next attack of"
            } else {
                "on the next attack roll against"
            },
            state.roster.name(foe)
        ),
        rule: "CEL-R9",
    });
    Ok(())
}

/// Takes the aid `who` has against `foe` (its attack roll, or its DV when `defense`), spending
/// it: the sum of every aider's.
pub fn take(state: &mut State, who: CombatantId, foe: CombatantId, defense: bool) -> i32 {
    let f = state.fm(who);
    if f.aids.is_empty() {
        return 0;
    }
    let mut sum = 0;
    f.aids.retain(|a| {
        let used = a.foe == foe && a.defense == defense;
        if used {
            sum += a.amount;
        }
        !used
    });
    sum
}

/// The start of `aider`'s turn: its aid not yet used ends. [CEL-R9]
pub fn expire(state: &mut State, aider: CombatantId) {
    for f in &mut state.fighters {
        if !f.aids.is_empty() {
            f.aids.retain(|a| a.aider != aider);
        }
    }
}
