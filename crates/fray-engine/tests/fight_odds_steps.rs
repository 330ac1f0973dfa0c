//! The exact programme's steps inside a round (`Ruleset::round_step`), on a tiny test ruleset
//! (no system's rules): a coin tosser tosses a coin (1d2) at each settled point of a round and
//! wins once it has `needed` heads. Checked by hand: the first round's heads are binomial
//! (`--round` played step by step), the programme started at a settled point inside a round
//! (a live session's `exact`) agrees with the one started at the round's start, and a round
//! that does not end within `MAX_STEPS` settled points is refused, never a hang.

use fray_core::fight_odds::{
    estimate_fight, fight_odds, fight_odds_at, first_round, settled_point, Point,
    MAX_FIGHT_BRANCHES, MAX_STEPS,
};
use fray_core::odds::OddsError;
use fray_core::protocol::{ChoiceRequest, Illegal, Interrupt, RollPurpose};
use fray_core::roster::{CombatantInfo, SideInfo};
use fray_core::{
    Answer, CombatantId, Fault, Limits, Outcome, RollRequest, Roster, Ruleset, RulesetId, SideId,
    Table, Tally,
};
use num_bigint::BigInt;
use num_rational::BigRational;

/// The test ruleset (see the module documentation).
struct Coins;

/// A coin tosser alone on side 0 against an empty side 1.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Tosses {
    roster: Roster,
    /// Settled points in a round: the round ends after this many steps.
    steps: u32,
    /// Whether each step tosses the coin (without, a step only counts).
    tossing: bool,
    /// Steps played in this round.
    step: u32,
    /// Heads so far.
    heads: u32,
    /// Heads that win.
    needed: u32,
}

impl Tosses {
    fn new(steps: u32, tossing: bool, needed: u32) -> Self {
        let side = |key: &str| SideInfo {
            key: key.to_string(),
            name: key.to_string(),
            controller: Default::default(),
        };
        Tosses {
            roster: Roster {
                sides: vec![side("tossers"), side("nobody")],
                combatants: vec![CombatantInfo {
                    key: "tosser".to_string(),
                    name: "tosser".to_string(),
                    side: SideId(0),
                    group: "tosser".to_string(),
                    controller: Default::default(),
                    reserve: false,
                }],
            },
            steps,
            tossing,
            step: 0,
            heads: 0,
            needed,
        }
    }
}

impl Ruleset for Coins {
    // Never registered: any id does.
    const ID: RulesetId = RulesetId::Cnc;
    type State = Tosses;
    type Choice = u8;

    fn roster(state: &Tosses) -> &Roster {
        &state.roster
    }
    fn begin(_state: &mut Tosses, _table: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        Ok(())
    }
    fn play_round(state: &mut Tosses, table: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        while !Self::round_step(state, table)? {}
        Ok(())
    }
    /// One toss a step; a settled point after each but the round's last.
    fn round_step(state: &mut Tosses, table: &mut Table<'_, Self>) -> Result<bool, Interrupt> {
        if state.tossing {
            let coin = RollRequest::new(1, 2, Some(CombatantId(0)), RollPurpose::Attack, "COIN-1");
            if table.roll(coin)? == 2 {
                state.heads += 1;
            }
        }
        state.step += 1;
        if state.step < state.steps {
            return Ok(false);
        }
        state.step = 0;
        Ok(true)
    }
    fn outcome(state: &Tosses) -> Outcome {
        if state.heads >= state.needed {
            Outcome::Won(SideId(0), fray_core::EndReason::Defeated)
        } else {
            Outcome::Ongoing
        }
    }
    fn choice_text(_state: &Tosses, choice: &u8) -> String {
        choice.to_string()
    }
    fn parse_choice(
        _state: &Tosses,
        request: &ChoiceRequest<'_, u8>,
        text: &str,
    ) -> Result<u8, Illegal> {
        text.parse().map_err(|_| Illegal {
            rule: request.rule,
            reason: "not a number".to_string(),
        })
    }
    fn answers(_question: fray_core::protocol::Question, _choice: &u8) -> bool {
        false
    }
    fn check_choice(
        _state: &Tosses,
        _request: &ChoiceRequest<'_, u8>,
        _choice: &u8,
    ) -> Result<(), Illegal> {
        Ok(())
    }
    fn tallies(_state: &Tosses, out: &mut Vec<Tally>) {
        out.clear();
        out.push(Tally {
            side: SideId(0),
            ..Tally::default()
        });
    }
    fn tactics(_state: &Tosses, _request: &ChoiceRequest<'_, u8>) -> u8 {
        0
    }
}

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

