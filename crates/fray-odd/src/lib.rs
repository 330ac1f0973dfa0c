//! OD&D house-rules combat (seed `004_6a582973b5aa35ae.txt`, spec `odd.md`) on the fray engine:
//! surprise, distance, the reaction roll, initiative once per encounter per group, fighters'
//! split attacks against Normal Men, morale by group with flight and pursuit, and mass combat.
//!
//! [`Odd`] implements [`fray_core::Ruleset`]. Rules live in [`rules`]; content (weapons,
//! armour, classes, monsters, spells, the DM's tables) is data in `content/odd/`.

#![forbid(unsafe_code)]

pub mod choice;
pub mod content;
pub mod encounter;
pub mod rules;
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
use fray_core::{CombatantId, Roster, Standing, Table};

/// The OD&D ruleset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Odd;

impl Ruleset for Odd {
    const ID: RulesetId = RulesetId::Odd;
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
                if request.options.contains(choice)
                    || matches!(choice, Choice::Fight | Choice::Parley)
                {
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
        out.extend(state.ids().map(|id| {
            let (f, p) = (state.f(id), state.p(id));
            fray_core::Tally {
                dealt: f.dealt,
                taken: f.taken,
                figures: p.figures,
                figures_left: state.men_alive(id),
                ..fray_core::Tally::single(f.side, f.hp, f.max_hp, state.standing(id))
            }
        }));
    }

    fn tactics(state: &State, request: &ChoiceRequest<'_, Choice>) -> Choice {
        tactics::choose(state, request)
    }

    fn conditions(state: &State, who: CombatantId) -> Vec<String> {
        let f = state.f(who);
        let mut out = Vec::new();
        if state.groups[usize::from(f.group)].routed {
            out.push("routed".to_string());
        }
        if state.groups[usize::from(f.group)].fearless() {
            out.push("fights to the death".to_string());
        }
        if f.caught {
            out.push("caught fleeing".to_string());
        }
        if state.p(who).is_unit() {
            out.push(format!(
                "{} of {} men",
                state.men_alive(who),
                state.p(who).figures
            ));
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

impl RulesetBundle for Odd {
    type Content = Content;
    const CONTENT_FILES: &'static [(&'static str, &'static str)] = &content::CONTENT_FILES;
    const RULES: RuleStatus = RuleStatus {
        prefix: "ODD-R",
        total: 32,
        missing: &[],
        partial: &[10, 13, 17, 19, 27, 30],
    };
    const CRITICALS: Criticals = Criticals::CriticalAndFumble;
    const SINGLE_ATTACK: AttackPlay<Self> = single_attack;

    fn load(path: &str, text: &str, content: &Content) -> Result<Encounter, FileErrors> {
        encounter::load(path, text, content)
    }

    fn content_tables(content: &Content) -> Vec<fray_core::catalog::ContentTable> {
        content.tables()
    }
}

impl Board for State {
    fn combatant_count(&self) -> usize {
        self.fighters.len()
    }
    /// The dead and those gone from the fight no longer fill their squares.
    fn piece(&self, who: CombatantId) -> Piece {
        let f = self.f(who);
        Piece::new(f.side, f.pos, f.is_up(), !f.dead && f.gone.is_none())
    }
    /// Up, dead, or gone: fled (a failed morale check, a retreat not caught, a parley),
    /// surrendered or captured (the DM's ruling).
    fn standing(&self, who: CombatantId) -> Standing {
        let f = self.f(who);
        if let Some(gone) = f.gone {
            gone
        } else if f.is_up() {
            Standing::Up
        } else if f.dead {
            Standing::Dead
        } else {
            Standing::Down
        }
    }
    fn occupancy(&self) -> &fray_core::Occupancy {
        &self.occupancy
    }
}

/// One attack by `attacker` on `target` from the starting state, as `fray odds` enumerates it:
/// a shot when it has a missile weapon and the target is in range but not in melee; otherwise
/// one melee blow of its first attack form (closing in first).
pub fn single_attack(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    state.round = 1;
    let manner = rules::attack::Manner::default();
    let shoot = !state.in_melee(attacker, target)
        && rules::legal::range_modifier(state, attacker, target).is_some();
    if shoot {
        let Some(w) = state.p(attacker).missile.clone() else {
            return Ok(());
        };
        let form = state::Form::of_weapon(&w);
        let manner = rules::attack::Manner {
            missile: true,
            ..manner
        };
        rules::attack::attack(state, table, attacker, target, &form, manner, "ODD-R8")?;
        return Ok(());
    }
    let Some(form) = state.p(attacker).melee.first().cloned() else {
        return Ok(());
    };
    if let Some((to, _)) = rules::legal::approach(state, attacker, target) {
        state.set_square(attacker, to);
    }
    rules::attack::attack(state, table, attacker, target, &form, manner, "ODD-R16.1")?;
    Ok(())
}
