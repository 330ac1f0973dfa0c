//! Default tactics for C&C: close and attack, focus fire on the weakest foe in reach, shoot when
//! not engaged, charge when the distance is right, tend dying friends when safe, and disengage
//! when badly hurt, outnumbered and able to fight from range. The simulator reuses this policy.
//!
//! The policy reasons directly with the legality checks instead of listing every option (it runs
//! for every decision of every simulated fight); its choices are always legal (a property test).

use crate::choice::{Choice, Pace};
use crate::content::EffectKind;
use crate::rules::attack::{can_melee, range_band, Band};
use crate::rules::damage::needs_aid;
use crate::rules::legal::check;
use crate::rules::movement::{charge_distance_ok, half_move, strike_square};
use crate::state::{Cover, State};
use fray_core::occupancy::OUT_OF_FIGHT;
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
    let side = state.f(me).side;
    state
        .fighters
        .iter()
        .enumerate()
        .filter(move |(_, f)| f.side != side && f.fights_on())
        .map(|(i, _)| CombatantId(i as u16))
}

/// The nearest foe still fighting (ties: fewest hit points, then lowest id), found by a ring
/// search of the occupancy index.
fn nearest_foe(state: &State, me: CombatantId) -> Option<CombatantId> {
    nearest_foe_within(state, me, i32::MAX, |_| true)
}

/// [`nearest_foe`] among the foes within `max_squares` for whom `wanted` holds.
fn nearest_foe_within(
    state: &State,
    me: CombatantId,
    max_squares: i32,
    wanted: impl Fn(CombatantId) -> bool,
) -> Option<CombatantId> {
    let (pos, side) = (state.f(me).pos, state.f(me).side);
    state
        .occupancy
        // Friends are in the searcher's layer of the index (its side): skipped unread.
        .nearest_outside(pos, max_squares, side.0, |o, _| {
            let f = state.f(o);
            (f.side != side && f.fights_on() && wanted(o)).then_some(f.hp)
        })
        .map(|(_, _, o)| o)
}

