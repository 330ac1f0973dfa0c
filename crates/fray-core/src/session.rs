//! A live fight: its setup plus the answers given so far, each recorded with who gave it (a
//! person or fray) and a fingerprint of the request it answered.
//!
//! [`advance`] replays the log from the start and goes on until the next request a *person*
//! must answer: requests for combatants fray plays are answered on the way by the default
//! tactics and seeded dice whose seed is derived from the answer's position in the log, so the
//! same log always replays to the same fight. A log whose answers no longer fit their requests
//! (the content or the rules changed) is reported at the first answer that does not fit, never
//! replayed into a different fight.

use crate::answer::check_roll_answer;
use crate::driver::Driver;
use crate::event::EventSink;
use crate::ids::CombatantId;
use crate::intervention::Intervention;
use crate::protocol::{Answer, ChoiceRequest, Chooser, Interrupt, Question, RollRequest, Rolled};
use crate::protocol::{Fault, Pause};
use crate::ruleset::Ruleset;
use crate::runner::{FightEnd, Limits};
use fray_dice::SeededDice;
use serde::{Deserialize, Serialize};

/// Who gave an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum By {
    /// A person at the table (the GM or a player).
    Person,
    /// fray: the default tactics, or dice it rolled.
    Fray,
}

/// One answer of the log.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Logged {
    /// The answer.
    pub answer: Answer,
    /// Who gave it.
    pub by: By,
    /// The fingerprint of the request it answered (see [`fingerprint_roll`]).
    pub fingerprint: u64,
    /// Whose request it answered: a combatant's key, or `gm` (absent for interventions), so
    /// a saved log reads as a script (`who: choice`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked: Option<String>,
}

/// Who is asked: a combatant (its roll or its choice), or the GM (the world's dice, rulings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Asked {
    /// A combatant.
    Combatant(CombatantId),
    /// The GM.
    Gm,
}

/// A request waiting for a person's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Dice to roll.
    Roll(RollRequest),
    /// A choice to make.
    Choice {
        /// Who decides.
        chooser: Chooser,
        /// What is decided.
        question: Question,
        /// The rule offering the choice.
        rule: &'static str,
        /// The legal options, as canonical text.
        options: Vec<String>,
    },
}

impl Request {
    /// Who is asked.
    pub fn asked(&self) -> Asked {
        match self {
            Request::Roll(r) => r.who.map_or(Asked::Gm, Asked::Combatant),
            Request::Choice { chooser, .. } => match chooser {
                Chooser::Combatant(id) => Asked::Combatant(*id),
                Chooser::Gm => Asked::Gm,
            },
        }
    }

    /// Its fingerprint.
    pub fn fingerprint(&self) -> u64 {
        match self {
            Request::Roll(r) => fingerprint_roll(r),
            Request::Choice {
                chooser,
                question,
                rule,
                ..
            } => fingerprint_choice(*chooser, *question, rule),
        }
    }
}

/// Where the replay of a log stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// A person must answer this request (the log has exactly `position` answers before it).
    Asks(Request),
    /// The fight is over.
    Ended(FightEnd),
    /// The log does not fit: the answer at `position` cannot answer its request.
    Broken {
        /// The index of the answer that does not fit.
        position: usize,
        /// Why.
        interrupt: Interrupt,
    },
}

