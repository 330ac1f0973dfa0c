//! Which choices are legal, and why the others are not: declarations (CNC-R6.1, CNC-R17),
//! actions (CNC-R4), reactions. The options offered are exactly the candidates that pass
//! [`check`], so the two can never disagree.

use super::attack::{can_melee, range_band, Band};
use super::damage::needs_aid;
use super::defense::too_big_to_overbear;
use super::movement::{
    charge_distance_ok, charge_lane_clear, free, half_move, squares_for, strike_square,
};
use crate::choice::{Choice, Pace};
use crate::content::Aim;
use crate::state::{Cover, State};
use fray_core::protocol::Question;
use fray_core::{CombatantId, Illegal};

use fray_core::protocol::refuse as no;

fn foe_check(w: bool, state: &State, actor: CombatantId, t: CombatantId) -> Result<(), Illegal> {
    if !state.enemies(actor, t) {
        return no(w, "CNC-R4.2", || {
            format!("{} is not a foe", state.roster.name(t))
        });
    }
    if !state.f(t).fights_on() {
        return no(w, "CNC-R19", || {
            format!("{} is already out of the fight", state.roster.name(t))
        });
    }
    Ok(())
}

fn may_attack(w: bool, state: &State, actor: CombatantId, t: CombatantId) -> Result<(), Illegal> {
    foe_check(w, state, actor, t)?;
    if state.options.cover_forbids_attacks && state.f(actor).cover != Cover::None {
        return no(w, "CNC-G8", || {
            "the CK rules that a creature in cover cannot attack"
        });
    }
    if state.f(actor).free_attacked == Some(t) {
        return no(w, "CNC-R17.2a", || {
            "no second attack on a fleeing character after the free attack"
        });
    }
    Ok(())
}

fn in_reach_after_half_move(
    w: bool,
    state: &State,
    actor: CombatantId,
    t: CombatantId,
    reach: i32,
) -> Result<(), Illegal> {
    if strike_square(state, actor, t, reach, half_move(state, actor)).is_none() {
        return no(w, "CNC-R5.4", || {
            format!(
                "{} cannot be reached with at most half a move ({} ft)",
                state.roster.name(t),
                half_move(state, actor)
            )
        });
    }
    Ok(())
}

/// Checks a choice for the question asked of `actor`.
pub fn check(
    w: bool,
    state: &State,
    actor: CombatantId,
    question: Question,
    choice: &Choice,
) -> Result<(), Illegal> {
    let m = state.options.maneuvers;
    let me = state.f(actor);
    match (question, *choice) {
        (Question::Reaction, Choice::Yes | Choice::No) => Ok(()),
        (Question::Reaction, _) => no(w, "CNC-R4.1", || "answer `yes` or `no`"),
        (Question::Declaration, c) => match c {
            Choice::NoDeclaration => Ok(()),
            Choice::Charge(t) => {
                foe_check(w, state, actor, t)?;
                if me.held_by.is_some() {
                    return no(w, "CNC-R11.2", || {
                        "a held creature can only try to break the hold"
                    });
                }
                if !can_melee(state, actor) {
                    return no(w, "CNC-R6.1", || {
                        "a charge ends in a melee attack: no melee weapon"
                    });
                }
                let rate = state.p(actor).movement;
                let d = me.pos.feet_to(state.f(t).pos);
                if !charge_distance_ok(rate, d) {
                    return no(w, "CNC-R6.2", || {
                        format!(
                            "a charge covers {rate} to {} ft; the target is {d} ft away",
                            2 * rate
                        )
                    });
                }
                if !charge_lane_clear(state, actor, t) {
                    return no(w, "CNC-R6.2", || {
                        "a charge needs a clear straight line to the target"
                    });
                }
                Ok(())
            }
            Choice::Dodge if m.dodge => Ok(()),
            Choice::Evade(t) if m.evade => foe_check(w, state, actor, t),
            Choice::DisengageHasty | Choice::DisengageFighting if m.disengage => {
                if !state.engaged(actor, state.round) {
                    return no(w, "CNC-R17.2", || "disengaging needs an opponent in melee");
                }
                Ok(())
            }
            Choice::Dodge
            | Choice::Evade(_)
            | Choice::DisengageHasty
            | Choice::DisengageFighting => no(w, "CNC-G14", || {
                "this maneuver is switched off for this fight"
            }),
            _ => no(w, "CNC-R6.1", || {
                "before initiative only `none`, `charge`, `dodge`, `evade` or `disengage` may be announced"
            }),
        },
        (Question::Action | Question::Ruling, c) => check_action(w, state, actor, c),
    }
}

