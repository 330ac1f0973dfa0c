//! Drivers answer the rules' requests: seeded dice with the default tactics, scripts, replays.

use crate::answer::check_roll_answer;
use crate::protocol::{
    Answer, ChoiceRequest, Chooser, Illegal, Interrupt, Question, RollRequest, Rolled,
    MAX_POOL_DICE,
};
use crate::protocol::{Fault, Pause};
use crate::ruleset::Ruleset;
use fray_dice::SeededDice;
use std::collections::VecDeque;

/// Answers roll and choice requests.
pub trait Driver<R: Ruleset> {
    /// The requested dice: each die with the request's keep applied, or (a plain pool only)
    /// just their total. The table checks the total is possible.
    fn roll(&mut self, request: &RollRequest) -> Result<Rolled, Interrupt>;
    /// The total of the requested dice without them: the same answer, and the same draws, as
    /// [`Driver::roll`]. The table asks this for a pool that sums every die when the rules want
    /// only its total, so a driver may override it with a faster path (the seeded driver sums
    /// its faces without keeping them: the simulator's hot path).
    #[inline]
    fn roll_total(&mut self, request: &RollRequest) -> Result<u32, Interrupt> {
        self.roll(request).map(|rolled| rolled.total())
    }
    /// Dice of which the rules read only the order of their totals, answered at once with a
    /// face for each ([`crate::Table::roll_ranked`]): exact odds branch once per order
    /// ([`crate::ranked`]) and the probes weigh a roll by its orders. `None` (the default, and
    /// for every driver that plays one path) has the table roll them one by one with
    /// [`Driver::roll`], the same requests, draws and log as ever.
    fn roll_ranked(
        &mut self,
        dice: &[crate::ranked::RankedDie],
    ) -> Option<Result<Vec<u32>, Interrupt>> {
        let _ = dice;
        None
    }
    /// The GM's next intervention waiting at this intervention point, if any (a live session
    /// or a replayed log; other drivers have none).
    fn intervention(&mut self) -> Option<crate::intervention::Intervention> {
        None
    }
    /// Whether the driver needs the legal options listed (a person or a replay does; a tactics
    /// policy that reasons for itself does not).
    fn wants_options(&self) -> bool {
        true
    }
    /// False only for drivers whose choices all come from the ruleset's own default tactics,
    /// which are legal by construction (a property test holds every ruleset to it); the table
    /// then skips re-checking them. Everything else is checked.
    fn needs_checking(&self) -> bool {
        true
    }
    /// One of the options (or any choice: the table checks its legality). `request.options` is
    /// empty when [`Driver::wants_options`] is false.
    fn choose(
        &mut self,
        state: &R::State,
        request: &ChoiceRequest<'_, R::Choice>,
    ) -> Result<R::Choice, Interrupt>;
    /// Round `round` is over and the fight goes on: `state` is where the next round starts (a
    /// live session keeps it as a checkpoint to replay from). Nothing by default.
    fn round_over(&mut self, state: &R::State, round: u32) {
        let _ = (state, round);
    }
    /// An exact enumeration's driver only: the rolls answered so far on the branch, which names
    /// a node of its tree ([`crate::Table::recurrence`]). `None` (the default) for every driver
    /// that plays one path (play, simulation, a replay, the probes): no cycle needs solving.
    fn position(&self) -> Option<u32> {
        None
    }
    /// An exact enumeration's driver only: a node of a cycle stands here
    /// ([`crate::Table::recurrence`]), the last of `path` (key, state and position of each node
    /// of the cycle on this branch, outermost first), reached from the scope that began after
    /// `scope` rolls. True when the enumeration has solved that node already: the branch stops
    /// there. False by default.
    fn recurrent_node(&mut self, scope: u32, path: &[(u64, R::State, u32)]) -> bool {
        let _ = (scope, path);
        false
    }
    /// A probe's driver only (the random paths that estimate an exact enumeration's size): the
    /// path came back to the node of a cycle that stood after `at` rolls
    /// ([`crate::Table::recurrence`]), where the enumeration stops a branch. True when the
    /// driver goes on from there as from that node (the tree under it is the node's own, so
    /// the path is weighed from the node's width again). False by default: the branch stops
    /// with [`crate::protocol::Fault::Recurrence`].
    fn came_back(&mut self, at: u32) -> bool {
        let _ = at;
        false
    }
}

