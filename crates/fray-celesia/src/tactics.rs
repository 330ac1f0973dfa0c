//! The default tactics: what a sensible player of a combatant would choose. Every choice is
//! checked against the rules before it is made (the property tests hold it to that).
//!
//! On its turn a mount without its rider withdraws (the free square within its speed farthest
//! from its nearest foe), a rider with a two-handed weapon guides its mount with the knees (CEL-R21.4), a
//! combatant stands up if prone, strikes the weakest foe in reach with its best
//! form (a reach weapon steps back from a foe too close), or trips or disarms it when that
//! is worth more ([`crate::maneuver_tactics`]), picks up a weapon it dropped, shoots when no foe is in reach (a bow at any range; a thrown weapon only at foes it
//! cannot reach this turn, since ammunition is not counted), charges with three acts left,
//! else moves toward the nearest foe. It always takes an attack of opportunity, and takes a
//! crippling injury (permanent) only when the damage would kill it.

use crate::choice::Choice;
use crate::content::WeaponKind;
use crate::rules::legal::check_action;
use crate::state::{reaches, Asking, Band, Injury, State};
use fray_core::{Board, ChoiceRequest, CombatantId};

/// The default choice for the pending request.
pub fn choose(state: &State, request: &ChoiceRequest<'_, Choice>) -> Choice {
    let pick = match state.asking {
        Asking::Action(who) => action(state, who),
        Asking::Delayed(_) => Choice::Rejoin,
        Asking::Opportunity { provoker, .. } => Choice::Opportunity(provoker),
        Asking::Injury { who, damage } => injury(state, who, damage),
        Asking::LetPass { .. } => Choice::Block,
        Asking::Readied { foe, .. } => Choice::Complete(foe),
        // Default tactics never cast, so they never counterspell either (docs/celesia.md).
        Asking::Counterspell { .. } => Choice::Decline,
        // A free action that costs nothing unless the GM limits or strains it: taken.
        Asking::Identify { caster, .. } => Choice::Identify(caster),
        Asking::Ruling { about, .. } => crate::rules::ruling::default_ruling(about),
        Asking::Saddle { rider, .. } => saddle(state, rider, request.options),
        Asking::Nothing => Choice::End,
    };
    if request.options.is_empty() || request.options.contains(&pick) {
        pick
    } else {
        request.options[0]
    }
}

/// Along its mount's move (CEL-R21.8): the knees first for a two-handed bow, then a shot at the
/// nearest foe it may shoot (fewest hit points among the nearest), else wait.
fn saddle(state: &State, rider: CombatantId, options: &[Choice]) -> Choice {
    if options.contains(&Choice::Knees) {
        return Choice::Knees;
    }
    options
        .iter()
        .filter_map(|c| match *c {
            Choice::Shoot(t) => Some((state.gap(rider, t), state.f(t).hp, t)),
            _ => None,
        })
        .min_by_key(|&(gap, hp, _)| (gap, hp))
        .map_or(Choice::Wait, |(_, _, t)| Choice::Shoot(t))
}

fn legal(state: &State, who: CombatantId, c: Choice) -> Option<Choice> {
    check_action(false, state, who, &c).ok().map(|()| c)
}

fn average(w: &crate::content::Weapon) -> i32 {
    i32::from(w.damage.count) * (i32::from(w.damage.sides) + 1) + 2 * w.damage.bonus
}

