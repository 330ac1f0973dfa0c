//! 1-round actions (CEL-R3.7, R13, A12) as one mechanism for every action that takes a round
//! (a 1-round spell, loading a two-handed simple firearm): they cost all 3 acts of a turn; the
//! actor counts as performing the action until the start of its next turn and has no reaction
//! from the moment it starts; the effect happens at the start of its next turn. Split: begun
//! with the last 1 or 2 acts of a turn, it is completed with the first 2 or 1 acts of the next,
//! and takes effect then (CEL-A12).
//!
//! An action is a 1-round action when an entry of [`ACTIONS`] recognises its choice; the entry
//! gives its rule and its effect. The mechanism pays the acts, asks the attacks of opportunity
//! of a Provoke action when it starts (CEL-R3.5), keeps the action in `Fighter::one_round`,
//! blocks the reactions and completes (or loses) it.
//!
//! Adopted readings (the seed is silent): the action is lost when its actor is not up
//! (unconscious, dying, dead, gone) when it would complete, or when a split action's next turn
//! has fewer acts than it still needs (CEL-A12 reading); damage that leaves the actor up does
//! not interrupt it (the seed gives no concentration check for damage). Taken with more than 3
//! acts left (haste), the whole form spends 3 and the actor, still performing it, does nothing
//! more that turn.

use super::{injury, round};
use crate::choice::Choice;
use crate::state::State;
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::{Illegal, Interrupt};
use fray_core::{CombatantId, Table};

/// CEL-R3.7: a 1-round action costs all 3 acts of a turn.
pub const ACTS: u8 = 3;

/// The effect of a 1-round action when it completes: `(state, table, actor, the action)`.
pub type Effect =
    fn(&mut State, &mut Table<'_, Celesia>, CombatantId, Choice) -> Result<(), Interrupt>;

/// One kind of 1-round action.
#[derive(Debug, Clone, Copy)]
pub struct Kind {
    /// Recognises its choices.
    pub is: fn(&State, CombatantId, &Choice) -> bool,
    /// Whether it has the Provoke subtype (its attacks of opportunity come when it starts).
    pub provokes: bool,
    /// What the log calls it (`casts a 1-round spell`).
    pub name: &'static str,
    /// The rule that makes it a 1-round action (`CEL-R13`).
    pub rule: &'static str,
    /// What it does when it completes.
    pub effect: Effect,
}

/// Every 1-round action fray plays. [CEL-R13]
pub const ACTIONS: &[Kind] = &[
    super::spell::ONE_ROUND,
    Kind {
        is: super::ammo::one_round_load,
        provokes: true,
        name: "loads a two-handed simple firearm",
        rule: "CEL-R13",
        effect: super::ammo::complete_load,
    },
];

/// A 1-round action under way. [CEL-R3.7]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OneRound {
    /// The action, as chosen.
    pub action: Choice,
    /// Acts committed to it: 3 when taken whole; 1 or 2 when split and not yet completed.
    pub done: u8,
}

/// The kind of 1-round action `choice` is, if it is one.
#[inline]
pub fn kind(state: &State, who: CombatantId, choice: &Choice) -> Option<&'static Kind> {
    ACTIONS.iter().find(|k| (k.is)(state, who, choice))
}

/// Acts a 1-round action takes now: 3 with 3 or more left; begun with the turn's last 1 or 2
/// acts, those (the split form). [CEL-R3.7]
pub fn cost(acts_left: i32) -> i32 {
    acts_left.clamp(1, i32::from(ACTS))
}

/// Whether `who` may begin a 1-round action now (its acts aside: [`cost`] fits any budget of
/// 1 or more): not while staggered (one simple action only, CEL-R20.2).
pub fn check(explain: bool, state: &State, who: CombatantId) -> Result<(), Illegal> {
    Illegal::unless(!state.staggered(who), explain, "CEL-R20.2", || {
        "a staggered creature takes only a single simple action, not a 1-round action".to_string()
    })
}

