//! fray-engine: the front door to every ruleset. Loads an encounter file of any ruleset into an
//! [`AnyEncounter`] (the delegating enum over [`RulesetId::ALL`]), runs fights with seeded or
//! scripted dice, replays answer logs, and computes exact single-attack odds.
//!
//! Front ends (CLI, server) use only this crate and the event types of `fray-core`.

#![forbid(unsafe_code)]

pub mod audit;
pub mod fight_odds;
pub mod input;
pub mod odds;
pub mod render;
pub mod routine_odds;
#[cfg(any(test, feature = "testkit"))]
pub mod testkit;

use fray_core::event::{Event, EventSink, NullSink, VecSink};
use fray_core::protocol::{Answer, Chooser, Interrupt, RollPurpose};
use fray_core::ruleset::{Ruleset, RulesetBundle, RulesetId};
use fray_core::span::{FileErrors, SourceFile};
use fray_core::{AutoDriver, FightEnd, Roster, ScriptedDriver};
use fray_core::{Fault, Pause};
use std::fmt;
use std::hash::{Hash, Hasher};

pub use odds::OddsReport;

/// Largest encounter file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Why an encounter could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The file has problems (all of them are listed).
    #[error("{0}")]
    File(FileErrors),
    /// The ruleset is known but not built yet.
    #[error("{path}: ruleset `{}` ({}) is not implemented yet; implemented: {}", .id.key(), .id.name(), implemented_keys())]
    NotImplemented {
        /// The path.
        path: String,
        /// The ruleset.
        id: RulesetId,
    },
}

