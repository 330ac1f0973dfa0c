//! Aid Another on a skill check and against a spell (CEL-R9: "You can also use this simple
//! action to help a friend in other ways, such as when he is affected by a spell, or to assist
//! another character's skill check"; CEL-R6.4, A17 degrees).
//!
//! A skill check: the aider, next to its friend (adopted reading: in position to help, as the
//! melee aid must be in position to attack), makes its own check of that skill against DC 10;
//! +1, and +1 per full 10 over; 1–9 under: nothing; −1 per full 10 under. It goes on the
//! friend's next check of that skill before the start of the aider's next turn, then lapses
//! (`aid::expire`). Against a spell: the melee aid's attack roll (`aid::aid`) on a foe that
//! casts spells, the bonus on the friend's next save against a spell of it or to its touch DV
//! against its next spell attack (`aid::AidTo::Save`, `AidTo::Touch`; legality here).

use super::{CheckKind, D20Check};
use crate::choice::Choice;
use crate::state::{Band, State, CHA, INT, WIS};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// The DC of an aid on a skill check. [CEL-R9, R6.4]
pub const AID_DC: i32 = 10;

/// A skill whose checks fray rolls, and so that a friend can aid (CEL-R9). A concentration
/// check is no skill check of the parent game's (a caster level check), so it is not aided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Skill {
    /// Bluff (Feint, CEL-R11).
    Bluff,
    /// Disable Device (CEL-R13).
    DisableDevice,
    /// Escape Artist (escape a grapple, ropes, a net: CEL-R9, R10.10, R11).
    EscapeArtist,
    /// Heal (Provide First Aid, CEL-R17.7; Treat a Wound, CEL-R11).
    Heal,
    /// Intimidate (Demoralize, CEL-R9).
    Intimidate,
    /// Lore (Recall Knowledge, CEL-R9).
    Lore,
    /// Perception (Search, CEL-R9).
    Perception,
    /// Ride (CEL-R21).
    Ride,
    /// Spellcraft (Identify a Spell Being Cast, CEL-R14).
    Spellcraft,
    /// Survival (Find Tracks, CEL-R13).
    Survival,
}

impl Skill {
    /// Every skill, in the order options list them.
    pub const ALL: [Skill; 10] = [
        Skill::Bluff,
        Skill::DisableDevice,
        Skill::EscapeArtist,
        Skill::Heal,
        Skill::Intimidate,
        Skill::Lore,
        Skill::Perception,
        Skill::Ride,
        Skill::Spellcraft,
        Skill::Survival,
    ];

