//! Identify a Spell Being Cast (CEL-R14): a free action, taken even off one's own turn, with
//! the Spellcraft skill, as a foe's casting begins and before the spell takes effect.
//!
//! Adopted readings (the seed says only "You use Spellcraft to identify a spell being cast";
//! docs/celesia.md, *Spells and 1-round actions*): only a combatant whose entry gives a
//! `spellcraft` bonus may try (the seed has no skill table), on a casting by a foe, while it is
//! up; it must see the casting: it is not blinded and the caster is neither invisible nor
//! totally concealed (CEL-R4.5, `rules::concealment`); it is asked (`identify CASTER` or
//! `decline`); the free action counts against the GM's `free_actions_per_turn` in the turn it
//! is taken in, the caster's (CEL-G2), and costs a disabled identifier 1 hit point where the GM
//! names `identify` strenuous (CEL-G4); the DC is the parent game's 15 + the spell's level (the
//! seed gives none); the result is logged to everyone (fray's fights have no hidden spells).

use super::{concealment, legal, CheckKind};
use crate::choice::Choice;
use crate::spell::Spell;
use crate::state::{Asking, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// CEL-R14 Identify a Spell Being Cast: the DC, 15 + the spell's level (adopted: the parent
/// game's number; the seed gives none).
pub fn dc(spell: &Spell) -> i32 {
    15 + spell.level
}

/// Whether `who` may try to identify the spell `caster` is casting: it sees the casting (not
/// blinded; the caster not invisible or totally concealed, nor behind an obstacle) and has a free action left this turn
/// (CEL-G2). [CEL-R14, R4.5]
pub fn check(
    explain: bool,
    state: &State,
    who: CombatantId,
    caster: CombatantId,
) -> Result<(), Illegal> {
    Illegal::unless(concealment::sighted(state, who), explain, "CEL-R14", || {
        "a blinded creature cannot see the spell being cast".to_string()
    })?;
    Illegal::unless(
        !concealment::totally_concealed(state, caster),
        explain,
        "CEL-R14",
        || {
            format!(
                "{} is invisible or totally concealed: its casting cannot be seen",
                state.roster.name(caster)
            )
        },
    )?;
    Illegal::unless(
        super::line_of_effect::open(state, who, caster),
        explain,
        "CEL-R14",
        || {
            format!(
                "an obstacle hides {}'s casting (no line of sight)",
                state.roster.name(caster)
            )
        },
    )?;
    legal::free_action_left(explain, state, who, "identify")
}

/// The foes of `caster` among `among` (in their order) that are up: those who may react to
/// its casting, identifying it (CEL-R14) or countering it (CEL-R15).
pub(super) fn foes_reacting(
    state: &State,
    caster: CombatantId,
    among: &[CombatantId],
) -> Vec<CombatantId> {
    among
        .iter()
        .copied()
        .filter(|&o| o != caster && state.enemies(o, caster) && state.up(o))
        .collect()
}

/// Each foe of `caster` that is up, has a `spellcraft` bonus and may try ([`check`]) is asked,
/// in initiative order, whether it identifies `spell` as its casting begins; returns those who
/// did. [CEL-R14]
pub fn attempts(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    caster: CombatantId,
    spell: &Spell,
) -> Result<Vec<CombatantId>, Interrupt> {
    let mut knew = Vec::new();
    for o in foes_reacting(state, caster, &state.order) {
        let Some(bonus) = state.p(o).gm_said.spellcraft else {
            continue;
        };
        if let Err(why) = check(table.events_enabled(), state, o, caster) {
            table.emit(|| Event::Forgone {
                who: o,
                what: "identify a spell being cast",
                on: Some(caster),
                reason: why.reason,
                rule: why.rule,
            });
            continue;
        }
        let asking = Asking::Identify { who: o, caster };
        let choice = legal::ask(state, table, asking, "CEL-R14")?;
        if choice != Choice::Identify(caster) {
            table.emit(|| Event::Forgone {
                who: o,
                what: "identify a spell being cast",
                on: Some(caster),
                reason: "declined".into(),
                rule: "CEL-R14",
            });
            continue;
        }
        let check = super::D20Check {
            purpose: "identify a spell being cast",
            modifier: "Spellcraft",
            // Spellcraft is an Intelligence skill (the parent game's, CEL-A34).
            bonus: state.skill(o, bonus, crate::state::INT),
            dc: dc(spell),
            kind: CheckKind::Skill { physical: false },
            results: ("identified", "not identified"),
            rule: "CEL-R14",
        };
        // CEL-R9: a friend's Aid Another on this check.
        let skill = super::aid_check::Skill::Spellcraft;
        let identified = check.roll_skill(skill, state, table, o)?;
        if identified {
            table.emit(|| Event::Acted {
                who: o,
                act: "identifies the spell being cast by",
                on: Some(caster),
                detail: format!("{} (level {})", spell.name, spell.level),
                rule: "CEL-R14",
            });
            knew.push(o);
        }
        // Counted (CEL-G2) and, where the GM says, strenuous (CEL-G4), as after any action.
        super::round::free_action_taken(state, table, o, choice);
    }
    Ok(knew)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};
    use crate::state::Trick;
    use fray_core::conditions::Expiry;

    fn fight() -> State {
        Fixture::new()
            .with("caster", "x", [0, 0], FIGHTER)
            .with(
                "watcher",
                "y",
                [0, 4],
                &format!("{FIGHTER}\nspellcraft = 5"),
            )
            .state()
    }

    /// CEL-R14: the casting must be seen; CEL-G2: the free action counts against the turn's
    /// limit.
    #[test]
    fn identifying_needs_sight_and_a_free_action_left() {
        let (caster, watcher) = (CombatantId(0), CombatantId(1));
        let seen = fight();
        assert!(check(true, &seen, watcher, caster).is_ok());

        let mut blinded = fight();
        let round = blinded.round + 5;
        blinded.fm(watcher).tricks.add(
            crate::state::Caused::dirty_trick(Trick::Blinded),
            Expiry::EndOfRound(round),
        );
        let why = check(true, &blinded, watcher, caster).unwrap_err();
        assert_eq!(why.rule, "CEL-R14");
        assert!(why.reason.contains("blinded"), "{}", why.reason);

        for hidden in [true, false] {
            let mut unseen = fight();
            if hidden {
                unseen.fm(caster).invisible = true;
            } else {
                unseen.fm(caster).concealed = true;
            }
            let why = check(true, &unseen, watcher, caster).unwrap_err();
            assert!(why.reason.contains("cannot be seen"), "{}", why.reason);
        }

        let mut limited = fight();
        std::sync::Arc::make_mut(&mut limited.options).free_actions_per_turn = Some(1);
        assert!(check(false, &limited, watcher, caster).is_ok());
        limited.fm(watcher).free_actions = 1;
        assert_eq!(
            check(true, &limited, watcher, caster).unwrap_err().rule,
            "CEL-G2"
        );
    }
}