/// The one registration list: each implemented ruleset's enum variant and type. It generates
/// [`AnyEncounter`], [`Library`], the loader's dispatch, [`IMPLEMENTED`] and `each_ruleset!`;
/// everything else a ruleset supplies comes from its [`RulesetBundle`] implementation.
macro_rules! register_rulesets {
    ($($(#[$doc:meta])* $Variant:ident => $R:ty),* $(,)?) => {
        /// An encounter of any ruleset.
        #[derive(Debug, Clone)]
        pub enum AnyEncounter {
            $($(#[$doc])* $Variant(Box<fray_core::Encounter<<$R as Ruleset>::State>>),)*
        }

        /// The content of every implemented ruleset, loaded once.
        #[derive(Debug, Clone)]
        #[allow(non_snake_case)]
        pub struct Library {
            $($Variant: <$R as RulesetBundle>::Content,)*
        }

        impl Library {
            /// Loads the embedded content of every ruleset.
            pub fn embedded() -> Result<Library, FileErrors> {
                Ok(Library {
                    $($Variant: <$R as RulesetBundle>::embedded_content()?,)*
                })
            }
        }

        /// The rulesets this build implements, in [`RulesetId::ALL`] order.
        pub const IMPLEMENTED: &[RulesetId] = &[$(<$R as Ruleset>::ID,)*];

        /// How much of its spec a ruleset implements (`None`: not built).
        pub fn rule_status(id: RulesetId) -> Option<fray_core::RuleStatus> {
            $(if id == <$R as Ruleset>::ID {
                return Some(<$R as RulesetBundle>::RULES);
            })*
            None
        }

        /// The content of ruleset `id` as `fray content` lists it (`None`: not built).
        pub fn content_tables(
            id: RulesetId,
            library: &Library,
        ) -> Option<Vec<fray_core::catalog::ContentTable>> {
            $(if id == <$R as Ruleset>::ID {
                return Some(<$R as RulesetBundle>::content_tables(&library.$Variant));
            })*
            None
        }

        /// Reads an encounter of ruleset `id` (`None`: not built).
        fn load_ruleset(
            id: RulesetId,
            path: &str,
            text: &str,
            library: &Library,
        ) -> Option<Result<AnyEncounter, FileErrors>> {
            $(if id == <$R as Ruleset>::ID {
                return Some(
                    <$R as RulesetBundle>::load(path, text, &library.$Variant)
                        .map(|e| AnyEncounter::$Variant(Box::new(e))),
                );
            })*
            None
        }

        /// Runs `$body` with `$e` bound to the encounter and `$R` to its ruleset type, whatever
        /// the variant.
        macro_rules! each_ruleset {
            ($value:expr, $e:ident, $RR:ident => $body:expr) => {
                match $value {
                    $(AnyEncounter::$Variant($e) => {
                        type $RR = $R;
                        $body
                    })*
                }
            };
        }
    };
}

register_rulesets! {
    /// Castles & Crusades.
    Cnc => fray_cnc::Cnc,
    /// Spelljammer d100 house rules.
    Spelljammer => fray_spelljammer::Spelljammer,
    /// "17 Combat" (B/X-style OSR).
    Osr => fray_osr::Osr,
    /// OD&D house rules.
    Odd => fray_odd::Odd,
    /// Legends of Celesia.
    Celesia => fray_celesia::Celesia,
}

pub mod session;

fn implemented_keys() -> String {
    IMPLEMENTED
        .iter()
        .map(|id| id.key())
        .collect::<Vec<_>>()
        .join(", ")
}

/// How to answer a fight's requests.
#[derive(Debug, Clone)]
pub struct FightOptions {
    /// Seed of the dice (used when no dice script is given).
    pub seed: u64,
    /// Use the encounter file's `[script]` (its dice unless `dice` is given, and its choices).
    /// `fray fight --seed N` turns it off, so a seeded fight is exactly run N of `fray sim`.
    pub script: bool,
    /// Scripted die faces (overrides the file's script and the seed).
    pub dice: Option<Vec<u32>>,
    /// Round limit (overrides the file's).
    pub max_rounds: Option<u32>,
    /// Every request must be answered by the script, dice and choices (`fray fight --strict`,
    /// the golden cases): the first one that is not stops the fight with an error naming it.
    pub strict: bool,
}

impl Default for FightOptions {
    fn default() -> Self {
        FightOptions {
            seed: 0,
            script: true,
            dice: None,
            max_rounds: None,
            strict: false,
        }
    }
}

impl FightOptions {
    /// Seeded dice and default tactics only: what `fray sim` plays for a run seed.
    pub fn seeded(seed: u64) -> Self {
        FightOptions {
            seed,
            script: false,
            dice: None,
            max_rounds: None,
            strict: false,
        }
    }
}

/// A fight that was played.
#[derive(Debug, Clone)]
pub struct FightRecord {
    /// How it ended.
    pub end: FightEnd,
    /// What happened, with rounds (empty if events were not kept).
    pub events: Vec<(u32, Event)>,
    /// Every answer given: with the encounter, this replays the fight.
    pub answers: Vec<Answer>,
    /// A hash of the final state.
    pub state_hash: u64,
    /// The dice came from the seed (not from a script).
    pub seeded: bool,
    /// Scripted choices (`who: text`) that no request used: a script that does not fit the
    /// fight, worth a warning.
    pub unused_choices: Vec<String>,
    /// Scripted dice that no roll used (also worth a warning).
    pub unused_dice: usize,
    /// Requests the script's choices did not answer, so the default tactics chose (a fight
    /// that is not strict), and the first of them: who, which question, the rule.
    pub by_tactics: (
        usize,
        Option<(Chooser, fray_core::protocol::Question, &'static str)>,
    ),
}

/// A fight stopped by a request the driver could not or would not answer (a pause nobody can
/// answer here: a script ran out) or by an answer that does not fit (an error).
#[derive(Debug, Clone)]
pub struct FightError {
    /// The interrupt.
    pub interrupt: Interrupt,
    /// The round it happened in (0 = before the first round).
    pub round: u32,
    /// Which answer of the fight (from 1, over every roll, choice and intervention) was being
    /// asked for or did not fit.
    pub answer: u32,
    /// Its explanation in words, saying where: `round 2, answer 15: illegal choice …`.
    pub message: String,
}

impl FightError {
    fn new(halt: fray_core::Halt, roster: &Roster) -> Self {
        let message = format!(
            "round {}, answer {}: {}",
            halt.round,
            halt.answer,
            explain(&halt.interrupt, roster)
        );
        FightError {
            interrupt: halt.interrupt,
            round: halt.round,
            answer: halt.answer,
            message,
        }
    }
}

impl fmt::Display for FightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FightError {}

/// Explains an interrupt with the names of the roster.
pub fn explain(interrupt: &Interrupt, roster: &Roster) -> String {
    let who = |c: Chooser| match c {
        Chooser::Gm => "the GM".to_string(),
        Chooser::Combatant(id) => roster.name(id).to_string(),
    };
    let purpose = |p: RollPurpose| match p {
        RollPurpose::Initiative => "initiative",
        RollPurpose::Surprise => "surprise",
        RollPurpose::Attack => "attack",
        RollPurpose::Damage => "damage",
        RollPurpose::Check => "check",
        RollPurpose::Other => "roll",
    };
    let roller = |r: &fray_core::RollRequest| {
        r.who
            .map_or("the GM".to_string(), |id| roster.name(id).to_string())
    };
    match interrupt {
        Interrupt::Pause(Pause::Roll(r)) => format!(
            "the dice script ran out: {} needed for {}'s {} ({})",
            r.dice_text(),
            roller(r),
            purpose(r.purpose),
            r.rule
        ),
        Interrupt::Pause(Pause::Choice {
            chooser,
            question,
            rule,
            options,
        }) => format!(
            "no answer for {}'s {} ({rule}); options: {}",
            who(*chooser),
            match question {
                fray_core::protocol::Question::Declaration => "declaration",
                fray_core::protocol::Question::Action => "action",
                fray_core::protocol::Question::Reaction => "reaction",
                fray_core::protocol::Question::Ruling => "ruling",
            },
            options.join(", ")
        ),
        Interrupt::Error(Fault::BadRoll {
            request,
            value,
            dice_used,
        }) => format!(
            "die result {value} is impossible for {}: {}'s {} ({}){}",
            request.dice_text(),
            roller(request),
            purpose(request.purpose),
            request.rule,
            dice_used.map_or(String::new(), |n| format!(
                "; {n} scripted dice had been used before it"
            ))
        ),
        Interrupt::Error(Fault::BadAnswer(error)) => {
            let r = error.request();
            format!(
                "the answer for {}'s {} ({}) does not fit: {error}",
                roller(r),
                purpose(r.purpose),
                r.rule
            )
        }
        Interrupt::Error(Fault::IllegalChoice {
            chooser,
            text,
            illegal,
        }) => {
            format!("illegal choice `{text}` for {}: {illegal}", who(*chooser))
        }
        Interrupt::Error(Fault::Limit(what)) => format!("limit reached: {what}"),
        Interrupt::Error(Fault::Recurrence { at }) => {
            format!("an exact enumeration's branch came back to the node after roll {at}")
        }
    }
}

fn hash_of<T: Hash>(value: &T) -> u64 {
    // FNV-1a: stable across runs and platforms (std's DefaultHasher is not guaranteed to be).
    struct Fnv(u64);
    impl Hasher for Fnv {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for b in bytes {
                self.0 ^= u64::from(*b);
                self.0 = self.0.wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    value.hash(&mut h);
    h.finish()
}

fn play<R: Ruleset>(
    start: &R::State,
    limits: &fray_core::Limits,
    script_dice: &[u32],
    choices: &[fray_core::driver::ScriptedChoice],
    options: &FightOptions,
    keep_events: bool,
) -> Result<FightRecord, FightError> {
    let mut state = start.clone();
    let mut limits = *limits;
    if let Some(r) = options.max_rounds {
        limits.max_rounds = r.clamp(1, fray_core::Limits::MAX_ROUNDS_CEILING);
    }
    let (script_dice, choices): (&[u32], &[fray_core::driver::ScriptedChoice]) = if options.script {
        (script_dice, choices)
    } else {
        (&[], &[])
    };
    let dice = options
        .dice
        .clone()
        .or_else(|| (!script_dice.is_empty()).then(|| script_dice.to_vec()));
    // A strict fight takes its dice from the script only (none scripted: the first roll stops it).
    let dice = if options.strict {
        Some(dice.unwrap_or_default())
    } else {
        dice
    };
    let seeded = dice.is_none();
    let mut answers = Vec::new();
    let mut events = VecSink::default();
    let mut null = NullSink;
    let sink: &mut dyn EventSink = if keep_events { &mut events } else { &mut null };
    let mut unused_choices = Vec::new();
    let mut unused_dice = 0;
    let mut by_tactics = (0, None);
    let result = match dice {
        Some(faces) => {
            let mut driver = ScriptedDriver::new(faces, choices.to_vec());
            if options.strict {
                driver = driver.strict();
            }
            let result = fray_core::run_fight_at::<R>(
                &mut state,
                &mut driver,
                sink,
                Some(&mut answers),
                &limits,
            );
            unused_choices = driver.unused_choices();
            unused_dice = driver.faces_left();
            by_tactics = driver.by_tactics();
            result
        }
        None if !choices.is_empty() => {
            let mut driver = SeededScripted::new(options.seed, choices.to_vec());
            let result = fray_core::run_fight_at::<R>(
                &mut state,
                &mut driver,
                sink,
                Some(&mut answers),
                &limits,
            );
            unused_choices = driver.choices.unused_choices();
            by_tactics = driver.choices.by_tactics();
            result
        }
        None => {
            let mut driver = AutoDriver::new(options.seed);
            fray_core::run_fight_at::<R>(&mut state, &mut driver, sink, Some(&mut answers), &limits)
        }
    };
    match result {
        Ok(end) => Ok(FightRecord {
            end,
            events: events.events,
            answers,
            state_hash: hash_of(&state),
            seeded,
            unused_choices,
            unused_dice,
            by_tactics,
        }),
        Err(halt) => Err(FightError::new(halt, R::roster(&state))),
    }
}

/// Seeded dice with scripted choices first (then the default tactics).
struct SeededScripted {
    dice: AutoDriver,
    choices: ScriptedDriver,
}

impl SeededScripted {
    fn new(seed: u64, choices: Vec<fray_core::driver::ScriptedChoice>) -> Self {
        SeededScripted {
            dice: AutoDriver::new(seed),
            choices: ScriptedDriver::new(Vec::new(), choices),
        }
    }
}

impl<R: Ruleset> fray_core::Driver<R> for SeededScripted {
    fn wants_options(&self) -> bool {
        false
    }
    fn roll(&mut self, request: &fray_core::RollRequest) -> Result<fray_core::Rolled, Interrupt> {
        fray_core::Driver::<R>::roll(&mut self.dice, request)
    }
    fn choose(
        &mut self,
        state: &R::State,
        request: &fray_core::ChoiceRequest<'_, R::Choice>,
    ) -> Result<R::Choice, Interrupt> {
        fray_core::Driver::<R>::choose(&mut self.choices, state, request)
    }
}

fn simulate_generic<R: Ruleset>(
    start: &R::State,
    limits: &fray_core::Limits,
    seed: u64,
    max_rounds: Option<u32>,
    tallies: &mut Vec<fray_core::Tally>,
) -> Result<FightEnd, FightError> {
    let mut state = start.clone();
    let mut limits = *limits;
    if let Some(r) = max_rounds {
        limits.max_rounds = r.clamp(1, fray_core::Limits::MAX_ROUNDS_CEILING);
    }
    let mut driver = AutoDriver::new(seed);
    let mut sink = NullSink;
    match fray_core::run_fight_at::<R>(&mut state, &mut driver, &mut sink, None, &limits) {
        Ok(end) => {
            R::tallies(&state, tallies);
            Ok(end)
        }
        Err(halt) => Err(FightError::new(halt, R::roster(&state))),
    }
}

fn replay_generic<R: Ruleset>(
    start: &R::State,
    limits: &fray_core::Limits,
    answers: &[Answer],
) -> Result<u64, FightError> {
    let mut state = start.clone();
    let mut sink = NullSink;
    let mut driver = fray_core::driver::ReplayDriver::new(answers);
    match fray_core::run_fight_at::<R>(&mut state, &mut driver, &mut sink, None, limits) {
        Ok(_) => Ok(hash_of(&state)),
        Err(halt) => Err(FightError::new(halt, R::roster(&state))),
    }
}

impl AnyEncounter {
    /// Reads and validates an encounter file.
    pub fn load(path: &str, library: &Library) -> Result<AnyEncounter, LoadError> {
        // Bounded whatever the source (FIFO, /dev/zero, `<(yes)`): at most the limit + 1 bytes.
        let text = input::read_file_limited(path, MAX_FILE_BYTES).map_err(|e| LoadError::Io {
            path: path.to_string(),
            message: e.to_string(),
        })?;
        AnyEncounter::from_text(path, &text, library)
    }

    /// Reads an encounter from text (`path` names it in errors).
    /// Text longer than [`MAX_FILE_BYTES`] is refused before it is parsed.
    pub fn from_text(path: &str, text: &str, library: &Library) -> Result<AnyEncounter, LoadError> {
        if text.len() as u64 > MAX_FILE_BYTES {
            let message = input::ReadError::TooLarge {
                limit: MAX_FILE_BYTES,
            }
            .to_string();
            return Err(LoadError::Io {
                path: path.to_string(),
                message,
            });
        }
        let file = SourceFile::new(path, text);
        let id =
            fray_core::encounter::read_header(&file).map_err(|e| LoadError::File(FileErrors(e)))?;
        match load_ruleset(id, path, text, library) {
            Some(loaded) => loaded.map_err(LoadError::File),
            None => Err(LoadError::NotImplemented {
                path: path.to_string(),
                id,
            }),
        }
    }

    /// The ruleset.
    pub fn ruleset(&self) -> RulesetId {
        each_ruleset!(self, _e, R => <R as Ruleset>::ID)
    }

    /// The encounter's name.
    pub fn name(&self) -> &str {
        each_ruleset!(self, e, _R => &e.name)
    }

    /// Whether the file has a `[script]` (dice or choices).
    pub fn has_script(&self) -> bool {
        each_ruleset!(self, e, _R => !e.dice.is_empty() || !e.choices.is_empty())
    }

    /// Who is in it.
    pub fn roster(&self) -> &Roster {
        each_ruleset!(self, e, _R => &e.state.roster)
    }

    /// Plays the fight to its end.
    pub fn fight(
        &self,
        options: &FightOptions,
        keep_events: bool,
    ) -> Result<FightRecord, FightError> {
        each_ruleset!(self, e, R => play::<R>(
            &e.state,
            &e.limits,
            &e.dice,
            &e.choices,
            options,
            keep_events,
        ))
    }

    /// Plays one fight as fast as possible (seeded dice, default tactics, no events, no log) and
    /// fills `tallies` with each combatant's standing at the end. The simulator's inner loop.
    pub fn simulate(
        &self,
        seed: u64,
        max_rounds: Option<u32>,
        tallies: &mut Vec<fray_core::Tally>,
    ) -> Result<FightEnd, FightError> {
        each_ruleset!(self, e, R => {
            simulate_generic::<R>(&e.state, &e.limits, seed, max_rounds, tallies)
        })
    }

    /// The round limit the file sets (or the default).
    pub fn limits(&self) -> fray_core::Limits {
        each_ruleset!(self, e, _R => e.limits)
    }

    /// Replays an answer log and returns the final state's hash.
    pub fn replay(&self, answers: &[Answer]) -> Result<u64, FightError> {
        each_ruleset!(self, e, R => replay_generic::<R>(&e.state, &e.limits, answers))
    }

    /// Plays one fight with seeded dice, listing and checking every option offered and every
    /// tactics choice (see [`audit`]). Returns the number of options checked.
    pub fn audit_choices(&self, seed: u64) -> Result<usize, audit::AuditFailure> {
        each_ruleset!(self, e, R => audit::audit_choices::<R>(&e.state, &e.limits, seed))
    }

    /// One sampled single attack (the Monte Carlo counterpart of [`AnyEncounter::odds`]).
    pub fn sample_attack(
        &self,
        attacker: &str,
        target: &str,
        seed: u64,
    ) -> Result<odds::Sample, odds::OddsFailure> {
        each_ruleset!(self, e, R => odds::sample_single_attack::<R>(
            &e.state,
            attacker,
            target,
            <R as RulesetBundle>::SINGLE_ATTACK,
            seed,
        ))
    }

    /// Exact odds of one attack from the starting state.
    pub fn odds(&self, attacker: &str, target: &str) -> Result<OddsReport, odds::OddsFailure> {
        self.odds_in(attacker, target, &fray_core::ruleset::Situation::default())
    }

    /// Exact odds of one attack from the starting state set up as `situation` says (the
    /// weapon, flank or rear, cover…; see [`RulesetBundle::set_situation`]).
    pub fn odds_in(
        &self,
        attacker: &str,
        target: &str,
        situation: &fray_core::ruleset::Situation,
    ) -> Result<OddsReport, odds::OddsFailure> {
        each_ruleset!(self, e, R => {
            let state = situated::<R>(&e.state, attacker, target, situation)?;
            odds::single_attack::<R>(
                &state,
                attacker,
                target,
                <R as RulesetBundle>::SINGLE_ATTACK,
                <R as RulesetBundle>::CRITICALS,
            )
        })
    }

    /// The exact distribution of the fight after its first round (the default tactics
    /// choosing), at most `max_states` distinct end states.
    pub fn round_odds(
        &self,
        max_states: usize,
    ) -> Result<fight_odds::RoundReport, odds::OddsFailure> {
        each_ruleset!(self, e, R => fight_odds::round_report::<R>(&e.state, &e.limits, max_states))
    }

    /// The exact chances of the whole fight (the default tactics choosing), at most
    /// `max_states` distinct states at one round's end, within a budget of `work` units of work
    /// (at most, and by default, `fray_core::fight_odds::MAX_FIGHT_BRANCHES`: `fray odds --fight
    /// --max-work`); `max_rounds` overrides the file's limit.
    pub fn fight_odds(
        &self,
        max_states: usize,
        max_rounds: Option<u32>,
        work: usize,
    ) -> Result<fight_odds::FightReport, odds::OddsFailure> {
        each_ruleset!(self, e, R => {
            let mut limits = e.limits;
            if let Some(r) = max_rounds {
                limits.max_rounds = r.clamp(1, fray_core::Limits::MAX_ROUNDS_CEILING);
            }
            let begin = fray_core::fight_odds::Point::Begin;
            fight_odds::fight_report_at::<R>(&e.state, begin, 0, &limits, max_states, work)
        })
    }

    /// The exact outcome of `attacker`'s whole action on `target` (every blow of its routine),
    /// from the starting state set up as `situation` says; at most `max_states` distinct
    /// states between blows. Refused for a ruleset without a routine hook.
    pub fn routine_odds(
        &self,
        attacker: &str,
        target: &str,
        situation: &fray_core::ruleset::Situation,
        max_states: usize,
    ) -> Result<routine_odds::RoutineReport, odds::OddsFailure> {
        each_ruleset!(self, e, R => {
            let Some(blow_of) = <R as RulesetBundle>::ROUTINE else {
                return Err(odds::OddsFailure::Enumeration(format!(
                    "--routine is not available for {} yet (issue 17): use --attacker/--target \
                     alone for one attack, or `fray sim`",
                    self.ruleset().name()
                )));
            };
            let state = situated::<R>(&e.state, attacker, target, situation)?;
            routine_odds::routine_report::<R>(&state, attacker, target, blow_of, max_states)
        })
    }

    /// The situational options `fray odds --situation` accepts for this encounter's ruleset.
    pub fn situations(&self) -> &'static [(&'static str, &'static str)] {
        each_ruleset!(self, _e, R => <R as RulesetBundle>::SITUATIONS)
    }
}

/// The starting state of `fray odds` set up as `situation` says (the weapon, flank or rear,
/// cover…; see [`RulesetBundle::set_situation`]); unknown keys are left to the odds to report.
fn situated<R: RulesetBundle>(
    start: &R::State,
    attacker: &str,
    target: &str,
    situation: &fray_core::ruleset::Situation,
) -> Result<R::State, odds::OddsFailure> {
    let mut state = start.clone();
    if !situation.is_empty() {
        let roster = <R as Ruleset>::roster(&state);
        let (a, t) = (roster.find(attacker), roster.find(target));
        if let (Some(a), Some(t)) = (a, t) {
            R::set_situation(&mut state, a, t, situation).map_err(odds::OddsFailure::Situation)?;
        }
    }
    Ok(state)
}

/// What `fray rulesets` shows for a ruleset.
#[derive(Debug, Clone)]
pub struct RulesetInfo {
    /// The id.
    pub id: RulesetId,
    /// Rules implemented.
    pub implemented: usize,
    /// Rules in the spec.
    pub rules: usize,
}

/// Every ruleset with its implementation count.
pub fn rulesets() -> Vec<RulesetInfo> {
    RulesetId::ALL
        .into_iter()
        .map(|id| {
            let rules = usize::from(id.spec_rules());
            let implemented = rule_status(id).map_or(0, |r| r.implemented());
            RulesetInfo {
                id,
                implemented,
                rules,
            }
        })
        .collect()
}
