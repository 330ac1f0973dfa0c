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

    /// Settled points after the declarations and first attacks and after each turn on an
    /// initiative count (ODD-R4, R16; see `rules::round::round_step`).
    fn round_step(state: &mut State, table: &mut Table<'_, Self>) -> Result<bool, Interrupt> {
        rules::round::round_step(state, table)
    }

    /// Tallies, the dead's hit points, expired round marks and initiative values forgotten
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
                // The DM's rulings come from one list, keyed on the asking rule.
                if request.options.contains(choice)
                    || choice::rulings(request.rule).contains(choice)
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
        partial: &[],
    };
    const CRITICALS: Criticals = Criticals::CriticalAndFumble;
    const SINGLE_ATTACK: AttackPlay<Self> = single_attack;
    const ROUTINE: Option<fray_core::ruleset::RoutineBlow<Self>> = Some(routine_blow);

    fn load(path: &str, text: &str, content: &Content) -> Result<Encounter, FileErrors> {
        encounter::load(path, text, content)
    }

    fn content_tables(content: &Content) -> Vec<fray_core::catalog::ContentTable> {
        content.tables()
    }

    fn set_situation(
        state: &mut State,
        attacker: CombatantId,
        _target: CombatantId,
        situation: &fray_core::ruleset::Situation,
    ) -> Result<(), String> {
        choose_weapon(state, attacker, situation)
    }
}

impl Board for State {
    fn combatant_count(&self) -> usize {
        self.fighters.len()
    }
    /// The dead, those gone from the fight and the swallowed (inside their swallower, on its
    /// square, ODD-R12.4) no longer fill their squares.
    fn piece(&self, who: CombatantId) -> Piece {
        let f = self.f(who);
        let blocks = !f.dead && f.gone.is_none() && f.swallowed_by.is_none();
        Piece::new(f.side, f.pos, f.is_up(), blocks)
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

/// How an attack for `fray odds` opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opening {
    /// A shot from where the attacker stands.
    Shot,
    /// Melee, the attacker closed in.
    Melee,
    /// No attack is possible (no melee form and no shot).
    Nothing,
}

/// Sets up an attack for `fray odds`: round 1; a shot when the attacker has a missile weapon
/// and the target is in range but not in melee; otherwise melee, closing in first.
fn open_attack(state: &mut State, attacker: CombatantId, target: CombatantId) -> Opening {
    state.round = 1;
    let shoot = !state.in_melee(attacker, target)
        && rules::legal::range_modifier(state, attacker, target).is_some();
    if shoot {
        return if state.p(attacker).missile.is_some() {
            Opening::Shot
        } else {
            Opening::Nothing
        };
    }
    if state.p(attacker).melee.is_empty() {
        return Opening::Nothing;
    }
    if let Some((to, _)) = rules::legal::approach(state, attacker, target) {
        state.set_square(attacker, to);
    }
    Opening::Melee
}

/// One shot of `attacker`'s missile weapon at `target` (ODD-R8).
fn shot(
    state: &mut State,
    table: &mut Table<'_, Odd>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    let Some(w) = state.p(attacker).missile.clone() else {
        return Ok(());
    };
    let form = state::Form::of_weapon(&w);
    let manner = rules::attack::Manner {
        missile: true,
        ..rules::attack::Manner::default()
    };
    rules::attack::attack(state, table, attacker, target, &form, manner, "ODD-R8")?;
    Ok(())
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
    match open_attack(state, attacker, target) {
        Opening::Shot => shot(state, table, attacker, target),
        Opening::Melee => {
            let Some(form) = state.p(attacker).melee.first().cloned() else {
                return Ok(());
            };
            let manner = rules::attack::Manner::default();
            rules::attack::attack(state, table, attacker, target, &form, manner, "ODD-R16.1")?;
            Ok(())
        }
        Opening::Nothing => Ok(()),
    }
}

/// Blow `blow` of `attacker`'s whole action on `target`, for `fray odds --routine`, set up as
/// [`single_attack`] is: a shot is one blow; a melee action is the attacks of ODD-R10.1, R10.2
/// ([`rules::round::attack_count`]: every form of a monster, several attacks against Normal
/// Men), each played by [`rules::round::melee_blow`], the function a fight's melee series
/// runs; all of them, as one action (the fight's split of a character's attacks on Normal Men
/// around the round, ODD-A8, is timing only). They stop when the target falls: a fight forgoes
/// the rest or turns them on another Normal Man, which changes nothing for this target.
/// Merging between blows is sound: the count, the forms and where they start are judged from
/// `start` alone (as a fight fixes them when its series begins), and a blow leaves everything
/// else it does in the state.
pub fn routine_blow(
    start: &State,
    state: &mut State,
    table: &mut Table<'_, Odd>,
    attacker: CombatantId,
    target: CombatantId,
    blow: usize,
) -> Result<bool, Interrupt> {
    let mut opened = start.clone();
    let opening = open_attack(&mut opened, attacker, target);
    if blow == 0 {
        open_attack(state, attacker, target);
    }
    match opening {
        Opening::Shot if blow == 0 => shot(state, table, attacker, target).map(|()| true),
        Opening::Shot | Opening::Nothing => Ok(false),
        Opening::Melee => {
            let (n, _) = rules::round::attack_count(&opened, attacker, target);
            let first = rules::attack::Manner::default();
            let (forms, from) = rules::round::series_forms(&opened, attacker, first);
            if blow >= n.max(0) as usize || forms.is_empty() || !state.f(target).is_up() {
                return Ok(false);
            }
            rules::round::melee_blow(
                state,
                table,
                attacker,
                target,
                blow,
                &forms,
                from,
                first,
                "ODD-R16.1",
            )?;
            Ok(true)
        }
    }
}

/// `fray odds --weapon NAME` for OD&D: keeps only the named melee form(s) or the missile
/// weapon; the second weapon is set aside (OD&D takes no other situational option).
fn choose_weapon(
    state: &mut State,
    attacker: CombatantId,
    situation: &fray_core::ruleset::Situation,
) -> Result<(), String> {
    let Some(weapon) = situation.only_weapon("odd")? else {
        return Ok(());
    };
    let mut profiles = state.profiles.to_vec();
    let p = &mut profiles[attacker.index()];
    fray_core::ruleset::keep_named_weapon(
        state.roster.name(attacker),
        weapon,
        &mut p.melee,
        &mut p.missile,
        |w| &w.name,
        |w| &w.name,
    )?;
    p.offhand = None;
    state.profiles = std::sync::Arc::new(profiles);
    Ok(())
}
