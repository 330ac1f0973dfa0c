//! Castles & Crusades combat (seed `002_d052e44c4a5aca00.txt`, spec `cnc.md`) on the fray engine.
//!
//! [`Cnc`] implements [`fray_core::Ruleset`]. Rules live in [`rules`], one module per part of
//! the seed; content (weapons, armour, monsters, classes) is data in `content/cnc/`.

#![forbid(unsafe_code)]

pub mod choice;
pub mod content;
pub mod encounter;
pub mod rules;
pub mod situation;
pub mod state;
pub mod tactics;

pub use choice::Choice;
pub use content::Content;
pub use encounter::{load, Encounter};
pub use state::State;

use fray_core::board::{Board, Piece};
use fray_core::protocol::{ChoiceRequest, Chooser, Illegal, Interrupt};
use fray_core::ruleset::{
    AttackPlay, Criticals, Outcome, RuleStatus, Ruleset, RulesetBundle, RulesetId,
};
use fray_core::span::FileErrors;
use fray_core::Fault;
use fray_core::{CombatantId, Roster, Table};

/// The C&C ruleset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cnc;

impl Ruleset for Cnc {
    const ID: RulesetId = RulesetId::Cnc;
    type State = State;
    type Choice = Choice;

    fn roster(state: &State) -> &Roster {
        &state.roster
    }

    fn begin(state: &mut State, table: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        rules::round::begin(state, table)
    }

    fn play_round(state: &mut State, table: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        rules::round::play_round(state, table)
    }

    fn round_step(state: &mut State, table: &mut Table<'_, Self>) -> Result<bool, Interrupt> {
        rules::round::round_step(state, table)
    }

    /// The state with what no rule reads again forgotten, at a settled point of exact odds
    /// (see `rules::odds_key::odds_key`).
    fn odds_key(state: &State) -> std::borrow::Cow<'_, State> {
        rules::odds_key::odds_key(state)
    }

    fn outcome(state: &State) -> Outcome {
        state.outcome_by_side()
    }

    fn choice_text(state: &State, choice: &Choice) -> String {
        choice::text(state, choice)
    }

    fn parse_choice(
        state: &State,
        _request: &ChoiceRequest<'_, Choice>,
        text: &str,
    ) -> Result<Choice, Illegal> {
        choice::parse(state, text)
    }

    fn answers(question: fray_core::protocol::Question, choice: &Choice) -> bool {
        choice::answers(question, choice)
    }

    fn check_choice(
        state: &State,
        request: &ChoiceRequest<'_, Choice>,
        choice: &Choice,
    ) -> Result<(), Illegal> {
        match request.chooser {
            Chooser::Combatant(id) => {
                rules::legal::check(true, state, id, request.question, choice)
            }
            Chooser::Gm => {
                if request.options.contains(choice) {
                    Ok(())
                } else {
                    Err(Illegal {
                        rule: request.rule,
                        reason: "not among the options offered".into(),
                    })
                }
            }
        }
    }

    fn tallies(state: &State, out: &mut Vec<fray_core::Tally>) {
        out.clear();
        out.extend(
            state
                .fighters
                .iter()
                .zip(state.profiles.iter())
                .enumerate()
                .map(|(i, (f, p))| fray_core::Tally {
                    dealt: f.dealt,
                    taken: f.taken,
                    ..fray_core::Tally::single(
                        f.side,
                        f.hp,
                        p.max_hp,
                        state.standing(CombatantId(i as u16)),
                    )
                }),
        );
    }

    fn tactics(state: &State, request: &ChoiceRequest<'_, Choice>) -> Choice {
        tactics::choose(state, request)
    }

    fn conditions(state: &State, who: CombatantId) -> Vec<String> {
        let f = state.f(who);
        let mut out: Vec<String> = f.conditions.iter().map(|c| c.key().to_string()).collect();
        if let Some(by) = f.held_by {
            out.push(format!("held by {}", state.roster.key(by)));
        }
        if f.casting.is_some() {
            out.push("casting".to_string());
        }
        out
    }

    fn intervene(
        state: &mut State,
        table: &mut Table<'_, Self>,
        intervention: &fray_core::intervention::Intervention,
    ) -> Result<(), Interrupt> {
        rules::intervene::intervene(state, table, intervention)
    }
}

impl RulesetBundle for Cnc {
    type Content = Content;
    const CONTENT_FILES: &'static [(&'static str, &'static str)] = &content::CONTENT_FILES;
    const RULES: RuleStatus = RuleStatus {
        prefix: "CNC-R",
        total: 22,
        missing: &[],
        partial: &[],
    };
    const CRITICALS: Criticals = Criticals::None;
    const SINGLE_ATTACK: AttackPlay<Self> = single_attack;
    const ROUTINE: Option<fray_core::ruleset::RoutineBlow<Self>> = Some(routine_blow);

    fn load(path: &str, text: &str, content: &Content) -> Result<Encounter, FileErrors> {
        encounter::load(path, text, content)
    }

    fn content_tables(content: &Content) -> Vec<fray_core::catalog::ContentTable> {
        content.tables()
    }

    const SITUATIONS: &'static [(&'static str, &'static str)] = situation::SITUATIONS;