    /// The word in choices (`disable-device`).
    pub fn key(self) -> &'static str {
        match self {
            Skill::Bluff => "bluff",
            Skill::DisableDevice => "disable-device",
            Skill::EscapeArtist => "escape-artist",
            Skill::Heal => "heal",
            Skill::Intimidate => "intimidate",
            Skill::Lore => "lore",
            Skill::Perception => "perception",
            Skill::Ride => "ride",
            Skill::Spellcraft => "spellcraft",
            Skill::Survival => "survival",
        }
    }

    /// The skill named by `key`.
    pub fn from_key(key: &str) -> Option<Skill> {
        Skill::ALL.into_iter().find(|s| s.key() == key)
    }

    /// Every key, for an error message.
    pub fn keys() -> String {
        let keys: Vec<&str> = Skill::ALL.iter().map(|s| s.key()).collect();
        keys.join(", ")
    }

    /// The skill's name in the log (`Disable Device`).
    pub fn name(self) -> &'static str {
        match self {
            Skill::Bluff => "Bluff",
            Skill::DisableDevice => "Disable Device",
            Skill::EscapeArtist => "Escape Artist",
            Skill::Heal => "Heal",
            Skill::Intimidate => "Intimidate",
            Skill::Lore => "Lore",
            Skill::Perception => "Perception",
            Skill::Ride => "Ride",
            Skill::Spellcraft => "Spellcraft",
            Skill::Survival => "Survival",
        }
    }

    /// The aid roll's purpose in the log.
    fn purpose(self) -> &'static str {
        match self {
            Skill::Bluff => "aid another (Bluff)",
            Skill::DisableDevice => "aid another (Disable Device)",
            Skill::EscapeArtist => "aid another (Escape Artist)",
            Skill::Heal => "aid another (Heal)",
            Skill::Intimidate => "aid another (Intimidate)",
            Skill::Lore => "aid another (Lore)",
            Skill::Perception => "aid another (Perception)",
            Skill::Ride => "aid another (Ride)",
            Skill::Spellcraft => "aid another (Spellcraft)",
            Skill::Survival => "aid another (Survival)",
        }
    }

    /// A Strength or Dexterity skill (the disadvantage of blindness, CEL-R4.5); the parent
    /// game's key abilities (CEL-A34).
    fn physical(self) -> bool {
        matches!(
            self,
            Skill::DisableDevice | Skill::EscapeArtist | Skill::Ride
        )
    }

    /// `who`'s bonus in the skill, as the check it aids reads it; `None` where the entry gives
    /// none and the action it serves is not offered without one (Bluff, Intimidate,
    /// Spellcraft, Survival: the seed has no skill tables).
    pub fn bonus(self, state: &State, who: CombatantId) -> Option<i32> {
        let p = state.p(who);
        let said = &p.gm_said;
        Some(match self {
            Skill::Bluff => state.skill(who, said.feint.bluff?, CHA),
            Skill::DisableDevice => p.disable_device,
            Skill::EscapeArtist => p.escape_artist,
            Skill::Heal => p.heal,
            Skill::Intimidate => state.skill(who, said.intimidate?, CHA),
            // Pathfinder's Knowledge is an Intelligence skill, Perception a Wisdom one
            // (CEL-A34); both default to 0 (the seed has no skill tables).
            Skill::Lore => state.skill(who, p.lore, INT),
            Skill::Perception => state.skill(who, p.perception, WIS),
            Skill::Ride => p.ride,
            Skill::Spellcraft => state.skill(who, said.spellcraft?, INT),
            Skill::Survival => state.skill(who, said.survival?, WIS),
        })
    }

    /// Whether `friend` has a check of the skill to make in this fight, for the options (a
    /// scripted or typed aid is legal without it): a bonus the action needs, a device left, a
    /// hold, ropes or a net, a mount, a dying or bleeding creature.
    fn wanted(self, state: &State, friend: CombatantId) -> bool {
        let f = state.f(friend);
        match self {
            Skill::Bluff | Skill::Intimidate | Skill::Spellcraft | Skill::Survival => {
                self.bonus(state, friend).is_some()
            }
            Skill::DisableDevice => state.disabled.iter().any(|&done| !done),
            Skill::EscapeArtist => f.held_by.is_some() || f.tied.is_some() || f.netted,
            Skill::Ride => f.riding.is_some(),
            // Offered never (typed, legal): every creature has both skills (default +0), so
            // offering them would list an aid next to every friend in every fight; and whether
            // there is anything to find is the GM's.
            Skill::Lore | Skill::Perception => false,
            // First aid on someone dying (CEL-R17.7), Treat a Wound on someone bleeding (CEL-R11).
            Skill::Heal => state.ids().any(|t| {
                let f = state.f(t);
                (state.band(t) == Band::Dying && !f.stable) || (f.bleed > 0 && !f.absent())
            }),
        }
    }

    /// Its kind of check (CEL-R4.5's disadvantage on it).
    pub fn kind(self) -> CheckKind {
        match self {
            // CEL-R18: the skills Table: Crippling Injuries names.
            Skill::DisableDevice => CheckKind::Crippling(super::Crippled::DisableDevice),
            Skill::Ride => CheckKind::Crippling(super::Crippled::Ride),
            Skill::Intimidate => CheckKind::Crippling(super::Crippled::Intimidate),
            _ => CheckKind::Skill {
                physical: self.physical(),
            },
        }
    }
}

