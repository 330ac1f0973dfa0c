//! Grappling (CEL-R10.9–R10.11, R9 Escape a Grapple): starting a grapple (standard, Provoke;
//! simple with Improved Grapple), Grapple, Continued at the start of each of the initiator's
//! later turns (+5; move, damage or pin; a chokehold with a second check without the +5),
//! releasing it (free), escaping it or taking control of it (simple; −5 the second time in a
//! turn, −10 after), and what ends a grapple.

use super::maneuver::{Attempt, Checked};
use crate::content::{Hands, WeaponKind};
use crate::state::{Hold, HoldUse, State};
use crate::Celesia;
use fray_core::event::Event;
use fray_core::protocol::Interrupt;
use fray_core::{CombatantId, Pos, Table};

/// Acts a grapple action costs: 2 (standard), 1 with Improved Grapple; Grapple, Continued with
/// Move takes its Move simple action's act besides. [CEL-R10.9, R10.10]
pub fn acts(state: &State, who: CombatantId, use_: Option<HoldUse>) -> i32 {
    let base = if state.p(who).feats.improved_grapple {
        1
    } else {
        2
    };
    base + i32::from(matches!(use_, Some(HoldUse::Move(_))))
}

/// The −4 of a humanoid without two free hands (CEL-R10.9) on its grapple checks (starting and
/// continuing one; not escaping): a two-armed combatant whose wielded weapon (its first usable
/// melee form) is a held, manufactured one.
pub fn hands_penalty(state: &State, who: CombatantId) -> i32 {
    let holding = state
        .melee_forms(who)
        .next()
        .is_some_and(|(_, w)| !matches!(w.kind, WeaponKind::Natural | WeaponKind::Unarmed));
    if state.p(who).arms >= 2 && holding {
        -4
    } else {
        0
    }
}

/// The free space next to the grappler's space on `around` nearest to `toward` (ties clockwise
/// from north, [`crate::space::ring`]), for a grappled foe brought or put next to its grappler.
pub fn square_next_to(
    state: &State,
    around: Pos,
    toward: Pos,
    who: CombatantId,
    grappler: CombatantId,
) -> Option<Pos> {
    use fray_core::Board;
    // CEL-R21.3: the spaces of `who`'s size touching the grappler's space.
    let (sw, sg) = (state.side(who), state.side(grappler));
    crate::space::ring(around, sg, sw)
        .filter(|&p| {
            crate::space::squares(p, sw).all(|q| {
                !state
                    .occupancy
                    .any_at(q, |o| o != who && o != grappler && state.piece(o).blocks)
            })
        })
        .min_by_key(|&p| (p.squares_to(toward), euclid(p, toward)))
}

fn euclid(a: Pos, b: Pos) -> i64 {
    let (dx, dy) = (i64::from(a.x - b.x), i64::from(a.y - b.y));
    dx * dx + dy * dy
}

fn condition(table: &mut Table<'_, Celesia>, who: CombatantId, what: &'static str, on: bool) {
    table.emit(|| Event::Condition {
        who,
        condition: what,
        gained: on,
        rule: "CEL-R10.9",
    });
}

/// CEL-R10.9: start a grapple on `target` in melee reach. The action provokes; then the check
/// (−4 for a humanoid without two free hands). Success: both are grappled; a foe not next to
/// the grappler is brought to the free square next to it nearest to the foe (none: the grapple
/// fails).
pub fn start(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    target: CombatantId,
) -> Result<(), Interrupt> {
    if !super::round::provoke(state, table, who, None)? {
        return Ok(());
    }
    let mut attempt = Attempt::new(state, who, target, "grapple", "CEL-R10.9", false);
    attempt.grapple = true;
    attempt
        .bonus
        .push("no two free hands", "CEL-R10.9", hands_penalty(state, who));
    super::concealment::grapple_sources(state, target, &mut attempt.disadvantage);
    let checked = attempt.roll(state, table, who, target)?;
    if !checked.success() || !state.up(target) {
        return Ok(());
    }
    let (at, to) = (state.f(who).pos, state.f(target).pos);
    if state.gap(who, target) != 1 {
        let Some(next) = square_next_to(state, at, to, target, who) else {
            table.emit(|| Event::Forgone {
                who,
                what: "grapple",
                on: Some(target),
                reason: "no open space next to it to bring the foe to".into(),
                rule: "CEL-R10.9",
            });
            return Ok(());
        };
        state.set_square(target, next);
        table.emit(|| Event::Moved {
            who: target,
            from: to,
            to: next,
            feet: to.feet_to(next),
            mode: "pulled",
            hidden: super::concealment::hidden(state, target),
            rule: "CEL-R10.9",
        });
    }
    begin_hold(state, table, who, target);
    Ok(())
}

