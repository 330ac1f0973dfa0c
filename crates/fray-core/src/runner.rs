//! The fight loop and the [`Table`] through which rules ask for rolls and choices.

use crate::answer::AnswerError;
use crate::driver::{Driver, ReplayDriver};
use crate::event::{Event, EventSink};
use crate::ids::{CombatantId, SideId};
use crate::protocol::Fault;
use crate::protocol::{
    Answer, ChoiceRequest, Chooser, Interrupt, Question, RollPurpose, RollRequest, Rolled,
    MAX_POOL_DICE,
};
use crate::ruleset::{EndReason, Outcome, Ruleset};

/// Limits on one fight's work; hitting one is an error or a stalemate, never a hang.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Rounds before the fight is called a stalemate.
    pub max_rounds: u32,
    /// Answers (rolls and choices) in one fight.
    pub max_answers: u32,
}

impl Limits {
    /// Hard ceiling on `max_rounds` accepted from files and flags.
    pub const MAX_ROUNDS_CEILING: u32 = 10_000;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_rounds: 100,
            max_answers: 1_000_000,
        }
    }
}

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FightEnd {
    /// The winning side, if any.
    pub winner: Option<SideId>,
    /// Rounds played.
    pub rounds: u32,
    /// Why it ended: the foes beaten down, routed, or a limit ([`EndReason::Limit`], a
    /// stalemate).
    pub reason: EndReason,
    /// The limit reached inside a round that stopped the fight (e.g. "answers per fight");
    /// `None` for the round limit and for fights that ended on their own.
    pub limit: Option<&'static str>,
}

impl FightEnd {
    /// True when a limit stopped the fight: the round limit, or a limit reached inside a round.
    pub fn stalemate(&self) -> bool {
        self.reason == EndReason::Limit
    }

    /// Won (by anyone) because the foes routed rather than fell.
    pub fn by_rout(&self) -> bool {
        self.reason == EndReason::Routed
    }
}

/// The rules' window on the world: dice and decisions come in, events go out.
pub struct Table<'a, R: Ruleset> {
    driver: &'a mut dyn Driver<R>,
    sink: &'a mut dyn EventSink,
    log: Option<&'a mut Vec<Answer>>,
    round: u32,
    answers: u32,
    max_answers: u32,
    scratch: Vec<R::Choice>,
    events: bool,
    /// The nodes this branch may come back to ([`Table::recurrence`]): key, state, position.
    recurrent: Vec<(u64, R::State, u32)>,
    /// Where the stretch that may lead to a cycle began ([`Table::recurrence_scope`]).
    scope: Option<u32>,
}

impl<R: Ruleset> std::fmt::Debug for Table<'_, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("round", &self.round)
            .field("answers", &self.answers)
            .finish()
    }
}

impl<'a, R: Ruleset> Table<'a, R> {
    /// A table over a driver and a sink; `log` records every answer when given.
    pub fn new(
        driver: &'a mut dyn Driver<R>,
        sink: &'a mut dyn EventSink,
        log: Option<&'a mut Vec<Answer>>,
        limits: &Limits,
    ) -> Self {
        let events = sink.enabled();
        Table {
            driver,
            sink,
            log,
            round: 0,
            answers: 0,
            max_answers: limits.max_answers,
            scratch: Vec::new(),
            events,
            recurrent: Vec::new(),
            scope: None,
        }
    }

    /// The current round (0 = before the first round, e.g. a surprise round).
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Sets the round (the runner does this).
    pub fn set_round(&mut self, round: u32) {
        self.round = round;
    }

    /// Sets the answers given so far in the fight (exact odds resume a fight inside a round).
    pub(crate) fn set_answers(&mut self, answers: u32) {
        self.answers = answers;
    }

    /// The answers given so far in the fight.
    pub(crate) fn answers(&self) -> u32 {
        self.answers
    }

    /// The start of a stretch of play that may lead to a cycle ([`Table::recurrence`]), when
    /// none is under way: the rules promise that once the cycle is left, what follows does not
    /// depend on the rolls answered since this mark except through the state. Exact odds then
    /// solve the cycle's nodes once for every branch from here that reaches them with an equal
    /// state. Nothing elsewhere.
    pub fn recurrence_scope(&mut self) {
        if self.recurrent.is_empty() {
            self.scope = self.driver.position();
        }
    }