/// Rolls a pool with the seeded source, one face per die in order (a plain pool draws exactly
/// what `SeededDice::roll_sum` draws, so seeds reproduce the same fights). The dice are kept
/// for pools of up to [`MAX_POOL_DICE`]; a larger plain pool gives its total only.
#[inline(never)]
fn roll_pool(dice: &mut SeededDice, request: &RollRequest) -> Rolled {
    let sides = u32::from(request.sides);
    if usize::from(request.count) > MAX_POOL_DICE {
        // Only plain pools get here (the table refuses larger kept pools).
        return Rolled::total_only(dice.roll_sum(u32::from(request.count), sides) as u32);
    }
    let mut rolled = Rolled::total_only(0);
    for _ in 0..request.count {
        rolled.push(dice.face(sides) as u16);
    }
    rolled.apply(request.keep);
    rolled
}

/// Seeded dice and the ruleset's default tactics: the simulator's driver and `fray fight`'s.
#[derive(Debug, Clone)]
pub struct AutoDriver {
    dice: SeededDice,
}

impl AutoDriver {
    /// A driver whose dice come from `seed`.
    pub fn new(seed: u64) -> Self {
        AutoDriver {
            dice: SeededDice::new(seed),
        }
    }
}

impl<R: Ruleset> Driver<R> for AutoDriver {
    fn wants_options(&self) -> bool {
        false
    }
    fn needs_checking(&self) -> bool {
        false
    }
    #[inline]
    fn roll(&mut self, request: &RollRequest) -> Result<Rolled, Interrupt> {
        Ok(roll_pool(&mut self.dice, request))
    }
    #[inline]
    fn roll_total(&mut self, request: &RollRequest) -> Result<u32, Interrupt> {
        if !request.keep.is_all() {
            return Ok(roll_pool(&mut self.dice, request).total());
        }
        // The draws of `roll_pool`, one face per die, without keeping the faces.
        let sides = u32::from(request.sides);
        Ok((0..request.count).map(|_| self.dice.face(sides)).sum())
    }
    fn choose(
        &mut self,
        state: &R::State,
        request: &ChoiceRequest<'_, R::Choice>,
    ) -> Result<R::Choice, Interrupt> {
        Ok(R::tactics(state, request))
    }
}

/// A scripted choice: `who` (a combatant key, or `gm`) and the choice's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptedChoice {
    /// `una`, `orc-2`, or `gm`.
    pub who: String,
    /// The choice as its canonical text, e.g. `charge orc-1`.
    pub text: String,
}

impl ScriptedChoice {
    /// Reads `who: text`.
    pub fn parse(line: &str) -> Option<ScriptedChoice> {
        let (who, text) = line.split_once(':')?;
        let (who, text) = (who.trim(), text.trim());
        if who.is_empty() || text.is_empty() {
            return None;
        }
        Some(ScriptedChoice {
            who: who.to_ascii_lowercase(),
            text: text.to_string(),
        })
    }
}

