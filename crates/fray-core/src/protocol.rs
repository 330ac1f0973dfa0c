//! The request/answer protocol between rules and drivers.
//!
//! Rules ask for a [`RollRequest`] (a pool of dice, all summed or only the highest or lowest
//! few kept, answered as a [`Rolled`]: its total and, when known, each die) or a
//! [`ChoiceRequest`] (whose choice, the legal options, the rule that offers them). Every answer is
//! recorded as an [`Answer`]; the list of answers plus the setup *is* the fight.

use crate::ids::CombatantId;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What a roll is for (shown to the person who rolls; also lets a driver weight rolls).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RollPurpose {
    /// Initiative.
    Initiative,
    /// Surprise check.
    Surprise,
    /// An attack roll.
    Attack,
    /// Damage.
    Damage,
    /// An attribute check or saving throw.
    Check,
    /// Anything else (falling, bleeding, morale…).
    Other,
}

/// Most dice in a request that keeps only some of its dice, and in a roll answered die by die
/// (typed, or in a log). Plain pools may be larger (C&C falling damage); beyond this they are
/// answered with their total only.
pub const MAX_POOL_DICE: usize = 32;

/// Which dice of a pool make its total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "dice")]
pub enum Keep {
    /// Every die is summed (`2d6`).
    All,
    /// Only the `k` highest dice are summed (`2d20kh1`: advantage). Among equal dice the
    /// earlier ones are kept.
    Highest(u16),
    /// Only the `k` lowest dice are summed (`3d20kl1`: disadvantage). Among equal dice the
    /// earlier ones are kept.
    Lowest(u16),
}

impl Keep {
    /// True for [`Keep::All`].
    #[inline]
    pub fn is_all(&self) -> bool {
        matches!(self, Keep::All)
    }
}

/// "Roll `count`d`sides` for `who`'s `purpose`, keeping `keep`" — answered with the dice (or,
/// for a plain pool, just their total).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct RollRequest {
    /// How many dice.
    pub count: u16,
    /// Sides per die.
    pub sides: u16,
    /// Which dice make the total.
    #[serde(skip_serializing_if = "Keep::is_all")]
    pub keep: Keep,
    /// Who rolls (None: the GM / the world).
    pub who: Option<CombatantId>,
    /// What the roll is for.
    pub purpose: RollPurpose,
    /// The rule that calls for the roll (e.g. `CNC-R7`).
    pub rule: &'static str,
    /// Totals the rules read alike ([`FaceClasses`]): exact odds branch once per class. Not
    /// part of what is asked (play rolls the dice as ever).
    #[serde(skip)]
    pub classes: FaceClasses,
}

/// The classes of a roll's totals that the rules read alike (a d20 only compared with a
/// target number: the totals that fail and those that pass): up to four cuts, ascending, each
/// the lowest total of a class (totals below the first are the first class; a cut past the
/// largest total leaves its class empty); none, every total its own class. Exact odds branch
/// once per class, weighed by its totals' probability, and answer with the class's lowest
/// total ([`crate::odds`]); every other driver rolls the dice as ever. The rules that give
/// classes must read nothing of the total but its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FaceClasses {
    cuts: [u16; 4],
    len: u8,
}

impl FaceClasses {
    /// The classes that begin at `cuts` (ascending; at most four, clamped to 1..=1000).
    pub fn at(cuts: &[i32]) -> Self {
        let mut out = FaceClasses::default();
        for (slot, &cut) in out.cuts.iter_mut().zip(cuts.iter().take(4)) {
            *slot = cut.clamp(1, 1000) as u16;
        }
        out.len = cuts.len().min(4) as u8;
        out
    }

    /// True when every total is its own class.
    pub fn is_none(&self) -> bool {
        self.len == 0
    }

    /// The class of `total`: how many cuts are at or below it.
    pub fn of(&self, total: u32) -> usize {
        self.cuts[..usize::from(self.len)]
            .iter()
            .filter(|&&c| u32::from(c) <= total)
            .count()
    }
}

impl RollRequest {
    /// `count`d`sides`, every die summed.
    pub const fn new(
        count: u16,
        sides: u16,
        who: Option<CombatantId>,
        purpose: RollPurpose,
        rule: &'static str,
    ) -> Self {
        RollRequest {
            count,
            sides,
            keep: Keep::All,
            who,
            purpose,
            rule,
            classes: FaceClasses {
                cuts: [0; 4],
                len: 0,
            },
        }
    }

