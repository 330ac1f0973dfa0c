//! "17 Combat", a B/X-style OSR chapter (seed `001_531e683ac1309b4e.txt`, spec `osr.md`), on the
//! fray engine.
//!
//! [`Osr`] implements [`fray_core::Ruleset`]. `begin` rolls surprise (one d20 per side);
//! `play_round` asks every combatant's declaration first (its whole action), rolls 1d6 + DEX
//! initiative, then counts down the initiative numbers resolving the declared actions, equal
//! numbers simultaneously. Parting shots, set weapons and long-reach interceptions are choices
//! asked of the reacting combatant. Content is data in `content/osr/`.

#![forbid(unsafe_code)]

pub mod choice;
pub mod content;
pub mod encounter;
pub mod rules;
pub mod state;
pub mod tactics;

use choice::Action;
pub use choice::Choice;
pub use content::Content;
pub use encounter::{load, Encounter};
pub use state::State;

use fray_core::board::Board;
use fray_core::protocol::{ChoiceRequest, Chooser, Illegal, Interrupt, Question};
use fray_core::ruleset::{
    AttackPlay, Criticals, Outcome, RuleStatus, Ruleset, RulesetBundle, RulesetId,
};
use fray_core::span::FileErrors;
use fray_core::{CombatantId, Roster, Table};

/// The OSR "17 Combat" ruleset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Osr;

impl Ruleset for Osr {
    const ID: RulesetId = RulesetId::Osr;
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

    /// Paused after the declarations and initiatives and after each action of the countdown
    /// (OSR-R3 to R5; see `rules::round::round_step`).
    fn round_step(state: &mut State, table: &mut Table<'_, Self>) -> Result<bool, Interrupt> {
        rules::round::round_step(state, table)
    }

