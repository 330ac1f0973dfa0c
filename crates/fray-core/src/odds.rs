//! Exact odds by enumeration: play a piece of a fight against every possible die result, each
//! branch weighted by its exact probability, with choices made by the default tactics.
//!
//! This is the "exact odds" driver of DESIGN.md: the same rules code that the simulator and the
//! tracker run, answered with every face instead of one.

use crate::driver::Driver;
use crate::event::{Event, VecSink};
use crate::protocol::{ChoiceRequest, Interrupt, RollRequest};
use crate::ruleset::Ruleset;
use crate::runner::{Limits, Table};
use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::HashMap;

/// Most branches one enumeration may explore.
pub const MAX_BRANCHES: usize = 1_000_000;

/// One way the enumerated play can go.
#[derive(Debug, Clone)]
pub struct Branch<S> {
    /// Its exact probability.
    pub probability: BigRational,
    /// The state at its end.
    pub state: S,
    /// The events it produced, with their rounds.
    pub events: Vec<(u32, Event)>,
}

/// Why an enumeration failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    /// Too many branches.
    #[error("more than {MAX_BRANCHES} branches: the attack is too complex to enumerate exactly")]
    TooManyBranches,
    /// The rules stopped for another reason (an illegal choice, a limit).
    #[error("the rules stopped: {0:?}")]
    Stopped(Interrupt),
}

/// Number of ways to roll each total of `count`d`sides` (index 0 = total `count`).
pub fn pool_ways(count: u16, sides: u16) -> Vec<BigUint> {
    let mut ways = vec![BigUint::one()];
    for _ in 0..count {
        let mut next = vec![BigUint::zero(); ways.len() + sides as usize - 1];
        for (i, w) in ways.iter().enumerate() {
            for slot in next.iter_mut().skip(i).take(sides as usize) {
                *slot += w;
            }
        }
        ways = next;
    }
    ways
}

struct PrefixDriver<'a> {
    prefix: &'a [u32],
    next: usize,
}

impl<R: Ruleset> Driver<R> for PrefixDriver<'_> {
    fn wants_options(&self) -> bool {
        false
    }
    fn needs_checking(&self) -> bool {
        false
    }
    fn roll(&mut self, request: &RollRequest) -> Result<u32, Interrupt> {
        match self.prefix.get(self.next) {
            Some(v) => {
                self.next += 1;
                Ok(*v)
            }
            None => Err(Interrupt::NeedRoll(*request)),
        }
    }
    fn choose(
        &mut self,
        state: &R::State,
        request: &ChoiceRequest<'_, R::Choice>,
    ) -> Result<R::Choice, Interrupt> {
        Ok(R::tactics(state, request))
    }
}

/// Plays `play` from `start` against every die result and returns every branch.
pub fn enumerate<R: Ruleset>(
    start: &R::State,
    round: u32,
    play: impl Fn(&mut R::State, &mut Table<'_, R>) -> Result<(), Interrupt>,
) -> Result<Vec<Branch<R::State>>, OddsError> {
    let limits = Limits::default();
    let mut pmf_cache: HashMap<(u16, u16), Vec<BigRational>> = HashMap::new();
    let mut pending: Vec<(Vec<u32>, BigRational)> = vec![(Vec::new(), BigRational::one())];
    let mut leaves = Vec::new();
    let mut explored = 0usize;
    while let Some((prefix, probability)) = pending.pop() {
        explored += 1;
        if explored > MAX_BRANCHES {
            return Err(OddsError::TooManyBranches);
        }
        let mut state = start.clone();
        let mut driver = PrefixDriver {
            prefix: &prefix,
            next: 0,
        };
        let mut sink = VecSink::default();
        let result = {
            let mut table = Table::new(&mut driver, &mut sink, None, &limits);
            table.set_round(round);
            play(&mut state, &mut table)
        };
        match result {
            Ok(()) => leaves.push(Branch {
                probability,
                state,
                events: sink.events,
            }),
            Err(Interrupt::NeedRoll(request)) => {
                let pmf = pmf_cache
                    .entry((request.count, request.sides))
                    .or_insert_with(|| {
                        let ways = pool_ways(request.count, request.sides);
                        let total: BigUint = BigUint::from(request.sides).pow(request.count as u32);
                        ways.into_iter()
                            .map(|w| BigRational::new(w.into(), total.clone().into()))
                            .collect()
                    });
                for (i, p) in pmf.iter().enumerate().rev() {
                    let mut next = prefix.clone();
                    next.push(u32::from(request.count) + i as u32);
                    pending.push((next, &probability * p));
                }
            }
            Err(other) => return Err(OddsError::Stopped(other)),
        }
    }
    // Keep branches in roll order (the stack reversed them twice).
    Ok(leaves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_ways_are_the_binomial_like_counts() {
        let w: Vec<u32> = pool_ways(2, 6)
            .iter()
            .map(|b| b.to_u32_digits().first().copied().unwrap_or(0))
            .collect();
        assert_eq!(w, vec![1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
        assert_eq!(pool_ways(1, 20).len(), 20);
    }
}