/// `who` holds `target`: both grappled; its duty to continue starts with its next turn.
pub fn begin_hold(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    target: CombatantId,
) {
    {
        let f = state.fm(who);
        f.hold = Some(Hold {
            target,
            pinned: false,
            choke: false,
        });
        f.maintained = true;
    }
    state.fm(target).held_by = Some(who);
    condition(table, who, "grappled", true);
    condition(table, target, "grappled", true);
}

/// Ends `who`'s grapple (released, escaped, or broken): neither is grappled any more, and a pin
/// and a chokehold end with it. [CEL-R10.9, R10.11]
pub fn end(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    why: &'static str,
    rule: &'static str,
) {
    let Some(hold) = state.fm(who).hold.take() else {
        return;
    };
    let target = hold.target;
    state.fm(target).held_by = None;
    table.emit(|| Event::Acted {
        who,
        act: "no longer grapples",
        on: Some(target),
        detail: why.into(),
        rule,
    });
    if hold.choke {
        condition(table, target, "in a chokehold", false);
    }
    if hold.pinned {
        condition(table, target, "pinned", false);
    }
    condition(table, who, "grappled", false);
    condition(table, target, "grappled", false);
}

/// Ends the grapples that can no longer be held: either side down or gone, or the two no
/// longer next to each other (pushed or moved apart). [CEL-R10.9]
pub fn tidy(state: &mut State, table: &mut Table<'_, Celesia>) {
    // Run after every action: no hold (most fights) is one quick pass.
    if state.fighters.iter().all(|f| f.hold.is_none()) {
        return;
    }
    for who in state.ids() {
        let Some(hold) = state.f(who).hold else {
            continue;
        };
        let t = hold.target;
        let apart = state.gap(who, t) != 1;
        if !state.up(who) || !state.up(t) || apart {
            let why = if apart {
                "no longer next to each other"
            } else {
                "one of them is down"
            };
            end(state, table, who, why, "CEL-R10.9");
        }
    }
}

/// CEL-R10.10 Grapple, Continued: a grapple check at +5 (CEL-A33). Failure ends the grapple
/// (the hold was not kept, a reading). Success keeps it, with a pin and a chokehold kept too,
/// and does what the grappler chose: pin; pin and a chokehold (a second check without the +5,
/// CEL-R10.11); damage with an unarmed strike, natural attack or light or one-handed weapon,
/// lethal or nonlethal; or a Move (provoking) carrying the foe, put next to it at the end.
pub fn maintain(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    use_: HoldUse,
) -> Result<(), Interrupt> {
    state.fm(who).maintained = true;
    let Some(hold) = state.f(who).hold else {
        return Ok(());
    };
    let target = hold.target;
    // CEL-R10.10 Tie Up: "a grapple combat maneuver check at a –10 penalty", instead of the +5
    // (CEL-A33).
    let (bonus, name) = if use_ == HoldUse::Tie {
        (-10, "grapple, continued (tie up)")
    } else {
        (5, "grapple, continued")
    };
    let checked = grapple_check(state, table, who, target, bonus, name, "CEL-R10.10")?;
    if !checked.success() {
        end(state, table, who, "the hold was not kept", "CEL-R10.10");
        return Ok(());
    }
    match use_ {
        HoldUse::Pin | HoldUse::Choke => {
            pin(state, table, who, target);
            if use_ == HoldUse::Choke && !hold.choke {
                let again = grapple_check(state, table, who, target, 0, "chokehold", "CEL-R10.11")?;
                if again.success() {
                    if let Some(h) = state.fm(who).hold.as_mut() {
                        h.choke = true;
                    }
                    table.emit(|| Event::Condition {
                        who: target,
                        condition: "in a chokehold",
                        gained: true,
                        rule: "CEL-R10.11",
                    });
                    let blood = state.p(who).feats.greater_grapple;
                    table.emit(|| Event::Acted {
                        who,
                        act: "chokes",
                        on: Some(target),
                        detail: if blood {
                            "the blood flow (Greater Grapple): holding its breath does not help"
                        } else {
                            "it cannot breathe or speak: no spells with a verbal component; it \
                             holds its breath or suffocates"
                        }
                        .into(),
                        rule: "CEL-R10.11",
                    });
                }
            }
        }
        HoldUse::Damage(form, nonlethal) => {
            let profiles = state.profiles.clone();
            let mut w = profiles[who.index()].melee[usize::from(form)].clone();
            w.nonlethal = nonlethal;
            table.emit(|| Event::Acted {
                who,
                act: "squeezes",
                on: Some(target),
                detail: format!(
                    "{} damage, {}",
                    w.name,
                    if nonlethal { "nonlethal" } else { "lethal" }
                ),
                rule: "CEL-R10.10",
            });
            super::attack::damage(state, table, who, target, &w, false, 0, "CEL-R10.10")?;
        }
        HoldUse::Tie => super::escape::tie(state, table, who, target),
        HoldUse::Move(to) => {
            if !super::round::provoke(state, table, who, None)? {
                return Ok(());
            }
            let from = state.f(target).pos;
            super::round::move_to(state, table, who, to, "move", "CEL-R10.10");
            if let Some(next) = square_next_to(state, to, from, target, who) {
                state.set_square(target, next);
                table.emit(|| Event::Moved {
                    who: target,
                    from,
                    to: next,
                    feet: from.feet_to(next),
                    mode: "carried",
                    hidden: super::concealment::hidden(state, target),
                    rule: "CEL-R10.10",
                });
            }
        }
    }
    Ok(())
}