    /// The state with what no rule reads again forgotten, at a settled point of exact odds
    /// (see `rules::odds_key::odds_key`).
    fn odds_key(state: &State) -> std::borrow::Cow<'_, State> {
        rules::odds_key::odds_key(state)
    }
    /// The same, with the marks past the round limit forgotten too (see
    /// `rules::odds_key::odds_key_within`).
    fn odds_key_within(state: &State, last: u32) -> std::borrow::Cow<'_, State> {
        rules::odds_key::odds_key_within(state, last)
    }

    fn outcome(state: &State) -> Outcome {
        state.outcome_by_side()
    }

    fn choice_text(state: &State, choice: &Choice) -> String {
        choice::text(state, choice)
    }

    fn parse_choice(
        state: &State,
        request: &ChoiceRequest<'_, Choice>,
        text: &str,
    ) -> Result<Choice, Illegal> {
        let who = match request.chooser {
            Chooser::Combatant(id) => Some(id),
            Chooser::Gm => None,
        };
        choice::parse(state, who, text)
    }

    fn answers(question: Question, choice: &Choice) -> bool {
        match choice {
            Choice::Declare(_) | Choice::DeclareThen(..) => question == Question::Declaration,
            Choice::Yes(_) | Choice::No => {
                question == Question::Reaction || question == Question::Ruling
            }
            Choice::Target(_) => question == Question::Action,
        }
    }

    fn check_choice(
        state: &State,
        request: &ChoiceRequest<'_, Choice>,
        choice: &Choice,
    ) -> Result<(), Illegal> {
        match request.chooser {
            Chooser::Combatant(id) => rules::legal::check(state, id, request, choice),
            Chooser::Gm => rules::legal::check_ruling(state, choice),
        }
    }

    fn tallies(state: &State, out: &mut Vec<fray_core::Tally>) {
        out.clear();
        out.extend(
            state
                .fighters
                .iter()
                .enumerate()
                .map(|(i, f)| fray_core::Tally {
                    dealt: f.dealt,
                    taken: f.taken,
                    ..fray_core::Tally::single(
                        f.side,
                        f.hp,
                        state.profiles[i].max_hp,
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
        let r = state.round;
        let mut out = Vec::new();
        for (has, name) in [
            (f.surprised && r <= 1, "surprised"),
            (f.dodging, "parrying and dodging"),
            (f.charging, "charging"),
            (f.prone, "prone"),
            (f.shaken_until >= r && f.shaken_until > 0, "shaken"),
            (f.blinded_until >= r && f.blinded_until > 0, "blinded"),
            (f.stumbling(r), "stumbling"),
            (f.disarmed, "disarmed"),
            (f.broken, "weapon broken"),
            (f.reloading_until >= r && f.reloading_until > 0, "reloading"),
            (f.fatigued, "fatigued"),
            (f.holding.is_some(), "holding a foe"),
            (f.held_by.is_some(), "held"),
            (f.burning_round > 0, "burning"),
            (f.nonlethal, "took non-lethal damage"),
        ] {
            if has {
                out.push(name.to_string());
            }
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

impl RulesetBundle for Osr {
    type Content = Content;
    const CONTENT_FILES: &'static [(&'static str, &'static str)] = &content::CONTENT_FILES;
    const RULES: RuleStatus = RuleStatus {
        prefix: "OSR-R",
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

    const SITUATIONS: &'static [(&'static str, &'static str)] = SITUATIONS;

    fn set_situation(
        state: &mut State,
        attacker: CombatantId,
        target: CombatantId,
        situation: &fray_core::ruleset::Situation,
    ) -> Result<(), String> {
        choose_weapon(state, attacker, situation)?;
        for (name, value) in &situation.options {
            set_strike(state, attacker, target, name, value)?;
        }
        Ok(())
    }
}

/// The options `fray odds --situation` accepts for OSR: how the melee action is made, stored
/// as the attacker's declared action (so a single attack, a whole routine and the odds from a
/// live session's pause read it alike).
pub const SITUATIONS: &[(&str, &str)] = &[
    (
        "charge",
        "the attacker charges the target: +2, double damage, no second weapon (OSR-R14.3)",
    ),
    (
        "set",
        "the attacker's weapon is set against the target's charge: double damage (OSR-R15.1)",
    ),
    (
        "flat",
        "with the flat of the blade: −4, half damage, non-lethal (OSR-R30.1)",
    ),
];

/// Sets one `--situation` option: the attacker's declared action (and, for `set`, the target's
/// charge at it, OSR-R14.4's −2 AC included). A charge needs a weapon suitable for one (or a
/// charging monster, OSR-R14.2) and a set a settable weapon (OSR-R15.1); the distance of the
/// charge is the scene the GM sets, not checked here.
fn set_strike(
    state: &mut State,
    attacker: CombatantId,
    target: CombatantId,
    name: &str,
    value: &str,
) -> Result<(), String> {
    let name_of = |state: &State| state.roster.name(attacker).to_string();
    let p = state.p(attacker);
    let action = match (name, value) {
        ("charge", "") => {
            if !(p.melee.iter().any(|w| w.charge) || (p.monster && p.charges)) {
                return Err(format!(
                    "{} has no weapon suitable for a charge (spear, lance, pole arm) (OSR-R14.2)",
                    name_of(state)
                ));
            }
            state.f_mut(attacker).charging = true;
            Action::Charge(target)
        }
        ("set", "") => {
            if !p.melee.first().is_some_and(|w| w.set) {
                return Err(format!(
                    "{} has no weapon that can be set against a charge (OSR-R15.1)",
                    name_of(state)
                ));
            }
            let t = state.f_mut(target);
            t.charging = true;
            t.plan.action = Action::Charge(attacker);
            Action::Set
        }
        ("flat", "") => Action::Attack {
            target,
            flat: true,
            then: None,
        },
        _ => {
            let known: Vec<&str> = SITUATIONS.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "unknown situation `{name}{}` for OSR; expected one of: {}",
                if value.is_empty() {
                    String::new()
                } else {
                    format!("={value}")
                },
                known.join(", ")
            ));
        }
    };
    state.f_mut(attacker).plan.action = action;
    Ok(())
}

/// How `attacker`'s melee blows at `target` are made, from its declared action (what
/// `--situation` sets): the flat of the blade (OSR-R30.1), a charge (OSR-R14.3), a set weapon
/// against the target's charge (OSR-R15.1); else plain.
fn strike_kind(state: &State, attacker: CombatantId, target: CombatantId) -> (bool, bool, bool) {
    match state.f(attacker).plan.action {
        Action::Attack {
            target: t, flat, ..
        } if t == target => (flat, false, false),
        Action::Charge(t) if t == target => (false, true, false),
        Action::Set if state.f(target).plan.action == Action::Charge(attacker) => {
            (false, false, true)
        }
        _ => (false, false, false),
    }
}

/// How an attack for `fray odds` opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opening {
    /// A shot: the attacker has only a missile weapon.
    Shot,
    /// Melee, the attacker next to the target.
    Melee,
}

/// Sets up an attack for `fray odds`: round 1, nobody surprised, the free attacks a fumble
/// grants not played (`single`); a melee attacker out of reach is placed next to the target;
/// one with only a missile weapon shoots from where it stands.
fn open_attack(state: &mut State, attacker: CombatantId, target: CombatantId) -> Opening {
    state.round = 1;
    state.single = true;
    for f in &mut state.fighters {
        f.surprised = false;
    }
    let p = state.p(attacker);
    if p.melee.is_empty() && p.missile.is_some() {
        return Opening::Shot;
    }
    if state.f(attacker).pos.squares_to(state.f(target).pos) > 1 {
        let at = state.f(target).pos;
        let spot = fray_core::Direction::ALL
            .into_iter()
            .map(|d| at.step(d))
            .find(|&sq| state.free(sq, attacker));
        if let Some(sq) = spot {
            state.set_square(attacker, sq);
        }
    }
    Opening::Melee
}

/// One attack by `attacker` on `target`, as `fray odds` enumerates it: a melee attacker out of
/// reach is placed next to the target; one with only a missile weapon shoots.
pub fn single_attack(
    state: &mut State,
    table: &mut Table<'_, Osr>,
    attacker: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    use rules::attack::{attack, Form, Strike};
    let strike = match open_attack(state, attacker, target) {
        Opening::Shot => Strike::new(Form::Missile, "missile", "OSR-R21"),
        Opening::Melee => {
            let (flat, charge, set) = strike_kind(state, attacker, target);
            let mut strike = match (charge, set) {
                (true, _) => Strike::new(Form::Melee(0), "charge", "OSR-R14.3"),
                (_, true) => Strike::new(Form::Melee(0), "set against the charge", "OSR-R15.1"),
                _ => Strike::new(Form::Melee(0), "melee", "OSR-R7.1"),
            };
            strike.flat = flat;
            strike.charge = charge;
            strike.set = set;
            strike
        }
    };
    attack(state, table, attacker, target, strike)?;
    Ok(())
}

/// Blow `blow` of `attacker`'s whole action on `target`, for `fray odds --routine`, set up as
/// [`single_attack`] is: a shot is one blow; a melee action is the blows of
/// [`rules::round::melee_blow`], exactly as a fight plays them (a monster's routine, OSR-R7.3;
/// the second weapon, OSR-R29; bare hands when nothing is ready, OSR-R31.4). Merging between
/// blows is sound: a blow reads only the state and whether a form was ready at the action's
/// start (recomputed here from `start`); a blow's lasting effects (damage, a crit's condition,
/// a fumble's dropped weapon) are all in the state, and the free attack a sloppy fumble grants
/// is not played in the odds (`single`).
pub fn routine_blow(
    start: &State,
    state: &mut State,
    table: &mut Table<'_, Osr>,
    attacker: CombatantId,
    target: CombatantId,
    blow: usize,
) -> Result<bool, Interrupt> {
    use rules::attack::{attack, Form, Strike};
    let mut opened = start.clone();
    let opening = open_attack(&mut opened, attacker, target);
    if blow == 0 {
        open_attack(state, attacker, target);
    }
    match opening {
        Opening::Shot if blow == 0 => {
            let strike = Strike::new(Form::Missile, "missile", "OSR-R21");
            attack(state, table, attacker, target, strike).map(|_| true)
        }
        Opening::Shot => Ok(false),
        Opening::Melee => {
            let (flat, charge, set) = strike_kind(&opened, attacker, target);
            let armed = rules::round::melee_armed(&opened, attacker, charge, set);
            rules::round::melee_blow(
                state, table, attacker, target, blow, flat, charge, set, armed,
            )
        }
    }
}

/// `fray odds --weapon NAME` for OSR: keeps only the named melee form(s) or the missile weapon;
/// the second weapon is set aside.
fn choose_weapon(
    state: &mut State,
    attacker: CombatantId,
    situation: &fray_core::ruleset::Situation,
) -> Result<(), String> {
    let Some(weapon) = &situation.weapon else {
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