fn check_action(w: bool, state: &State, actor: CombatantId, choice: Choice) -> Result<(), Illegal> {
    let me = state.f(actor);
    let p = state.p(actor);
    let m = state.options.maneuvers;
    if me.held_by.is_some() && !matches!(choice, Choice::BreakHold | Choice::Hold) {
        return no(w, "CNC-R11.2", || {
            "a held creature can only try to break the hold"
        });
    }
    match choice {
        Choice::Hold => Ok(()),
        Choice::BreakHold => {
            if me.held_by.is_none() {
                return no(w, "CNC-R11.3", || "not held");
            }
            Ok(())
        }
        Choice::Recover => {
            if !me.disarmed {
                return no(w, "CNC-R17.3", || "not disarmed: nothing to pick up");
            }
            Ok(())
        }
        Choice::Attack(t) => {
            may_attack(w, state, actor, t)?;
            if !can_melee(state, actor) {
                return no(w, "CNC-R17.3", || {
                    "disarmed: no weapon (or natural attack) to attack with; `recover` picks it up"
                });
            }
            in_reach_after_half_move(w, state, actor, t, p.reach())
        }
        Choice::Subdue(t) => {
            if state.p(actor).monster {
                return no(w, "CNC-R21.2", || {
                    "only a weapon-wielder may strike to subdue"
                });
            }
            check_action(w, state, actor, Choice::Attack(t))
        }
        Choice::TwoWeapons(t) => {
            if !m.two_weapon {
                return no(w, "CNC-G14", || {
                    "two-weapon fighting is switched off for this fight"
                });
            }
            if p.off_hand.is_none() && !p.monk {
                return no(w, "CNC-R17.7", || {
                    "two-weapon fighting needs a second weapon"
                });
            }
            check_action(w, state, actor, Choice::Attack(t))
        }
        Choice::Shoot(t) => {
            may_attack(w, state, actor, t)?;
            let Some(weapon) = &p.ranged else {
                return no(w, "CNC-R8", || "no missile weapon");
            };
            let d = me.pos.feet_to(state.f(t).pos);
            if range_band(weapon.range_increment, d) == Band::Beyond {
                return no(w, "CNC-R8.3", || {
                    format!(
                        "{d} ft is beyond the {} ft maximum range",
                        3 * weapon.range_increment
                    )
                });
            }
            Ok(())
        }
        Choice::Grapple(t) | Choice::Pummel(t) => {
            may_attack(w, state, actor, t)?;
            in_reach_after_half_move(w, state, actor, t, 5)
        }
        Choice::Overbear(t) => {
            may_attack(w, state, actor, t)?;
            if too_big_to_overbear(p.size, state.p(t).size) {
                return no(w, "CNC-R13.3", || {
                    "a defender two or more sizes larger cannot be overborne"
                });
            }
            in_reach_after_half_move(w, state, actor, t, 5)
        }
        Choice::Disarm(t) => {
            if !m.disarm {
                return no(w, "CNC-G14", || "disarming is switched off for this fight");
            }
            if !p.can_disarm {
                return no(w, "CNC-R17.3", || {
                    "only fighters, rangers, knights, rogues, assassins, clerics and paladins (and monsters the CK enables) may disarm"
                });
            }
            may_attack(w, state, actor, t)?;
            if !state.p(t).armed || state.f(t).disarmed {
                return no(w, "CNC-R17.3", || "the target holds no weapon");
            }
            in_reach_after_half_move(w, state, actor, t, p.reach())
        }
        Choice::Cast(m, t) => {
            let Some(k) = p.spells.iter().position(|&x| x == m) else {
                return no(w, "CNC-R4.3", || "does not know that spell");
            };
            if me.spells_left[k] == 0 {
                return no(w, "CNC-R4.3", || "no casts of that spell left");
            }
            if me.casting.is_some() {
                return no(w, "CNC-R4.3", || "already casting a spell");
            }
            aim_and_range(w, state, actor, m, t, 0, "CNC-R4.3")
        }
        Choice::UseAbility(m, t) => {
            let Some(k) = p.abilities.iter().position(|&x| x == m) else {
                return no(w, "CNC-R4.5", || "does not have that ability");
            };
            if me.abilities_left[k] == 0 {
                return no(w, "CNC-R4.5", || "no uses of that ability left");
            }
            // An ability that involves movement may cover up to the movement rate (CNC-R4.5, G6).
            let extra = if state.magic[m as usize].moves {
                p.movement
            } else {
                0
            };
            aim_and_range(w, state, actor, m, t, extra, "CNC-R4.5")
        }
        Choice::UseItem(m, t) => {
            if state.item_slot(actor, m, true).is_none() {
                return if state.item_slot(actor, m, false).is_some() {
                    no(w, "CNC-R4.6", || {
                        "that item is packed away: ready it first (it takes a round)"
                    })
                } else {
                    no(w, "CNC-R4.6", || "no such item at hand")
                };
            }
            aim_and_range(w, state, actor, m, t, 0, "CNC-R4.6")
        }
        Choice::ReadyItem(m) => {
            if state.item_slot(actor, m, false).is_none() {
                return no(w, "CNC-R4.6", || "no such item packed away");
            }
            Ok(())
        }
        Choice::Aid(t) => {
            if state.enemies(actor, t) || t == actor {
                return no(w, "CNC-R19", || "aid is given to a wounded ally");
            }
            if !needs_aid(state, t) {
                return no(w, "CNC-R19", || {
                    "only a mortally wounded (−7 to −9) creature needs aid"
                });
            }
            if strike_square(state, actor, t, 5, half_move(state, actor)).is_none() {
                return no(w, "CNC-R5.4", || "the ally is more than half a move away");
            }
            Ok(())
        }
        Choice::Advance(t, _) => {
            if t == actor {
                return no(w, "CNC-R4.4", || "cannot move toward itself");
            }
            Ok(())
        }
        Choice::Withdraw(_) => Ok(()),
        Choice::MoveTo(pos, pace) => {
            let budget = squares_for(p.movement * pace.multiple());
            if me.pos.squares_to(pos) > budget {
                return no(w, "CNC-R4.4", || {
                    format!(
                        "that square is beyond a {} of {} ft",
                        pace.key(),
                        p.movement * pace.multiple()
                    )
                });
            }
            if !free(state, pos, actor) {
                return no(w, "CNC-R5.1", || "that square is occupied");
            }
            Ok(())
        }
        _ => no(w, "CNC-R4.1", || {
            "not an action; announcements are made before initiative"
        }),
    }
}

