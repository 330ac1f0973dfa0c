//! Exact odds of an attacker's whole action (`fray odds --routine`): a dynamic programme over
//! the state between its blows.
//!
//! Each blow is enumerated by prefix replay ([`crate::odds`]) from each distinct state the
//! previous blows can leave; branches that leave equal states are merged ([`Distinct`]). This
//! is sound because a ruleset's [`RoutineBlow`] carries nothing between blows but the state
//! and the routine's starting state. Memory is bounded by the distinct states between two
//! blows (a limit, then a refusal).

use crate::distinct::Distinct;
use crate::event::NullSink;
use crate::ids::CombatantId;
use crate::odds::{explore, OddsError, MAX_BRANCHES};
use crate::ruleset::{RoutineBlow, Ruleset};
use crate::runner::{Limits, Table};
use num_rational::BigRational;
use num_traits::One;

/// Most blows one routine may have.
pub const MAX_BLOWS: usize = 32;

/// Where an attacker's whole action can end.
#[derive(Debug, Clone)]
pub struct RoutineEnds<S> {
    /// The distinct states after the last blow, with their probabilities.
    pub ends: Distinct<S>,
    /// Distinct states explored between blows, in all.
    pub states: usize,
    /// Branches played, in all.
    pub branches: usize,
    /// Blows played along the longest way.
    pub blows: usize,
}

/// Plays `attacker`'s routine against `target` from `start`, blow by blow, against every die
/// result (the default tactics choosing), at most `max_states` distinct states between blows.
pub fn routine<R: Ruleset>(
    start: &R::State,
    attacker: CombatantId,
    target: CombatantId,
    blow_of: RoutineBlow<R>,
    max_states: usize,
) -> Result<RoutineEnds<R::State>, OddsError> {
    let limits = Limits::default();
    let mut layer = Distinct::new(max_states);
    layer.add(start, &BigRational::one());
    let mut ends = Distinct::new(max_states);
    let (mut states, mut branches, mut blows) = (0, 0, 0);
    let mut budget = MAX_BRANCHES;
    for blow in 0..=MAX_BLOWS {
        if layer.is_empty() {
            break;
        }
        if blow == MAX_BLOWS {
            return Err(OddsError::Stopped(crate::protocol::Interrupt::Error(
                crate::protocol::Fault::Limit("blows in one routine"),
            )));
        }
        states += layer.len();
        let mut next = Distinct::new(max_states);
        for (state, p) in layer.iter() {
            branches += explore::<R, bool, NullSink>(
                state,
                &mut budget,
                &mut NullSink,
                |now, driver, sink| {
                    let mut table = Table::new(driver, sink, None, &limits);
                    table.set_round(1);
                    blow_of(start, now, &mut table, attacker, target, blow)
                },
                |q, end, played, _| {
                    let probability = p * q;
                    if played {
                        next.add(end, &probability);
                    } else {
                        ends.add(end, &probability);
                    }
                },
            )?;
            if next.overflowed() || ends.overflowed() {
                return Err(OddsError::TooManyStates(max_states));
            }
        }
        if !next.is_empty() {
            blows = blow + 1;
        }
        layer = next;
    }
    Ok(RoutineEnds {
        ends,
        states,
        branches,
        blows,
    })
}
