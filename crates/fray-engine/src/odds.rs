//! Exact odds of one attack: every die result enumerated with its exact probability (see
//! `fray_core::odds`), summarised as P(miss), P(hit), P(critical), P(fumble) where the system
//! has fumble tables, the damage pmf and P(target at or below 0 hit points).

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
    /// P(a critical fumble: a miss with a mishap), for systems with fumble tables. Fumbles are
    /// also counted in `miss` when no attack of the action hit.
    pub fumble: Option<BigRational>,
    /// Damage dealt to the target (normal + subdual) and its probability.
    pub damage: Vec<(i32, BigRational)>,
    /// P(the target is at or below 0 hit points afterwards).
    pub down: BigRational,
    /// Number of branches enumerated.
    pub branches: usize,
    /// What the odds assume, in words: where the attacker stands, the attack and its weapon,
    /// every modifier, and the number each blow needs.
    pub assumptions: Vec<String>,
}

/// Why odds could not be computed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OddsFailure {
    /// An unknown combatant (with the nearest keys, if any are near).
    #[error("no combatant `{0}` in this encounter{1}")]
    Unknown(String, String),
    /// A `--weapon` or `--situation` the ruleset cannot set.
    #[error("{0}")]
    Situation(String),
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

/// An enumeration's failure in words: where the rules stopped (explained with the roster's
/// names), or the limit it reached.
pub(crate) fn failure(e: OddsError, roster: &fray_core::Roster) -> OddsFailure {
    match e {
        OddsError::Stopped(i) => OddsFailure::Enumeration(crate::explain(&i, roster)),
        other => OddsFailure::Enumeration(other.to_string()),
    }
}

/// Finds attacker and target by key.
pub(crate) fn pair(
    roster: &fray_core::Roster,
    attacker: &str,
    target: &str,
) -> Result<(CombatantId, CombatantId), OddsFailure> {
    let find = |key: &str| {
        roster.find(key).ok_or_else(|| {
            let keys = roster.combatants.iter().map(|c| c.key.as_str());
            OddsFailure::Unknown(key.to_string(), fray_core::loader::did_you_mean(key, keys))
        })
    };
    let (a, t) = (find(attacker)?, find(target)?);
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
        fumble: false,
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
                sample.critical |= result.is_critical();
                sample.grievous |= *result == AttackResult::Grievous;
                sample.fumble |= *result == AttackResult::Fumble;
            }
            Event::Strike {
                attacker,
                target,
                result,
                ..
            } if *attacker == a && *target == t => {
                sample.hit |= result.is_hit();
                sample.critical |= result.is_critical();
                sample.grievous |= *result == AttackResult::Grievous;
                sample.fumble |= *result == AttackResult::Fumble;
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
) -> Result<OddsReport, OddsFailure>
where
    R::State: fray_core::Board,
{
    let roster = R::roster(start);
    let (a, t) = pair(roster, attacker, target)?;
    let zero = || BigRational::zero();
    let (mut miss, mut hit, mut crit, mut down) = (zero(), zero(), zero(), zero());
    let (mut grievous, mut fumble) = (zero(), zero());
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
            if outcome.fumble {
                fumble += probability;
            }
            *damage.entry(outcome.damage).or_insert_with(zero) += probability;
            if outcome.down {
                down += probability;
            }
        },
    )
    .map_err(|e| failure(e, roster))?;
    let assumptions = assumptions::<R>(start, a, t, play);
    Ok(OddsReport {
        assumptions,
        attacker: roster.key(a).to_string(),
        target: roster.key(t).to_string(),
        miss,
        hit,
        critical: criticals.has_critical().then_some(crit),
        grievous: criticals.has_grievous().then_some(grievous),
        fumble: criticals.has_fumble().then_some(fumble),
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
    /// A critical fumble.
    pub fumble: bool,
    /// Damage dealt to the target.
    pub damage: i32,
    /// The target ended at or below 0 hit points.
    pub down: bool,
}

/// What the exact odds of `a` attacking `t` assume, read from one played attack (the modifiers
/// and the number needed do not depend on the dice): a move to close in, and for each blow the
/// attack, its weapon, every modifier on both sides and the roll it needs.
fn assumptions<R: Ruleset>(
    start: &R::State,
    a: CombatantId,
    t: CombatantId,
    play: AttackPlay<R>,
) -> Vec<String>
where
    R::State: fray_core::Board,
{
    let roster = R::roster(start);
    // One play for the attack; a few more seeds until one hits, for the damage modifiers.
    let mut out = Vec::new();
    let mut damage_line = None;
    for seed in 0..32 {
        let mut state = start.clone();
        let mut driver = fray_core::AutoDriver::new(seed);
        let mut sink = fray_core::VecSink::default();
        {
            let mut table = Table::new(&mut driver, &mut sink, None, &fray_core::Limits::default());
            table.set_round(1);
            if play(&mut state, &mut table, a, t).is_err() {
                return Vec::new();
            }
        }
        if seed == 0 {
            out = attack_lines(start, &state, &sink.events, roster, a, t);
        }
        damage_line = sink.events.iter().find_map(|(_, event)| match event {
            Event::Damage {
                target, modifiers, ..
            } if *target == t => {
                let mut line = "damage: the dice".to_string();
                fray_core::event::modifiers_text(&mut line, modifiers);
                Some(line)
            }
            _ => None,
        });
        if damage_line.is_some() {
            break;
        }
    }
    out.extend(damage_line);
    out
}

/// The assumption lines of one played attack: the move to close in, and each blow's roll.
fn attack_lines<S: fray_core::Board>(
    start: &S,
    end: &S,
    events: &[(u32, Event)],
    roster: &fray_core::Roster,
    a: CombatantId,
    t: CombatantId,
) -> Vec<String> {
    let mut out = Vec::new();
    let (from, to) = (start.square_of(a), end.square_of(a));
    if from != to {
        out.push(format!(
            "it has closed in: from ({}, {}) to ({}, {}), {} ft from the target",
            from.x,
            from.y,
            to.x,
            to.y,
            to.feet_to(end.square_of(t))
        ));
    }
    for (_, event) in events {
        match event {
            Event::Moved { who, .. } if *who == a => {
                out.push(format!("it closes in first: {}", event.describe(roster)));
            }
            Event::Attack {
                attacker,
                target,
                attack,
                roll,
                modifiers,
                total,
                defense,
                versus,
                defense_modifiers,
                ..
            } if *attacker == a && *target == t => {
                let bonus = total - *roll as i32;
                let mut line = format!("{attack}: d20");
                fray_core::event::modifiers_text(&mut line, modifiers);
                line.push_str(&format!(" vs {defense} {versus}"));
                if !defense_modifiers.is_empty() {
                    line.push_str(" [");
                    fray_core::event::modifiers_text(&mut line, defense_modifiers);
                    line.push_str(" ]");
                }
                line.push_str(&format!(" — needs {}+ on the d20", versus - bonus));
                out.push(line);
            }
            Event::Strike {
                attacker,
                target,
                attack,
                strike,
                strike_modifiers,
                defense,
                defense_modifiers,
                needed,
                ..
            } if *attacker == a && *target == t => {
                let mut line = format!("{attack}: SC {strike}");
                fray_core::event::modifiers_text(&mut line, strike_modifiers);
                line.push_str(&format!(" − DEF {defense}"));
                fray_core::event::modifiers_text(&mut line, defense_modifiers);
                line.push_str(&format!(" — needs {needed} or less on the d100"));
                out.push(line);
            }
            _ => {}
        }
    }
    out
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