    /// The same dice, its totals read by the rules only by class ([`FaceClasses`]).
    pub const fn in_classes(mut self, classes: FaceClasses) -> Self {
        self.classes = classes;
        self
    }

    /// The same dice, keeping only the `k` highest (`2d20kh1`).
    pub const fn keep_highest(self, k: u16) -> Self {
        self.keeping(Keep::Highest(k))
    }

    /// The same dice, keeping only the `k` lowest (`3d20kl1`).
    pub const fn keep_lowest(self, k: u16) -> Self {
        self.keeping(Keep::Lowest(k))
    }

    /// The same dice with another keep rule.
    pub const fn keeping(mut self, keep: Keep) -> Self {
        self.keep = keep;
        self
    }

    /// How many dice make the total (a keep of more dice than the pool keeps them all).
    pub fn kept_count(&self) -> u16 {
        match self.keep {
            Keep::All => self.count,
            Keep::Highest(k) | Keep::Lowest(k) => k.min(self.count),
        }
    }

    /// True when some dice are dropped: the answer must then list every die, because a total
    /// cannot say which were kept.
    pub fn needs_dice(&self) -> bool {
        self.kept_count() < self.count
    }

    /// Smallest legal total.
    pub fn min_total(&self) -> u32 {
        u32::from(self.kept_count())
    }
    /// Largest legal total.
    pub fn max_total(&self) -> u32 {
        u32::from(self.kept_count()) * u32::from(self.sides)
    }
    /// `2d6`, `2d20kh1`, `3d20kl1`: the dice notation of `fray roll` and `fray dist`.
    pub fn dice_text(&self) -> String {
        match self.keep {
            Keep::All => format!("{}d{}", self.count, self.sides),
            Keep::Highest(k) => format!("{}d{}kh{k}", self.count, self.sides),
            Keep::Lowest(k) => format!("{}d{}kl{k}", self.count, self.sides),
        }
    }
}

/// A rolled pool: its total and, when known, each die in the order rolled and whether it was
/// kept. Held inline (at most [`MAX_POOL_DICE`] dice), so rolling allocates nothing. The dice
/// are unknown (empty) for a plain pool answered with its total, or larger than
/// [`MAX_POOL_DICE`], and for the exact-odds enumerator, which answers with kept totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rolled {
    total: u32,
    len: u8,
    kept: u32,
    faces: [u16; MAX_POOL_DICE],
}

impl Rolled {
    /// A roll known only by its total.
    pub const fn total_only(total: u32) -> Self {
        Rolled {
            total,
            len: 0,
            kept: 0,
            faces: [0; MAX_POOL_DICE],
        }
    }

    /// The roll of `faces` for `request`, each checked against the dice, with the keep applied.
    pub fn from_faces(
        request: &RollRequest,
        faces: &[u32],
    ) -> Result<Rolled, crate::answer::AnswerError> {
        use crate::answer::AnswerError;
        if faces.len() != usize::from(request.count) {
            if faces.len() > MAX_POOL_DICE && !request.needs_dice() {
                return Err(AnswerError::TooManyDice { request: *request });
            }
            return Err(AnswerError::WrongCount {
                request: *request,
                got: faces.len(),
            });
        }
        if faces.len() > MAX_POOL_DICE {
            return Err(AnswerError::TooManyDice { request: *request });
        }
        let mut rolled = Rolled::total_only(0);
        for &face in faces {
            if face < 1 || face > u32::from(request.sides) {
                return Err(AnswerError::FaceOutOfRange {
                    request: *request,
                    face,
                });
            }
            rolled.push(face as u16);
        }
        rolled.apply(request.keep);
        Ok(rolled)
    }

    /// Adds a die (the caller keeps within [`MAX_POOL_DICE`]); [`Rolled::apply`] then totals.
    #[inline]
    pub(crate) fn push(&mut self, face: u16) {
        self.faces[usize::from(self.len)] = face;
        self.len += 1;
    }