fn action(state: &State, who: CombatantId) -> Choice {
    let f = state.f(who);
    // Each act while disabled costs a hit point (CEL-R17.2): do not act into the dying band.
    // Unless every foe still up is as badly off (else two such foes would wait forever).
    if state.band(who) == Band::Disabled && f.hp - 1 <= -state.p(who).con() {
        let foes_healthy = state
            .ids()
            .any(|o| state.enemies(o, who) && state.up(o) && state.band(o) == Band::Healthy);
        if foes_healthy {
            return Choice::End;
        }
    }
    // CEL-R21.11, CEL-G10: a mount without its rider avoids combat: it withdraws.
    if f.riderless {
        return withdraw(state, who).unwrap_or(Choice::End);
    }
    // CEL-R21.4: a rider with a two-handed weapon guides its mount with the knees first.
    if f.riding.is_some() && f.knees.is_none() {
        let p = state.p(who);
        let two = p
            .melee
            .first()
            .is_some_and(crate::rules::mounted::both_hands)
            || p.ranged
                .as_ref()
                .is_some_and(crate::rules::mounted::both_hands);
        if two {
            if let Some(c) = legal(state, who, Choice::Knees) {
                return c;
            }
        }
    }
    if f.prone {
        if let Some(c) = legal(state, who, Choice::StandUp) {
            return c;
        }
    }
    // A weapon it dropped (disarmed) lies on or next to its square: it picks it up (CEL-R9
    // Manipulate an Item).
    for &(item, _) in &f.on_ground {
        if let Some(c) = legal(state, who, Choice::PickUp(item)) {
            return c;
        }
    }
    // CEL-R9: with nothing in hand, draw a weapon.
    if let Some(c) = crate::rules::wield::tactic(state, who) {
        return c;
    }
    // The weakest foe in reach, with the best form that reaches it.
    let pos = f.pos;
    // The least key wins whatever order the foes come in (the key ends with the foe's id).
    let mut best: Option<((i32, CombatantId), Choice)> = None;
    state.each_foe_within(who, state.reach_squares, |t| {
        let key = (state.f(t).hp, t);
        if best.is_some_and(|(k, _)| key >= k) {
            // Not better than the best so far (the best itself: a foe of several squares comes
            // once per square), legal or not: its form and legality are not worked out.
            return;
        }
        let gap = state.gap(who, t);
        let form = state
            .melee_forms(who)
            .filter(|(_, w)| w.kind != WeaponKind::Unarmed && reaches(w, gap))
            .max_by_key(|(i, w)| (average(w), -(*i as i32)))
            .map(|(i, _)| Choice::Attack(t, i as u8))
            .or_else(|| {
                (gap == 1
                    && state
                        .p(who)
                        .melee
                        .iter()
                        .all(|w| w.kind == WeaponKind::Unarmed))
                .then_some(Choice::Unarmed(t))
            });
        if let Some(c) = form.and_then(|c| legal(state, who, c)) {
            best = Some((key, c));
        }
    });
    if let Some((_, c)) = best {
        // A trip or a disarm when it is worth more than the blow (issue 16).
        return crate::maneuver_tactics::better(state, who, c).unwrap_or(c);
    }
    let nearest = state.nearest_foe(who);
    // Foes too close for a reach weapon (CEL-R9 Attack, Melee): step back to strike them.
    if let Some(t) = nearest {
        if state.gap(who, t) == 1 && state.melee_forms(who).any(|(_, w)| w.reach_only) {
            for d in fray_core::Direction::ALL {
                let gap = state.gap_from(who, pos.step(d), t);
                let can_strike = state
                    .melee_forms(who)
                    .any(|(_, w)| w.kind != WeaponKind::Unarmed && reaches(w, gap));
                if can_strike {
                    if let Some(c) = legal(state, who, Choice::Step(d)) {
                        return c;
                    }
                }
            }
        }
    }
    if let (Some(t), Some(w)) = (nearest, state.ranged_weapon(who)) {
        let d = state.gap(who, t);
        let out_of_reach = d - 1 > state.speed_squares(who) * f.acts_left.max(1);
        if w.kind == WeaponKind::Projectile || out_of_reach {
            if let Some(c) = legal(state, who, Choice::Shoot(t)) {
                return c;
            }
            // CEL-R9–R13: an empty crossbow or firearm is loaded (a flask prepared) first.
            if let Some(c) = crate::rules::ammo::tactic(state, who) {
                return c;
            }
        }
    }
    if let Some(t) = nearest {
        if f.acts_left >= 3 {
            if let Some(c) = legal(state, who, Choice::Charge(t)) {
                return c;
            }
        }
        if let Some(c) = legal(state, who, Choice::Approach(t)) {
            return c;
        }
    }
    Choice::End
}

/// A riderless mount's withdrawal (CEL-R21.11 "avoids combat", CEL-G10): a Move to the free
/// square within its speed farthest from its nearest foe still up (ties: the nearer square, then
/// north first, then the one farther back from that foe), if that is farther than where it
/// stands.
fn withdraw(state: &State, who: CombatantId) -> Option<Choice> {
    let at = state.f(who).pos;
    let speed = state.speed_squares(who);
    let away = |p| state.nearest_foe_distance(who, p).unwrap_or(i32::MAX);
    let now = away(at);
    // East–west ties go away from the nearest foe (the mover's frame: mirror matches are fair).
    let back = state
        .nearest_foe(who)
        .map_or(0, |foe| (at.x - state.f(foe).pos.x).signum());
    let mut best: Option<((i32, i32, i32, i32), fray_core::Pos)> = None;
    for dy in -speed..=speed {
        for dx in -speed..=speed {
            let p = fray_core::Pos::new(at.x + dx, at.y + dy);
            if p == at || !state.square_free(p, who) {
                continue;
            }
            let key = (-away(p), dx.abs().max(dy.abs()), dy, -dx * back);
            if -key.0 > now && best.is_none_or(|(k, _)| key < k) {
                best = Some((key, p));
            }
        }
    }
    best.and_then(|(_, p)| legal(state, who, Choice::MoveTo(p)))
}

/// Take an injury (permanent) only when the damage would kill: the smallest that keeps it alive,
/// else the largest there is.
fn injury(state: &State, who: CombatantId, damage: i32) -> Choice {
    let (hp, con) = (state.f(who).hp, state.p(who).con());
    if hp - damage > -2 * con {
        return Choice::NoInjury;
    }
    let injuries = state.f(who).injuries;
    let mut available = Injury::ALL.into_iter().filter(|i| injuries.available(*i));
    available
        .clone()
        .find(|i| hp - (damage - i.negates()).max(0) > -2 * con)
        .or_else(|| available.next_back())
        .map_or(Choice::NoInjury, Choice::Injury)
}