/// CEL-R9: `aid FRIEND WORD` where WORD is no skill fray rolls: refused naming the rule, with
/// the skills it does roll; a concentration check is named as no skill check.
pub fn unknown_skill(word: &str) -> Illegal {
    let why = if word.eq_ignore_ascii_case("concentration") {
        "a concentration check is no skill check (the parent game's caster level check) and is \
         not aided; "
    } else {
        ""
    };
    Illegal {
        rule: "CEL-R9",
        reason: format!("`{word}`: {why}aid a skill check of {}", Skill::keys()),
    }
}

/// `who`'s aid on another's skill check. [CEL-R9, R6.4]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SkillAid {
    /// Who gave it.
    pub aider: CombatantId,
    /// The skill.
    pub skill: Skill,
    /// The bonus (a penalty when negative, CEL-A17).
    pub amount: i32,
}

/// The skill aids `who` may give: each friend next to it, each skill it has that the friend
/// has a check of to make; and the aid against a spell of each foe it can attack in melee that
/// casts spells, for each friend still up.
pub fn options(state: &State, who: CombatantId, out: &mut Vec<Choice>) {
    let friends = state.near(who, 1, |o| o != who && !state.enemies(who, o));
    for friend in friends {
        for skill in Skill::ALL {
            if skill.bonus(state, who).is_some() && skill.wanted(state, friend) {
                out.push(Choice::AidSkill(friend, skill));
            }
        }
    }
    for foe in state.ids() {
        if !state.enemies(who, foe)
            || state.p(foe).magic.spells.is_empty()
            || state.f(foe).absent()
            || super::aid::aiding_form(state, who, foe).is_none()
        {
            continue;
        }
        for friend in state.ids() {
            if friend != who && !state.enemies(who, friend) && state.up(friend) {
                out.push(Choice::Aid(friend, foe, super::aid::AidTo::Save));
                out.push(Choice::Aid(friend, foe, super::aid::AidTo::Touch));
            }
        }
    }
}

/// CEL-R9 (adopted reading): help against a spell is against a foe that casts spells.
pub fn check_spell_aid(explain: bool, state: &State, foe: CombatantId) -> Result<(), Illegal> {
    Illegal::unless(
        !state.p(foe).magic.spells.is_empty(),
        explain,
        "CEL-R9",
        || {
            format!(
                "help against a spell is against a foe that casts spells; {} has none",
                state.roster.key(foe)
            )
        },
    )
}

/// CEL-R9: an aid on `friend`'s check of `skill`: a friend still up (not itself), next to it
/// (adopted reading), a bonus of its own in the skill, not given twice at once.
pub fn check_skill_aid(
    explain: bool,
    state: &State,
    who: CombatantId,
    friend: CombatantId,
    skill: Skill,
) -> Result<(), Illegal> {
    if friend == who || state.enemies(who, friend) || !state.up(friend) {
        return no(explain, "CEL-R9", || {
            "aid another helps a friend still up (not itself)".to_string()
        });
    }
    if state.gap(who, friend) > 1 {
        return no(explain, "CEL-R9", || {
            format!(
                "to aid a skill check it must be next to {} (adopted reading: in position to \
                 help, as the melee aid must be in position to attack)",
                state.roster.key(friend)
            )
        });
    }
    if skill.bonus(state, who).is_none() {
        return no(explain, "CEL-R9", || {
            format!(
                "aiding a {} check takes a {} check of its own: its entry gives no `{}` bonus \
                 (the seed has no skill tables)",
                skill.name(),
                skill.name(),
                skill.key()
            )
        });
    }
    let again = state
        .f(friend)
        .skill_aids
        .iter()
        .any(|a| a.aider == who && a.skill == skill);
    Illegal::unless(!again, explain, "CEL-R9", || {
        format!(
            "it aids {}'s next {} check already (several aiders stack, one aider's aid does not)",
            state.roster.key(friend),
            skill.name()
        )
    })
}

