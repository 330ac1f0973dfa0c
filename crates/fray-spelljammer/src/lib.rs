//! Spelljammer d100 house-rules combat (seed `003_abb45db44eb0a0ba.txt`, spec `spelljammer.md`)
//! on the fray engine.
//!
//! [`Spelljammer`] implements [`fray_core::Ruleset`]. The round is a count of segments from the
//! highest initiative down to −5 (the ruleset's own clock, never seen by the core): every attack
//! has its own initiative, movement happens between segments 10 and 1, spells go off a casting
//! time after they start. Rules live in [`rules`]; content is data in `content/spelljammer/`.

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
use fray_core::{CombatantId, Roster, Table};

/// The Spelljammer ruleset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Spelljammer;

impl Ruleset for Spelljammer {
    const ID: RulesetId = RulesetId::Spelljammer;
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

    /// Tallies and how far below 0 the fallen stand forgotten (see
    /// `rules::odds_key::odds_key`).
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
        use fray_core::protocol::Question;
        match choice {
            Choice::Declare(_) => question == Question::Declaration,
            Choice::Retarget(_) => question == Question::Ruling,
            Choice::Yes | Choice::No => {
                matches!(question, Question::Reaction | Question::Ruling)
            }
            Choice::Push(_) => question == Question::Reaction,
        }
    }

    fn check_choice(
        state: &State,
        request: &ChoiceRequest<'_, Choice>,
        choice: &Choice,
    ) -> Result<(), Illegal> {
        match request.chooser {
            Chooser::Combatant(id) => rules::legal::check(state, id, request, choice),
            Chooser::Gm => rules::legal::check_ruling(state, request, choice),
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
        let mut out = Vec::new();
        for (has, name) in [
            (f.stunned, "stunned"),
            (f.weapon_dropped, "weapon dropped"),
            (f.held, "holding its action"),
            (f.invisible, "invisible"),
            (f.casting.is_some(), "casting"),
        ] {
            if has {
                out.push(name.to_string());
            }
        }
        out.extend(
            f.stuck
                .iter()
                .map(|s| rules::strike::stuck_condition(s.missile).to_string()),
        );
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

impl RulesetBundle for Spelljammer {
    type Content = Content;
    const CONTENT_FILES: &'static [(&'static str, &'static str)] = &content::CONTENT_FILES;
    const RULES: RuleStatus = RuleStatus {
        prefix: "SJ-R",
        total: 23,
        missing: &[],
        partial: &[],
    };
    const CRITICALS: Criticals = Criticals::Grievous;
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
    /// Only combatants still up block a square; fallen ones do not.
    fn piece(&self, who: CombatantId) -> Piece {
        let f = self.f(who);
        Piece::new(f.side, f.pos, f.is_up(), !f.down)
    }
    /// Up, down or dead — or gone on the GM's word (no morale rule: nobody flees by the rules).
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

/// One attack by `attacker` on `target` from the starting state, as `fray odds` enumerates it:
/// the first attack of a round with the attacker standing in reach (a melee attacker out of reach
/// is placed next to the target; a combatant with only a ranged weapon shoots).
pub fn single_attack(
    state: &mut State,
    table: &mut Table<'_, Spelljammer>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    rules::strike::single_attack(state, table, attacker, target)
}

/// Blow `blow` of `attacker`'s attacks this round on `target`, for `fray odds --routine`, set up
/// as [`single_attack`] is (round 1, in reach or shooting): its attacks with the default
/// declaration ([`rules::round::attacks_kept`]: the monster's or character's `attacks`, each
/// form in turn, SJ-R2), one after another as if no one else acted between them; each is
/// [`rules::round::blow`], what a fight plays on each attack's segment. They stop when the
/// target is down (a fight turns the rest on another foe, SJ-R1.2, which changes nothing for
/// this target) or the attacker can no longer act (stunned, SJ-R11.1). Merging between blows is
/// sound: the count is judged from the starting state, and everything a blow leaves for the
/// next (damage, stun, PROT worn by a grievous hit, the attacks made) is in the state.
pub fn routine_blow(
    start: &State,
    state: &mut State,
    table: &mut Table<'_, Spelljammer>,
    attacker: CombatantId,
    target: CombatantId,
    blow: usize,
) -> Result<bool, Interrupt> {
    let mut opened = start.clone();
    let Some(ranged) = rules::strike::open_attack(&mut opened, attacker, target)? else {
        return Ok(false);
    };
    if blow == 0 {
        rules::strike::open_attack(state, attacker, target)?;
    }
    let (attacks, _) = rules::round::attacks_kept(&opened, attacker, 0);
    let f = state.f(attacker);
    let able = f.is_up() && !f.stunned && !f.plan.actions_lost;
    if blow >= usize::from(attacks) || !able || !state.f(target).is_up() {
        return Ok(false);
    }
    rules::round::blow(state, table, attacker, target, blow as u8, ranged)?;
    Ok(true)
}
