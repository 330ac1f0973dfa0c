//! Aid Another (CEL-R9, R6.4): a simple action, an attack roll against DV 10 on a foe in melee
//! with a friend; success gives the friend +1 (and +1 per full 10 over DV 10) on its next attack
//! roll against that foe, or to its DV against that foe's next attack — the aider's choice — if
//! it comes before the start of the aider's next turn. Bonuses from several aiders stack; a roll
//! a full 10 or more under DV 10 gives −1 per 10 instead (CEL-A17). The roll is an attack roll:
//! it has the attack's advantage and disadvantage (CEL-R4.5) and CEL-A3's natural 20 and 1.
//! The same roll can "help a friend … when he is affected by a spell" (adopted reading,
//! docs/celesia.md *Readings*): +N on the friend's next saving throw against a spell of the foe,
//! or to its touch DV against the foe's next spell attack ([`AidTo::Save`], [`AidTo::Touch`]).

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

/// What an aid helps, the aider's choice: the friend's next attack roll against the foe or its
/// DV against the foe's next attack (CEL-R9); against the foe's spells (CEL-R9 "help a friend
/// … when he is affected by a spell", adopted reading): its next saving throw against one, or
/// its touch DV against the next spell attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AidTo {
    /// The friend's next attack roll against the foe.
    Attack,
    /// The friend's DV against the foe's next attack.
    Defense,
    /// The friend's next saving throw against a spell the foe casts.
    Save,
    /// The friend's touch DV against the foe's next spell attack (a touch attack).
    Touch,
}

impl AidTo {
    /// Every form, in the order options list them.
    pub const ALL: [AidTo; 4] = [AidTo::Attack, AidTo::Defense, AidTo::Save, AidTo::Touch];

    /// The word in choices (`attack`, `defense`, `save`, `touch`).
    pub fn key(self) -> &'static str {
        match self {
            AidTo::Attack => "attack",
            AidTo::Defense => "defense",
            AidTo::Save => "save",
            AidTo::Touch => "touch",
        }
    }

    /// The form named by `key`.
    pub fn from_key(key: &str) -> Option<AidTo> {
        AidTo::ALL.into_iter().find(|a| a.key() == key)
    }

    /// Against the foe's spells (the foe need not be in melee with the friend).
    pub fn against_spell(self) -> bool {
        matches!(self, AidTo::Save | AidTo::Touch)
    }

    /// The log's words for what the bonus goes on.
    fn phrase(self) -> &'static str {
        match self {
            AidTo::Attack => "on the next attack roll against",
            AidTo::Defense => "DV against the next attack of",
            AidTo::Save => "on the next saving throw against a spell of",
            AidTo::Touch => "touch DV against the next spell attack of",
        }
    }
}

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
    to: AidTo,
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
    state.aided = crate::state::CacheFlag(true);
    state.fm(friend).aids.push(Aid {
        aider,
        foe,
        to,
        amount,
    });
    table.emit(|| Event::Acted {
        who: aider,
        act: "aids",
        on: Some(friend),
        detail: format!(
            "{amount:+} {} {} until the start of its next turn (degrees: CEL-R6.4)",
            to.phrase(),
            state.roster.name(foe)
        ),
        rule: "CEL-R9",
    });
    Ok(())
}

/// Takes the aid `who` has against `foe` of the form `to` (its attack roll, its DV, its save
/// against the foe's spell, its touch DV against it), spending it: the sum of every aider's.
pub fn take(state: &mut State, who: CombatantId, foe: CombatantId, to: AidTo) -> i32 {
    let f = state.fm(who);
    if f.aids.is_empty() {
        return 0;
    }
    let mut sum = 0;
    f.aids.retain(|a| {
        let used = a.foe == foe && a.to == to;
        if used {
            sum += a.amount;
        }
        !used
    });
    sum
}

/// The start of `aider`'s turn: its aid not yet used ends, on attacks, DV, saves and skill
/// checks alike. [CEL-R9]
pub fn expire(state: &mut State, aider: CombatantId) {
    for f in &mut state.fighters {
        if !f.aids.is_empty() {
            f.aids.retain(|a| a.aider != aider);
        }
        if !f.skill_aids.is_empty() {
            f.skill_aids.retain(|a| a.aider != aider);
        }
    }
}