/// Begins a 1-round action whose acts (`acts`, from [`cost`]) are paid: its attacks of
/// opportunity first if it provokes (an actor dropped by them does not begin it), then the
/// action is under way and the turn's other acts are given up. [CEL-R3.5, R3.7]
pub fn begin(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    action: Choice,
    acts: i32,
) -> Result<(), Interrupt> {
    let Some(k) = kind(state, who, &action) else {
        return Ok(());
    };
    if k.provokes && !round::provoke(state, table, who, None)? {
        return Ok(());
    }
    let done = acts.clamp(1, i32::from(ACTS)) as u8;
    let forgone = state.f(who).acts_left;
    {
        let f = state.fm(who);
        f.one_round = Some(OneRound { action, done });
        // Acts left unspent come between this action's acts and the next turn's. [CEL-R3.1]
        f.act_clock += forgone.max(0) as u32;
        f.acts_left = 0;
    }
    let text = crate::choice::text(state, &action);
    table.emit(|| Event::Acted {
        who,
        act: "begins a 1-round action",
        on: None,
        detail: if done == ACTS {
            format!(
                "{} ({text}): it takes effect at the start of its next turn; no reactions until \
                 then",
                k.name
            )
        } else {
            format!(
                "{} ({text}): {done} of {ACTS} acts, split; it takes effect when {} of its next \
                 turn complete{} it; no reactions until then",
                k.name,
                if ACTS - done == 1 {
                    "the first act"
                } else {
                    "the first 2 acts"
                },
                if ACTS - done == 1 { "s" } else { "" }
            )
        },
        rule: "CEL-R3.7",
    });
    if forgone > 0 {
        table.emit(|| Event::Forgone {
            who,
            what: "acts",
            on: None,
            reason: format!("{forgone} left while it performs the 1-round action"),
            rule: "CEL-R3.7",
        });
    }
    Ok(())
}

/// Whether `who` is performing a 1-round action (it has no reactions). [CEL-R3.7, R15]
pub fn performing(state: &State, who: CombatantId) -> bool {
    state.f(who).one_round.is_some()
}

/// The start of `who`'s turn, after bleeding: a 1-round action taken whole takes effect now;
/// one whose actor is no longer up is lost. [CEL-R3.7]
#[inline]
pub fn at_turn_start(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    // At every turn: this test inline in the caller, the rest out of line (issue 16).
    match state.f(who).one_round {
        Some(under_way) => take_effect(state, table, who, under_way),
        None => Ok(()),
    }
}

/// [`at_turn_start`], for a 1-round action under way.
#[inline(never)]
fn take_effect(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    under_way: OneRound,
) -> Result<(), Interrupt> {
    if !state.up(who) {
        state.fm(who).one_round = None;
        lost(state, table, who, under_way, "its performer is down".into());
        return Ok(());
    }
    if under_way.done >= ACTS {
        state.fm(who).one_round = None;
        complete(state, table, who, under_way.action)?;
    }
    Ok(())
}

/// Once the turn's acts are known: a split 1-round action is completed with the first acts of
/// the turn, and takes effect (CEL-A12); too few acts this turn and it is lost. [CEL-R3.7]
#[inline]
pub fn finish_split(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
) -> Result<(), Interrupt> {
    // At every turn: this test inline in the caller, the rest out of line (issue 16).
    match state.f(who).one_round {
        Some(under_way) => complete_split(state, table, who, under_way),
        None => Ok(()),
    }
}

/// [`finish_split`], for a 1-round action under way.
#[inline(never)]
fn complete_split(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    under_way: OneRound,
) -> Result<(), Interrupt> {
    state.fm(who).one_round = None;
    let still = i32::from(ACTS - under_way.done.min(ACTS));
    let left = state.f(who).acts_left;
    if left < still {
        lost(
            state,
            table,
            who,
            under_way,
            format!("it needs {still} more act{} and has {left}", plural(still)),
        );
        return Ok(());
    }
    {
        let f = state.fm(who);
        f.acts_left -= still;
        f.act_clock += still as u32;
        f.acted = true;
    }
    let text = crate::choice::text(state, &under_way.action);
    table.emit(|| Event::Acted {
        who,
        act: "completes its 1-round action",
        on: None,
        detail: format!("{text}: the last {still} act{}", plural(still)),
        rule: "CEL-A12",
    });
    let action = under_way.action;
    if let Some(k) = kind(state, who, &action) {
        (k.effect)(state, table, who, action)?;
    }
    injury::strain(state, table, who, still);
    Ok(())
}

/// The whole action's effect at the start of the next turn. [CEL-R3.7]
fn complete(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    action: Choice,
) -> Result<(), Interrupt> {
    let text = crate::choice::text(state, &action);
    table.emit(|| Event::Acted {
        who,
        act: "completes its 1-round action",
        on: None,
        detail: format!("{text}: at the start of its turn"),
        rule: "CEL-R3.7",
    });
    if let Some(k) = kind(state, who, &action) {
        (k.effect)(state, table, who, action)?;
    }
    Ok(())
}

fn lost(
    state: &State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    under_way: OneRound,
    reason: String,
) {
    let text = crate::choice::text(state, &under_way.action);
    table.emit(|| Event::Forgone {
        who,
        what: "1-round action",
        on: None,
        reason: format!("{text} is lost: {reason}"),
        rule: "CEL-R3.7",
    });
}

fn plural(n: i32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