/// Whom a spell or item may be aimed at, and how far. [CNC-R4.3, CNC-R4.6]
fn aim_and_range(
    w: bool,
    state: &State,
    actor: CombatantId,
    magic: u16,
    t: CombatantId,
    extra_ft: i32,
    rule: &'static str,
) -> Result<(), Illegal> {
    let m = &state.magic[magic as usize];
    match m.target {
        Aim::Myself if t != actor => {
            return no(w, rule, || format!("{} affects only its user", m.id))
        }
        Aim::Ally if state.enemies(actor, t) => {
            return no(w, rule, || format!("{} is for a friend", m.id))
        }
        Aim::Foe if !state.enemies(actor, t) => {
            return no(w, rule, || format!("{} is for a foe", m.id))
        }
        _ => {}
    }
    if !state.f(t).present() || (m.target == Aim::Foe && !state.f(t).fights_on()) {
        return no(w, rule, || {
            format!("{} is out of the fight", state.roster.name(t))
        });
    }
    let d = state.f(actor).pos.feet_to(state.f(t).pos);
    let reach = m.range.max(5) + extra_ft;
    if t != actor && d > reach {
        return no(w, rule, || {
            format!("{} reaches {reach} ft; the target is {d} ft away", m.id)
        });
    }
    Ok(())
}