fn pin(state: &mut State, table: &mut Table<'_, Celesia>, who: CombatantId, target: CombatantId) {
    let Some(h) = state.fm(who).hold.as_mut() else {
        return;
    };
    if !h.pinned {
        h.pinned = true;
        table.emit(|| Event::Condition {
            who: target,
            condition: "pinned",
            gained: true,
            rule: "CEL-R10.10",
        });
    }
}

/// A grapple check of `who` against `target`'s CMD with a circumstance bonus.
fn grapple_check(
    state: &State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    target: CombatantId,
    bonus: i32,
    name: &'static str,
    rule: &'static str,
) -> Result<Checked, Interrupt> {
    let mut attempt = Attempt::new(state, who, target, name, rule, false);
    attempt.grapple = true;
    attempt.bonus.push("circumstance", "CEL-R10.10", bonus);
    attempt
        .bonus
        .push("no two free hands", "CEL-R10.9", hands_penalty(state, who));
    super::concealment::grapple_sources(state, target, &mut attempt.disadvantage);
    attempt.roll(state, table, who, target)
}

/// CEL-R9 Escape a Grapple: a combat maneuver check against the grappler's CMD, −5 the second
/// time in a turn and −10 from the third. Success ends the grapple, or with `control` turns it
/// round: the escaper now holds its grappler (its duty to continue from its next turn).
pub fn escape(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    control: bool,
) -> Result<(), Interrupt> {
    let Some(grappler) = state.f(who).held_by else {
        // Not held but tied up: the check is against the ropes (CEL-R10.10 Tie Up).
        return super::escape::ropes(state, table, who, false);
    };
    let penalty = super::escape::count_try(state, who);
    let name = if control {
        "escape a grapple (take control)"
    } else {
        "escape a grapple"
    };
    let mut attempt = Attempt::new(state, who, grappler, name, "CEL-R9", false);
    attempt.grapple = true;
    attempt
        .bonus
        .push("escape attempts this turn", "CEL-R9", penalty);
    let checked = attempt.roll(state, table, who, grappler)?;
    if !checked.success() {
        return Ok(());
    }
    end(state, table, grappler, "escaped", "CEL-R9");
    if control {
        begin_hold(state, table, who, grappler);
    }
    Ok(())
}

/// May `w` (melee form `form` of `who`) deal a grapple's damage: an unarmed strike, natural
/// attack, or a light or one-handed weapon. [CEL-R10.10 Damage]
pub fn squeezes_with(state: &State, who: CombatantId, form: u8) -> bool {
    state
        .melee_forms(who)
        .find(|(i, _)| *i == usize::from(form))
        .is_some_and(|(_, w)| {
            matches!(w.kind, WeaponKind::Natural | WeaponKind::Unarmed) || w.hands != Hands::Two
        })
}
