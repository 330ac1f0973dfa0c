//! Default tactics for C&C: close and attack, focus fire on the weakest foe in reach, shoot when
//! not engaged, charge when the distance is right, tend dying friends when safe, and disengage
//! when badly hurt, outnumbered and able to fight from range. The simulator reuses this policy.
//!
//! The policy reasons directly with the legality checks instead of listing every option (it runs
//! for every decision of every simulated fight); its choices are always legal (a property test).

use crate::choice::{Choice, Pace};
use crate::rules::attack::{can_melee, range_band, Band};
use crate::rules::damage::needs_aid;
use crate::rules::legal::check;
use crate::rules::movement::{charge_distance_ok, half_move, strike_square};
use crate::state::{Cover, State};
use fray_core::protocol::{ChoiceRequest, Chooser, Question};
use fray_core::CombatantId;

/// The default choice for a request.
pub fn choose(state: &State, request: &ChoiceRequest<'_, Choice>) -> Choice {
    let Chooser::Combatant(me) = request.chooser else {
        return request.options.first().copied().unwrap_or(Choice::No);
    };
    match request.question {
        Question::Reaction => Choice::Yes,
        Question::Declaration => declaration(state, me),
        Question::Action | Question::Ruling => action(state, me),
    }
}

fn foes(state: &State, me: CombatantId) -> impl Iterator<Item = CombatantId> + '_ {
    state
        .ids()
        .filter(move |&o| state.enemies(me, o) && state.f(o).fights_on())
}

fn nearest_foe(state: &State, me: CombatantId) -> Option<CombatantId> {
    let pos = state.f(me).pos;
    foes(state, me).min_by_key(|&o| (pos.squares_to(state.f(o).pos), state.f(o).hp, o))
}

fn declaration(state: &State, me: CombatantId) -> Choice {
    let f = state.f(me);
    let p = state.p(me);
    let engaged = state.engaged_foes(me, state.round).next().is_some();
    // Badly hurt, outnumbered, and able to keep fighting from range: step back.
    let back_off = Choice::DisengageFighting;
    if engaged
        && f.hp * 4 <= p.max_hp
        && state.engaged_foes(me, state.round).count() >= 2
        && p.ranged.is_some()
        && check(false, state, me, Question::Declaration, &back_off).is_ok()
    {
        return back_off;
    }
    if !engaged {
        if let Some(target) = nearest_foe(state, me) {
            // Within half a move of a square in reach (open ground: a fine estimate for a plan).
            let gap = f.pos.squares_to(state.f(target).pos) - (p.reach() / 5).max(1);
            let reachable = gap <= half_move(state, me) / 5;
            let charge = Choice::Charge(target);
            let distance = f.pos.feet_to(state.f(target).pos);
            if !reachable
                && charge_distance_ok(p.movement, distance)
                && check(false, state, me, Question::Declaration, &charge).is_ok()
            {
                return charge;
            }
        }
    }
    Choice::NoDeclaration
}

fn action(state: &State, me: CombatantId) -> Choice {
    let f = state.f(me);
    let p = state.p(me);
    if f.held_by.is_some() {
        return Choice::BreakHold;
    }
    let half = half_move(state, me);
    let engaged = state.engaged_foes(me, state.round).next().is_some();
    // Tend a dying friend when no foe is at hand.
    if !engaged {
        let friend = state.ids().find(|&o| {
            o != me
                && !state.enemies(me, o)
                && needs_aid(state, o)
                && strike_square(state, me, o, 5, half).is_some()
        });
        if let Some(friend) = friend {
            return Choice::Aid(friend);
        }
    }
    let may_attack = |t: CombatantId| {
        f.free_attacked != Some(t)
            && !(state.options.cover_forbids_attacks && f.cover != Cover::None)
    };
    // Focus fire: the weakest foe within reach after at most half a move. Candidates are tried
    // weakest first, so the (costlier) reach test runs only until one passes.
    let mut by_hp: [(i32, CombatantId); 24] = [(0, CombatantId(0)); 24];
    let mut n = 0;
    for t in foes(state, me).filter(|&t| may_attack(t)) {
        if n < by_hp.len() {
            by_hp[n] = (state.f(t).hp, t);
            n += 1;
        }
    }
    let by_hp = &mut by_hp[..n];
    by_hp.sort_unstable();
    // More foes than the array holds: fall back to considering all of them.
    let overflow = n == 24 && foes(state, me).count() > n;
    if can_melee(state, me) {
        let reach = p.reach();
        let target = if overflow {
            foes(state, me)
                .filter(|&t| may_attack(t) && strike_square(state, me, t, reach, half).is_some())
                .min_by_key(|&t| (state.f(t).hp, t))
        } else {
            by_hp
                .iter()
                .map(|&(_, t)| t)
                .find(|&t| strike_square(state, me, t, reach, half).is_some())
        };
        if let Some(t) = target {
            let two = state.options.maneuvers.two_weapon && (p.off_hand.is_some() || p.monk);
            return if two {
                Choice::TwoWeapons(t)
            } else {
                Choice::Attack(t)
            };
        }
    }
    // Not engaged: shoot the nearest foe in range, the weakest among equals.
    if let (false, Some(w)) = (engaged, &p.ranged) {
        let pos = f.pos;
        let target = foes(state, me)
            .filter(|&t| {
                may_attack(t)
                    && range_band(w.range_increment, pos.feet_to(state.f(t).pos)) != Band::Beyond
            })
            .min_by_key(|&t| (pos.squares_to(state.f(t).pos), state.f(t).hp, t));
        if let Some(t) = target {
            return Choice::Shoot(t);
        }
    }
    // Disarmed: fists.
    let target = by_hp
        .iter()
        .map(|&(_, t)| t)
        .find(|&t| strike_square(state, me, t, 5, half).is_some());
    if let Some(t) = target {
        return Choice::Pummel(t);
    }
    match nearest_foe(state, me) {
        Some(t) => Choice::Advance(t, Pace::Run),
        None => Choice::Hold,
    }
}