fn declaration(state: &State, me: CombatantId) -> Choice {
    let f = state.f(me);
    let p = state.p(me);
    let engaged = state.engaged(me, state.round);
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
    // A caster with a spell or item to use this round does not charge.
    if !engaged && magic(state, me, false).is_none() {
        // Only a foe within the jogging rate can be charged (CNC-R6.2): a farther nearest foe
        // means no charge, so the search stops there.
        let jog_squares = (2 * p.movement.max(0)) / 5;
        if let Some(target) = nearest_foe_within(state, me, jog_squares, |_| true) {
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

/// The weakest foe (fewest hit points, then lowest id) that `me` can strike with `reach_ft`
/// after moving at most `budget_ft`. Foes are first filtered by a cheap distance bound, and the
/// square search runs weakest first until one passes.
fn weakest_reachable(
    state: &State,
    me: CombatantId,
    reach_ft: i32,
    budget_ft: i32,
    may_attack: &dyn Fn(CombatantId) -> bool,
) -> Option<CombatantId> {
    let (pos, side) = (state.f(me).pos, state.f(me).side);
    let bound = budget_ft / 5 + (reach_ft / 5).max(1);
    let near = |t: CombatantId| {
        let f = state.f(t);
        f.side != side && f.fights_on() && may_attack(t)
    };
    // Foes within the bound, from the occupancy index (their order does not matter: the least
    // is taken below, and only their number decides whether the area is crowded). Friends (the
    // searcher's layer) and the fallen (OUT_OF_FIGHT) are skipped unread: `near` rejects them.
    // Each is kept as one integer ordered as `(hp, id)`: hit points offset to be unsigned, above
    // the 16 bits of the id.
    let mut found = [u64::MAX; 16];
    let mut n = 0;
    let mut crowded = false;
    state
        .occupancy
        .each_within_outside(pos, bound, side.0, |t, _| {
            if near(t) {
                if n == found.len() {
                    crowded = true;
                } else {
                    let hp = (i64::from(state.f(t).hp) - i64::from(i32::MIN)) as u64;
                    found[n] = (hp << 16) | u64::from(t.0);
                    n += 1;
                }
            }
        });
    if crowded {
        // Crowded: consider every nearby foe directly.
        return state
            .occupancy
            .within(pos, bound, near)
            .iter()
            .filter(|&t| strike_square(state, me, t, reach_ft, budget_ft).is_some())
            .min_by_key(|&t| (state.f(t).hp, t));
    }
    // Weakest first until one can be struck: the least key left (no sort: usually the first
    // is struck), struck off when it cannot.
    let found = &mut found[..n];
    loop {
        let (k, key) = found
            .iter()
            .copied()
            .enumerate()
            .min_by_key(|&(_, key)| key)?;
        if key == u64::MAX {
            return None;
        }
        let t = CombatantId(key as u16);
        if strike_square(state, me, t, reach_ft, budget_ft).is_some() {
            return Some(t);
        }
        found[k] = u64::MAX;
    }
}

/// Spells and items: heal the worst-hurt friend in range (at a third of its hit points or less),
/// else, when not engaged, harm the weakest foe in range.
fn magic(state: &State, me: CombatantId, engaged: bool) -> Option<Choice> {
    let p = state.p(me);
    if p.spells.is_empty() && p.items.is_empty() && p.abilities.is_empty() {
        return None;
    }
    let legal = |c: &Choice| check(false, state, me, Question::Action, c).is_ok();
    let options = |t: CombatantId| {
        p.spells
            .iter()
            .map(move |&m| Choice::Cast(m, t))
            .chain(p.items.iter().map(move |&m| Choice::UseItem(m, t)))
            .chain(p.abilities.iter().map(move |&m| Choice::UseAbility(m, t)))
    };
    let effect = |c: &Choice| match c {
        Choice::Cast(m, _) | Choice::UseItem(m, _) | Choice::UseAbility(m, _) => {
            Some(state.magic[*m as usize].effect)
        }
        _ => None,
    };
    let mut hurt: Vec<CombatantId> = state
        .ids()
        .filter(|&o| {
            let f = state.f(o);
            !state.enemies(me, o) && f.present() && f.hp * 3 <= state.p(o).max_hp
        })
        .collect();
    hurt.sort_by_key(|&o| (state.f(o).hp, o));
    for t in hurt {
        if let Some(c) = options(t).find(|c| effect(c) == Some(EffectKind::Heal) && legal(c)) {
            return Some(c);
        }
    }
    if engaged {
        return None;
    }
    let mut foes_by_hp: Vec<CombatantId> = foes(state, me).collect();
    foes_by_hp.sort_by_key(|&o| (state.f(o).hp, o));
    foes_by_hp
        .into_iter()
        .find_map(|t| options(t).find(|c| effect(c) == Some(EffectKind::Damage) && legal(c)))
}

fn action(state: &State, me: CombatantId) -> Choice {
    let f = state.f(me);
    let p = state.p(me);
    if f.held_by.is_some() {
        return Choice::BreakHold;
    }
    let half = half_move(state, me);
    let engaged = state.engaged(me, state.round);
    if let Some(c) = magic(state, me, engaged) {
        return c;
    }
    // Tend a dying friend when no foe is at hand.
    if !engaged {
        // Only friends within half a move and a step can be reached (occupancy index). A friend
        // in need is in its side's layer (felled in its own initiative group, it still fights
        // on) or out of the fight: the foes' layers are not read.
        let friend = state
            .occupancy
            .within_inside(f.pos, half / 5 + 1, [f.side.0, OUT_OF_FIGHT], |o| {
                o != me && !state.enemies(me, o) && needs_aid(state, o)
            })
            .iter()
            .find(|&o| strike_square(state, me, o, 5, half).is_some());
        if let Some(friend) = friend {
            return Choice::Aid(friend);
        }
    }
    // Disarmed with no natural weapon to fall back on: pick the weapon up (CNC-R17.3).
    if f.disarmed && !can_melee(state, me) {
        return Choice::Recover;
    }
    let may_attack = |t: CombatantId| {
        f.free_attacked != Some(t)
            && !(state.options.cover_forbids_attacks && f.cover != Cover::None)
    };
    // Focus fire: the weakest foe within reach after at most half a move.
    let mut fists_asked = false;
    if can_melee(state, me) {
        let reach = p.reach();
        // With a 5-ft reach, the fists below would ask the same question of the same state.
        fists_asked = reach == 5;
        if let Some(t) = weakest_reachable(state, me, reach, half, &may_attack) {
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
        // Beyond three range increments nobody can be shot (CNC-R8.3).
        let max_squares = (3 * w.range_increment.max(0)) / 5;
        let target = nearest_foe_within(state, me, max_squares, |t| {
            may_attack(t)
                && range_band(w.range_increment, pos.feet_to(state.f(t).pos)) != Band::Beyond
        });
        if let Some(t) = target {
            return Choice::Shoot(t);
        }
    }
    // Disarmed (or a longer reach found nobody): fists.
    if !fists_asked {
        if let Some(t) = weakest_reachable(state, me, 5, half, &may_attack) {
            return Choice::Pummel(t);
        }
    }
    match nearest_foe(state, me) {
        Some(t) => Choice::Advance(t, Pace::Run),
        None => Choice::Hold,
    }
}