    /// The head of a cycle the rules may go round without end inside one action (OSR's chain of
    /// free attacks after sloppy fumbles, OSR-R18.1): `key` names the place (who strikes whom),
    /// `state` is the whole state there. The rules promise that what follows the call depends
    /// only on `key` and `state` until [`Table::leave_recurrence`], and after it as after the
    /// outermost call (nothing of the cycle is left on the stack to do). In an exact
    /// enumeration, a call that meets an earlier one of the same branch, not yet left, with the
    /// same key and an equal state returns [`Fault::Recurrence`]: the branch has come back to
    /// that node, and the enumerator sums the cycle exactly (`crate::odds`); so does a node the
    /// enumerator has already solved from the same [`Table::recurrence_scope`]. A probe that
    /// comes back goes on, weighed from the node again ([`Driver::came_back`]). Everywhere else
    /// (play, simulation, replay) it does nothing: the cycle is played as it comes.
    /// Returns the mark to leave with.
    pub fn recurrence(&mut self, key: u64, state: &R::State) -> Result<usize, Interrupt> {
        let mark = self.recurrent.len();
        let Some(position) = self.driver.position() else {
            return Ok(mark);
        };
        if let Some(&(_, _, at)) = self
            .recurrent
            .iter()
            .find(|(k, s, _)| *k == key && s == state)
        {
            if self.driver.came_back(at) {
                return Ok(mark);
            }
            return Err(Interrupt::Error(Fault::Recurrence { at }));
        }
        self.recurrent.push((key, state.clone(), position));
        let scope = self.scope.unwrap_or(self.recurrent[0].2);
        if self.driver.recurrent_node(scope, &self.recurrent) {
            return Err(Interrupt::Error(Fault::Recurrence { at: position }));
        }
        Ok(mark)
    }

    /// The cycle entered at `mark` ([`Table::recurrence`]) is left: its nodes are forgotten, so
    /// a later, unrelated cycle with the same key and state is not taken for a return.
    pub fn leave_recurrence(&mut self, mark: usize) {
        self.recurrent.truncate(mark);
        if mark == 0 {
            self.scope = None;
        }
    }

    fn count_answer(&mut self) -> Result<(), Interrupt> {
        self.answers += 1;
        if self.answers > self.max_answers {
            return Err(Interrupt::Error(Fault::Limit("answers per fight")));
        }
        Ok(())
    }

    /// Asks for a roll and returns its total (of the kept dice), checked to be possible. A
    /// plain pool is logged as its total, a pool that keeps only some dice as its dice.
    // Small (the kept-dice path is out of line) and on the simulator's hot path: inlined into
    // every rule that rolls, as it was before requests could keep dice.
    #[inline(always)]
    pub fn roll(&mut self, request: RollRequest) -> Result<u32, Interrupt> {
        if !request.keep.is_all() {
            return Ok(self.ask_roll(request, false)?.total());
        }
        // Every die summed: only the total is asked for and logged (the simulator's hot path).
        self.count_answer()?;
        let value = self.driver.roll_total(&request)?;
        let (count, sides) = (u32::from(request.count), u32::from(request.sides));
        if value < count || value > count * sides {
            return Err(Interrupt::Error(Fault::BadRoll {
                request,
                value,
                dice_used: None,
            }));
        }
        if let Some(log) = self.log.as_deref_mut() {
            log.push(Answer::Roll(value));
        }
        Ok(value)
    }

    /// Asks for a roll and returns its dice and which were kept, not only the total. The dice
    /// are logged whenever the driver gave them (one die as its total, which is its face), so a
    /// replay gives the same dice back. They are unknown (see [`Rolled`]) for a plain pool of
    /// more than [`MAX_POOL_DICE`] dice, a plain pool answered with its total, and the
    /// exact-odds enumerator, which answers with kept totals.
    pub fn roll_pool(&mut self, request: RollRequest) -> Result<Rolled, Interrupt> {
        self.ask_roll(request, true)
    }

