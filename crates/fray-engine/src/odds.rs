//! Exact odds of one attack: every die result enumerated with its exact probability (see
//! `fray_core::odds`), summarised as P(miss), P(hit), P(critical), the damage pmf and P(target at
//! or below 0 hit points).

use fray_core::event::{AttackResult, Event};
use fray_core::odds::{enumerate_with, OddsError};
use fray_core::{CombatantId, Ruleset, Table};
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use std::collections::BTreeMap;

pub use fray_core::ruleset::{AttackPlay, Criticals};

/// The exact distribution of one attack's outcome.
#[derive(Debug, Clone)]
pub struct OddsReport {
    /// Attacker's key.
    pub attacker: String,
    /// Target's key.
    pub target: String,
    /// P(no attack of the action hits the target).
    pub miss: BigRational,
    /// P(at least one hit).
    pub hit: BigRational,
    /// P(a critical hit, grievous ones included), for systems that have them.
    pub critical: Option<BigRational>,
    /// P(a grievous hit), for systems that have them (Spelljammer).
    pub grievous: Option<BigRational>,
    /// Damage dealt to the target (normal + subdual) and its probability.
    pub damage: Vec<(i32, BigRational)>,
    /// P(the target is at or below 0 hit points afterwards).
    pub down: BigRational,
    /// Number of branches enumerated.
    pub branches: usize,
}

/// Why odds could not be computed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OddsFailure {
    /// An unknown combatant.
    #[error("no combatant `{0}` in this encounter")]
    Unknown(String),
    /// Attacker and target are the same.
    #[error("a combatant cannot attack itself")]
    SameCombatant,
    /// Enumeration failed.
    #[error("{0}")]
    Enumeration(String),
}

/// Converts an exact probability to f64 for display.
pub fn to_f64(p: &BigRational) -> f64 {
    p.to_f64().unwrap_or(f64::NAN)
}

/// Finds attacker and target by key.
fn pair(
    roster: &fray_core::Roster,
    attacker: &str,
    target: &str,
) -> Result<(CombatantId, CombatantId), OddsFailure> {
    let a = roster
        .find(attacker)
        .ok_or_else(|| OddsFailure::Unknown(attacker.to_string()))?;
    let t = roster
        .find(target)
        .ok_or_else(|| OddsFailure::Unknown(target.to_string()))?;
    if a == t {
        return Err(OddsFailure::SameCombatant);
    }
    Ok((a, t))
}

/// What one play of the attack did to the target, read from its events.
fn classify(events: &[(u32, Event)], a: CombatantId, t: CombatantId) -> Sample {
    let mut sample = Sample {
        hit: false,
        critical: false,
        grievous: false,
        damage: 0,
        down: false,
    };
    for (_, e) in events {
        match e {
            Event::Attack {
                attacker,
                target,
                result,
                ..
            } if *attacker == a && *target == t => {
                sample.hit |= result.is_hit();
                sample.critical |= *result == AttackResult::Critical;
            }
            Event::Strike {
                attacker,
                target,
                result,
                ..
            } if *attacker == a && *target == t => {
                sample.hit |= result.is_hit();
                sample.critical |=
                    matches!(result, AttackResult::Critical | AttackResult::Grievous);
                sample.grievous |= *result == AttackResult::Grievous;
            }
            Event::Damage {
                target,
                normal,
                subdual,
                hp,
                ..
            } if *target == t => {
                sample.damage += normal + subdual;
                sample.down = *hp <= 0;
            }
            _ => {}
        }
    }
    sample
}

/// Enumerates `play(attacker, target)` from `start` and summarises it.
pub fn single_attack<R: Ruleset>(
    start: &R::State,
    attacker: &str,
    target: &str,
    play: AttackPlay<R>,
    criticals: Criticals,
) -> Result<OddsReport, OddsFailure> {
    let roster = R::roster(start);
    let (a, t) = pair(roster, attacker, target)?;
    let zero = || BigRational::zero();
    let (mut miss, mut hit, mut crit, mut down) = (zero(), zero(), zero(), zero());
    let mut grievous = zero();
    let mut damage: BTreeMap<i32, BigRational> = BTreeMap::new();
    // Each branch is folded into the totals as soon as it ends: nothing per branch is kept.
    let branches = enumerate_with::<R>(
        start,
        1,
        |state, table| play(state, table, a, t),
        |probability, _state, events| {
            let outcome = classify(events, a, t);
            if outcome.hit {
                hit += probability;
            } else {
                miss += probability;
            }
            if outcome.critical {
                crit += probability;
            }
            if outcome.grievous {
                grievous += probability;
            }
            *damage.entry(outcome.damage).or_insert_with(zero) += probability;
            if outcome.down {
                down += probability;
            }
        },
    )
    .map_err(|e| match e {
        OddsError::Stopped(i) => OddsFailure::Enumeration(crate::explain(&i, roster)),
        other => OddsFailure::Enumeration(other.to_string()),
    })?;
    Ok(OddsReport {
        attacker: roster.key(a).to_string(),
        target: roster.key(t).to_string(),
        miss,
        hit,
        critical: (criticals != Criticals::None).then_some(crit),
        grievous: (criticals == Criticals::Grievous).then_some(grievous),
        damage: damage.into_iter().collect(),
        down,
        branches,
    })
}

/// One sampled outcome of a single attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// Any attack of the action hit the target.
    pub hit: bool,
    /// A critical hit (grievous ones included).
    pub critical: bool,
    /// A grievous hit.
    pub grievous: bool,
    /// Damage dealt to the target.
    pub damage: i32,
    /// The target ended at or below 0 hit points.
    pub down: bool,
}

/// Plays the same single attack as [`single_attack`] once with seeded dice (Monte Carlo
/// counterpart of the exact odds; tests check the two agree).
pub fn sample_single_attack<R: Ruleset>(
    start: &R::State,
    attacker: &str,
    target: &str,
    play: AttackPlay<R>,
    seed: u64,
) -> Result<Sample, OddsFailure> {
    let roster = R::roster(start);
    let (a, t) = pair(roster, attacker, target)?;
    let mut state = start.clone();
    let mut driver = fray_core::AutoDriver::new(seed);
    let mut sink = fray_core::VecSink::default();
    {
        let mut table = Table::new(&mut driver, &mut sink, None, &fray_core::Limits::default());
        table.set_round(1);
        play(&mut state, &mut table, a, t)
            .map_err(|i| OddsFailure::Enumeration(crate::explain(&i, roster)))?;
    }
    Ok(classify(&sink.events, a, t))
}