/// Scripted dice (face values, one per die, in order; a kept-dice request takes one per die
/// and keeps its highest or lowest) and scripted choices; choices not in the script come from
/// the default tactics. An exhausted dice script stops the fight with [`Pause::Roll`].
#[derive(Debug, Clone)]
pub struct ScriptedDriver {
    faces: VecDeque<u32>,
    choices: VecDeque<ScriptedChoice>,
    /// Dice used so far.
    used: usize,
    /// Every choice must come from the script too (`fray fight --strict`): a request no line
    /// answers stops the fight with [`Pause::Choice`] instead of asking the tactics.
    strict: bool,
    /// Requests no line answered, so the default tactics did (not strict), and the first of
    /// them (who, which question, the rule): `fray fight` says so rather than surprise anyone.
    by_tactics: (usize, Option<(Chooser, Question, &'static str)>),
}

impl ScriptedDriver {
    /// A driver over die faces and choices.
    pub fn new(faces: Vec<u32>, choices: Vec<ScriptedChoice>) -> Self {
        ScriptedDriver {
            faces: faces.into(),
            choices: choices.into(),
            used: 0,
            strict: false,
            by_tactics: (0, None),
        }
    }

    /// The same driver, strict: every request must be answered by the script.
    pub fn strict(mut self) -> Self {
        self.strict = true;
        self
    }

    /// Dice used so far.
    pub fn dice_used(&self) -> usize {
        self.used
    }

    /// The scripted choices no request used (`who: text`), in script order.
    pub fn unused_choices(&self) -> Vec<String> {
        self.choices
            .iter()
            .map(|c| format!("{}: {}", c.who, c.text))
            .collect()
    }

    /// Dice not used yet.
    pub fn faces_left(&self) -> usize {
        self.faces.len()
    }

    /// Scripted choices not used yet.
    pub fn choices_left(&self) -> &VecDeque<ScriptedChoice> {
        &self.choices
    }

    /// How many requests no scripted line answered (the default tactics chose), and the
    /// first of them: who, which question, the rule.
    pub fn by_tactics(&self) -> (usize, Option<(Chooser, Question, &'static str)>) {
        self.by_tactics
    }
}

fn chooser_key<R: Ruleset>(state: &R::State, chooser: Chooser) -> String {
    match chooser {
        Chooser::Gm => "gm".to_string(),
        Chooser::Combatant(id) => R::roster(state).key(id).to_ascii_lowercase(),
    }
}

impl<R: Ruleset> Driver<R> for ScriptedDriver {
    fn wants_options(&self) -> bool {
        // A strict script's unanswered request lists its options in the error.
        self.strict
    }
    fn roll(&mut self, request: &RollRequest) -> Result<Rolled, Interrupt> {
        if self.faces.len() < request.count as usize {
            return Err(Interrupt::Pause(Pause::Roll(*request)));
        }
        let known = usize::from(request.count) <= MAX_POOL_DICE;
        let mut rolled = Rolled::total_only(0);
        let mut total = 0;
        for _ in 0..request.count {
            let face = self.faces.pop_front().unwrap_or(0);
            if face < 1 || face > u32::from(request.sides) {
                return Err(Interrupt::Error(Fault::BadRoll {
                    request: *request,
                    value: face,
                    dice_used: Some(self.used),
                }));
            }
            self.used += 1;
            total += face;
            if known {
                rolled.push(face as u16);
            }
        }
        if !known {
            return Ok(Rolled::total_only(total));
        }
        rolled.apply(request.keep);
        Ok(rolled)
    }

    fn choose(
        &mut self,
        state: &R::State,
        request: &ChoiceRequest<'_, R::Choice>,
    ) -> Result<R::Choice, Interrupt> {
        let key = chooser_key::<R>(state, request.chooser);
        // A scripted choice answers the next request of its chooser that asks for its kind of
        // choice (a declaration, an action, a yes/no): the first line of that chooser whose kind
        // fits is used, even if lines for other choosers or other kinds come before it. Requests
        // no line answers get the default tactics.
        let mut first_of_chooser = true;
        for index in 0..self.choices.len() {
            let line = &self.choices[index];
            if line.who != key {
                continue;
            }
            match R::parse_choice(state, request, &line.text) {
                Ok(choice) if R::answers(request.question, &choice) => {
                    self.choices.remove(index);
                    return Ok(choice);
                }
                Ok(_) => {}
                // The chooser's next line cannot be read now: it was meant for this request.
                Err(illegal) if first_of_chooser => {
                    return Err(Interrupt::Error(Fault::IllegalChoice {
                        chooser: request.chooser,
                        text: line.text.clone(),
                        illegal,
                    }))
                }
                Err(_) => {}
            }
            first_of_chooser = false;
        }
        if self.strict {
            return Err(Interrupt::Pause(Pause::Choice {
                chooser: request.chooser,
                question: request.question,
                rule: request.rule,
                options: request
                    .options
                    .iter()
                    .map(|c| R::choice_text(state, c))
                    .collect(),
            }));
        }
        self.by_tactics.0 += 1;
        self.by_tactics
            .1
            .get_or_insert((request.chooser, request.question, request.rule));
        Ok(R::tactics(state, request))
    }
}

/// Answers from a recorded log, in order; stops with a `Need…` interrupt where it runs out.
#[derive(Debug, Clone)]
pub struct ReplayDriver<'a> {
    answers: &'a [Answer],
    next: usize,
}

impl<'a> ReplayDriver<'a> {
    /// A replay of `answers`.
    pub fn new(answers: &'a [Answer]) -> Self {
        ReplayDriver { answers, next: 0 }
    }

    /// Answers consumed so far.
    pub fn used(&self) -> usize {
        self.next
    }
}

impl<R: Ruleset> Driver<R> for ReplayDriver<'_> {
    fn intervention(&mut self) -> Option<crate::intervention::Intervention> {
        match self.answers.get(self.next) {
            Some(Answer::Intervene(intervention)) => {
                self.next += 1;
                Some(intervention.clone())
            }
            _ => None,
        }
    }

    fn roll(&mut self, request: &RollRequest) -> Result<Rolled, Interrupt> {
        match self.answers.get(self.next) {
            Some(answer @ (Answer::Roll(_) | Answer::Dice(_))) => {
                let rolled = check_roll_answer(request, answer).map_err(Interrupt::from)?;
                self.next += 1;
                Ok(rolled)
            }
            Some(other @ (Answer::Choice(_) | Answer::Intervene(_))) => {
                Err(Interrupt::Error(Fault::IllegalChoice {
                    chooser: Chooser::Gm,
                    text: other.to_string(),
                    illegal: Illegal {
                        rule: request.rule,
                        reason: format!(
                            "the log has a choice or an intervention where a roll of {} is needed",
                            request.dice_text()
                        ),
                    },
                }))
            }
            None => Err(Interrupt::Pause(Pause::Roll(*request))),
        }
    }

    fn choose(
        &mut self,
        state: &R::State,
        request: &ChoiceRequest<'_, R::Choice>,
    ) -> Result<R::Choice, Interrupt> {
        match self.answers.get(self.next) {
            Some(Answer::Choice(text)) => {
                self.next += 1;
                R::parse_choice(state, request, text).map_err(|illegal| {
                    Interrupt::Error(Fault::IllegalChoice {
                        chooser: request.chooser,
                        text: text.clone(),
                        illegal,
                    })
                })
            }
            Some(other @ (Answer::Roll(_) | Answer::Dice(_) | Answer::Intervene(_))) => {
                Err(Interrupt::Error(Fault::IllegalChoice {
                    chooser: request.chooser,
                    text: other.to_string(),
                    illegal: Illegal {
                        rule: request.rule,
                        reason: "the log has a roll or an intervention where a choice is needed"
                            .to_string(),
                    },
                }))
            }
            None => Err(Interrupt::Pause(Pause::Choice {
                chooser: request.chooser,
                question: request.question,
                rule: request.rule,
                options: request
                    .options
                    .iter()
                    .map(|c| R::choice_text(state, c))
                    .collect(),
            })),
        }
    }
}
