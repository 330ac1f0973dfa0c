//! Dice of which the rules read only the order of their totals ([`Table::roll_ranked`]):
//! several combatants' initiative dice, each a face plus its own modifier, compared with one
//! another and with nothing else. Play rolls them one by one as ever (the same requests, draws
//! and log); exact odds branch once per *order* of the totals (a weak order: equal totals
//! tie) rather than once per face of each die, weighed by the number of face tuples that give
//! it, and answered with the first such tuple. Four d6 give 1,296 tuples but at most 75 orders.
//!
//! [`Table::roll_ranked`]: crate::Table::roll_ranked

use crate::protocol::RollRequest;
use std::collections::HashMap;

/// Most dice in one ranked roll; more are rolled one by one (exact, only wider).
pub const MAX_RANKED_DICE: usize = 8;

/// Most face tuples (the product of the dice's sides) one ranked roll's orders are counted
/// over; past it the dice are rolled one by one (exact, only wider).
pub const MAX_RANKED_TUPLES: u64 = 100_000;

/// One die of a ranked roll: its request (one die), and the modifier added to its face to make
/// the total whose order is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RankedDie {
    /// The die, as play asks for it.
    pub request: RollRequest,
    /// Added to its face.
    pub modifier: i32,
}

/// One order of a ranked roll's totals: the first face tuple (in lexicographic order, the
/// first die most significant) that gives it, and how many tuples give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankedOrder {
    /// The faces that answer it.
    pub faces: Vec<u32>,
    /// Tuples of faces that give this order.
    pub ways: u64,
}

/// What makes two ranked rolls the same for their orders: each die's sides and modifier.
pub type RankedKind = Vec<(u16, i32)>;

/// The kind of `dice` ([`RankedKind`]).
pub fn ranked_kind(dice: &[RankedDie]) -> RankedKind {
    dice.iter().map(|d| (d.request.sides, d.modifier)).collect()
}

/// Every order of the totals of `dice` (each a face of its die plus its modifier), in the
/// order of the first tuple that gives each, with the tuples giving it, and the number of
/// tuples in all; `None` when the roll is not one to rank (fewer than two dice, more than
/// [`MAX_RANKED_DICE`], a die of more than one die or none, or more than
/// [`MAX_RANKED_TUPLES`] tuples). Every tuple is counted: nothing is estimated.
pub fn ranked_orders(kind: &[(u16, i32)]) -> Option<(Vec<RankedOrder>, u64)> {
    if kind.len() < 2 || kind.len() > MAX_RANKED_DICE || kind.iter().any(|&(s, _)| s == 0) {
        return None;
    }
    let tuples = kind
        .iter()
        .try_fold(1u64, |n, &(s, _)| n.checked_mul(u64::from(s)))?;
    if tuples > MAX_RANKED_TUPLES {
        return None;
    }
    let n = kind.len();
    let mut faces = vec![1u32; n];
    let mut index: HashMap<[u8; MAX_RANKED_DICE], usize> = HashMap::new();
    let mut orders: Vec<RankedOrder> = Vec::new();
    for _ in 0..tuples {
        let mut totals = [0i64; MAX_RANKED_DICE];
        for (t, (&face, &(_, modifier))) in totals.iter_mut().zip(faces.iter().zip(kind)) {
            *t = i64::from(face) + i64::from(modifier);
        }
        let totals = &totals[..n];
        // Each die's place: how many distinct totals lie below its own (each counted at its
        // first die).
        let mut order = [0u8; MAX_RANKED_DICE];
        for (place, &mine) in order.iter_mut().zip(totals) {
            *place = (0..n)
                .filter(|&j| totals[j] < mine && !totals[..j].contains(&totals[j]))
                .count() as u8;
        }
        match index.get(&order) {
            Some(&at) => orders[at].ways += 1,
            None => {
                index.insert(order, orders.len());
                orders.push(RankedOrder {
                    faces: faces.clone(),
                    ways: 1,
                });
            }
        }
        // The next tuple, the last die counting fastest.
        for i in (0..n).rev() {
            if faces[i] < u32::from(kind[i].0) {
                faces[i] += 1;
                break;
            }
            faces[i] = 1;
        }
    }
    Some((orders, tuples))
}

/// Whether `dice` may be answered as one ranked roll ([`ranked_orders`] would count it): the
/// drivers that branch by order ask this before anything else.
pub fn rankable(dice: &[RankedDie]) -> bool {
    (2..=MAX_RANKED_DICE).contains(&dice.len())
        && dice
            .iter()
            .all(|d| d.request.count == 1 && d.request.keep.is_all() && d.request.sides > 0)
        && dice
            .iter()
            .try_fold(1u64, |n, d| n.checked_mul(u64::from(d.request.sides)))
            .is_some_and(|t| t <= MAX_RANKED_TUPLES)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four d6 with no modifiers: the 75 weak orders of four (the ordered Bell number), whose
    /// tuples add up to 6⁴; all tied is 6 tuples, answered with four 1s.
    #[test]
    fn four_d6_have_seventy_five_orders() {
        let (orders, tuples) = ranked_orders(&[(6, 0); 4]).unwrap();
        assert_eq!(tuples, 1296);
        assert_eq!(orders.len(), 75);
        assert_eq!(orders.iter().map(|o| o.ways).sum::<u64>(), 1296);
        assert_eq!(orders[0].faces, vec![1, 1, 1, 1]);
        assert_eq!(orders[0].ways, 6);
    }

    /// Two d6, the second at +1: P(first ahead) = 10/36, P(tie) = 5/36, P(second ahead) =
    /// 21/36, counted by hand (first ahead: f1 ≥ f2 + 2, 4+3+2+1 = 10; tie: f1 = f2 + 1, 5).
    #[test]
    fn a_modifier_moves_the_odds_of_the_order() {
        let (orders, _) = ranked_orders(&[(6, 0), (6, 1)]).unwrap();
        let ways = |faces: &[u32]| {
            orders
                .iter()
                .find(|o| o.faces == faces)
                .map_or(0, |o| o.ways)
        };
        // First tuples: (1,1) second ahead, (2,1) tied, (3,1) first ahead.
        assert_eq!(orders.len(), 3);
        assert_eq!(ways(&[1, 1]), 21);
        assert_eq!(ways(&[2, 1]), 5);
        assert_eq!(ways(&[3, 1]), 10);
    }

    /// Too few dice, too many, or too many tuples: not ranked.
    #[test]
    fn limits() {
        assert!(ranked_orders(&[(6, 0)]).is_none());
        assert!(ranked_orders(&[(6, 0); 9]).is_none());
        assert!(ranked_orders(&[(20, 0); 4]).is_none());
        assert!(ranked_orders(&[(20, 0); 3]).is_some());
    }
}