/// The declarations offered to `actor` (CNC-R6.1, CNC-R17). Evade is offered against engaged
/// foes; any up foe is accepted.
pub fn declaration_options(state: &State, actor: CombatantId, out: &mut Vec<Choice>) {
    out.clear();
    out.push(Choice::NoDeclaration);
    for t in state.ids() {
        if check(
            false,
            state,
            actor,
            Question::Declaration,
            &Choice::Charge(t),
        )
        .is_ok()
        {
            out.push(Choice::Charge(t));
        }
    }
    for c in [
        Choice::Dodge,
        Choice::DisengageHasty,
        Choice::DisengageFighting,
    ] {
        if check(false, state, actor, Question::Declaration, &c).is_ok() {
            out.push(c);
        }
    }
    if state.options.maneuvers.evade {
        let engaged: Vec<CombatantId> = state.engaged_foes(actor, state.round).collect();
        out.extend(engaged.into_iter().map(Choice::Evade));
    }
}

/// The actions offered to `actor` on its turn (CNC-R4). `MoveTo` is accepted but not listed.
/// Computed target by target without words (it runs for every turn of every simulated fight);
/// a property test checks that every option offered passes [`check`].
pub fn action_options(state: &State, actor: CombatantId, out: &mut Vec<Choice>) {
    out.clear();
    let me = state.f(actor);
    if me.held_by.is_some() {
        out.extend([Choice::BreakHold, Choice::Hold]);
        return;
    }
    let p = state.p(actor);
    let m = state.options.maneuvers;
    let half = half_move(state, actor);
    let reach = p.reach();
    let melee_ok = can_melee(state, actor);
    let cover_blocks = state.options.cover_forbids_attacks && me.cover != Cover::None;
    let two_weapons = m.two_weapon && (p.off_hand.is_some() || p.monk);
    for t in state.ids() {
        if t == actor {
            continue;
        }
        let target = state.f(t);
        if !state.enemies(actor, t) {
            if needs_aid(state, t) && strike_square(state, actor, t, 5, half).is_some() {
                out.push(Choice::Aid(t));
            }
            continue;
        }
        if !target.fights_on() {
            continue;
        }
        if !cover_blocks && me.free_attacked != Some(t) {
            let weapon_reach = strike_square(state, actor, t, reach, half).is_some();
            let hand_reach = if reach == 5 {
                weapon_reach
            } else {
                strike_square(state, actor, t, 5, half).is_some()
            };
            if weapon_reach && melee_ok {
                out.push(Choice::Attack(t));
                if !p.monster {
                    out.push(Choice::Subdue(t));
                }
                if two_weapons {
                    out.push(Choice::TwoWeapons(t));
                }
            }
            if let Some(w) = &p.ranged {
                let d = me.pos.feet_to(target.pos);
                if range_band(w.range_increment, d) != Band::Beyond {
                    out.push(Choice::Shoot(t));
                }
            }
            if hand_reach {
                out.push(Choice::Grapple(t));
                out.push(Choice::Pummel(t));
                if !too_big_to_overbear(p.size, state.p(t).size) {
                    out.push(Choice::Overbear(t));
                }
            }
            if weapon_reach && m.disarm && p.can_disarm && state.p(t).armed && !target.disarmed {
                out.push(Choice::Disarm(t));
            }
        }
        if !me.pos.within_reach(target.pos, reach) {
            out.extend([Pace::Walk, Pace::Jog, Pace::Run].map(|pace| Choice::Advance(t, pace)));
        }
    }
    // Spells and items: every target they may be aimed at (CNC-R4.3, CNC-R4.6).
    let p = state.p(actor);
    let mut magic: Vec<Choice> = Vec::new();
    for t in state.ids() {
        for &m in &p.spells {
            magic.push(Choice::Cast(m, t));
        }
        for &m in &p.items {
            magic.push(Choice::UseItem(m, t));
        }
        for &m in &p.abilities {
            magic.push(Choice::UseAbility(m, t));
        }
    }
    for &m in &p.items {
        magic.push(Choice::ReadyItem(m));
    }
    for c in magic {
        if !out.contains(&c) && check_action(false, state, actor, c).is_ok() {
            out.push(c);
        }
    }
    if me.disarmed {
        out.push(Choice::Recover);
    }
    out.extend([Pace::Walk, Pace::Jog, Pace::Run].map(Choice::Withdraw));
    out.push(Choice::Hold);
}
