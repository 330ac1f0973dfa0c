//! Cycles inside one step of exact odds (`Table::recurrence`), on a tiny test ruleset (no
//! system's rules): two throwers take turns with a d6 inside one round, as OSR's free attacks
//! after sloppy fumbles answer each other (OSR-R18.1). The thrower wins on 1–2, loses on 3,
//! hands the die to the other on 4–5 and throws again on 6: nothing else changes, so the
//! chain comes back to equal states without end. Solved by hand: the thrower wins with p where
//! p = 1/3 + (1/3)(1 − p) + (1/6)p, so p = 4/7. Exact odds must give 4/7 and 3/7 exactly (a
//! geometric series summed, never a truncation), and ordinary play must play the chain as it
//! comes (the seeded simulation agrees).

use fray_core::fight_odds::fight_odds;
use fray_core::protocol::{ChoiceRequest, Illegal, Interrupt, RollPurpose};
use fray_core::roster::{CombatantInfo, SideInfo};
use fray_core::{
    CombatantId, Limits, Outcome, RollRequest, Roster, Ruleset, RulesetId, SideId, Table, Tally,
};
use num_bigint::BigInt;
use num_rational::BigRational;

/// The test ruleset (see the module documentation).
struct Throws;

/// Two throwers, one a side.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Table2 {
    roster: Roster,
    /// The winner, once there is one.
    winner: Option<u8>,
    /// Whether a first, meaningless d2 is rolled before the chain (its two faces reach equal
    /// nodes: solved once).
    warm_up: bool,
}

impl Table2 {
    fn new(warm_up: bool) -> Self {
        let side = |key: &str| SideInfo {
            key: key.to_string(),
            name: key.to_string(),
            controller: Default::default(),
        };
        let one = |key: &str, s: u8| CombatantInfo {
            key: key.to_string(),
            name: key.to_string(),
            side: SideId(s),
            group: key.to_string(),
            controller: Default::default(),
            reserve: false,
        };
        Table2 {
            roster: Roster {
                sides: vec![side("first"), side("second")],
                combatants: vec![one("a", 0), one("b", 1)],
            },
            winner: None,
            warm_up,
        }
    }
}

/// `thrower` throws: a node of the cycle, keyed by who throws.
fn throw(state: &mut Table2, table: &mut Table<'_, Throws>, thrower: u8) -> Result<(), Interrupt> {
    let mark = table.recurrence(u64::from(thrower), state)?;
    let d6 = RollRequest::new(
        1,
        6,
        Some(CombatantId(thrower.into())),
        RollPurpose::Other,
        "THROW-1",
    );
    match table.roll(d6)? {
        1 | 2 => state.winner = Some(thrower),
        3 => state.winner = Some(1 - thrower),
        4 | 5 => throw(state, table, 1 - thrower)?,
        _ => throw(state, table, thrower)?,
    }
    table.leave_recurrence(mark);
    Ok(())
}

impl Ruleset for Throws {
    // Never registered: any id does.
    const ID: RulesetId = RulesetId::Cnc;
    type State = Table2;
    type Choice = u8;

    fn roster(state: &Table2) -> &Roster {
        &state.roster
    }
    fn begin(_state: &mut Table2, _table: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        Ok(())
    }
    fn play_round(state: &mut Table2, table: &mut Table<'_, Self>) -> Result<(), Interrupt> {
        table.recurrence_scope();
        if state.warm_up {
            let d2 = RollRequest::new(1, 2, None, RollPurpose::Other, "THROW-0");
            table.roll(d2)?;
        }
        throw(state, table, 0)
    }
    fn outcome(state: &Table2) -> Outcome {
        match state.winner {
            Some(w) => Outcome::Won(SideId(w), fray_core::EndReason::Defeated),
            None => Outcome::Ongoing,
        }
    }
    fn choice_text(_state: &Table2, choice: &u8) -> String {
        choice.to_string()
    }
    fn parse_choice(
        _state: &Table2,
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
        _state: &Table2,
        _request: &ChoiceRequest<'_, u8>,
        _choice: &u8,
    ) -> Result<(), Illegal> {
        Ok(())
    }
    fn tallies(_state: &Table2, out: &mut Vec<Tally>) {
        out.clear();
    }
    fn tactics(_state: &Table2, _request: &ChoiceRequest<'_, u8>) -> u8 {
        0
    }
}

fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

fn limits() -> Limits {
    Limits {
        max_rounds: 1,
        ..Limits::default()
    }
}

/// The chain is summed exactly: 4/7 and 3/7, nothing left to a stalemate; the branches
/// stop at the first return (a handful, not an unbounded tree).
#[test]
fn a_chain_that_comes_back_is_summed_exactly() {
    let odds = fight_odds::<Throws>(&Table2::new(false), &limits(), 100).unwrap();
    assert_eq!(odds.wins, vec![ratio(4, 7), ratio(3, 7)]);
    assert_eq!(odds.stalemate, ratio(0, 1));
    assert!(odds.branches < 40, "{} branches", odds.branches);
}

/// Both faces of the warm-up d2 reach equal nodes after the scope's mark: the second face
/// reuses the first's solution (one replay), and the answer is unchanged.
#[test]
fn equal_nodes_from_one_scope_are_solved_once() {
    let plain = fight_odds::<Throws>(&Table2::new(false), &limits(), 100).unwrap();
    let warm = fight_odds::<Throws>(&Table2::new(true), &limits(), 100).unwrap();
    assert_eq!(warm.wins, vec![ratio(4, 7), ratio(3, 7)]);
    assert!(
        warm.branches <= plain.branches + 3,
        "{} against {}",
        warm.branches,
        plain.branches
    );
}

/// Ordinary play goes round the chain as it comes: over 20,000 seeded fights the first
/// thrower wins about 4/7 of them.
#[test]
fn ordinary_play_plays_the_chain() {
    let mut wins = 0u32;
    let n = 20_000u32;
    for seed in 0..u64::from(n) {
        let mut state = Table2::new(false);
        let mut driver = fray_core::driver::AutoDriver::new(seed);
        let mut sink = fray_core::event::NullSink;
        let end = fray_core::runner::run_fight::<Throws>(
            &mut state,
            &mut driver,
            &mut sink,
            None,
            &limits(),
        );
        if end.ok().and_then(|e| e.winner) == Some(SideId(0)) {
            wins += 1;
        }
    }
    let share = f64::from(wins) / f64::from(n);
    // 99.9%: 3.29 standard errors of sqrt(p(1-p)/n) ≈ 0.0035 each.
    assert!((share - 4.0 / 7.0).abs() < 0.012, "{share}");
}