/// FNV-1a over bytes: stable across runs, builds and platforms.
fn fnv(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.iter().chain(&[0xff]) {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// The fingerprint of an intervention at the first intervention point reached with its log
/// position (they answer no request: they wait at a point).
pub const INTERVENTION_FINGERPRINT: u64 = 0x1a7e_4b3c_9d2f_0e11;

/// The fingerprint of an intervention at the `visit`-th intervention point (from 0) reached
/// with the same log position: several points can pass with no answer between them (the end
/// of one segment or round and the start of the next), and the intervention belongs to the one
/// the GM stood at.
pub fn intervention_fingerprint(visit: u32) -> u64 {
    INTERVENTION_FINGERPRINT.wrapping_add(u64::from(visit))
}

/// The fingerprint of a roll request: its dice, roller, purpose and rule.
pub fn fingerprint_roll(request: &RollRequest) -> u64 {
    let who = request.who.map_or(u32::MAX, |c| u32::from(c.0));
    let purpose = serde_json::to_string(&request.purpose).unwrap_or_default();
    fnv(&[
        b"roll",
        request.dice_text().as_bytes(),
        &who.to_le_bytes(),
        purpose.as_bytes(),
        request.rule.as_bytes(),
    ])
}

/// The fingerprint of a choice request: its chooser, question and rule.
pub fn fingerprint_choice(chooser: Chooser, question: Question, rule: &str) -> u64 {
    let who = match chooser {
        Chooser::Combatant(c) => u32::from(c.0),
        Chooser::Gm => u32::MAX,
    };
    let question = serde_json::to_string(&question).unwrap_or_default();
    fnv(&[
        b"choice",
        &who.to_le_bytes(),
        question.as_bytes(),
        rule.as_bytes(),
    ])
}

/// The key of who is asked: a combatant's key, or `gm`.
pub fn asked_key(roster: &crate::roster::Roster, asked: Asked) -> String {
    match asked {
        Asked::Combatant(id) => roster.key(id).to_string(),
        Asked::Gm => "gm".to_string(),
    }
}

/// The seed of the dice fray rolls for the answer at `position` of a session seeded `seed`.
pub fn position_seed(seed: u64, position: usize) -> u64 {
    // SplitMix64's finaliser over seed and position: neighbouring positions get unrelated dice.
    let mut z = seed ^ (position as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The dice fray rolls for `request` with `seed`: one die's face, or every die of a pool (so
/// the log says what fell, and which were kept); a plain pool larger than
/// [`crate::protocol::MAX_POOL_DICE`] by its total.
pub fn fray_rolls(request: &RollRequest, seed: u64) -> Answer {
    let mut dice = SeededDice::new(seed);
    let faces: Vec<u32> = (0..request.count)
        .map(|_| dice.face(u32::from(request.sides)))
        .collect();
    if faces.len() == 1 || (faces.len() > crate::protocol::MAX_POOL_DICE && !request.needs_dice()) {
        Answer::Roll(faces.iter().sum())
    } else {
        Answer::Dice(faces)
    }
}

/// The session's driver, telling the caller where each round ended.
struct Checkpointing<'a, 'b, R: Ruleset> {
    inner: SessionDriver<'a>,
    round_over: &'b mut dyn FnMut(Resume, &R::State),
}

impl<R: Ruleset> Driver<R> for Checkpointing<'_, '_, R> {
    fn intervention(&mut self) -> Option<Intervention> {
        Driver::<R>::intervention(&mut self.inner)
    }
    fn wants_options(&self) -> bool {
        Driver::<R>::wants_options(&self.inner)
    }
    fn roll(&mut self, request: &RollRequest) -> Result<Rolled, Interrupt> {
        Driver::<R>::roll(&mut self.inner, request)
    }
    fn choose(
        &mut self,
        state: &R::State,
        request: &ChoiceRequest<'_, R::Choice>,
    ) -> Result<R::Choice, Interrupt> {
        Driver::<R>::choose(&mut self.inner, state, request)
    }
    fn round_over(&mut self, state: &R::State, round: u32) {
        let at = self.inner.next;
        let visits = if self.inner.visits_at == at {
            self.inner.visits
        } else {
            0
        };
        let resume = Resume {
            round,
            position: at,
            visits,
        };
        (self.round_over)(resume, state);
    }
}

/// Answers from the log, then fray's answers for those it plays, then a pause.
struct SessionDriver<'a> {
    roster: &'a crate::roster::Roster,
    log: &'a mut Vec<Logged>,
    next: usize,
    seed: u64,
    fray_plays: &'a dyn Fn(Asked) -> bool,
    /// Set when a logged answer's fingerprint does not match its request.
    mismatch: Option<usize>,
    /// The request a person must answer, when the replay paused.
    pending: Option<Request>,
    /// The log's length at the last intervention point reached (after its interventions), and
    /// which visit of a point with that length it was.
    last_point: Option<(usize, u32)>,
    /// Intervention points reached so far with the log's length at `visits_at`.
    visits: u32,
    /// The log length `visits` counts points at.
    visits_at: usize,
}

impl SessionDriver<'_> {
    fn logged(&mut self, fingerprint: u64) -> Option<Result<Answer, ()>> {
        let entry = self.log.get(self.next)?;
        if entry.fingerprint != fingerprint {
            self.mismatch = Some(self.next);
            return Some(Err(()));
        }
        self.next += 1;
        Some(Ok(entry.answer.clone()))
    }

    fn record(&mut self, answer: Answer, fingerprint: u64, asked: Asked) {
        let asked = Some(asked_key(self.roster, asked));
        self.log.push(Logged {
            answer,
            by: By::Fray,
            fingerprint,
            asked,
        });
        self.next += 1;
    }
}

impl<R: Ruleset> Driver<R> for SessionDriver<'_> {
    fn intervention(&mut self) -> Option<Intervention> {
        if self.visits_at != self.next {
            self.visits_at = self.next;
            self.visits = 0;
        }
        let visit = self.visits;
        self.visits += 1;
        let found = match self.log.get(self.next) {
            Some(Logged {
                answer: Answer::Intervene(intervention),
                fingerprint,
                ..
            }) if *fingerprint == intervention_fingerprint(visit) => Some(intervention.clone()),
            _ => None,
        };
        match found {
            Some(_) => self.next += 1,
            // The point's last call: a new intervention typed now would go here.
            None => self.last_point = Some((self.next, visit)),
        }
        found
    }

    /// Options are listed only once the log is used up (for the request a person may be asked):
    /// replaying logged answers needs none, and listing them is most of a replay's cost.
    fn wants_options(&self) -> bool {
        self.next >= self.log.len()
    }

    fn roll(&mut self, request: &RollRequest) -> Result<Rolled, Interrupt> {
        let fingerprint = fingerprint_roll(request);
        match self.logged(fingerprint) {
            Some(Ok(answer @ (Answer::Roll(_) | Answer::Dice(_)))) => {
                return check_roll_answer(request, &answer).map_err(Interrupt::from)
            }
            Some(Ok(other @ (Answer::Choice(_) | Answer::Intervene(_)))) => {
                return Err(Interrupt::Error(Fault::IllegalChoice {
                    chooser: Chooser::Gm,
                    text: other.to_string(),
                    illegal: crate::Illegal {
                        rule: request.rule,
                        reason: format!(
                            "a choice where a roll of {} is needed",
                            request.dice_text()
                        ),
                    },
                }))
            }
            Some(Err(())) => return Err(Interrupt::Pause(Pause::Roll(*request))),
            None => {}
        }
        let asked = request.who.map_or(Asked::Gm, Asked::Combatant);
        if (self.fray_plays)(asked) {
            let answer = fray_rolls(request, position_seed(self.seed, self.next));
            let rolled = check_roll_answer(request, &answer).map_err(Interrupt::from)?;
            self.record(answer, fingerprint, asked);
            return Ok(rolled);
        }
        self.pending = Some(Request::Roll(*request));
        Err(Interrupt::Pause(Pause::Roll(*request)))
    }

    fn choose(
        &mut self,
        state: &R::State,
        request: &ChoiceRequest<'_, R::Choice>,
    ) -> Result<R::Choice, Interrupt> {
        let fingerprint = fingerprint_choice(request.chooser, request.question, request.rule);
        let options = || -> Vec<String> {
            request
                .options
                .iter()
                .map(|c| R::choice_text(state, c))
                .collect()
        };
        match self.logged(fingerprint) {
            Some(Ok(Answer::Choice(text))) => {
                return R::parse_choice(state, request, &text).map_err(|illegal| {
                    Interrupt::Error(Fault::IllegalChoice {
                        chooser: request.chooser,
                        text,
                        illegal,
                    })
                })
            }
            Some(Ok(other @ (Answer::Roll(_) | Answer::Dice(_) | Answer::Intervene(_)))) => {
                return Err(Interrupt::Error(Fault::IllegalChoice {
                    chooser: request.chooser,
                    text: other.to_string(),
                    illegal: crate::Illegal {
                        rule: request.rule,
                        reason: "a number where a choice is needed".to_string(),
                    },
                }))
            }
            Some(Err(())) => {
                return Err(Interrupt::Pause(Pause::Choice {
                    chooser: request.chooser,
                    question: request.question,
                    rule: request.rule,
                    options: options(),
                }))
            }
            None => {}
        }
        let asked = match request.chooser {
            Chooser::Combatant(id) => Asked::Combatant(id),
            Chooser::Gm => Asked::Gm,
        };
        if (self.fray_plays)(asked) {
            let choice = R::tactics(state, request);
            self.record(
                Answer::Choice(R::choice_text(state, &choice)),
                fingerprint,
                asked,
            );
            return Ok(choice);
        }
        let pending = Request::Choice {
            chooser: request.chooser,
            question: request.question,
            rule: request.rule,
            options: options(),
        };
        self.pending = Some(pending.clone());
        let Request::Choice { options, .. } = pending else {
            unreachable!("built as a choice above")
        };
        Err(Interrupt::Pause(Pause::Choice {
            chooser: request.chooser,
            question: request.question,
            rule: request.rule,
            options,
        }))
    }
}

/// Where a replay stopped, and where the GM may intervene.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advanced {
    /// Where it stopped.
    pub stop: Stop,
    /// The log's length at the last intervention point the replay reached: an intervention
    /// typed now goes there (only fray's answers may follow it).
    pub last_point: Option<usize>,
    /// Which visit of an intervention point with that log length it was: an intervention
    /// there is logged with [`intervention_fingerprint`] of it.
    pub point_visit: u32,
}