fn limits(max_rounds: u32) -> Limits {
    Limits {
        max_rounds,
        ..Limits::default()
    }
}

/// `--round`, step by step: after a round of 4 tosses the heads are binomial(4, 1/2), each
/// count one distinct state (1, 4, 6, 4, 1 in 16), merged at every settled point.
#[test]
fn the_first_round_is_played_step_by_step_and_merged() {
    let (ends, branches) =
        first_round::<Coins>(&Tosses::new(4, true, 99), &limits(5), 100).unwrap();
    let mut got: Vec<(u32, BigRational)> = ends.iter().map(|(s, p)| (s.heads, p.clone())).collect();
    got.sort_by_key(|(h, _)| *h);
    let want: Vec<(u32, BigRational)> = [1, 4, 6, 4, 1]
        .iter()
        .enumerate()
        .map(|(h, &w)| (h as u32, ratio(w, 16)))
        .collect();
    assert_eq!(got, want);
    // Merged: from each distinct state one replay stops at its toss, then one per face (3),
    // from 1, 2, 3 and 4 states; unmerged it would be 3 × (1 + 2 + 4 + 8).
    assert_eq!(branches, 3 * (1 + 2 + 3 + 4));
}

/// The fight from a settled point inside round 1 (one head in the first toss, as a live
/// session's log would have it) is the fight from the round's start given that first toss:
/// P(2 heads within 2 rounds of 3 tosses) from 1 head after 1 toss is 1 − P(no head in the 5
/// tosses left) = 31/32; from the start, (1/2)·31/32 + (1/2)·(1 − P(≤ 1 head in 5)) = 57/64.
#[test]
fn the_programme_starts_at_a_settled_point_inside_a_round() {
    let start = Tosses::new(3, true, 2);
    let whole = fight_odds::<Coins>(&start, &limits(2), 100).unwrap();
    assert_eq!(whole.wins[0], ratio(57, 64));
    let (state, point, given) =
        settled_point::<Coins>(&start, None, 0, &[Answer::Roll(2)], &limits(2)).unwrap();
    assert_eq!(point, Point::Inside(1));
    assert_eq!((state.heads, state.step, given), (1, 1, 1));
    let inside =
        fight_odds_at::<Coins>(&state, point, given, &limits(2), 100, MAX_FIGHT_BRANCHES).unwrap();
    assert_eq!(inside.wins[0], ratio(31, 32));
    assert_eq!(inside.stalemate, ratio(1, 32));
    // A log that ends at the round's end is a checkpoint, not a point inside the round.
    let round = [Answer::Roll(1), Answer::Roll(1), Answer::Roll(1)];
    assert!(settled_point::<Coins>(&start, None, 0, &round, &limits(2)).is_none());
}

/// A round that has not ended after `MAX_STEPS` settled points is refused with the limit's
/// name, by `--fight` and by `--round`; the probes stop there too (no hang).
#[test]
fn a_round_past_the_settled_points_limit_is_refused() {
    let steps = MAX_STEPS as u32 + 1;
    let start = Tosses::new(steps, false, 1);
    let _ = estimate_fight::<Coins>(&start, &limits(1));
    let refusal = OddsError::Stopped(Interrupt::Error(Fault::Limit(
        "settled points in one round",
    )));
    assert_eq!(
        fight_odds::<Coins>(&start, &limits(1), 100).unwrap_err(),
        refusal
    );
    assert_eq!(
        first_round::<Coins>(&start, &limits(1), 100).unwrap_err(),
        refusal
    );
    assert!(refusal.to_string().contains("settled points in one round"));
    // One step fewer fits: a stalemate at the round limit.
    let fits = Tosses::new(MAX_STEPS as u32, false, 1);
    let odds = fight_odds::<Coins>(&fits, &limits(1), 100).unwrap();
    assert_eq!(odds.stalemate, ratio(1, 1));
}