    /// [`Table::roll`] and [`Table::roll_pool`]: `dice` logs the dice of a plain pool too.
    /// A pool that keeps only some dice is refused past [`MAX_POOL_DICE`] dice, before the
    /// driver is asked.
    #[inline(never)]
    fn ask_roll(&mut self, request: RollRequest, dice: bool) -> Result<Rolled, Interrupt> {
        self.count_answer()?;
        if request.needs_dice() && usize::from(request.count) > MAX_POOL_DICE {
            return Err(Interrupt::Error(Fault::Limit("dice per kept-dice request")));
        }
        let rolled = self.driver.roll(&request)?;
        let value = rolled.total();
        if value < request.min_total() || value > request.max_total() {
            return Err(Interrupt::Error(Fault::BadRoll {
                request,
                value,
                dice_used: None,
            }));
        }
        if let Some(log) = self.log.as_deref_mut() {
            // One die's total is its face: the short form will do.
            let answer = if request.needs_dice() || (dice && request.count > 1) {
                rolled.dice_answer()
            } else {
                None
            };
            match answer {
                Some(answer) => log.push(answer),
                None if request.needs_dice() => {
                    return Err(Interrupt::Error(Fault::BadAnswer(
                        AnswerError::DiceNeeded {
                            request,
                            total: value,
                        },
                    )))
                }
                None => log.push(Answer::Roll(value)),
            }
        }
        Ok(rolled)
    }

    /// Shorthand for [`Table::roll`].
    pub fn roll_dice(
        &mut self,
        count: u16,
        sides: u16,
        who: Option<CombatantId>,
        purpose: RollPurpose,
        rule: &'static str,
    ) -> Result<u32, Interrupt> {
        self.roll(RollRequest::new(count, sides, who, purpose, rule))
    }

    /// One die for each of `dice` (one die a request), of which the rules read only the order
    /// of the totals (each face plus its die's modifier) among themselves: several
    /// combatants' initiative. `each` is handed each face in turn (with its index), as it
    /// would be right after that die was rolled alone. Play rolls them one by one with
    /// [`Table::roll`] (the same requests, draws, answers and log as rolling each in turn);
    /// exact odds answer them at once, one branch per order of the totals
    /// ([`crate::ranked`]), which is exact as long as nothing reads the totals but their
    /// order: each call site says why.
    pub fn roll_ranked(
        &mut self,
        dice: &[crate::ranked::RankedDie],
        mut each: impl FnMut(&mut Self, usize, u32) -> Result<(), Interrupt>,
    ) -> Result<(), Interrupt> {
        if crate::ranked::rankable(dice) {
            if let Some(faces) = self.driver.roll_ranked(dice) {
                let faces = faces?;
                for (i, (die, &face)) in dice.iter().zip(&faces).enumerate() {
                    self.count_answer()?;
                    if face < 1 || face > u32::from(die.request.sides) {
                        return Err(Interrupt::Error(Fault::BadRoll {
                            request: die.request,
                            value: face,
                            dice_used: None,
                        }));
                    }
                    if let Some(log) = self.log.as_deref_mut() {
                        log.push(Answer::Roll(face));
                    }
                    each(self, i, face)?;
                }
                return Ok(());
            }
        }
        for (i, die) in dice.iter().enumerate() {
            let face = self.roll(die.request)?;
            each(self, i, face)?;
        }
        Ok(())
    }

    /// One die whose faces the rules read only by class ([`crate::FaceClasses`]): played as
    /// [`Table::roll_dice`]; exact odds branch once per class.
    pub fn roll_classed(
        &mut self,
        sides: u16,
        classes: crate::FaceClasses,
        who: Option<CombatantId>,
        purpose: RollPurpose,
        rule: &'static str,
    ) -> Result<u32, Interrupt> {
        self.roll(RollRequest::new(1, sides, who, purpose, rule).in_classes(classes))
    }

    /// Rolls the dice of a damage expression and returns their total (0 for a flat amount,
    /// which asks nothing); the flat bonus is the rules' to add, as a modifier they can show.
    pub fn roll_damage(
        &mut self,
        dice: crate::damage::DamageDice,
        who: Option<CombatantId>,
        purpose: RollPurpose,
        rule: &'static str,
    ) -> Result<i32, Interrupt> {
        if dice.count == 0 {
            return Ok(0);
        }
        Ok(self.roll_dice(dice.count, dice.sides, who, purpose, rule)? as i32)
    }