/// Replays `log` from `start` and goes on until a person must answer, the fight ends, or the log
/// turns out not to fit. Answers fray gives on the way are appended to `log`. `state` ends as
/// the state at the stop; events go to `sink`.
pub fn advance<R: Ruleset>(
    state: &mut R::State,
    limits: &Limits,
    seed: u64,
    log: &mut Vec<Logged>,
    fray_plays: &dyn Fn(Asked) -> bool,
    sink: &mut dyn EventSink,
) -> Advanced {
    advance_from::<R>(
        state,
        None,
        limits,
        seed,
        log,
        fray_plays,
        sink,
        &mut |_, _| {},
    )
}

/// Where a replay may start instead of the beginning: the end of a round, the length of the
/// log then, and how many intervention points had been passed at that length. The state is the
/// caller's (a checkpoint it kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resume {
    /// The round that had just ended.
    pub round: u32,
    /// The answers the log held then.
    pub position: usize,
    /// Intervention points passed with the log at `position`.
    pub visits: u32,
}

/// [`advance`], starting from a checkpoint (`state` as it stood at `resume`, which the log's
/// first `resume.position` answers led to) or from the start, and calling `round_over(round,
/// position, state)` — a [`Resume`] and the state — at the end of every round the fight goes on
/// from, so the caller can keep checkpoints.
#[allow(clippy::too_many_arguments)]
pub fn advance_from<R: Ruleset>(
    state: &mut R::State,
    resume: Option<Resume>,
    limits: &Limits,
    seed: u64,
    log: &mut Vec<Logged>,
    fray_plays: &dyn Fn(Asked) -> bool,
    sink: &mut dyn EventSink,
    round_over: &mut dyn FnMut(Resume, &R::State),
) -> Advanced {
    let roster = R::roster(state).clone();
    let inner = SessionDriver {
        roster: &roster,
        log,
        next: resume.map_or(0, |r| r.position),
        seed,
        fray_plays,
        mismatch: None,
        pending: None,
        last_point: None,
        visits: resume.map_or(0, |r| r.visits),
        visits_at: resume.map_or(0, |r| r.position),
    };
    let mut driver = Checkpointing::<R> { inner, round_over };
    let result = match resume {
        None => crate::runner::run_fight_at::<R>(state, &mut driver, sink, None, limits),
        Some(r) => crate::runner::run_fight_after::<R>(
            state,
            r.round,
            u32::try_from(r.position).unwrap_or(u32::MAX),
            &mut driver,
            sink,
            limits,
        ),
    }
    .map_err(|halt| halt.interrupt);
    let driver = driver.inner;
    let last_point = driver.last_point;
    let stop = stop_of(
        result,
        driver.next,
        driver.mismatch,
        driver.pending,
        driver.log.len(),
    );
    Advanced {
        stop,
        last_point: last_point.map(|(at, _)| at),
        point_visit: last_point.map_or(0, |(_, visit)| visit),
    }
}

fn stop_of(
    result: Result<FightEnd, Interrupt>,
    next: usize,
    mismatch: Option<usize>,
    pending: Option<Request>,
    logged: usize,
) -> Stop {
    if let Some(position) = mismatch {
        let interrupt = match result {
            Err(i) => i,
            Ok(_) => Interrupt::Error(Fault::Limit("the answer log")),
        };
        return Stop::Broken {
            position,
            interrupt,
        };
    }
    match result {
        Ok(end) if next < logged => Stop::Broken {
            position: next,
            interrupt: Interrupt::Error(Fault::Limit(if end.stalemate() {
                "the fight's limits"
            } else {
                "the end of the fight"
            })),
        },
        Ok(end) => Stop::Ended(end),
        Err(Interrupt::Pause(Pause::Roll(_)) | Interrupt::Pause(Pause::Choice { .. }))
            if pending.is_some() =>
        {
            Stop::Asks(pending.unwrap_or_else(|| unreachable!("checked above")))
        }
        // An answer was refused (an impossible die, an illegal choice): it is the last one used.
        Err(interrupt) => Stop::Broken {
            position: next.saturating_sub(1),
            interrupt,
        },
    }
}