    /// Marks the kept dice and sets the total from them. Among equal dice the earlier ones are
    /// kept (as `fray roll` does).
    #[inline]
    pub(crate) fn apply(&mut self, keep: Keep) {
        let faces = &self.faces[..usize::from(self.len)];
        let (k, highest) = match keep {
            Keep::All => {
                self.kept = if self.len as usize == MAX_POOL_DICE {
                    u32::MAX
                } else {
                    (1u32 << self.len) - 1
                };
                self.total = faces.iter().map(|&f| u32::from(f)).sum();
                return;
            }
            Keep::Highest(k) => (usize::from(k), true),
            Keep::Lowest(k) => (usize::from(k), false),
        };
        let (mut kept, mut total) = (0u32, 0u32);
        for (i, &face) in faces.iter().enumerate() {
            // The die's rank: how many dice come before it in the keep order.
            let rank = faces
                .iter()
                .enumerate()
                .filter(|&(j, &other)| {
                    let better = if highest { other > face } else { other < face };
                    better || (other == face && j < i)
                })
                .count();
            if rank < k {
                kept |= 1 << i;
                total += u32::from(face);
            }
        }
        self.kept = kept;
        self.total = total;
    }

    /// The total of the kept dice.
    #[inline]
    pub fn total(&self) -> u32 {
        self.total
    }

    /// Every die in the order rolled, kept or not (empty when only the total is known).
    pub fn faces(&self) -> &[u16] {
        &self.faces[..usize::from(self.len)]
    }

    /// True when the dice are known.
    pub fn has_faces(&self) -> bool {
        self.len > 0
    }

    /// Whether die `index` (in the order rolled) counts toward the total.
    pub fn is_kept(&self, index: usize) -> bool {
        index < usize::from(self.len) && self.kept & (1 << index) != 0
    }

    /// The kept dice, in the order rolled.
    pub fn kept(&self) -> impl Iterator<Item = u16> + '_ {
        self.faces()
            .iter()
            .enumerate()
            .filter(|&(i, _)| self.is_kept(i))
            .map(|(_, &f)| f)
    }

    /// The dice as an answer for the log (`None` when only the total is known).
    pub fn dice_answer(&self) -> Option<Answer> {
        self.has_faces()
            .then(|| Answer::Dice(self.faces().iter().map(|&f| u32::from(f)).collect()))
    }
}

impl fmt::Display for Rolled {
    /// `[(3), 17] = 17` (dropped dice in parentheses, as `fray roll` writes them), or the total
    /// alone when the dice are unknown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.has_faces() {
            return write!(f, "{}", self.total);
        }
        f.write_str("[")?;
        for (i, face) in self.faces().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if self.is_kept(i) {
                write!(f, "{face}")?;
            } else {
                write!(f, "({face})")?;
            }
        }
        write!(f, "] = {}", self.total)
    }
}

/// Who must answer a choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "id")]
pub enum Chooser {
    /// A combatant (its player, or its side's tactics).
    Combatant(CombatantId),
    /// The game master (a ruling).
    Gm,
}

/// What kind of decision is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Question {
    /// Announcements before initiative (charge, dodge, evade, disengage, or none).
    Declaration,
    /// The combatant's action on its turn.
    Action,
    /// An optional reaction offered by the rules (e.g. a free attack) — take it?
    Reaction,
    /// A ruling only the GM can make.
    Ruling,
}

/// "`chooser`: choose one of `options`", offered by `rule`.
#[derive(Debug, Clone, Copy)]
pub struct ChoiceRequest<'a, C> {
    /// Who decides.
    pub chooser: Chooser,
    /// What is decided.
    pub question: Question,
    /// The rule that offers the choice.
    pub rule: &'static str,
    /// The legal options. Non-empty.
    pub options: &'a [C],
}

/// One recorded answer: the saved log of a fight is a list of them, serialized as
/// `{"roll":14}`, `{"dice":[3,17]}` and `{"choice":"attack orc-2"}` (a stable format).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// The total of a plain roll request (every die summed).
    Roll(u32),
    /// The dice of a roll request, one each, in the order rolled, kept and dropped alike: how a
    /// request that keeps only some of its dice is answered.
    Dice(Vec<u32>),
    /// A choice, in the ruleset's canonical text (e.g. `attack orc-2`).
    Choice(String),
    /// A GM intervention, taken at the rules' next intervention point.
    Intervene(crate::intervention::Intervention),
}

impl fmt::Display for Answer {
    /// The answer as a person would type it: `14`, `3 17`, `attack orc-2`, `hp orc-2 -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Roll(total) => write!(f, "{total}"),
            Answer::Dice(faces) => {
                let faces: Vec<String> = faces.iter().map(u32::to_string).collect();
                f.write_str(&faces.join(" "))
            }
            Answer::Choice(text) => f.write_str(text),
            Answer::Intervene(intervention) => write!(f, "{intervention}"),
        }
    }
}