    /// Asks `chooser` a question. `fill` lists the legal options; it runs only when the driver
    /// shows options (a person, a replay), so the simulator's tactics pay nothing for them. Every
    /// answer not among the listed options is checked with [`Ruleset::check_choice`], and a
    /// refusal names the rule. The request is always asked (never skipped for a single option),
    /// so every driver consumes the same answers.
    pub fn choose(
        &mut self,
        state: &R::State,
        chooser: Chooser,
        question: Question,
        rule: &'static str,
        fill: impl FnOnce(&mut Vec<R::Choice>),
    ) -> Result<R::Choice, Interrupt> {
        self.count_answer()?;
        let mut options = std::mem::take(&mut self.scratch);
        options.clear();
        if self.driver.wants_options() {
            fill(&mut options);
        }
        let request = ChoiceRequest {
            chooser,
            question,
            rule,
            options: &options,
        };
        let needs_checking = self.driver.needs_checking();
        let result = self.driver.choose(state, &request).and_then(|choice| {
            // Options offered are legal by construction (a property test holds every ruleset to
            // it); anything else is checked.
            if needs_checking && !request.options.contains(&choice) {
                R::check_choice(state, &request, &choice).map_err(|illegal| {
                    Interrupt::Error(Fault::IllegalChoice {
                        chooser,
                        text: R::choice_text(state, &choice),
                        illegal,
                    })
                })?;
            }
            Ok(choice)
        });
        self.scratch = options;
        let choice = result?;
        if let Some(log) = self.log.as_deref_mut() {
            log.push(Answer::Choice(R::choice_text(state, &choice)));
        }
        Ok(choice)
    }

    /// An intervention point: the GM's interventions waiting here are applied, in order, each
    /// logged as an answer and shown as a GM ruling. The runner calls it at every round's
    /// start; a ruleset calls it between actions. One the rules refuse stops the fight with
    /// [`Fault::IllegalChoice`] by the GM, naming the rule.
    pub fn intervention_point(&mut self, state: &mut R::State) -> Result<(), Interrupt> {
        while let Some(intervention) = self.driver.intervention() {
            self.count_answer()?;
            R::intervene(state, self, &intervention)?;
            if let Some(log) = self.log.as_deref_mut() {
                log.push(Answer::Intervene(intervention.clone()));
            }
            self.emit(|| Event::Ruling {
                rule: "GM",
                text: format!("GM intervention: {intervention}"),
            });
        }
        Ok(())
    }

    /// True when events are kept (build them only then).
    pub fn events_enabled(&self) -> bool {
        self.events
    }

    /// Emits an event, built only if the sink keeps events.
    pub fn emit(&mut self, build: impl FnOnce() -> Event) {
        if self.events {
            self.sink.push(self.round, build());
        }
    }
}

/// Where resolution stopped: the interrupt, the round, and which answer (counted from 1 over
/// every roll, choice and intervention of the fight) was being asked for or used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Halt {
    /// Why it stopped: a pause or an error.
    pub interrupt: Interrupt,
    /// The round (0 = before the first round).
    pub round: u32,
    /// The number of the answer being asked for (a pause) or that failed (an error).
    pub answer: u32,
}

/// Plays a fight to its end (or the round limit) from `state`.
///
/// `log`, when given, receives every answer; with the same setup, that list replays the fight.
pub fn run_fight<R: Ruleset>(
    state: &mut R::State,
    driver: &mut dyn Driver<R>,
    sink: &mut dyn EventSink,
    log: Option<&mut Vec<Answer>>,
    limits: &Limits,
) -> Result<FightEnd, Interrupt> {
    run_fight_at(state, driver, sink, log, limits).map_err(|halt| halt.interrupt)
}

/// [`run_fight`], saying where it stopped when it does not end (`fray fight` errors name the
/// round and the answer).
pub fn run_fight_at<R: Ruleset>(
    state: &mut R::State,
    driver: &mut dyn Driver<R>,
    sink: &mut dyn EventSink,
    log: Option<&mut Vec<Answer>>,
    limits: &Limits,
) -> Result<FightEnd, Halt> {
    let mut table = Table::new(driver, sink, log, limits);
    play_fight(state, &mut table, limits, None).map_err(|interrupt| Halt {
        interrupt,
        round: table.round,
        answer: table.answers,
    })
}

/// [`run_fight_at`] from the end of round `after` (a checkpoint: `state` as it stood then, and
/// `answers` answers given up to it): the next round starts at once, without `begin`.
pub fn run_fight_after<R: Ruleset>(
    state: &mut R::State,
    after: u32,
    answers: u32,
    driver: &mut dyn Driver<R>,
    sink: &mut dyn EventSink,
    limits: &Limits,
) -> Result<FightEnd, Halt> {
    let mut table = Table::new(driver, sink, None, limits);
    table.round = after;
    table.answers = answers;
    play_fight(state, &mut table, limits, Some(after)).map_err(|interrupt| Halt {
        interrupt,
        round: table.round,
        answer: table.answers,
    })
}

