//! A tiny ruleset for testing kept-dice requests end to end (it is no system's rules): an
//! archer shoots at a target once a round, choosing first how to shoot — `plain` (1d20),
//! `advantage` (2d20, keep the highest) or `disadvantage` (3d20, keep the lowest) — and hits
//! on [`KeptState::needed`] or more. The archer's side wins on a hit, the target's after
//! [`KeptState::shots`] misses.

use fray_core::protocol::{ChoiceRequest, Chooser, Illegal, Interrupt, Question, RollPurpose};
use fray_core::roster::{CombatantInfo, SideInfo};
use fray_core::{
    CombatantId, Outcome, RollRequest, Rolled, Roster, Ruleset, RulesetId, SideId, Table, Tally,
};

/// The test ruleset (see the module documentation).
#[derive(Debug, Clone, Copy, Default)]
pub struct KeptDice;

/// How the archer shoots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stance {
    /// One d20.
    Plain,
    /// Several d20, the highest kept.
    Advantage,
    /// Several d20, the lowest kept.
    Disadvantage,
}

impl Stance {
    /// Every stance, in the order the default tactics cycle through them.
    pub const ALL: [Stance; 3] = [Stance::Plain, Stance::Advantage, Stance::Disadvantage];

    /// The stance's text in logs and scripts.
    pub fn text(self) -> &'static str {
        match self {
            Stance::Plain => "plain",
            Stance::Advantage => "advantage",
            Stance::Disadvantage => "disadvantage",
        }
    }
}

/// The archer.
pub const ARCHER: CombatantId = CombatantId(0);

/// The fight: who is in it, the roll each stance asks for, and the shots so far.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KeptState {
    /// The archer (side `archers`) and the target (side `targets`).
    pub roster: Roster,
    /// The roll of each stance, in [`Stance::ALL`] order (tests may change them).
    pub requests: [RollRequest; 3],
    /// The total that hits.
    pub needed: u32,
    /// Misses before the target's side wins.
    pub shots: usize,
    /// Each shot's stance and roll, in order.
    pub rolls: Vec<(Stance, Rolled)>,
}

impl KeptState {
    /// A fight of at most `shots` shots, hitting on `needed` or more.
    pub fn new(shots: usize, needed: u32) -> Self {
        let side = |key: &str| SideInfo {
            key: key.to_string(),
            name: key.to_string(),
            controller: Default::default(),
        };
        let combatant = |key: &str, side: u8| CombatantInfo {
            key: key.to_string(),
            name: key.to_string(),
            side: SideId(side),
            group: key.to_string(),
            controller: Default::default(),
            reserve: false,
        };
        let d20s = |count| RollRequest::new(count, 20, Some(ARCHER), RollPurpose::Attack, "KEPT-1");
        KeptState {
            roster: Roster {
                sides: vec![side("archers"), side("targets")],
                combatants: vec![combatant("archer", 0), combatant("target", 1)],
            },
            requests: [d20s(1), d20s(2).keep_highest(1), d20s(3).keep_lowest(1)],
            needed,
            shots,
            rolls: Vec::new(),
        }
    }

    /// The roll `stance` asks for.
    pub fn request(&self, stance: Stance) -> RollRequest {
        self.requests[stance as usize]
    }

    /// True once a shot has hit.
    pub fn hit(&self) -> bool {
        self.rolls.iter().any(|(_, r)| r.total() >= self.needed)
    }
}

/// One shot with `stance`: rolls its request (with its dice) and records it.
pub fn shoot(
    state: &mut KeptState,
    table: &mut Table<'_, KeptDice>,
    stance: Stance,
) -> Result<(), Interrupt> {
    let rolled = table.roll_pool(state.request(stance))?;
    state.rolls.push((stance, rolled));
    Ok(())
}

impl Ruleset for KeptDice {
    // The system that needs kept dice most; this test ruleset is never registered.
    const ID: RulesetId = RulesetId::Celesia;
    type State = KeptState;
    type Choice = Stance;

    fn roster(state: &KeptState) -> &Roster {
        &state.roster
    }

    fn begin(_state: &mut KeptState, _table: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        Ok(())
    }

    fn play_round(state: &mut KeptState, table: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        let stance = table.choose(
            state,
            Chooser::Combatant(ARCHER),
            Question::Action,
            "KEPT-1",
            |options| options.extend(Stance::ALL),
        )?;
        shoot(state, table, stance)
    }

    fn outcome(state: &KeptState) -> Outcome {
        if state.hit() {
            Outcome::Won(SideId(0), fray_core::ruleset::EndReason::Defeated)
        } else if state.rolls.len() >= state.shots {
            Outcome::Won(SideId(1), fray_core::ruleset::EndReason::Defeated)
        } else {
            Outcome::Ongoing
        }
    }

    fn choice_text(_state: &KeptState, choice: &Stance) -> String {
        choice.text().to_string()
    }

    fn parse_choice(
        _state: &KeptState,
        request: &ChoiceRequest<'_, Stance>,
        text: &str,
    ) -> Result<Stance, Illegal> {
        Stance::ALL
            .into_iter()
            .find(|s| s.text() == text.trim())
            .ok_or_else(|| Illegal {
                rule: request.rule,
                reason: format!("`{text}` is not plain, advantage or disadvantage"),
            })
    }

    fn answers(question: Question, _choice: &Stance) -> bool {
        question == Question::Action
    }

    fn check_choice(
        _state: &KeptState,
        _request: &ChoiceRequest<'_, Stance>,
        _choice: &Stance,
    ) -> Result<(), Illegal> {
        Ok(())
    }

    fn tallies(state: &KeptState, out: &mut Vec<Tally>) {
        out.clear();
        out.extend(state.roster.combatants.iter().map(|c| Tally {
            side: c.side,
            ..Tally::default()
        }));
    }

    /// Cycles through the stances, one per shot, so seeded fights use all three.
    fn tactics(state: &KeptState, _request: &ChoiceRequest<'_, Stance>) -> Stance {
        Stance::ALL[state.rolls.len() % Stance::ALL.len()]
    }
}