/// A choice the rules forbid, and the rule that forbids it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Illegal {
    /// The rule that forbids it (e.g. `CNC-R6.2`).
    pub rule: &'static str,
    /// Why, in words.
    pub reason: String,
}

impl Illegal {
    /// A refusal by `rule`. The reason is put into words only when `explain` is set: option
    /// lists and the tactics test legality in the hot path and allocate nothing.
    pub fn refuse<S: Into<String>>(
        explain: bool,
        rule: &'static str,
        reason: impl FnOnce() -> S,
    ) -> Result<(), Illegal> {
        Err(Illegal {
            rule,
            reason: if explain {
                reason().into()
            } else {
                String::new()
            },
        })
    }

    /// `Ok` when `allowed`, else a refusal by `rule` (see [`Illegal::refuse`]).
    pub fn unless<S: Into<String>>(
        allowed: bool,
        explain: bool,
        rule: &'static str,
        reason: impl FnOnce() -> S,
    ) -> Result<(), Illegal> {
        if allowed {
            Ok(())
        } else {
            Illegal::refuse(explain, rule, reason)
        }
    }
}

/// [`Illegal::refuse`] as a free function, for rules that refuse often (`use … as no`).
pub fn refuse<S: Into<String>>(
    explain: bool,
    rule: &'static str,
    reason: impl FnOnce() -> S,
) -> Result<(), Illegal> {
    Illegal::refuse(explain, rule, reason)
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.reason, self.rule)
    }
}

/// Why resolution stopped before the fight ended: a normal pause (a request nobody has answered
/// yet: a live table waits for a person, a script ran out) or an error (an answer that does not
/// fit its request, or a limit). Rules propagate it with `?`; front ends tell the two apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Interrupt {
    /// A request waits for an answer.
    Pause(Pause),
    /// An answer does not fit, or a limit was hit.
    Error(Fault),
}

/// A request that waits for an answer the driver does not have yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pause {
    /// A roll (a live table, or an exhausted script).
    Roll(RollRequest),
    /// A choice; the text describes the request.
    Choice {
        /// Who must answer.
        chooser: Chooser,
        /// What is asked.
        question: Question,
        /// The rule offering the choice.
        rule: &'static str,
        /// The options, as canonical text.
        options: Vec<String>,
    },
}

/// An answer that cannot be used, or a limit: resolution cannot go on from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// A die result outside the dice's range.
    BadRoll {
        /// The request.
        request: RollRequest,
        /// The offending value.
        value: u32,
        /// Scripted dice used before this one (`None`: the value did not come from a script).
        dice_used: Option<usize>,
    },
    /// A choice that cannot be read, or that the rules forbid.
    IllegalChoice {
        /// Who chose.
        chooser: Chooser,
        /// The text given.
        text: String,
        /// Why it is refused.
        illegal: Illegal,
    },
    /// A roll answer that does not fit its request (a typed answer, or a log being replayed).
    BadAnswer(crate::answer::AnswerError),
    /// A work limit was hit (e.g. answers per fight).
    Limit(&'static str),
    /// Exact enumeration only ([`crate::Table::recurrence`]): the branch came back to the node
    /// where `at` rolls had been answered on it, in an equal state with the same work left, so
    /// the enumerator sums the cycle (a geometric series) rather than following it.
    Recurrence {
        /// The rolls answered on the branch when it first stood at the node.
        at: u32,
    },
}

impl Interrupt {
    /// A roll nobody has answered yet.
    pub fn need_roll(request: RollRequest) -> Self {
        Interrupt::Pause(Pause::Roll(request))
    }

    /// A choice that cannot be read or that the rules forbid.
    pub fn illegal_choice(chooser: Chooser, text: impl Into<String>, illegal: Illegal) -> Self {
        Interrupt::Error(Fault::IllegalChoice {
            chooser,
            text: text.into(),
            illegal,
        })
    }

    /// A work limit hit.
    pub fn limit(what: &'static str) -> Self {
        Interrupt::Error(Fault::Limit(what))
    }

    /// Is this a normal pause (a request waiting for an answer), not an error?
    pub fn is_pause(&self) -> bool {
        matches!(self, Interrupt::Pause(_))
    }