/// CEL-R9, R6.4: the aider's check of the skill against DC 10 and, on a success (or a failure
/// by 10 or more), the friend's bonus (or penalty) on its next check of that skill.
pub fn aid_skill(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    friend: CombatantId,
    skill: Skill,
) -> Result<(), Interrupt> {
    let Some(bonus) = skill.bonus(state, who) else {
        return Ok(());
    };
    let check = D20Check {
        purpose: skill.purpose(),
        modifier: skill.name(),
        bonus,
        dc: AID_DC,
        kind: skill.kind(),
        results: ("helps", "fails to help"),
        rule: "CEL-R9",
    };
    let (success, total, dc) = check.roll_aided(state, table, who, 0)?;
    let amount = if success {
        super::degrees::aid_bonus(total, dc).max(1)
    } else {
        super::degrees::aid_bonus(total, dc).min(0)
    };
    if amount == 0 {
        return Ok(());
    }
    state.aided = crate::state::CacheFlag(true);
    state.fm(friend).skill_aids.push(SkillAid {
        aider: who,
        skill,
        amount,
    });
    table.emit(|| Event::Acted {
        who,
        act: "aids",
        on: Some(friend),
        detail: format!(
            "{amount:+} on its next {} check until the start of its next turn (degrees: \
             CEL-R6.4)",
            skill.name()
        ),
        rule: "CEL-R9",
    });
    Ok(())
}

/// Takes the aid `who` has on its next check of `skill`, spending it: the sum of every
/// aider's. [CEL-R9]
pub fn take(state: &mut State, who: CombatantId, skill: Skill) -> i32 {
    let f = state.fm(who);
    if f.skill_aids.is_empty() {
        return 0;
    }
    let mut sum = 0;
    f.skill_aids.retain(|a| {
        let used = a.skill == skill;
        if used {
            sum += a.amount;
        }
        !used
    });
    sum
}