    fn set_situation(
        state: &mut State,
        attacker: CombatantId,
        target: CombatantId,
        situation: &fray_core::ruleset::Situation,
    ) -> Result<(), String> {
        situation::set(state, attacker, target, situation)
    }
}

impl Board for State {
    fn combatant_count(&self) -> usize {
        self.fighters.len()
    }
    /// A fallen body still fills its square; only the dead are cleared away.
    fn piece(&self, who: CombatantId) -> Piece {
        let f = self.f(who);
        Piece::new(f.side, f.pos, f.is_up(), f.present())
    }
    /// Up, down or dead — or gone, on the CK's word (C&C has no morale rule).
    fn standing(&self, who: CombatantId) -> fray_core::Standing {
        let f = self.f(who);
        if let Some(gone) = f.gone {
            gone
        } else if f.is_up() {
            fray_core::Standing::Up
        } else if f.dead {
            fray_core::Standing::Dead
        } else {
            fray_core::Standing::Down
        }
    }

    fn occupancy(&self) -> &fray_core::Occupancy {
        &self.occupancy
    }
}

/// How a single attack for `fray odds` opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opening {
    /// A shot from where the attacker stands.
    Shot,
    /// The melee routine, the attacker in reach.
    Melee,
    /// No attack is possible.
    Nothing,
}

/// Sets up a single attack for `fray odds`: a melee attacker that cannot reach is placed on the
/// nearest free square in front of the target (it is "engaged"); a combatant with only a
/// missile weapon, or out of melee with one, will shoot from where it stands (refused beyond
/// maximum range).
fn open_attack(
    state: &mut State,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<Opening, Interrupt> {
    state.round = 1;
    let reach = state.p(attacker).reach();
    let in_reach = state
        .f(attacker)
        .pos
        .within_reach(state.f(target).pos, reach);
    let has_melee =
        rules::attack::can_melee(state, attacker) && !state.p(attacker).melee.is_empty();
    if let (false, Some(weapon)) = (in_reach, &state.p(attacker).ranged) {
        // A shot beyond maximum range is illegal in a fight, so its odds are an error too.
        // [Seed: 6. Ranged Combat; CNC-R8.3]
        let d = state.f(attacker).pos.feet_to(state.f(target).pos);
        if rules::attack::range_band(weapon.range_increment, d) == rules::attack::Band::Beyond {
            return Err(Interrupt::Error(Fault::IllegalChoice {
                chooser: fray_core::protocol::Chooser::Combatant(attacker),
                text: format!("shoot {}", state.roster.key(target)),
                illegal: fray_core::Illegal {
                    rule: "CNC-R8.3",
                    reason: format!(
                        "{d} ft is beyond the {} ft maximum range",
                        3 * weapon.range_increment
                    ),
                },
            }));
        }
        return Ok(Opening::Shot);
    }
    if !has_melee {
        return Ok(Opening::Nothing);
    }
    if !in_reach {
        let at = state.f(target).pos;
        let facing = state.f(target).facing;
        let front = at.step(facing);
        let square = if rules::movement::free(state, front, attacker) {
            front
        } else {
            rules::movement::strike_square(state, attacker, target, reach, i32::MAX / 4)
                .unwrap_or(front)
        };
        state.set_square(attacker, square);
    }
    Ok(Opening::Melee)
}

/// One attack by `attacker` on `target` from the starting state, as `fray odds` enumerates it
/// (set up by [`open_attack`]): a shot, or the whole melee routine (CNC-R7.1).
pub fn single_attack(
    state: &mut State,
    table: &mut Table<'_, Cnc>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    match open_attack(state, attacker, target)? {
        Opening::Shot => rules::attack::shoot(state, table, attacker, target),
        Opening::Nothing => Ok(()),
        Opening::Melee => rules::attack::melee_routine(
            state,
            table,
            attacker,
            target,
            rules::attack::Manner::Normal,
            "",
            "CNC-R7.1",
        ),
    }
}

/// Blow `blow` of the same attack as [`single_attack`], for `fray odds --routine`: a shot is
/// one blow; a melee routine is one blow per attack form (CNC-R7.1), stopping when the target
/// falls, the set-up and facing before the first.
pub fn routine_blow(
    start: &State,
    state: &mut State,
    table: &mut Table<'_, Cnc>,
    attacker: CombatantId,
    target: CombatantId,
    blow: usize,
) -> Result<bool, Interrupt> {
    let opening = if blow == 0 {
        open_attack(state, attacker, target)?
    } else {
        open_attack(&mut start.clone(), attacker, target)?
    };
    match opening {
        Opening::Nothing => Ok(false),
        Opening::Shot if blow == 0 => {
            rules::attack::shoot(state, table, attacker, target).map(|()| true)
        }
        Opening::Shot => Ok(false),
        Opening::Melee => {
            if blow == 0 {
                rules::attack::face(state, attacker, target);
            }
            rules::attack::melee_blow(
                state,
                table,
                attacker,
                target,
                rules::attack::Manner::Normal,
                "",
                "CNC-R7.1",
                blow,
                start.f(attacker).disarmed,
            )
        }
    }
}
