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
use fray_core::protocol::{refuse as no, Illegal, Interrupt};
use fray_core::{CombatantId, Pos, Table};

/// Acts a grapple action costs: 2 (standard), 1 with Improved Grapple; Grapple, Continued with
/// Move takes its Move simple action's act besides. [CEL-R10.9, R10.10]
pub fn acts(state: &State, who: CombatantId, use_: Option<HoldUse>) -> i32 {
    let base = if state.p(who).feats.improved_grapple {
        1
    } else {
        2
    };
    base + i32::from(matches!(use_, Some(HoldUse::Move(_) | HoldUse::Place(..))))
}

/// The −4 of a humanoid without two free hands (CEL-R10.9) on its grapple checks (starting and
/// continuing one; not escaping): a two-armed combatant whose wielded weapon (its first usable
/// melee form) is a held, manufactured one.
pub fn hands_penalty(state: &State, who: CombatantId) -> i32 {
    let holding = state
        .melee_forms(who)
        .next()
        .is_some_and(|(_, w)| !matches!(w.kind, WeaponKind::Natural | WeaponKind::Unarmed));
    // CEL-R9: a strapped shield takes its hand while hands are tracked (`shield::hands_taken`).
    if state.p(who).arms >= 2 && (holding || super::shield::hands_taken(state, who) > 0) {
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
    square_next_to_where(state, around, toward, who, grappler, |_| true)
}

/// [`square_next_to`] among the spaces `keep` accepts.
pub fn square_next_to_where(
    state: &State,
    around: Pos,
    toward: Pos,
    who: CombatantId,
    grappler: CombatantId,
    keep: impl Fn(Pos) -> bool,
) -> Option<Pos> {
    // CEL-R21.3: the spaces of `who`'s size touching the grappler's space.
    let (sw, sg) = (state.side(who), state.side(grappler));
    crate::space::ring(around, sg, sw)
        .filter(|&p| space_free(state, p, who, grappler) && keep(p))
        .min_by_key(|&p| (p.squares_to(toward), euclid(p, toward)))
}

/// Whether `who`'s space on `p` is on nobody but itself and its grappler.
fn space_free(state: &State, p: Pos, who: CombatantId, grappler: CombatantId) -> bool {
    use fray_core::Board;
    crate::space::squares(p, state.side(who)).all(|q| {
        !state
            .occupancy
            .any_at(q, |o| o != who && o != grappler && state.piece(o).blocks)
    })
}

/// CEL-R10.10 Move: "At the end of that move action, you can place your target in any space
/// adjacent to you": `q`, a space of the target's size touching the grappler's space on `p`,
/// on nobody else.
pub fn check_place(
    explain: bool,
    state: &State,
    who: CombatantId,
    target: CombatantId,
    p: Pos,
    q: Pos,
) -> Result<(), Illegal> {
    let rule = "CEL-R10.10";
    let touching = crate::space::ring(p, state.side(who), state.side(target)).any(|r| r == q);
    if !touching {
        return no(explain, rule, || {
            format!(
                "({}, {}) is not a space next to the grappler's space at ({}, {})",
                q.x, q.y, p.x, p.y
            )
        });
    }
    Illegal::unless(space_free(state, q, target, who), explain, rule, || {
        format!("the space at ({}, {}) is taken", q.x, q.y)
    })
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
    super::confusion::attacked(state, who, target);
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
    state.linked = crate::state::CacheFlag(true);
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

/// Ends the grapples that can no longer be held: either side down or gone, the two no longer
/// next to each other (pushed or moved apart), or no line of effect between them (an obstacle
/// the GM raised between them: a diagonal wall through the corner they touch at; see
/// docs/celesia.md, *Obstacles and difficult terrain*). [CEL-R10.9; `rules::line_of_effect`]
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
        let walled = !apart && !super::line_of_effect::open(state, who, t);
        if !state.up(who) || !state.up(t) || apart || walled {
            let why = if apart {
                "no longer next to each other"
            } else if walled {
                "an obstacle between them (no line of effect)"
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
    super::confusion::attacked(state, who, target);
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
            super::attack::damage(
                state,
                table,
                who,
                target,
                &w,
                super::crit_deck::Critical::No,
                0,
                "CEL-R10.10",
            )?;
        }
        HoldUse::Tie => super::escape::tie(state, table, who, target),
        HoldUse::Move(to) | HoldUse::Place(to, _) => {
            if !super::round::provoke(state, table, who, None)? {
                return Ok(());
            }
            let from = state.f(target).pos;
            super::round::move_to(state, table, who, to, "move", "CEL-R10.10");
            let placed = match use_ {
                HoldUse::Place(_, q) if space_free(state, q, target, who) => Some(q),
                _ => square_next_to(state, to, from, target, who),
            };
            if let Some(next) = placed {
                super::hazard::place(state, table, who, target, (from, to, next))?;
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
    let bonus = ("escape attempts this turn", "CEL-R9", penalty);
    if escape_check(state, table, who, grappler, name, bonus)? && control {
        begin_hold(state, table, who, grappler);
    }
    Ok(())
}

/// CEL-R10.10 Move: about to be placed in a hazardous location, `who` "can attempt to free
/// itself from the grapple as a reaction, and gains a +4 bonus on that attempt": the escape's
/// combat maneuver check at +4 (a reaction, not the Escape a Grapple action: no repeat penalty,
/// not counted among the turn's escapes). True if it is free.
pub fn free_itself(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    grappler: CombatantId,
) -> Result<bool, Interrupt> {
    let bonus = ("hazardous placement", "CEL-R10.10", HAZARD_BONUS);
    escape_check(state, table, who, grappler, "free itself (hazard)", bonus)
}

/// CEL-R10.10 Move: "gains a +4 bonus on that attempt".
pub const HAZARD_BONUS: i32 = 4;

/// An escape's combat maneuver check against the grappler's CMD with one more modifier (its
/// rule the check's); success ends the grapple. True on success.
fn escape_check(
    state: &mut State,
    table: &mut Table<'_, Celesia>,
    who: CombatantId,
    grappler: CombatantId,
    name: &'static str,
    (label, rule, value): (&'static str, &'static str, i32),
) -> Result<bool, Interrupt> {
    let mut attempt = Attempt::new(state, who, grappler, name, rule, false);
    attempt.grapple = true;
    attempt.bonus.push(label, rule, value);
    let checked = attempt.roll(state, table, who, grappler)?;
    if !checked.success() {
        return Ok(false);
    }
    end(state, table, grappler, "escaped", rule);
    Ok(true)
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