impl D20Check {
    /// [`D20Check::roll`] of a check of `skill`, with the aid `who` has on it (spent): whether
    /// it succeeded. [CEL-R9]
    pub fn roll_skill(
        &self,
        skill: Skill,
        state: &mut State,
        table: &mut Table<'_, Celesia>,
        who: CombatantId,
    ) -> Result<bool, Interrupt> {
        let aid = take(state, who, skill);
        Ok(self.roll_aided(state, table, who, aid)?.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skills_read_back_from_their_keys() {
        for skill in Skill::ALL {
            assert_eq!(Skill::from_key(skill.key()), Some(skill));
        }
        assert_eq!(Skill::from_key("concentration"), None);
        assert!(Skill::keys().contains("disable-device"));
        let refused = unknown_skill("concentration");
        assert_eq!(refused.rule, "CEL-R9");
        assert!(refused.reason.contains("no skill check"), "{refused}");
        assert!(!unknown_skill("swim").reason.contains("concentration"));
    }

    use crate::fixture::{Fixture, FIGHTER};

    fn id(n: u16) -> CombatantId {
        CombatantId(n)
    }

    /// Ann (Bluff +5) at 0,0; Bo (Bluff +3) next to her; Cy (no Bluff) next to her; Di (Bluff
    /// +1) 3 squares off; a hobgoblin without spells and a wizard with one, each next to Bo.
    fn scene() -> State {
        Fixture::new()
            .with("ann", "h", [0, 0], &format!("{FIGHTER}\nbluff = 5"))
            .with("bo", "h", [0, 1], &format!("{FIGHTER}\nbluff = 3"))
            .with("cy", "h", [1, 1], FIGHTER)
            .with("di", "h", [0, 4], &format!("{FIGHTER}\nbluff = 1"))
            .monster("hob", "f", [1, 2], "hobgoblin")
            .with(
                "wyn",
                "f",
                [0, 2],
                "class = \"wizard\"\nlevel = 3\nhp = 12\nweapon = \"dagger\"\n\
                 spells = [\"shocking grasp\"]\ncaster_level = 3\nspell_dc = 14",
            )
            .state()
    }

    #[test]
    fn a_skill_aid_needs_the_friend_next_to_it_and_its_own_skill() {
        let s = scene();
        let (ann, bo, cy, di) = (id(0), id(1), id(2), id(3));
        assert!(check_skill_aid(false, &s, bo, ann, Skill::Bluff).is_ok());
        let far = check_skill_aid(true, &s, di, ann, Skill::Bluff).unwrap_err();
        assert!(far.to_string().contains("next to ann"), "{far}");
        let lacking = check_skill_aid(true, &s, cy, ann, Skill::Bluff).unwrap_err();
        assert!(
            lacking.to_string().contains("no `bluff` bonus"),
            "{lacking}"
        );
        // Skills every entry has (+0 by default) need no key.
        assert!(check_skill_aid(false, &s, cy, ann, Skill::Heal).is_ok());
        assert!(check_skill_aid(false, &s, bo, bo, Skill::Bluff).is_err());
        assert!(check_skill_aid(false, &s, bo, id(4), Skill::Bluff).is_err());
    }

    #[test]
    fn skill_aids_stack_are_spent_together_and_end_with_the_aiders_turn() {
        let mut s = scene();
        let (ann, bo, cy) = (id(0), id(1), id(2));
        for (aider, amount) in [(bo, 2), (cy, -1)] {
            s.fm(ann).skill_aids.push(SkillAid {
                aider,
                skill: Skill::Bluff,
                amount,
            });
        }
        s.fm(ann).skill_aids.push(SkillAid {
            aider: bo,
            skill: Skill::Heal,
            amount: 1,
        });
        let again = check_skill_aid(true, &s, bo, ann, Skill::Bluff).unwrap_err();
        assert!(again.to_string().contains("already"), "{again}");
        assert_eq!(take(&mut s, ann, Skill::Bluff), 1);
        assert_eq!(take(&mut s, ann, Skill::Bluff), 0);
        super::super::aid::expire(&mut s, bo);
        assert_eq!(take(&mut s, ann, Skill::Heal), 0);
    }

    #[test]
    fn the_options_offer_skill_aids_to_neighbours_and_spell_aids_against_casters() {
        let s = scene();
        let (ann, bo, di, hob, wyn) = (id(0), id(1), id(3), id(4), id(5));
        let mut out = Vec::new();
        options(&s, bo, &mut out);
        assert!(out.contains(&Choice::AidSkill(ann, Skill::Bluff)));
        // Di is not next to Bo; no one is dying, mounted, held or at a device.
        assert!(!out.contains(&Choice::AidSkill(di, Skill::Bluff)));
        assert!(!out
            .iter()
            .any(|c| matches!(c, Choice::AidSkill(_, Skill::Heal | Skill::Ride))));
        use super::super::aid::AidTo;
        assert!(out.contains(&Choice::Aid(di, wyn, AidTo::Save)));
        assert!(out.contains(&Choice::Aid(ann, wyn, AidTo::Touch)));
        assert!(!out
            .iter()
            .any(|c| matches!(c, Choice::Aid(_, f, _) if *f == hob)));
        assert!(check_spell_aid(false, &s, wyn).is_ok());
        let none = check_spell_aid(true, &s, hob).unwrap_err();
        assert!(none.to_string().contains("casts spells"), "{none}");
    }

    #[test]
    fn physical_skills_are_the_strength_and_dexterity_ones() {
        let physical: Vec<Skill> = Skill::ALL.into_iter().filter(|s| s.physical()).collect();
        assert_eq!(
            physical,
            [Skill::DisableDevice, Skill::EscapeArtist, Skill::Ride]
        );
        assert_eq!(Skill::Heal.kind(), CheckKind::Skill { physical: false });
    }
}