    /// The limit hit, if this is one.
    pub fn limit_hit(&self) -> Option<&'static str> {
        match self {
            Interrupt::Error(Fault::Limit(what)) => Some(what),
            _ => None,
        }
    }
}

impl From<Pause> for Interrupt {
    fn from(pause: Pause) -> Self {
        Interrupt::Pause(pause)
    }
}

impl From<Fault> for Interrupt {
    fn from(fault: Fault) -> Self {
        Interrupt::Error(fault)
    }
}

impl From<crate::answer::AnswerError> for Interrupt {
    fn from(error: crate::answer::AnswerError) -> Self {
        Interrupt::Error(Fault::BadAnswer(error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(count: u16, sides: u16) -> RollRequest {
        RollRequest::new(count, sides, None, RollPurpose::Attack, "T-1")
    }

    fn rolled(request: RollRequest, faces: &[u32]) -> Rolled {
        Rolled::from_faces(&request, faces).expect("fits")
    }

    #[test]
    fn requests_say_their_dice_and_range() {
        assert_eq!(d(2, 6).dice_text(), "2d6");
        assert_eq!(d(2, 20).keep_highest(1).dice_text(), "2d20kh1");
        assert_eq!(d(3, 20).keep_lowest(1).dice_text(), "3d20kl1");
        assert_eq!((d(2, 6).min_total(), d(2, 6).max_total()), (2, 12));
        let adv = d(2, 20).keep_highest(1);
        assert_eq!((adv.min_total(), adv.max_total()), (1, 20));
        let best_two = d(4, 6).keep_highest(3);
        assert_eq!((best_two.min_total(), best_two.max_total()), (3, 18));
        assert!(adv.needs_dice() && !d(2, 6).needs_dice());
        // Keeping as many dice as the pool has (or more) keeps them all.
        assert!(!d(2, 20).keep_highest(2).needs_dice());
        assert_eq!(d(2, 20).keep_lowest(5).kept_count(), 2);
        assert_eq!(d(2, 20).keep_lowest(5).max_total(), 40);
    }

    #[test]
    fn rolled_keeps_the_highest_or_lowest_earlier_first() {
        let adv = rolled(d(2, 20).keep_highest(1), &[3, 17]);
        assert_eq!(
            (adv.total(), adv.kept().collect::<Vec<_>>()),
            (17, vec![17])
        );
        assert_eq!(adv.to_string(), "[(3), 17] = 17");
        let dis = rolled(d(3, 20).keep_lowest(1), &[12, 5, 9]);
        assert_eq!(dis.to_string(), "[(12), 5, (9)] = 5");
        let ties = rolled(d(3, 6).keep_highest(2), &[4, 6, 4]);
        assert_eq!(ties.to_string(), "[4, 6, (4)] = 10");
        let low_ties = rolled(d(4, 6).keep_lowest(2), &[2, 2, 2, 1]);
        assert_eq!(low_ties.to_string(), "[2, (2), (2), 1] = 3");
        let plain = rolled(d(2, 6), &[3, 5]);
        assert_eq!(
            (plain.total(), plain.to_string()),
            (8, "[3, 5] = 8".to_string())
        );
        assert_eq!(Rolled::total_only(9).to_string(), "9");
        // Every die of a full pool is kept (the mask's last bit included).
        let full = rolled(d(32, 6), &[6; 32]);
        assert_eq!((full.total(), full.kept().count()), (192, 32));
        let full_kept = rolled(d(32, 6).keep_lowest(31), &[6; 32]);
        assert_eq!((full_kept.total(), full_kept.is_kept(31)), (186, false));
    }

    #[test]
    fn dice_answers_serialize_compactly() {
        let dice = Answer::Dice(vec![3, 17]);
        let text = serde_json::to_string(&dice).expect("answer");
        assert_eq!(text, r#"{"dice":[3,17]}"#);
        assert_eq!(serde_json::from_str::<Answer>(&text).expect("answer"), dice);
        assert_eq!(
            serde_json::to_string(&Answer::Roll(14)).expect("answer"),
            r#"{"roll":14}"#
        );
        // The request says its keep only when it has one.
        let plain = serde_json::to_value(d(1, 20)).expect("request");
        assert!(plain.get("keep").is_none());
        let adv = serde_json::to_value(d(2, 20).keep_highest(1)).expect("request");
        assert_eq!(
            adv["keep"],
            serde_json::json!({"kind": "highest", "dice": 1})
        );
    }
}