/// [`run_fight_at`] (`after` is `None`) or [`run_fight_after`], with `answers` given before
/// (the answers-per-fight limit counts them), returning also the answers given in all.
pub fn run_fight_counted<R: Ruleset>(
    state: &mut R::State,
    after: Option<u32>,
    answers: u32,
    driver: &mut dyn Driver<R>,
    sink: &mut dyn EventSink,
    limits: &Limits,
) -> Result<(FightEnd, u32), Halt> {
    let mut table = Table::new(driver, sink, None, limits);
    table.round = after.unwrap_or(0);
    table.answers = answers;
    match play_fight(state, &mut table, limits, after) {
        Ok(end) => Ok((end, table.answers)),
        Err(interrupt) => Err(Halt {
            interrupt,
            round: table.round,
            answer: table.answers,
        }),
    }
}

fn play_fight<R: Ruleset>(
    state: &mut R::State,
    table: &mut Table<'_, R>,
    limits: &Limits,
    after: Option<u32>,
) -> Result<FightEnd, Interrupt> {
    let mut end = FightEnd {
        winner: None,
        rounds: 0,
        reason: EndReason::Limit,
        limit: None,
    };
    // A limit reached inside the fight (answers per fight) ends it as a stalemate with that
    // reason, like the round limit: never an error for a legal fight.
    let within_limits = |result: Result<(), Interrupt>| match result {
        Ok(()) => Ok(None),
        Err(Interrupt::Error(Fault::Limit(what))) => Ok(Some(what)),
        Err(other) => Err(other),
    };
    // From a checkpoint the fight goes on with the next round; else it begins.
    let first = match after {
        Some(round) => {
            end.rounds = round;
            round + 1
        }
        None => {
            end.limit = within_limits(R::begin(state, table))?;
            1
        }
    };
    if end.limit.is_none() {
        let over_at_once = if after.is_none() {
            finished::<R>(state, 0)
        } else {
            None
        };
        if let Some(done) = over_at_once {
            end = done;
        } else {
            for round in first..=limits.max_rounds {
                table.set_round(round);
                table.emit(|| Event::RoundStarted);
                let stopped = within_limits(
                    table
                        .intervention_point(state)
                        .and_then(|()| R::play_round(state, table)),
                )?;
                end.rounds = round;
                if stopped.is_some() {
                    end.limit = stopped;
                    break;
                }
                if let Some(done) = finished::<R>(state, round) {
                    end = done;
                    break;
                }
                table.driver.round_over(state, round);
            }
        }
    }
    table.emit(|| Event::End {
        winner: end.winner,
        rounds: end.rounds,
        reason: end.reason,
        limit: end.limit,
        losers: losers::<R>(state, &end),
    });
    Ok(end)
}

pub(crate) fn finished<R: Ruleset>(state: &R::State, round: u32) -> Option<FightEnd> {
    let (winner, reason) = match R::outcome(state) {
        Outcome::Ongoing => return None,
        Outcome::Won(side, reason) => (Some(side), reason),
        Outcome::NoneStanding(reason) => (None, reason),
    };
    Some(FightEnd {
        winner,
        rounds: round,
        reason,
        limit: None,
    })
}

/// How each side that lost left a finished fight, in side order: routed when any of its members
/// fled, surrendered or was captured, else defeated. Empty for a stalemate. Built only for the
/// event log (it reads the tallies).
fn losers<R: Ruleset>(state: &R::State, end: &FightEnd) -> Vec<(SideId, EndReason)> {
    if end.stalemate() {
        return Vec::new();
    }
    let mut tallies = Vec::new();
    R::tallies(state, &mut tallies);
    let sides = R::roster(state).sides.len();
    (0..sides)
        .filter_map(|i| {
            let side = SideId(u8::try_from(i).ok()?);
            let mut members = tallies.iter().filter(|t| t.side == side).peekable();
            if Some(side) == end.winner || members.peek().is_none() {
                return None;
            }
            let routed = members.any(|t| t.has_routed());
            Some((side, EndReason::of_losers(routed)))
        })
        .collect()
}

/// Replays a recorded fight: `answers` must be the log of a fight from this `state`.
/// Stops with [`Pause::Roll`] / [`Pause::Choice`] where the log runs out.
pub fn replay<R: Ruleset>(
    state: &mut R::State,
    answers: &[Answer],
    sink: &mut dyn EventSink,
    limits: &Limits,
) -> Result<FightEnd, Interrupt> {
    let mut driver = ReplayDriver::new(answers);
    run_fight::<R>(state, &mut driver, sink, None, limits)
}
